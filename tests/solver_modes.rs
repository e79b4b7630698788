//! Query modes, criteria and witness points, checked against closed forms.

use collidescope::minkowski::MinkowskiDifference;
use collidescope::pose::RelativePose;
use collidescope::shape::{Cuboid, Shape, Sphere};
use collidescope::solver::{
    solve, Algorithm, Criterion, CriterionKind, DirectionRule, InitialGuess, Outcome, QueryMode,
    SolverSettings, StepRule,
};
use collidescope::{DMat3, DVec3};

fn sphere(r: f64) -> Shape {
    Shape::Sphere(Sphere::new(r).unwrap())
}

fn at(t: DVec3) -> RelativePose {
    RelativePose::from_matrix(DMat3::IDENTITY, t)
}

#[test]
fn boolean_mode_stops_at_a_separating_plane() {
    let (a, b) = (sphere(1.0), sphere(0.5));
    let rel = at(DVec3::new(2.0, 1.0, 0.5));
    let true_distance = rel.translation.length() - 1.5;
    for algorithm in Algorithm::ALL {
        let boolean = SolverSettings {
            mode: QueryMode::Boolean { bound: 0.0 },
            ..SolverSettings::default()
        };
        let run = solve(algorithm, MinkowskiDifference::new(&a, &b, rel), boolean);
        match run.outcome {
            Outcome::SeparatedEarlyStop { lower_bound } => {
                assert!(
                    lower_bound > 0.0 && lower_bound <= true_distance + 1e-12,
                    "{algorithm}: {lower_bound}"
                )
            }
            other => panic!("{algorithm}: {other:?}"),
        }
        // Overlapping: no plane can separate them.
        let run = solve(
            algorithm,
            MinkowskiDifference::new(&a, &b, at(DVec3::new(1.2, 0.1, 0.0))),
            boolean,
        );
        assert!(
            matches!(
                run.outcome,
                Outcome::Intersecting | Outcome::IterationCap { .. }
            ),
            "{algorithm}: {:?}",
            run.outcome
        );
    }
}

#[test]
fn every_criterion_and_kind_meets_its_guarantee() {
    let (a, b) = (
        sphere(1.0),
        Shape::Cuboid(Cuboid::new(DVec3::new(0.3, 0.4, 0.5)).unwrap()),
    );
    let rel = at(DVec3::new(2.5, 0.2, 0.1));
    // Sphere–box: ‖c − clamp(c)‖ − r, with the sphere at the origin and the box at t.
    let expected = (-rel.translation
        - (-rel.translation).clamp(-DVec3::new(0.3, 0.4, 0.5), DVec3::new(0.3, 0.4, 0.5)))
    .length()
        - 1.0;
    for criterion in [
        Criterion::VanDenBergen,
        Criterion::DualityGap,
        Criterion::Hybrid,
    ] {
        for kind in [CriterionKind::Absolute, CriterionKind::Relative] {
            let settings = SolverSettings {
                tolerance: 1e-6,
                criterion,
                kind,
                max_iterations: 500,
                ..SolverSettings::default()
            };
            // What each test guarantees on ‖x‖ − d* here (ε = 1e-6, d* ≈ 1.2): the
            // absolute duality gap bounds ‖x − x*‖² by ε, so only √ε = 1e-3.
            let bound = if (criterion, kind) == (Criterion::DualityGap, CriterionKind::Absolute) {
                1e-3
            } else {
                2e-6
            };
            // Frank-Wolfe's plain rules zig-zag on the box's faces (a cap, by design).
            let algorithms = [
                Algorithm::Gjk(DirectionRule::Vanilla),
                Algorithm::Gjk(DirectionRule::Nesterov),
                Algorithm::Gjk(DirectionRule::NesterovNormalized),
                Algorithm::Gjk(DirectionRule::Polyak),
                Algorithm::FrankWolfe(StepRule::FullyCorrective),
            ];
            for algorithm in algorithms {
                let run = solve(algorithm, MinkowskiDifference::new(&a, &b, rel), settings);
                let Outcome::Separated { distance, .. } = run.outcome else {
                    panic!("{criterion:?} {kind:?} {algorithm}: {:?}", run.outcome)
                };
                assert!(
                    distance >= expected - 1e-12 && distance - expected <= bound,
                    "{criterion:?} {kind:?} {algorithm}: {distance} vs {expected}"
                );
            }
        }
    }
}

