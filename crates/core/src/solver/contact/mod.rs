//! Contact manifolds: the points an engine hands its contact solver for two shapes in
//! contact or within a margin, built from the certified normal (EPA's on overlap, GJK's
//! nearest points apart), the two shapes' support sets along it (the reference and
//! incident features), the incident feature clipped against the reference face, each
//! point's depth, and the reduction to a few points, every point then certified against
//! both shapes and the certified depth.
//!
//! Three rules, as three engines build them: Jolt's clipping (`jolt`), Coal's contact
//! patch (`coal_patch`), and parry's `contact_manifolds` (`parry_rule`). They share the
//! certificate, so a user sees which engine's points leave the contact region.

pub mod clip;
pub mod coal_patch;
pub mod jitter;
mod jolt;
pub mod kind;
mod narrate;
mod parry_rule;
pub mod record;
pub mod support_set;

use glam::DVec3;
use serde::Serialize;

use crate::minkowski::MinkowskiDifference;
use crate::minkowski::SupportStats;
use crate::nearest::{nearest_on_segment, nearest_on_triangle};
use crate::pose::RelativePose;
use crate::printed_bound::Above;
use crate::shape::{PointShape, Shape, SupportMap};
use crate::solver::epa::{
    clear_box_overlap, closed_form_penetration, deepest_pair, gjk_settings_for_epa,
    penetration_by_runs, ClosedForms,
};
use crate::solver::family::{Answer, Family, FamilyRun, PairQuery};
use crate::solver::gjk::{run_gjk, DirectionRule};
use crate::solver::outcome::Outcome;
pub use crate::solver::settings::ContactSettings;
use crate::solver::settings::{Criterion, CriterionKind, EpaSettings, SolverSettings};
use clip::ClipStage;
pub use jolt::clipping_manifold;
use record::{ContactEvent, ContactRecord};
use support_set::SupportSet;

/// What a manifold keeps of its construction: every clipping stage (the steps a run
/// records, draws and narrates) or only their result (a query answered for its points:
/// the jitter sweep, batches, benchmarks). The points are the same either way.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Detail {
    Steps,
    Result,
}

/// Which shape's feature is the reference face (the one the other is clipped against).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum Reference {
    A,
    B,
    /// No face of three or more corners: the normal's own point pair.
    None,
}

/// One contact point: on A, on B (A's frame), and the depth (`n · (on_a − on_b)`:
/// positive when they overlap, negative when the point pair is apart).
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct ContactPoint {
    pub on_a: DVec3,
    pub on_b: DVec3,
    pub depth: f64,
}

/// How one point's certificate came out: its distances to A and to B (upper bounds: in
/// closed form, to the rule's own face, or by GJK from the point), how far below each shape's support plane along the certified
/// normal it lies, how far its two points are apart across that normal (the pair must
/// stand over one spot of the contact region), and how much deeper than the certified
/// depth it claims to be.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct PointCheck {
    pub off_a: f64,
    pub off_b: f64,
    pub below_plane_a: f64,
    pub below_plane_b: f64,
    pub lateral: f64,
    pub deeper_than_certified: f64,
    pub certified: bool,
}

/// A contact manifold and how it was built, step by step.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Manifold {
    /// The rule that built it.
    pub rule: ContactRule,
    /// The normal the rule built with (A's frame, from A towards B): the certified one
    /// for our rules and Coal's, parry's own for parry's.
    pub normal: DVec3,
    /// The certified normal and the pair's outcome it came from.
    pub certified_normal: DVec3,
    /// The normal the points were checked against: the certified one, or the rule's own
    /// where A and B overlap along it by no more than the certified depth (a tie for the
    /// least overlap, which an engine may break the other way).
    pub checked_along: DVec3,
    pub outcome: Outcome,
    /// The support sets of A along the normal and of B against it (A's frame).
    pub feature_a: SupportSet,
    pub feature_b: SupportSet,
    pub reference: Reference,
    /// The side planes of the reference face and the incident feature after each.
    pub clipping: Vec<ClipStage>,
    /// Every clipped point with its depth, before the margin and the reduction.
    pub candidates: Vec<ContactPoint>,
    /// Indices into `candidates`: kept in the manifold, beyond the margin (Jolt drops
    /// them; parry hands them out, and they are also kept), dropped by the reduction.
    pub kept: Vec<usize>,
    pub beyond_margin: Vec<usize>,
    pub reduced_away: Vec<usize>,
    /// The manifold: the kept candidates, or the normal's own point pair.
    pub points: Vec<ContactPoint>,
    pub checks: Vec<PointCheck>,
    /// `None` when every point is certified; else why not.
    pub uncertified: Option<String>,
    /// What the rule did that a reader should know (an engine's branch taken, a shape it
    /// has no support set for).
    pub notes: Vec<String>,
}

