//! Closed forms between triangles and points, for pruning: the point of a triangle
//! nearest a point, the nearest points of two segments, and from them a certified lower
//! bound of two triangles' distance. A mesh–mesh query meets thousands of triangle
//! pairs whose boxes are near; a closed form that proves most of them no nearer than
//! the best pair found costs a tenth of a run, so only the pairs that can still make
//! the answer are run by the query's method (with its records and certificate). Coal
//! and PQP prune the same way with Gottschalk's `TriDist` (Larsen, Gottschalk, Lin and
//! Manocha, "Fast Proximity Queries with Swept Sphere Volumes", 1999).

use glam::DVec3;

use crate::minkowski::ROUND_OFF_PER_SIZE;
pub use crate::nearest::{nearest_on_segment, nearest_on_segments, nearest_on_triangle};

/// A lower bound of the distance between triangles `a` and `b` (given in one frame, `b`
/// carrying a round-off of at most `b_round_off` from being moved there), rounded down;
/// 0 when they may meet. The nearest pair of points is found in closed form (the nine
/// edge pairs and the six corners against the other face: for two disjoint triangles
/// one of them holds the nearest pair, Ericson, "Real-Time Collision Detection", §5.2.6
/// ff.); the bound is the triangles' separation along that pair's direction, which is a
/// lower bound for any direction, and equals the distance when the pair is the nearest.
pub fn triangle_gap(a: [DVec3; 3], b: [DVec3; 3], b_round_off: f64) -> f64 {
    let (p, q) = nearest_pair(a, b);
    let along = q - p;
    let length = along.length();
    if length.is_nan() || length == 0.0 {
        return 0.0;
    }
    let n = along / length;
    let top_a = a
        .iter()
        .map(|x| n.dot(*x))
        .fold(f64::NEG_INFINITY, f64::max);
    let bottom_b = b.iter().map(|x| n.dot(*x)).fold(f64::INFINITY, f64::min);
    let size = size_of(&a, &b);
    // Each projection rounds by a few ulps of the size, and `n` is a unit vector only
    // to a few ulps; the corners of `b` were moved with their own round-off.
    let gap = (bottom_b - top_a) - 2.0 * ROUND_OFF_PER_SIZE * size - 2.0 * b_round_off;
    if gap.is_nan() {
        0.0
    } else {
        gap.max(0.0)
    }
}

/// Whether triangles `a` and `b` (in one frame, `b` carrying a round-off of at most
/// `b_round_off`) are proved apart: by either's plane with the other wholly on one side
/// (six products, the common case of two meshes' neighbouring faces), else by a
/// positive [`triangle_gap`].
pub fn triangles_apart(a: [DVec3; 3], b: [DVec3; 3], b_round_off: f64) -> bool {
    let size = size_of(&a, &b);
    let margin = 2.0 * ROUND_OFF_PER_SIZE * size + 2.0 * b_round_off;
    // The plane's normal is only a direction: a sliver's computed normal is mostly
    // round-off, so its own corners are measured along it too and the other triangle
    // must clear their whole range.
    let one_side = |t: &[DVec3; 3], others: &[DVec3; 3]| {
        let normal = (t[1] - t[0]).cross(t[2] - t[0]);
        let length = normal.length();
        if length.is_nan() || length <= 0.0 || !length.is_finite() {
            return false;
        }
        let n = normal / length;
        let own = t.map(|x| n.dot(x));
        let (low, high) = (
            own.iter().copied().fold(f64::INFINITY, f64::min),
            own.iter().copied().fold(f64::NEG_INFINITY, f64::max),
        );
        let heights = others.map(|x| n.dot(x));
        heights.iter().all(|h| *h > high + margin) || heights.iter().all(|h| *h < low - margin)
    };
    one_side(&a, &b) || one_side(&b, &a) || triangle_gap(a, b, b_round_off) > 0.0
}

/// The largest coordinate of two triangles' corners: the size their round-off scales with.
pub fn size_of(a: &[DVec3; 3], b: &[DVec3; 3]) -> f64 {
    a.iter()
        .chain(b.iter())
        .map(|x| x.abs().max_element())
        .fold(0.0, f64::max)
}

