//! Every method a query can be run with, by name: the steppable solvers of the GJK
//! family and Frank-Wolfe ([`Algorithm`]), and the methods of later families (EPA so
//! far), which answer other questions and keep records of their own. [`Method::run`] is
//! the one entry point the CLI, the scenes and the viewer use for any of them.

use std::fmt;
use std::str::FromStr;

use serde::Serialize;

use super::catalog::{self, Family};
use super::epa::{gjk_settings_for_epa, penetration};
use super::interior_point::{distance, time_of_impact};
use super::lp::{LpQuestion, Simplex};
use super::toi::{time_of_impact_moving, Motion, ToiRule};
use super::trace::Trace;
use super::Outcome;
use super::{coal_replay, Algorithm, RunSummary, SolverSettings, SupportRule};
use crate::minkowski::MinkowskiDifference;
use crate::pose::RelativePose;
use crate::shape::implicit::ImplicitBody;
use crate::shape::Shape;

/// A named method of the CLI and problem-file runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Method {
    Solver(Algorithm),
    /// Penetration depth: GJK, then EPA when the shapes overlap.
    Epa,
    /// Time of impact of B moving by `t·v`, t ∈ [0, 1].
    Toi(ToiRule),
    /// The collision test by linear programming (seed 003), on the dense tableau or by
    /// the revised simplex.
    Lp(Simplex),
    /// Whether every point of A lies in B, one LP per point (by the revised simplex).
    LpContainment,
    /// Distance between implicit bodies by the primal-dual interior point (seed 004).
    InteriorPoint,
    /// The interior point's continuous collision for a translating B (seed 004 §VII).
    InteriorPointToi,
}

/// A finished run of any method: what every family reports, and its records.
#[derive(Clone, Debug, Serialize)]
pub struct Run {
    #[serde(serialize_with = "method_name")]
    pub method: Method,
    pub summary: RunSummary,
    /// Empty when the run was not traced.
    pub trace: Trace,
    /// The GJK run a method starts from (EPA's overlap test), when it has one.
    pub gjk_stage: Option<RunSummary>,
    /// The time of impact's distance at t = 0, when it measured one (its family's
    /// extra, as `gjk_stage` is EPA's).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub initial_distance: Option<f64>,
}

impl Run {
    /// A method that cannot take this query (`why` says what is missing).
    pub fn not_applicable(method: Method, why: String) -> Self {
        Run {
            method,
            summary: RunSummary::not_applicable(why),
            trace: Trace::new(method.family()),
            gjk_stage: None,
            initial_distance: None,
        }
    }
}

fn method_name<S: serde::Serializer>(m: &Method, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(m.name())
}

