//! Time of impact (Ericson, "The Gilbert-Johnson-Keerthi algorithm" §4;
//! docs/algorithms.md, "Time of impact"):
//! B translates by `t·v`, t ∈ [0, 1], A stays; when do they first touch? Four methods, one family:
//!
//! - [`ToiRule::RayCast`]: GJK ray cast (van den Bergen's; Box2D 3.0's `b2ShapeCast`): the
//!   ray `λ·v` from the origin into `A ⊖ B`, its point pushed on by each support plane.
//! - [`ToiRule::Advancement`]: conservative advancement (Mirtich; Box2D 3.1's `b2ShapeCast`): the
//!   distance and its closing speed allow a step that cannot pass the contact.
//! - [`ToiRule::Halving`]: interval halving on the swept shape (Ericson): does B,
//!   swept over the bracket's first half, touch A? Each test warm-starts from the last.
//! - [`ToiRule::Brent`]: Brent's method on the signed distance (GJK, EPA inside).
//!
//! All four begin alike: the distance at t = 0 (touching already: t = 0), then GJK on B
//! swept over the whole motion. Apart by more than the contact tolerance: `no_impact`
//! with that closest approach, certified. Within the tolerance but not overlapping:
//! `grazing`, said as such. Overlapping somewhere: the method finds the first time.

mod advancement;
mod bracketing;
mod closed_form;
/// The step-by-step sentences of this family (the viewer, lessons, worksheets).
pub mod kind;
pub mod narrate;
pub use kind::FAMILY;
mod ray_cast;
mod record;
mod turning;

use glam::DVec3;
use serde::{Deserialize, Serialize};

pub use record::{RayState, ToiEvent, ToiRecord, TOI_CSV_HEADER};

use super::epa::{gjk_settings_for_epa, penetration, EpaSettings};
use super::family::Family;
use super::family::{Answer, FamilyRun, PairQuery};
use super::{nearest_in_simplex, run_gjk, DirectionRule, InitialGuess, Outcome, RunSummary};
use std::borrow::Cow;

pub use super::settings::ToiSettings;
use crate::minkowski::{MinkowskiDifference, SupportStats};
use crate::pose::{Motion, RelativePose};
use crate::shape::Shape;

/// GJK for the time of impact: EPA's relative duality-gap stop, but overlap only
/// within 1e-12 of the boundary (GJK's usual 1e-9 would call a grazing pass 1e-11
/// apart an overlap, and shift a bracket by the tolerance over the closing speed).
fn strict_gjk_settings() -> super::SolverSettings {
    super::SolverSettings {
        tolerance: 1e-12,
        ..gjk_settings_for_epa()
    }
}

/// The width to which every impact time is bracketed (the answers promise 1e-6).
const TIME_BRACKET: f64 = 1e-7;

/// Which time-of-impact method.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum ToiRule {
    RayCast,
    Advancement,
    Halving,
    Brent,
}

/// How close counts as touching: the settings' fraction of the scene's size (the
/// shapes' bounding-box diagonals and the motion's length).
pub fn contact_distance(a: &Shape, b: &Shape, velocity: DVec3, settings: ToiSettings) -> f64 {
    let size = a.local_aabb().extent().length() + b.local_aabb().extent().length();
    let scale = (size + velocity.length()).max(f64::MIN_POSITIVE);
    settings.contact_tolerance * scale
}

/// A finished time-of-impact query: `impact` (time, normal: the direction to move B out
/// of A), `no_impact` (closest approach), `grazing`, `iteration_cap` or `degenerate`;
/// iterations are the method's own steps (the two opening tests not counted), support
/// calls those of every GJK run the query made, witnesses the contact points on A and
/// on B (B at the impact time, A's frame).
pub type ToiRun = Answer<ToiExtras>;

/// What a time-of-impact run reports beyond the common summary.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct ToiExtras {
    /// The distance at t = 0 (`None` when GJK had none).
    pub initial_distance: Option<f64>,
    /// The absolute contact tolerance (the relative one times the scene's size): a
    /// distance at or below it is contact, and the narration names it.
    pub contact_tolerance: f64,
}

/// The time of impact as a family entry: the rule names the method; B's motion and the
/// query's `toi` settings come with the query.
impl FamilyRun for ToiRule {
    type Records = Vec<ToiRecord>;
    type Extras = ToiExtras;

