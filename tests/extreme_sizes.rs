//! Pairs far below the unit: no verdict about other shapes. Spheres and boxes of size
//! 1e-170 to 1e-300 two sizes apart were called `intersecting` (their squared lengths
//! underflow to 0, and so did the exact predicates' products). Below the pair size floor
//! every method now says why it cannot answer; above it, down to 1e-70, the answers are
//! the closed forms', and the exact predicates decide enclosures of tiny points right.

use collidescope::pose::RelativePose;
use collidescope::shape::{Cuboid, Shape, Sphere};
use collidescope::solver::{points_enclose_origin, Method, Outcome, SolverSettings};
use collidescope::{DMat3, DVec3};

fn every_method_on(a: &Shape, b: &Shape, pose: RelativePose) -> Vec<(Method, Outcome)> {
    Method::all()
        .into_iter()
        .map(|m| {
            let run = m.run(a, b, pose, None, SolverSettings::default(), false);
            (m, run.summary.outcome)
        })
        .collect()
}

/// No claim of contact or overlap for shapes apart by two of their sizes.
fn claims_contact(outcome: &Outcome) -> bool {
    matches!(
        outcome,
        Outcome::Intersecting
            | Outcome::Penetrating { .. }
            | Outcome::Touching { .. }
            | Outcome::Contained
    ) || matches!(outcome, Outcome::Impact { time, .. } if *time <= 0.0)
}

#[test]
fn tiny_pairs_below_the_floor_are_never_called_touching() {
    for size in [1e-76, 1e-120, 1e-170, 1e-230, 1e-300, 5e-320] {
        let pairs = [
            (
                Shape::Sphere(Sphere::new(size).unwrap()),
                Shape::Sphere(Sphere::new(size).unwrap()),
            ),
            (
                Shape::Cuboid(Cuboid::new(DVec3::splat(size)).unwrap()),
                Shape::Cuboid(Cuboid::new(DVec3::new(size, size * 0.5, size)).unwrap()),
            ),
        ];
        for (a, b) in &pairs {
            // Centres four sizes apart: the shapes are two sizes apart.
            let pose = RelativePose::from_matrix(DMat3::IDENTITY, DVec3::new(4.0 * size, 0.0, 0.0));
            for (method, outcome) in every_method_on(a, b, pose) {
                assert!(
                    !claims_contact(&outcome),
                    "size {size:e}: {method} says {outcome}"
                );
                if let Outcome::Degenerate { reason } = &outcome {
                    assert!(reason.contains("scale"), "{method}: {reason}");
                }
            }
        }
    }
}

#[test]
fn small_pairs_above_the_floor_are_answered_right() {
    for size in [1e-70, 1e-40, 1e-20] {
        let a = Shape::Sphere(Sphere::new(size).unwrap());
        let b = Shape::Sphere(Sphere::new(size).unwrap());
        let apart = RelativePose::from_matrix(DMat3::IDENTITY, DVec3::new(4.0 * size, 0.0, 0.0));
        // A tolerance at the shapes' scale: the default absolute 1e-8 is passed by any
        // point of shapes 1e-70 across (an honest `contact`, but no distance).
        let relative = SolverSettings {
            tolerance: 1e-10 * size * size,
            ..SolverSettings::default()
        };
        let run = "gjk"
            .parse::<Method>()
            .unwrap()
            .run(&a, &b, apart, None, relative, false);
        let d = run.summary.outcome.distance().expect("a distance");
        assert!(
            run.summary.outcome.proves_apart(),
            "{}",
            run.summary.outcome
        );
        assert!(
            (d - 2.0 * size).abs() <= 1e-6 * size,
            "{d:e} vs {:e}",
            2.0 * size
        );
        let overlapping =
            RelativePose::from_matrix(DMat3::IDENTITY, DVec3::new(1.5 * size, 0.0, 0.0));
        let run = Method::epa().run(&a, &b, overlapping, None, SolverSettings::default(), false);
        match run.summary.outcome {
            Outcome::Penetrating { depth, .. } => {
                assert!((depth - 0.5 * size).abs() <= 1e-6 * size, "{depth:e}")
            }
            other => panic!("size {size:e}: {other}"),
        }
    }
}

