//! EPA, the expanding polytope algorithm (docs/algorithms.md, "Penetration depth: EPA"):
//! the penetration depth and
//! direction of two overlapping shapes. It starts from GJK's final simplex, grows it to
//! a tetrahedron around the origin, then repeatedly takes the polytope's face nearest the
//! origin, asks for the support along its normal, and either certifies that face (the
//! support gains nothing beyond the tolerance) or adds the support point, removing the
//! faces it sees and fanning new ones from their horizon.
//!
//! The polytope is an incremental hull with exact visibility tests (the same core as the
//! Quickhull builder), so the horizon is always one loop; face normals are computed from
//! the shapes' own points on each face's best-conditioned sides, as GJK's final answer is.
//! The depth reported is the nearest face's distance, certified from above by the
//! support along its normal: the answer lies in `[lower, upper]` with
//! `upper − lower ≤ tolerance · (1 + ‖support‖)`.

mod boxes;
mod closed_form;
/// The step-by-step sentences of this family (the viewer, lessons, worksheets).
pub mod kind;
pub mod narrate;
pub(crate) use boxes::clear_box_overlap;
pub use boxes::deepest_pair;
pub use kind::FAMILY;
mod record;

use crate::printed_bound::{Above, Outward};
use glam::DVec3;
use smallvec::{smallvec, SmallVec};
use std::cell::Cell;

pub use record::{EpaEvent, EpaRecord, EpaTrace, EPA_CSV_HEADER};

use super::family::Family;
use super::family::{Answer, FamilyRun, PairQuery};
pub use super::settings::EpaSettings;
use super::settings::{Criterion, CriterionKind, SolverSettings};
use super::{run_gjk, DirectionRule, Outcome, RunSummary, Simplex};
use crate::minkowski::{CsoPoint, MinkowskiDifference, SupportStats};
use crate::pose::RelativePose;
use crate::shape::hull::incremental::{Expansion, IncrementalHull};
use crate::shape::hull::orientation::height;
use crate::shape::hull::span::collinear;
use crate::shape::Shape;
use boxes::BoxAnswer;

/// A finished EPA query: `Penetrating`, `Touching`, GJK's `Separated` (or `Stalled`),
/// `IterationCap` or `Degenerate`; iterations are expansions (EPA steps that added a
/// point), support counts EPA's own, witnesses the deepest point pair or GJK's closest
/// points (A's frame).
pub type EpaRun = Answer<EpaExtras>;

/// What EPA reports beyond the common summary.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct EpaExtras {
    /// The GJK run EPA started from (`None` when the cores' contact had a closed form:
    /// a sphere against a sphere, a capsule or a box).
    pub gjk_stage: Option<RunSummary>,
}

/// The penetration query as a family entry: GJK, then EPA, with the query's EPA
/// settings (GJK's stage keeps its certified overlap test, [`gjk_settings_for_epa`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Penetration;

impl FamilyRun for Penetration {
    type Records = EpaTrace;
    type Extras = EpaExtras;

    fn family(&self) -> Family {
        FAMILY
    }

    fn run(&self, q: &PairQuery<'_>, records: Option<&mut EpaTrace>) -> EpaRun {
        let mut run = penetration(
            q.a,
            q.b,
            q.b_in_a,
            gjk_settings_for_epa(),
            q.settings.epa,
            records,
        );
        // The closed forms and the radii added to the cores' answer round too.
        run.summary.allow_round_off(q.round_off());
        run
    }
}

/// GJK's settings for the query that precedes EPA: a relative duality-gap stop at 1e-9
/// (the separated answer is then certified to 1e-9 of the distance).
pub fn gjk_settings_for_epa() -> SolverSettings {
    SolverSettings {
        tolerance: 1e-9,
        criterion: Criterion::DualityGap,
        kind: CriterionKind::Relative,
        max_iterations: 1000,
        ..SolverSettings::default()
    }
}

/// Penetration query between A (at the identity) and B (at `b_in_a`): GJK, then EPA when
/// GJK finds the shapes overlapping. Rounded shapes (spheres, capsules, dilated shapes)
/// are queried by their cores and their radii added at the end: exact for the rounded
/// part (two spheres with coincident centres are a point pair, depth `r_A + r_B`),
/// where EPA alone would have to approximate a sphere with ever more faces. EPA's
/// records (over the cores) go into `trace` when given.
pub fn penetration(
    a: &Shape,
    b: &Shape,
    b_in_a: RelativePose,
    gjk_settings: SolverSettings,
    settings: EpaSettings,
    trace: Option<&mut EpaTrace>,
) -> EpaRun {
    if let Some((outcome, witnesses)) =
        closed_form_penetration(a, b, b_in_a, ClosedForms::of(settings, false))
    {
        let extras = EpaExtras { gjk_stage: None };
        return EpaRun::new(outcome, 0, SupportStats::default(), Some(witnesses), extras);
    }
    penetration_by_runs(a, b, b_in_a, gjk_settings, settings, trace)
}