    fn family(&self) -> Family {
        FAMILY
    }

    fn run(&self, q: &PairQuery<'_>, records: Option<&mut Vec<ToiRecord>>) -> ToiRun {
        let Some(motion) = q.motion else {
            let why = "B has no velocity: a time of impact needs one".to_string();
            let outcome = Outcome::NotApplicable { why };
            return ToiRun::new(
                outcome,
                0,
                SupportStats::default(),
                None,
                ToiExtras::default(),
            );
        };
        let settings = q.settings.toi;
        time_of_impact_moving(q.a, q.b, q.b_in_a, motion, *self, settings, records)
    }
}

/// The first time in [0, 1] at which B, moving by `t·velocity` from `b_in_a` (velocity
/// in A's frame), touches A; its records go into `trace` when given.
pub fn time_of_impact(
    a: &Shape,
    b: &Shape,
    b_in_a: RelativePose,
    velocity: DVec3,
    rule: ToiRule,
    settings: ToiSettings,
    trace: Option<&mut Vec<ToiRecord>>,
) -> ToiRun {
    time_of_impact_moving(a, b, b_in_a, velocity.into(), rule, settings, trace)
}

/// [`time_of_impact`] for a B that may also turn: only conservative advancement takes
/// a turning B (there is no swept shape, ray or bracket test for a rotation); the
/// others answer `not_applicable`.
pub fn time_of_impact_moving(
    a: &Shape,
    b: &Shape,
    b_in_a: RelativePose,
    motion: Motion,
    rule: ToiRule,
    settings: ToiSettings,
    trace: Option<&mut Vec<ToiRecord>>,
) -> ToiRun {
    let mut trace = trace;
    if let (true, Shape::Sphere(sa), Shape::Sphere(sb)) = (settings.closed_forms, a, b) {
        if motion.spin == DVec3::ZERO {
            let (p, v) = (b_in_a.translation, motion.velocity);
            // `contact_distance` without the boxes: a ball's box diagonal is √(12 r²).
            let diagonal = |r: f64| (12.0 * (r * r)).sqrt();
            let size = diagonal(sa.radius()) + diagonal(sb.radius());
            let contact = settings.contact_tolerance * (size + v.length()).max(f64::MIN_POSITIVE);
            let reach = sa.radius() + sb.radius();
            let records = trace.as_deref_mut();
            if let Some(run) = closed_form::balls(p, v, reach, sa.radius(), contact, records) {
                return run;
            }
        }
    }
    let mut q = Query::new(a, b, b_in_a, motion.velocity, settings, trace);
    q.spin = motion.spin;
    if !(motion.velocity.is_finite() && motion.spin.is_finite()) {
        return q.finish_degenerate("the motion is not finite".into());
    }
    if motion.spin != DVec3::ZERO {
        if rule != ToiRule::Advancement {
            let why = "B turns: only conservative advancement takes a rotation".to_string();
            return q.finish(Outcome::NotApplicable { why }, None);
        }
        let d0 = q.gjk(0.0, 0.0);
        let Some(distance) = d0.distance() else {
            let why = format!("GJK had no distance at t = 0 ({})", d0.summary.outcome);
            return q.finish_degenerate(why);
        };
        q.initial_distance = Some(distance);
        q.record(ToiEvent::Start, 0.0, (0.0, f64::INFINITY), distance);
        if distance <= q.contact {
            return q.touching_at_start(&d0);
        }
        return advancement::run(q, d0);
    }
    if settings.closed_forms {
        if let Some(run) = closed_form::answer(&mut q) {
            return run;
        }
    }
    match q.opening() {
        Opening::Decided(run) => *run,
        Opening::ContactAhead { d0 } => match rule {
            ToiRule::RayCast => ray_cast::run(q),
            ToiRule::Advancement => advancement::run(q, *d0),
            ToiRule::Halving => bracketing::halving(q),
            ToiRule::Brent => bracketing::brent(q, *d0),
        },
    }
}

/// What the two opening tests found.
enum Opening {
    /// Touching at t = 0, apart all along, grazing, or a failure: the answer.
    Decided(Box<ToiRun>),
    /// Apart at t = 0 by `d0`, overlapping at some later time in [0, 1].
    ContactAhead { d0: Box<Probe> },
}