/// The exact enclosure test on points 1e-170 to 1e-310 across: inside is inside,
/// outside (the origin two sizes off) is outside, whatever the products underflow to.
#[test]
fn exact_enclosures_of_tiny_points() {
    for size in [1e-170, 1e-250, 1e-300, 1e-310] {
        let tetrahedron = |shift: f64| {
            [
                DVec3::new(1.0, 0.0, -0.5),
                DVec3::new(-0.5, 0.9, -0.5),
                DVec3::new(-0.5, -0.9, -0.5),
                DVec3::new(0.0, 0.0, 1.0),
            ]
            .map(|p| (p + DVec3::new(shift, 0.0, 0.0)) * size)
        };
        assert_eq!(
            points_enclose_origin(&tetrahedron(0.0)),
            Some(true),
            "{size:e}"
        );
        assert_eq!(
            points_enclose_origin(&tetrahedron(3.0)),
            Some(false),
            "{size:e}"
        );
        assert_eq!(
            points_enclose_origin(&tetrahedron(-3.0)),
            Some(false),
            "{size:e}"
        );
        // A triangle and a segment through the origin (the flat cases).
        let flat = [
            DVec3::new(-1.0, -1.0, 0.0),
            DVec3::new(2.0, -1.0, 0.0),
            DVec3::new(-1.0, 2.0, 0.0),
        ]
        .map(|p| p * size);
        assert_eq!(points_enclose_origin(&flat), Some(true), "{size:e}");
        let off = flat.map(|p| p + DVec3::new(0.0, 0.0, size));
        assert_eq!(points_enclose_origin(&off), Some(false), "{size:e}");
    }
}

/// Pairs 1e76 to 1e300 apart: EPA called two unit boxes 1e200 apart "touching (depth
/// 0)" and GJK gave up with a non-finite point. Beyond the size cap every method (and
/// the midphase) says why it cannot answer, and a scene refuses such a translation
/// naming the body and the field.
#[test]
fn pairs_beyond_the_size_cap_are_refused_not_answered() {
    use collidescope::composite::{run_composite, Composite, Side, TriMesh};
    let unit = Shape::Cuboid(Cuboid::new(DVec3::splat(0.5)).unwrap());
    let mesh = Composite::of_mesh(
        TriMesh::new(vec![DVec3::ZERO, DVec3::X, DVec3::Y], vec![[0, 1, 2]]).unwrap(),
    )
    .unwrap();
    for offset in [1e76, 1e150, 1e200, 1e300] {
        let pose = RelativePose::from_matrix(DMat3::IDENTITY, DVec3::new(offset, 0.0, 0.0));
        for (method, outcome) in every_method_on(&unit, &unit, pose) {
            let Outcome::Degenerate { reason } = &outcome else {
                panic!("offset {offset:e}: {method} says {outcome}");
            };
            assert!(reason.contains("beyond 1e75"), "{method}: {reason}");
        }
        let run = run_composite(
            Side::Composite(&mesh),
            Side::Convex(&unit),
            pose,
            None,
            Method::epa(),
            SolverSettings::default(),
            false,
            None,
        );
        assert!(
            matches!(&run.answer.outcome, Outcome::Degenerate { reason } if reason.contains("beyond 1e75")),
            "{:?}",
            run.answer.outcome
        );
    }
    // Just inside the cap, an answer.
    let pose = RelativePose::from_matrix(DMat3::IDENTITY, DVec3::new(1e74, 0.0, 0.0));
    let run = Method::epa().run(&unit, &unit, pose, None, SolverSettings::default(), false);
    assert!(
        run.summary.outcome.proves_apart(),
        "{}",
        run.summary.outcome
    );
}

#[test]
fn a_scene_refuses_a_translation_beyond_the_cap() {
    let text = "(version: 2, name: \"far\", bodies: [\
        (shape: Sphere(radius: 1.0)),\
        (shape: Sphere(radius: 1.0), translation: (0.0, 1e200, 0.0))],\
        algorithms: [\"gjk\"])";
    let error = collidescope::scene::Scene::parse(std::path::Path::new("far.ron"), text)
        .unwrap_err()
        .to_string();
    assert!(
        error.contains("far.ron")
            && error.contains("shape b")
            && error.contains("translation 1e200"),
        "{error}"
    );
}
