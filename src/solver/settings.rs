//! Solver settings shared by the GJK family and Frank-Wolfe (ALGORITHMS.md §3–5).

use glam::DVec3;
use serde::{Deserialize, Serialize};

use super::simplex::TetrahedronRule;

/// Which stopping quantity is tested (ALGORITHMS.md §5). All three are recorded.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum Criterion {
    /// `r − α`: the gap between the iterate's norm and the best lower bound.
    #[default]
    VanDenBergen,
    /// `2⟨x, x − s⟩`: bounds `‖x − x*‖²`.
    DualityGap,
    /// `r² − α²`.
    Hybrid,
}

/// Whether the tolerance is compared with the quantity as is or scaled by the iterate.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum CriterionKind {
    #[default]
    Absolute,
    Relative,
}

/// Where the first direction comes from. Only a direction: it need not lie in `A ⊖ B`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub enum InitialGuess {
    /// `c_A − c_B` in A's frame (bounding-box centres; our default).
    #[default]
    CentreDifference,
    /// `t_A − t_B`: the difference of the shapes' origins (the problem files' guess).
    OriginDifference,
    /// `(1, 0, 0)`: Coal's own default.
    UnitX,
    /// A given vector in A's frame.
    Direction(DVec3),
}

/// Distance query, or Boolean (collision-only) query with a separating-plane early stop.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub enum QueryMode {
    #[default]
    Distance,
    /// Stop as soon as a plane proves the distance exceeds `bound` (0: plain Boolean).
    Boolean { bound: f64 },
}

/// Whose support conventions the distance solvers follow.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, clap::ValueEnum)]
pub enum SupportRule {
    /// The exact support of each shape, on the whole shape.
    #[default]
    Exact,
    /// Coal 3's, so that a query brought from Coal replays Coal's iterations
    /// ([`crate::shape::CoalPrimitive`]): spheres, capsules and dilated shapes enter as
    /// their cores with the radii added after the run (Coal's swept-sphere radius);
    /// direction components within 1e-12 of zero count as zero, ties are inflated by
    /// 1e-10. Verdicts stay certified: a run whose supports departed from the exact
    /// ones takes its verdict from an exact run.
    Coal,
}

/// Everything a solver needs besides the shapes.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct SolverSettings {
    pub tolerance: f64,
    pub criterion: Criterion,
    pub kind: CriterionKind,
    pub max_iterations: usize,
    pub initial_guess: InitialGuess,
    pub mode: QueryMode,
    /// How a four-vertex simplex is projected (Coal's region tree by default).
    #[serde(default)]
    pub tetrahedron: TetrahedronRule,
    /// Exact supports (the default) or Coal's conventions.
    #[serde(default)]
    pub supports: SupportRule,
}

/// The largest iteration cap a scene, problem file or the command line may ask for:
/// Frank-Wolfe's line search on curved shapes takes a new support every step, so a
/// million steps are seconds and a megabyte-scale active set; 2³² would never end.
pub const MAX_ITERATION_CAP: usize = 1_000_000;

impl Default for SolverSettings {
    /// Coal's defaults: tolerance 1e-6, 128 iterations.
    fn default() -> Self {
        Self {
            tolerance: 1e-6,
            criterion: Criterion::VanDenBergen,
            kind: CriterionKind::Absolute,
            max_iterations: 128,
            initial_guess: InitialGuess::CentreDifference,
            mode: QueryMode::Distance,
            tetrahedron: TetrahedronRule::RegionTree,
            supports: SupportRule::Exact,
        }
    }
}

impl SolverSettings {
    /// The paper's benchmark setting: ε = 1e-8, duality gap absolute, 1000 iterations.
    pub fn benchmark() -> Self {
        Self {
            tolerance: 1e-8,
            criterion: Criterion::DualityGap,
            kind: CriterionKind::Absolute,
            max_iterations: 1000,
            initial_guess: InitialGuess::CentreDifference,
            mode: QueryMode::Distance,
            tetrahedron: TetrahedronRule::RegionTree,
            supports: SupportRule::Exact,
        }
    }

    /// Checks the numbers a user can type in; returns what is wrong.
    pub fn validate(&self) -> Result<(), String> {
        if !(self.tolerance.is_finite() && self.tolerance > 0.0) {
            return Err(format!(
                "tolerance must be finite and > 0, got {}",
                self.tolerance
            ));
        }
        if self.max_iterations == 0 {
            return Err("max_iterations must be at least 1".to_string());
        }
        if self.max_iterations > MAX_ITERATION_CAP {
            return Err(format!(
                "max_iterations must be at most {MAX_ITERATION_CAP} (a run that long takes \
                 minutes and keeps every support it took), got {}",
                self.max_iterations
            ));
        }
        if let InitialGuess::Direction(d) = self.initial_guess {
            if !d.is_finite() {
                return Err(format!("initial guess direction must be finite, got {d}"));
            }
        }
        if let QueryMode::Boolean { bound } = self.mode {
            if !bound.is_finite() {
                return Err(format!(
                    "Boolean distance bound must be finite, got {bound}"
                ));
            }
        }
        Ok(())
    }
}
