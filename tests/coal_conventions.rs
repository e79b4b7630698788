//! `supports: Coal`: the distance solvers run on Coal's cores with Coal's
//! supports, so that a query brought from Coal takes Coal's iterations (python/tests
//! compares the counts with Coal's own GJK). Here, against independent answers: the
//! verdicts and distances are those of exact runs on the whole shapes (another path:
//! no cores, exact supports) and of parry3d-f64, including the runs where Coal's dead
//! zone left the exact supports.

mod common;

use collidescope::cross_check::{compare, parry_answer, Agreement};
use collidescope::minkowski::MinkowskiDifference;
use collidescope::pose::{Pose, RelativePose};
use collidescope::shape::{Cuboid, Shape};
use collidescope::solver::distance::coal_replay::without_radii;
use collidescope::solver::{
    solve, Algorithm, Criterion, CriterionKind, DirectionRule, InitialGuess, Method, Outcome,
    SolverSettings, SupportRule,
};
use collidescope::DVec3;
use common::{random_primitive, Rng};

fn coal_settings() -> SolverSettings {
    SolverSettings {
        tolerance: 1e-8,
        criterion: Criterion::DualityGap,
        kind: CriterionKind::Absolute,
        max_iterations: 1000,
        initial_guess: InitialGuess::OriginDifference,
        supports: SupportRule::Coal,
        ..SolverSettings::default()
    }
}

/// Sphere, ellipsoid, box, capsule, cylinder, cone, polytope, dilated box: Coal's kinds.
const COAL_KINDS: [usize; 8] = [1, 2, 3, 4, 5, 6, 8, 9];

#[test]
fn coal_conventions_give_the_exact_runs_verdicts_and_distances() {
    let mut rng = Rng::new(29);
    let settings = coal_settings();
    let exact = SolverSettings {
        supports: SupportRule::Exact,
        tolerance: 1e-12,
        ..settings
    };
    let (mut apart, mut overlapping) = (0, 0);
    for &kind_a in &COAL_KINDS {
        for &kind_b in &COAL_KINDS {
            for _ in 0..12 {
                let a = random_primitive(&mut rng, kind_a);
                let b = random_primitive(&mut rng, kind_b);
                let pose = Pose::new(rng.vector(1.2), rng.rotation());
                let b_in_a = RelativePose::between(&Pose::IDENTITY, &pose);
                for rule in [DirectionRule::Vanilla, DirectionRule::Nesterov] {
                    let method = Method::of(Algorithm::Gjk(rule));
                    let coal = method.run(&a, &b, b_in_a, None, settings, false).summary;
                    let md = MinkowskiDifference::new(&a, &b, b_in_a);
                    let oracle = solve(Algorithm::Gjk(DirectionRule::Vanilla), md, exact);
                    let what = format!(
                        "{a:?} {b:?} {rule:?}: {} / {}",
                        coal.outcome, oracle.outcome
                    );
                    match (&coal.outcome, &oracle.outcome) {
                        (
                            Outcome::Separated {
                                distance,
                                lower_bound,
                            },
                            Outcome::Separated { distance: d, .. },
                        ) => {
                            // ‖x − x*‖ ≤ √ε bounds the distance's error.
                            assert!((distance - d).abs() <= 1e-4 + 1e-12, "{what}");
                            assert!(*lower_bound > 0.0 && *lower_bound <= d + 1e-9, "{what}");
                            apart += 1;
                        }
                        (Outcome::Intersecting, Outcome::Intersecting) => overlapping += 1,
                        // A contact verdict is honest on either side of a hair.
                        (Outcome::Contact { distance }, _) => {
                            assert!(
                                oracle.outcome.distance().unwrap_or(0.0) <= distance + 1e-4,
                                "{what}"
                            )
                        }
                        (_, Outcome::Contact { distance }) => assert!(*distance < 1e-4, "{what}"),
                        _ => panic!("verdicts differ: {what}"),
                    }
                    // Witness points: on the shapes' surfaces, as far apart as the distance.
                    if let (Outcome::Separated { distance, .. }, Some(wa), Some(wb)) =
                        (&coal.outcome, coal.witness_a, coal.witness_b)
                    {
                        assert!(((wa - wb).length() - distance).abs() < 1e-6, "{what}");
                    }
                    // parry3d-f64 too, where it agrees with the exact run (its own
                    // failures are tests/cross_check.rs's subject).
                    let parry = parry_answer(&a, &b, &b_in_a, None);
                    if compare(&oracle, &exact, &parry).agrees() {
                        let agreement = compare(&coal, &settings, &parry);
                        let comparable = !matches!(agreement, Agreement::NotComparable(_));
                        assert!(agreement.agrees() || !comparable, "{what}: {agreement}");
                    }
                }
            }
        }
    }
    assert!(
        apart > 300 && overlapping > 300,
        "{apart} apart, {overlapping} overlapping"
    );
}

