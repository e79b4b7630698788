//! Property tests on degenerate but valid input (ALGORITHMS.md §8): repeated, collinear
//! and coplanar points, tiny and huge scales, touching contact, identical shapes at the
//! same pose. No panic, no NaN, every run ends in one of the outcomes.

use collidescope::minkowski::MinkowskiDifference;
use collidescope::pose::RelativePose;
use collidescope::shape::{Polytope, Shape};
use collidescope::solver::{solve_traced, Algorithm, Outcome, SolverSettings};
use collidescope::{DMat3, DQuat, DVec3};
use proptest::prelude::*;

fn settings() -> SolverSettings {
    SolverSettings {
        tolerance: 1e-8,
        max_iterations: 200,
        ..SolverSettings::default()
    }
}

/// Runs every algorithm and checks the run is well formed; returns GJK's outcome.
fn run_all(a: &Shape, b: &Shape, rel: RelativePose) -> Outcome {
    let mut gjk = None;
    for algorithm in Algorithm::ALL {
        let run = solve_traced(algorithm, MinkowskiDifference::new(a, b, rel), settings());
        for r in (0..run.trace.len()).filter_map(|i| run.trace.distance_step(i)) {
            assert!(r.x.is_finite(), "{algorithm}: x = {}", r.x);
            assert!(
                !r.x_norm.is_nan() && !r.fw_gap.is_nan(),
                "{algorithm}: NaN in record"
            );
            assert!(r
                .simplex
                .iter()
                .all(|v| v.weight.is_finite() && v.weight >= 0.0));
        }
        assert!(run.summary.iterations <= 200);
        match &run.summary.outcome {
            Outcome::Separated {
                distance,
                lower_bound,
            } => assert!(distance.is_finite() && *lower_bound > 0.0 && lower_bound <= distance),
            Outcome::Contact { distance } => assert!(distance.is_finite() && *distance >= 0.0),
            Outcome::SeparatedEarlyStop { lower_bound } => assert!(lower_bound.is_finite()),
            Outcome::Stalled {
                distance,
                lower_bound,
            } => assert!(distance.is_finite() && *lower_bound <= *distance),
            Outcome::IterationCap { .. } | Outcome::Intersecting | Outcome::Degenerate { .. } => {}
            other => panic!("{algorithm}: a distance solver answered {other}"),
        }
        if algorithm.name() == "gjk" {
            gjk = Some(run.summary.outcome.clone());
        }
    }
    gjk.unwrap()
}

fn point_strategy() -> impl Strategy<Value = DVec3> {
    (-1.0..1.0f64, -1.0..1.0f64, -1.0..1.0f64).prop_map(|(x, y, z)| DVec3::new(x, y, z))
}

/// Degenerate point sets: a single point, repeated points, collinear, coplanar, or a
/// general cloud with duplicates, at scales from 1e-6 to 1e6.
fn degenerate_set() -> impl Strategy<Value = Vec<DVec3>> {
    let scale = prop_oneof![Just(1e-6), Just(1.0), Just(1e6)];
    (
        0usize..5,
        prop::collection::vec(point_strategy(), 1..12),
        point_strategy(),
        point_strategy(),
        scale,
    )
        .prop_map(|(kind, cloud, u, v, scale)| {
            let pts: Vec<DVec3> = match kind {
                0 => vec![cloud[0]],
                1 => vec![cloud[0]; cloud.len() + 1],
                2 => cloud.iter().map(|p| u * p.x).collect(),
                3 => cloud.iter().map(|p| u * p.x + v * p.y).collect(),
                _ => cloud.iter().chain(cloud.iter()).copied().collect(),
            };
            pts.into_iter().map(|p| p * scale).collect()
        })
}

fn rotation_strategy() -> impl Strategy<Value = DMat3> {
    (-1.0..1.0f64, -1.0..1.0f64, -1.0..1.0f64, 0.1..1.0f64)
        .prop_map(|(x, y, z, w)| DMat3::from_quat(DQuat::from_xyzw(x, y, z, w).normalize()))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn degenerate_pairs_never_break(a in degenerate_set(), b in degenerate_set(), r in rotation_strategy(), t in point_strategy(), t_scale in prop_oneof![Just(1e-6), Just(1.0), Just(1e6)]) {
        let a = Shape::Polytope(Polytope::from_points(&a).unwrap());
        let b = Shape::Polytope(Polytope::from_points(&b).unwrap());
        run_all(&a, &b, RelativePose::from_matrix(r, t * t_scale));
    }

    #[test]
    fn identical_shapes_at_the_same_pose_intersect(a in degenerate_set()) {
        let a = Shape::Polytope(Polytope::from_points(&a).unwrap());
        let outcome = run_all(&a, &a, RelativePose::from_matrix(DMat3::IDENTITY, DVec3::ZERO));
        prop_assert_eq!(outcome, Outcome::Intersecting);
    }

    #[test]
    fn touching_boxes_give_distance_zero(h in 0.1..2.0f64, offset in -0.5..0.5f64, scale in prop_oneof![Just(1e-6), Just(1.0), Just(1e6)]) {
        // Two cubes sharing a face plane exactly: the distance is 0.
        let corners = |c: DVec3| -> Vec<DVec3> {
            (0..8).map(|i| c + DVec3::new(
                if i & 1 == 0 { -h } else { h },
                if i & 2 == 0 { -h } else { h },
                if i & 4 == 0 { -h } else { h },
            ) * scale).collect()
        };
        let a = Shape::Polytope(Polytope::from_points(&corners(DVec3::ZERO)).unwrap());
        let b = Shape::Polytope(Polytope::from_points(&corners(DVec3::ZERO)).unwrap());
        let t = DVec3::new(2.0 * h, offset * h, 0.0) * scale;
        let outcome = run_all(&a, &b, RelativePose::from_matrix(DMat3::IDENTITY, t));
        match outcome {
            Outcome::Intersecting => {}
            Outcome::Separated { distance, .. } => prop_assert!(distance <= 1e-9 * scale.max(1.0), "distance {}", distance),
            other => prop_assert!(false, "touching boxes ended with {:?}", other),
        }
    }
}