/// The nearest pair of points of two triangles when they are disjoint (one on each,
/// in that order); for triangles that meet, some pair of edge and corner points.
fn nearest_pair(a: [DVec3; 3], b: [DVec3; 3]) -> (DVec3, DVec3) {
    let mut best = (a[0], b[0]);
    let mut best_d2 = f64::INFINITY;
    let mut consider = |p: DVec3, q: DVec3| {
        let d2 = (q - p).length_squared();
        if d2 < best_d2 {
            best_d2 = d2;
            best = (p, q);
        }
    };
    for i in 0..3 {
        let (a0, a1) = (a[i], a[(i + 1) % 3]);
        for j in 0..3 {
            let (p, q) = nearest_on_segments(a0, a1, b[j], b[(j + 1) % 3]);
            consider(p, q);
        }
    }
    for corner in b {
        consider(nearest_on_triangle(corner, a), corner);
    }
    for corner in a {
        consider(corner, nearest_on_triangle(corner, b));
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pose::RelativePose;
    use crate::rng::SplitMix64 as Rng;
    use crate::shape::{Polytope, Shape};
    use crate::solver::{Algorithm, DirectionRule, Method, SolverSettings};

    fn identity() -> RelativePose {
        RelativePose::from_matrix(glam::DMat3::IDENTITY, DVec3::ZERO)
    }

    fn random_triangle(rng: &mut Rng, centre: DVec3, size: f64) -> [DVec3; 3] {
        let mut corner = || {
            centre
                + DVec3::new(
                    rng.range(-size, size),
                    rng.range(-size, size),
                    rng.range(-size, size),
                )
        };
        [corner(), corner(), corner()]
    }

    /// The gap never exceeds the distance parry3d-f64 computes for the two triangles
    /// (an independent GJK), and is that distance to round-off when they are apart.
    #[test]
    fn the_gap_is_a_lower_bound_and_tight_against_parry() {
        let mut rng = Rng::new(11);
        let mut tight = 0;
        for k in 0..3000 {
            let spread = [0.2, 1.0, 3.0][k % 3];
            let a = random_triangle(&mut rng, DVec3::ZERO, 1.0);
            let centre = DVec3::new(
                rng.range(-spread, spread),
                rng.range(-spread, spread),
                rng.range(-spread, spread),
            );
            let b = random_triangle(&mut rng, centre, 1.0);
            let gap = triangle_gap(a, b, 0.0);
            let (Ok(ta), Ok(tb)) = (Polytope::triangle(a), Polytope::triangle(b)) else {
                continue;
            };
            let exact = crate::parry_bridge::parry_gjk_distance(
                &Shape::Polytope(ta),
                &Shape::Polytope(tb),
                &identity(),
            );
            assert!(
                gap <= exact + 1e-12,
                "gap {gap} above the distance {exact}: {a:?} {b:?}"
            );
            if exact > 1e-6 {
                assert!(
                    (exact - gap) <= 1e-9 * (1.0 + exact),
                    "gap {gap} vs {exact}"
                );
                tight += 1;
            }
        }
        assert!(tight > 500, "only {tight} apart pairs checked");
    }

    /// The cheap test agrees with the gap: never apart where parry finds them meeting.
    #[test]
    fn apart_only_where_the_triangles_do_not_meet() {
        let mut rng = Rng::new(17);
        let (mut apart, mut meeting) = (0, 0);
        for _ in 0..3000 {
            let a = random_triangle(&mut rng, DVec3::ZERO, 1.0);
            let shift = DVec3::new(rng.range(-1.0, 1.0), 0.0, 0.0);
            let b = random_triangle(&mut rng, shift, 1.0);
            let (Ok(ta), Ok(tb)) = (Polytope::triangle(a), Polytope::triangle(b)) else {
                continue;
            };
            let exact = crate::parry_bridge::parry_gjk_distance(
                &Shape::Polytope(ta),
                &Shape::Polytope(tb),
                &identity(),
            );
            if triangles_apart(a, b, 0.0) {
                assert!(exact > 0.0, "{a:?} {b:?} called apart at distance {exact}");
                apart += 1;
            } else {
                assert!(exact < 1e-9, "{a:?} {b:?} not proved apart at {exact}");
                meeting += 1;
            }
        }
        assert!(
            apart > 300 && meeting > 300,
            "{apart} apart, {meeting} meeting"
        );
    }

    /// Triangles that cross, touch at a corner, or lie in one plane overlapping give 0;
    /// parallel triangles one above the other give their height.
    #[test]
    fn meeting_triangles_give_no_gap() {
        let a = [DVec3::ZERO, DVec3::X, DVec3::Y];
        let crossing = [
            DVec3::new(0.2, 0.2, -1.0),
            DVec3::new(0.2, 0.2, 1.0),
            DVec3::new(0.3, 0.1, 0.5),
        ];
        assert_eq!(triangle_gap(a, crossing, 0.0), 0.0);
        let corner = [
            DVec3::X,
            DVec3::new(2.0, 0.0, 0.0),
            DVec3::new(1.0, 1.0, 1.0),
        ];
        assert_eq!(triangle_gap(a, corner, 0.0), 0.0);
        let coplanar = [
            DVec3::new(0.1, 0.1, 0.0),
            DVec3::new(0.9, 0.1, 0.0),
            DVec3::new(0.1, 0.5, 0.0),
        ];
        assert_eq!(triangle_gap(a, coplanar, 0.0), 0.0);
        let above = a.map(|c| c + DVec3::new(0.1, 0.1, 0.5));
        let gap = triangle_gap(a, above, 0.0);
        assert!(gap <= 0.5 && gap > 0.5 - 1e-13, "{gap}");
    }

    /// Far from the origin the bound still holds (round-off scales with the size).
    #[test]
    fn the_gap_holds_far_from_the_origin() {
        let mut rng = Rng::new(5);
        let method = Method::of(Algorithm::Gjk(DirectionRule::Vanilla));
        for _ in 0..300 {
            let far = DVec3::splat(1e7);
            let a = random_triangle(&mut rng, far, 1.0);
            let b = random_triangle(&mut rng, far + DVec3::new(0.0, 0.0, 1.5), 1.0);
            let gap = triangle_gap(a, b, 0.0);
            let (Ok(ta), Ok(tb)) = (Polytope::triangle(a), Polytope::triangle(b)) else {
                continue;
            };
            let run = method.run_untraced(
                &Shape::Polytope(ta),
                &Shape::Polytope(tb),
                identity(),
                SolverSettings::default(),
            );
            let (_, upper) = super::super::midphase::bracket(&run.summary.outcome);
            assert!(gap <= upper, "gap {gap} above a run's upper bound {upper}");
        }
    }
}
