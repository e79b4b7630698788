use glam::{DMat3, DQuat, DVec3};

use super::*;
use crate::minkowski::MinkowskiDifference;
use crate::pose::{Pose, RelativePose};
use crate::rng::SplitMix64;
use crate::shape::implicit::{Constraint, ImplicitBody, Primitive};
use crate::shape::{Cuboid, Ellipsoid, Polytope, Shape, Sphere, Superellipsoid};
use crate::solver::{solve, Algorithm, DirectionRule, SolverSettings};

fn body(shape: &Shape, pose: RelativePose) -> ImplicitBody {
    ImplicitBody::of_shape(shape).unwrap().moved(pose)
}

fn gjk_distance(a: &Shape, b: &Shape, rel: RelativePose) -> f64 {
    let settings = SolverSettings {
        tolerance: 1e-14,
        max_iterations: 5000,
        ..SolverSettings::default()
    };
    let md = MinkowskiDifference::new(a, b, rel);
    solve(Algorithm::Gjk(DirectionRule::Vanilla), md, settings)
        .outcome
        .distance()
        .unwrap()
}

fn ip(a: &ImplicitBody, b: &ImplicitBody) -> IpAnswer {
    distance(a, b, IpSettings::default(), None).unwrap()
}

/// Each of the first `firsts` shapes against every shape, at `poses` random poses within
/// `reach`: [`agrees_with_gjk`] on each. How many answered "separated".
fn pairs_agree_with_gjk(
    shapes: &[Shape],
    firsts: usize,
    poses: usize,
    reach: f64,
    tolerance: f64,
    rng: &mut SplitMix64,
) -> usize {
    let mut separated = 0;
    for i in 0..firsts {
        let a = ImplicitBody::of_shape(&shapes[i]).unwrap();
        for (j, shape_b) in shapes.iter().enumerate() {
            for _ in 0..poses {
                let rel = random_pose(rng, reach);
                let truth = gjk_distance(&shapes[i], shape_b, rel);
                let b = body(shape_b, rel);
                separated +=
                    agrees_with_gjk(&a, &b, truth, tolerance, &format!("{i}-{j}")) as usize;
            }
        }
    }
    separated
}

/// The interior point's answer for `a` and `b` checked against GJK's distance `truth`
/// (within `tolerance`·max(1, d); a capped run's bracket must hold it): whether it
/// answered "separated".
fn agrees_with_gjk(
    a: &ImplicitBody,
    b: &ImplicitBody,
    truth: f64,
    tolerance: f64,
    label: &str,
) -> bool {
    match ip(a, b).summary.outcome {
        Outcome::Separated { distance, .. } => {
            assert!(
                (distance - truth).abs() <= tolerance * truth.max(1.0),
                "{label}: {distance} vs GJK {truth}"
            );
            true
        }
        Outcome::Intersecting => {
            assert!(truth == 0.0, "{label}: GJK {truth}");
            false
        }
        Outcome::IterationCap {
            lower_bound,
            upper_bound,
        } => {
            assert!(
                lower_bound <= truth + 1e-9 && truth <= upper_bound + 1e-9,
                "{label}: [{lower_bound}, {upper_bound}] misses {truth}"
            );
            false
        }
        other => panic!("{label}: {other} (GJK {truth})"),
    }
}

fn random_pose(rng: &mut SplitMix64, reach: f64) -> RelativePose {
    let q = DQuat::from_axis_angle(rng.unit_vector(), rng.range(0.0, 3.0));
    let pose = Pose::new(rng.unit_vector() * rng.range(0.0, reach), q);
    RelativePose::between(&Pose::IDENTITY, &pose)
}

