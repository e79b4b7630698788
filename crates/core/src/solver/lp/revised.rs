//! The revised simplex method for the same phase-1 problem as `tableau.rs`: it keeps
//! only the basis inverse `B⁻¹` (rows × rows) and prices the columns from the duals, so
//! a pivot costs at most rows × columns multiply-adds for pricing, stopping at Bland's
//! first improving column, instead of updating the whole dense tableau. `B⁻¹` is
//! updated per pivot and refactored from the original columns every `rows` pivots and
//! after any small pivot element (Gauss–Jordan with partial pivoting, about 2·rows³
//! operations), so round-off does not build up. Same rules as the tableau: Bland's entering column,
//! the tie rule and its cycle guard, Kreuzer's pivot cap.

use super::pivoting::{CycleGuard, Phase1, Phase1Solver, Pivot, TieRule};

/// The revised phase-1 simplex on `A x = b`, `x ≥ 0`, with one artificial per row.
#[derive(Clone, Debug)]
pub struct RevisedSimplex {
    rows: usize,
    /// Structural columns.
    n: usize,
    /// The structural columns, column-major, rows sign-flipped so that `b ≥ 0`.
    columns: Vec<f64>,
    b: Vec<f64>,
    flip: Vec<f64>,
    /// The basic variable of each row.
    pub basis: Vec<usize>,
    /// Whether each column is basic (pricing skips those).
    is_basic: Vec<bool>,
    /// Scratch: `[B | I]` for the refactorisation.
    scratch: Vec<f64>,
    /// `B⁻¹`, row-major.
    inverse: Vec<f64>,
    /// The basic variables' values `B⁻¹ b`.
    values: Vec<f64>,
    /// The tie rule (the cycle guard may switch it to plain Bland during a run).
    pub ties: TieRule,
    /// A pivot cap instead of Kreuzer's columns × rows.
    pub max_pivots: Option<usize>,
}

impl RevisedSimplex {
    /// The phase-1 problem of `a x = b` (`a` row-major, `rows × n`), artificials basic.
    pub fn new(a: &[f64], b: &[f64], n: usize) -> Self {
        let rows = b.len();
        let flip: Vec<f64> = b
            .iter()
            .map(|v| if *v < 0.0 { -1.0 } else { 1.0 })
            .collect();
        let mut columns = vec![0.0; n * rows];
        for j in 0..n {
            for r in 0..rows {
                columns[j * rows + r] = a[r * n + j] * flip[r];
            }
        }
        let b: Vec<f64> = b.iter().zip(&flip).map(|(v, f)| v * f).collect();
        let mut inverse = vec![0.0; rows * rows];
        for r in 0..rows {
            inverse[r * rows + r] = 1.0;
        }
        Self {
            rows,
            n,
            columns,
            values: b.clone(),
            b,
            flip,
            basis: (n..n + rows).collect(),
            is_basic: (0..n + rows).map(|j| j >= n).collect(),
            scratch: vec![0.0; 2 * rows * rows],
            inverse,
            ties: TieRule::default(),
            max_pivots: None,
        }
    }

    /// Entry `r` of column `j` (structural, then the artificials' unit columns).
    fn entry(&self, j: usize, r: usize) -> f64 {
        if j < self.n {
            self.columns[j * self.rows + r]
        } else {
            f64::from(u8::from(j - self.n == r))
        }
    }

    fn cost(&self, j: usize) -> f64 {
        if j < self.n {
            0.0
        } else {
            1.0
        }
    }

    /// The duals `c_Bᵀ B⁻¹` in the flipped rows.
    fn flipped_duals(&self) -> Vec<f64> {
        let m = self.rows;
        let mut y = vec![0.0; m];
        for (r, &j) in self.basis.iter().enumerate() {
            let c = self.cost(j);
            if c != 0.0 {
                for (i, yi) in y.iter_mut().enumerate() {
                    *yi += c * self.inverse[r * m + i];
                }
            }
        }
        y
    }

