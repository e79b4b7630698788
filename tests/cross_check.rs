//! The cross-check against parry3d-f64 (issue 15) on the disagreement kept in
//! `scenes/parry_cuboid_disagreement.ron`: our distance equals an independent one (GJK
//! on the hulls of the boxes' corners placed in the world, and parry's convex-hull
//! query on them), and the cross-check flags parry's native cuboid answer exactly when
//! it is off by more than our certified bound.

use std::path::Path;

use collidescope::cross_check::{compare, parry_answer, Agreement};
use collidescope::minkowski::MinkowskiDifference;
use collidescope::pose::RelativePose;
use collidescope::scene::Scene;
use collidescope::shape::{Polytope, Shape};
use collidescope::solver::{solve, Algorithm, Outcome};

#[test]
fn a_parry_disagreement_is_flagged_with_both_numbers() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("scenes/parry_cuboid_disagreement.ron");
    let scene = Scene::load(&path).unwrap();
    let run = scene.run(collidescope::solver::Method::Solver(Algorithm::ALL[0]));
    let Outcome::Separated { distance } = run.summary.outcome else {
        panic!("{:?}", run.summary.outcome);
    };
    // The oracle: the boxes' corners placed in the world, their hulls, GJK and parry's
    // convex-hull query on those.
    let corners = |k: usize| -> Vec<glam::DVec3> {
        let body = &scene.bodies[k];
        body.shape
            .vertex_points()
            .unwrap()
            .into_iter()
            .map(|p| body.pose.transform_point(p))
            .collect()
    };
    let (ha, hb) = (
        Shape::Polytope(Polytope::from_points(&corners(0)).unwrap()),
        Shape::Polytope(Polytope::from_points(&corners(1)).unwrap()),
    );
    let identity = RelativePose::between(
        &collidescope::pose::Pose::IDENTITY,
        &collidescope::pose::Pose::IDENTITY,
    );
    let oracle = solve(
        Algorithm::ALL[0],
        MinkowskiDifference::new(&ha, &hb, identity),
        scene.settings,
    );
    let exact = oracle.outcome.distance().unwrap();
    let hulls = collidescope::parry_bridge::parry_native_distance(&ha, &hb, &identity).unwrap();
    assert!((distance - exact).abs() < 1e-12, "{distance} vs {exact}");
    assert!(
        (hulls - exact).abs() < 1e-9,
        "parry on hulls {hulls} vs {exact}"
    );
    let parry = parry_answer(&scene.a().shape, &scene.b().shape, &scene.b_in_a());
    let agreement = compare(&run.summary.outcome, &scene.settings, &parry);
    let parry_is_right = (parry.distance - exact).abs() <= 2e-9;
    assert_eq!(agreement.agrees(), parry_is_right, "{agreement}");
    if !parry_is_right {
        assert!(matches!(agreement, Agreement::Disagree { .. }));
        assert!(agreement.to_string().contains("DISAGREES"));
    }
}
