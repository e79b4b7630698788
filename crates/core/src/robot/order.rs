//! The pairs of a model (a MuJoCo model's geoms, a robot's links) ordered by their
//! certified signed distance: the deepest overlap first, then the touching pairs, then
//! the rest nearest first. The first is the pair a model opens on. A bounding-sphere
//! order is not a distance order (at a humanoid's standing keyframe the sphere-nearest
//! pair was 0.51 apart, rank 612 of 1013, while another overlapped), so each pair's
//! distance is computed: GJK to a relative 1e-9, EPA's depth when GJK finds the pair
//! overlapping (44,850 pairs of spheres, boxes, capsules and hulls in 19 ms).

use crate::composite::run_composite;
use crate::pose::{Pose, RelativePose};
use crate::scene::Body;
use crate::shape::Shape;
use crate::solver::epa::{gjk_settings_for_epa, penetration};
use crate::solver::{EpaSettings, Method, Outcome};

/// A pair's certified signed distance: the distance apart (GJK's, within 1e-9
/// relative), minus the depth when overlapping (EPA's), 0 touching; an overlap whose
/// depth EPA could not settle counts as touching, a run that proved nothing as
/// infinitely far (it sorts last, never in focus by accident); a capped run, its
/// upper bound.
pub fn signed_distance(a: &Shape, pose_a: &Pose, b: &Shape, pose_b: &Pose) -> f64 {
    let run = penetration(
        a,
        b,
        RelativePose::between(pose_a, pose_b),
        gjk_settings_for_epa(),
        EpaSettings::default(),
        None,
    );
    match (
        run.outcome.signed_distance(),
        &run.outcome,
        &run.extras.gjk_stage,
    ) {
        (Some(d), _, _) if !d.is_nan() => d,
        (_, Outcome::IterationCap { upper_bound, .. }, _) if !upper_bound.is_nan() => *upper_bound,
        (_, _, Some(g)) if g.outcome == Outcome::Intersecting => 0.0,
        _ => f64::INFINITY,
    }
}

/// `pairs` (indices into `bodies`) with their signed distances, ordered by them
/// (deepest overlap first; ties keep the given order).
pub fn by_signed_distance(
    bodies: &[(&Shape, Pose)],
    pairs: &[(usize, usize)],
) -> Vec<((usize, usize), f64)> {
    let mut ordered: Vec<((usize, usize), f64)> = pairs
        .iter()
        .map(|&(i, j)| {
            let ((a, pa), (b, pb)) = (&bodies[i], &bodies[j]);
            ((i, j), signed_distance(a, pa, b, pb))
        })
        .collect();
    ordered.sort_by(|x, y| x.1.total_cmp(&y.1));
    ordered
}

/// Two bodies' certified signed distance as they are checked: [`signed_distance`] for
/// two convex shapes; for a mesh, height field or compound, the midphase's answer (GJK
/// through it, EPA's deepest sub-pair when some sub-pair overlaps), so that a robot
/// checked as meshes opens on the pair nearest as meshes, not as hulls.
pub fn body_signed_distance(a: &Body, b: &Body) -> f64 {
    if a.composite.is_none() && b.composite.is_none() {
        return signed_distance(&a.shape, &a.pose, &b.shape, &b.pose);
    }
    // EPA through the midphase answers both ways: apart, its distance search's upper
    // bound (GJK's); overlapping, the deepest sub-pair's depth.
    let answer = run_composite(
        a.side(),
        b.side(),
        RelativePose::between(&a.pose, &b.pose),
        None,
        Method::epa(),
        gjk_settings_for_epa(),
        false,
        None,
    )
    .answer;
    match answer.outcome {
        Outcome::Penetrating { depth, .. } if depth.is_finite() => -depth,
        _ if answer.upper.is_nan() => f64::INFINITY,
        // Apart: the distance; touching or an overlap EPA could not measure: 0.
        _ => answer.upper,
    }
}

/// [`by_signed_distance`] over bodies as they are checked ([`body_signed_distance`]).
pub fn bodies_by_signed_distance(
    bodies: &[Body],
    pairs: &[(usize, usize)],
) -> Vec<((usize, usize), f64)> {
    let mut ordered: Vec<((usize, usize), f64)> = pairs
        .iter()
        .map(|&(i, j)| ((i, j), body_signed_distance(&bodies[i], &bodies[j])))
        .collect();
    ordered.sort_by(|x, y| x.1.total_cmp(&y.1));
    ordered
}
