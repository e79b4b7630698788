//! Every method a query can be run with, by name: a row of the catalog, whose entry is
//! a variant of its family ([`MethodEntry`]). [`Method::run`] is the one entry point the
//! CLI, the scenes, the viewer and the benchmarks use for any of them; it runs the
//! row's entry, with no list of families here.

use std::fmt;
use std::str::FromStr;

use glam::DVec3;
use serde::Serialize;

use super::catalog::{self, Family};
use super::distance::{certify_enclosure, solve};
use super::family::{PairQuery, RunExtras, RunView};
use super::registry::MethodEntry;
use super::settings::SupportRule;
use super::trace::Trace;
use super::{Algorithm, Outcome, RunSummary, SolverSettings};
use crate::minkowski::MinkowskiDifference;
use crate::pose::{Motion, RelativePose};
use crate::shape::Shape;

/// A named method of the CLI and problem-file runs: a row of the catalog
/// ([`catalog::CATALOG`]), made from its family's variant with [`Method::of`].
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Method(u8);

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

impl Run {
    /// What the run's family narrates from: its name, summary and extras.
    pub fn view(&self) -> RunView<'_> {
        RunView {
            method: self.method.name(),
            summary: &self.summary,
            extras: &self.extras,
        }
    }

    /// What record `index` did, in words (or, with no records, how the run ended): the
    /// run's family says it ([`crate::solver::family::FamilyRecords::narrate`]). Plain
    /// text: the viewer, the lessons' transcripts and the worksheets all say the same.
    pub fn narrate(&self, index: usize) -> String {
        self.trace.narrate(self.view(), index)
    }

    /// The GJK stage an EPA run started from, when this is one and it had one.
    pub fn gjk_stage(&self) -> Option<&RunSummary> {
        self.extras
            .get::<super::epa::EpaExtras>()?
            .gjk_stage
            .as_ref()
    }

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

/// The smallest size a pair may have (its shapes' extents, the distance between them
/// and B's motion, whichever is largest): below it squared lengths underflow (1e-75
/// squared twice is 1e-300, near the smallest normal number), and a distance of 1e-170
/// squares to 0, so GJK's and the exact predicates' answers would be about other shapes.
/// The mirror of [`crate::shape::MAX_COORDINATE`]. A pair of two points at one place
/// (size 0) is exact and kept.
pub const MIN_PAIR_SIZE: f64 = 1e-75;

/// Why a query is too small to answer soundly, when it is: its largest length is
/// positive and below [`MIN_PAIR_SIZE`]. Cheap when B is not that close: the shapes'
/// boxes are only measured then.
pub fn below_size_floor(query: &PairQuery<'_>) -> Option<String> {
    let mut largest = query.b_in_a.translation.abs().max_element();
    if let Some(m) = query.motion {
        largest = largest.max(m.velocity.abs().max_element());
    }
    if largest >= MIN_PAIR_SIZE || largest.is_nan() {
        return None;
    }
    for shape in [query.a, query.b] {
        if matches!(shape, Shape::Implicit(_)) {
            // Bounded by their own checks (the barrier refuses products beyond 1e±150).
            return None;
        }
        let b = shape.local_aabb();
        largest = largest.max(b.min.abs().max(b.max.abs()).max_element());
    }
    (largest > 0.0 && largest < MIN_PAIR_SIZE).then(|| {
        format!(
            "the pair is at most {largest:.1e} across (its shapes and the distance between \
             them), below {MIN_PAIR_SIZE:e}, where squared lengths underflow: scale the \
             scene's units up (every answer scales with them)"
        )
    })
}

/// Why a translation is too large to answer a query on soundly, when it is: beyond
/// [`crate::shape::MAX_COORDINATE`], where squared lengths (GJK's ‖x‖², EPA's face
/// distances) overflow or swamp the shapes' own sizes; a pair 1e200 apart is not
/// "touching" nor "degenerate", it is outside what f64 geometry can answer.
pub fn beyond_size_cap(translation: DVec3) -> Option<String> {
    let largest = translation.abs().max_element();
    (largest > crate::shape::MAX_COORDINATE).then(|| {
        format!(
            "{largest:e} is beyond {:e}, where squared lengths overflow: scale the \
             scene's units down or move the pair nearer the origin (every answer scales \
             with the units)",
            crate::shape::MAX_COORDINATE
        )
    })
}

/// The refusal of a pair whose B lies (or moves) beyond the size cap from A, as every
/// method and the midphase give it: `None` within the cap.
pub fn offset_beyond_cap(b_in_a: &RelativePose, motion: Option<Motion>) -> Option<Outcome> {
    let reach = motion.map_or(b_in_a.translation, |m| {
        b_in_a.translation.abs().max(m.velocity.abs())
    });
    beyond_size_cap(reach).map(|why| Outcome::Degenerate {
        reason: format!("B's offset from A (or its motion) {why}"),
    })
}

fn method_name<S: serde::Serializer>(m: &Method, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(m.name())
}