#[test]
fn a_direction_in_the_dead_zone_is_answered_by_an_exact_run() {
    // B straight above A but for 1e-13 along x: Coal's supports take that component as
    // zero (a point of the box's face, not its corner), a departure from the exact ones.
    let a = Shape::Cuboid(Cuboid::new(DVec3::new(0.5, 0.5, 0.5)).unwrap());
    let b = a.clone();
    let pose = Pose::from_translation(DVec3::new(1e-13, 1.3, 0.0));
    let b_in_a = RelativePose::between(&Pose::IDENTITY, &pose);
    let method = Method::of(Algorithm::Gjk(DirectionRule::Vanilla));
    let run = method.run(&a, &b, b_in_a, None, coal_settings(), true);
    assert!(
        run.summary.stats.coal_departures > 0,
        "{:?}",
        run.summary.stats
    );
    let Outcome::Separated {
        distance,
        lower_bound,
    } = run.summary.outcome
    else {
        panic!("{}", run.summary.outcome);
    };
    assert!(
        (distance - 0.3).abs() < 1e-9 && lower_bound > 0.29,
        "{distance} {lower_bound}"
    );
}

#[test]
fn spheres_run_as_their_centres_in_one_step() {
    // Coal's sphere is a point with a swept radius: two spheres are one support apart.
    let a = Shape::Sphere(collidescope::shape::Sphere::new(0.5).unwrap());
    let b = Shape::Sphere(collidescope::shape::Sphere::new(0.25).unwrap());
    let pose = Pose::from_translation(DVec3::new(1.0, 0.5, -0.25));
    let b_in_a = RelativePose::between(&Pose::IDENTITY, &pose);
    let method = Method::of(Algorithm::Gjk(DirectionRule::Vanilla));
    let run = method
        .run(&a, &b, b_in_a, None, coal_settings(), true)
        .summary;
    let expected = DVec3::new(1.0, 0.5, -0.25).length() - 0.75;
    let Outcome::Separated {
        distance,
        lower_bound,
    } = run.outcome
    else {
        panic!("{}", run.outcome);
    };
    // The bracket holds the closed form and is as narrow as round-off allows.
    assert!(
        lower_bound <= expected && expected <= distance && distance - lower_bound < 1e-13,
        "[{lower_bound}, {distance}] vs {expected}"
    );
    assert!(run.iterations <= 1, "{} iterations", run.iterations);
    // The witness points lie on the spheres.
    let (wa, wb) = (run.witness_a.unwrap(), run.witness_b.unwrap());
    assert!((wa.length() - 0.5).abs() < 1e-12);
    assert!(((wb - pose.translation).length() - 0.25).abs() < 1e-12);
}

#[test]
fn the_radii_come_off_every_bound() {
    let separated = Outcome::Separated {
        distance: 1.0,
        lower_bound: 0.9,
    };
    assert_eq!(
        without_radii(separated.clone(), 0.5),
        Outcome::Separated {
            distance: 0.5,
            lower_bound: 0.4
        }
    );
    // The plane no longer separates, the point is still apart: contact.
    assert_eq!(
        without_radii(separated.clone(), 0.95),
        Outcome::Contact {
            distance: 1.0 - 0.95
        }
    );
    // Two core points closer than the radii: the balls around them overlap.
    assert_eq!(without_radii(separated, 1.5), Outcome::Intersecting);
    assert_eq!(
        without_radii(Outcome::Contact { distance: 1e-9 }, 0.1),
        Outcome::Intersecting
    );
}

/// Every kind, Coal's or not, degenerate sizes included (a zero radius, a flat box, a
/// segment-thin cylinder, far from the origin), runs under Coal's conventions without a
/// panic and with the exact run's verdict (a hair's contact aside).
#[test]
fn every_kind_and_degenerate_size_runs_under_coal_conventions() {
    use collidescope::shape::{Capsule, Cylinder, Dilated, Sphere};
    let mut rng = Rng::new(31);
    let mut shapes: Vec<Shape> = (0..common::PRIMITIVE_KINDS)
        .map(|k| random_primitive(&mut rng, k))
        .collect();
    shapes.extend([
        Shape::Sphere(Sphere::new(0.0).unwrap()),
        Shape::Cuboid(Cuboid::new(DVec3::new(0.5, 0.0, 0.3)).unwrap()),
        Shape::Cylinder(Cylinder::new(1e-9, 0.4).unwrap()),
        Shape::Capsule(Capsule::new(0.2, 0.0).unwrap()),
        Shape::Dilated(Dilated::new(Shape::Sphere(Sphere::new(0.1).unwrap()), 0.1).unwrap()),
    ]);
    let settings = coal_settings();
    let exact = SolverSettings {
        supports: SupportRule::Exact,
        ..settings
    };
    for a in &shapes {
        for b in &shapes {
            for far in [0.0, 1e4] {
                let pose = Pose::new(rng.vector(0.8) + DVec3::splat(far), rng.rotation());
                let b_in_a = RelativePose::between(
                    &Pose::new(DVec3::splat(far), glam::DQuat::IDENTITY),
                    &pose,
                );
                let method = Method::of(Algorithm::Gjk(DirectionRule::Vanilla));
                let coal = method
                    .run(a, b, b_in_a, None, settings, true)
                    .summary
                    .outcome;
                let reference = method.run(a, b, b_in_a, None, exact, false).summary.outcome;
                // Never one proved apart where the other proved an overlap.
                let contradicts = |x: &Outcome, y: &Outcome| {
                    x.proves_apart() && matches!(y, Outcome::Intersecting)
                };
                assert!(
                    !contradicts(&coal, &reference) && !contradicts(&reference, &coal),
                    "{a:?} {b:?}: {coal} / {reference}"
                );
            }
        }
    }
}
