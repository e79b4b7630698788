//! Adversarial meshes for the mesh speed-ups (found by an independent review): a
//! concavity under the hulls' nearest point (the settled search's lower bound is the
//! floor), an overlap hidden behind a near-zero best (ties never prune a pair that may
//! meet), sliver triangles whose computed normal is round-off (the plane tests measure
//! the triangle's own corners), and the floor far from the origin, tiny and turned.

mod common;

use collidescope::composite::midphase::bracket;
use collidescope::composite::triangle_pair::{triangle_gap, triangles_apart};
use collidescope::composite::{run_composite, Composite, Pieces, Side, TriMesh};
use collidescope::pose::RelativePose;
use collidescope::shape::{Cuboid, Polytope, Shape};
use collidescope::solver::{Algorithm, Method, Outcome, SolverSettings};
use common::Rng;
use glam::{DMat3, DVec3};

fn at(t: DVec3) -> RelativePose {
    RelativePose::from_matrix(DMat3::IDENTITY, t)
}

fn tri_shape(t: [DVec3; 3]) -> Shape {
    Shape::Polytope(Polytope::triangle(t).unwrap())
}

fn exact_tri_dist(a: [DVec3; 3], b: [DVec3; 3]) -> f64 {
    collidescope::parry_bridge::parry_gjk_distance(&tri_shape(a), &tri_shape(b), &at(DVec3::ZERO))
}

/// A sliver: t0, t1 = t0 + d, t2 = fl(t0 + 3d). Returns it with the computed
/// normal's height of t1 (what triangles_apart's plane test assumes is 0).
fn sliver(rng: &mut Rng, len: f64) -> ([DVec3; 3], f64, DVec3) {
    let t0 = DVec3::new(
        rng.range(-1.0, 1.0),
        rng.range(-1.0, 1.0),
        rng.range(-1.0, 1.0),
    );
    let d = DVec3::new(rng.normal(), rng.normal(), rng.normal()).normalize() * len;
    let t1 = t0 + d;
    let t2 = t0 + 3.0 * d;
    let normal = (t1 - t0).cross(t2 - t0);
    let n = normal / normal.length();
    ([t0, t1, t2], n.dot(t1 - t0), d)
}

#[test]
fn sliver_triangles_apart() {
    let mut rng = Rng::new(1);
    let mut found = 0;
    for _ in 0..20000 {
        let (a, h, d) = sliver(&mut rng, 10.0);
        if !h.is_finite() || h.abs() < 0.5 {
            continue;
        }
        // B: a small triangle across the sliver at its point t0 + 0.5 d.
        let p = a[0] + 0.5 * d;
        let u = d.any_orthonormal_vector();
        let v = d.normalize().cross(u);
        let s = 0.01;
        let b = [p + s * u, p + s * v, p - s * (u + v)];
        let exact = exact_tri_dist(a, b);
        let apart = triangles_apart(a, b, 0.0);
        let gap = triangle_gap(a, b, 0.0);
        assert!(gap <= exact + 1e-12, "gap {gap} > {exact}");
        if apart && exact < 1e-9 {
            found += 1;
            if found == 1 {
                println!("APART BUT MEET: a={a:?} b={b:?} h={h} exact={exact}");
            }
        }
    }
    println!("sliver triangles_apart wrong: {found}");
    assert_eq!(found, 0, "triangles_apart true for meeting triangles");
}

