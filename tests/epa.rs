//! EPA against closed forms (box–box by the 15 separating axes, sphere–sphere,
//! sphere–box, capsule–capsule), against the reference answers of `epa_sample.json`,
//! and its own bounds: every depth it reports is certified by the support along the
//! normal, and it never reports a non-finite number.

mod common;

use collidescope::bench::problems::ProblemFile;
use collidescope::pose::RelativePose;
use collidescope::shape::{Capsule, Cuboid, Polytope, Shape, Sphere};
use collidescope::solver::epa::EpaTrace;
use collidescope::solver::epa::{gjk_settings_for_epa, penetration, EpaSettings};
use collidescope::solver::Outcome;
use collidescope::{DMat3, DQuat, DVec3};
use common::{shared_data, Rng};

/// EPA itself (the closed forms off, so that boxes expand too), its bounds checked at
/// every expansion.
fn query(a: &Shape, b: &Shape, rel: RelativePose) -> Outcome {
    let mut trace = EpaTrace::default();
    let settings = EpaSettings {
        closed_forms: false,
        ..EpaSettings::default()
    };
    let run = penetration(
        a,
        b,
        rel,
        gjk_settings_for_epa(),
        settings,
        Some(&mut trace),
    );
    for r in &trace.records {
        assert!(
            r.lower_bound() <= r.upper_bound() + 1e-12,
            "bounds cross at {}",
            r.k
        );
        assert!(r.nearest_distance.is_finite() && r.normal.is_finite());
    }
    run.summary.outcome
}

fn penetrating(outcome: &Outcome, label: &str) -> (f64, DVec3) {
    match outcome {
        Outcome::Penetrating { depth, normal } => (*depth, *normal),
        other => panic!("{label}: {other}"),
    }
}

/// The penetration depth of two boxes and its axis: the smallest overlap of their
/// projections over the 15 candidate axes (3 + 3 face normals, 9 edge cross products),
/// oriented from A to B.
fn box_box_depth(ha: DVec3, hb: DVec3, rb: DMat3, tb: DVec3) -> (f64, DVec3) {
    let mut best = (f64::INFINITY, DVec3::ZERO);
    for u in separating_axes(rb) {
        let overlap = overlap_along(ha, hb, rb, tb, u);
        if overlap < best.0 {
            best = (overlap, u);
        }
    }
    best
}

/// The 15 candidate axes of two boxes (A axis-aligned, B rotated by `rb`), both signs.
fn separating_axes(rb: DMat3) -> Vec<DVec3> {
    let axes_a = [DVec3::X, DVec3::Y, DVec3::Z];
    let axes_b = [rb.x_axis, rb.y_axis, rb.z_axis];
    let mut candidates: Vec<DVec3> = axes_a.into_iter().chain(axes_b).collect();
    for a in axes_a {
        for b in axes_b {
            let c = a.cross(b);
            if c.length() > 1e-9 {
                candidates.push(c.normalize());
            }
        }
    }
    candidates.into_iter().flat_map(|u| [u, -u]).collect()
}

/// `h_{A−B}(u) = r_A(u) + r_B(u) − ⟨t_B, u⟩`: moving B that far along `u` separates them.
fn overlap_along(ha: DVec3, hb: DVec3, rb: DMat3, tb: DVec3, u: DVec3) -> f64 {
    let radius = |h: DVec3, axes: [DVec3; 3]| {
        h.x * axes[0].dot(u).abs() + h.y * axes[1].dot(u).abs() + h.z * axes[2].dot(u).abs()
    };
    radius(ha, [DVec3::X, DVec3::Y, DVec3::Z]) + radius(hb, [rb.x_axis, rb.y_axis, rb.z_axis])
        - tb.dot(u)
}

#[test]
fn box_box_in_any_orientation_matches_the_separating_axes() {
    let mut rng = Rng::new(41);
    let mut checked = 0;
    for _ in 0..300 {
        let ha = rng.in_range3(0.1, 0.6);
        let hb = rng.in_range3(0.1, 0.6);
        let rb = DMat3::from_quat(rng.rotation());
        let tb = rng.vector(0.6);
        let (expected, axis) = box_box_depth(ha, hb, rb, tb);
        if expected <= 1e-6 {
            continue;
        }
        let (a, b) = (
            Shape::Cuboid(Cuboid::new(ha).unwrap()),
            Shape::Cuboid(Cuboid::new(hb).unwrap()),
        );
        let label = format!("boxes {ha} {hb} at {tb}");
        let (depth, normal) =
            penetrating(&query(&a, &b, RelativePose::from_matrix(rb, tb)), &label);
        assert!(
            (depth - expected).abs() <= 1e-9 * expected.max(1.0),
            "{label}: depth {depth:e}, separating axes say {expected:e}"
        );
        // Where the minimum is unique, the normal is its axis.
        let second = second_smallest_overlap(ha, hb, rb, tb, axis);
        if second - expected > 1e-6 {
            let angle = normal.angle_between(axis);
            assert!(
                angle <= 1e-6,
                "{label}: normal {normal} vs {axis} ({angle:e} rad)"
            );
        }
        checked += 1;
    }
    assert!(checked > 100, "{checked}");
}

