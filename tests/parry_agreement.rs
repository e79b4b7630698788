//! Distances agree with parry3d-f64 on random pairs of every shape kind, including the
//! hulls of the shared meshes.

mod common;

use collidescope::minkowski::MinkowskiDifference;
use collidescope::parry_bridge::{parry_gjk_distance, parry_native_distance};
use collidescope::pose::{Pose, RelativePose};
use collidescope::shape::Shape;
use collidescope::solver::{
    solve_traced, Algorithm, Criterion, CriterionKind, DirectionRule, Outcome, SolverSettings,
};
use collidescope::DVec3;
use common::{mesh_hulls, random_primitive, Rng, PRIMITIVE_KINDS};

/// Our distance with a duality-gap stop at `tolerance` (‖x − x*‖ ≤ √tolerance).
fn our_distance(
    a: &Shape,
    b: &Shape,
    rel: RelativePose,
    algorithm: Algorithm,
    tolerance: f64,
) -> Result<f64, Outcome> {
    let settings = SolverSettings {
        tolerance,
        criterion: Criterion::DualityGap,
        kind: CriterionKind::Absolute,
        max_iterations: 5000,
        ..SolverSettings::default()
    };
    let run = solve_traced(algorithm, MinkowskiDifference::new(a, b, rel), settings);
    match run.summary.outcome {
        Outcome::Intersecting => Ok(0.0),
        Outcome::Separated { distance, .. } => Ok(distance),
        other => Err(other),
    }
}

/// Places B at a random signed distance in [-0.2, 1] from A along a random direction.
fn random_relative_pose(rng: &mut Rng, a: &Shape, b: &Shape) -> RelativePose {
    let pose_b = Pose::new(DVec3::ZERO, rng.rotation());
    let rel = RelativePose::between(&Pose::IDENTITY, &pose_b);
    let dir = rng.unit_vector();
    // Push B out along `dir` until the supports' gap is the wanted signed distance.
    let extent_a = dir.dot(collidescope::shape::SupportMap::local_support(a, dir));
    let extent_b = (-dir).dot(
        rel.transform_point(collidescope::shape::SupportMap::local_support(
            b,
            rel.inverse_rotate(-dir),
        )),
    );
    let gap = rng.range(-0.2, 1.0);
    RelativePose::from_matrix(rel.rotation, dir * (extent_a + extent_b + gap))
}

fn check_pair(a: &Shape, b: &Shape, rel: RelativePose) -> Result<(), String> {
    let ours =
        our_distance(a, b, rel, Algorithm::Gjk(DirectionRule::Vanilla), 1e-14).map_err(|o| {
            format!(
                "{} vs {}: gjk ended with {o:?}",
                a.kind_name(),
                b.kind_name()
            )
        })?;
    let (reference, source, exact) = match parry_native_distance(a, b, &rel) {
        Some(d) => (d, "parry query::distance", true),
        None => (
            parry_gjk_distance(a, b, &rel),
            "parry GJK on our support maps",
            false,
        ),
    };
    // Polytope pairs are exact on both sides: 1e-6. On curved shapes parry's GJK (which
    // also serves its capsule, cylinder and cone queries) can stop early, always above
    // the true distance (ALGORITHMS.md §13): 1e-5 there. Closed forms below hold 1e-9.
    let _ = exact;
    let relative = if is_curved(a) || is_curved(b) {
        1e-5
    } else {
        1e-6
    };
    let scale = reference.abs().max(1.0);
    if (ours - reference).abs() <= relative * scale {
        Ok(())
    } else {
        Err(format!(
            "{} vs {}: ours {ours:.12} {source} {reference:.12} (pose {rel:?})",
            a.kind_name(),
            b.kind_name()
        ))
    }
}

fn is_curved(s: &Shape) -> bool {
    !matches!(s, Shape::Point(_) | Shape::Cuboid(_) | Shape::Polytope(_))
}

