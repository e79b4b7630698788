//! The distance families' home: what GJK ([`super::gjk`]) and Frank-Wolfe
//! ([`super::frank_wolfe`]) share, and the two of them by value.
//!
//! Two layers live here. Below the families, what they build on: the step every record
//! of theirs carries ([`step`]: [`DistanceStep`], with the first direction and the
//! witness points), the stopping criteria ([`criteria`]), and the family glue the two
//! wrote twice before (the family kind, what a record is, the sentences both say),
//! generic over each family's record ([`kind`], [`record`], [`narrate`]); what differs
//! (the events, GJK's momentum, Frank-Wolfe's γ and active set) stays in each family's
//! own `record.rs` and `narrate.rs`. These are the distance internals: only this folder, the two families and the contract that names a
//! distance step (`family.rs`, `record.rs`, `trace.rs`) import them
//! (`tests/architecture.rs` holds it). Above the families: the algorithms by value
//! ([`Algorithm`], the [`Solver`] trait, [`solve`], [`solve_traced`]), why a run was
//! slow ([`explain`]), and runs under Coal's conventions ([`coal_replay`]).
//!
//! The families' own folders stay beside the others at the solver's root
//! (`solver/gjk/`, `solver/frank_wolfe/`), not under this one: every family is one
//! folder of `solver/`, which the layering test, the catalog and the viewer's per-family
//! drawing all count on, and GJK is more than a distance method (EPA's first stage and
//! the time of impact's ray cast run it through `run_gjk`). What makes the two a pair
//! is what they share, and that is what lives here.

pub mod coal_replay;
pub(crate) mod criteria;
pub mod explain;
pub(crate) mod kind;
pub(crate) mod narrate;
pub(crate) mod record;
pub(crate) mod step;

use std::fmt;
use std::str::FromStr;

use glam::DVec3;
use serde::{Deserialize, Serialize};

pub use criteria::{distance_guarantee, CriterionValues};
pub use step::{DistanceStep, WeightedVertex};

use super::catalog;
use super::epa;
use super::family::{Answer, FamilyRun, PairQuery, RunExtras};
use super::frank_wolfe::{self, FrankWolfe, StepRule};
use super::gjk::{self, run_gjk, DirectionRule, Gjk};
use super::trace::Trace;
use super::{EpaSettings, Method, Outcome, Run, RunSummary, Simplex, SolverSettings, SupportRule};
use crate::minkowski::MinkowskiDifference;
use crate::shape::SupportMap;

/// A steppable solver. `run()` is `step()` in a loop; every run ends in an [`Outcome`].
/// Records go into the trace the caller passes (made the solver's family's type if it
/// was another), or nowhere: an untraced step does no record work.
pub trait Solver {
    /// Advances one iteration; `Some(outcome)` once the run has ended.
    fn step(&mut self, trace: Option<&mut Trace>) -> Option<Outcome>;

    /// Steps until the run ends (the iteration cap guarantees it does).
    fn run(&mut self, mut trace: Option<&mut Trace>) -> RunSummary {
        loop {
            if self.step(trace.as_deref_mut()).is_some() {
                if let Some(summary) = self.summary() {
                    return summary;
                }
            }
        }
    }

    /// The run's summary, once it has ended.
    fn summary(&self) -> Option<RunSummary>;
}

// The distance families step into their own records; the all-family `Trace` (above
// them) hands each its buffer.
impl<A: SupportMap, B: SupportMap> Solver for Gjk<'_, A, B> {
    fn step(&mut self, trace: Option<&mut Trace>) -> Option<Outcome> {
        self.step_into(trace.map(Trace::buffer))
    }

    fn summary(&self) -> Option<RunSummary> {
        self.run_summary()
    }
}

impl Solver for FrankWolfe<'_> {
    fn step(&mut self, trace: Option<&mut Trace>) -> Option<Outcome> {
        self.step_into(trace.map(Trace::buffer))
    }

    fn summary(&self) -> Option<RunSummary> {
        self.run_summary()
    }
}

/// The distance solvers as a family entry: GJK and Frank-Wolfe step into the
/// all-family [`Trace`] (which hands each its own records), on the exact supports or,
/// with `supports: Coal`, as Coal runs them ([`coal_replay`]).
impl FamilyRun for Algorithm {
    type Records = Trace;
    type Extras = ();

    fn family(&self) -> catalog::Family {
        Algorithm::family(self)
    }

    fn run(&self, q: &PairQuery<'_>, records: Option<&mut Trace>) -> Answer {
        let summary = if q.settings.supports == SupportRule::Coal {
            coal_replay::run_as_coal(*self, q.a, q.b, q.b_in_a, q.settings, records)
        } else {
            let md = MinkowskiDifference::new(q.a, q.b, q.b_in_a);
            self.solver(md, q.settings).run(records)
        };
        let mut summary = summary;
        if summary.outcome == Outcome::Intersecting {
            summary.outcome = certify_enclosure(&summary.simplex, q);
        }
        Answer {
            summary,
            extras: (),
        }
    }
}

