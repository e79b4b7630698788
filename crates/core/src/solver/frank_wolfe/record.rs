//! What one Frank-Wolfe step records: the shared distance step, the step rule's move
//! (its γ, an away step, a re-optimisation), and the active set's full size; as a
//! distance record ([`DistanceRecord`]), what it shows beyond the shared step.

use serde::{Deserialize, Serialize};

use crate::solver::distance::record::DistanceRecord;
use crate::solver::distance::step::DistanceStep;
use crate::solver::family::Family;

/// What one Frank-Wolfe step did.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum FrankWolfeEvent {
    /// The first point: the support at the initial direction.
    Started { added: u32 },
    /// An update with step `gamma`; `away` for an away step; `dropped` are the active
    /// vertices whose weight reached zero.
    Step {
        added: Option<u32>,
        gamma: f64,
        away: bool,
        dropped: Vec<u32>,
    },
    /// Fully corrective: the support joined the active set, which was re-optimised by
    /// GJK's projection; `dropped` left it.
    Reoptimised { added: u32, dropped: Vec<u32> },
    /// The re-optimised active set contains the origin.
    OriginEnclosed { added: u32 },
    /// ‖x_k‖ fell below the tolerance (Coal's check A): an overlap only where points of
    /// `A ⊖ B` enclose the origin, otherwise `contact`.
    WithinTolerance,
    /// Fully corrective: the test passed on a point round-off had moved off `A ⊖ B`
    /// (recomputed from the shapes' points, it does not pass); from here each
    /// projection tries every face from the shapes' points.
    Refined,
    /// The convergence test passed.
    Converged,
    /// Boolean mode: the support's plane separates the shapes.
    SeparatingPlane,
    /// The numbers stopped being finite.
    Degenerate,
}

impl FrankWolfeEvent {
    /// A short name for tables and CSV.
    pub fn name(&self) -> &'static str {
        match self {
            FrankWolfeEvent::Started { .. } => "start",
            FrankWolfeEvent::Step { away: true, .. } => "fw_away",
            FrankWolfeEvent::Step { .. } => "fw_step",
            FrankWolfeEvent::Reoptimised { .. } => "projected",
            FrankWolfeEvent::OriginEnclosed { .. } => "enclosed",
            FrankWolfeEvent::WithinTolerance => "within_tol",
            FrankWolfeEvent::Refined => "refined",
            FrankWolfeEvent::Converged => "converged",
            FrankWolfeEvent::SeparatingPlane => "separating",
            FrankWolfeEvent::Degenerate => "degenerate",
        }
    }
}

/// One step of a Frank-Wolfe run.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct FrankWolfeRecord {
    #[serde(flatten)]
    pub step: DistanceStep,
    pub event: FrankWolfeEvent,
    /// Size of the active set before the record's truncation to its largest weights.
    pub active_set_size: usize,
}

impl DistanceRecord for FrankWolfeRecord {
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
        self.active_set_size
    }

    /// A run that ends on its stopping test ends with its verdict.
    fn ends_on_test(&self) -> bool {
        matches!(
            self.event,
            FrankWolfeEvent::Converged | FrankWolfeEvent::WithinTolerance
        )
    }

    fn sentence(&self, name: &str, index: usize, from: usize) -> String {
        super::narrate::narrate(name, self, index, from)
    }
}