/// plane_gap positive for a cube the sliver pierces, and the distance query then
/// claims Separated.
#[test]
fn sliver_plane_gap_distance() {
    let mut rng = Rng::new(2);
    let mut bad_gap = 0;
    let mut bad_query = 0;
    let mut bad_pen = 0;
    for _ in 0..20000 {
        let (a, h, d) = sliver(&mut rng, 10.0);
        if !h.is_finite() || h.abs() < 1.0 {
            continue;
        }
        let dir = d.normalize();
        let u = dir.any_orthonormal_vector();
        let v = dir.cross(u);
        // The cube (axis aligned, half 0.1) placed so that the sliver passes through it
        // near a corner region: centre c = p + 0.09 (u + v)-ish offset.
        let p = a[0] + 0.5 * d;
        let c = p + 0.085 * (u + v);
        let cube = Shape::Cuboid(Cuboid::new(DVec3::splat(0.1)).unwrap());
        // Decoy triangle, just outside the cube's +x face, nearer the centre than p?
        let dist_cp = (p - c).length();
        let gap_d = 0.105; // 0.005 outside +x face
        if gap_d >= dist_cp {
            continue;
        }
        let q = c + DVec3::new(gap_d, 0.0, 0.0);
        let decoy = [
            q + DVec3::new(0.0, -0.01, -0.01),
            q + DVec3::new(0.0, 0.01, -0.01),
            q + DVec3::new(0.0, 0.0, 0.02),
        ];
        let verts = vec![a[0], a[1], a[2], decoy[0], decoy[1], decoy[2]];
        let Ok(mesh) = TriMesh::allowing_non_manifold_edges(verts, vec![[0, 1, 2], [3, 4, 5]])
        else {
            continue;
        };
        let mesh = mesh.0;
        let pieces = Pieces::Triangles(mesh.clone());
        let exact = collidescope::parry_bridge::parry_gjk_distance(&tri_shape(a), &cube, &at(c));
        if exact > 1e-9 {
            continue;
        }
        if pieces.plane_gap(0, &cube, &at(c)).is_some_and(|g| g > 0.0) {
            bad_gap += 1;
            let comp = Composite::of_mesh(mesh).unwrap();
            let ours = run_composite(
                Side::Composite(&comp),
                Side::Convex(&cube),
                at(c),
                None,
                Method::of(Algorithm::GJK),
                SolverSettings::default(),
                false,
                None,
            );
            if ours.answer.lower > 0.0 {
                bad_query += 1;
                if bad_query == 1 {
                    println!(
                        "DISTANCE WRONG: sliver {a:?} cube at {c:?}: {:?} lower {}",
                        ours.answer.outcome, ours.answer.lower
                    );
                }
            }
            let pen = run_composite(
                Side::Composite(&comp),
                Side::Convex(&cube),
                at(c),
                None,
                Method::epa(),
                SolverSettings::default(),
                false,
                None,
            );
            if !matches!(pen.answer.outcome, Outcome::Penetrating { .. }) {
                bad_pen += 1;
                if bad_pen == 1 {
                    println!("PEN: {:?}", pen.answer.outcome);
                }
            }
        }
    }
    println!("plane_gap wrong {bad_gap}, distance query wrong {bad_query}, pen {bad_pen}");
    assert_eq!(bad_gap, 0);
}

fn mesh_of(tris: &[[DVec3; 3]]) -> TriMesh {
    let v = tris.iter().flatten().copied().collect();
    let t = (0..tris.len() as u32)
        .map(|k| [3 * k, 3 * k + 1, 3 * k + 2])
        .collect();
    TriMesh::allowing_non_manifold_edges(v, t).unwrap().0
}

fn horiz(cx: f64, cy: f64, z: f64, r: f64) -> [DVec3; 3] {
    [
        DVec3::new(cx - r, cy - r, z),
        DVec3::new(cx + r, cy - r, z),
        DVec3::new(cx, cy + r, z),
    ]
}

