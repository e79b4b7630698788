//! Every method a query can be run with, by name: the steppable solvers of the GJK
//! family and Frank-Wolfe ([`Algorithm`]), and the methods of later families (EPA so
//! far), which answer other questions and keep records of their own. [`Method::run`] is
//! the one entry point the CLI, the scenes and the viewer use for any of them.

use std::fmt;
use std::str::FromStr;

use serde::Serialize;

use super::catalog::{self, Family};
use super::epa::{EpaExtras, Penetration};
use super::family::{Answer, FamilyRun, PairQuery};
use super::interior_point::{IpExtras, IpQuestion};
use super::lp::{LpQuestion, Simplex};
use super::toi::{ToiExtras, ToiRule};
use super::trace::Trace;
use super::{Algorithm, RunSummary, SolverSettings};
use crate::pose::{Motion, RelativePose};
use crate::shape::Shape;

/// A named method of the CLI and problem-file runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Method {
    Solver(Algorithm),
    /// Penetration depth: GJK, then EPA when the shapes overlap.
    Epa,
    /// Time of impact of B moving by `t·v`, t ∈ [0, 1].
    Toi(ToiRule),
    /// The collision test by linear programming (Kreuzer, "On Convex Polytopes, Collision
    /// Detection, and the Simplex Method"), on the dense tableau or by the revised simplex.
    Lp(Simplex),
    /// Whether every point of A lies in B, one LP per point (by the revised simplex).
    LpContainment,
    /// Distance between implicit bodies by the primal-dual interior point (Chakraborty et
    /// al., "Proximity Queries between Convex Objects: An Interior Point Approach for
    /// Implicit Surfaces").
    InteriorPoint,
    /// The interior point's continuous collision for a translating B (Chakraborty et al. §VII).
    InteriorPointToi,
}

/// A finished run of any method: what every family reports, its records, and its
/// family's extras.
#[derive(Clone, Debug, Serialize)]
pub struct Run {
    #[serde(serialize_with = "method_name")]
    pub method: Method,
    pub summary: RunSummary,
    /// Empty when the run was not traced.
    pub trace: Trace,
    #[serde(flatten)]
    pub extras: RunExtras,
}

/// The families' extras as a finished run carries them (only the running family's are
/// set; in JSON beside the summary).
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct RunExtras {
    /// EPA's: the GJK run it started from (boxed: a run of another family carries
    /// none, and moves no room for one).
    pub gjk_stage: Option<Box<RunSummary>>,
    /// The time of impact's: the distance at t = 0, when it measured one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub initial_distance: Option<f64>,
    /// The interior point's: the certified bracket of the distance.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub distance_bracket: Option<(f64, f64)>,
}

impl From<()> for RunExtras {
    fn from(_: ()) -> Self {
        RunExtras::default()
    }
}

impl From<EpaExtras> for RunExtras {
    fn from(e: EpaExtras) -> Self {
        RunExtras {
            gjk_stage: e.gjk_stage.map(Box::new),
            ..RunExtras::default()
        }
    }
}

impl From<ToiExtras> for RunExtras {
    fn from(e: ToiExtras) -> Self {
        RunExtras {
            initial_distance: e.initial_distance,
            ..RunExtras::default()
        }
    }
}

impl From<Option<IpExtras>> for RunExtras {
    fn from(e: Option<IpExtras>) -> Self {
        RunExtras {
            distance_bracket: e.map(|e| (e.lower, e.upper)),
            ..RunExtras::default()
        }
    }
}

impl Run {
    /// A method that cannot take this query (`why` says what is missing).
    pub fn not_applicable(method: Method, why: String) -> Self {
        Run {
            method,
            summary: RunSummary::not_applicable(why),
            trace: Trace::new(method.family()),
            extras: RunExtras::default(),
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
        let query = PairQuery {
            a,
            b,
            b_in_a,
            motion,
            settings,
        };
        self.run_query(&query, traced)
    }

    /// [`Method::run`] on a query: the method's family entry ([`FamilyRun`]), its records
    /// gathered into the run's [`Trace`] when `traced`.
    pub fn run_query(&self, query: &PairQuery<'_>, traced: bool) -> Run {
        if let Err(why) = catalog::info(*self).shapes.check(query.a, query.b) {
            return Run::not_applicable(*self, why);
        }
        let mut trace = Trace::new(self.family());
        let buffer = traced.then_some(&mut trace);
        let q = query;
        let (summary, extras) = match *self {
            Method::Solver(algorithm) => parts(algorithm.run(q, buffer)),
            Method::Epa => parts(Penetration.run(q, buffer.map(Trace::epa_mut))),
            Method::Toi(rule) => parts(rule.run(q, buffer.map(Trace::toi_mut))),
            Method::Lp(simplex) => {
                let records = buffer.map(Trace::lp_mut);
                parts(LpQuestion::Collision(simplex).run(q, records))
            }
            Method::LpContainment => {
                parts(LpQuestion::Containment.run(q, buffer.map(Trace::lp_mut)))
            }
            Method::InteriorPoint => {
                let records = buffer.map(Trace::interior_point_mut);
                parts(IpQuestion::Distance.run(q, records))
            }
            Method::InteriorPointToi => {
                let records = buffer.map(Trace::interior_point_mut);
                parts(IpQuestion::TimeOfImpact.run(q, records))
            }
        };
        Run {
            method: *self,
            summary,
            trace,
            extras,
        }
    }
}

/// An answer's summary and its family's extras in the form every run carries them.
fn parts<E: Into<RunExtras>>(answer: Answer<E>) -> (RunSummary, RunExtras) {
    (answer.summary, answer.extras.into())
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
