//! Per-iteration records (ALGORITHMS.md §6): what the viewer draws, the CLI prints and
//! the tests check. Every solver writes the same record, one per `step()`.

use glam::DVec3;
use serde::{Deserialize, Serialize};

use crate::minkowski::CsoPoint;
use crate::solver::{CriterionValues, SimplexVertex};

/// A simplex (or active-set) vertex with its barycentric weight in the iterate.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct WeightedVertex {
    pub id: u32,
    pub point: CsoPoint,
    pub weight: f64,
}

impl WeightedVertex {
    pub fn new(v: SimplexVertex, weight: f64) -> Self {
        Self {
            id: v.id,
            point: v.point,
            weight,
        }
    }
}

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

/// What one step did, in terms the narration can put into words.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum StepEvent {
    /// Frank-Wolfe's first point: the support at the initial direction.
    Started { added: u32 },
    /// A support point was added and the origin projected onto the simplex; `dropped`
    /// are the vertices that left it.
    Projected { added: u32, dropped: Vec<u32> },
    /// The new simplex contains the origin.
    OriginEnclosed { added: u32 },
    /// ‖x_k‖ fell below the tolerance: counted as contact.
    WithinTolerance,
    /// Momentum stopped; the support was discarded and the run continues as plain GJK.
    MomentumStopped { cause: MomentumStop },
    /// The convergence test passed; the support was discarded.
    Converged,
    /// Boolean mode: the support's plane separates the shapes.
    SeparatingPlane,
    /// A Frank-Wolfe update with step `gamma`; `away` for an away step.
    FrankWolfeStep {
        added: Option<u32>,
        gamma: f64,
        away: bool,
        dropped: Vec<u32>,
    },
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

/// One step of one solver.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct IterationRecord {
    /// The iteration counter after this step (Coal's count).
    pub k: usize,
    pub event: StepEvent,
    /// The direction `d_k` whose support was taken (`s_k = S_D(−d_k)`).
    pub direction: DVec3,
    /// The support point `s_k` with its parts, when this step took one.
    pub support: Option<SimplexVertex>,
    /// The simplex (or Frank-Wolfe active set, largest weights first when truncated)
    /// after this step, with the weights of `x`.
    pub simplex: Vec<WeightedVertex>,
    /// Size of the active set before truncation (equals `simplex.len()` for GJK).
    pub active_set_size: usize,
    /// The iterate after this step.
    pub x: DVec3,
    pub x_norm: f64,
    /// `⟨d_k, s_k⟩/‖d_k‖`: this step's lower bound on the distance.
    pub omega: f64,
    /// The best lower bound so far.
    pub alpha: f64,
    /// Stopping quantities tested in this step (at the iterate before the update).
    pub criteria: CriterionValues,
    /// The true Frank-Wolfe duality gap `2⟨x, x − S_D(−x)⟩` at `x` (display only; its
    /// support call is not counted).
    pub fw_gap: f64,
    /// Whether momentum (an accelerated direction) was used for this step.
    pub momentum: bool,
    /// Solver support calls so far.
    pub support_calls: u64,
}

impl StepEvent {
    /// A short name for tables and CSV.
    pub fn name(&self) -> &'static str {
        match self {
            StepEvent::Started { .. } => "start",
            StepEvent::Projected { .. } => "projected",
            StepEvent::OriginEnclosed { .. } => "enclosed",
            StepEvent::WithinTolerance => "within_tol",
            StepEvent::MomentumStopped { .. } => "momentum_off",
            StepEvent::Converged => "converged",
            StepEvent::SeparatingPlane => "separating",
            StepEvent::FrankWolfeStep { away: true, .. } => "fw_away",
            StepEvent::FrankWolfeStep { .. } => "fw_step",
            StepEvent::Refined => "refined",
            StepEvent::Stalled => "stalled",
            StepEvent::Degenerate => "degenerate",
        }
    }
}

/// The header of [`csv_rows`].
pub const CSV_HEADER: &str = "algorithm,k,event,x_norm,fw_gap,van_den_bergen,duality_gap,hybrid,omega,alpha,simplex_size,support_calls,momentum,x,y,z";

/// One CSV line per record of a run (the CLI's `solve --csv` and the viewer's export).
pub fn csv_rows(algorithm: &str, records: &[IterationRecord]) -> String {
    use std::fmt::Write as _;
    let mut out = String::new();
    for r in records {
        let _ = writeln!(
            out,
            "{algorithm},{},{},{:e},{:e},{:e},{:e},{:e},{:e},{:e},{},{},{},{:e},{:e},{:e}",
            r.k,
            r.event.name(),
            r.x_norm,
            r.fw_gap,
            r.criteria.van_den_bergen,
            r.criteria.duality_gap,
            r.criteria.hybrid,
            r.omega,
            r.alpha,
            r.active_set_size,
            r.support_calls,
            r.momentum,
            r.x.x,
            r.x.y,
            r.x.z
        );
    }
    out
}

impl IterationRecord {
    /// Whether `x` is a point of `A ⊖ B` (every iterate but the bare initial guess).
    pub fn x_in_difference(&self) -> bool {
        !self.simplex.is_empty()
    }
}