/// [`penetration`] by GJK and EPA alone (rounded shapes by their cores, the radii then
/// added): for a caller that has tried the closed forms already (the contact family's
/// normal).
pub(crate) fn penetration_by_runs(
    a: &Shape,
    b: &Shape,
    b_in_a: RelativePose,
    gjk_settings: SolverSettings,
    settings: EpaSettings,
    trace: Option<&mut EpaTrace>,
) -> EpaRun {
    // Shapes that are their own cores go straight in (no copy of a shape).
    if a.is_own_core() && b.is_own_core() {
        return penetration_of_cores(a, b, b_in_a, gjk_settings, settings, trace);
    }
    let (core_a, radius_a) = a.rounded_core();
    let (core_b, radius_b) = b.rounded_core();
    let mut run = penetration_of_cores(&core_a, &core_b, b_in_a, gjk_settings, settings, trace);
    if radius_a + radius_b > 0.0 {
        run.add_radii(radius_a, radius_b);
    }
    run
}

/// Which closed forms answer a pair before GJK and EPA.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) struct ClosedForms {
    /// Two boxes, a box and a point or a segment (EPA's `closed_forms` setting).
    pub boxes: bool,
    /// A box face over the other shape's deepest point
    /// ([`boxes::face_over_deepest_point`]): asked by the contact family, which
    /// shows no expansion; EPA's own run keeps its expansions to show.
    pub box_faces: bool,
}

impl ClosedForms {
    pub(crate) fn of(settings: EpaSettings, box_faces: bool) -> ClosedForms {
        ClosedForms {
            boxes: settings.closed_forms,
            box_faces: settings.closed_forms && box_faces,
        }
    }
}

/// The penetration (or distance) of A and B when a closed form answers it: the outcome
/// and the point pair (A's frame), without a run; `None` when GJK and EPA must decide.
/// Rounded shapes by their cores, the radii then added.
pub(crate) fn closed_form_penetration(
    a: &Shape,
    b: &Shape,
    b_in_a: RelativePose,
    forms: ClosedForms,
) -> Option<(Outcome, (DVec3, DVec3))> {
    // Shapes that are their own cores go straight in: a core is a copy-on-write shape,
    // and moving one copies a whole shape's bytes.
    if a.is_own_core() && b.is_own_core() {
        return closed_form_of_cores((a, b), b_in_a, (0.0, 0.0), forms);
    }
    let (core_a, radius_a) = a.rounded_core();
    let (core_b, radius_b) = b.rounded_core();
    closed_form_of_cores((&core_a, &core_b), b_in_a, (radius_a, radius_b), forms)
}

/// [`closed_form_penetration`] on the cores, with their radii.
fn closed_form_of_cores(
    (core_a, core_b): (&Shape, &Shape),
    b_in_a: RelativePose,
    (radius_a, radius_b): (f64, f64),
    forms: ClosedForms,
) -> Option<(Outcome, (DVec3, DVec3))> {
    if let Some(contact) = closed_form::point_core_contact(core_a, core_b, b_in_a) {
        return Some(cores_in_contact(contact, radius_a, radius_b));
    }
    if forms.boxes {
        match boxes::box_core_contact(core_a, core_b, b_in_a) {
            Some(BoxAnswer::Contact(contact)) => {
                return Some(cores_in_contact(contact, radius_a, radius_b));
            }
            Some(BoxAnswer::Apart {
                distance,
                lower_bound,
                on_a,
                on_b,
            }) if lower_bound > radius_a + radius_b => {
                return Some(separated_cores(
                    (distance, lower_bound),
                    (on_a, on_b),
                    radius_a,
                    radius_b,
                ));
            }
            _ => {}
        }
    }
    if forms.box_faces {
        let contact = boxes::face_over_deepest_point(core_a, core_b, b_in_a)?;
        return Some(cores_in_contact(contact, radius_a, radius_b));
    }
    None
}

/// The answer for two cores whose contact is known exactly, their radii added.
fn cores_in_contact(
    c: closed_form::CoreContact,
    radius_a: f64,
    radius_b: f64,
) -> (Outcome, (DVec3, DVec3)) {
    let signed = c.signed_distance - (radius_a + radius_b);
    let outcome = if signed > 0.0 {
        Outcome::Separated {
            distance: signed,
            lower_bound: signed,
        }
    } else if signed == 0.0 {
        Outcome::Touching { normal: c.normal }
    } else {
        Outcome::Penetrating {
            depth: -signed,
            normal: c.normal,
        }
    };
    let witnesses = (c.on_a + c.normal * radius_a, c.on_b - c.normal * radius_b);
    (outcome, witnesses)
}