/// What the contact family reports beyond the summary: the manifold, when one was
/// built.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ContactExtras {
    pub manifold: Option<Manifold>,
}

/// The rule a contact method builds its manifold by.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ContactRule {
    /// Jolt's clipping of the incident face against the reference face.
    Clipping,
    /// Coal 3.0's contact patch (`ContactPatchSolver::computePatch`, the
    /// `ContactPatchRequest` defaults).
    CoalPatch,
    /// parry's `contact_manifolds` (its default query dispatcher).
    Parry,
}

impl ContactRule {
    /// Every rule, in the order the catalog lists them.
    pub const ALL: [ContactRule; 3] = [
        ContactRule::Clipping,
        ContactRule::CoalPatch,
        ContactRule::Parry,
    ];

    /// Its method's name in the catalog.
    pub fn name(&self) -> &'static str {
        match self {
            ContactRule::Clipping => "contact",
            ContactRule::CoalPatch => "contact_coal",
            ContactRule::Parry => "contact_parry",
        }
    }

    /// The rule of a catalog name.
    pub fn from_name(name: &str) -> Option<ContactRule> {
        ContactRule::ALL.into_iter().find(|r| r.name() == name)
    }

    /// The engine and source the rule follows, as narration names it.
    pub fn source(&self) -> &'static str {
        match self {
            ContactRule::Clipping => {
                "Jolt's ManifoldBetweenTwoFaces and PruneContactPoints \
                 (Physics/Collision/ManifoldBetweenTwoFaces.cpp)"
            }
            ContactRule::CoalPatch => {
                "Coal 3.0's ContactPatchSolver::computePatch \
                 (include/coal/contact_patch/contact_patch_solver.hxx)"
            }
            ContactRule::Parry => {
                "parry's contact_manifolds (query/contact_manifolds, DefaultQueryDispatcher)"
            }
        }
    }

    /// The manifold of A (at the identity) and B at `b_in_a` by this rule; `Err` with
    /// the outcome when the shapes are farther apart than the margin or no normal was
    /// certified.
    pub fn manifold(
        &self,
        a: &Shape,
        b: &Shape,
        b_in_a: RelativePose,
        epa: EpaSettings,
        contact: ContactSettings,
    ) -> Result<Manifold, Outcome> {
        self.manifold_with(Detail::Steps, a, b, b_in_a, epa, contact)
    }

    /// [`ContactRule::manifold`], keeping its steps or only its result (the same points).
    pub fn manifold_with(
        &self,
        detail: Detail,
        a: &Shape,
        b: &Shape,
        b_in_a: RelativePose,
        epa: EpaSettings,
        contact: ContactSettings,
    ) -> Result<Manifold, Outcome> {
        match self {
            ContactRule::Clipping => {
                jolt::clipping_manifold_with(detail, a, b, b_in_a, epa, contact)
            }
            ContactRule::CoalPatch => coal_patch::coal_patch(a, b, b_in_a, epa, contact),
            ContactRule::Parry => parry_rule::parry_manifold(a, b, b_in_a, epa, contact),
        }
    }
}

impl FamilyRun for ContactRule {
    type Records = Vec<ContactRecord>;
    type Extras = ContactExtras;

    fn family(&self) -> Family {
        kind::FAMILY
    }