impl Method {
    /// The method whose catalog row runs `entry` (a variant of its family: a
    /// direction rule, `Penetration`, a time-of-impact rule, an LP question, ...).
    pub fn of(entry: impl MethodEntry) -> Method {
        // Every variant has its row (tested); the first row stands in otherwise.
        Method(catalog::row_of(&entry).unwrap_or(0) as u8)
    }

    /// The method's entry as its family's variant type, when it is an `E`.
    pub fn entry<E: MethodEntry + Copy>(&self) -> Option<E> {
        self.info().entry.as_any().downcast_ref::<E>().copied()
    }

    /// The catalog row.
    pub fn info(&self) -> &'static catalog::MethodInfo {
        catalog::info(*self)
    }

    /// The catalog row's index.
    pub fn row(&self) -> usize {
        self.0 as usize
    }

    /// The name on the command line and in files (from the catalog).
    pub fn name(&self) -> &'static str {
        catalog::info(*self).name
    }

    /// The label in panels and legends (from the catalog).
    pub fn label(&self) -> &'static str {
        catalog::info(*self).label
    }

    pub fn family(&self) -> Family {
        catalog::info(*self).family()
    }

    /// Every method, in the order help texts list them.
    pub fn all() -> Vec<Method> {
        (0..catalog::CATALOG.len())
            .map(|i| Method(i as u8))
            .collect()
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

    /// [`Method::run`] without records or motion, through the solver's untraced loop
    /// where a distance method has one (the same loop, supports inlined, without the
    /// method layer's bookkeeping): what a search over many sub-pairs and the Python
    /// package's engine-speed calls run. The same answer as `run(.., None, settings,
    /// false)`: every other case (another family, Coal's supports, a pair the method
    /// does not take, beyond the size cap or below the floor) goes through it.
    pub fn run_untraced(
        &self,
        a: &Shape,
        b: &Shape,
        b_in_a: RelativePose,
        settings: SolverSettings,
    ) -> Run {
        let query = PairQuery {
            a,
            b,
            b_in_a,
            motion: None,
            settings,
        };
        let fast = self.entry::<Algorithm>().filter(|_| {
            settings.supports == SupportRule::Exact
                && self.info().shapes.check(a, b).is_ok()
                && beyond_size_cap(b_in_a.translation).is_none()
                && below_size_floor(&query).is_none()
        });
        let Some(algorithm) = fast else {
            return self.run_query(&query, false);
        };
        let mut summary = solve(algorithm, MinkowskiDifference::new(a, b, b_in_a), settings);
        if summary.outcome == Outcome::Intersecting {
            // As the method's run certifies it: the origin deeper than round-off in the
            // simplex, or else a coarse EPA's positive depth.
            summary.outcome = certify_enclosure(&summary.simplex, &query);
        }
        Run {
            method: *self,
            summary,
            trace: Trace::new(algorithm.family()),
            extras: RunExtras::default(),
        }
    }

    /// [`Method::run`] on a query: the method's family entry ([`FamilyRun`]), its records
    /// gathered into the run's [`Trace`] when `traced`.
    pub fn run_query(&self, query: &PairQuery<'_>, traced: bool) -> Run {
        if let Err(why) = catalog::info(*self).shapes.check(query.a, query.b) {
            return Run::not_applicable(*self, why);
        }
        if let Some(outcome) = offset_beyond_cap(&query.b_in_a, query.motion) {
            let mut run = Run::not_applicable(*self, String::new());
            run.summary.outcome = outcome;
            return run;
        }
        if let Some(why) = below_size_floor(query) {
            let mut run = Run::not_applicable(*self, String::new());
            run.summary.outcome = Outcome::Degenerate { reason: why };
            return run;
        }
        let mut trace = Trace::new(self.family());
        let buffer = traced.then_some(&mut trace);
        let (summary, extras) = self.info().entry.run_traced(query, buffer);
        Run {
            method: *self,
            summary,
            trace,
            extras,
        }
    }
}

impl From<Algorithm> for Method {
    fn from(a: Algorithm) -> Self {
        Method::of(a)
    }
}

impl fmt::Debug for Method {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Method({})", self.name())
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

/// The methods by name, one constructor per family variant that callers name often.
impl Method {
    /// EPA's penetration depth (GJK, then EPA when the shapes overlap).
    pub fn epa() -> Self {
        Self::of(super::epa::Penetration)
    }

    /// The time of impact by `rule`.
    pub fn toi(rule: super::toi::ToiRule) -> Self {
        Self::of(rule)
    }

    /// The collision test by linear programming on `simplex`'s tableau.
    pub fn lp(simplex: super::lp::Simplex) -> Self {
        Self::of(super::lp::LpQuestion::Collision(simplex))
    }

    /// Whether every point of A lies in B, one LP per point.
    pub fn lp_containment() -> Self {
        Self::of(super::lp::LpQuestion::Containment)
    }

    /// The interior point's distance.
    pub fn interior_point() -> Self {
        Self::of(super::interior_point::IpQuestion::Distance)
    }

    /// The interior point's time of impact for a translating B.
    pub fn interior_point_toi() -> Self {
        Self::of(super::interior_point::IpQuestion::TimeOfImpact)
    }
}
