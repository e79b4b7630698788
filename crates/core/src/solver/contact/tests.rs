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

fn by(rule: ContactRule, a: &Shape, b: &Shape, pose: RelativePose) -> Manifold {
    rule.manifold(
        a,
        b,
        pose,
        EpaSettings::default(),
        ContactSettings::default(),
    )
    .unwrap_or_else(|outcome| panic!("{rule:?}: no manifold: {outcome:?}"))
}

/// The corners of the exact intersection of two boxes' faces, face to face: B's bottom
/// square (half side `h`, turned by `angle` about z, centred at `c`) clipped by the
/// slab's top square [−2, 2]² (an independent clip in the plane, x and y only).
fn square_in_slab(h: f64, angle: f64, c: DVec3) -> Vec<(f64, f64)> {
    let (s, co) = angle.sin_cos();
    let mut poly: Vec<(f64, f64)> = [(h, h), (-h, h), (-h, -h), (h, -h)]
        .iter()
        .map(|&(x, y)| (c.x + co * x - s * y, c.y + s * x + co * y))
        .collect();
    // Four half-planes: x <= 2, -x <= 2, y <= 2, -y <= 2.
    for (ax, ay) in [(1.0, 0.0), (-1.0, 0.0), (0.0, 1.0), (0.0, -1.0)] {
        let inside = |p: (f64, f64)| ax * p.0 + ay * p.1 <= 2.0;
        let mut out = Vec::new();
        for i in 0..poly.len() {
            let (p, q) = (poly[i], poly[(i + 1) % poly.len()]);
            if inside(p) {
                out.push(p);
            }
            if inside(p) != inside(q) {
                let (fp, fq) = (ax * p.0 + ay * p.1 - 2.0, ax * q.0 + ay * q.1 - 2.0);
                let t = fp / (fp - fq);
                out.push((p.0 + t * (q.0 - p.0), p.1 + t * (q.1 - p.1)));
            }
        }
        poly = out;
    }
    poly
}

fn same_points(got: &[DVec3], want: &[(f64, f64)], tolerance: f64) {
    assert_eq!(got.len(), want.len(), "{got:?} vs {want:?}");
    for w in want {
        assert!(
            got.iter()
                .any(|g| (g.x - w.0).abs() < tolerance && (g.y - w.1).abs() < tolerance),
            "{w:?} not among {got:?}"
        );
    }
}

#[test]
fn coal_patch_of_two_boxes_face_to_face_is_the_exact_intersection() {
    let b = Shape::Cuboid(Cuboid::new(DVec3::splat(0.5)).unwrap());
    for (angle, c) in [
        (0.0, DVec3::new(0.3, -0.2, 0.99)),
        (0.785, DVec3::new(1.8, 0.0, 0.995)),
        (0.3, DVec3::new(-1.9, 1.85, 0.999)),
    ] {
        let m = by(
            ContactRule::CoalPatch,
            &slab(),
            &b,
            at(DMat3::from_rotation_z(angle), c),
        );
        let want = square_in_slab(0.5, angle, c);
        let on_a: Vec<DVec3> = m.points.iter().map(|p| p.on_a).collect();
        same_points(&on_a, &want, 1e-12);
        for p in &m.points {
            assert!((p.on_a.z - 0.5).abs() < 1e-12 && (p.depth - (1.0 - c.z)).abs() < 1e-12);
        }
        assert_certified(&m);
    }
}

#[test]
fn parry_manifold_of_boxes_face_to_face_is_certified() {
    let b = Shape::Cuboid(Cuboid::new(DVec3::splat(0.5)).unwrap());
    let c = DVec3::new(0.3, -0.2, 0.99);
    let m = by(
        ContactRule::Parry,
        &slab(),
        &b,
        at(DMat3::from_rotation_z(0.2), c),
    );
    let want = square_in_slab(0.5, 0.2, c);
    let on_a: Vec<DVec3> = m.points.iter().map(|p| p.on_a).collect();
    same_points(&on_a, &want, 1e-9);
    assert!((m.normal - DVec3::Z).length() < 1e-9);
    assert_certified(&m);
}

