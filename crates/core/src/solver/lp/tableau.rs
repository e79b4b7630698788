//! A dense phase-1 simplex tableau (Kreuzer, "On Convex Polytopes, Collision Detection,
//! and the Simplex Method"): `A x = b`, `x ≥ 0`, `b ≥ 0`, one artificial variable per row,
//! minimise their sum. Bland's rule picks the entering column (the smallest index with a
//! negative reduced cost); among the rows tied for the minimum ratio the largest pivot
//! magnitude wins (Kreuzer warns that cancellation can make even Bland's rule cycle: a
//! tiny pivot is where it starts), then the smallest basic index; a basis that comes back
//! hands over to plain Bland (`pivoting.rs`). The pivot cap is Kreuzer's: columns × rows.
//! Each pivot updates the whole tableau, O(rows × columns): `revised.rs` is the fast variant.

use super::pivoting::{CycleGuard, Phase1Solver};
pub use super::pivoting::{Phase1, Pivot, TieRule};

/// The tableau: `rows` constraint rows over `n` structural and `rows` artificial
/// columns and the right-hand side, then the reduced-cost row.
#[derive(Clone, Debug)]
pub struct Tableau {
    pub rows: usize,
    /// Structural columns.
    pub n: usize,
    width: usize,
    t: Vec<f64>,
    /// The basic variable of each row (a column index).
    pub basis: Vec<usize>,
    /// Each row's sign flip (so that its right-hand side is ≥ 0).
    pub flip: Vec<f64>,
    /// How the leaving row is chosen among those tied for the minimum ratio.
    pub ties: TieRule,
    /// A pivot cap instead of Kreuzer's columns × rows.
    pub max_pivots: Option<usize>,
}

impl Tableau {
    /// The phase-1 tableau of `a x = b` (`a` row-major, `rows × n`).
    pub fn new(a: &[f64], b: &[f64], n: usize) -> Self {
        let rows = b.len();
        let width = n + rows + 1;
        let mut t = vec![0.0; (rows + 1) * width];
        let mut flip = vec![1.0; rows];
        for r in 0..rows {
            flip[r] = if b[r] < 0.0 { -1.0 } else { 1.0 };
            for j in 0..n {
                t[r * width + j] = a[r * n + j] * flip[r];
            }
            t[r * width + n + r] = 1.0;
            t[r * width + width - 1] = b[r] * flip[r];
        }
        // Reduced costs of min Σ artificials with the artificials basic: −(column sums).
        for j in 0..n {
            let sum: f64 = (0..rows).map(|r| t[r * width + j]).sum();
            t[rows * width + j] = -sum;
        }
        let rhs: f64 = (0..rows).map(|r| t[r * width + width - 1]).sum();
        t[rows * width + width - 1] = -rhs;
        Self {
            rows,
            n,
            width,
            t,
            basis: (n..n + rows).collect(),
            flip,
            ties: TieRule::default(),
            max_pivots: None,
        }
    }

    pub fn at(&self, r: usize, j: usize) -> f64 {
        self.t[r * self.width + j]
    }

    /// Row `r`'s right-hand side (the basic variable's value).
    pub fn rhs(&self, r: usize) -> f64 {
        self.t[r * self.width + self.width - 1]
    }

    /// The artificials' sum.
    pub fn objective(&self) -> f64 {
        -self.t[self.rows * self.width + self.width - 1]
    }

    /// Every entry, row-major: the constraint rows, then the reduced costs.
    pub fn values(&self) -> Vec<f64> {
        self.t.clone()
    }

    pub fn columns(&self) -> usize {
        self.width - 1
    }

    /// The value of every variable (structural then artificial).
    pub fn solution(&self) -> Vec<f64> {
        let mut x = vec![0.0; self.columns()];
        for (r, &j) in self.basis.iter().enumerate() {
            x[j] = self.rhs(r);
        }
        x
    }

    /// The phase-1 duals `c_Bᵀ B⁻¹` of the rows as given (sign flips undone): `B⁻¹` is
    /// the artificial block, which started as the identity.
    pub fn duals(&self) -> Vec<f64> {
        (0..self.rows)
            .map(|i| {
                let y: f64 = (0..self.rows)
                    .filter(|&r| self.basis[r] >= self.n)
                    .map(|r| self.at(r, self.n + i))
                    .sum();
                y * self.flip[i]
            })
            .collect()
    }

    /// The next pivot by Bland's rule with the tie rule: (entering, row, ties).
    fn choose(&self) -> Option<(usize, usize, usize)> {
        let z = self.rows;
        let entering = (0..self.columns())
            .find(|&j| self.ties.improves(self.at(z, j)) && !self.basis.contains(&j))?;
        let (row, ties) = self.ties.leaving_row(
            self.rows,
            |r| self.at(r, entering),
            |r| self.rhs(r),
            &self.basis,
        )?;
        Some((entering, row, ties))
    }

    fn pivot(&mut self, row: usize, col: usize) {
        let w = self.width;
        let p = self.t[row * w + col];
        for j in 0..w {
            self.t[row * w + j] /= p;
        }
        for r in 0..=self.rows {
            if r == row {
                continue;
            }
            let f = self.t[r * w + col];
            if f == 0.0 {
                continue;
            }
            for j in 0..w {
                self.t[r * w + j] -= f * self.t[row * w + j];
            }
            self.t[r * w + col] = 0.0;
        }
        self.basis[row] = col;
    }

    /// Pivots to the phase-1 optimum (or the cap), calling `each` after every pivot.
    pub fn solve(&mut self, mut each: impl FnMut(&Tableau, &Pivot)) -> (Phase1, usize) {
        let cap = self.columns() * self.rows;
        let cap = self.max_pivots.unwrap_or(cap);
        let mut pivots = 0;
        let mut guard = CycleGuard::new(self.objective());
        loop {
            let Some((entering, row, ties)) = self.choose() else {
                return (Phase1::Optimal, pivots);
            };
            if pivots >= cap {
                return (Phase1::PivotCap, pivots);
            }
            let leaving = self.basis[row];
            let element = self.at(row, entering);
            self.pivot(row, entering);
            pivots += 1;
            let record = Pivot {
                entering,
                leaving,
                row,
                element,
                ties,
                rule: self.ties,
                objective: self.objective(),
            };
            self.ties = guard.after(self.ties, &self.basis, record.objective);
            each(self, &record);
        }
    }
}

impl Phase1Solver for Tableau {
    fn run(&mut self, each: &mut dyn FnMut(&Self, &Pivot)) -> (Phase1, usize) {
        self.solve(each)
    }
    fn solution(&self) -> Vec<f64> {
        Tableau::solution(self)
    }
    fn duals(&self) -> Vec<f64> {
        Tableau::duals(self)
    }
    fn objective(&self) -> f64 {
        Tableau::objective(self)
    }
    fn shape(&self) -> (usize, usize) {
        (self.rows, self.columns())
    }
    fn tableau_values(&self) -> Vec<f64> {
        self.values()
    }
}

#[cfg(test)]
#[path = "tableau_tests.rs"]
mod tests;
