//! Two meshes at random poses (issue 46: Pinocchio's and Coal's default geometry is a
//! mesh, a `BVHModel`): the distance search that starts from the hulls, prunes by their
//! separating plane and by the triangles' closed form, and the depth search that skips
//! sub-pairs no deeper than the deepest, answer as parry3d-f64's TriMesh–TriMesh
//! distance and as EPA run on every overlapping pair of triangles.

mod common;

use collidescope::composite::midphase::bracket;
use collidescope::composite::{run_composite, Composite, Side, TriMesh};
use collidescope::pose::RelativePose;
use collidescope::shape::{Polytope, Shape};
use collidescope::solver::{Algorithm, Method, Outcome, SolverSettings};
use common::Rng;
use glam::{DMat3, DQuat, DVec3};

/// A closed torus (major radius 1, minor `r`), `n` × `m` quads: non-convex, its hull
/// holds its hole.
fn torus(r: f64, n: usize, m: usize) -> TriMesh {
    let mut v = Vec::new();
    for i in 0..n {
        let u = std::f64::consts::TAU * i as f64 / n as f64;
        for j in 0..m {
            let w = std::f64::consts::TAU * j as f64 / m as f64;
            let rho = 1.0 + r * w.cos();
            v.push(DVec3::new(rho * u.cos(), rho * u.sin(), r * w.sin()));
        }
    }
    let id = |i: usize, j: usize| ((i % n) * m + (j % m)) as u32;
    let mut t = Vec::new();
    for i in 0..n {
        for j in 0..m {
            t.push([id(i, j), id(i + 1, j), id(i + 1, j + 1)]);
            t.push([id(i, j), id(i + 1, j + 1), id(i, j + 1)]);
        }
    }
    TriMesh::new(v, t).unwrap()
}

/// A shared mesh centred and scaled to radius ~1, when the data is present.
fn shared_mesh(name: &str) -> Option<TriMesh> {
    let path = common::shared_data("meshes")?.join(name);
    let triangles = collidescope::mesh::load_triangles(&path).ok()?;
    let points: Vec<DVec3> = triangles.iter().flatten().copied().collect();
    let centre = points.iter().copied().sum::<DVec3>() / points.len() as f64;
    let radius = points
        .iter()
        .map(|p| (*p - centre).length())
        .fold(0.0, f64::max);
    let vertices = points.iter().map(|p| (*p - centre) / radius).collect();
    let indices = (0..triangles.len() as u32)
        .map(|t| [3 * t, 3 * t + 1, 3 * t + 2])
        .collect();
    Some(
        TriMesh::allowing_non_manifold_edges(vertices, indices)
            .unwrap()
            .0,
    )
}

fn to_parry(m: &TriMesh) -> parry3d_f64::shape::TriMesh {
    let points = m
        .vertices()
        .iter()
        .map(|p| parry3d_f64::math::Vector::new(p.x, p.y, p.z))
        .collect();
    parry3d_f64::shape::TriMesh::new(points, m.triangles().to_vec()).unwrap()
}

fn random_pose(rng: &mut Rng, reach: f64) -> RelativePose {
    let q = DQuat::from_xyzw(rng.normal(), rng.normal(), rng.normal(), rng.normal()).normalize();
    let t =
        DVec3::new(rng.normal(), rng.normal(), rng.normal()).normalize() * rng.range(0.0, reach);
    RelativePose::from_matrix(DMat3::from_quat(q), t)
}

fn parry_distance(a: &TriMesh, b: &TriMesh, pose: &RelativePose) -> f64 {
    let q = DQuat::from_mat3(&pose.rotation);
    let t = pose.translation;
    let pose_b = parry3d_f64::math::Pose::from_parts(
        parry3d_f64::math::Vector::new(t.x, t.y, t.z),
        parry3d_f64::math::Rotation::from_xyzw(q.x, q.y, q.z, q.w),
    );
    parry3d_f64::query::distance(
        &parry3d_f64::math::Pose::identity(),
        &to_parry(a),
        &pose_b,
        &to_parry(b),
    )
    .unwrap()
    .distance
}

fn pairs() -> Vec<(String, TriMesh, TriMesh)> {
    let mut pairs = vec![(
        "torus-torus".to_string(),
        torus(0.3, 24, 12),
        torus(0.15, 20, 10),
    )];
    if let (Some(a), Some(b)) = (shared_mesh("suzanne.obj"), shared_mesh("spot.obj")) {
        pairs.push(("suzanne-spot".into(), a, b));
    }
    pairs
}