/// The smallest overlap over axes not parallel to `best`.
fn second_smallest_overlap(ha: DVec3, hb: DVec3, rb: DMat3, tb: DVec3, best: DVec3) -> f64 {
    separating_axes(rb)
        .into_iter()
        .filter(|u| u.dot(best) < 1.0 - 1e-9)
        .map(|u| overlap_along(ha, hb, rb, tb, u))
        .fold(f64::INFINITY, f64::min)
}

#[test]
fn spheres_and_sphere_box_match_closed_forms() {
    let mut rng = Rng::new(42);
    for _ in 0..100 {
        let (ra, rb) = (rng.range(0.1, 1.0), rng.range(0.1, 1.0));
        let c = rng.unit_vector() * rng.range(0.05, 0.95) * (ra + rb);
        let (a, b) = (
            Shape::Sphere(Sphere::new(ra).unwrap()),
            Shape::Sphere(Sphere::new(rb).unwrap()),
        );
        let rel = RelativePose::from_matrix(DMat3::from_quat(rng.rotation()), c);
        let (depth, normal) = penetrating(&query(&a, &b, rel), "spheres");
        let expected = ra + rb - c.length();
        assert!((depth - expected).abs() <= 1e-12, "{depth} vs {expected}");
        assert!(
            normal.angle_between(c.normalize()) <= 1e-9,
            "{normal} vs {c}"
        );
    }
    // A sphere sinking into a box: centre outside (clamp) and inside (nearest face).
    for _ in 0..100 {
        let h = rng.in_range3(0.2, 0.8);
        let r = rng.range(0.1, 0.5);
        let centre = rng.vector(1.0) * (h + DVec3::splat(r * 0.9));
        let clamped = centre.clamp(-h, h);
        let expected = if centre == clamped {
            let to_face = (h - centre.abs()).min_element();
            r + to_face
        } else {
            r - (centre - clamped).length()
        };
        if expected <= 1e-4 {
            continue;
        }
        let (a, b) = (
            Shape::Cuboid(Cuboid::new(h).unwrap()),
            Shape::Sphere(Sphere::new(r).unwrap()),
        );
        let rel = RelativePose::from_matrix(DMat3::IDENTITY, centre);
        let (depth, _) = penetrating(&query(&a, &b, rel), "sphere in box");
        assert!(
            (depth - expected).abs() <= 1e-9,
            "{depth} vs {expected} at {centre}"
        );
    }
}

/// The default settings answer boxes (against boxes and spheres, rounded or not) in
/// closed form: the same depth and normal as the separating axes (boxes) or the nearest
/// face (spheres), no expansion, and a deepest point pair on the two shapes that the
/// push `depth · n` brings together.
#[test]
fn closed_forms_for_boxes_match_the_separating_axes_and_their_witnesses_touch() {
    let mut rng = Rng::new(43);
    let inside = |p: DVec3, h: DVec3, r: f64, rot: DMat3, t: DVec3| {
        let local = rot.transpose() * (p - t);
        (local - local.clamp(-h, h)).length() <= r + 1e-9
    };
    let mut checked = 0;
    for i in 0..400 {
        let ha = rng.in_range3(0.05, 0.6);
        let hb = rng.in_range3(0.05, 0.6);
        let rb = DMat3::from_quat(rng.rotation());
        let tb = rng.vector(0.6);
        // Every fourth pair rounded (dilated boxes), every fifth B a sphere.
        let (ra, rr) = if i % 4 == 0 {
            (rng.range(0.0, 0.1), rng.range(0.0, 0.1))
        } else {
            (0.0, 0.0)
        };
        let sphere = i % 5 == 0;
        let (expected, axis) = if sphere {
            let local = tb;
            let clamped = local.clamp(-ha, ha);
            if clamped == local {
                let to_face = ha - local.abs();
                let k = if to_face.x <= to_face.y && to_face.x <= to_face.z {
                    0
                } else if to_face.y <= to_face.z {
                    1
                } else {
                    2
                };
                let mut n = DVec3::ZERO;
                n[k] = local[k].signum();
                (to_face[k] + hb.x + ra, n)
            } else {
                (
                    hb.x + ra - (local - clamped).length(),
                    (local - clamped).normalize(),
                )
            }
        } else {
            // Rounded boxes whose cores are apart are GJK's (their depth is not the
            // cores' plus the radii): only overlapping cores here.
            let (d, n) = box_box_depth(ha, hb, rb, tb);
            if d <= 1e-6 {
                continue;
            }
            (d + ra + rr, n)
        };
        if expected <= 1e-6 {
            continue;
        }
        let dilate = |s: Shape, r: f64| {
            if r > 0.0 {
                Shape::Dilated(collidescope::shape::Dilated::new(s, r).unwrap())
            } else {
                s
            }
        };
        let a = dilate(Shape::Cuboid(Cuboid::new(ha).unwrap()), ra);
        let b = if sphere {
            Shape::Sphere(Sphere::new(hb.x).unwrap())
        } else {
            dilate(Shape::Cuboid(Cuboid::new(hb).unwrap()), rr)
        };
        let rel = RelativePose::from_matrix(rb, tb);
        let run = penetration(
            &a,
            &b,
            rel,
            gjk_settings_for_epa(),
            EpaSettings::default(),
            None,
        );
        let label = format!("case {i}: {ha} {hb} at {tb}");
        let (depth, normal) = penetrating(&run.summary.outcome, &label);
        assert_eq!(
            run.summary.iterations, 0,
            "{label}: answered in closed form"
        );
        assert!(
            (depth - expected).abs() <= 1e-9 * expected.max(1.0),
            "{label}: {depth} vs {expected}"
        );
        if !sphere && second_smallest_overlap(ha, hb, rb, tb, axis) - (expected - ra - rr) > 1e-6 {
            assert!(
                normal.angle_between(axis) <= 1e-6,
                "{label}: {normal} vs {axis}"
            );
        }
        let (wa, wb) = run.witnesses().expect("witnesses");
        assert!(
            (wa - wb - normal * depth).length() <= 1e-9,
            "{label}: {wa} − {wb} vs {}",
            normal * depth
        );
        assert!(
            inside(wa, ha, ra, DMat3::IDENTITY, DVec3::ZERO),
            "{label}: {wa} on A"
        );
        let b_half = if sphere { DVec3::ZERO } else { hb };
        let b_radius = if sphere { hb.x } else { rr };
        assert!(inside(wb, b_half, b_radius, rb, tb), "{label}: {wb} on B");
        // The same answer as EPA's expansions.
        let (by_epa, _) = penetrating(&query(&a, &b, rel), &label);
        assert!(
            (by_epa - depth).abs() <= 1e-8 * depth.max(1.0),
            "{label}: EPA {by_epa} vs {depth}"
        );
        checked += 1;
    }
    assert!(checked > 150, "{checked}");
}