/// The answer for two cores apart by `distance`, proved at least `lower_bound`, their
/// nearest points `on`, when the radii leave a gap.
fn separated_cores(
    (distance, lower_bound): (f64, f64),
    (on_a, on_b): (DVec3, DVec3),
    radius_a: f64,
    radius_b: f64,
) -> (Outcome, (DVec3, DVec3)) {
    let radius = radius_a + radius_b;
    let outcome = Outcome::Separated {
        distance: distance - radius,
        lower_bound: lower_bound - radius,
    };
    let normal = (on_b - on_a) / distance;
    let witnesses = (on_a + normal * radius_a, on_b - normal * radius_b);
    (outcome, witnesses)
}

impl EpaRun {
    /// Turns an answer about the cores into one about the cores ⊕ balls of the radii.
    fn add_radii(&mut self, radius_a: f64, radius_b: f64) {
        let radius = radius_a + radius_b;
        let direction = match &self.outcome {
            Outcome::Separated { .. } | Outcome::Stalled { .. } | Outcome::Contact { .. } => self
                .witness_a
                .zip(self.witness_b)
                .map(|(a, b)| (b - a).normalize_or_zero()),
            other => other.normal(),
        };
        let Some(normal) = direction.filter(|n| *n != DVec3::ZERO) else {
            if let Outcome::IterationCap {
                lower_bound,
                upper_bound,
            } = &mut self.outcome
            {
                *lower_bound += radius;
                *upper_bound += radius;
            }
            return;
        };
        self.outcome = match self.outcome.clone() {
            Outcome::Separated {
                distance,
                lower_bound,
            } if lower_bound > radius => Outcome::Separated {
                distance: distance - radius,
                lower_bound: lower_bound - radius,
            },
            // The cores' interval holds the radius: the shapes touch, overlap a hair or
            // are a hair apart.
            Outcome::Separated { distance, .. } if distance >= radius => Outcome::Contact {
                distance: distance - radius,
            },
            // The cores are at most `distance` apart: the radii overlap by the rest.
            Outcome::Contact { distance } if distance < radius => Outcome::Penetrating {
                depth: radius - distance,
                normal,
            },
            Outcome::Contact { distance } => Outcome::Contact {
                distance: distance - radius,
            },
            Outcome::Stalled {
                distance,
                lower_bound,
            } if lower_bound > radius => Outcome::Stalled {
                distance: distance - radius,
                lower_bound: lower_bound - radius,
            },
            Outcome::Stalled {
                distance,
                lower_bound,
            } => Outcome::Degenerate {
                reason: format!(
                    "round-off left the cores' distance in {:e}, which does not decide \
                     against the rounding radius {radius:e}",
                    Outward(lower_bound, distance)
                ),
            },
            Outcome::Separated { distance, .. } => Outcome::Penetrating {
                depth: radius - distance,
                normal,
            },
            Outcome::Penetrating { depth, normal } => Outcome::Penetrating {
                depth: depth + radius,
                normal,
            },
            Outcome::Touching { normal } => Outcome::Penetrating {
                depth: radius,
                normal,
            },
            other => other,
        };
        // Each core's point moved out to its rounded surface, toward the other shape.
        self.witness_a = self.witness_a.map(|a| a + normal * radius_a);
        self.witness_b = self.witness_b.map(|b| b - normal * radius_b);
    }
}

/// [`penetration`] without the rounding: GJK on A and B, then EPA.
pub fn penetration_of_cores(
    a: &Shape,
    b: &Shape,
    b_in_a: RelativePose,
    gjk_settings: SolverSettings,
    settings: EpaSettings,
    trace: Option<&mut EpaTrace>,
) -> EpaRun {
    let summary = run_gjk(
        MinkowskiDifference::new(a, b, b_in_a),
        DirectionRule::Vanilla,
        gjk_settings,
        &[],
    );
    let finished = |outcome: Outcome, summary: RunSummary| {
        let witnesses = summary.witness_a.zip(summary.witness_b);
        let extras = EpaExtras {
            gjk_stage: Some(summary),
        };
        EpaRun::new(outcome, 0, SupportStats::default(), witnesses, extras)
    };
    match summary.outcome {
        // GJK's certified answer stands.
        Outcome::Separated { .. } => finished(summary.outcome.clone(), summary),
        // Round-off ended GJK's run, but its separating plane proves the shapes apart:
        // the distance lies in GJK's interval (EPA's table has no `stalled`).
        Outcome::Stalled {
            distance,
            lower_bound,
        } => finished(
            Outcome::Separated {
                distance,
                lower_bound,
            },
            summary,
        ),
        // An enclosure, or the origin within GJK's tolerance of A ⊖ B: EPA decides
        // (a depth, touching proved, or apart after all).
        Outcome::Intersecting | Outcome::Contact { .. } => {
            let simplex = summary.simplex;
            let md = MinkowskiDifference::new(a, b, b_in_a);
            Epa::new(md, settings, summary, trace).run(&simplex)
        }
        ref other => {
            let reason = format!("GJK could not decide whether the shapes overlap ({other})");
            finished(Outcome::Degenerate { reason }, summary)
        }
    }
}

