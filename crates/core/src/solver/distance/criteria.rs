//! The three convergence quantities (van den Bergen's `r − α`, the duality gap of
//! Montaut et al., "Collision Detection Accelerated: An Optimization Perspective", and
//! their hybrid `r² − α²`), and the test on them.

use serde::{Deserialize, Serialize};

use crate::solver::{Criterion, CriterionKind};

/// All three stopping quantities at one iteration, whichever one the run tests.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct CriterionValues {
    /// `r − α`
    pub van_den_bergen: f64,
    /// `2⟨x, x − s⟩`
    pub duality_gap: f64,
    /// `r² − α²`
    pub hybrid: f64,
}

impl CriterionValues {
    /// `r = ‖x‖`, `alpha` the best lower bound so far, `gap = 2⟨x, x − s⟩`.
    pub fn new(r: f64, alpha: f64, gap: f64) -> Self {
        Self {
            van_den_bergen: r - alpha,
            duality_gap: gap,
            hybrid: r * r - alpha * alpha,
        }
    }

    /// Whether the selected criterion says "converged" at iterate norm `r`.
    pub fn passes(
        &self,
        criterion: Criterion,
        kind: CriterionKind,
        tolerance: f64,
        r: f64,
    ) -> bool {
        let eps = tolerance;
        match (criterion, kind) {
            // ‖x‖ − d* ≤ ε (absolute) or ≤ ε‖x‖ (relative).
            (Criterion::VanDenBergen, CriterionKind::Absolute) => self.van_den_bergen <= eps,
            (Criterion::VanDenBergen, CriterionKind::Relative) => self.van_den_bergen <= eps * r,
            // ‖x − x*‖² ≤ ε, or ‖x − x*‖ ≤ ε‖x‖.
            (Criterion::DualityGap, CriterionKind::Absolute) => self.duality_gap <= eps,
            (Criterion::DualityGap, CriterionKind::Relative) => {
                self.duality_gap <= eps * eps * r * r
            }
            // ‖x‖² − d*² ≤ ε, or relative to ‖x‖².
            (Criterion::Hybrid, CriterionKind::Absolute) => self.hybrid <= eps,
            (Criterion::Hybrid, CriterionKind::Relative) => self.hybrid <= eps * eps * r * r,
        }
    }
}

/// How far from the true distance a converged answer may be, by criterion: what each
/// stopping test guarantees about `‖x‖ − d*` at iterate norm `r`. A certified interval
/// `[lower, upper]` no wider than this is as good an answer as a passed test.
pub fn distance_guarantee(
    criterion: Criterion,
    kind: CriterionKind,
    tolerance: f64,
    r: f64,
) -> f64 {
    match (criterion, kind) {
        (Criterion::VanDenBergen, CriterionKind::Absolute) => tolerance,
        // ‖x − x*‖² ≤ ε, and ‖x‖² − d*² ≤ ε with ‖x‖ + d* ≥ ‖x‖ − d*.
        (Criterion::DualityGap | Criterion::Hybrid, CriterionKind::Absolute) => tolerance.sqrt(),
        (_, CriterionKind::Relative) => tolerance * r,
    }
}