/// The settled early exit reports the seed's own lower bound, not the floor: a
/// triangle nearer than the seed (within the tolerance) is never visited.
#[test]
fn settled_lower_exceeds_true_distance() {
    let mut bad = 0;
    let mut total = 0;
    for &tol in &[1e-10, 1e-6, 1e-3] {
        for &delta_rel in &[0.3, 0.9] {
            let delta = tol * delta_rel;
            for k in 0..40 {
                let x0 = -0.2 + 0.01 * k as f64;
                let y0 = 0.13 * ((k * 7) % 5) as f64 - 0.2;
                // Centre triangle low (z = 0), two side triangles up at z = delta.
                let a = mesh_of(&[
                    horiz(0.0, 0.0, 0.0, 0.3),
                    horiz(1.5, 0.0, delta, 0.3),
                    horiz(-1.5, 0.0, delta, 0.3),
                    horiz(0.0, 1.5, delta, 0.3),
                    horiz(0.0, -1.5, delta, 0.3),
                ]);
                let ca = Composite::of_mesh(a.clone()).unwrap();
                let settings = SolverSettings {
                    tolerance: tol,
                    ..SolverSettings::default()
                };
                let truth = 1.0 - delta;
                // B convex: a wide box whose bottom is z = 1.
                let cube = Shape::Cuboid(Cuboid::new(DVec3::new(3.0, 3.0, 0.5)).unwrap());
                let ours = run_composite(
                    Side::Composite(&ca),
                    Side::Convex(&cube),
                    at(DVec3::new(x0, y0, 1.5)),
                    None,
                    Method::of(Algorithm::GJK),
                    settings,
                    false,
                    None,
                );
                total += 1;
                if ours.answer.lower > truth {
                    bad += 1;
                    println!(
                        "CONVEX tol {tol} delta {delta}: lower {} > truth {truth} (upper {}, floor {:?}, runs {})",
                        ours.answer.lower,
                        ours.answer.upper,
                        ours.answer.hull_floor,
                        ours.answer.sub_pairs.len()
                    );
                }
                // B mesh: a big square (two triangles) at z = 0 in B's frame.
                let b = mesh_of(&[
                    [
                        DVec3::new(-3.0, -3.0, 0.0),
                        DVec3::new(3.0, -3.0, 0.0),
                        DVec3::new(3.0, 3.0, 0.0),
                    ],
                    [
                        DVec3::new(-3.0, -3.0, 0.0),
                        DVec3::new(3.0, 3.0, 0.0),
                        DVec3::new(-3.0, 3.0, 0.0),
                    ],
                ]);
                let cb = Composite::of_mesh(b).unwrap();
                let ours = run_composite(
                    Side::Composite(&ca),
                    Side::Composite(&cb),
                    at(DVec3::new(x0, y0, 1.0)),
                    None,
                    Method::of(Algorithm::GJK),
                    settings,
                    false,
                    None,
                );
                total += 1;
                if ours.answer.lower > truth {
                    bad += 1;
                    println!(
                        "MESH tol {tol} delta {delta}: lower {} > truth {truth} (upper {}, floor {:?}, runs {})",
                        ours.answer.lower,
                        ours.answer.upper,
                        ours.answer.hull_floor,
                        ours.answer.sub_pairs.len()
                    );
                }
            }
        }
    }
    println!("settled: {bad} of {total} brackets miss the distance");
    assert_eq!(bad, 0);
}

