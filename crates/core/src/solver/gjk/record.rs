//! What one GJK step records (docs/architecture.md, "The family contract"): the shared
//! distance step, what the step did, and whether momentum chose its direction; as a
//! distance record ([`DistanceRecord`]), what it shows beyond the shared step.

use serde::{Deserialize, Serialize};

use crate::solver::distance::record::DistanceRecord;
use crate::solver::distance::step::DistanceStep;
use crate::solver::family::Family;

/// Why an accelerated run went back to plain GJK.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MomentumStop {
    /// `2⟨x_k, x_k − s_k⟩ ≤ ε` at the momentum direction's support.
    GapBelowTolerance,
    /// The convergence test passed while momentum was on.
    ConvergenceTest,
    /// The accelerated direction was zero or not finite.
    UnusableDirection,
}

/// What one GJK step did, in terms the narration can put into words.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum GjkEvent {
    /// A support point was added and the origin projected onto the simplex; `dropped`
    /// are the vertices that left it.
    Projected { added: u32, dropped: Vec<u32> },
    /// The new simplex contains the origin.
    OriginEnclosed { added: u32 },
    /// ‖x_k‖ fell below the tolerance (Coal's check A): an overlap only where points of
    /// `A ⊖ B` enclose the origin, otherwise `contact`.
    WithinTolerance,
    /// Momentum stopped; the support was discarded and the run continues as plain GJK.
    MomentumStopped { cause: MomentumStop },
    /// The convergence test passed; the support was discarded.
    Converged,
    /// Boolean mode: the support's plane separates the shapes.
    SeparatingPlane,
    /// The convergence test passed (or the loop stalled) on an iterate that round-off had
    /// moved; recomputed from the shapes' points it is not certified, so the run goes on
    /// from the recomputed point with the precise projection.
    Refined,
    /// The support repeated a simplex vertex before the stopping test passed: round-off
    /// leaves no progress to make.
    Stalled,
    /// The numbers stopped being finite.
    Degenerate,
}

impl GjkEvent {
    /// A short name for tables and CSV.
    pub fn name(&self) -> &'static str {
        match self {
            GjkEvent::Projected { .. } => "projected",
            GjkEvent::OriginEnclosed { .. } => "enclosed",
            GjkEvent::WithinTolerance => "within_tol",
            GjkEvent::MomentumStopped { .. } => "momentum_off",
            GjkEvent::Converged => "converged",
            GjkEvent::SeparatingPlane => "separating",
            GjkEvent::Refined => "refined",
            GjkEvent::Stalled => "stalled",
            GjkEvent::Degenerate => "degenerate",
        }
    }
}

/// One step of a GJK-family run.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GjkRecord {
    #[serde(flatten)]
    pub step: DistanceStep,
    pub event: GjkEvent,
    /// Whether momentum (an accelerated direction) was used for this step.
    pub momentum: bool,
}

impl DistanceRecord for GjkRecord {
    const FAMILY: Family = super::FAMILY;

    fn step(&self) -> &DistanceStep {
        &self.step
    }

    fn step_mut(&mut self) -> &mut DistanceStep {
        &mut self.step
    }

    fn event_name(&self) -> &'static str {
        self.event.name()
    }

    fn set_size(&self) -> usize {
        self.step.simplex.len()
    }

    fn momentum(&self) -> bool {
        self.momentum
    }

    /// A run that ends on its stopping test (or round-off) ends with its verdict.
    fn ends_on_test(&self) -> bool {
        matches!(
            self.event,
            GjkEvent::Converged | GjkEvent::WithinTolerance | GjkEvent::Stalled
        )
    }

    fn sentence(&self, name: &str, index: usize, from: usize) -> String {
        super::narrate::narrate(name, self, index, from)
    }
}