/// A GJK distance at one time (or over a swept interval), run on the shapes' cores
/// (a sphere's point, a capsule's segment) with their radii added here: rounded shapes
/// cost GJK no iterations for their roundness.
#[derive(Clone, Debug)]
pub(crate) struct Probe {
    pub time: f64,
    /// GJK between the cores.
    pub summary: RunSummary,
    radius_a: f64,
    radius_b: f64,
}

impl Probe {
    fn radius(&self) -> f64 {
        self.radius_a + self.radius_b
    }

    /// The certified distance between the shapes (0 when they overlap); `None` when
    /// GJK had no answer.
    pub fn distance(&self) -> Option<f64> {
        Some((self.summary.outcome.distance()? - self.radius()).max(0.0))
    }

    /// A distance that is certainly not above the true one (a step computed from it
    /// cannot pass the contact); negative inside.
    pub fn safe_distance(&self) -> Option<f64> {
        let cores = match self.summary.outcome {
            Outcome::Stalled { lower_bound, .. } => lower_bound,
            Outcome::Separated { distance, .. } => distance * (1.0 - 2e-9),
            // The cores may touch or overlap: nothing certain above 0.
            Outcome::Intersecting | Outcome::Contact { .. } => 0.0,
            _ => return None,
        };
        Some(cores - self.radius())
    }

    /// Overlap, certain: the cores overlap (GJK with the query's strict tolerance,
    /// within 1e-12 of the boundary at most), or are nearer than the radii by more
    /// than their distance's uncertainty.
    pub fn overlaps(&self) -> bool {
        match self.summary.outcome {
            Outcome::Intersecting => true,
            Outcome::Separated { distance, .. }
            | Outcome::Stalled { distance, .. }
            | Outcome::Contact { distance } => distance * (1.0 + 1e-11) < self.radius(),
            _ => false,
        }
    }

    /// How far from overlap a probe that does not certainly overlap is: its distance,
    /// or within GJK's tolerance of the cores' contact the distance from the origin to
    /// its final simplex (an upper bound).
    pub fn gap_upper_bound(&self) -> f64 {
        if self.overlaps() {
            return 0.0;
        }
        match self.summary.outcome.distance() {
            Some(d) if d > 0.0 => (d - self.radius()).max(0.0),
            _ => nearest_in_simplex(&self.summary.simplex).map_or(0.0, |(x, _)| x.length()),
        }
    }

    /// The unit direction from A's witness to B's (the way B moves out of A).
    pub fn normal(&self) -> Option<DVec3> {
        let (a, b) = (self.summary.witness_a?, self.summary.witness_b?);
        let n = (b - a).normalize_or_zero();
        (n != DVec3::ZERO).then_some(n)
    }

    /// The nearest points of the shapes themselves (the cores' moved out by the radii).
    pub fn witnesses(&self) -> Option<(DVec3, DVec3)> {
        let (a, b) = (self.summary.witness_a?, self.summary.witness_b?);
        let n = self.normal().unwrap_or(DVec3::ZERO);
        Some((a + n * self.radius_a, b - n * self.radius_b))
    }
}

/// One query's shapes, motion, tolerances, counters and records.
pub(crate) struct Query<'s, 'r> {
    pub a: &'s Shape,
    pub b: &'s Shape,
    /// The shapes' cores and radii: GJK runs on the cores.
    pub core_a: Cow<'s, Shape>,
    pub core_b: Cow<'s, Shape>,
    pub radius_a: f64,
    pub radius_b: f64,
    pub b_in_a: RelativePose,
    pub velocity: DVec3,
    /// B's turn over the motion (rotation vector, A's frame); zero for a translation.
    pub spin: DVec3,
    pub settings: ToiSettings,
    /// Distances at or below this are contact (absolute: the relative tolerance times
    /// the scene's size).
    pub contact: f64,
    pub stats: SupportStats,
    /// The last GJK run's nearest point: the next run's first direction.
    guess: Option<DVec3>,
    /// The last probe was near contact: the next starts with the strict tolerance.
    near: bool,
    pub k: usize,
    /// The closest approach over the whole motion (the swept test).
    pub closest: f64,
    /// The distance at t = 0.
    pub initial_distance: Option<f64>,
    records: Option<&'r mut Vec<ToiRecord>>,
}