impl Method {
    /// The name on the command line and in files (from the catalog).
    pub fn name(&self) -> &'static str {
        catalog::info(*self).name
    }

    /// The label in panels and legends (from the catalog).
    pub fn label(&self) -> &'static str {
        catalog::info(*self).label
    }

    pub fn family(&self) -> Family {
        catalog::info(*self).family
    }

    /// Every method, in the order help texts list them.
    pub fn all() -> Vec<Method> {
        catalog::CATALOG.iter().map(|row| row.method).collect()
    }

    /// Runs this method on A (at the identity) and B (at `b_in_a`, moving by `motion`
    /// over t ∈ [0, 1] when it moves: A's frame), with records when `traced`. Distance
    /// solvers use `settings`' distance fields, the other families their own
    /// (`settings.epa`, `.toi`, `.interior_point`, `.lp`); EPA's GJK stage keeps its
    /// certified overlap test whatever the scene's distance tolerance.
    pub fn run(
        &self,
        a: &Shape,
        b: &Shape,
        b_in_a: RelativePose,
        motion: Option<Motion>,
        settings: SolverSettings,
        traced: bool,
    ) -> Run {
        let mut trace = Trace::new(self.family());
        if let Err(why) = catalog::info(*self).shapes.check(a, b) {
            return Run {
                method: *self,
                summary: RunSummary::not_applicable(why),
                trace,
                gjk_stage: None,
                initial_distance: None,
            };
        }
        let buffer = traced.then_some(&mut trace);
        match *self {
            Method::Solver(algorithm) => {
                let summary = if settings.supports == SupportRule::Coal {
                    coal_replay::run_as_coal(algorithm, a, b, b_in_a, settings, buffer)
                } else {
                    let md = MinkowskiDifference::new(a, b, b_in_a);
                    algorithm.solver(md, settings).run(buffer)
                };
                Run {
                    method: *self,
                    summary,
                    trace,
                    gjk_stage: None,
                    initial_distance: None,
                }
            }
            Method::Epa => {
                let epa = penetration(
                    a,
                    b,
                    b_in_a,
                    gjk_settings_for_epa(),
                    settings.epa,
                    buffer.map(Trace::epa_mut),
                );
                Run {
                    method: *self,
                    summary: epa.summary(),
                    trace,
                    gjk_stage: epa.gjk,
                    initial_distance: None,
                }
            }
            Method::Lp(_) | Method::LpContainment => {
                let question = match *self {
                    Method::Lp(simplex) => LpQuestion::Collision(simplex),
                    _ => LpQuestion::Containment,
                };
                let records = buffer.map(Trace::lp_mut);
                let answer = super::lp::run_on_shapes(a, b, b_in_a, question, settings.lp, records);
                let mut summary = RunSummary::not_applicable(String::new());
                summary.outcome = answer.outcome;
                summary.iterations = answer.pivots;
                summary.witness_a = answer.witness;
                summary.witness_b = answer.witness;
                Run {
                    method: *self,
                    summary,
                    trace,
                    gjk_stage: None,
                    initial_distance: None,
                }
            }
            Method::InteriorPoint | Method::InteriorPointToi => {
                // The time of impact needs a translating B; the distance ignores motion.
                let velocity = match (*self, motion) {
                    (Method::InteriorPoint, _) => None,
                    (_, None) => {
                        let why = "B has no velocity: a time of impact needs one".to_string();
                        return Run::not_applicable(*self, why);
                    }
                    (_, Some(m)) if m.spin != glam::DVec3::ZERO => {
                        let why =
                            "the interior point's time of impact takes translating bodies only";
                        return Run::not_applicable(*self, why.to_string());
                    }
                    (_, Some(m)) => Some(m.velocity),
                };
                let records = buffer.map(Trace::interior_point_mut);
                let settings = settings.interior_point;
                let answer = ImplicitBody::of_shape(a).and_then(|ia| {
                    let ib = ImplicitBody::of_shape(b)?.moved(b_in_a);
                    Ok(match velocity {
                        None => {
                            let r = distance(&ia, &ib, settings, records)?;
                            (r.outcome, r.iterations, r.x, r.y)
                        }
                        Some(v) => {
                            let r = time_of_impact(&ia, &ib, v, settings, records)?;
                            (r.outcome, r.iterations, r.x, r.y)
                        }
                    })
                });
                let mut summary = RunSummary::not_applicable(String::new());
                match answer {
                    Ok((outcome, iterations, x, y)) => {
                        summary.outcome = outcome;
                        summary.iterations = iterations;
                        summary.witness_a = Some(x);
                        summary.witness_b = Some(y);
                    }
                    Err(why) => {
                        summary.outcome = Outcome::Degenerate {
                            reason: why.to_string(),
                        }
                    }
                }
                Run {
                    method: *self,
                    summary,
                    trace,
                    gjk_stage: None,
                    initial_distance: None,
                }
            }
            Method::Toi(rule) => {
                let Some(motion) = motion else {
                    let why = "B has no velocity: a time of impact needs one".to_string();
                    return Run::not_applicable(*self, why);
                };
                let records = buffer.map(Trace::toi_mut);
                let settings = settings.toi;
                let toi = time_of_impact_moving(a, b, b_in_a, motion, rule, settings, records);
                Run {
                    method: *self,
                    summary: toi.summary(),
                    trace,
                    gjk_stage: None,
                    initial_distance: toi.initial_distance,
                }
            }
        }
    }
}

impl From<Algorithm> for Method {
    fn from(a: Algorithm) -> Self {
        Method::Solver(a)
    }
}

impl fmt::Display for Method {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Method {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Method::all()
            .into_iter()
            .find(|m| m.name() == s)
            .ok_or_else(|| {
                let names: Vec<&str> = Method::all().iter().map(|m| m.name()).collect();
                format!("unknown algorithm '{s}' (known: {})", names.join(", "))
            })
    }
}
