//! The cross-check against parry3d-f64 on the disagreement kept in
//! `scenes/parry_cuboid_disagreement.ron`: our distance equals an independent one (GJK
//! on the hulls of the boxes' corners placed in the world, and parry's convex-hull
//! query on them), and the cross-check flags parry's native cuboid answer exactly when
//! it is off by more than our certified bound. Times of impact on the shipped moving
//! scenes against parry's casts.

use std::path::Path;

use collidescope::cross_check::{compare, parry_answer, Agreement, ParryAnswer, ParryImpact};
use collidescope::minkowski::MinkowskiDifference;
use collidescope::pose::RelativePose;
use collidescope::scene::Scene;
use collidescope::shape::{Polytope, Shape};
use collidescope::solver::toi::ToiRule;
use collidescope::solver::{solve, Algorithm, Method, Outcome};

#[test]
fn a_parry_disagreement_is_flagged_with_both_numbers() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("scenes/parry_cuboid_disagreement.ron");
    let scene = Scene::load(&path).unwrap();
    let run = scene.run(collidescope::solver::Method::of(Algorithm::GJK));
    let Outcome::Separated { distance, .. } = run.summary.outcome else {
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
        Algorithm::GJK,
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
    let parry = parry_answer(&scene.a().shape, &scene.b().shape, &scene.b_in_a(), None);
    let agreement = compare(&run.summary, &scene.settings, &parry);
    let parry_is_right = (parry.distance - exact).abs() <= 2e-9;
    assert_eq!(agreement.agrees(), parry_is_right, "{agreement}");
    if !parry_is_right {
        assert!(matches!(agreement, Agreement::Disagree { .. }));
        assert!(agreement.to_string().contains("DISAGREES"));
    }
}

/// Time of impact: on every shipped scene with a motion (translating, turning, grazing,
/// overlapping at the start), each method's answer agrees with parry's cast
/// (`cast_shapes`, `cast_shapes_nonlinear` when B turns) within the bound the run
/// certifies, and a parry time moved by 1e-6 is flagged with both times.
#[test]
fn time_of_impact_runs_are_checked_against_parrys_cast() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("scenes");
    let (mut checked, mut flagged) = (0, 0);
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|e| e != "ron") {
            continue;
        }
        let scene = Scene::load(&path).unwrap();
        let Ok(Some(motion)) = scene.relative_motion() else {
            continue;
        };
        let (a, b) = (&scene.a().shape, &scene.b().shape);
        let parry = parry_answer(a, b, &scene.b_in_a(), Some(motion));
        let impact = parry.impact.clone().expect("parry has these shapes");
        for rule in [
            ToiRule::RayCast,
            ToiRule::Advancement,
            ToiRule::Halving,
            ToiRule::Brent,
        ] {
            let run = scene.run(Method::toi(rule));
            if matches!(run.summary.outcome, Outcome::NotApplicable { .. }) {
                continue; // B turns: only advancement takes it
            }
            let agreement = compare(&run.summary, &scene.settings, &parry);
            assert!(
                agreement.agrees(),
                "{} {rule:?}: {agreement}",
                path.display()
            );
            checked += 1;
            let Some(time) = impact.time else {
                continue;
            };
            let off = ParryAnswer {
                impact: Some(ParryImpact {
                    time: Some(time + 1e-6),
                    ..impact.clone()
                }),
                ..parry.clone()
            };
            let agreement = compare(&run.summary, &scene.settings, &off);
            assert!(
                matches!(agreement, Agreement::ImpactDisagrees { .. }),
                "{} {rule:?}: {agreement}",
                path.display()
            );
            flagged += 1;
        }
    }
    assert!(
        checked >= 12 && flagged >= 8,
        "{checked} checked, {flagged} flagged"
    );
}