/// The hull's horizon was not one loop: exact predicates should never allow it.
fn horizon_broken() -> Outcome {
    Outcome::Degenerate {
        reason: "the support's horizon is not one loop".into(),
    }
}

/// A − B spans less than three dimensions around the origin.
struct Flat {
    normal: DVec3,
}

/// A face's plane, from the shapes' points: unit outward normal and signed distance of
/// the origin below it (positive when the origin is on the inner side).
#[derive(Clone, Copy, Debug)]
struct Plane {
    normal: DVec3,
    distance: f64,
}

struct Epa<'s, 'r> {
    md: MinkowskiDifference<'s>,
    settings: EpaSettings,
    points: Vec<CsoPoint>,
    /// `points[i].w`, contiguous for the exact predicates.
    w: Vec<DVec3>,
    hull: IncrementalHull,
    planes: Vec<Plane>,
    /// What the last expansion changed (buffers reused from one expansion to the next).
    expansion: Expansion,
    /// The caller's buffer, when the run is traced.
    trace: Option<&'r mut EpaTrace>,
    /// GJK's run that EPA continues (handed on to the result).
    gjk: RunSummary,
}

/// One step's measurements, for its record.
struct Step {
    k: usize,
    event: EpaEvent,
    nearest: usize,
    plane: Plane,
    support: DVec3,
    upper: f64,
    gain: f64,
}

/// EPA's growing buffers, kept per thread between queries: a contact query on two
/// small hulls spent a tenth of its time allocating and freeing them.
#[derive(Default)]
struct EpaBuffers {
    points: Vec<CsoPoint>,
    w: Vec<DVec3>,
    hull: IncrementalHull,
    planes: Vec<Plane>,
    expansion: Expansion,
}

thread_local! {
    static EPA_BUFFERS: Cell<EpaBuffers> = Cell::default();
}

impl<'s, 'r> Epa<'s, 'r> {
    fn new(
        md: MinkowskiDifference<'s>,
        settings: EpaSettings,
        gjk: RunSummary,
        trace: Option<&'r mut EpaTrace>,
    ) -> Self {
        let trace = trace.map(|t| {
            *t = EpaTrace::default();
            t
        });
        // Another run on this thread (none today) would find the buffers taken and
        // start empty ones: the same answer.
        let EpaBuffers {
            mut points,
            mut w,
            hull,
            mut planes,
            mut expansion,
        } = EPA_BUFFERS.try_with(Cell::take).unwrap_or_default();
        // Room for a typical run (a few dozen expansions) without regrowing.
        points.clear();
        points.reserve(32);
        w.clear();
        w.reserve(32);
        planes.clear();
        planes.reserve(64);
        for buffer in [&mut expansion.removed, &mut expansion.added] {
            buffer.clear();
            buffer.reserve(16);
        }
        expansion.horizon.clear();
        expansion.horizon.reserve(16);
        Self {
            md,
            settings,
            gjk,
            points,
            w,
            hull,
            planes,
            expansion,
            trace,
        }
    }

    /// Hands the buffers back for the thread's next run (the points go to the trace
    /// when there is one).
    fn return_buffers(&mut self) {
        let mut points = std::mem::take(&mut self.points);
        if let Some(trace) = self.trace.as_deref_mut() {
            trace.points = points;
            points = Vec::new();
        }
        let buffers = EpaBuffers {
            points,
            w: std::mem::take(&mut self.w),
            hull: std::mem::take(&mut self.hull),
            planes: std::mem::take(&mut self.planes),
            expansion: std::mem::take(&mut self.expansion),
        };
        // During the thread's teardown there is nothing to keep them for.
        let _ = EPA_BUFFERS.try_with(|kept| kept.set(buffers));
    }

    fn push_point(&mut self, p: CsoPoint) -> usize {
        self.points.push(p);
        self.w.push(p.w);
        self.points.len() - 1
    }

    fn finish(
        mut self,
        outcome: Outcome,
        iterations: usize,
        witness: Option<(DVec3, DVec3)>,
    ) -> EpaRun {
        self.return_buffers();
        let extras = EpaExtras {
            gjk_stage: Some(self.gjk),
        };
        EpaRun::new(outcome, iterations, self.md.stats(), witness, extras)
    }

