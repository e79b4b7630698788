//! Contact manifolds: the points an engine hands its contact solver for two shapes in
//! contact or within a margin, built from the certified normal (EPA's on overlap, GJK's
//! nearest points apart), the two shapes' support sets along it (the reference and
//! incident features), the incident feature clipped against the reference face's side
//! planes, each point's depth, and the reduction to at most four points, every point
//! then certified against both shapes.
//!
//! The clipping rule is Jolt's (`ManifoldBetweenTwoFaces` and `PruneContactPoints` in
//! Jolt Physics' `Physics/Collision/ManifoldBetweenTwoFaces.cpp`): a face of three or
//! more corners clips the other feature (A's face when both are faces); clipped points
//! are taken back to the reference face's plane along the normal, kept while they are
//! less than the margin in front of it; more than four are reduced to the point with
//! the largest (distance from A's origin × depth), the furthest from it (× depth), and
//! the furthest on either side of the line through them; with no face of three corners,
//! or nothing left after clipping, the manifold is the normal's own point pair.

pub mod clip;
pub mod kind;
mod narrate;
pub mod record;
pub mod support_set;

use glam::DVec3;
use serde::Serialize;

use crate::minkowski::MinkowskiDifference;
use crate::minkowski::SupportStats;
use crate::pose::RelativePose;
use crate::shape::{PointShape, Shape, SupportMap};
use crate::solver::epa::{gjk_settings_for_epa, penetration};
use crate::solver::family::{Answer, Family, FamilyRun, PairQuery};
use crate::solver::gjk::{run_gjk, DirectionRule};
use crate::solver::outcome::Outcome;
pub use crate::solver::settings::ContactSettings;
use crate::solver::settings::EpaSettings;
use clip::ClipStage;
use record::{ContactEvent, ContactRecord};
use support_set::SupportSet;

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

/// How one point's certificate came out: its distances to A and to B (upper bounds, by
/// GJK from the point), how far below each shape's support plane along the normal it
/// lies, and how much deeper than the certified depth it claims to be.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct PointCheck {
    pub off_a: f64,
    pub off_b: f64,
    pub below_plane_a: f64,
    pub below_plane_b: f64,
    pub deeper_than_certified: f64,
    pub certified: bool,
}

/// A contact manifold and how it was built, step by step.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Manifold {
    /// The certified normal (A's frame, from A towards B) and the pair's outcome it came
    /// from.
    pub normal: DVec3,
    pub outcome: Outcome,
    /// The support sets of A along the normal and of B against it (A's frame).
    pub feature_a: SupportSet,
    pub feature_b: SupportSet,
    pub reference: Reference,
    /// The side planes of the reference face and the incident feature after each.
    pub clipping: Vec<ClipStage>,
    /// Every clipped point with its depth, before the margin and the reduction.
    pub candidates: Vec<ContactPoint>,
    /// Indices into `candidates`: kept in the manifold, dropped beyond the margin,
    /// dropped by the reduction.
    pub kept: Vec<usize>,
    pub beyond_margin: Vec<usize>,
    pub reduced_away: Vec<usize>,
    /// The manifold: the kept candidates, or the normal's own point pair.
    pub points: Vec<ContactPoint>,
    pub checks: Vec<PointCheck>,
    /// `None` when every point is certified; else why not.
    pub uncertified: Option<String>,
}

/// What the contact family reports beyond the summary: the manifold, when one was
/// built.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ContactExtras {
    pub manifold: Option<Manifold>,
}