#[test]
fn coal_gives_one_point_for_parallel_segments_and_says_why() {
    // Two capsules lying side by side along x: Coal 3.0.3's segment-segment branch
    // (its boolean "determinant") gives the contact point alone; Jolt's rule has no
    // face either (one point); a capsule lying on a box gets two points from Coal.
    let capsule = Shape::Capsule(Capsule::new(0.2, 0.6).unwrap());
    let lying = DMat3::from_rotation_z(std::f64::consts::FRAC_PI_2);
    let m = by(
        ContactRule::CoalPatch,
        &capsule,
        &capsule,
        at(
            DMat3::IDENTITY,
            DVec3::new(0.0, 0.0, 0.0) + DVec3::new(0.399, 0.0, 0.0),
        ),
    );
    assert_eq!(m.points.len(), 1);
    assert!(
        m.notes.iter().any(|n| n.contains("segment")),
        "{:?}",
        m.notes
    );
    assert_certified(&m);
    let m = by(
        ContactRule::CoalPatch,
        &slab(),
        &capsule,
        at(lying, DVec3::new(0.0, 0.0, 0.69)),
    );
    assert_eq!(m.points.len(), 2);
    for p in &m.points {
        assert!((p.on_b.x.abs() - 0.6).abs() < 1e-12);
    }
    assert_certified(&m);
}

#[test]
fn coal_patch_on_a_tilted_box_puts_every_point_at_one_depth_and_is_not_certified() {
    // Tilted by 5e-4 rad about y: the face lies within Coal's patch tolerance of the
    // support plane, so the whole face is in the patch, but at one depth: the high
    // corners' points are off B by up to 2.5e-4. Jolt's rule measures each depth.
    let b = Shape::Cuboid(Cuboid::new(DVec3::splat(0.5)).unwrap());
    let pose = at(DMat3::from_rotation_y(5e-4), DVec3::new(0.0, 0.0, 0.995));
    let coal = by(ContactRule::CoalPatch, &slab(), &b, pose);
    assert_eq!(coal.points.len(), 4);
    let why = coal.uncertified.as_deref().unwrap_or("");
    assert!(why.contains("off B"), "{why}");
    let ours = by(ContactRule::Clipping, &slab(), &b, pose);
    assert_eq!(ours.points.len(), 4);
    assert_certified(&ours);
}

#[test]
fn every_rule_answers_degenerate_contacts_without_panicking() {
    let b = Shape::Cuboid(Cuboid::new(DVec3::splat(0.5)).unwrap());
    let sliver = Shape::Polytope(
        Polytope::from_points(&[
            DVec3::new(-1.0, 0.0, 0.0),
            DVec3::new(1.0, 0.0, 0.0),
            DVec3::new(0.0, 1e-9, 0.0),
            DVec3::new(0.0, 0.0, 1e-9),
        ])
        .unwrap(),
    );
    let turn = DMat3::from_rotation_z(0.785) * DMat3::from_rotation_x(0.785);
    let cases = [
        (
            b.clone(),
            at(turn, DVec3::new(0.0, 0.0, 0.5 + 0.5 * 2f64.sqrt())),
        ),
        (b.clone(), at(DMat3::IDENTITY, DVec3::new(0.0, 0.0, 1.0))),
        (sliver, at(DMat3::IDENTITY, DVec3::new(0.0, 0.0, 0.5))),
    ];
    for rule in ContactRule::ALL {
        for (shape, pose) in &cases {
            if let Ok(m) = rule.manifold(
                &slab(),
                shape,
                *pose,
                EpaSettings::default(),
                ContactSettings::default(),
            ) {
                assert_eq!(m.points.len(), m.checks.len());
            }
        }
    }
}

/// Whether GJK proves the pair apart.
fn apart(a: &Shape, b: &Shape, pose: RelativePose) -> bool {
    let run = run_gjk(
        MinkowskiDifference::new(a, b, pose),
        DirectionRule::Vanilla,
        gjk_settings_for_epa(),
        &[],
    );
    matches!(run.outcome, Outcome::Separated { .. })
}