    fn run(mut self, simplex: &Simplex) -> EpaRun {
        let seed = match self.initial_tetrahedron(simplex) {
            Ok(seed) => seed,
            // A flat A − B has no interior: depth 0 wherever it holds the origin.
            Err(Flat { normal }) => {
                let witness = self.points.first().map(|p| (p.a, p.b));
                let outcome = self.flat_answer(normal);
                return self.finish(outcome, 0, witness);
            }
        };
        self.hull.reset_to_tetrahedron(&self.w, seed);
        for f in 0..4 {
            let plane = self.plane(f);
            self.planes.push(plane);
        }
        if let Some(outcome) = self.enclose_origin() {
            return self.finish(outcome, 0, None);
        }
        let mut k = 0;
        // The smallest support-plane height so far: every one bounds the depth above.
        let mut best_upper = f64::INFINITY;
        loop {
            let Some(nearest) = self.nearest_face() else {
                let reason = "the polytope lost its faces".to_string();
                return self.finish(Outcome::Degenerate { reason }, k, None);
            };
            let plane = self.planes[nearest];
            if !(plane.distance.is_finite() && plane.normal.is_finite()) {
                let reason = "a face normal is not finite".to_string();
                return self.finish(Outcome::Degenerate { reason }, k, None);
            }
            let s = self.md.support(plane.normal);
            let upper = plane.normal.dot(s.w);
            let gain = upper - plane.distance;
            // The depth lies in [face distance, support along its normal]: certified
            // only when those meet. A support that cannot pass the face while they do
            // not meet is a normal the round-off has turned: no answer. (Whether it
            // passes is asked only then: at convergence the support is often a vertex
            // of the face, whose exact height is the predicate's slowest case.)
            let converged = gain <= self.slack(s);
            let beyond =
                || !self.w.contains(&s.w) && self.hull.faces[nearest].height(&self.w, s.w) > 0.0;
            if !converged && !beyond() {
                let reason = format!(
                    "the support cannot pass the nearest face, yet its plane and the support \
                     disagree by {:.3e} (the depth lies in {:.9e})",
                    Above(gain),
                    Outward(plane.distance.max(0.0), upper)
                );
                return self.finish(Outcome::Degenerate { reason }, k, None);
            }
            best_upper = best_upper.min(upper);
            let capped = !converged && k >= self.settings.max_iterations;
            // At the cap, a bracket within `acceptable` is still an answer (curved
            // shapes: the polytope closes in on a rim slowly).
            let acceptable = capped
                && best_upper - plane.distance <= self.settings.acceptable * best_upper.max(1.0);
            let capped = capped && !acceptable;
            let event = if acceptable {
                EpaEvent::Accepted
            } else if converged {
                EpaEvent::Converged
            } else if capped {
                EpaEvent::IterationCap
            } else if k == 0 {
                EpaEvent::Start
            } else {
                EpaEvent::Expanded
            };
            let step = Step {
                k,
                event,
                nearest,
                plane,
                support: s.w,
                // At the cap, the bracket's top is the best support plane seen.
                upper: if acceptable || capped {
                    best_upper
                } else {
                    upper
                },
                gain,
            };
            let converged = converged || acceptable;
            if converged || capped {
                let faces = self.record_faces();
                self.record(&step, faces, false);
            }
            if converged {
                // The origin is enclosed: depth ≥ 0, and ≤ `upper`, within the tolerance
                // of the face's distance; a face through the origin means depth 0 only
                // because the support along its normal is that close to it.
                let depth = plane.distance.max(0.0);
                let witness = self.witness_on_hull(nearest, depth * plane.normal);
                let outcome = if depth == 0.0 {
                    Outcome::Touching {
                        normal: plane.normal,
                    }
                } else {
                    Outcome::Penetrating {
                        depth,
                        normal: plane.normal,
                    }
                };
                return self.finish(outcome, k, Some(witness));
            }
            if capped {
                let outcome = Outcome::IterationCap {
                    lower_bound: plane.distance,
                    upper_bound: best_upper,
                };
                return self.finish(outcome, k, None);
            }
            let before = self.record_faces();
            if !self.expand(nearest, s) {
                return self.finish(horizon_broken(), k, None);
            }
            self.record(&step, before, true);
            k += 1;
        }
    }

    /// Adds support point `s`, seen from face `face`, with the planes of the new faces
    /// (what changed is in `self.expansion`). False when the horizon is not one loop
    /// (the hull broke: degenerate).
    fn expand(&mut self, face: usize, s: CsoPoint) -> bool {
        let apex = self.push_point(s);
        if !self
            .hull
            .add_point_into(&self.w, face, apex, &mut self.expansion)
        {
            return false;
        }
        for i in 0..self.expansion.added.len() {
            let p = self.plane(self.expansion.added[i]);
            self.planes.push(p);
        }
        true
    }