impl<'s, 'r> Query<'s, 'r> {
    fn new(
        a: &'s Shape,
        b: &'s Shape,
        b_in_a: RelativePose,
        velocity: DVec3,
        settings: ToiSettings,
        records: Option<&'r mut Vec<ToiRecord>>,
    ) -> Self {
        let mut records = records;
        if let Some(r) = records.as_deref_mut() {
            r.clear();
        }
        let ((core_a, radius_a), (core_b, radius_b)) = (a.rounded_core(), b.rounded_core());
        Self {
            a,
            b,
            core_a,
            core_b,
            radius_a,
            radius_b,
            b_in_a,
            velocity,
            spin: DVec3::ZERO,
            settings,
            contact: contact_distance(a, b, velocity, settings),
            stats: SupportStats::default(),
            guess: None,
            near: false,
            k: 0,
            closest: f64::NAN,
            initial_distance: None,
            records,
        }
    }

    /// B's pose at time `t` (turned about its own origin when it spins).
    pub fn pose_at(&self, t: f64) -> RelativePose {
        RelativePose {
            translation: self.b_in_a.translation + self.velocity * t,
            rotation: crate::pose::turned(self.b_in_a.rotation, self.spin, t),
        }
    }

    /// GJK between A and B placed at `t`, swept on for `span` of the motion (0: static).
    pub fn gjk(&mut self, t: f64, span: f64) -> Probe {
        // Far from contact EPA's usual stop is enough; near contact (or "intersecting"
        // within its 1e-9) the strict one. Once a probe was near, the next ones start
        // strict (bracketing and advancement stay near).
        let near_distance = self.radius_a + self.radius_b + 1e3 * self.contact;
        let is_near = |s: &RunSummary| s.outcome.distance().is_none_or(|d| d <= near_distance);
        let summary = if self.near {
            self.gjk_with(t, span, strict_gjk_settings())
        } else {
            let loose = self.gjk_with(t, span, gjk_settings_for_epa());
            if is_near(&loose) {
                self.gjk_with(t, span, strict_gjk_settings())
            } else {
                loose
            }
        };
        self.near = is_near(&summary);
        Probe {
            time: t,
            summary,
            radius_a: self.radius_a,
            radius_b: self.radius_b,
        }
    }

    /// One GJK run on the cores with `settings`, warm-started from the last run.
    fn gjk_with(&mut self, t: f64, span: f64, mut settings: super::SolverSettings) -> RunSummary {
        let md = MinkowskiDifference::new(&self.core_a, &self.core_b, self.pose_at(t))
            .swept(self.velocity * span);
        if let Some(g) = self.guess {
            settings.initial_guess = InitialGuess::Direction(g);
        }
        let summary = run_gjk(md, DirectionRule::Vanilla, settings, &[]);
        self.add_stats(summary.stats);
        self.guess = nearest_in_simplex(&summary.simplex)
            .map(|(x, _)| x)
            .filter(|x| x.is_finite() && *x != DVec3::ZERO);
        summary
    }

    /// The signed distance at `t`: GJK's distance apart, −(EPA's depth) overlapping.
    pub fn signed_distance(&mut self, t: f64) -> Option<f64> {
        let run = penetration(
            self.a,
            self.b,
            self.pose_at(t),
            strict_gjk_settings(),
            EpaSettings::default(),
            None,
        );
        self.add_stats(run.stats);
        if let Some(g) = &run.extras.gjk_stage {
            self.add_stats(g.stats);
        }
        match (run.outcome.signed_distance(), &run.extras.gjk_stage) {
            (Some(f), _) => Some(f),
            // Overlap certified by GJK, depth unknown (EPA capped on a curved pair):
            // the sign is what the root finder needs.
            (None, Some(g)) if g.outcome == Outcome::Intersecting => Some(-self.contact),
            (None, _) => None,
        }
    }

    fn add_stats(&mut self, s: SupportStats) {
        self.stats.calls += s.calls;
        self.stats.vertex_visits_a += s.vertex_visits_a;
        self.stats.vertex_visits_b += s.vertex_visits_b;
    }

