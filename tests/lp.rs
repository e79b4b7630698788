//! The LP methods through the method table: verdicts against
//! GJK, containment against the corners' exact test, honest not_applicable.

mod common;

use collidescope::pose::{Pose, RelativePose};
use collidescope::shape::{Cuboid, Polytope, Shape, Sphere};
use collidescope::solver::lp::Simplex;
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
            Method::of(collidescope::solver::Algorithm::GJK),
            &a,
            &b,
            rel,
        );
        let d = gjk.distance().unwrap();
        if d > 0.0 && d < 1e-9 {
            continue;
        }
        for simplex in [Simplex::Tableau, Simplex::Revised] {
            match (run(Method::lp(simplex), &a, &b, rel), &gjk) {
                (Outcome::Intersecting, Outcome::Intersecting) => {}
                (Outcome::SeparatingPlane { gap, .. }, Outcome::Separated { distance, .. }) => {
                    assert!(
                        gap > 0.0 && gap <= distance + 1e-9,
                        "{k}: gap {gap} vs {distance}"
                    )
                }
                (lp, gjk) => panic!("pose {k}, {simplex:?}: LP {lp}, GJK {gjk}"),
            }
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
        run(Method::lp_containment(), &small, &big, turned(0.1)),
        Outcome::Contained
    );
    assert!(matches!(
        run(Method::lp_containment(), &small, &big, turned(0.4)),
        Outcome::NotContained { .. }
    ));
    let ball = Shape::Sphere(Sphere::new(1.0).unwrap());
    let outcome = run(Method::lp(Simplex::Tableau), &ball, &big, turned(0.0));
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
        let verdict = run(Method::lp(Simplex::Tableau), a, b, rel);
        match truth["truth"].as_str().unwrap() {
            "separated" => assert!(
                matches!(verdict, Outcome::SeparatingPlane { .. }),
                "{label}: {verdict}"
            ),
            "intersecting" => assert_eq!(verdict, Outcome::Intersecting, "{label}"),
            _ => {} // touching: either verdict
        }
        if let Some(expected) = truth["containment_truth"].as_str() {
            let got = run(Method::lp_containment(), a, b, rel);
            assert_eq!(got.status_name(), expected, "{label}: {got}");
        }
    }
}

#[test]
fn touching_faces_and_large_hulls_get_certified_verdicts() {
    // Boxes whose faces touch exactly, and edges crossing at a point: either verdict
    // is right, but it must be a certified one.
    let a = Shape::Cuboid(Cuboid::new(DVec3::new(0.5, 0.5, 0.5)).unwrap());
    for (t, turn) in [
        (DVec3::new(1.0, 0.2, 0.1), DQuat::IDENTITY),
        (
            DVec3::new(0.5 + 0.5 * 2f64.sqrt(), 0.0, 0.0),
            DQuat::from_rotation_y(std::f64::consts::FRAC_PI_4)
                * DQuat::from_rotation_x(std::f64::consts::FRAC_PI_4),
        ),
    ] {
        let rel = RelativePose::between(&Pose::IDENTITY, &Pose::new(t, turn));
        for simplex in [Simplex::Tableau, Simplex::Revised] {
            let outcome = run(Method::lp(simplex), &a, &a, rel);
            assert!(
                matches!(
                    outcome,
                    Outcome::Intersecting | Outcome::SeparatingPlane { .. }
                ),
                "{outcome}"
            );
        }
    }
    // 1500-point hulls against GJK.
    let cloud = |seed: f64, centre: DVec3| -> Vec<DVec3> {
        (0..1500)
            .map(|i| {
                let u = (i as f64 + 0.5) / 1500.0;
                let (z, phi) = (1.0 - 2.0 * u, i as f64 * 2.399_963 + seed);
                let r = (1.0 - z * z).sqrt();
                centre + DVec3::new(r * phi.cos(), r * phi.sin(), z)
            })
            .collect()
    };
    let big = Shape::Polytope(Polytope::from_points(&cloud(0.0, DVec3::ZERO)).unwrap());
    for (gap, expect_hit) in [(2.05, false), (1.95, true)] {
        let other = Shape::Polytope(Polytope::from_points(&cloud(0.3, DVec3::ZERO)).unwrap());
        let rel = RelativePose::between(
            &Pose::IDENTITY,
            &Pose::new(DVec3::new(gap, 0.0, 0.0), DQuat::IDENTITY),
        );
        let revised = run(Method::lp(Simplex::Revised), &big, &other, rel);
        assert_eq!(matches!(revised, Outcome::Intersecting), expect_hit);
        let lp = run(Method::lp(Simplex::Tableau), &big, &other, rel);
        let gjk = run(
            Method::of(collidescope::solver::Algorithm::GJK),
            &big,
            &other,
            rel,
        );
        assert_eq!(
            matches!(lp, Outcome::Intersecting),
            expect_hit,
            "{gap}: {lp}"
        );
        assert_eq!(
            matches!(gjk, Outcome::Intersecting),
            expect_hit,
            "{gap}: {gjk}"
        );
    }
}