#[test]
fn sphere_pairs_match_the_closed_form() {
    let (r1, r2) = (0.7, 0.4);
    let a = ImplicitBody::of_shape(&Shape::Sphere(Sphere::new(r1).unwrap())).unwrap();
    let ball = Shape::Sphere(Sphere::new(r2).unwrap());
    for gap in [1.0, 0.1, 1e-3, 1e-6, -0.05] {
        let centre = DVec3::new(0.3, -0.5, 0.8).normalize() * (r1 + r2 + gap);
        let b = body(&ball, RelativePose::from_matrix(DMat3::IDENTITY, centre));
        let answer = ip(&a, &b);
        match answer.summary.outcome {
            Outcome::Separated { distance, .. } => {
                assert!(gap > 0.0);
                assert!(
                    (distance - gap).abs() <= 1e-7 * gap.max(1.0),
                    "{gap}: {distance}"
                );
                assert!(answer.extras.lower <= gap + 1e-12 && gap <= answer.extras.upper + 1e-12);
            }
            Outcome::Intersecting => assert!(gap < 0.0),
            other => panic!("gap {gap}: {other}"),
        }
    }
}

#[test]
fn a_sphere_and_a_box_match_the_clamped_centre() {
    let half = DVec3::new(0.5, 0.3, 0.8);
    let a = ImplicitBody::of_shape(&Shape::Cuboid(Cuboid::new(half).unwrap())).unwrap();
    let ball = Shape::Sphere(Sphere::new(0.25).unwrap());
    let mut rng = SplitMix64::new(4);
    for _ in 0..40 {
        let centre = rng.unit_vector() * rng.range(0.9, 2.0);
        let exact = (centre - centre.clamp(-half, half)).length() - 0.25;
        if exact.abs() < 1e-6 {
            continue;
        }
        let b = body(&ball, RelativePose::from_matrix(DMat3::IDENTITY, centre));
        match ip(&a, &b).summary.outcome {
            Outcome::Separated { distance, .. } => {
                assert!((distance - exact).abs() <= 1e-7, "{distance} vs {exact}")
            }
            Outcome::Intersecting => assert!(exact < 0.0),
            other => panic!("{other}"),
        }
    }
}

#[test]
fn distances_match_gjk_on_ellipsoids_superellipsoids_and_hulls() {
    let mut rng = SplitMix64::new(9);
    let shapes = [
        Shape::Ellipsoid(Ellipsoid::new(DVec3::new(1.0, 0.6, 0.8)).unwrap()),
        Shape::Superellipsoid(Superellipsoid::new(DVec3::new(0.9, 0.5, 0.7), 4.0).unwrap()),
        Shape::Superellipsoid(Superellipsoid::new(DVec3::new(0.6, 0.8, 0.5), 1.5).unwrap()),
        Shape::Cuboid(Cuboid::new(DVec3::new(0.4, 0.7, 0.3)).unwrap()),
        Shape::Polytope(
            Polytope::from_points(
                &(0..40)
                    .map(|i| {
                        let t = i as f64 * 0.77;
                        DVec3::new(t.sin(), (1.3 * t).cos(), (0.7 * t).sin()) * 0.6
                    })
                    .collect::<Vec<_>>(),
            )
            .unwrap(),
        ),
    ];
    let checked = pairs_agree_with_gjk(&shapes, shapes.len(), 6, 2.5, 1e-7, &mut rng);
    assert!(checked > 40, "{checked}");
}

/// A mesh hull of thousands of faces (the epa sample's hulls have up to 1562 vertices):
/// its body is bounded by the hull's own box, exactly, and the interior point answers as
/// GJK does. The box used to come from enumerating the face planes' vertices, quartic in
/// their number: hours for such a hull.
#[test]
fn a_hull_of_thousands_of_faces_is_answered() {
    let mut rng = SplitMix64::new(4);
    let points: Vec<DVec3> = (0..1500)
        .map(|_| rng.unit_vector() * DVec3::new(0.9, 0.6, 0.4))
        .collect();
    let hull = Shape::Polytope(Polytope::from_points(&points).unwrap());
    let Shape::Polytope(polytope) = &hull else {
        unreachable!()
    };
    assert!(polytope.faces().len() > 1000, "{}", polytope.faces().len());
    let a = ImplicitBody::of_shape(&hull).unwrap();
    let aabb = hull.local_aabb();
    assert_eq!(a.bounds(), (aabb.min, aabb.max));
    let ball = Shape::Ellipsoid(Ellipsoid::new(DVec3::new(0.3, 0.2, 0.25)).unwrap());
    let mut separated = 0;
    for _ in 0..4 {
        let rel = random_pose(&mut rng, 1.6);
        let truth = gjk_distance(&hull, &ball, rel);
        separated += agrees_with_gjk(&a, &body(&ball, rel), truth, 1e-7, "hull") as usize;
    }
    assert!(separated > 0);
}

