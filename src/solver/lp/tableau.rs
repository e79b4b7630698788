//! A dense phase-1 simplex tableau (seed 003): `A x = b`, `x ≥ 0`, `b ≥ 0`, one
//! artificial variable per row, minimise their sum. Bland's rule picks the entering
//! column (the smallest index with a negative reduced cost); among the rows tied for
//! the minimum ratio the largest pivot magnitude wins (the seed warns that cancellation
//! can make even Bland's rule cycle: a tiny pivot is where it starts), then the
//! smallest basic index. The pivot cap is the seed's: columns × rows.

/// One pivot: which column entered, which row's basic variable left, and why.
#[derive(Clone, Debug, PartialEq)]
pub struct Pivot {
    pub entering: usize,
    pub leaving: usize,
    /// The row of the pivot element and its value.
    pub row: usize,
    pub element: f64,
    /// How many rows tied for the minimum ratio (the safeguard chose among them).
    pub ties: usize,
    /// The phase-1 objective (the artificials' sum) after the pivot.
    pub objective: f64,
}

/// How the phase ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase1 {
    /// No column improves the objective: optimal.
    Optimal,
    /// The seed's cap of columns × rows pivots was reached.
    PivotCap,
}

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
}

/// The leaving row among rows tied for the minimum ratio.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum TieRule {
    /// The largest pivot element (then the smallest basic index): the safeguard.
    #[default]
    LargestPivot,
    /// Plain Bland: the smallest basic index, however small its pivot element.
    SmallestIndex,
}

/// Reduced costs above `−COST_TOLERANCE` do not improve the objective.
const COST_TOLERANCE: f64 = 1e-12;
/// Pivot elements below this are not admissible.
const PIVOT_TOLERANCE: f64 = 1e-12;

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

    /// The next pivot by Bland's rule with the tie safeguard; `None` when optimal.
    fn choose(&self) -> Option<(usize, usize, usize)> {
        let z = self.rows;
        let entering = (0..self.columns())
            .find(|&j| self.at(z, j) < -COST_TOLERANCE && !self.basis.contains(&j))?;
        let mut best: Option<(f64, usize)> = None;
        let mut ties: Vec<usize> = Vec::new();
        for r in 0..self.rows {
            let e = self.at(r, entering);
            if e <= PIVOT_TOLERANCE {
                continue;
            }
            let ratio = self.rhs(r) / e;
            match best {
                Some((b, _)) if ratio > b + 1e-12 * b.abs().max(1.0) => {}
                Some((b, _)) if ratio >= b - 1e-12 * b.abs().max(1.0) => ties.push(r),
                _ => {
                    best = Some((ratio, r));
                    ties = vec![r];
                }
            }
        }
        best?;
        let row = match self.ties {
            TieRule::LargestPivot => *ties.iter().max_by(|&&r1, &&r2| {
                let (e1, e2) = (self.at(r1, entering), self.at(r2, entering));
                e1.total_cmp(&e2).then(self.basis[r2].cmp(&self.basis[r1]))
            })?,
            TieRule::SmallestIndex => *ties.iter().min_by_key(|&&r| self.basis[r])?,
        };
        Some((entering, row, ties.len()))
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
        let mut pivots = 0;
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
                objective: self.objective(),
            };
            each(self, &record);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_a_feasible_point_or_proves_there_is_none() {
        // x + y = 1, x − y = 0.5: x = 0.75, y = 0.25.
        let mut t = Tableau::new(&[1.0, 1.0, 1.0, -1.0], &[1.0, 0.5], 2);
        let (end, pivots) = t.solve(|_, _| {});
        assert_eq!(end, Phase1::Optimal);
        assert!(pivots >= 2 && t.objective().abs() < 1e-15);
        let x = t.solution();
        assert!((x[0] - 0.75).abs() < 1e-15 && (x[1] - 0.25).abs() < 1e-15);
        // x + y = 1, x + y = 2: infeasible, optimum 1 (the duals certify it).
        let mut t = Tableau::new(&[1.0, 1.0, 1.0, 1.0], &[1.0, 2.0], 2);
        t.solve(|_, _| {});
        assert!((t.objective() - 1.0).abs() < 1e-15);
        let y = t.duals();
        // yᵀA ≤ 0 on every column (no column can improve), yᵀb = the optimum.
        assert!(y[0] + y[1] <= 1e-15);
        assert!((y[0] * 1.0 + y[1] * 2.0 - 1.0).abs() < 1e-15);
    }

    fn collision_tableau(a: &[[f64; 3]], b: &[[f64; 3]], ties: TieRule) -> Tableau {
        let points = |ps: &[[f64; 3]]| {
            ps.iter()
                .map(|p| glam::DVec3::from_array(*p))
                .collect::<Vec<_>>()
        };
        let mut t = crate::solver::lp::collision_tableau(&points(a), &points(b));
        t.ties = ties;
        t
    }

    #[test]
    fn without_the_safeguard_cancellation_corrupts_the_tableau() {
        // Points of a 3 × 3 × 3 lattice jittered by 5e-10 (near ties everywhere), found
        // by a search over 200 000 such inputs: plain Bland (the
        // smallest basic index among ratio ties) pivots on a tiny element here and its
        // objective, a sum of non-negative artificials, comes out at −4.8e-7: round-off
        // has taken over (2.5 % of those inputs; none cycled to the cap with either
        // rule). The largest-pivot safeguard keeps the objective a sum of non-negative
        // numbers, within round-off.
        let a = [
            [2.0000000004618594, 1.9999999997857298, 1.0000000004928182],
            [
                1.9999999995754139,
                3.320792354155565e-10,
                -3.6259178735221523e-10,
            ],
            [
                -1.1183722934482533e-10,
                4.900825526969993e-10,
                2.0000000003876126,
            ],
            [2.00000000014071, 2.9776461267049995e-10, 1.0000000004161365],
            [
                0.9999999997375808,
                2.0095530625642634e-10,
                -1.4277258348233513e-10,
            ],
            [0.9999999999758425, 0.999999999556177, 1.99999999985109],
            [
                1.999999999857426,
                -2.133809365970786e-10,
                1.9999999998993316,
            ],
        ];
        let b = [
            [1.0000000003607123, 1.0000000004189524, 2.000000000031596],
            [
                3.541184577579382e-10,
                1.9999999997627271,
                1.0000000004894558,
            ],
            [2.0000000003098206, 2.000000000341306, 1.0000000002819518],
            [2.000000000145582, 1.0000000002590068, 1.999999999572939],
        ];
        let mut plain = collision_tableau(&a, &b, TieRule::SmallestIndex);
        plain.solve(|_, _| {});
        assert!(plain.objective() < -1e-8, "{}", plain.objective());
        let mut safe = collision_tableau(&a, &b, TieRule::LargestPivot);
        safe.solve(|_, _| {});
        assert!(safe.objective() > -1e-12, "{}", safe.objective());
        assert!(safe.solution().iter().all(|x| *x > -1e-9));
    }
}