    fn run(
        &self,
        q: &PairQuery<'_>,
        records: Option<&mut Vec<ContactRecord>>,
    ) -> Answer<ContactExtras> {
        let (outcome, manifold) =
            match self.manifold(q.a, q.b, q.b_in_a, q.settings.epa, q.settings.contact) {
                Ok(m) => (m.outcome.clone(), Some(m)),
                Err(outcome) => (outcome, None),
            };
        // Without a manifold the one step is the normal's run, which says why (its
        // depth: minus the certified gap apart).
        let steps = manifold.as_ref().map_or_else(
            || {
                let depth = certified_depth(&outcome).unwrap_or(f64::NAN);
                vec![ContactRecord {
                    k: 0,
                    event: ContactEvent::Normal,
                    points: Vec::new(),
                    plane: None,
                    certified_depth: depth,
                    deepest: depth,
                    shallowest: depth,
                }]
            },
            steps_of,
        );
        let witnesses = manifold
            .as_ref()
            .and_then(|m| m.points.first())
            .map(|p| (p.on_a, p.on_b));
        let count = steps.len();
        if let Some(records) = records {
            *records = steps;
        }
        let mut answer = Answer::new(
            outcome,
            count,
            SupportStats::default(),
            witnesses,
            ContactExtras { manifold },
        );
        answer.summary.allow_round_off(q.round_off());
        answer
    }
}

/// The pair's certified normal (A's frame, from A towards B), the depth it certifies
/// (minus the certified gap when apart) and its point pair ([`CertifiedNormal::pair`]).
pub(crate) struct CertifiedNormal {
    pub outcome: Outcome,
    pub normal: DVec3,
    pub depth: f64,
    /// The point pair (on A, on B) when the answer came with one; `None` for two boxes
    /// clearly overlapping, whose pair is found when asked for.
    known_pair: Option<(DVec3, DVec3)>,
}

impl CertifiedNormal {
    /// The normal's point pair, `on_a − on_b = depth · normal` on overlap: the answer's
    /// own, or for two boxes their deepest pair (found now: the clipping rule needs it
    /// only when no clipped point is left). Should that search fail (its last resort is
    /// GJK on the boxes pushed apart; none seen), GJK and EPA's pair, which belongs to
    /// EPA's normal: the points' certificates then judge it against this one.
    pub fn pair(
        &self,
        a: &Shape,
        b: &Shape,
        b_in_a: RelativePose,
        epa: EpaSettings,
    ) -> (DVec3, DVec3) {
        if let Some(pair) = self.known_pair {
            return pair;
        }
        deepest_pair(a, b, b_in_a, self.depth, self.normal)
            .or_else(|| {
                penetration_by_runs(a, b, b_in_a, gjk_settings_for_epa(), epa, None).witnesses()
            })
            .unwrap_or((DVec3::ZERO, DVec3::ZERO))
    }
}

/// EPA's normal on overlap, GJK's nearest points' direction when apart by no more than
/// the margin; `Err` with the outcome otherwise.
pub(crate) fn certified_normal(
    a: &Shape,
    b: &Shape,
    b_in_a: RelativePose,
    epa: EpaSettings,
    contact: ContactSettings,
) -> Result<CertifiedNormal, Outcome> {
    // Two boxes clearly overlapping: the separating axis test's depth and normal, as
    // the closed form below certifies them, the point pair left until asked for.
    if epa.closed_forms {
        if let Some((depth, normal)) = clear_box_overlap(a, b, b_in_a) {
            return Ok(CertifiedNormal {
                outcome: Outcome::Penetrating { depth, normal },
                normal,
                depth,
                known_pair: None,
            });
        }
    }
    // A closed form first (two boxes, a shape resting on a box face: the same
    // certificates, no run built), else GJK and EPA.
    let (outcome, witnesses) =
        match closed_form_penetration(a, b, b_in_a, ClosedForms::of(epa, true)) {
            Some((outcome, witnesses)) => (outcome, Some(witnesses)),
            None => {
                let run = penetration_by_runs(a, b, b_in_a, gjk_settings_for_epa(), epa, None);
                let witnesses = run.witnesses();
                (run.summary.outcome, witnesses)
            }
        };
    let (normal, depth) = match &outcome {
        Outcome::Penetrating { depth, normal } => (*normal, *depth),
        Outcome::Touching { normal } => (*normal, 0.0),
        Outcome::Separated {
            distance,
            lower_bound,
        } if *distance <= contact.margin => {
            let (wa, wb) = witnesses.ok_or_else(|| outcome.clone())?;
            let along = (wb - wa).normalize_or_zero();
            if along == DVec3::ZERO {
                return Err(outcome);
            }
            (along, -lower_bound)
        }
        _ => return Err(outcome),
    };
    Ok(CertifiedNormal {
        outcome,
        normal,
        depth,
        known_pair: Some(witnesses.unwrap_or((DVec3::ZERO, DVec3::ZERO))),
    })
}