    /// Records `step` over the polytope's faces before it (and what it changed, when it
    /// expanded).
    fn record(&mut self, step: &Step, faces: Vec<[usize; 3]>, expanded: bool) {
        let Some(trace) = self.trace.as_deref_mut() else {
            return;
        };
        let expansion = expanded.then_some(&self.expansion);
        // An expansion has just added its support point: the polytope it drew had one less.
        let vertex_count = self.points.len() - usize::from(expansion.is_some());
        trace.records.push(EpaRecord {
            k: step.k,
            event: step.event,
            vertex_count,
            faces,
            nearest: self.hull.faces[step.nearest].v,
            nearest_distance: step.plane.distance,
            normal: step.plane.normal,
            support: step.support,
            support_distance: step.upper,
            gain: step.gain,
            horizon: expansion.map(|e| e.horizon.clone()).unwrap_or_default(),
            faces_removed: expansion.map_or(0, |e| e.removed.len()),
            faces_added: expansion.map_or(0, |e| e.added.len()),
            support_calls: self.md.stats().calls,
        });
    }

    fn record_faces(&self) -> Vec<[usize; 3]> {
        if self.trace.is_none() {
            return Vec::new();
        }
        self.hull.alive().map(|(_, f)| f.v).collect()
    }

    /// The alive face nearest the origin (all distances are ≥ 0 once it is enclosed).
    fn nearest_face(&self) -> Option<usize> {
        self.hull.alive().map(|(f, _)| f).min_by(|a, b| {
            self.planes[*a]
                .distance
                .total_cmp(&self.planes[*b].distance)
        })
    }

    /// GJK's simplex grown to four points that span a volume: supports along directions
    /// that leave the current point, line or plane. `Flat` when none does: A − B lies in
    /// a plane (or line, or point), with a normal of that flat set.
    fn initial_tetrahedron(&mut self, simplex: &Simplex) -> Result<[usize; 4], Flat> {
        let mut chosen: SmallVec<[usize; 4]> = SmallVec::new();
        for v in simplex.vertices() {
            if self.extends(&chosen, v.point.w) {
                let i = self.push_point(v.point);
                chosen.push(i);
            }
        }
        while chosen.len() < 4 {
            let directions = self.search_directions(&chosen);
            let mut found = false;
            for d in directions {
                let s = self.md.support(d);
                if self.extends(&chosen, s.w) {
                    let i = self.push_point(s);
                    chosen.push(i);
                    found = true;
                    break;
                }
            }
            if !found {
                let normal = match self.search_directions(&chosen).first() {
                    Some(d) if chosen.len() >= 2 => *d,
                    _ => DVec3::X,
                };
                return Err(Flat { normal });
            }
        }
        Ok([chosen[0], chosen[1], chosen[2], chosen[3]])
    }

    /// Whether `p` raises the affine dimension of the chosen points (exact tests).
    fn extends(&self, chosen: &[usize], p: DVec3) -> bool {
        let w = |i: usize| self.w[chosen[i]];
        match chosen.len() {
            0 => true,
            1 => p != w(0),
            2 => !collinear(w(0), w(1), p),
            3 => height(w(0), w(1), w(2), p) != 0.0,
            _ => false,
        }
    }

    fn search_directions(&self, chosen: &[usize]) -> SmallVec<[DVec3; 8]> {
        let w = |i: usize| self.w[chosen[i]];
        match chosen.len() {
            0 => smallvec![DVec3::X],
            1 => smallvec![
                DVec3::X,
                -DVec3::X,
                DVec3::Y,
                -DVec3::Y,
                DVec3::Z,
                -DVec3::Z,
            ],
            2 => {
                let u = w(1) - w(0);
                let least = u.abs().min_position();
                let v = u.cross(DVec3::AXES[least]).normalize_or_zero();
                let t = u.cross(v).normalize_or_zero();
                smallvec![v, -v, t, -t, v + t, -v - t, v - t, t - v]
            }
            _ => {
                let n = (w(1) - w(0)).cross(w(2) - w(0)).normalize_or_zero();
                // The side the origin is on first: that tetrahedron can contain it.
                if height(w(0), w(1), w(2), DVec3::ZERO) >= 0.0 {
                    smallvec![n, -n]
                } else {
                    smallvec![-n, n]
                }
            }
        }
    }

    /// How far a support may lie from a plane and still count as on it: EPA's
    /// tolerance, relative to the support's size (one rule for the depth and for
    /// `touching`).
    fn slack(&self, s: CsoPoint) -> f64 {
        self.settings.tolerance * (1.0 + s.w.length())
    }

