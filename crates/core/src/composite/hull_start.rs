//! Where a composite's distance search starts: from the hulls. The hull of a composite
//! holds it, so the hulls' distance bounds the composites' from below; when two robot
//! links or a mesh and a box are apart, their nearest points usually lie on both hulls,
//! and the pieces there make the answer. One run on the hulls then gives a floor and the
//! pieces to run first, and when their run meets the floor the search is over: no
//! other pair of pieces can be nearer (by more than the tolerance). Coal reaches the
//! same few pairs by its swept-sphere hierarchy (Larsen et al., "Fast Proximity Queries
//! with Swept Sphere Volumes"); the floor lets ours stop without visiting the rest.
//!
//! The floor is not the hull run's own bound, which holds for the hull as built (a hull
//! may leave an input point outside by its tolerance): it is the gap, along the hull
//! run's direction, between every point of the two sides, rounded down.

use glam::DVec3;

use super::midphase::{bracket, Start};
use super::query::Side;
use super::{Composite, Pieces};
use crate::minkowski::ROUND_OFF_PER_SIZE;
use crate::pose::RelativePose;
use crate::shape::SupportMap;
use crate::solver::{Algorithm, Method, SolverSettings};

/// The start of a distance search between `composite` (at the identity) and `second` at
/// `b_in_a`: `None` when the hulls overlap or the run on them cannot say where they are
/// nearest.
pub fn hull_start(
    composite: &Composite,
    second: Side<'_>,
    b_in_a: RelativePose,
    settings: SolverSettings,
) -> Option<Start> {
    let hull_b = match second {
        Side::Convex(shape) => shape,
        Side::Composite(other) => other.hull(),
    };
    let run = Method::of(Algorithm::GJK).run_untraced(composite.hull(), hull_b, b_in_a, settings);
    let (lower, _) = bracket(&run.summary.outcome);
    if lower.is_nan() || lower <= 0.0 {
        return None;
    }
    let (near_a, near_b) = (run.summary.witness_a?, run.summary.witness_b?);
    let n = (near_b - near_a).normalize_or_zero();
    if n == DVec3::ZERO || !n.is_finite() {
        return None;
    }
    let top_a = furthest_along(composite, n)?;
    // B's lowest point along n, in A's frame: n · (R x + t) = (Rᵀ n) · x + n · t.
    let n_in_b = b_in_a.inverse_rotate(n);
    let bottom_b = n.dot(b_in_a.translation)
        - match second {
            Side::Convex(shape) => {
                let low = shape.local_support(-n_in_b);
                -n_in_b.dot(low)
            }
            Side::Composite(other) => furthest_along(other, -n_in_b)?,
        };
    let size = composite.hull().extent() + hull_b.extent() + b_in_a.translation.length();
    let round_off = 4.0 * ROUND_OFF_PER_SIZE * size;
    let floor = bottom_b - top_a - round_off;
    (floor > 0.0).then_some(Start {
        floor,
        near_a,
        near_b,
        normal: n,
        b_low: bottom_b,
        round_off,
    })
}

/// The furthest any point of the composite reaches along `n`: over a mesh's vertices
/// (every one, not only the hull's), over a compound's parts' supports; `None` when a
/// support is not a number.
fn furthest_along(composite: &Composite, n: DVec3) -> Option<f64> {
    let heights: Vec<f64> = match composite.pieces() {
        Pieces::Triangles(mesh) => mesh.vertices().iter().map(|v| n.dot(*v)).collect(),
        Pieces::Parts(parts) => parts
            .iter()
            .map(|part| {
                let local = part.pose.inverse_rotate(n);
                n.dot(part.pose.transform_point(part.shape.local_support(local)))
            })
            .collect(),
    };
    if heights.iter().any(|h| h.is_nan()) {
        return None;
    }
    Some(heights.into_iter().fold(f64::NEG_INFINITY, f64::max))
}