/// The contact region a pair's manifold must lie in (A's frame): points on A within
/// `band` below A's support plane along the certified normal (`top_a`), points on B
/// within `band` above B's (`bottom_b`), each point pair over one spot (across the
/// normal within `tolerance`), none deeper than the certified `depth`. What exported
/// engine scripts check an engine's manifold against (or, where the engine's normal
/// ties with ours for the least overlap, the same region along the engine's normal).
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct ContactRegion {
    pub normal: DVec3,
    pub depth: f64,
    pub top_a: f64,
    pub bottom_b: f64,
    pub band: f64,
    pub tolerance: f64,
}

/// The certified contact region of A (at the identity) and B at `b_in_a`; `Err` with
/// the outcome when the shapes are apart by more than the margin.
pub fn certified_region(
    a: &Shape,
    b: &Shape,
    b_in_a: RelativePose,
    epa: EpaSettings,
    contact: ContactSettings,
) -> Result<ContactRegion, Outcome> {
    let certified = certified_normal(a, b, b_in_a, epa, contact)?;
    let size = pair_size(a, b, b_in_a);
    let n = certified.normal;
    let (top_a, bottom_b) = support_heights(a, b, b_in_a, n);
    Ok(ContactRegion {
        normal: n,
        depth: certified.depth,
        top_a,
        bottom_b,
        band: contact.feature_band * size,
        tolerance: contact.tolerance * size.max(f64::MIN_POSITIVE),
    })
}

/// A's support height along `n` and B's lowest height along it (A's frame).
fn support_heights(a: &Shape, b: &Shape, b_in_a: RelativePose, n: DVec3) -> (f64, f64) {
    let top_a = n.dot(a.local_support(n));
    let bottom_b = n.dot(b_in_a.transform_point(b.local_support(b_in_a.inverse_rotate(-n))));
    (top_a, bottom_b)
}

/// The size a pair's tolerances scale with.
pub(crate) fn pair_size(a: &Shape, b: &Shape, b_in_a: RelativePose) -> f64 {
    a.extent() + b.extent() + b_in_a.translation.length()
}

/// The depth an outcome certifies (minus the gap apart); `None` when it bounds none.
pub fn certified_depth(outcome: &Outcome) -> Option<f64> {
    match *outcome {
        Outcome::Penetrating { depth, .. } => Some(depth),
        Outcome::Touching { .. } => Some(0.0),
        Outcome::Separated { lower_bound, .. } | Outcome::Stalled { lower_bound, .. } => {
            Some(-lower_bound)
        }
        _ => None,
    }
}

/// The steps of a manifold's construction, as records.
fn steps_of(m: &Manifold) -> Vec<ContactRecord> {
    let certified = certified_depth(&m.outcome).unwrap_or(0.0);
    let range = |points: &[ContactPoint]| {
        points
            .iter()
            .fold((f64::NEG_INFINITY, f64::INFINITY), |(hi, lo), p| {
                (hi.max(p.depth), lo.min(p.depth))
            })
    };
    let mut steps = Vec::new();
    let mut push = |event, points: Vec<DVec3>, plane, depths: &[ContactPoint]| {
        let (deepest, shallowest) = if depths.is_empty() {
            (certified, certified)
        } else {
            range(depths)
        };
        steps.push(ContactRecord {
            k: steps.len(),
            event,
            points,
            plane,
            certified_depth: certified,
            deepest,
            shallowest,
        });
    };
    let pair: Vec<ContactPoint> = m.points.iter().take(1).copied().collect();
    push(
        ContactEvent::Normal,
        pair.iter().flat_map(|p| [p.on_a, p.on_b]).collect(),
        None,
        &[],
    );
    let reference = match m.reference {
        Reference::B => m.feature_b.corners(),
        _ => m.feature_a.corners(),
    };
    push(ContactEvent::Features, reference, None, &[]);
    for stage in &m.clipping {
        push(
            ContactEvent::Clip,
            stage.after.clone(),
            Some((stage.point, stage.normal)),
            &[],
        );
    }
    if !m.candidates.is_empty() {
        push(
            ContactEvent::Depths,
            m.candidates.iter().map(|p| p.on_b).collect(),
            None,
            &m.candidates,
        );
    }
    if !m.reduced_away.is_empty() {
        push(
            ContactEvent::Reduce,
            m.points.iter().map(|p| p.on_a).collect(),
            None,
            &m.points,
        );
    }
    push(
        ContactEvent::Certify,
        m.points.iter().map(|p| p.on_a).collect(),
        None,
        &m.points,
    );
    steps
}