    /// Records a step (when traced).
    pub fn record(&mut self, event: ToiEvent, time: f64, bracket: (f64, f64), distance: f64) {
        self.record_ray(event, time, bracket, distance, None);
    }

    pub fn record_ray(
        &mut self,
        event: ToiEvent,
        time: f64,
        (lower, upper): (f64, f64),
        distance: f64,
        ray: Option<RayState>,
    ) {
        let Some(records) = self.records.as_deref_mut() else {
            return;
        };
        records.push(ToiRecord {
            k: self.k,
            event,
            time,
            lower,
            upper,
            distance,
            ray,
            support_calls: self.stats.calls,
        });
    }

    pub fn is_traced(&self) -> bool {
        self.records.is_some()
    }

    /// The distance at t = 0, then GJK on B swept over the whole motion.
    fn opening(&mut self) -> Opening {
        let d0 = self.gjk(0.0, 0.0);
        self.initial_distance = d0.distance();
        let Some(distance) = d0.distance() else {
            let why = format!("GJK had no distance at t = 0 ({})", d0.summary.outcome);
            return Opening::Decided(Box::new(self.finish_degenerate(why)));
        };
        self.record(ToiEvent::Start, 0.0, (0.0, f64::INFINITY), distance);
        if distance <= self.contact {
            return Opening::Decided(Box::new(self.touching_at_start(&d0)));
        }
        let swept = self.gjk(0.0, 1.0);
        let Some(closest) = swept.distance() else {
            let why = format!(
                "GJK on the swept shape had no answer ({})",
                swept.summary.outcome
            );
            return Opening::Decided(Box::new(self.finish_degenerate(why)));
        };
        self.closest = closest;
        let upper = if closest == 0.0 { 1.0 } else { f64::INFINITY };
        self.record(ToiEvent::SweptTest, 1.0, (0.0, upper), closest);
        if closest > self.contact {
            self.record(ToiEvent::NoContact, 1.0, (0.0, f64::INFINITY), closest);
            return Opening::Decided(Box::new(self.finish(
                Outcome::NoImpact {
                    closest_distance: closest,
                },
                None,
            )));
        }
        if !swept.overlaps() {
            // Within the tolerance of A, but no overlap certified anywhere on the way.
            return Opening::Decided(Box::new(self.grazing(swept.gap_upper_bound())));
        }
        Opening::ContactAhead { d0: Box::new(d0) }
    }

    /// Touching or overlapping at t = 0: the impact is at 0, its normal EPA's.
    fn touching_at_start(&mut self, d0: &Probe) -> ToiRun {
        let epa = penetration(
            self.a,
            self.b,
            self.b_in_a,
            gjk_settings_for_epa(),
            EpaSettings::default(),
            None,
        );
        self.add_stats(epa.stats);
        let normal = epa
            .outcome
            .normal()
            .or_else(|| d0.normal())
            .unwrap_or(DVec3::ZERO);
        self.record(
            ToiEvent::Contact,
            0.0,
            (0.0, 0.0),
            d0.distance().unwrap_or(0.0),
        );
        let witnesses = epa.witness_a.zip(epa.witness_b);
        self.finish(Outcome::Impact { time: 0.0, normal }, witnesses)
    }

    /// The swept shape comes within the contact tolerance without overlapping: the
    /// time of closest approach (golden section on the distance, convex in t).
    fn grazing(&mut self, closest: f64) -> ToiRun {
        let ratio = (5f64.sqrt() - 1.0) / 2.0;
        let (mut lo, mut hi) = (0.0, 1.0);
        while hi - lo > 1e-6 && self.k < self.settings.max_iterations {
            self.k += 1;
            let (m1, m2) = (hi - ratio * (hi - lo), lo + ratio * (hi - lo));
            let (d1, d2) = (self.gjk(m1, 0.0).distance(), self.gjk(m2, 0.0).distance());
            if d1.unwrap_or(f64::INFINITY) <= d2.unwrap_or(f64::INFINITY) {
                hi = m2;
            } else {
                lo = m1;
            }
        }
        let time = 0.5 * (lo + hi);
        let probe = self.gjk(time, 0.0);
        let distance = probe.distance().unwrap_or(closest);
        self.record(ToiEvent::Contact, time, (lo, hi), distance);
        let witnesses = probe.witnesses();
        self.finish(Outcome::Grazing { time, distance }, witnesses)
    }

