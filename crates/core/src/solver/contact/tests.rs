//! The clipping manifold against closed forms: boxes on boxes (square and turned),
//! a ball, a capsule and a cylinder on a box, and random polytopes, every point
//! certified.

use glam::{DMat3, DVec3};

use super::*;
use crate::shape::{Capsule, Cuboid, Cylinder, Polytope, Sphere};

fn at(rotation: DMat3, t: DVec3) -> RelativePose {
    RelativePose::from_matrix(rotation, t)
}

fn manifold(a: &Shape, b: &Shape, pose: RelativePose) -> Manifold {
    clipping_manifold(
        a,
        b,
        pose,
        EpaSettings::default(),
        ContactSettings::default(),
    )
    .unwrap_or_else(|outcome| panic!("no manifold: {outcome:?}"))
}

fn slab() -> Shape {
    Shape::Cuboid(Cuboid::new(DVec3::new(2.0, 2.0, 0.5)).unwrap())
}

fn assert_certified(m: &Manifold) {
    assert!(m.uncertified.is_none(), "{:?}", m.uncertified);
    assert!(m.checks.iter().all(|c| c.certified));
}

#[test]
fn a_box_resting_on_a_box_has_its_four_corners() {
    let b = Shape::Cuboid(Cuboid::new(DVec3::splat(0.5)).unwrap());
    let m = manifold(
        &slab(),
        &b,
        at(DMat3::IDENTITY, DVec3::new(0.3, -0.2, 0.99)),
    );
    assert_eq!(m.reference, Reference::A);
    assert_eq!(m.points.len(), 4);
    for p in &m.points {
        assert!((p.depth - 0.01).abs() < 1e-12, "{p:?}");
        assert!((p.on_a.z - 0.5).abs() < 1e-12 && (p.on_b.z - 0.49).abs() < 1e-12);
        assert!(((p.on_b.x - 0.3).abs() - 0.5).abs() < 1e-12);
    }
    assert!((m.normal - DVec3::Z).length() < 1e-12);
    assert_certified(&m);
}

#[test]
fn a_turned_box_is_reduced_to_four_points_keeping_its_corners() {
    let b = Shape::Cuboid(Cuboid::new(DVec3::splat(0.5)).unwrap());
    // Turned 45 degrees about z and hanging over the slab's edge: the clipped face is a
    // pentagon, reduced to four.
    let pose = at(DMat3::from_rotation_z(0.785), DVec3::new(1.8, 0.0, 0.995));
    let m = manifold(&slab(), &b, pose);
    assert!(m.candidates.len() >= 5, "{:?}", m.candidates);
    assert_eq!(m.points.len(), 4);
    assert_eq!(
        m.reduced_away.len() + m.kept.len() + m.beyond_margin.len(),
        m.candidates.len()
    );
    for p in &m.points {
        assert!((p.depth - 0.005).abs() < 1e-12);
        assert!(p.on_a.x <= 2.0 + 1e-12);
    }
    assert_certified(&m);
}

#[test]
fn a_ball_a_capsule_and_a_cylinder_on_a_box() {
    let ball = Shape::Sphere(Sphere::new(0.3).unwrap());
    let m = manifold(
        &slab(),
        &ball,
        at(DMat3::IDENTITY, DVec3::new(0.1, 0.2, 0.79)),
    );
    assert_eq!(m.reference, Reference::None);
    assert_eq!(m.points.len(), 1);
    assert!((m.points[0].depth - 0.01).abs() < 1e-12);
    assert_certified(&m);

    // A capsule lying along x: its side is a line of contact, two points.
    let capsule = Shape::Capsule(Capsule::new(0.2, 0.6).unwrap());
    let lying = at(
        DMat3::from_rotation_z(std::f64::consts::FRAC_PI_2),
        DVec3::new(0.0, 0.0, 0.69),
    );
    let m = manifold(&slab(), &capsule, lying);
    assert_eq!(m.points.len(), 2);
    for p in &m.points {
        assert!((p.depth - 0.01).abs() < 1e-12 && (p.on_b.x.abs() - 0.6).abs() < 1e-12);
    }
    assert_certified(&m);

    // A cylinder standing on its cap: a sampled disk, reduced to four points.
    let cylinder = Shape::Cylinder(Cylinder::new(0.4, 0.5).unwrap());
    let standing = at(
        DMat3::from_rotation_x(std::f64::consts::FRAC_PI_2),
        DVec3::new(0.0, 0.0, 0.999),
    );
    let m = manifold(&slab(), &cylinder, standing);
    assert_eq!(m.reference, Reference::A);
    assert_eq!(m.candidates.len(), ContactSettings::default().curve_samples);
    assert_eq!(m.points.len(), 4);
    for p in &m.points {
        assert!((p.depth - 0.001).abs() < 1e-12);
        assert!(((p.on_b.x.powi(2) + p.on_b.y.powi(2)).sqrt() - 0.4).abs() < 1e-12);
    }
    assert_certified(&m);
}

#[test]
fn shapes_apart_within_the_margin_get_negative_depths() {
    let b = Shape::Cuboid(Cuboid::new(DVec3::splat(0.5)).unwrap());
    let m = manifold(
        &slab(),
        &b,
        at(DMat3::IDENTITY, DVec3::new(0.0, 0.0, 1.0005)),
    );
    assert!(matches!(m.outcome, Outcome::Separated { .. }));
    assert_eq!(m.points.len(), 4);
    for p in &m.points {
        assert!((p.depth + 5e-4).abs() < 1e-12);
    }
    assert_certified(&m);
    let far = clipping_manifold(
        &slab(),
        &b,
        at(DMat3::IDENTITY, DVec3::new(0.0, 0.0, 1.5)),
        EpaSettings::default(),
        ContactSettings::default(),
    );
    assert!(matches!(far, Err(Outcome::Separated { .. })));
}

#[test]
fn random_polytopes_in_contact_have_certified_manifolds() {
    let mut rng = crate::rng::SplitMix64::new(4);
    let mut built = 0;
    for _ in 0..200 {
        let mut cloud = |n: usize| {
            let points: Vec<DVec3> = (0..n).map(|_| rng.vector(1.0)).collect();
            Shape::Polytope(Polytope::from_points(&points).unwrap())
        };
        let (a, b) = (cloud(12), cloud(9));
        let t = rng.vector(1.2);
        let turn = DMat3::from_rotation_x(rng.range(-3.0, 3.0))
            * DMat3::from_rotation_z(rng.range(-3.0, 3.0));
        let Ok(m) = clipping_manifold(
            &a,
            &b,
            at(turn, t),
            EpaSettings::default(),
            ContactSettings::default(),
        ) else {
            continue;
        };
        built += 1;
        assert!(!m.points.is_empty() && m.points.len() <= 4);
        assert_certified(&m);
    }
    assert!(built > 50, "only {built} manifolds");
}