#[test]
fn every_primitive_pair_agrees_with_parry() {
    let mut rng = Rng::new(2024);
    let mut failures = Vec::new();
    let mut pairs = 0;
    for round in 0..12 {
        for ka in 0..PRIMITIVE_KINDS {
            for kb in 0..PRIMITIVE_KINDS {
                let a = random_primitive(&mut rng, ka);
                let b = random_primitive(&mut rng, kb);
                let rel = random_relative_pose(&mut rng, &a, &b);
                if let Err(e) = check_pair(&a, &b, rel) {
                    failures.push(format!("round {round}: {e}"));
                }
                pairs += 1;
            }
        }
    }
    assert!(pairs >= 1000, "{pairs} pairs");
    assert!(
        failures.is_empty(),
        "{} of {pairs} pairs disagree:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn mesh_hulls_agree_with_parry() {
    let hulls = mesh_hulls();
    if hulls.is_empty() {
        return;
    }
    let mut rng = Rng::new(99);
    let mut failures = Vec::new();
    let mut pairs = 0;
    for (name_a, a) in &hulls {
        for (name_b, b) in &hulls {
            for _ in 0..3 {
                let rel = random_relative_pose(&mut rng, a, b);
                if let Err(e) = check_pair(a, b, rel) {
                    failures.push(format!("{name_a} vs {name_b}: {e}"));
                }
                pairs += 1;
            }
        }
        // And against every primitive kind.
        for kind in 0..PRIMITIVE_KINDS {
            let p = random_primitive(&mut rng, kind);
            let rel = random_relative_pose(&mut rng, a, &p);
            if let Err(e) = check_pair(a, &p, rel) {
                failures.push(format!("{name_a} vs primitive: {e}"));
            }
            pairs += 1;
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {pairs} pairs disagree:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn every_algorithm_converges_to_the_same_distance() {
    let mut rng = Rng::new(7);
    for _ in 0..150 {
        let (ka, kb) = (rng.index(PRIMITIVE_KINDS), rng.index(PRIMITIVE_KINDS));
        let a = random_primitive(&mut rng, ka);
        let b = random_primitive(&mut rng, kb);
        let rel = random_relative_pose(&mut rng, &a, &b);
        let tolerance = 1e-10;
        let reference = our_distance(
            &a,
            &b,
            rel,
            Algorithm::Gjk(DirectionRule::Vanilla),
            tolerance,
        )
        .unwrap();
        for alg in [
            Algorithm::Gjk(DirectionRule::Nesterov),
            Algorithm::Gjk(DirectionRule::NesterovNormalized),
            Algorithm::Gjk(DirectionRule::Polyak),
            Algorithm::FrankWolfe(collidescope::solver::StepRule::FullyCorrective),
        ] {
            match our_distance(&a, &b, rel, alg, tolerance) {
                // Both are within √ε = 1e-5 of the optimum.
                Ok(d) => assert!(
                    (d - reference).abs() < 2e-5,
                    "{alg}: {d} vs gjk {reference}"
                ),
                // Normalised Nesterov on curved shapes is a known slow case (ALGORITHMS.md §4).
                Err(Outcome::IterationCap { .. })
                    if alg == Algorithm::Gjk(DirectionRule::NesterovNormalized) => {}
                Err(other) => panic!(
                    "{alg} ended with {other:?} on {} vs {}",
                    a.kind_name(),
                    b.kind_name()
                ),
            }
        }
    }
}

fn separated_distance(a: &Shape, b: &Shape, rel: RelativePose) -> f64 {
    our_distance(a, b, rel, Algorithm::Gjk(DirectionRule::Vanilla), 1e-14).unwrap()
}

#[test]
fn closed_forms_hold_to_1e9() {
    use collidescope::shape::{Cuboid, PointShape, Polytope, Sphere};
    let mut rng = Rng::new(5);
    for _ in 0..200 {
        // Sphere–sphere: ‖c_B − c_A‖ − r_A − r_B.
        let (ra, rb) = (rng.range(0.1, 1.0), rng.range(0.1, 1.0));
        let t = rng.unit_vector() * (ra + rb + rng.range(0.01, 2.0));
        let rel = RelativePose::from_matrix(collidescope::DMat3::from_quat(rng.rotation()), t);
        let d = separated_distance(
            &Shape::Sphere(Sphere::new(ra).unwrap()),
            &Shape::Sphere(Sphere::new(rb).unwrap()),
            rel,
        );
        assert!(
            (d - (t.length() - ra - rb)).abs() < 1e-9,
            "sphere-sphere {d}"
        );

        // Sphere–box: clamp the centre to the box.
        let h = rng.in_range3(0.1, 1.0);
        let r = rng.range(0.05, 0.5);
        let c = rng.vector(3.0);
        let nearest = c.clamp(-h, h);
        let expected = (c - nearest).length() - r;
        if expected > 1e-3 {
            let rel = RelativePose::from_matrix(collidescope::DMat3::IDENTITY, c);
            let d = separated_distance(
                &Shape::Cuboid(Cuboid::new(h).unwrap()),
                &Shape::Sphere(Sphere::new(r).unwrap()),
                rel,
            );
            assert!((d - expected).abs() < 1e-9, "sphere-box {d} vs {expected}");
        }

        // Axis-aligned boxes: the per-axis gaps.
        let (ha, hb) = (rng.vector(1.0).abs() + 0.05, rng.vector(1.0).abs() + 0.05);
        let c = rng.vector(3.0);
        let gap = (c.abs() - ha - hb).max(DVec3::ZERO);
        if gap.length() > 1e-3 {
            let rel = RelativePose::from_matrix(collidescope::DMat3::IDENTITY, c);
            let d = separated_distance(
                &Shape::Cuboid(Cuboid::new(ha).unwrap()),
                &Shape::Cuboid(Cuboid::new(hb).unwrap()),
                rel,
            );
            assert!(
                (d - gap.length()).abs() < 1e-9,
                "box-box {d} vs {}",
                gap.length()
            );
        }

        // Point–polytope (a box given as 8 points): the same clamp.
        let corners: Vec<DVec3> = (0..8)
            .map(|i| {
                DVec3::new(
                    if i & 1 == 0 { -ha.x } else { ha.x },
                    if i & 2 == 0 { -ha.y } else { ha.y },
                    if i & 4 == 0 { -ha.z } else { ha.z },
                )
            })
            .collect();
        let p = rng.vector(3.0);
        let expected = (p - p.clamp(-ha, ha)).length();
        if expected > 1e-3 {
            let rel = RelativePose::from_matrix(collidescope::DMat3::IDENTITY, p);
            let d = separated_distance(
                &Shape::Polytope(Polytope::from_points(&corners).unwrap()),
                &Shape::Point(PointShape),
                rel,
            );
            assert!(
                (d - expected).abs() < 1e-9,
                "point-polytope {d} vs {expected}"
            );
        }
    }
}
