//! The LP methods (issue 11, in progress) through the method table: verdicts against
//! GJK, containment against the corners' exact test, honest not_applicable.

mod common;

use collidescope::pose::{Pose, RelativePose};
use collidescope::shape::{Cuboid, Polytope, Shape, Sphere};
use collidescope::solver::{Method, Outcome, SolverSettings};
use collidescope::{DQuat, DVec3};

fn run(method: Method, a: &Shape, b: &Shape, rel: RelativePose) -> Outcome {
    method
        .run(a, b, rel, None, SolverSettings::default(), true)
        .summary
        .outcome
}

#[test]
fn lp_verdicts_agree_with_gjk_on_boxes_and_hulls() {
    let a = Shape::Cuboid(Cuboid::new(DVec3::new(0.5, 0.4, 0.3)).unwrap());
    let points: Vec<DVec3> = (0..30)
        .map(|i| {
            let t = i as f64 * 0.7;
            DVec3::new(t.sin(), (1.3 * t).cos(), (0.7 * t).sin()) * 0.4
        })
        .collect();
    let b = Shape::Polytope(Polytope::from_points(&points).unwrap());
    for k in 0..60 {
        let angle = k as f64 * 0.21;
        let pose_b = Pose::new(
            DVec3::new(angle.cos(), 0.5 * angle.sin(), 0.3 * (2.0 * angle).cos())
                * (0.3 + k as f64 * 0.02),
            DQuat::from_euler(glam::EulerRot::XYZ, angle, 0.5 * angle, 0.2),
        );
        let rel = RelativePose::between(&Pose::IDENTITY, &pose_b);
        let gjk = run(
            Method::Solver(collidescope::solver::Algorithm::ALL[0]),
            &a,
            &b,
            rel,
        );
        let d = gjk.distance().unwrap();
        if d > 0.0 && d < 1e-9 {
            continue;
        }
        match (run(Method::Lp, &a, &b, rel), gjk) {
            (Outcome::Intersecting, Outcome::Intersecting) => {}
            (Outcome::SeparatingPlane { gap, .. }, Outcome::Separated { distance }) => {
                assert!(
                    gap > 0.0 && gap <= distance + 1e-9,
                    "{k}: gap {gap} vs {distance}"
                )
            }
            (lp, gjk) => panic!("pose {k}: LP {lp}, GJK {gjk}"),
        }
    }
}

#[test]
fn containment_names_the_corner_outside_and_curved_shapes_are_refused() {
    let big = Shape::Cuboid(Cuboid::new(DVec3::new(0.8, 0.5, 0.5)).unwrap());
    let small = Shape::Cuboid(Cuboid::new(DVec3::new(0.6, 0.2, 0.2)).unwrap());
    let turned = |x: f64| {
        let pose = Pose::from_euler_degrees(DVec3::new(x, 0.0, 0.0), DVec3::new(0.0, 0.0, 30.0));
        // A is the small box (turned), B the big one at the origin.
        RelativePose::between(&pose, &Pose::IDENTITY)
    };
    assert_eq!(
        run(Method::LpContainment, &small, &big, turned(0.1)),
        Outcome::Contained
    );
    assert!(matches!(
        run(Method::LpContainment, &small, &big, turned(0.4)),
        Outcome::NotContained { .. }
    ));
    let ball = Shape::Sphere(Sphere::new(1.0).unwrap());
    let outcome = run(Method::Lp, &ball, &big, turned(0.0));
    assert_eq!(outcome.status_name(), "not_applicable", "{outcome}");
}

#[test]
fn lp_sample_verdicts_and_containment_are_the_exact_ones() {
    let Some(dir) = common::shared_data("problems") else {
        return;
    };
    let path = dir.join("lp_sample.json");
    let file = collidescope::bench::problems::ProblemFile::load(&path).unwrap();
    let shapes = file.build_shapes().unwrap();
    let truths: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    for (i, p) in file.problems.iter().enumerate() {
        let truth = &truths["problems"][i];
        let (a, b, rel) = (&shapes[p.a], &shapes[p.b], p.b_in_a());
        let label = format!("problem {i} ({})", truth["origin"]);
        let verdict = run(Method::Lp, a, b, rel);
        match truth["truth"].as_str().unwrap() {
            "separated" => assert!(
                matches!(verdict, Outcome::SeparatingPlane { .. }),
                "{label}: {verdict}"
            ),
            "intersecting" => assert_eq!(verdict, Outcome::Intersecting, "{label}"),
            _ => {} // touching: either verdict
        }
        if let Some(expected) = truth["containment_truth"].as_str() {
            let got = run(Method::LpContainment, a, b, rel);
            assert_eq!(got.status_name(), expected, "{label}: {got}");
        }
    }
}