    /// The first contact, bracketed in time: `time` is at or before it (a probe within
    /// the contact tolerance, which over a slow closing speed is a time error of the
    /// tolerance divided by that speed: 2e-6 on a grazing approach). B swept over
    /// `[time, time + TIME_BRACKET]` overlapping A proves the contact that near; if it
    /// does not, halving on the swept shape from there (the opening test found an
    /// overlap ahead) brackets it to that width. Returns the bracket's start: apart up
    /// to it, overlapping within `TIME_BRACKET` after it. A turning B has no swept test:
    /// its time stays the advancement's.
    pub(super) fn bracketed_time(&mut self, time: f64) -> f64 {
        if self.spin != DVec3::ZERO || time >= 1.0 {
            return time;
        }
        let first_hi = (time + TIME_BRACKET).min(1.0);
        if self.gjk(time, first_hi - time).overlaps() {
            return time;
        }
        self.halve_swept(first_hi, 1.0, TIME_BRACKET).0
    }

    /// `[lo, hi]` (apart up to `lo`, a contact in it) halved by swept tests to `width`
    /// or the iteration cap: B swept over `[lo, mid]` touches A or not, and `lo` stays
    /// certified apart.
    pub(super) fn halve_swept(&mut self, mut lo: f64, mut hi: f64, width: f64) -> (f64, f64) {
        while hi - lo > width && self.k < self.settings.max_iterations {
            self.k += 1;
            let mid = 0.5 * (lo + hi);
            let test = self.gjk(lo, mid - lo);
            if test.overlaps() {
                hi = mid;
            } else {
                lo = mid;
            }
            let distance = test.distance().unwrap_or(f64::NAN);
            self.record(ToiEvent::Halve, mid, (lo, hi), distance);
        }
        (lo, hi)
    }

    /// The impact at `time` (bracketed: [`Query::bracketed_time`]), its normal and
    /// contact points from `before`, the last probe apart (B's point carried on to the
    /// impact).
    pub fn impact(&mut self, time: f64, before: &Probe) -> ToiRun {
        let time = self.bracketed_time(time);
        let shift = self.velocity * (time - before.time);
        let normal = self.normal_near(before).unwrap_or(DVec3::ZERO);
        let witnesses = before.witnesses().map(|(a, b)| (a, b + shift));
        self.finish(Outcome::Impact { time, normal }, witnesses)
    }

    /// The contact normal near `before`. Within the contact tolerance the witnesses are
    /// so close that their coordinates' round-off (1e-16 of their size) tilts the
    /// direction between them by 1e-16/distance: so it is taken where the distance is
    /// at least 1e-7 of the scene's size, stepping back in time (a few GJK runs).
    fn normal_near(&mut self, before: &Probe) -> Option<DVec3> {
        let target = self.contact * 100.0;
        if before.distance().is_some_and(|d| d >= target) || before.time == 0.0 {
            return before.normal();
        }
        let speed = self.velocity.length().max(f64::MIN_POSITIVE);
        let mut step = target / speed;
        let mut best = before.normal();
        for _ in 0..20 {
            let t = (before.time - step).max(0.0);
            let probe = self.gjk(t, 0.0);
            if let Some(n) = probe.normal() {
                best = Some(n);
            }
            if probe.distance().is_some_and(|d| d >= target) || t == 0.0 {
                break;
            }
            step *= 4.0;
        }
        best
    }

    pub fn finish(&mut self, outcome: Outcome, witnesses: Option<(DVec3, DVec3)>) -> ToiRun {
        let extras = ToiExtras {
            initial_distance: self.initial_distance,
            contact_tolerance: self.contact,
        };
        ToiRun::new(outcome, self.k, self.stats, witnesses, extras)
    }

    pub fn finish_degenerate(&mut self, reason: String) -> ToiRun {
        self.finish(Outcome::Degenerate { reason }, None)
    }

    pub fn finish_cap(&mut self, lower: f64, upper: f64) -> ToiRun {
        self.finish(
            Outcome::IterationCap {
                lower_bound: lower,
                upper_bound: upper,
            },
            None,
        )
    }
}