/// The rule a contact method builds its manifold by.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ContactRule {
    /// Jolt's clipping of the incident face against the reference face.
    Clipping,
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
        let ContactRule::Clipping = self;
        let (outcome, manifold) =
            match clipping_manifold(q.a, q.b, q.b_in_a, q.settings.epa, q.settings.contact) {
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

/// The depth an outcome certifies (minus the gap apart); `None` when it bounds none.
fn certified_depth(outcome: &Outcome) -> Option<f64> {
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

/// The clipping manifold of A (at the identity) and B at `b_in_a`. `None` with the
/// outcome when the shapes are apart by more than the margin or the normal's run gave
/// no normal (an iteration cap, a degenerate pair).
pub fn clipping_manifold(
    a: &Shape,
    b: &Shape,
    b_in_a: RelativePose,
    epa: EpaSettings,
    contact: ContactSettings,
) -> Result<Manifold, Outcome> {
    let run = penetration(a, b, b_in_a, gjk_settings_for_epa(), epa, None);
    let outcome = run.summary.outcome.clone();
    let (normal, certified_depth) = match &outcome {
        Outcome::Penetrating { depth, normal } => (*normal, *depth),
        Outcome::Touching { normal } => (*normal, 0.0),
        Outcome::Separated {
            distance,
            lower_bound,
        } if *distance <= contact.margin => {
            let (wa, wb) = run.witnesses().ok_or_else(|| outcome.clone())?;
            let along = (wb - wa).normalize_or_zero();
            if along == DVec3::ZERO {
                return Err(outcome);
            }
            (along, -lower_bound)
        }
        _ => return Err(outcome),
    };
    let (on_a, on_b) = run.witnesses().unwrap_or((DVec3::ZERO, DVec3::ZERO));
    let size = a.extent() + b.extent() + b_in_a.translation.length();
    let band = contact.feature_band * size;
    let feature_a = support_set::support_set(a, normal, band, contact.curve_samples);
    let feature_b = support_set::support_set(
        b,
        b_in_a.inverse_rotate(-normal),
        band,
        contact.curve_samples,
    )
    .map(|p| b_in_a.transform_point(p));
    let corners = |f: &SupportSet| f.corners().len();
    let reference = if corners(&feature_a) >= 3 && corners(&feature_b) >= 2 {
        Reference::A
    } else if corners(&feature_b) >= 3 && corners(&feature_a) >= 2 {
        Reference::B
    } else {
        Reference::None
    };
    let mut manifold = Manifold {
        normal,
        outcome: outcome.clone(),
        feature_a,
        feature_b,
        reference,
        clipping: Vec::new(),
        candidates: Vec::new(),
        kept: Vec::new(),
        beyond_margin: Vec::new(),
        reduced_away: Vec::new(),
        points: Vec::new(),
        checks: Vec::new(),
        uncertified: None,
    };
    if reference != Reference::None {
        clip_features(&mut manifold, contact);
    }
    if manifold.kept.is_empty() {
        // Jolt's fallback: the normal's own point pair.
        manifold.points = vec![ContactPoint {
            on_a,
            on_b,
            depth: normal.dot(on_a - on_b),
        }];
    } else {
        manifold.points = manifold
            .kept
            .iter()
            .map(|&k| manifold.candidates[k])
            .collect();
    }
    certify(&mut manifold, a, b, b_in_a, certified_depth, size, contact);
    Ok(manifold)
}

/// Clips the incident feature against the reference face, measures each point's depth
/// along the normal back to the reference plane, drops those beyond the margin and
/// reduces the rest.
fn clip_features(m: &mut Manifold, contact: ContactSettings) {
    let (face, incident, axis) = match m.reference {
        Reference::A => (m.feature_a.corners(), m.feature_b.corners(), m.normal),
        _ => (m.feature_b.corners(), m.feature_a.corners(), -m.normal),
    };
    // The face's own plane (its normal may differ from the contact normal by the band).
    let plane_normal = face_normal(&face, axis);
    let planes = clip::side_planes(&face, axis);
    m.clipping = clip::clip(&incident, &planes);
    let clipped = m
        .clipping
        .last()
        .map_or(incident.clone(), |s| s.after.clone());
    let denominator = axis.dot(plane_normal);
    if denominator <= 0.0 {
        return;
    }
    for q in clipped {
        // q + s · axis lies on the reference plane: s = −(q − face₀) · ν / (axis · ν).
        let s = -(q - face[0]).dot(plane_normal) / denominator;
        let on_reference = q + axis * s;
        let point = match m.reference {
            Reference::A => ContactPoint {
                on_a: on_reference,
                on_b: q,
                depth: s,
            },
            _ => ContactPoint {
                on_a: q,
                on_b: on_reference,
                depth: s,
            },
        };
        let k = m.candidates.len();
        m.candidates.push(point);
        if point.depth < -contact.margin {
            m.beyond_margin.push(k);
        } else {
            m.kept.push(k);
        }
    }
    if m.kept.len() > contact.max_points.max(1) {
        let chosen = reduce(&m.candidates, &m.kept, m.normal, contact.max_points);
        m.reduced_away = m
            .kept
            .iter()
            .copied()
            .filter(|k| !chosen.contains(k))
            .collect();
        m.kept = chosen;
    }
}

/// A face's unit normal on the side of `axis` (Newell's sum over its corners).
fn face_normal(face: &[DVec3], axis: DVec3) -> DVec3 {
    let mut sum = DVec3::ZERO;
    for i in 0..face.len() {
        let (p, q) = (face[i], face[(i + 1) % face.len()]);
        sum += (p - q).cross(p + q) * -0.5;
    }
    let n = sum.normalize_or_zero();
    if n.dot(axis) < 0.0 {
        -n
    } else if n == DVec3::ZERO {
        axis
    } else {
        n
    }
}

/// Jolt's reduction to at most `max_points` (four) of the candidates `kept`: the point
/// with the largest (distance from A's origin across the normal × depth), the furthest
/// from it (× depth), then the furthest on either side of the line through the two;
/// returned in order round the polygon. Below four allowed, the first ones of that
/// order.
fn reduce(
    candidates: &[ContactPoint],
    kept: &[usize],
    normal: DVec3,
    max_points: usize,
) -> Vec<usize> {
    const FLOOR: f64 = 1e-12;
    let across = |p: DVec3| p - normal * normal.dot(p);
    let depth2 = |c: &ContactPoint| (c.on_b - c.on_a).length_squared().max(FLOOR);
    let best = |score: &dyn Fn(usize) -> f64, skip: &[usize]| {
        kept.iter()
            .copied()
            .filter(|k| !skip.contains(k))
            .max_by(|x, y| score(*x).total_cmp(&score(*y)))
    };
    let Some(first) = best(
        &|k| across(candidates[k].on_a).length_squared().max(FLOOR) * depth2(&candidates[k]),
        &[],
    ) else {
        return Vec::new();
    };
    let p1 = across(candidates[first].on_a);
    let Some(second) = best(
        &|k| {
            (across(candidates[k].on_a) - p1)
                .length_squared()
                .max(FLOOR)
                * depth2(&candidates[k])
        },
        &[first],
    ) else {
        return vec![first];
    };
    let p2 = across(candidates[second].on_a);
    let perpendicular = (p2 - p1).cross(normal);
    let side = |k: usize| perpendicular.dot(across(candidates[k].on_a) - p1);
    let (mut low, mut high) = (None::<(usize, f64)>, None::<(usize, f64)>);
    for &k in kept {
        if k == first || k == second {
            continue;
        }
        let v = side(k);
        if v < low.map_or(0.0, |l| l.1) {
            low = Some((k, v));
        } else if v > high.map_or(0.0, |h| h.1) {
            high = Some((k, v));
        }
    }
    let mut order = vec![first];
    order.extend(low.map(|l| l.0));
    order.push(second);
    order.extend(high.map(|h| h.0));
    order.truncate(max_points.max(1));
    order
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

/// Certifies each point: within the tolerance of both shapes (GJK from the point, its
/// upper bound), within the feature band of each shape's support plane along the
/// normal (the contact region), and no deeper than the certified depth.
fn certify(
    m: &mut Manifold,
    a: &Shape,
    b: &Shape,
    b_in_a: RelativePose,
    certified_depth: f64,
    size: f64,
    contact: ContactSettings,
) {
    let tolerance = contact.tolerance * size.max(f64::MIN_POSITIVE);
    let band = contact.feature_band * size;
    let top_a = m.normal.dot(a.local_support(m.normal));
    let bottom_b = m
        .normal
        .dot(b_in_a.transform_point(b.local_support(b_in_a.inverse_rotate(-m.normal))));
    let point = Shape::Point(PointShape);
    let distance_to = |shape: &Shape, p: DVec3| {
        let pose = RelativePose::from_matrix(glam::DMat3::IDENTITY, p);
        let summary = run_gjk(
            MinkowskiDifference::new(shape, &point, pose),
            DirectionRule::Vanilla,
            gjk_settings_for_epa(),
            &[],
        );
        upper_bound(&summary.outcome)
    };
    let mut why = Vec::new();
    for (i, p) in m.points.iter().enumerate() {
        let check = PointCheck {
            off_a: distance_to(a, p.on_a),
            off_b: distance_to(b, b_in_a.inverse().transform_point(p.on_b)),
            below_plane_a: top_a - m.normal.dot(p.on_a),
            below_plane_b: m.normal.dot(p.on_b) - bottom_b,
            deeper_than_certified: p.depth - certified_depth,
            certified: false,
        };
        let mut failed = Vec::new();
        if check.off_a.is_nan() || check.off_a > tolerance {
            failed.push(format!("{:.3e} off A", check.off_a));
        }
        if check.off_b.is_nan() || check.off_b > tolerance {
            failed.push(format!("{:.3e} off B", check.off_b));
        }
        if check.below_plane_a.is_nan() || check.below_plane_a > band + tolerance {
            failed.push(format!(
                "{:.3e} below A's support plane",
                check.below_plane_a
            ));
        }
        if check.below_plane_b.is_nan() || check.below_plane_b > band + tolerance {
            failed.push(format!(
                "{:.3e} above B's support plane",
                check.below_plane_b
            ));
        }
        if check.deeper_than_certified.is_nan() || check.deeper_than_certified > tolerance {
            failed.push(format!(
                "{:.3e} deeper than the certified depth",
                check.deeper_than_certified
            ));
        }
        if !failed.is_empty() {
            why.push(format!("point {i}: {}", failed.join(", ")));
        }
        m.checks.push(PointCheck {
            certified: failed.is_empty(),
            ..check
        });
    }
    m.uncertified = (!why.is_empty()).then(|| why.join("; "));
}

#[cfg(test)]
mod tests;