/// The verdict on an enclosure of the origin by points of `A ⊖ B`: the points are rounded
/// supports, so the enclosure proves an overlap only when the origin lies deeper inside
/// than round-off moves a face ([`PairQuery::round_off`]). Otherwise EPA's depth, widened
/// the same way, must still be positive; when it is not, the shapes are `contact`: the
/// origin is within round-off of `A ⊖ B`, so they are at most that far apart.
pub fn certify_enclosure(simplex: &Simplex, q: &PairQuery<'_>) -> Outcome {
    let allowance = q.round_off();
    if enclosure_margin(simplex) > allowance {
        return Outcome::Intersecting;
    }
    // Any positive depth will do: a coarse EPA (a face of its polytope is a lower bound
    // of the depth at every stage) settles it in a few expansions.
    let coarse = EpaSettings {
        tolerance: 1e-3,
        max_iterations: 64,
        ..q.settings.epa
    };
    let depth = epa::penetration(
        q.a,
        q.b,
        q.b_in_a,
        epa::gjk_settings_for_epa(),
        coarse,
        None,
    );
    match depth.summary.outcome.allowing_round_off(allowance) {
        Outcome::Penetrating { .. } => Outcome::Intersecting,
        Outcome::IterationCap { lower_bound, .. } if lower_bound > 0.0 => Outcome::Intersecting,
        _ => Outcome::Contact {
            distance: allowance,
        },
    }
}

/// How deep the origin lies in a tetrahedron of `A ⊖ B` points: its smallest distance to
/// a face's plane (0 for a flatter simplex, which encloses it only on its boundary).
fn enclosure_margin(simplex: &Simplex) -> f64 {
    let w: Vec<DVec3> = simplex.vertices().iter().map(|v| v.point.w).collect();
    if w.len() < 4 {
        return 0.0;
    }
    let mut margin = f64::INFINITY;
    for (i, j, k) in [(0, 1, 2), (0, 1, 3), (0, 2, 3), (1, 2, 3)] {
        let normal = (w[j] - w[i]).cross(w[k] - w[i]);
        let length = normal.length();
        if length.is_nan() || length <= 0.0 {
            return 0.0;
        }
        margin = margin.min(normal.dot(w[i]).abs() / length);
    }
    margin
}

/// Every named algorithm the CLI, scenes and viewer can run.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Algorithm {
    Gjk(DirectionRule),
    FrankWolfe(StepRule),
}

impl Algorithm {
    /// Plain GJK: the distance solver a caller means when it names none (the CLI's
    /// default, a pair's checker, the self-collision test).
    pub const GJK: Algorithm = Algorithm::Gjk(DirectionRule::Vanilla);

    /// Every distance solver, in the order the command line lists them. A list to go
    /// through, not a table to index: a method is named by its variant (or its catalog
    /// row, [`Method`]), never by a position here (`tests/architecture.rs` holds it).
    pub const ALL: [Algorithm; 9] = [
        Algorithm::Gjk(DirectionRule::Vanilla),
        Algorithm::Gjk(DirectionRule::Nesterov),
        Algorithm::Gjk(DirectionRule::NesterovNormalized),
        Algorithm::Gjk(DirectionRule::Polyak),
        Algorithm::FrankWolfe(StepRule::Fixed),
        Algorithm::FrankWolfe(StepRule::LineSearch),
        Algorithm::FrankWolfe(StepRule::AwayStep),
        Algorithm::FrankWolfe(StepRule::FullyCorrective),
        Algorithm::Gjk(DirectionRule::NesterovRestart),
    ];

    /// The name used on the command line and in outputs (from the catalog).
    pub fn name(&self) -> &'static str {
        Method::of(*self).name()
    }

    /// The label shown in panels and plot legends (from the catalog).
    pub fn label(&self) -> &'static str {
        Method::of(*self).label()
    }

    pub fn family(&self) -> catalog::Family {
        match self {
            Algorithm::Gjk(_) => gjk::FAMILY,
            Algorithm::FrankWolfe(_) => frank_wolfe::FAMILY,
        }
    }

    /// A solver for this algorithm on `md`.
    pub fn solver<'s>(
        &self,
        md: MinkowskiDifference<'s>,
        settings: SolverSettings,
    ) -> Box<dyn Solver + 's> {
        match *self {
            Algorithm::Gjk(rule) => Box::new(Gjk::new(md, rule, settings)),
            Algorithm::FrankWolfe(rule) => Box::new(FrankWolfe::new(md, rule, settings)),
        }
    }
}

impl fmt::Display for Algorithm {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Algorithm {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Algorithm::ALL
            .into_iter()
            .find(|a| a.name() == s)
            .ok_or_else(|| {
                let names: Vec<&str> = Algorithm::ALL.iter().map(|a| a.name()).collect();
                format!("unknown algorithm '{s}' (known: {})", names.join(", "))
            })
    }
}

/// Runs one algorithm to its end without records.
pub fn solve(
    algorithm: Algorithm,
    md: MinkowskiDifference<'_>,
    settings: SolverSettings,
) -> RunSummary {
    match algorithm {
        Algorithm::Gjk(rule) => run_gjk(md, rule, settings, &[]),
        Algorithm::FrankWolfe(_) => algorithm.solver(md, settings).run(None),
    }
}

/// Runs one algorithm to its end, recording every step.
pub fn solve_traced(
    algorithm: Algorithm,
    md: MinkowskiDifference<'_>,
    settings: SolverSettings,
) -> Run {
    let mut trace = Trace::new(algorithm.family());
    let summary = algorithm.solver(md, settings).run(Some(&mut trace));
    Run {
        method: Method::of(algorithm),
        summary,
        trace,
        extras: RunExtras::default(),
    }
}
