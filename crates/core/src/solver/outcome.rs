//! How a run ended, and what it found.

use glam::DVec3;
use serde::{Deserialize, Serialize};

use super::simplex::Simplex;
use crate::minkowski::SupportStats;
use crate::printed_bound::{Above, Below, Outward, Within};

/// The end of a run, for every family. Running out of iterations is its own outcome,
/// never an answer; so is a method meeting a shape it cannot take.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "status", rename_all = "snake_case")]
pub enum Outcome {
    /// The origin lies in `A ⊖ B`: points of it (a simplex, an active set) enclose the
    /// origin by exact signs. Within the tolerance without an enclosure is `Contact`.
    Intersecting,
    /// Converged, and proved apart: a plane separates the shapes with a positive gap
    /// `lower_bound` (the run's best support plane), and `distance` (a point of
    /// `A ⊖ B`) is within the criterion's guarantee of the true distance.
    Separated { distance: f64, lower_bound: f64 },
    /// The stopping test holds at `distance`, but the run found no plane with a positive
    /// gap: the shapes touch, overlap, or are apart by at most `distance`, and this run
    /// cannot tell which (an upper bound is not a proof of separation).
    Contact { distance: f64 },
    /// Boolean mode: a separating plane proved the distance is at least `lower_bound`.
    SeparatedEarlyStop { lower_bound: f64 },
    /// Round-off, not convergence, ended the run: the support repeated a simplex vertex
    /// (no step can improve `x` in floating point), or the test passed only on an iterate
    /// that round-off had moved. The distance is certified to lie in
    /// `[lower_bound, distance]` (a separating plane below, a point of `A ⊖ B` above),
    /// but that interval is wider than the criterion's guarantee.
    Stalled { distance: f64, lower_bound: f64 },
    /// The shapes overlap by `depth`; moving B by `depth · normal` (A's frame) makes them
    /// touch.
    Penetrating { depth: f64, normal: DVec3 },
    /// The origin lies on the boundary of `A ⊖ B` (within round-off): depth 0.
    Touching { normal: DVec3 },
    /// Moving B, the shapes first touch at `time` (a fraction of the motion).
    Impact { time: f64, normal: DVec3 },
    /// Moving B, the shapes never touch; `closest_distance` is their smallest distance.
    NoImpact { closest_distance: f64 },
    /// Moving B, the shapes come within the contact tolerance (to `distance`, at `time`)
    /// without overlapping: a touch by tolerance only, neither a certified impact nor a
    /// miss.
    Grazing { time: f64, distance: f64 },
    /// The LP's verdict apart: the plane `normal·x = offset` (A's frame) has A below and
    /// B above, `gap` apart (checked against every point; a lower bound of the distance).
    SeparatingPlane {
        normal: DVec3,
        offset: f64,
        gap: f64,
    },
    /// The simplex method's pivot cap (columns × rows) was reached: no answer.
    PivotCap { pivots: usize },
    /// Every point of A lies in B.
    Contained,
    /// A point of A lies outside B: its index among A's points.
    NotContained { vertex: usize },
    /// The iteration (or pivot) cap was reached: no answer. What the run was after
    /// (distance, depth, time) lies in `[lower_bound, upper_bound]`.
    IterationCap { lower_bound: f64, upper_bound: f64 },
    /// The method cannot take these shapes (`why` says which and why).
    NotApplicable { why: String },
    /// The computation could not go on (non-finite numbers, a broken polytope).
    Degenerate { reason: String },
}

impl Outcome {
    /// The end of a distance run whose stopping test holds at `distance` (a point of
    /// `A ⊖ B`): `Separated` when its best support plane `lower_bound` has a positive
    /// gap, otherwise `Contact` (the test bounds the distance from above only).
    pub fn converged(distance: f64, lower_bound: f64) -> Outcome {
        if lower_bound > 0.0 {
            Outcome::Separated {
                distance,
                lower_bound: lower_bound.min(distance),
            }
        } else {
            Outcome::Contact { distance }
        }
    }