/// What a run proves its pair's distance is at most (0 on an overlap, ∞ when nothing).
fn upper_bound(outcome: &Outcome) -> f64 {
    match *outcome {
        Outcome::Separated { distance, .. }
        | Outcome::Stalled { distance, .. }
        | Outcome::Contact { distance } => distance,
        Outcome::IterationCap { upper_bound, .. } => upper_bound,
        Outcome::Intersecting | Outcome::Penetrating { .. } | Outcome::Touching { .. } => 0.0,
        _ => f64::INFINITY,
    }
}

/// An upper bound on the distance from `p` to the shape (its own frame) in closed form,
/// for the kinds that have one (box, sphere, capsule, cylinder): the exact distance
/// plus a few rounding errors of the point's size (`size` at least the shape's extent);
/// `None` for the others.
#[inline(always)]
fn closed_form_distance(shape: &Shape, p: DVec3, size: f64) -> Option<f64> {
    let rounding = 8.0 * f64::EPSILON * (p.abs().max_element() + size);
    // Most points lie on the surface or inside: no square root for them.
    let outside = |excess: DVec3| {
        let squared = excess.max(DVec3::ZERO).length_squared();
        if squared > 0.0 {
            squared.sqrt()
        } else {
            squared
        }
    };
    let d = match shape {
        Shape::Cuboid(c) => outside(p.abs() - c.half_extents()),
        Shape::Sphere(s) => (p.length() - s.radius()).max(0.0),
        Shape::Capsule(c) => {
            let on_axis = DVec3::new(0.0, p.y.clamp(-c.half_height(), c.half_height()), 0.0);
            (p.distance(on_axis) - c.radius()).max(0.0)
        }
        Shape::Cylinder(c) => {
            let radial = p.x.hypot(p.z) - c.radius();
            let axial = p.y.abs() - c.half_height();
            radial.max(0.0).hypot(axial.max(0.0))
        }
        _ => return None,
    };
    Some(d + rounding)
}

/// Whether a support set of this kind (from [`support_set::support_set`]) has its
/// corners on the shape, so that their hull lies in it: vertices, a cap's rim samples, a
/// line of a side. (Other kinds give a support point that may be approximate.)
fn corners_on_surface(shape: &Shape) -> bool {
    matches!(
        shape,
        Shape::Polytope(_)
            | Shape::Cuboid(_)
            | Shape::Cylinder(_)
            | Shape::Cone(_)
            | Shape::Capsule(_)
    )
}

/// An upper bound on the distance from `p` to a shape that holds `feature`'s corners
/// (and so their hull): to the nearest point of the point, the segment, or the
/// polygon's fan of triangles, plus the rounding of that arithmetic and of the corners'
/// change of frame (`scale`: the size of the numbers involved).
fn distance_to_feature(feature: &SupportSet, p: DVec3, scale: f64) -> f64 {
    let rounding = 64.0 * f64::EPSILON * (scale + p.abs().max_element());
    let d = match feature {
        SupportSet::Point(q) => p.distance(*q),
        SupportSet::Segment(a, b) => p.distance(nearest_on_segment(p, *a, *b)),
        SupportSet::Polygon(corners) if corners.len() >= 3 => (1..corners.len() - 1)
            .map(|i| {
                p.distance(nearest_on_triangle(
                    p,
                    [corners[0], corners[i], corners[i + 1]],
                ))
            })
            .fold(f64::INFINITY, f64::min),
        SupportSet::Polygon(corners) => corners
            .iter()
            .map(|q| p.distance(*q))
            .fold(f64::INFINITY, f64::min),
    };
    d + rounding
}