    fn reduced_cost(&self, j: usize, y: &[f64]) -> f64 {
        if j >= self.n {
            return 1.0 - y[j - self.n];
        }
        let column = &self.columns[j * self.rows..(j + 1) * self.rows];
        -column.iter().zip(y).map(|(a, y)| a * y).sum::<f64>()
    }

    /// `B⁻¹` times column `j`.
    fn transformed(&self, j: usize) -> Vec<f64> {
        let m = self.rows;
        (0..m)
            .map(|r| {
                (0..m)
                    .map(|i| self.inverse[r * m + i] * self.entry(j, i))
                    .sum()
            })
            .collect()
    }

    /// Recomputes `B⁻¹` and the basic values from the original columns; keeps the
    /// previous inverse (updated by the pivot) if the basis is numerically singular.
    fn refactor(&mut self) -> bool {
        let m = self.rows;
        // [B | I] reduced to [I | B⁻¹].
        let w = 2 * m;
        let mut g = std::mem::take(&mut self.scratch);
        g.fill(0.0);
        for (c, &j) in self.basis.iter().enumerate() {
            for r in 0..m {
                g[r * w + c] = self.entry(j, r);
            }
        }
        for r in 0..m {
            g[r * w + m + r] = 1.0;
        }
        for c in 0..m {
            let p = (c..m)
                .max_by(|&r1, &r2| g[r1 * w + c].abs().total_cmp(&g[r2 * w + c].abs()))
                .unwrap_or(c);
            if g[p * w + c].abs() < 1e-14 {
                self.scratch = g;
                return false;
            }
            if p != c {
                for k in 0..w {
                    g.swap(p * w + k, c * w + k);
                }
            }
            let d = g[c * w + c];
            for k in 0..w {
                g[c * w + k] /= d;
            }
            for r in 0..m {
                let f = g[r * w + c];
                if r == c || f == 0.0 {
                    continue;
                }
                for k in 0..w {
                    g[r * w + k] -= f * g[c * w + k];
                }
            }
        }
        for r in 0..m {
            self.inverse[r * m..(r + 1) * m].copy_from_slice(&g[r * w + m..(r + 1) * w]);
        }
        self.scratch = g;
        true
    }

    fn update_values(&mut self) {
        let m = self.rows;
        for r in 0..m {
            self.values[r] = (0..m).map(|i| self.inverse[r * m + i] * self.b[i]).sum();
        }
    }

    /// Bland's entering column: the first non-basic one whose reduced cost improves.
    fn entering(&self, y: &[f64]) -> Option<usize> {
        let m = self.rows;
        let structural = self
            .columns
            .chunks_exact(m)
            .enumerate()
            .find(|(j, column)| {
                let price: f64 = column.iter().zip(y).map(|(a, y)| a * y).sum();
                !self.is_basic[*j] && self.ties.improves(-price)
            })
            .map(|(j, _)| j);
        structural.or_else(|| {
            (self.n..self.n + m)
                .find(|&j| !self.is_basic[j] && self.ties.improves(1.0 - y[j - self.n]))
        })
    }

    /// The eta update of `B⁻¹` for a pivot on `d[row]` (the fallback of `refactor`).
    fn eta_update(&mut self, d: &[f64], row: usize) {
        let m = self.rows;
        let p = d[row];
        for i in 0..m {
            self.inverse[row * m + i] /= p;
        }
        for (r, &factor) in d.iter().enumerate() {
            if r == row || factor == 0.0 {
                continue;
            }
            for i in 0..m {
                self.inverse[r * m + i] -= factor * self.inverse[row * m + i];
            }
        }
    }