    /// The outcome with its bounds widened by `allowance`, the round-off its numbers may
    /// carry ([`crate::minkowski::pair_round_off`]): lower bounds (a plane's gap, a
    /// depth's face) move down, upper bounds (a point of `A ⊖ B`) up, and a verdict
    /// whose proof is smaller than the allowance is no longer claimed: a gap within it is
    /// `contact`, a depth within it `touching`.
    pub fn allowing_round_off(self, allowance: f64) -> Outcome {
        if !(allowance > 0.0 && allowance.is_finite()) {
            return self;
        }
        let a = allowance;
        match self {
            Outcome::Separated {
                distance,
                lower_bound,
            } => Outcome::converged(distance + a, lower_bound - a),
            Outcome::Stalled {
                distance,
                lower_bound,
            } if lower_bound > a => Outcome::Stalled {
                distance: distance + a,
                lower_bound: lower_bound - a,
            },
            Outcome::Stalled { distance, .. } | Outcome::Contact { distance } => Outcome::Contact {
                distance: distance + a,
            },
            Outcome::SeparatedEarlyStop { lower_bound } if lower_bound > a => {
                Outcome::SeparatedEarlyStop {
                    lower_bound: lower_bound - a,
                }
            }
            Outcome::SeparatingPlane {
                normal,
                offset,
                gap,
            } if gap > a => Outcome::SeparatingPlane {
                normal,
                offset,
                gap: gap - a,
            },
            Outcome::SeparatedEarlyStop { lower_bound: gap }
            | Outcome::SeparatingPlane { gap, .. } => Outcome::Degenerate {
                reason: format!(
                    "the separating plane's gap {:.3e} is within the round-off of the \
                     shapes' numbers ({:.1e}): not a proof of separation",
                    Above(gap),
                    Above(a)
                ),
            },
            Outcome::Penetrating { depth, normal } if depth > a => Outcome::Penetrating {
                depth: depth - a,
                normal,
            },
            Outcome::Penetrating { normal, .. } => Outcome::Touching { normal },
            Outcome::IterationCap {
                lower_bound,
                upper_bound,
            } => Outcome::IterationCap {
                lower_bound: lower_bound - a,
                upper_bound: upper_bound + a,
            },
            other => other,
        }
    }

    /// Every [`Outcome::status_name`], in the order of their numbers
    /// ([`Outcome::status_code`]): a batch's status array from Python and a chunk
    /// file of a split batch hold the numbers.
    pub const STATUS_NAMES: [&'static str; 16] = [
        "separated",
        "contact",
        "intersecting",
        "penetrating",
        "touching",
        "stalled",
        "separated_early_stop",
        "iteration_cap",
        "degenerate",
        "not_applicable",
        "impact",
        "no_impact",
        "grazing",
        "pivot_cap",
        "a_inside_b",
        "a_not_inside_b",
    ];

    /// The number of a status name in [`Outcome::STATUS_NAMES`] (past its end for a
    /// name that is not one).
    pub fn status_code(name: &str) -> u8 {
        Outcome::STATUS_NAMES
            .iter()
            .position(|n| *n == name)
            .unwrap_or(Outcome::STATUS_NAMES.len()) as u8
    }

    /// The short name used by the CLI and JSON output.
    pub fn status_name(&self) -> &'static str {
        match self {
            Outcome::Intersecting => "intersecting",
            Outcome::Separated { .. } => "separated",
            Outcome::Contact { .. } => "contact",
            Outcome::SeparatedEarlyStop { .. } => "separated_early_stop",
            Outcome::Stalled { .. } => "stalled",
            Outcome::Penetrating { .. } => "penetrating",
            Outcome::Touching { .. } => "touching",
            Outcome::Impact { .. } => "impact",
            Outcome::NoImpact { .. } => "no_impact",
            Outcome::Grazing { .. } => "grazing",
            Outcome::SeparatingPlane { .. } => "separated",
            Outcome::PivotCap { .. } => "pivot_cap",
            Outcome::Contained => "a_inside_b",
            Outcome::NotContained { .. } => "a_not_inside_b",
            Outcome::IterationCap { .. } => "iteration_cap",
            Outcome::NotApplicable { .. } => "not_applicable",
            Outcome::Degenerate { .. } => "degenerate",
        }
    }

    /// The distance the run certifies: 0 when the shapes touch or overlap, `None` when
    /// it certifies none. For `Contact` (and `Stalled`) an upper bound: read
    /// [`Outcome::proves_apart`] before calling the shapes free.
    pub fn distance(&self) -> Option<f64> {
        match self {
            Outcome::Intersecting | Outcome::Penetrating { .. } | Outcome::Touching { .. } => {
                Some(0.0)
            }
            Outcome::Separated { distance, .. }
            | Outcome::Stalled { distance, .. }
            | Outcome::Contact { distance } => Some(*distance),
            _ => None,
        }
    }

    /// Whether the run proved the shapes apart (a separating plane with a positive gap).
    pub fn proves_apart(&self) -> bool {
        match self {
            Outcome::Separated { lower_bound, .. }
            | Outcome::Stalled { lower_bound, .. }
            | Outcome::SeparatedEarlyStop { lower_bound } => *lower_bound > 0.0,
            Outcome::SeparatingPlane { gap, .. } => *gap > 0.0,
            Outcome::NoImpact { .. } => true,
            _ => false,
        }
    }

    /// The best lower bound on the distance that the run proved (a separating plane's
    /// gap), when it has one.
    pub fn lower_bound(&self) -> Option<f64> {
        match self {
            Outcome::Separated { lower_bound, .. }
            | Outcome::Stalled { lower_bound, .. }
            | Outcome::SeparatedEarlyStop { lower_bound }
            | Outcome::IterationCap { lower_bound, .. } => Some(*lower_bound),
            Outcome::SeparatingPlane { gap, .. } => Some(*gap),
            _ => None,
        }
    }

    /// Signed distance: −depth when penetrating, 0 when touching or intersecting (no
    /// depth known), the distance apart.
    pub fn signed_distance(&self) -> Option<f64> {
        match self {
            Outcome::Penetrating { depth, .. } => Some(-depth),
            other => other.distance(),
        }
    }

    /// The contact normal of a depth or an impact (A's frame, the direction to move B
    /// out of A).
    pub fn normal(&self) -> Option<DVec3> {
        match self {
            Outcome::Penetrating { normal, .. }
            | Outcome::Touching { normal }
            | Outcome::Impact { normal, .. } => Some(*normal),
            _ => None,
        }
    }
}