    /// The answer when `A ⊖ B` is flat (no support leaves the plane of `normal`): it has
    /// no interior, so where it holds the origin the depth is 0. Proved by the supports
    /// on both sides: the origin lies within the tolerance of the plane; a plane below
    /// it on either side separates the shapes instead.
    fn flat_answer(&mut self, normal: DVec3) -> Outcome {
        let (up, down) = (self.md.support(normal), self.md.support(-normal));
        let (h_up, h_down) = (normal.dot(up.w), -normal.dot(down.w));
        let gap = (-h_up).max(-h_down);
        // A plane below the origin by more than round-off separates the shapes.
        if gap > self.md.round_off() {
            return match self.gjk.outcome {
                Outcome::Contact { distance } => Outcome::converged(distance, gap),
                _ => self.disagreement(gap),
            };
        }
        match self.gjk.outcome {
            Outcome::Intersecting => Outcome::Touching { normal },
            ref other => other.clone(),
        }
    }

    /// GJK enclosed the origin, yet a support plane of EPA's leaves it `gap` outside.
    fn disagreement(&self, gap: f64) -> Outcome {
        Outcome::Degenerate {
            reason: format!(
                "GJK's simplex encloses the origin, but a support plane passes {gap:.3e} \
                 beyond it (round-off in the supports)"
            ),
        }
    }

    /// Grows the tetrahedron until it contains the origin: while a face sees the origin,
    /// add the support along its normal. If the support cannot pass that face, the origin
    /// is on (or, by round-off, just beyond) the boundary of `A ⊖ B`: touching, proved by
    /// the support along the face's normal lying within the tolerance of the origin (a
    /// support plane clearly below the origin separates the shapes instead).
    fn enclose_origin(&mut self) -> Option<Outcome> {
        for _ in 0..self.settings.max_iterations {
            let seeing = self
                .hull
                .alive()
                .map(|(f, _)| f)
                .find(|&f| self.hull.faces[f].height(&self.w, DVec3::ZERO) > 0.0)?;
            let normal = self.planes[seeing].normal;
            let s = self.md.support(normal);
            if self.hull.faces[seeing].height(&self.w, s.w) <= 0.0 || self.w.contains(&s.w) {
                return Some(self.boundary_answer(normal, s));
            }
            if !self.expand(seeing, s) {
                return Some(horizon_broken());
            }
        }
        Some(match self.gjk.outcome {
            // GJK found the origin within its tolerance of A ⊖ B, and EPA cannot enclose
            // it either: GJK's answer stands.
            Outcome::Contact { .. } => self.gjk.outcome.clone(),
            _ => Outcome::Degenerate {
                reason: "the origin could not be enclosed within the iteration cap".into(),
            },
        })
    }

    /// The origin outside a face whose normal's support `s` cannot pass it: touching
    /// when the support lies within the tolerance of the origin along `normal`,
    /// separated (or a disagreement with GJK's enclosure) when it lies clearly below.
    fn boundary_answer(&self, normal: DVec3, s: CsoPoint) -> Outcome {
        let h = normal.dot(s.w);
        // A support below the origin by more than round-off is a separating plane, a
        // proof of a gap, however small: never called touching.
        let apart = -h > self.md.round_off();
        if !apart && h.abs() <= self.slack(s) && normal != DVec3::ZERO {
            return Outcome::Touching { normal };
        }
        match self.gjk.outcome {
            Outcome::Contact { distance } if h < 0.0 => Outcome::converged(distance, -h),
            _ if h < 0.0 => self.disagreement(-h),
            _ => Outcome::Degenerate {
                reason: format!(
                    "the support along a face that sees the origin cannot pass it, yet lies \
                     {h:.3e} beyond the origin (a normal turned by round-off)"
                ),
            },
        }
    }

    /// The plane of face `f`, its normal from the face's two sides that meet at its
    /// largest angle, each side a difference of A's points minus one of B's points.
    fn plane(&self, f: usize) -> Plane {
        let v = self.hull.faces[f].v;
        let [p0, p1, p2] = v.map(|i| &self.points[i]);
        let side = |p: &CsoPoint, q: &CsoPoint| (p.a - q.a) - (p.b - q.b);
        // The sides from each corner: (to the next, to the one after).
        let (e01, e12, e20) = (side(p1, p0), side(p2, p1), side(p0, p2));
        // Base at the corner opposite the longest side: (next − base) × (after − base).
        let (l0, l1, l2) = (
            e12.length_squared(),
            e20.length_squared(),
            e01.length_squared(),
        );
        let (n, base) = if l0 >= l1 && l0 >= l2 {
            (e01.cross(-e20), p0.w)
        } else if l1 >= l2 {
            (e12.cross(-e01), p1.w)
        } else {
            (e20.cross(-e12), p2.w)
        };
        let normal = n.normalize_or_zero();
        // A face of no area (its corners on one line) has no plane: never the nearest.
        let distance = if normal == DVec3::ZERO {
            f64::INFINITY
        } else {
            normal.dot(base)
        };
        Plane { normal, distance }
    }