/// Far from the origin / tiny / rotated B: the floor against brute force.
#[test]
fn floor_far_tiny_rotated() {
    let mut rng = Rng::new(7);
    let gjk = Method::of(Algorithm::GJK);
    let settings = SolverSettings::default();
    let mut bad = 0;
    for &(offset, scale) in &[(1e6, 1.0), (0.0, 1e-6), (1e3, 1e-3), (0.0, 1.0)] {
        for _ in 0..30 {
            // Random bumpy meshes: grids with random heights.
            let grid = |rng: &mut Rng| {
                let n = 4;
                let mut v = Vec::new();
                for j in 0..=n {
                    for i in 0..=n {
                        v.push(
                            DVec3::new(i as f64, j as f64, rng.range(-0.5, 0.5)) * scale / n as f64,
                        );
                    }
                }
                let id = |i: usize, j: usize| (j * (n + 1) + i) as u32;
                let mut t = Vec::new();
                for j in 0..n {
                    for i in 0..n {
                        t.push([id(i, j), id(i + 1, j), id(i + 1, j + 1)]);
                        t.push([id(i, j), id(i + 1, j + 1), id(i, j + 1)]);
                    }
                }
                TriMesh::new(v, t).unwrap()
            };
            let base = DVec3::splat(offset);
            let a0 = grid(&mut rng);
            let a = TriMesh::new(
                a0.vertices().iter().map(|v| *v + base).collect(),
                a0.triangles().to_vec(),
            )
            .unwrap();
            let b = grid(&mut rng);
            let q = glam::DQuat::from_xyzw(rng.normal(), rng.normal(), rng.normal(), rng.normal())
                .normalize();
            let t = base
                + DVec3::new(
                    rng.range(-0.5, 1.5),
                    rng.range(-0.5, 1.5),
                    rng.range(0.5, 1.5),
                ) * scale;
            let pose = RelativePose::from_matrix(DMat3::from_quat(q), t);
            let (ca, cb) = (
                Composite::of_mesh(a.clone()).unwrap(),
                Composite::of_mesh(b.clone()).unwrap(),
            );
            let ours = run_composite(
                Side::Composite(&ca),
                Side::Composite(&cb),
                pose,
                None,
                gjk,
                settings,
                false,
                None,
            );
            let mut least = f64::INFINITY;
            let mut least_lower = f64::INFINITY;
            for i in 0..a.triangle_count() {
                for j in 0..b.triangle_count() {
                    let sa = tri_shape(a.corners(i));
                    let sb = tri_shape(b.corners(j));
                    let run = gjk.run_untraced(&sa, &sb, pose, settings);
                    let (lo, up) = bracket(&run.summary.outcome);
                    least = least.min(up);
                    least_lower = least_lower.min(lo);
                }
            }
            if ours.answer.lower > least || ours.answer.upper < least_lower {
                bad += 1;
                let no_start = collidescope::composite::composite_composite_distance(
                    ca.tree(),
                    cb.tree(),
                    pose,
                    gjk,
                    settings,
                    false,
                );
                let start = collidescope::composite::hull_start::hull_start(
                    &ca,
                    Side::Composite(&cb),
                    pose,
                    settings,
                );
                let with_start =
                    collidescope::composite::midphase::composite_composite_distance_from(
                        ca.tree(),
                        cb.tree(),
                        pose,
                        gjk,
                        settings,
                        false,
                        start,
                    );
                println!("  no start [{}, {}] runs {}; with start [{}, {}] runs {} pruned {}; start {:?}",
                    no_start.lower, no_start.upper, no_start.sub_pairs.len(),
                    with_start.lower, with_start.upper, with_start.sub_pairs.len(), with_start.nodes_pruned, start);
                // the nearest brute pair and its closed-form gap
                let mut best = (f64::INFINITY, 0, 0);
                for i in 0..a.triangle_count() {
                    for j in 0..b.triangle_count() {
                        let run = gjk.run_untraced(
                            &tri_shape(a.corners(i)),
                            &tri_shape(b.corners(j)),
                            pose,
                            settings,
                        );
                        let up = bracket(&run.summary.outcome).1;
                        if up < best.0 {
                            best = (up, i, j);
                        }
                    }
                }
                let (_, i, j) = best;
                let bc = b.corners(j).map(|c| pose.transform_point(c));
                println!(
                    "  nearest pair ({i},{j}) up {} triangle_gap {}",
                    best.0,
                    triangle_gap(a.corners(i), bc, 0.0)
                );
                if let Some(s) = start {
                    let top = a
                        .corners(i)
                        .iter()
                        .map(|c| s.normal.dot(*c))
                        .fold(f64::NEG_INFINITY, f64::max);
                    println!("  corners_gap {}", s.b_low - top - s.round_off);
                }
                println!(
                    "offset {offset} scale {scale}: ours [{}, {}], brute [{least_lower}, {least}] floor {:?}",
                    ours.answer.lower, ours.answer.upper, ours.answer.hull_floor
                );
            }
        }
    }
    assert_eq!(bad, 0);
}