impl std::fmt::Display for Outcome {
    /// The outcome in words, as the CLI and the viewer print it.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let v = |n: &DVec3| format!("({:.6}, {:.6}, {:.6})", n.x, n.y, n.z);
        // Bounds print on their safe side: a distance reached by a point of A ⊖ B is an
        // upper bound (up), a plane's gap, a depth's face and a first contact's time are
        // lower bounds (down). A separated distance is bracketed by its plane: printed
        // as a measurement when both ends give the same digits.
        match self {
            Outcome::Intersecting => write!(f, "intersecting"),
            Outcome::Separated {
                distance,
                lower_bound,
            } => write!(
                f,
                "separated, distance {:.9e} (a separating plane proves ≥ {:.3e})",
                Within(*lower_bound, *distance),
                Below(*lower_bound)
            ),
            Outcome::Contact { distance } => write!(
                f,
                "contact: touching, overlapping or at most {:.3e} apart (no separating \
                 plane found; this run cannot tell which)",
                Above(*distance)
            ),
            Outcome::SeparatedEarlyStop { lower_bound } => {
                write!(
                    f,
                    "separated (early stop), distance ≥ {:.6e}",
                    Below(*lower_bound)
                )
            }
            Outcome::Stalled {
                distance,
                lower_bound,
            } if *lower_bound > 0.0 => write!(
                f,
                "separated, distance in {:.9e} (round-off ended the run before the stopping \
                 test passed)",
                Outward(*lower_bound, *distance)
            ),
            Outcome::Stalled { distance, .. } => write!(
                f,
                "contact: touching, overlapping or at most {:.3e} apart (round-off \
                 ended the run before a separating plane or the stopping test was found)",
                Above(*distance)
            ),
            Outcome::Penetrating { depth, normal } => {
                write!(
                    f,
                    "penetrating, depth {:.9e} along {}",
                    Below(*depth),
                    v(normal)
                )
            }
            Outcome::Touching { normal } => write!(f, "touching (depth 0) along {}", v(normal)),
            Outcome::Impact { time, normal } => {
                write!(
                    f,
                    "impact at t = {:.9e}, normal {}",
                    Below(*time),
                    v(normal)
                )
            }
            Outcome::NoImpact { closest_distance } => {
                write!(
                    f,
                    "no impact (closest approach {:.9e})",
                    Above(*closest_distance)
                )
            }
            Outcome::Grazing { time, distance } => write!(
                f,
                "grazing at t = {time:.9e}: within the contact tolerance ({:.3e}) \
                 but not overlapping",
                Above(*distance)
            ),
            Outcome::SeparatingPlane {
                normal,
                offset,
                gap,
            } => write!(
                f,
                "separated: the plane {}·x = {offset:.9e} has A below and B above, {:.3e} apart",
                v(normal),
                Below(*gap)
            ),
            Outcome::PivotCap { pivots } => {
                write!(f, "pivot cap reached after {pivots} pivots (no answer)")
            }
            Outcome::Contained => write!(f, "A lies inside B"),
            Outcome::NotContained { vertex } => {
                write!(f, "A is not inside B (its point {vertex} is outside)")
            }
            Outcome::IterationCap {
                lower_bound,
                upper_bound,
            } => write!(
                f,
                "iteration cap reached (no answer; between {:.6e} and {:.6e})",
                Below(*lower_bound),
                Above(*upper_bound)
            ),
            Outcome::NotApplicable { why } => write!(f, "not applicable: {why}"),
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
    /// The simplex the run ended on, with each vertex's parts on A and B (GJK family;
    /// empty for the others): EPA starts from it, and a next query can warm-start from
    /// it (Box2D's simplex cache, Coal's `getSimplex`).
    #[serde(skip)]
    pub simplex: Simplex,
}

impl RunSummary {
    /// Widens the outcome's bounds by the round-off `allowance`
    /// ([`Outcome::allowing_round_off`]).
    pub fn allow_round_off(&mut self, allowance: f64) {
        let outcome = std::mem::replace(&mut self.outcome, Outcome::Intersecting);
        self.outcome = outcome.allowing_round_off(allowance);
    }

    /// The summary of a method that cannot take the shapes given (no work done).
    pub fn not_applicable(why: String) -> Self {
        Self {
            outcome: Outcome::NotApplicable { why },
            iterations: 0,
            stats: SupportStats::default(),
            witness_a: None,
            witness_b: None,
            momentum_stopped_at: None,
            simplex: Simplex::new(),
        }
    }
}