/// Every kind against every kind (box, cylinder, capsule, cone, hull) at random
/// orientations, B pushed along a random direction until it touches A, then 1e-3
/// deeper: every rule answers without a panic, and Jolt's clipping certifies its
/// manifold nearly always (a hull's band may join vertices of neighbouring faces).
#[test]
fn every_rule_answers_every_kind_pair_at_random_contacts() {
    use crate::shape::Cone;
    let mut rng = crate::rng::SplitMix64::new(11);
    let cloud: Vec<DVec3> = (0..12).map(|_| rng.vector(0.6)).collect();
    let shapes = [
        Shape::Cuboid(Cuboid::new(DVec3::new(0.5, 0.3, 0.4)).unwrap()),
        Shape::Cylinder(Cylinder::new(0.4, 0.5).unwrap()),
        Shape::Capsule(Capsule::new(0.2, 0.6).unwrap()),
        Shape::Cone(Cone::new(0.4, 0.5).unwrap()),
        Shape::Polytope(Polytope::from_points(&cloud).unwrap()),
    ];
    let mut poses = Vec::new();
    for i in 0..shapes.len() {
        for j in 0..shapes.len() {
            for k in 0..40 {
                let turn = if k % 3 == 0 {
                    DMat3::from_rotation_x(rng.range(-1e-3, 1e-3))
                } else {
                    DMat3::from_quat(rng.rotation())
                };
                let direction = rng.unit_vector();
                let (mut lo, mut hi) = (0.0, 4.0);
                for _ in 0..60 {
                    let mid = 0.5 * (lo + hi);
                    let pose = at(turn, direction * mid);
                    if apart(&shapes[i], &shapes[j], pose) {
                        hi = mid;
                    } else {
                        lo = mid;
                    }
                }
                poses.push((i, j, at(turn, direction * (lo - 1e-3))));
            }
        }
    }
    for rule in ContactRule::ALL {
        let (mut built, mut certified) = (0, 0);
        for &(i, j, pose) in &poses {
            if let Ok(m) = rule.manifold(
                &shapes[i],
                &shapes[j],
                pose,
                EpaSettings::default(),
                ContactSettings::default(),
            ) {
                built += 1;
                certified += usize::from(m.uncertified.is_none());
                assert_eq!(m.points.len(), m.checks.len());
            }
        }
        eprintln!("{rule:?}: {certified} of {built} manifolds certified");
        assert!(built >= poses.len() * 99 / 100, "{rule:?}: {built}");
        if rule == ContactRule::Clipping {
            assert!(certified * 100 >= built * 99, "{certified} of {built}");
        }
    }
}

#[test]
fn a_cone_standing_on_its_base_gets_points_round_the_rim() {
    // Axis y turned onto z: the base (at −h along the axis) faces the slab. Before the
    // cone had a support set of its own, its base gave the support point alone.
    use crate::shape::Cone;
    let cone = Shape::Cone(Cone::new(0.4, 0.5).unwrap());
    let standing = at(
        DMat3::from_rotation_x(std::f64::consts::FRAC_PI_2),
        DVec3::new(0.1, 0.2, 0.99),
    );
    for rule in [ContactRule::Clipping, ContactRule::CoalPatch] {
        let m = by(rule, &slab(), &cone, standing);
        assert!(m.points.len() >= 4, "{rule:?}: {:?}", m.points);
        for p in &m.points {
            let r = (p.on_b.x - 0.1).hypot(p.on_b.y - 0.2);
            assert!(
                (r - 0.4).abs() < 1e-9 && (p.depth - 0.01).abs() < 1e-9,
                "{p:?}"
            );
        }
        assert_certified(&m);
    }
}

/// Two boxes crossing edge on edge, clearly overlapping: no face to clip against, so
/// the manifold is the normal's own point pair, found only then (the boxes' deepest
/// pair); it must be EPA's closed form's pair, its depth the certified one, certified.
#[test]
fn boxes_crossing_edge_on_edge_get_the_deepest_pair() {
    let cube = Shape::Cuboid(Cuboid::new(DVec3::splat(0.5)).unwrap());
    let edge_up = DMat3::from_rotation_x(std::f64::consts::FRAC_PI_4);
    let edge_down = DMat3::from_rotation_z(std::f64::consts::FRAC_PI_2) * edge_up;
    let reach = 0.5 * 2f64.sqrt();
    for depth in [1e-6, 1e-3, 0.05] {
        let (a, b) = (
            at(edge_up, DVec3::ZERO),
            at(edge_down, DVec3::new(0.0, 0.0, 2.0 * reach - depth)),
        );
        let b_in_a = a.inverse().then(&b);
        let m = manifold(&cube, &cube, b_in_a);
        assert_eq!(m.reference, Reference::None, "depth {depth}");
        assert_eq!(m.points.len(), 1);
        let p = m.points[0];
        let run = crate::solver::epa::penetration(
            &cube,
            &cube,
            b_in_a,
            gjk_settings_for_epa(),
            EpaSettings::default(),
            None,
        );
        let (on_a, on_b) = run.witnesses().expect("EPA's pair");
        assert_eq!((p.on_a, p.on_b), (on_a, on_b), "depth {depth}");
        assert!((p.depth - depth).abs() < 1e-9, "{} vs {depth}", p.depth);
        assert_certified(&m);
    }
}

