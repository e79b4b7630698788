//! What the dense tableau and the revised simplex share: the pivot record, how a phase
//! ends, Bland's entering rule, the leaving row among ratio ties, and the cycle guard
//! that hands the largest-pivot safeguard over to plain Bland.

pub use crate::solver::settings::TieRule;
use std::collections::HashSet;

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
    /// The rule that chose the leaving row (the safeguard hands over to plain Bland
    /// when a basis repeats).
    pub rule: TieRule,
    /// The phase-1 objective (the artificials' sum) after the pivot.
    pub objective: f64,
}

/// How the phase ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase1 {
    /// No column improves the objective: optimal.
    Optimal,
    /// Kreuzer's cap of columns × rows pivots was reached.
    PivotCap,
}

/// Kreuzer's absolute ε (its `DEFAULT_EPSILON`).
const KREUZER_EPSILON: f64 = 1e-4;
/// Reduced costs above `−COST_TOLERANCE` do not improve the objective.
const COST_TOLERANCE: f64 = 1e-12;
/// Pivot elements below this are not admissible.
const PIVOT_TOLERANCE: f64 = 1e-12;

impl TieRule {
    /// Whether a reduced cost lets its column enter.
    pub fn improves(self, reduced_cost: f64) -> bool {
        match self {
            TieRule::KreuzerAsWritten => reduced_cost + KREUZER_EPSILON < 0.0,
            _ => reduced_cost < -COST_TOLERANCE,
        }
    }

    /// The ratio test on the entering column `column(r)` against the right-hand sides
    /// `rhs(r)`: the leaving row and how many rows tied; `None` when no element is
    /// admissible (unbounded, which phase 1 never is).
    pub fn leaving_row(
        self,
        rows: usize,
        column: impl Fn(usize) -> f64,
        rhs: impl Fn(usize) -> f64,
        basis: &[usize],
    ) -> Option<(usize, usize)> {
        if self == TieRule::KreuzerAsWritten {
            return kreuzer_leaving_row(rows, column, rhs, basis);
        }
        let mut best: Option<f64> = None;
        let mut ties: Vec<usize> = Vec::new();
        for r in 0..rows {
            let e = column(r);
            if e <= PIVOT_TOLERANCE {
                continue;
            }
            let ratio = rhs(r) / e;
            match best {
                Some(b) if ratio > b + 1e-12 * b.abs().max(1.0) => {}
                Some(b) if ratio >= b - 1e-12 * b.abs().max(1.0) => ties.push(r),
                _ => {
                    best = Some(ratio);
                    ties = vec![r];
                }
            }
        }
        let row = match self {
            TieRule::SmallestIndex => *ties.iter().min_by_key(|&&r| basis[r])?,
            _ => *ties.iter().max_by(|&&r1, &&r2| {
                column(r1)
                    .total_cmp(&column(r2))
                    .then(basis[r2].cmp(&basis[r1]))
            })?,
        };
        Some((row, ties.len()))
    }
}

/// Kreuzer's `SelectPivotByBlandsRule`, line for line: a row joins the ties when its
/// ratio is within ε of the smallest seen so far (not of the final minimum).
fn kreuzer_leaving_row(
    rows: usize,
    column: impl Fn(usize) -> f64,
    rhs: impl Fn(usize) -> f64,
    basis: &[usize],
) -> Option<(usize, usize)> {
    let mut quotient = f64::MAX;
    let mut ties: Vec<usize> = Vec::new();
    for r in 0..rows {
        let e = column(r);
        if e <= 0.0 {
            continue;
        }
        let ratio = rhs(r) / e;
        if ratio < quotient {
            quotient = ratio;
            ties = vec![r];
        } else if (ratio - quotient).abs() < KREUZER_EPSILON {
            ties.push(r);
        }
    }
    let row = *ties.iter().min_by_key(|&&r| basis[r])?;
    Some((row, ties.len()))
}

/// Watches the bases met since the objective last fell; a repeat is a cycle, and the
/// largest-pivot rule then gives way to plain Bland.
#[derive(Default)]
pub struct CycleGuard {
    since_progress: HashSet<Vec<usize>>,
    objective: f64,
}

impl CycleGuard {
    pub fn new(objective: f64) -> Self {
        Self {
            since_progress: HashSet::new(),
            objective,
        }
    }

    /// The rule for the next pivot, after one that left `basis` and `objective`.
    pub fn after(&mut self, rule: TieRule, basis: &[usize], objective: f64) -> TieRule {
        if rule != TieRule::LargestPivot {
            return rule;
        }
        if objective < self.objective {
            // Progress: no earlier basis can come back. (A cycle's bases all share one
            // objective, so skipping this one still catches it at the next.)
            self.since_progress.clear();
            self.objective = objective;
            return rule;
        }
        let mut sorted = basis.to_vec();
        sorted.sort_unstable();
        if self.since_progress.insert(sorted) {
            rule
        } else {
            TieRule::SmallestIndex
        }
    }
}

/// A phase-1 simplex solver the collision test can run on: the dense tableau or the
/// revised simplex. Columns are the structural ones, then one artificial per row.
pub trait Phase1Solver {
    /// Pivots to the optimum (or the cap), calling `each` after every pivot.
    fn run(&mut self, each: &mut dyn FnMut(&Self, &Pivot)) -> (Phase1, usize);
    /// The value of every variable (structural then artificial).
    fn solution(&self) -> Vec<f64>;
    /// The phase-1 duals of the rows as given.
    fn duals(&self) -> Vec<f64>;
    /// The artificials' sum.
    fn objective(&self) -> f64;
    /// Constraint rows and columns (structural + artificial).
    fn shape(&self) -> (usize, usize);
    /// The whole tableau as the dense method holds it, row-major: the constraint rows,
    /// then the reduced costs; the right-hand side last in each row.
    fn tableau_values(&self) -> Vec<f64>;
}