#[test]
fn an_empty_intersection_is_refused() {
    let place = |x: f64| {
        Constraint::placed(
            Primitive::Quadric {
                q: DMat3::IDENTITY,
                b: DVec3::ZERO,
                c: -1.0,
            },
            DMat3::IDENTITY,
            DVec3::new(x, 0.0, 0.0),
        )
    };
    let apart = ImplicitBody::new(vec![place(0.0), place(2.5)]);
    match apart {
        Err(ImplicitError::Empty(_)) => {}
        Ok(body) => assert!(matches!(
            interior_point(&body),
            Err(ImplicitError::Empty(_))
        )),
        Err(other) => panic!("{other}"),
    }
    // Two balls overlapping a little: a lens, with an interior point in both.
    let lens = ImplicitBody::new(vec![place(0.0), place(1.9)]).unwrap();
    let p = interior_point(&lens).unwrap();
    assert!(lens.max_violation(p) < 0.0);
}

#[test]
fn a_warm_start_gives_the_cold_answer_in_fewer_steps() {
    let a = ImplicitBody::of_shape(&Shape::Ellipsoid(
        Ellipsoid::new(DVec3::new(1.0, 0.6, 0.8)).unwrap(),
    ))
    .unwrap();
    let s = Shape::Superellipsoid(Superellipsoid::new(DVec3::new(0.6, 0.8, 0.5), 1.5).unwrap());
    let mut rng = SplitMix64::new(12);
    let (mut warm_steps, mut cold_steps) = (0, 0);
    for _ in 0..30 {
        let pose = RelativePose::from_matrix(
            DMat3::from_axis_angle(rng.unit_vector(), rng.range(0.0, 3.0)),
            rng.unit_vector() * rng.range(1.8, 2.5),
        );
        let first = ip(&a, &body(&s, pose));
        let nudged = RelativePose::from_matrix(
            DMat3::from_axis_angle(rng.unit_vector(), 0.01) * pose.rotation,
            pose.translation + rng.unit_vector() * 0.01,
        );
        let b = body(&s, nudged);
        let cold = ip(&a, &b);
        let warm = distance_warm(
            &a,
            &b,
            first.witnesses().unwrap(),
            IpSettings::default(),
            None,
        )
        .unwrap();
        match (&cold.summary.outcome, &warm.summary.outcome) {
            (Outcome::Separated { distance: c, .. }, Outcome::Separated { distance: w, .. }) => {
                assert!((c - w).abs() <= 1e-7, "{c} vs {w}")
            }
            (Outcome::Intersecting, Outcome::Intersecting) => {}
            (c, w) => panic!("cold {c}, warm {w}"),
        }
        warm_steps += warm.iterations;
        cold_steps += cold.iterations;
    }
    assert!(
        warm_steps < cold_steps,
        "warm {warm_steps}, cold {cold_steps}"
    );
}

/// Cylinders, cones and capsules (quadric sides, caps, round ends) against each other and
/// against boxes and ellipsoids at random poses: every distance GJK's.
#[test]
fn round_kinds_match_gjk() {
    use crate::shape::{Capsule, Cone, Cylinder};
    let mut rng = SplitMix64::new(21);
    let shapes = [
        Shape::Cylinder(Cylinder::new(0.4, 0.6).unwrap()),
        Shape::Cone(Cone::new(0.5, 0.7).unwrap()),
        Shape::Capsule(Capsule::new(0.3, 0.5).unwrap()),
        Shape::Cuboid(Cuboid::new(DVec3::new(0.4, 0.2, 0.6)).unwrap()),
        Shape::Ellipsoid(Ellipsoid::new(DVec3::new(0.5, 0.3, 0.4)).unwrap()),
    ];
    let checked = pairs_agree_with_gjk(&shapes, 3, 8, 2.2, 1e-6, &mut rng);
    assert!(checked > 40, "{checked}");
}