#[test]
fn witness_points_lie_on_the_shapes_and_span_the_distance() {
    let (a, b) = (sphere(1.0), sphere(0.5));
    let rel = at(DVec3::new(3.0, -1.0, 2.0));
    let run = solve(
        Algorithm::Gjk(DirectionRule::Vanilla),
        MinkowskiDifference::new(&a, &b, rel),
        SolverSettings {
            tolerance: 1e-14,
            criterion: Criterion::DualityGap,
            max_iterations: 1000,
            initial_guess: InitialGuess::UnitX,
            ..SolverSettings::default()
        },
    );
    let (pa, pb) = (run.witness_a.unwrap(), run.witness_b.unwrap());
    assert!((pa.length() - 1.0).abs() < 1e-6, "on A: {pa}");
    assert!(
        ((pb - rel.translation).length() - 0.5).abs() < 1e-6,
        "on B: {pb}"
    );
    let d = run.outcome.distance().unwrap();
    assert!(((pa - pb).length() - d).abs() < 1e-6);
    assert!((d - (rel.translation.length() - 1.5)).abs() < 1e-9);
}

#[test]
fn records_go_into_the_callers_buffer_or_nowhere() {
    use collidescope::solver::trace::Trace;
    use collidescope::solver::Method;
    let a = Shape::Cuboid(Cuboid::new(DVec3::new(0.5, 0.3, 0.2)).unwrap());
    let b = sphere(0.4);
    for rel in [
        at(DVec3::new(1.2, 0.3, -0.1)),
        at(DVec3::new(0.3, 0.1, 0.0)),
    ] {
        for method in Method::all() {
            let v = Some(DVec3::new(-2.0, 0.1, 0.0).into());
            let untraced = method.run(&a, &b, rel, v, SolverSettings::default(), false);
            let traced = method.run(&a, &b, rel, v, SolverSettings::default(), true);
            assert!(
                untraced.trace.is_empty(),
                "{method}: records without a buffer"
            );
            // Same answer, same support calls: recording changes nothing.
            assert_eq!(untraced.summary, traced.summary, "{method}");
            assert_eq!(traced.trace.family(), method.family());
        }
        // A buffer of another family becomes the solver's own.
        for algorithm in Algorithm::ALL {
            let mut buffer = Trace::new(collidescope::solver::epa::FAMILY);
            let md = MinkowskiDifference::new(&a, &b, rel);
            let summary = algorithm
                .solver(md, SolverSettings::default())
                .run(Some(&mut buffer));
            assert_eq!(buffer.family(), algorithm.family());
            assert!(!buffer.is_empty());
            let last = buffer.record(buffer.len() - 1).unwrap();
            assert_eq!(last.k(), summary.iterations, "{algorithm}");
        }
    }
}

#[test]
fn gjk_hands_its_final_simplex_on_with_the_parts_on_a_and_b() {
    let a = Shape::Cuboid(Cuboid::new(DVec3::new(0.5, 0.3, 0.2)).unwrap());
    let b = Shape::Cuboid(Cuboid::new(DVec3::new(0.4, 0.4, 0.4)).unwrap());
    let rotation = DMat3::from_rotation_z(0.4);
    for t in [DVec3::new(0.3, 0.1, 0.05), DVec3::new(1.5, 0.2, 0.1)] {
        let rel = RelativePose::from_matrix(rotation, t);
        let summary = solve(
            Algorithm::Gjk(DirectionRule::Vanilla),
            MinkowskiDifference::new(&a, &b, rel),
            SolverSettings::default(),
        );
        let simplex = summary.simplex.vertices();
        assert!(!simplex.is_empty());
        for v in simplex {
            let (pa, pb) = (v.point.a, v.point.b);
            // a is a point of A, b a point of B placed in A's frame; w = a − b.
            assert!(pa.abs().cmple(DVec3::new(0.5, 0.3, 0.2) + 1e-12).all());
            let local_b = rotation.transpose() * (pb - t);
            assert!(local_b.abs().cmple(DVec3::splat(0.4 + 1e-12)).all());
            assert!((v.point.w - (pa - pb)).length() < 1e-12);
        }
        if matches!(summary.outcome, Outcome::Intersecting) {
            assert_eq!(simplex.len(), 4, "an enclosing tetrahedron");
        }
    }
}
