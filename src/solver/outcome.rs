//! How a run ended, and what it found.

use glam::DVec3;
use serde::{Deserialize, Serialize};

use crate::minkowski::SupportStats;

/// The end of a run. Running out of iterations is its own outcome, never an answer.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "status", rename_all = "snake_case")]
pub enum Outcome {
    /// The origin lies in `A ⊖ B` (or within the tolerance of it).
    Intersecting,
    /// Converged: the shapes are apart by `distance` (within the criterion's guarantee).
    Separated { distance: f64 },
    /// Boolean mode: a separating plane proved the distance is at least `lower_bound`.
    SeparatedEarlyStop { lower_bound: f64 },
    /// Round-off, not convergence, ended the run: the support repeated a simplex vertex
    /// (no step can improve `x` in floating point), or the test passed only on an iterate
    /// that round-off had moved. The distance is certified to lie in
    /// `[lower_bound, distance]` (a separating plane below, a point of `A ⊖ B` above),
    /// but that interval is wider than the criterion's guarantee.
    Stalled { distance: f64, lower_bound: f64 },
    /// The iteration cap was reached; `last_norm` is ‖x_k‖ then, not a distance.
    IterationCap { last_norm: f64 },
    /// The computation could not go on (non-finite numbers).
    Degenerate { reason: String },
}

impl Outcome {
    /// The short name used by the CLI and JSON output.
    pub fn status_name(&self) -> &'static str {
        match self {
            Outcome::Intersecting => "intersecting",
            Outcome::Separated { .. } => "separated",
            Outcome::SeparatedEarlyStop { .. } => "separated_early_stop",
            Outcome::Stalled { .. } => "stalled",
            Outcome::IterationCap { .. } => "iteration_cap",
            Outcome::Degenerate { .. } => "degenerate",
        }
    }

    /// The distance the run certifies: 0 when intersecting, `None` when it has none.
    pub fn distance(&self) -> Option<f64> {
        match self {
            Outcome::Intersecting => Some(0.0),
            Outcome::Separated { distance } | Outcome::Stalled { distance, .. } => Some(*distance),
            _ => None,
        }
    }
}

impl std::fmt::Display for Outcome {
    /// The outcome in words, as the CLI and the viewer print it.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Outcome::Intersecting => write!(f, "intersecting"),
            Outcome::Separated { distance } => write!(f, "separated, distance {distance:.9e}"),
            Outcome::SeparatedEarlyStop { lower_bound } => {
                write!(f, "separated (early stop), distance ≥ {lower_bound:.6e}")
            }
            Outcome::Stalled {
                distance,
                lower_bound,
            } => write!(
                f,
                "separated, distance in [{lower_bound:.9e}, {distance:.9e}] (round-off ended \
                 the run before the stopping test passed)"
            ),
            Outcome::IterationCap { last_norm } => write!(
                f,
                "iteration cap reached (no answer; last ‖x‖ = {last_norm:.6e})"
            ),
            Outcome::Degenerate { reason } => write!(f, "degenerate: {reason}"),
        }
    }
}

/// What a finished (or stopped) run reports.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RunSummary {
    pub outcome: Outcome,
    /// Iterations as Coal counts them (projections that did not end the run).
    pub iterations: usize,
    pub stats: SupportStats,
    /// Witness points on A and B in A's frame, when separated.
    pub witness_a: Option<DVec3>,
    pub witness_b: Option<DVec3>,
    /// Iteration at which an accelerated run fell back to plain GJK.
    pub momentum_stopped_at: Option<usize>,
}