    /// The barycentric weights of `point` on face `f` (not clamped; a third each on a
    /// face of no area).
    fn face_weights(&self, f: usize, point: DVec3) -> [f64; 3] {
        let v = self.hull.faces[f].v;
        let p = |i: usize| self.points[v[i]];
        let side = |i: usize, j: usize| (p(i).a - p(j).a) - (p(i).b - p(j).b);
        let (e1, e2) = (side(1, 0), side(2, 0));
        let n = e1.cross(e2);
        let n2 = n.length_squared();
        if n2 > 0.0 {
            let r = point - p(0).w;
            let mu1 = r.cross(e2).dot(n) / n2;
            let mu2 = e1.cross(r).dot(n) / n2;
            [1.0 - mu1 - mu2, mu1, mu2]
        } else {
            [1.0 / 3.0; 3]
        }
    }

    /// The witness pair of `point` (the origin's projection on the nearest face's
    /// plane): on the nearest face, or, when the point falls outside it, on the face
    /// whose plane holds the point and whose triangle does. A face of A ⊖ B is often
    /// split into coplanar triangles, and the nearest by a rounding hair need not be the
    /// one under the point; clamping its weights would give a pair whose difference is
    /// not the depth along the normal.
    fn witness_on_hull(&self, nearest: usize, point: DVec3) -> (DVec3, DVec3) {
        let least = |f: usize| {
            let w = self.face_weights(f, point);
            w[0].min(w[1]).min(w[2])
        };
        let mut best = (nearest, least(nearest));
        if best.1 < 0.0 {
            let tolerance = 1e-9 * (1.0 + point.length());
            for (f, _) in self.hull.alive() {
                let plane = self.planes[f];
                let off = (plane.normal.dot(point) - plane.distance).abs();
                if f != nearest && off <= tolerance {
                    let w = least(f);
                    if w > best.1 {
                        best = (f, w);
                    }
                }
            }
        }
        self.witness(best.0, point)
    }

    /// The points of A and B whose difference is `point` on face `f` (its weights
    /// clamped to the face).
    fn witness(&self, f: usize, point: DVec3) -> (DVec3, DVec3) {
        let v = self.hull.faces[f].v;
        let p = |i: usize| self.points[v[i]];
        let mut weights = self.face_weights(f, point);
        for w in &mut weights {
            *w = w.max(0.0);
        }
        let sum: f64 = weights.iter().sum();
        let weights = weights.map(|w| if sum > 0.0 { w / sum } else { 1.0 / 3.0 });
        (0..3).fold((DVec3::ZERO, DVec3::ZERO), |(a, b), i| {
            (a + p(i).a * weights[i], b + p(i).b * weights[i])
        })
    }
}

#[cfg(test)]
mod witness_tests {
    use super::*;
    use crate::shape::Polytope;
    use glam::DMat3;

    /// EPA's point pair differs by exactly the depth along the normal. Random polytopes'
    /// A ⊖ B has faces split into coplanar triangles; before the witness looked past
    /// the nearest triangle, 163 of 1476 overlaps here had pairs up to 0.72 off.
    #[test]
    fn the_witness_pair_differs_by_the_depth_along_the_normal() {
        let mut rng = crate::rng::SplitMix64::new(4);
        let mut overlaps = 0;
        for _ in 0..2000 {
            let mut cloud = |n: usize| {
                let points: Vec<DVec3> = (0..n).map(|_| rng.vector(1.0)).collect();
                Shape::Polytope(Polytope::from_points(&points).unwrap())
            };
            let (a, b) = (cloud(12), cloud(9));
            let t = rng.vector(1.2);
            let turn = DMat3::from_rotation_x(rng.range(-3.0, 3.0))
                * DMat3::from_rotation_z(rng.range(-3.0, 3.0));
            let pose = RelativePose::from_matrix(turn, t);
            let run = penetration(
                &a,
                &b,
                pose,
                gjk_settings_for_epa(),
                EpaSettings::default(),
                None,
            );
            if let Outcome::Penetrating { depth, normal } = run.summary.outcome {
                overlaps += 1;
                let (wa, wb) = run.witnesses().expect("a depth has its pair");
                let off = ((wa - wb) - normal * depth).length();
                assert!(off <= 1e-9, "pair {off:.3e} off the depth along the normal");
            }
        }
        assert!(overlaps > 1000, "{overlaps}");
    }
}