/// Closest distance between segments p1q1 and p2q2 (Ericson, Real-Time Collision
/// Detection, 5.1.9).
fn segment_distance(p1: DVec3, q1: DVec3, p2: DVec3, q2: DVec3) -> f64 {
    let (d1, d2, r) = (q1 - p1, q2 - p2, p1 - p2);
    let (a, e, f) = (d1.dot(d1), d2.dot(d2), d2.dot(r));
    let c = d1.dot(r);
    let b = d1.dot(d2);
    let denom = a * e - b * b;
    let mut s = if denom > 1e-15 {
        ((b * f - c * e) / denom).clamp(0.0, 1.0)
    } else {
        0.0
    };
    let mut t = (b * s + f) / e;
    if t < 0.0 {
        t = 0.0;
        s = (-c / a).clamp(0.0, 1.0);
    } else if t > 1.0 {
        t = 1.0;
        s = ((b - c) / a).clamp(0.0, 1.0);
    }
    ((p1 + d1 * s) - (p2 + d2 * t)).length()
}

#[test]
fn capsules_match_the_segment_distance() {
    let mut rng = Rng::new(43);
    let mut checked = 0;
    for _ in 0..100 {
        let (ra, rb) = (rng.range(0.1, 0.4), rng.range(0.1, 0.4));
        let (ha, hb) = (rng.range(0.1, 0.8), rng.range(0.1, 0.8));
        let q = rng.rotation();
        let t = rng.vector(0.6);
        let axis_b = q * DVec3::Y;
        let gap = segment_distance(
            -DVec3::Y * ha,
            DVec3::Y * ha,
            t - axis_b * hb,
            t + axis_b * hb,
        );
        let expected = ra + rb - gap;
        if gap < 1e-3 || expected < 1e-4 {
            continue;
        }
        let (a, b) = (
            Shape::Capsule(Capsule::new(ra, ha).unwrap()),
            Shape::Capsule(Capsule::new(rb, hb).unwrap()),
        );
        let rel = RelativePose::from_matrix(DMat3::from_quat(q), t);
        let (depth, _) = penetrating(&query(&a, &b, rel), "capsules");
        assert!((depth - expected).abs() <= 1e-9, "{depth} vs {expected}");
        checked += 1;
    }
    assert!(checked > 30, "{checked}");
}