/// `m` certified again, as an engine's manifold (against no features of its own), for
/// two copies of `shape` at `pose` with the certified `depth`.
fn certify_as_engines(m: &mut Manifold, shape: &Shape, pose: RelativePose, depth: f64) {
    let size = pair_size(shape, shape, pose);
    let settings = ContactSettings::default();
    certify(
        m,
        (shape, shape),
        pose,
        (depth, size),
        OwnFeatures::No,
        settings,
    );
}

/// Two cubes offset diagonally, as deep along y as along z: two normals reach the
/// least overlap. parry may break the tie the other way from ours; its manifold is then
/// checked against the contact region along its own normal (proved as deep), and is
/// certified, with a note saying so; one whose normal is not a tie still is not.
#[test]
fn an_engine_that_breaks_a_tie_the_other_way_is_certified_along_its_normal() {
    let cube = Shape::Cuboid(Cuboid::new(DVec3::splat(0.5)).unwrap());
    let mut other_way = 0;
    for (depth, sign) in [(1e-3, 1.0), (1e-2, 1.0), (1e-3, -1.0), (0.05, -1.0)] {
        let offset = 1.0 - depth;
        for t in [
            DVec3::new(0.0, offset, sign * offset),
            DVec3::new(sign * offset, 0.0, offset),
            DVec3::new(offset, sign * offset, 0.0),
        ] {
            let pose = at(DMat3::IDENTITY, t);
            let m = by(ContactRule::Parry, &cube, &cube, pose);
            assert!(m.uncertified.is_none(), "{t}: {:?}", m.uncertified);
            if m.normal != m.certified_normal {
                other_way += 1;
                assert!(m.notes.iter().any(|n| n.contains("a tie")), "{:?}", m.notes);
            }
        }
    }
    // Both cubes turned (a resting box on a box turned 45° about x): parry picks the
    // other of the two faces (seen in the viewer).
    let world_a = crate::pose::Pose::from_euler_degrees(DVec3::ZERO, DVec3::new(45.0, 0.0, 0.0));
    for depth in [1e-3, 0.02] {
        let world_b = crate::pose::Pose::from_euler_degrees(
            DVec3::new(0.0, 0.0, 2f64.sqrt() - depth),
            DVec3::new(45.0, 0.0, 90.0),
        );
        let pose = RelativePose::between(&world_a, &world_b);
        let m = by(ContactRule::Parry, &cube, &cube, pose);
        assert!(m.uncertified.is_none(), "{depth}: {:?}", m.uncertified);
        if m.normal != m.certified_normal {
            other_way += 1;
            assert!(m.notes.iter().any(|n| n.contains("a tie")), "{:?}", m.notes);
            assert_eq!(m.checked_along, m.normal);
            assert!(
                m.normal.dot(m.certified_normal) < 0.5,
                "{} {}",
                m.normal,
                m.certified_normal
            );
        }
    }
    assert!(
        other_way > 0,
        "parry broke every tie our way: the test shows nothing"
    );
    // Not a tie: a normal turned off the certified one is still checked against ours.
    let pose = at(DMat3::IDENTITY, DVec3::new(0.0, 0.0, 0.99));
    let mut m = by(ContactRule::Clipping, &cube, &cube, pose);
    m.normal = DVec3::new(0.0, 0.6, 0.8);
    m.points
        .iter_mut()
        .for_each(|p| p.on_b += DVec3::new(0.0, 0.1, 0.0));
    certify_as_engines(&mut m, &cube, pose, 0.01);
    assert!(m.uncertified.is_some());
    assert!(!m.notes.iter().any(|n| n.contains("a tie")));
    assert_eq!(m.checked_along, m.certified_normal);
    // A tie with wrong points: along the other tied normal, points moved off the
    // shapes' faces stay uncertified.
    let pose = at(DMat3::IDENTITY, DVec3::new(0.0, -0.99, 0.99));
    let mut m = by(ContactRule::Clipping, &cube, &cube, pose);
    let other = if m.normal.z.abs() > 0.5 {
        DVec3::new(0.0, -1.0, 0.0)
    } else {
        DVec3::Z
    };
    m.normal = other;
    m.points.iter_mut().for_each(|p| {
        p.on_a -= other * 0.2;
        p.on_b -= other * 0.2;
    });
    certify_as_engines(&mut m, &cube, pose, 0.01);
    assert_eq!(m.checked_along, other, "the tie is recognised");
    assert!(
        m.uncertified.is_some(),
        "wrong points along a tied normal pass"
    );
}
