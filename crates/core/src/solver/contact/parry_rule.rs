//! parry's contact manifold as parry builds it: parry3d-f64's `contact_manifolds` on
//! parry's own shapes for ours (its default query dispatcher: boxes by its
//! separating-axis test and face clipping, `contact_manifold_pfm_pfm` (GJK/EPA normal,
//! polygonal features clipped) for polyhedra, cylinders and cones, closed forms for
//! balls and capsules). parry's clipping is internal to it, so the steps shown are what
//! it hands out: its normal, the polygonal features its feature maps give along it
//! (a cylinder's cap is a square there), its points with their distances, and our
//! certificate of each point against the certified normal and depth (or against parry's
//! own normal where it ties with ours for the least overlap: `Manifold::checked_along`).

use glam::DVec3;

use super::support_set::SupportSet;
use super::{
    certified_normal, certify, pair_size, CertifiedNormal, ContactPoint, ContactRule,
    ContactSettings, Manifold, OwnFeatures, Reference,
};
use crate::pose::RelativePose;
use crate::shape::parry_native::{from_parry, native, parry_pose, to_parry};
use crate::shape::Shape;
use crate::solver::outcome::Outcome;
use crate::solver::settings::EpaSettings;

/// parry's manifold of A (at the identity) and B at `b_in_a` with the contact margin as
/// parry's prediction distance; `Err` with the outcome when the shapes are farther
/// apart than the margin.
pub fn parry_manifold(
    a: &Shape,
    b: &Shape,
    b_in_a: RelativePose,
    epa: EpaSettings,
    contact: ContactSettings,
) -> Result<Manifold, Outcome> {
    let CertifiedNormal {
        outcome,
        normal: certified,
        depth: certified_depth,
        ..
    } = certified_normal(a, b, b_in_a, epa, contact)?;
    let parry = parry_contact_manifold(a, b, &b_in_a, contact.margin);
    let mut notes = Vec::new();
    let (normal, points, feature_a, feature_b) = match parry {
        Some(m) => {
            let points: Vec<ContactPoint> = m
                .points
                .iter()
                .map(|&(on_a, on_b, dist)| ContactPoint {
                    on_a,
                    on_b,
                    depth: -dist,
                })
                .collect();
            (m.normal, points, m.feature_a, m.feature_b)
        }
        None => {
            notes.push(
                "parry built no manifold for this pair (a kind it has no native shape for, \
                 or no contact within its prediction distance)"
                    .to_string(),
            );
            (certified, Vec::new(), Vec::new(), Vec::new())
        }
    };
    let kept: Vec<usize> = (0..points.len()).collect();
    // parry hands these out too: clipped points farther apart than its prediction.
    let beyond_margin: Vec<usize> = (0..points.len())
        .filter(|&k| points[k].depth < -contact.margin)
        .collect();
    let mut manifold = Manifold {
        rule: ContactRule::Parry,
        normal,
        certified_normal: certified,
        checked_along: certified,
        outcome,
        feature_a: SupportSet::from_corners(feature_a),
        feature_b: SupportSet::from_corners(feature_b),
        reference: Reference::None,
        clipping: Vec::new(),
        candidates: points.clone(),
        kept,
        beyond_margin,
        reduced_away: Vec::new(),
        points,
        checks: Vec::new(),
        uncertified: None,
        notes,
    };
    let size = pair_size(a, b, b_in_a);
    certify(
        &mut manifold,
        (a, b),
        b_in_a,
        (certified_depth, size),
        OwnFeatures::No,
        contact,
    );
    Ok(manifold)
}

/// parry's contact manifold of a pair (A's frame): its normal, its points (on A, on B,
/// parry's signed distance: negative on overlap) and the support features parry's
/// polygonal feature maps give along its normal (empty for kinds without one).
#[derive(Clone, Debug, PartialEq)]
struct ParryManifold {
    pub normal: DVec3,
    pub points: Vec<(DVec3, DVec3, f64)>,
    pub feature_a: Vec<DVec3>,
    pub feature_b: Vec<DVec3>,
}

/// parry3d-f64's `contact_manifolds` on its native shapes for ours (its default query
/// dispatcher, `prediction` as its margin); `None` for kinds parry lacks or when it
/// builds no manifold.
fn parry_contact_manifold(
    a: &Shape,
    b: &Shape,
    b_in_a: &RelativePose,
    prediction: f64,
) -> Option<ParryManifold> {
    use parry3d_f64::query::{ContactManifold, DefaultQueryDispatcher, PersistentQueryDispatcher};
    use parry3d_f64::shape::PolygonalFeature;
    let (sa, sb) = (parry_shape(a)?, parry_shape(b)?);
    let pos12 = parry_pose(b_in_a);
    let mut manifolds: Vec<ContactManifold<(), ()>> = Vec::new();
    let mut workspace = None;
    DefaultQueryDispatcher
        .contact_manifolds(
            &pos12,
            sa.as_ref(),
            sb.as_ref(),
            prediction,
            &mut manifolds,
            &mut workspace,
        )
        .ok()?;
    let manifold = manifolds.into_iter().find(|m| !m.points.is_empty())?;
    let normal = from_parry(manifold.local_n1);
    let feature = |shape: &dyn parry3d_f64::shape::Shape, dir: parry3d_f64::math::Vector| {
        shape
            .as_polygonal_feature_map()
            .map_or(Vec::new(), |(map, _)| {
                let mut f = PolygonalFeature::default();
                map.local_support_feature(dir, &mut f);
                f.vertices[..f.num_vertices]
                    .iter()
                    .map(|v| from_parry(*v))
                    .collect()
            })
    };
    let feature_a = feature(sa.as_ref(), manifold.local_n1);
    let feature_b = feature(sb.as_ref(), manifold.local_n2)
        .into_iter()
        .map(|p| b_in_a.transform_point(p))
        .collect();
    let points = manifold
        .points
        .iter()
        .map(|c| {
            (
                from_parry(c.local_p1),
                b_in_a.transform_point(from_parry(c.local_p2)),
                c.dist,
            )
        })
        .collect();
    Some(ParryManifold {
        normal,
        points,
        feature_a,
        feature_b,
    })
}

/// parry's shape for ours, a mesh's triangle included (parry's `Triangle`: what its
/// `TriMesh` manifolds run on each triangle).
fn parry_shape(shape: &Shape) -> Option<Box<dyn parry3d_f64::shape::Shape>> {
    native(shape).or_else(|| match shape {
        Shape::Polytope(p) if p.vertices().len() == 3 => {
            let v = p.vertices();
            Some(Box::new(parry3d_f64::shape::Triangle::new(
                to_parry(v[0]),
                to_parry(v[1]),
                to_parry(v[2]),
            )))
        }
        _ => None,
    })
}