#[test]
fn touching_deep_and_degenerate_cases_answer() {
    let cube = || Shape::Cuboid(Cuboid::new(DVec3::splat(0.5)).unwrap());
    // Coincident centres: depth 1 (any face).
    let (depth, _) = penetrating(
        &query(
            &cube(),
            &cube(),
            RelativePose::from_matrix(DMat3::IDENTITY, DVec3::ZERO),
        ),
        "coincident cubes",
    );
    assert!((depth - 1.0).abs() < 1e-12);
    // Face to face, exactly touching: depth 0, or GJK's 0 distance.
    let touching = query(
        &cube(),
        &cube(),
        RelativePose::from_matrix(DMat3::IDENTITY, DVec3::new(1.0, 0.3, 0.2)),
    );
    assert!(
        matches!(touching, Outcome::Touching { .. }) || touching.signed_distance() == Some(0.0),
        "{touching}"
    );
    // Shallow 1e-6 overlap of boxes, far from the origin of A's frame.
    let (depth, normal) = penetrating(
        &query(
            &cube(),
            &cube(),
            RelativePose::from_matrix(DMat3::IDENTITY, DVec3::new(0.3, 1.0 - 1e-6, -0.1)),
        ),
        "shallow",
    );
    assert!((depth - 1e-6).abs() < 1e-12, "{depth:e}");
    assert!(normal.angle_between(DVec3::Y) < 1e-6);
    // Two flat squares in one plane, overlapping: A − B is flat, so no depth exists.
    let square = |z: f64| {
        Shape::Polytope(
            Polytope::from_points(&[
                DVec3::new(0.0, 0.0, z),
                DVec3::new(1.0, 0.0, z),
                DVec3::new(1.0, 1.0, z),
                DVec3::new(0.0, 1.0, z),
            ])
            .unwrap(),
        )
    };
    let flat = query(
        &square(0.0),
        &square(0.0),
        RelativePose::from_matrix(DMat3::IDENTITY, DVec3::new(0.5, 0.5, 0.0)),
    );
    assert!(
        matches!(flat, Outcome::Degenerate { .. } | Outcome::Touching { .. }),
        "{flat}"
    );
    // Spheres with coincident centres: depth r_A + r_B, any normal.
    let sphere = |r: f64| Shape::Sphere(Sphere::new(r).unwrap());
    let (depth, _) = penetrating(
        &query(
            &sphere(0.3),
            &sphere(0.5),
            RelativePose::from_matrix(DMat3::IDENTITY, DVec3::ZERO),
        ),
        "coincident spheres",
    );
    assert!((depth - 0.8).abs() < 1e-15);
    // Separated shapes: GJK's distance.
    let apart = query(
        &cube(),
        &cube(),
        RelativePose::from_matrix(
            DMat3::from_quat(DQuat::from_rotation_z(0.3)),
            DVec3::new(3.0, 0.0, 0.0),
        ),
    );
    assert!(matches!(apart, Outcome::Separated { .. }), "{apart}");
}