/// An upper bound on the distance from a point (`local`: in the shape's own frame;
/// `in_a`: in A's frame, the feature's) to the shape: in closed form, else to the
/// feature when its corners lie on the shape and that shows it within the tolerance,
/// else by GJK. Inlined: the point stays in registers (a copy through memory stalled).
#[inline(always)]
fn distance_to_shape(
    shape: &Shape,
    (local, in_a): (DVec3, DVec3),
    feature: Option<&SupportSet>,
    (size, tolerance): (f64, f64),
) -> f64 {
    if let Some(d) = closed_form_distance(shape, local, size) {
        return d;
    }
    if let Some(feature) = feature.filter(|_| corners_on_surface(shape)) {
        let d = distance_to_feature(feature, in_a, size);
        if d <= tolerance {
            return d;
        }
    }
    distance_by_gjk(shape, local, tolerance)
}

/// An upper bound on the distance from `p` to `shape` (its own frame) by GJK from the
/// point, kept out of line (the closed forms answer the commonest shapes).
#[inline(never)]
fn distance_by_gjk(shape: &Shape, p: DVec3, tolerance: f64) -> f64 {
    // GJK only has to show the point within the tolerance: an absolute stopping test at
    // half of it, no proof of enclosure (a point on the surface has none to give, and
    // trying costs the most).
    let settings = SolverSettings {
        tolerance: 0.5 * tolerance,
        criterion: Criterion::DualityGap,
        kind: CriterionKind::Absolute,
        max_iterations: 200,
        overlap_proof: false,
        ..SolverSettings::default()
    };
    let pose = RelativePose::from_matrix(glam::DMat3::IDENTITY, p);
    let summary = run_gjk(
        MinkowskiDifference::new(shape, &Shape::Point(PointShape), pose),
        DirectionRule::Vanilla,
        settings,
        &[],
    );
    upper_bound(&summary.outcome)
}

/// Whether a manifold's `feature_a` and `feature_b` are [`support_set::support_set`]'s
/// (in A's frame), which a certificate may measure distances to; an engine's own
/// features are not trusted so.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum OwnFeatures {
    Yes,
    No,
}

/// Certifies each point: within the tolerance of both shapes (an upper bound on its
/// distance to each: in closed form for boxes, spheres, capsules and cylinders; else to
/// the manifold's own support sets when they are ours and their corners lie on the
/// shapes; else by GJK from the point), within the feature band of each shape's support
/// plane along the normal (the contact region), and no deeper than the certified depth.
pub(crate) fn certify(
    m: &mut Manifold,
    (a, b): (&Shape, &Shape),
    b_in_a: RelativePose,
    (certified_depth, size): (f64, f64),
    own_features: OwnFeatures,
    contact: ContactSettings,
) {
    let own = own_features == OwnFeatures::Yes;
    let tolerance = contact.tolerance * size.max(f64::MIN_POSITIVE);
    let band = contact.feature_band * size;
    let (n, top_a, bottom_b) =
        match tied_normal(m, (a, b), b_in_a, certified_depth, (tolerance, size)) {
            Some((n, top_a, bottom_b)) => {
                m.notes.push(format!(
                    "this manifold's normal ({:.6}, {:.6}, {:.6}) is not the certified one, but A \
                 and B overlap along it by at most {:.9e}, within the tolerance of the certified \
                 depth: a tie for the least overlap (as when two faces of each box are flush \
                 at once), so its points are checked against the contact region along its \
                 own normal",
                    n.x,
                    n.y,
                    n.z,
                    Above(top_a - bottom_b)
                ));
                m.checked_along = n;
                (n, top_a, bottom_b)
            }
            None => {
                let n = m.certified_normal;
                m.checked_along = n;
                let (top_a, bottom_b) = support_heights(a, b, b_in_a, n);
                (n, top_a, bottom_b)
            }
        };
    let b_inverse = b_in_a.inverse();
    let mut why: Vec<String> = Vec::new();
    let mut checks = Vec::with_capacity(m.points.len());
    for (i, p) in m.points.iter().enumerate() {
        // Each distance from the point in the shape's own frame and in A's (the
        // feature's).
        let off_a = distance_to_shape(
            a,
            (p.on_a, p.on_a),
            own.then_some(&m.feature_a),
            (size, tolerance),
        );
        let off_b = distance_to_shape(
            b,
            (b_inverse.transform_point(p.on_b), p.on_b),
            own.then_some(&m.feature_b),
            (size, tolerance),
        );
        let gap = p.on_a - p.on_b;
        let mut check = PointCheck {
            off_a,
            off_b,
            below_plane_a: top_a - n.dot(p.on_a),
            below_plane_b: n.dot(p.on_b) - bottom_b,
            lateral: (gap - n * n.dot(gap)).length(),
            deeper_than_certified: p.depth - certified_depth,
            certified: false,
        };
        let limits = limits(&check, tolerance, band);
        check.certified = limits.iter().all(|&(value, most)| holds(value, most));
        if !check.certified {
            let failed: Vec<String> = limits
                .iter()
                .zip(LIMIT_TEXT)
                .filter(|((value, most), _)| !holds(*value, *most))
                .map(|((value, _), (before, after))| format!("{before}{value:.3e}{after}"))
                .collect();
            why.push(format!("point {i}: {}", failed.join(", ")));
        }
        checks.push(check);
    }
    m.checks = checks;
    if m.points.is_empty() {
        why.push("the rule gave no point".to_string());
    }
    m.uncertified = (!why.is_empty()).then(|| why.join("; "));
}