/// The distance's bracket holds parry's TriMesh–TriMesh distance, at poses from
/// overlapping to apart; apart, most answers are settled by the hulls' start with a
/// handful of sub-pairs run.
#[test]
fn mesh_distances_hold_parrys() {
    let gjk = Method::of(Algorithm::GJK);
    let settings = SolverSettings::default();
    for (name, a, b) in pairs() {
        let (ca, cb) = (
            Composite::of_mesh(a.clone()).unwrap(),
            Composite::of_mesh(b.clone()).unwrap(),
        );
        let mut rng = Rng::new(3);
        let (mut apart, mut few_runs) = (0, 0);
        for k in 0..40 {
            let pose = random_pose(&mut rng, [1.0, 2.5, 4.0][k % 3]);
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
            let theirs = parry_distance(&a, &b, &pose);
            let (lower, upper) = (ours.answer.lower, ours.answer.upper);
            assert!(
                lower <= theirs + 1e-9 && theirs <= upper + 1e-9,
                "{name} pose {k}: ours [{lower}, {upper}], parry {theirs}"
            );
            if theirs > 1e-3 {
                apart += 1;
                assert!(
                    upper - lower <= 1e-6 * (1.0 + upper),
                    "{name} pose {k}: [{lower}, {upper}]"
                );
                few_runs += usize::from(ours.answer.sub_pairs.len() <= 4);
            }
        }
        assert!(apart >= 10, "{name}: only {apart} poses apart");
        // Far from the hulls' nearest points a concave mesh is nearer elsewhere: most
        // apart poses still end at the start.
        assert!(
            few_runs * 2 >= apart,
            "{name}: {few_runs} of {apart} settled by a few runs"
        );
    }
}

/// Overlapping, EPA's answer is the deepest of EPA on every pair of triangles that may
/// meet (within the tie it allows), although most of them were not run.
#[test]
fn mesh_depth_is_the_deepest_sub_pair() {
    let epa = Method::epa();
    let settings = SolverSettings::default();
    let (a, b) = (torus(0.3, 16, 8), torus(0.2, 14, 8));
    let (ca, cb) = (
        Composite::of_mesh(a.clone()).unwrap(),
        Composite::of_mesh(b.clone()).unwrap(),
    );
    let triangle =
        |m: &TriMesh, i: usize| Shape::Polytope(Polytope::triangle(m.corners(i)).unwrap());
    let mut rng = Rng::new(9);
    let mut overlapping = 0;
    for k in 0..30 {
        let pose = random_pose(&mut rng, 1.2);
        let ours = run_composite(
            Side::Composite(&ca),
            Side::Composite(&cb),
            pose,
            None,
            epa,
            settings,
            false,
            None,
        );
        let Outcome::Penetrating { depth, .. } = ours.answer.outcome else {
            continue;
        };
        overlapping += 1;
        let mut deepest: f64 = 0.0;
        for i in 0..a.triangle_count() {
            for j in 0..b.triangle_count() {
                let run = epa.run_untraced(&triangle(&a, i), &triangle(&b, j), pose, settings);
                if let Outcome::Penetrating { depth, .. } = run.summary.outcome {
                    deepest = deepest.max(depth);
                }
            }
        }
        assert!(
            depth <= deepest + 1e-12 && depth >= deepest - 1e-9 * (1.0 + deepest),
            "pose {k}: ours {depth}, every pair's deepest {deepest}"
        );
        assert!(
            ours.answer.sub_pairs.len() < ours.answer.nodes_pruned + ours.answer.sub_pairs.len(),
            "pose {k}: nothing skipped"
        );
    }
    assert!(overlapping >= 5, "only {overlapping} overlapping poses");
}

/// The floor the hulls give is no more than every pair of triangles' distance, even
/// where the hull leaves the mesh (a torus's hole).
#[test]
fn the_hull_floor_never_exceeds_a_triangle_pair() {
    let gjk = Method::of(Algorithm::GJK);
    let settings = SolverSettings::default();
    let (a, b) = (torus(0.3, 12, 6), torus(0.15, 10, 6));
    let (ca, cb) = (
        Composite::of_mesh(a.clone()).unwrap(),
        Composite::of_mesh(b.clone()).unwrap(),
    );
    let triangle =
        |m: &TriMesh, i: usize| Shape::Polytope(Polytope::triangle(m.corners(i)).unwrap());
    let mut rng = Rng::new(21);
    let mut started = 0;
    for _ in 0..40 {
        let pose = random_pose(&mut rng, 3.5);
        let Some(start) = collidescope::composite::hull_start::hull_start(
            &ca,
            Side::Composite(&cb),
            pose,
            settings,
        ) else {
            continue;
        };
        started += 1;
        let mut least = f64::INFINITY;
        for i in 0..a.triangle_count() {
            for j in 0..b.triangle_count() {
                let run = gjk.run_untraced(&triangle(&a, i), &triangle(&b, j), pose, settings);
                least = least.min(bracket(&run.summary.outcome).1);
            }
        }
        assert!(
            start.floor <= least,
            "floor {} above a pair's distance {least}",
            start.floor
        );
    }
    assert!(started >= 10, "only {started} starts");
}