#[test]
fn epa_sample_within_its_stated_bounds() {
    let Some(dir) = shared_data("problems") else {
        return;
    };
    let path = dir.join("epa_sample.json");
    let file = ProblemFile::load(&path).unwrap();
    let raw: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    let shapes = file.build_shapes().unwrap();
    let mut failures = Vec::new();
    for (i, p) in file.problems.iter().enumerate() {
        let truth = &raw["problems"][i];
        let true_distance = truth["true_distance"].as_f64().unwrap();
        let kind = truth["truth"].as_str().unwrap();
        let outcome = query(&shapes[p.a], &shapes[p.b], p.b_in_a());
        let label = format!("problem {i} ({}): {outcome}", truth["origin"]);
        let Some(signed) = outcome.signed_distance() else {
            failures.push(format!("{label}: no answer"));
            continue;
        };
        let bound = 1e-6 * true_distance.abs().max(1.0);
        if kind != "touching" && (signed - true_distance).abs() > bound {
            failures.push(format!("{label}: {signed:e} vs truth {true_distance:e}"));
        }
        if let (Some(normal), Some(expected)) = (outcome.normal(), truth["true_normal"].as_array())
        {
            let expected = DVec3::new(
                expected[0].as_f64().unwrap(),
                expected[1].as_f64().unwrap(),
                expected[2].as_f64().unwrap(),
            );
            // Polytopes and rounded shapes (cores plus radii) give exact normals; on an
            // ellipsoid EPA's face normal is a chord's, good to √(depth accuracy).
            let curved = [p.a, p.b]
                .iter()
                .any(|&i| matches!(shapes[i], Shape::Ellipsoid(_)));
            let limit = if curved { 1e-4 } else { 1e-6 };
            if kind == "overlap" && normal.angle_between(expected) > limit {
                failures.push(format!("{label}: normal {normal} vs {expected}"));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The exact penetration depth of two small polytopes: the Minkowski difference's hull
/// from every vertex difference (exact Quickhull), and its face nearest the origin.
fn exact_polytope_depth(a: &[DVec3], b: &[DVec3]) -> Option<f64> {
    use collidescope::shape::hull::quickhull::{exact_hull, height};
    let mut cso: Vec<DVec3> = a
        .iter()
        .flat_map(|p| b.iter().map(move |q| *p - *q))
        .collect();
    cso.sort_by(|x, y| x.to_array().partial_cmp(&y.to_array()).unwrap());
    cso.dedup();
    let hull = exact_hull(&cso)?;
    let mut best = f64::INFINITY;
    for t in &hull.triangles {
        let (p, q, r) = (cso[t[0]], cso[t[1]], cso[t[2]]);
        if height(p, q, r, DVec3::ZERO) > 0.0 {
            return None; // the origin is outside: no penetration
        }
        let n = (q - p).cross(r - p).normalize();
        best = best.min(n.dot(p));
    }
    Some(best)
}

#[test]
fn random_polytopes_match_the_exact_minkowski_hull_and_parry_where_it_answers() {
    use collidescope::parry_bridge::parry_penetration;
    let mut rng = Rng::new(44);
    let (mut checked, mut parry_agreed, mut parry_failed) = (0, 0, 0);
    for round in 0..200 {
        let cloud =
            |rng: &mut Rng, n: usize| -> Vec<DVec3> { (0..n).map(|_| rng.vector(0.5)).collect() };
        let (na, nb) = (4 + rng.index(20), 4 + rng.index(20));
        let (pa, pb) = (cloud(&mut rng, na), cloud(&mut rng, nb));
        let offset = rng.vector(0.4);
        let a = Shape::Polytope(Polytope::from_points(&pa).unwrap());
        let b = Shape::Polytope(Polytope::from_points(&pb).unwrap());
        let rel = RelativePose::from_matrix(DMat3::IDENTITY, offset);
        let moved: Vec<DVec3> = pb.iter().map(|p| *p + offset).collect();
        let Some(expected) = exact_polytope_depth(&pa, &moved) else {
            continue;
        };
        if expected <= 1e-9 {
            continue;
        }
        let label = format!("round {round}");
        let (depth, normal) = penetrating(&query(&a, &b, rel), &label);
        assert!(
            (depth - expected).abs() <= 1e-9 * expected.max(1.0),
            "{label}: depth {depth:e}, exact {expected:e}"
        );
        assert!((normal.length() - 1.0).abs() < 1e-12);
        checked += 1;
        match parry_penetration(&a, &b, &rel) {
            Some((d, _)) if (d - expected).abs() <= 1e-6 * expected.max(1.0) => parry_agreed += 1,
            _ => parry_failed += 1,
        }
    }
    eprintln!("{checked} pairs exact; parry3d-f64 agreed on {parry_agreed}, missed {parry_failed}");
    assert!(checked > 80, "{checked}");
}

/// Distance from segment `p + t·(q − p)`, t ∈ [0, 1], to the axis-aligned box of half
/// extents `h`: the point–box distance is convex in t, so a golden-section search on it
/// is exact to round-off (an oracle independent of GJK).
fn segment_box_distance(p: DVec3, q: DVec3, h: DVec3) -> f64 {
    let at = |t: f64| {
        let x = p + (q - p) * t;
        (x - x.clamp(-h, h)).length()
    };
    let (mut lo, mut hi) = (0.0f64, 1.0f64);
    let g = (5f64.sqrt() - 1.0) / 2.0;
    for _ in 0..200 {
        let (m1, m2) = (hi - g * (hi - lo), lo + g * (hi - lo));
        if at(m1) <= at(m2) {
            hi = m2;
        } else {
            lo = m1;
        }
    }
    at(0.5 * (lo + hi)).min(at(0.0)).min(at(1.0))
}

#[test]
fn capsule_against_cuboid_touching_boxes_and_thin_plates() {
    use collidescope::parry_bridge::parry_penetration;
    let mut rng = Rng::new(45);
    let (mut checked, mut parry_off) = (0, 0);
    // A capsule sinking into a box with its axis outside the box.
    for _ in 0..200 {
        let h = rng.in_range3(0.2, 0.8);
        let (r, half) = (rng.range(0.05, 0.3), rng.range(0.1, 0.6));
        let q = rng.rotation();
        let t = rng.vector(1.0) * (h + DVec3::splat(r + half));
        let axis = q * DVec3::Y * half;
        let gap = segment_box_distance(t - axis, t + axis, h);
        if gap < 1e-3 || gap > r - 1e-4 {
            continue;
        }
        let expected = r - gap;
        let (a, b) = (
            Shape::Cuboid(Cuboid::new(h).unwrap()),
            Shape::Capsule(Capsule::new(r, half).unwrap()),
        );
        let rel = RelativePose::from_matrix(DMat3::from_quat(q), t);
        let (depth, _) = penetrating(&query(&a, &b, rel), "capsule in box");
        assert!((depth - expected).abs() <= 1e-9, "{depth} vs {expected}");
        checked += 1;
        if !parry_penetration(&a, &b, &rel).is_some_and(|(d, _)| (d - expected).abs() <= 1e-6) {
            parry_off += 1;
        }
    }
    // Boxes face to face, touching or overlapping by 1e-9 … 1e-3, slid and turned in plane.
    for k in 0..100 {
        let overlap = [0.0, 1e-9, 1e-6, 1e-3][k % 4];
        let a = Shape::Cuboid(Cuboid::new(DVec3::new(0.5, 0.3, 0.4)).unwrap());
        let b = Shape::Cuboid(Cuboid::new(DVec3::new(0.2, 0.25, 0.3)).unwrap());
        let turn = DMat3::from_rotation_x(rng.range(-1.0, 1.0));
        let t = DVec3::new(0.7 - overlap, rng.range(-0.2, 0.2), rng.range(-0.2, 0.2));
        let outcome = query(&a, &b, RelativePose::from_matrix(turn, t));
        let (expected, _) = box_box_depth(a_half(&a), DVec3::new(0.2, 0.25, 0.3), turn, t);
        match outcome {
            Outcome::Penetrating { depth, .. } => {
                assert!(
                    (depth - expected).abs() <= 1e-12,
                    "{depth:e} vs {expected:e}"
                )
            }
            Outcome::Touching { .. } => assert!(expected.abs() <= 1e-12, "{expected:e}"),
            Outcome::Separated { distance, .. } => {
                assert!(
                    distance <= 1e-12 && expected <= 1e-12,
                    "{distance:e} {expected:e}"
                )
            }
            other => panic!("boxes overlapping by {overlap:e}: {other}"),
        }
        checked += 1;
    }
    // Two thin plates (1e-4 thick) crossing: the depth is the plates' thickness overlap.
    for _ in 0..50 {
        let plate = DVec3::new(0.5, 0.5, 0.5e-4);
        let a = Shape::Cuboid(Cuboid::new(plate).unwrap());
        let b = Shape::Cuboid(Cuboid::new(plate).unwrap());
        let turn = DMat3::from_rotation_z(rng.range(0.0, 1.5));
        let t = DVec3::new(
            rng.range(-0.3, 0.3),
            rng.range(-0.3, 0.3),
            rng.range(-0.5e-4, 0.5e-4),
        );
        let (expected, _) = box_box_depth(plate, plate, turn, t);
        let (depth, _) = penetrating(&query(&a, &b, RelativePose::from_matrix(turn, t)), "plates");
        assert!(
            (depth - expected).abs() <= 1e-12,
            "{depth:e} vs {expected:e}"
        );
        checked += 1;
    }
    eprintln!(
        "{checked} cases exact; parry3d-f64 off by more than 1e-6 on {parry_off} capsule–box cases"
    );
    assert!(checked > 150, "{checked}");
}

fn a_half(shape: &Shape) -> DVec3 {
    match shape {
        Shape::Cuboid(c) => c.half_extents(),
        _ => unreachable!(),
    }
}

/// Boxes laid on each other by construction (B's lowest point along one of A's face
/// normals put on that face, within A's face; B turned anyhow; or B's face flush on
/// A's): the closed form says touching, as EPA's own expansions do, with witnesses a
/// point of each box that close; a hair (1e-7 of the size) deeper or apart it does not.
#[test]
fn touching_boxes_in_closed_form_agree_with_epa_and_parry() {
    use collidescope::parry_bridge::parry_penetration;
    let mut rng = Rng::new(47);
    let closed = |a: &Shape, b: &Shape, rel| {
        penetration(
            a,
            b,
            rel,
            gjk_settings_for_epa(),
            EpaSettings::default(),
            None,
        )
    };
    let (mut touching, mut epa_agrees) = (0, 0);
    for i in 0..300 {
        let ha = rng.in_range3(0.2, 0.8);
        let hb = rng.in_range3(0.1, 0.5);
        // Every third pair face to face (B unturned but for a quarter turn about x).
        let rb = if i % 3 == 0 {
            DMat3::from_rotation_x(std::f64::consts::FRAC_PI_2 * (i % 2) as f64)
        } else {
            DMat3::from_quat(rng.rotation())
        };
        let axis = i % 3;
        let sign = if i % 2 == 0 { 1.0 } else { -1.0 };
        let n = DVec3::AXES[axis] * sign;
        // B's support along −n, laid on A's face at a point well inside it.
        let reach = hb.x * rb.x_axis.dot(n).abs()
            + hb.y * rb.y_axis.dot(n).abs()
            + hb.z * rb.z_axis.dot(n).abs();
        // That point (a vertex of B) a little off the middle of A's face.
        let lowest = rb * (-(rb.transpose() * n).signum() * hb);
        let mut tb = rng.in_range3(-0.1, 0.1) - lowest;
        tb[axis] = sign * (ha[axis] + reach);
        let rel = RelativePose {
            translation: tb,
            rotation: rb,
        };
        let (a, b) = (
            Shape::Cuboid(Cuboid::new(ha).unwrap()),
            Shape::Cuboid(Cuboid::new(hb).unwrap()),
        );
        let run = closed(&a, &b, rel);
        let Outcome::Touching { normal } = run.summary.outcome else {
            panic!("case {i}: {}", run.summary.outcome);
        };
        touching += 1;
        assert!((normal - n).length() < 1e-9, "case {i}: {normal}");
        let (wa, wb) = run.witnesses().expect("touching has its points");
        assert!((wa - wb).length() < 1e-9, "case {i}");
        assert!(
            (wa.abs() - ha).max_element() < 1e-12,
            "case {i}: {wa} not on A"
        );
        let local = rb.transpose() * (wb - tb);
        assert!(
            (local.abs() - hb).max_element() < 1e-12,
            "case {i}: {wb} not on B"
        );
        // EPA's own path proves the same (or leaves a hair's interval: contact).
        match query(&a, &b, rel) {
            Outcome::Touching { .. } => epa_agrees += 1,
            Outcome::Contact { distance } => assert!(distance < 1e-9, "case {i}"),
            Outcome::Penetrating { depth, .. } => assert!(depth < 1e-9, "case {i}: {depth}"),
            other => panic!("case {i}: EPA says {other}"),
        }
        if let Some((parry, _)) = parry_penetration(&a, &b, &rel) {
            assert!(parry.abs() < 1e-9, "case {i}: parry {parry}");
        }
        // A hair deeper: penetrating; a hair apart: separated.
        for (shift, deeper) in [(-1e-7, true), (1e-7, false)] {
            let moved = RelativePose {
                translation: tb + n * shift,
                ..rel
            };
            match closed(&a, &b, moved).summary.outcome {
                Outcome::Penetrating { depth, .. } if deeper => {
                    assert!((depth - 1e-7).abs() < 1e-12, "case {i}: {depth}")
                }
                Outcome::Separated { distance, .. } if !deeper => {
                    assert!((distance - 1e-7).abs() < 1e-12, "case {i}: {distance}")
                }
                other => panic!("case {i}, shift {shift}: {other}"),
            }
        }
    }
    assert_eq!(touching, 300);
    assert!(
        epa_agrees >= 200,
        "EPA's expansions said touching on {epa_agrees}"
    );
}

/// Boxes apart, turned anyhow, from a hair to a box's width: where the closed form
/// answers (a vertex or two edges realise the separating axis's gap) its distance is
/// GJK's within the stage's 1e-9, its lower bound below it, its points on the boxes.
#[test]
fn separated_boxes_in_closed_form_match_gjk() {
    let mut rng = Rng::new(48);
    let mut closed_forms = 0;
    for i in 0..600 {
        let ha = rng.in_range3(0.1, 0.8);
        let hb = rng.in_range3(0.1, 0.8);
        let rb = DMat3::from_quat(rng.rotation());
        let dir = rng.vector(1.0).normalize();
        // Out along `dir` until apart, then a gap of 1e-8 to 1 of the size.
        let reach = |h: DVec3, r: DMat3| {
            h.x * r.x_axis.dot(dir).abs()
                + h.y * r.y_axis.dot(dir).abs()
                + h.z * r.z_axis.dot(dir).abs()
        };
        let gap = 10f64.powf(rng.range(-8.0, 0.0));
        let tb = dir * (reach(ha, DMat3::IDENTITY) + reach(hb, rb) + gap);
        let rel = RelativePose {
            translation: tb,
            rotation: rb,
        };
        let (a, b) = (
            Shape::Cuboid(Cuboid::new(ha).unwrap()),
            Shape::Cuboid(Cuboid::new(hb).unwrap()),
        );
        let run = penetration(
            &a,
            &b,
            rel,
            gjk_settings_for_epa(),
            EpaSettings::default(),
            None,
        );
        let Outcome::Separated {
            distance,
            lower_bound,
        } = run.summary.outcome
        else {
            panic!("case {i}: {}", run.summary.outcome);
        };
        let Outcome::Separated { distance: gjk, .. } = query(&a, &b, rel) else {
            panic!("case {i}: GJK's stage does not find them apart");
        };
        assert!(
            (distance - gjk).abs() <= 1e-9 * gjk + 1e-15,
            "case {i}: {distance} vs {gjk}"
        );
        assert!(lower_bound <= distance && lower_bound > 0.0, "case {i}");
        if run.extras.gjk_stage.is_none() {
            closed_forms += 1;
            let (wa, wb) = run.witnesses().unwrap();
            assert!(((wa - wb).length() - distance).abs() <= 1e-15 * (1.0 + distance));
            assert!((wa.abs() - ha).max_element() <= 1e-12, "case {i}");
            assert!(
                ((rb.transpose() * (wb - tb)).abs() - hb).max_element() <= 1e-12,
                "case {i}"
            );
        }
    }
    assert!(
        closed_forms >= 100,
        "{closed_forms} answered in closed form"
    );
}

/// Boxes of every build (plain, flat to 1e-12, needles to 1e-9) laid face to face,
/// vertex on face or turned anyhow, at gaps and depths from 1e-16 to 0.1 of the size:
/// the closed forms and EPA's own path (GJK, then the expansions) give the same signed
/// distance within 1e-8 of the size, and the closed form says touching only where the
/// other path's answer is within round-off of 0 (a gap it proves stays separated).
#[test]
fn box_closed_forms_agree_with_epa_on_hairline_gaps_and_depths() {
    let mut rng = Rng::new(99);
    let open = EpaSettings {
        closed_forms: false,
        ..EpaSettings::default()
    };
    let mut verdicts = std::collections::BTreeMap::new();
    for i in 0..6000 {
        let mut half = || {
            let mut v = rng.in_range3(0.01, 1.0);
            match i % 5 {
                0 => v.z = 10f64.powf(rng.range(-12.0, -4.0)),
                1 => {
                    v.x = 10f64.powf(rng.range(-9.0, -3.0));
                    v.y = v.x;
                }
                _ => {}
            }
            v
        };
        let (ha, hb) = (half(), half());
        let rb = match i % 4 {
            0 => DMat3::IDENTITY,
            1 => DMat3::from_rotation_z(std::f64::consts::FRAC_PI_2),
            _ => DMat3::from_quat(rng.rotation()),
        };
        // B's lowest vertex along −n over A's face (or past its edge), then moved by the gap.
        let axis = i % 3;
        let sign = if (i / 3) % 2 == 0 { 1.0 } else { -1.0 };
        let n = DVec3::AXES[axis] * sign;
        let lowest = rb * (-(rb.transpose() * n).signum() * hb);
        let magnitude = 10f64.powf(rng.range(-16.0, -1.0));
        let gap = match i % 4 {
            0 => 0.0,
            1 => magnitude,
            _ => -magnitude,
        };
        let mut tb = rng.in_range3(-1.2, 1.2) * ha - lowest;
        tb[axis] = sign * (ha[axis] - lowest.dot(n) + gap);
        let rel = RelativePose {
            translation: tb,
            rotation: rb,
        };
        let (a, b) = (
            Shape::Cuboid(Cuboid::new(ha).unwrap()),
            Shape::Cuboid(Cuboid::new(hb).unwrap()),
        );
        let closed = penetration(
            &a,
            &b,
            rel,
            gjk_settings_for_epa(),
            EpaSettings::default(),
            None,
        );
        let expanded = penetration(&a, &b, rel, gjk_settings_for_epa(), open, None);
        let (closed, expanded) = (closed.summary.outcome, expanded.summary.outcome);
        *verdicts
            .entry((closed.status_name(), expanded.status_name()))
            .or_insert(0) += 1;
        let size = ha.length() + hb.length() + tb.length();
        if let (Some(c), Some(e)) = (closed.signed_distance(), expanded.signed_distance()) {
            assert!(
                (c - e).abs() <= 1e-8 * size,
                "case {i}: {closed} against {expanded}"
            );
            if matches!(closed, Outcome::Touching { .. }) {
                assert!(
                    e.abs() <= 1e-13 * size,
                    "case {i}: touching, but EPA's path: {expanded}"
                );
            }
        }
    }
    // Every kind of answer was met.
    for kind in ["penetrating", "separated", "touching"] {
        assert!(verdicts.keys().any(|(c, _)| *c == kind), "{verdicts:?}");
    }
}

/// A sphere whose centre lies inside a cylinder: the depth is the centre's distance to
/// the nearer of the side and the caps, plus the radius (a closed form). EPA on the
/// cylinder's curved side closes in slowly; 256 expansions left one such pair at a
/// bracket of 3e-7 (relative) and answered `iteration_cap`. A bracket within
/// `acceptable` (1e-6 · max(1, d)) at the cap is now an answer, and a capped run's
/// bracket holds the truth (its upper end the smallest support plane seen).
#[test]
fn spheres_inside_cylinders_match_the_closed_form() {
    use collidescope::shape::Cylinder;
    let mut rng = Rng::new(60);
    let rows = [
        [
            0.31401638767306594,
            -0.9373977498554523,
            -0.1505960385889798,
        ],
        [
            -0.09194379026814403,
            0.1278487663375225,
            -0.9875226743609997,
        ],
        [
            0.9449550506261588,
            0.3239446735353249,
            -0.046041294336773175,
        ],
    ];
    let mut pairs = vec![(
        0.030004208140319007,
        0.06693078423331815,
        0.07249979396890625,
        DVec3::new(
            -0.00013139707103908922,
            -2.990777503324928e-05,
            2.57443623233811e-05,
        ),
        DMat3::from_cols_array_2d(&rows).transpose(),
    )];
    for _ in 0..200 {
        let (r, h) = (rng.range(0.01, 2.0), rng.range(0.01, 2.0));
        let radial = rng.range(0.0, 0.9) * r;
        let angle = rng.range(0.0, std::f64::consts::TAU);
        let centre = DVec3::new(
            radial * angle.cos(),
            rng.range(-0.9, 0.9) * h,
            radial * angle.sin(),
        );
        pairs.push((
            r,
            h,
            rng.range(0.01, 1.0),
            centre,
            DMat3::from_quat(rng.rotation()),
        ));
    }
    let (mut answered, mut capped) = (0, 0);
    for (i, (r, h, radius, centre, turn)) in pairs.into_iter().enumerate() {
        let cylinder = Shape::Cylinder(Cylinder::new(r, h).unwrap());
        let ball = Shape::Sphere(Sphere::new(radius).unwrap());
        let rel = RelativePose::from_matrix(turn, centre);
        let radial = DVec3::new(centre.x, 0.0, centre.z).length();
        let truth = (r - radial).min(h - centre.y.abs()) + radius;
        let outcome = query(&cylinder, &ball, rel);
        let label = format!("pair {i}: r {r}, h {h}, centre {centre}");
        // The pair that was capped.
        if i == 0 {
            assert!(
                !matches!(outcome, Outcome::IterationCap { .. }),
                "{label}: {outcome}"
            );
        }
        match outcome {
            Outcome::Penetrating { depth, .. } => {
                answered += 1;
                assert!(
                    (depth - truth).abs() <= 1e-6 * truth.max(1.0),
                    "{label}: {depth} vs {truth}"
                );
            }
            Outcome::IterationCap {
                lower_bound,
                upper_bound,
            } => {
                capped += 1;
                let slack = 1e-9 * truth.max(1.0);
                assert!(
                    lower_bound - slack <= truth && truth <= upper_bound + slack,
                    "{label}: [{lower_bound}, {upper_bound}] vs {truth}"
                );
            }
            other => panic!("{label}: {other}"),
        }
    }
    assert!(
        capped * 50 <= answered,
        "{capped} capped, {answered} answered"
    );
}