/// A near-touching pair found first (upper below the tie) prunes every overlapping pair
/// after it as a "tie" (gap 0 >= best - tie): the distance answer's upper stays > 0 and
/// penetration returns it as if apart.
#[test]
fn tie_hides_overlap_from_penetration() {
    let mut report = Vec::new();
    for &(tol, delta) in &[(1e-10, 5e-15), (1e-3, 1e-7)] {
        for order in 0..2 {
            for shift in [0.0, 5.0, -5.0] {
                let t1 = horiz(shift, 0.0, 0.0, 0.5);
                // T2: vertical triangle in the plane x = 5 - shift.
                let x = 5.0 - shift;
                let t2 = [
                    DVec3::new(x, -1.0, -1.0),
                    DVec3::new(x, 1.0, -1.0),
                    DVec3::new(x, 0.0, 1.0),
                ];
                let u1 = horiz(shift, 0.0, delta, 0.5);
                // U2: vertical triangle in the plane y = 0 crossing T2.
                let u2 = [
                    DVec3::new(x - 1.0, 0.0, -0.5),
                    DVec3::new(x + 1.0, 0.0, -0.5),
                    DVec3::new(x, 0.0, 0.8),
                ];
                let (a, b) = if order == 0 {
                    (mesh_of(&[t1, t2]), mesh_of(&[u1, u2]))
                } else {
                    (mesh_of(&[t2, t1]), mesh_of(&[u2, u1]))
                };
                let (ca, cb) = (
                    Composite::of_mesh(a).unwrap(),
                    Composite::of_mesh(b).unwrap(),
                );
                let settings = SolverSettings {
                    tolerance: tol,
                    ..SolverSettings::default()
                };
                let dist = run_composite(
                    Side::Composite(&ca),
                    Side::Composite(&cb),
                    at(DVec3::ZERO),
                    None,
                    Method::of(Algorithm::GJK),
                    settings,
                    false,
                    None,
                );
                let pen = run_composite(
                    Side::Composite(&ca),
                    Side::Composite(&cb),
                    at(DVec3::ZERO),
                    None,
                    Method::epa(),
                    settings,
                    false,
                    None,
                );
                println!(
                    "tol {tol} order {order} shift {shift}: distance {:?} [{}, {}] runs {} pruned {}; penetration {:?}",
                    dist.answer.outcome,
                    dist.answer.lower,
                    dist.answer.upper,
                    dist.answer.sub_pairs.len(),
                    dist.answer.nodes_pruned,
                    pen.answer.outcome
                );
                if !matches!(pen.answer.outcome, Outcome::Penetrating { .. }) {
                    report.push((tol, order, shift));
                }
            }
        }
    }
    assert!(report.is_empty(), "penetration missed: {report:?}");
}

/// Mesh–mesh penetration: a sliver of A pierces B's triangle deeply; a second pair only
/// nicks. triangles_apart skips the sliver pair.
#[test]
fn sliver_pair_skipped_in_penetration() {
    let mut rng = Rng::new(1);
    let mut bad = 0;
    let mut tried = 0;
    for _ in 0..4000 {
        let (a, h, d) = sliver(&mut rng, 10.0);
        if !h.is_finite() || h.abs() < 0.5 {
            continue;
        }
        let p = a[0] + 0.5 * d;
        let u = d.any_orthonormal_vector();
        let v = d.normalize().cross(u);
        let s = 0.01;
        let b = [p + s * u, p + s * v, p - s * (u + v)];
        if !(triangles_apart(a, b, 0.0) && exact_tri_dist(a, b) < 1e-12) {
            continue;
        }
        tried += 1;
        let (ca, cb) = (
            Composite::of_mesh(mesh_of(&[a])).unwrap(),
            Composite::of_mesh(mesh_of(&[b])).unwrap(),
        );
        let pen = run_composite(
            Side::Composite(&ca),
            Side::Composite(&cb),
            at(DVec3::ZERO),
            None,
            Method::epa(),
            SolverSettings::default(),
            false,
            None,
        );
        let direct = Method::epa().run_untraced(
            &tri_shape(a),
            &tri_shape(b),
            at(DVec3::ZERO),
            SolverSettings::default(),
        );
        if tried <= 2 {
            println!(
                "mesh pen {:?} | direct EPA {:?}",
                pen.answer.outcome, direct.summary.outcome
            );
        }
        if format!("{:?}", pen.answer.outcome) != format!("{:?}", direct.summary.outcome) {
            bad += 1;
        }
        if tried >= 50 {
            break;
        }
    }
    println!("sliver penetration differs in {bad} of {tried}");
    assert_eq!(bad, 0);
}