/// An optimum within the LP's tolerance is no proof: boxes 4.5e-10 apart at a scale of
/// 445 passed it and were called intersecting. Faces a hair apart, exactly flush and a
/// hair overlapping, scaled from 1e-3 to 1e3: `intersecting` only where exact signs put
/// the origin in `A ⊖ B` (flush faces touch, closed sets), never where GJK proves a gap.
#[test]
fn hairline_gaps_are_not_called_intersecting() {
    let gjk = Method::of(collidescope::solver::Algorithm::GJK);
    for scale in [1e-3, 1.0, 445.0, 1e3] {
        let (ha, hb) = (
            DVec3::new(0.7, 0.3, 0.2) * scale,
            DVec3::new(0.4, 0.5, 0.1) * scale,
        );
        let (a, b) = (
            Shape::Cuboid(Cuboid::new(ha).unwrap()),
            Shape::Cuboid(Cuboid::new(hb).unwrap()),
        );
        for relative_gap in [1e-12, 1e-10, 0.0, -1e-12, -1e-10] {
            let x = ha.x + hb.x;
            let t = DVec3::new(x + relative_gap * x, 0.1 * ha.y, -0.05 * ha.z);
            let rel = RelativePose::between(&Pose::IDENTITY, &Pose::new(t, DQuat::IDENTITY));
            // The faces' true gap in these floats.
            let gap = (t.x - hb.x) - ha.x;
            let by_gjk = run(gjk, &a, &b, rel);
            for simplex in [Simplex::Tableau, Simplex::Revised] {
                let outcome = run(Method::lp(simplex), &a, &b, rel);
                let label =
                    format!("scale {scale}, gap {gap:e}, {simplex:?}: {outcome} (GJK {by_gjk})");
                match outcome {
                    Outcome::Intersecting => assert!(gap <= 0.0, "{label}"),
                    Outcome::SeparatingPlane { gap: plane, .. } => {
                        assert!(gap > 0.0 && plane <= gap * (1.0 + 1e-9), "{label}")
                    }
                    // A bound on the distance: the shapes are `gap` apart (both
                    // rounded: a few ulps of the scale).
                    Outcome::Contact { distance } => {
                        let ulps = 8.0 * f64::EPSILON * scale;
                        assert!(
                            distance <= 1e-8 * scale && distance >= gap - ulps,
                            "{label}"
                        )
                    }
                    other => panic!("{label}: {other}"),
                }
                if gap < 0.0 {
                    assert!(matches!(outcome, Outcome::Intersecting), "{label}");
                }
            }
        }
    }
}

/// Containment a hair off: a cube whose +x face lies 1e-14 beyond the big cube's. The
/// vertex test's optimum is within its tolerance and no exact sign decides, so the answer
/// is `contact`, and its distance bounds the gap from above (points of the hulls, the
/// weights made convex; the scaled problem's points once said 1.5e-15 for a gap of 1e-14).
#[test]
fn containment_a_hair_off_is_contact_with_a_true_bound() {
    let small = Shape::Cuboid(Cuboid::new(DVec3::splat(0.25)).unwrap());
    let big = Shape::Cuboid(Cuboid::new(DVec3::ONE).unwrap());
    for x in [0.75000000000001, 0.7500000000001, 0.75000000001] {
        let rel = RelativePose::between(
            &Pose::new(DVec3::new(x, 0.0, 0.0), DQuat::IDENTITY),
            &Pose::IDENTITY,
        );
        // The vertex's excess over the face, exactly (Sterbenz): x + 0.25 − 1 = x − 0.75.
        let gap = x - 0.75;
        match run(Method::lp_containment(), &small, &big, rel) {
            Outcome::Contact { distance } => assert!(distance >= gap, "{x}: {distance} < {gap}"),
            Outcome::NotContained { .. } => {}
            other => panic!("{x}: {other}"),
        }
    }
}

/// A body in its identical twin, both turned and moved the same way: inside, proved by
/// exact signs (the relative pose is exactly the identity; `R_aᵀ R_b` rounded a hair
/// off it and the answer was `contact`). A twin moved by a hair is not inside.
#[test]
fn containment_in_an_identical_twin_is_proved() {
    let mut rng = common::Rng::new(0x7a1d);
    for case in 0..60 {
        let a = if case % 2 == 0 {
            Shape::Cuboid(Cuboid::new(rng.vector(0.5).abs() + DVec3::splat(0.05)).unwrap())
        } else {
            let points: Vec<DVec3> = (0..12 + rng.index(20)).map(|_| rng.vector(1.0)).collect();
            Shape::Polytope(Polytope::from_points(&points).unwrap())
        };
        let pose = Pose::new(rng.vector(3.0), rng.rotation());
        let rel = RelativePose::between(&pose, &pose);
        assert_eq!(
            run(Method::lp_containment(), &a, &a, rel),
            Outcome::Contained,
            "case {case}"
        );
        let moved = Pose::new(pose.translation + DVec3::new(1e-3, 0.0, 0.0), pose.rotation);
        let rel = RelativePose::between(&pose, &moved);
        assert!(
            matches!(
                run(Method::lp_containment(), &a, &a, rel),
                Outcome::NotContained { .. }
            ),
            "case {case}: a twin moved by 1e-3 holds A"
        );
    }
}