    /// Pivots to the phase-1 optimum (or the cap), calling `each` after every pivot.
    pub fn solve(&mut self, mut each: impl FnMut(&Self, &Pivot)) -> (Phase1, usize) {
        let cap = (self.n + self.rows) * self.rows;
        let cap = self.max_pivots.unwrap_or(cap);
        let mut pivots = 0;
        let mut guard = CycleGuard::new(self.objective());
        loop {
            let y = self.flipped_duals();
            let Some(entering) = self.entering(&y) else {
                return (Phase1::Optimal, pivots);
            };
            let d = self.transformed(entering);
            let Some((row, ties)) =
                self.ties
                    .leaving_row(self.rows, |r| d[r], |r| self.values[r], &self.basis)
            else {
                return (Phase1::Optimal, pivots);
            };
            if pivots >= cap {
                return (Phase1::PivotCap, pivots);
            }
            let leaving = self.basis[row];
            self.basis[row] = entering;
            self.is_basic[leaving] = false;
            self.is_basic[entering] = true;
            self.eta_update(&d, row);
            // Refactor every `rows` pivots, or at once after a small pivot element.
            if (pivots + 1) % self.rows == 0 || d[row].abs() < 1e-6 {
                self.refactor();
            }
            self.update_values();
            pivots += 1;
            let record = Pivot {
                entering,
                leaving,
                row,
                element: d[row],
                ties,
                rule: self.ties,
                objective: self.objective(),
            };
            self.ties = guard.after(self.ties, &self.basis, record.objective);
            each(self, &record);
        }
    }
}

impl Phase1Solver for RevisedSimplex {
    fn run(&mut self, each: &mut dyn FnMut(&Self, &Pivot)) -> (Phase1, usize) {
        self.solve(each)
    }

    fn solution(&self) -> Vec<f64> {
        let mut x = vec![0.0; self.n + self.rows];
        for (r, &j) in self.basis.iter().enumerate() {
            x[j] = self.values[r];
        }
        x
    }

    fn duals(&self) -> Vec<f64> {
        let y = self.flipped_duals();
        y.iter().zip(&self.flip).map(|(y, f)| y * f).collect()
    }

    fn objective(&self) -> f64 {
        self.basis
            .iter()
            .zip(&self.values)
            .map(|(&j, v)| self.cost(j) * v)
            .sum()
    }

    fn shape(&self) -> (usize, usize) {
        (self.rows, self.n + self.rows)
    }

    /// `B⁻¹ [A | I | b]` and the reduced costs: what the dense tableau would hold.
    fn tableau_values(&self) -> Vec<f64> {
        let (m, width) = (self.rows, self.n + self.rows + 1);
        let mut t = vec![0.0; (m + 1) * width];
        for j in 0..width - 1 {
            let d = self.transformed(j);
            for r in 0..m {
                t[r * width + j] = d[r];
            }
        }
        for r in 0..m {
            t[r * width + width - 1] = self.values[r];
        }
        let y = self.flipped_duals();
        for j in 0..width - 1 {
            t[m * width + j] = self.reduced_cost(j, &y);
        }
        t[m * width + width - 1] = -self.objective();
        t
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solver::lp::tableau::Tableau;

    #[test]
    fn pivots_like_the_dense_tableau() {
        // Random collision-like problems: the same pivots, objective and duals.
        let mut rng = crate::rng::SplitMix64::new(5);
        for _ in 0..200 {
            let n = 2 + rng.index(30);
            let a: Vec<f64> = (0..5 * n)
                .map(|i| {
                    if i < 2 * n {
                        f64::from(u8::from((i / n == 0) == (i % n < n / 2)))
                    } else {
                        rng.range(-1.0, 1.0)
                    }
                })
                .collect();
            let b = [1.0, 1.0, rng.range(-0.2, 0.2), 0.0, -0.1];
            let mut dense = Tableau::new(&a, &b, n);
            let mut revised = RevisedSimplex::new(&a, &b, n);
            let mut pivots = (Vec::new(), Vec::new());
            dense.solve(|_, p| pivots.0.push((p.entering, p.leaving)));
            revised.solve(|_, p| pivots.1.push((p.entering, p.leaving)));
            assert_eq!(pivots.0, pivots.1);
            assert!((dense.objective() - Phase1Solver::objective(&revised)).abs() < 1e-12);
            let (yd, yr) = (dense.duals(), Phase1Solver::duals(&revised));
            assert!(yd.iter().zip(&yr).all(|(a, b)| (a - b).abs() < 1e-9));
            let (td, tr) = (dense.values(), revised.tableau_values());
            assert!(td.iter().zip(&tr).all(|(a, b)| (a - b).abs() < 1e-9));
        }
    }
}
