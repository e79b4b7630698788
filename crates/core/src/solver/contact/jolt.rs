//! The clipping manifold by Jolt's rule (`ManifoldBetweenTwoFaces` and
//! `PruneContactPoints` in Jolt Physics' `Physics/Collision/ManifoldBetweenTwoFaces.cpp`;
//! Box2D's `b2ClipPolygons` follows the same plan): a face of three or more corners
//! clips the other feature (A's face when both are faces); clipped points are taken
//! back to the reference face's plane along the normal, kept while they are less than
//! the margin in front of it; more than four are reduced to the point with the largest
//! (distance from A's origin × depth), the furthest from it (× depth), and the furthest
//! on either side of the line through them; with no face of three corners, or nothing
//! left after clipping, the manifold is the normal's own point pair.

use glam::DVec3;

use super::clip;
use super::support_set::{self, Corners};
use super::{
    certified_normal, certify, ContactPoint, ContactRule, ContactSettings, Detail, Manifold,
    OwnFeatures, Reference,
};
use crate::pose::RelativePose;
use crate::shape::Shape;
use crate::solver::outcome::Outcome;
use crate::solver::settings::EpaSettings;

/// The clipping manifold of A (at the identity) and B at `b_in_a`, every clipping stage
/// kept. `Err` with the outcome when the shapes are apart by more than the margin or
/// the normal's run gave no normal (an iteration cap, a degenerate pair).
pub fn clipping_manifold(
    a: &Shape,
    b: &Shape,
    b_in_a: RelativePose,
    epa: EpaSettings,
    contact: ContactSettings,
) -> Result<Manifold, Outcome> {
    clipping_manifold_with(Detail::Steps, a, b, b_in_a, epa, contact)
}

/// [`clipping_manifold`], keeping the clipping stages or only what they leave.
pub fn clipping_manifold_with(
    detail: Detail,
    a: &Shape,
    b: &Shape,
    b_in_a: RelativePose,
    epa: EpaSettings,
    contact: ContactSettings,
) -> Result<Manifold, Outcome> {
    let certified = certified_normal(a, b, b_in_a, epa, contact)?;
    let (outcome, normal, certified_depth) =
        (certified.outcome.clone(), certified.normal, certified.depth);
    let size = a.extent() + b.extent() + b_in_a.translation.length();
    let band = contact.feature_band * size;
    let feature_a = support_set::support_set(a, normal, band, contact.curve_samples);
    let mut feature_b = support_set::support_set(
        b,
        b_in_a.inverse_rotate(-normal),
        band,
        contact.curve_samples,
    );
    feature_b.move_by(|p| b_in_a.transform_point(p));
    let reference = if feature_a.len() >= 3 && feature_b.len() >= 2 {
        Reference::A
    } else if feature_b.len() >= 3 && feature_a.len() >= 2 {
        Reference::B
    } else {
        Reference::None
    };
    let mut manifold = Manifold {
        rule: ContactRule::Clipping,
        normal,
        certified_normal: normal,
        checked_along: normal,
        outcome,
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
        notes: Vec::new(),
    };
    if reference != Reference::None {
        clip_features(&mut manifold, detail, contact);
    }
    if manifold.kept.is_empty() {
        // Jolt's fallback: the normal's own point pair.
        let (on_a, on_b) = certified.pair(a, b, b_in_a, epa);
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
    // The features are our own support sets (corners on the shapes): the certificate
    // may measure a point's distance to them.
    certify(
        &mut manifold,
        (a, b),
        b_in_a,
        (certified_depth, size),
        OwnFeatures::Yes,
        contact,
    );
    Ok(manifold)
}

/// Clips the incident feature against the reference face, measures each point's depth
/// along the normal back to the reference plane, drops those beyond the margin and
/// reduces the rest.
fn clip_features(m: &mut Manifold, detail: Detail, contact: ContactSettings) {
    let (face, incident, axis) = match m.reference {
        Reference::A => (&m.feature_a, &m.feature_b, m.normal),
        _ => (&m.feature_b, &m.feature_a, -m.normal),
    };
    let (mut face_spare, mut incident_spare) = ([DVec3::ZERO; 2], [DVec3::ZERO; 2]);
    let face = face.corners_in(&mut face_spare);
    let incident = incident.corners_in(&mut incident_spare);
    // The face's own plane (its normal may differ from the contact normal by the band).
    let plane_normal = face_normal(face, axis);
    let mut clipped = Corners::new();
    match detail {
        Detail::Steps => {
            m.clipping = clip::clip(incident, &clip::side_planes(face, axis));
            clipped.extend_from_slice(m.clipping.last().map_or(incident, |s| &s.after));
        }
        Detail::Result => clip::clip_final(incident, face, axis, &mut clipped),
    };
    let denominator = axis.dot(plane_normal);
    if denominator <= 0.0 {
        return;
    }
    m.candidates.reserve(clipped.len());
    m.kept.reserve(clipped.len());
    for &q in clipped.iter() {
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
    // Each kept candidate: its index, its point on A across the normal, its squared depth.
    let points: smallvec::SmallVec<[(usize, DVec3, f64); 8]> = kept
        .iter()
        .map(|&k| {
            let c = &candidates[k];
            let depth2 = (c.on_b - c.on_a).length_squared().max(FLOOR);
            (k, across(c.on_a), depth2)
        })
        .collect();
    let best = |score: &dyn Fn(DVec3, f64) -> f64, skip: &[usize]| {
        points
            .iter()
            .filter(|(k, ..)| !skip.contains(k))
            .map(|&(k, p, depth2)| (k, score(p, depth2)))
            .max_by(|x, y| x.1.total_cmp(&y.1))
            .map(|(k, _)| k)
    };
    let Some(first) = best(&|p, depth2| p.length_squared().max(FLOOR) * depth2, &[]) else {
        return Vec::new();
    };
    let p1 = across(candidates[first].on_a);
    let Some(second) = best(
        &|p, depth2| (p - p1).length_squared().max(FLOOR) * depth2,
        &[first],
    ) else {
        return vec![first];
    };
    let p2 = across(candidates[second].on_a);
    let perpendicular = (p2 - p1).cross(normal);
    let (mut low, mut high) = (None::<(usize, f64)>, None::<(usize, f64)>);
    for &(k, p, _) in &points {
        if k == first || k == second {
            continue;
        }
        let v = perpendicular.dot(p - p1);
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