/// The manifold's own normal (an engine's) with A's and B's support heights along it,
/// when it is not the certified normal yet is proved as good: A and B overlap along it
/// by no more than the certified depth and the tolerance (and an engine's allowance). The least overlap is the
/// depth, so such a normal reaches it too (a tie, which an engine may break the other
/// way), and its contact region is as certified as the one along ours.
fn tied_normal(
    m: &Manifold,
    (a, b): (&Shape, &Shape),
    b_in_a: RelativePose,
    certified_depth: f64,
    (tolerance, size): (f64, f64),
) -> Option<(DVec3, f64, f64)> {
    let own = m.normal;
    let unit = own.is_finite() && (own.length() - 1.0).abs() <= 1e-9;
    // The same normal but for round-off is not a tie: checked along ours, as always.
    if !unit || own.dot(m.certified_normal) >= 1.0 - TIE_ANGLE {
        return None;
    }
    let (top_a, bottom_b) = support_heights(a, b, b_in_a, own);
    let allowed = tolerance + ENGINE_NORMAL_ALLOWANCE * size;
    (top_a - bottom_b <= certified_depth + allowed).then_some((own, top_a, bottom_b))
}

/// How far apart two unit normals must be (1 − cos of the angle) to be two normals of a
/// tie rather than one normal and its round-off.
const TIE_ANGLE: f64 = 1e-9;

/// What an engine's normal may add to the least overlap, relative to the pair's size:
/// an engine's normal from its own GJK/EPA (parry's on polyhedra and cylinders) is off
/// the face's by its tolerance. The exported parry test allows the same.
const ENGINE_NORMAL_ALLOWANCE: f64 = 1e-6;

/// Whether a check's value is a number no more than `most`.
fn holds(value: f64, most: f64) -> bool {
    !(value.is_nan() || value > most)
}

/// The tests a point's check must pass to be certified: each value and the most it may
/// be (what a reader is told when one fails: [`LIMIT_TEXT`], in the same order).
fn limits(check: &PointCheck, tolerance: f64, band: f64) -> [(f64, f64); 6] {
    [
        (check.off_a, tolerance),
        (check.off_b, tolerance),
        (check.below_plane_a, band + tolerance),
        (check.below_plane_b, band + tolerance),
        // Over one spot of the region: the same band as the faces (an engine's own
        // normal tilts its pairs by its tolerance).
        (check.lateral, band + tolerance),
        (check.deeper_than_certified, tolerance),
    ]
}

/// What a failed test of [`limits`] says: the text before the value and after it.
const LIMIT_TEXT: [(&str, &str); 6] = [
    ("", " off A"),
    ("", " off B"),
    ("", " below A's support plane"),
    ("", " above B's support plane"),
    ("its two points ", " apart across the normal"),
    ("", " deeper than the certified depth"),
];

#[cfg(test)]
mod tests;
