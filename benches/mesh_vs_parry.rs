//! A distance query between a triangle mesh (not its hull) and a convex shape, ours (the
//! certified midphase over parry's Bvh, vanilla GJK on each kept triangle) against
//! parry3d-f64's `TriMesh` distance on the same triangles and shapes, in the same
//! process: real meshes from `../shared/data/meshes`, a ball and a box placed near the
//! surface at seeded random poses (gaps from 1e-3 to a tenth of the mesh's size).

use std::path::Path;

use collidescope::composite::{composite_convex_distance, CompositeTree, Pieces, TriMesh};
use collidescope::mesh::triangles;
use collidescope::pose::RelativePose;
use collidescope::rng::SplitMix64;
use collidescope::shape::{Cuboid, Shape, Sphere};
use collidescope::solver::{Algorithm, DirectionRule, Method, SolverSettings};
use criterion::{criterion_group, criterion_main, Criterion};
use glam::{DMat3, DVec3};

/// A mesh file's triangles as an indexed mesh (its topology welds repeated corners).
fn load(path: &Path) -> Option<TriMesh> {
    let soup = triangles(path).ok()?;
    let vertices: Vec<DVec3> = soup.iter().flatten().copied().collect();
    let indices = (0..soup.len() as u32)
        .map(|t| [3 * t, 3 * t + 1, 3 * t + 2])
        .collect();
    TriMesh::new(vertices, indices).ok()
}

fn to_parry(mesh: &TriMesh) -> parry3d_f64::shape::TriMesh {
    let points = mesh
        .vertices()
        .iter()
        .map(|p| parry3d_f64::math::Vector::new(p.x, p.y, p.z))
        .collect();
    parry3d_f64::shape::TriMesh::new(points, mesh.triangles().to_vec()).unwrap()
}

/// Poses of the convex shape (its size `r`): a random vertex of the mesh, pushed out
/// along a random direction by `r` plus a gap between 1e-3 and 1e-1 of the mesh's size
/// (log-uniform), turned at random. A direction into the mesh gives an overlap.
fn poses(mesh: &TriMesh, r: f64, count: usize, seed: u64) -> Vec<RelativePose> {
    let mut rng = SplitMix64::new(seed);
    let v = mesh.vertices();
    let size = extent(mesh);
    (0..count)
        .map(|_| {
            let p = v[rng.index(v.len())];
            let dir = DVec3::new(
                rng.range(-1.0, 1.0),
                rng.range(-1.0, 1.0),
                rng.range(-1.0, 1.0),
            )
            .normalize_or(DVec3::Z);
            let gap = size * 10f64.powf(rng.range(-3.0, -1.0));
            let turn = DMat3::from_euler(
                glam::EulerRot::XYZ,
                rng.range(0.0, 6.3),
                rng.range(0.0, 6.3),
                rng.range(0.0, 6.3),
            );
            RelativePose::from_matrix(turn, p + dir * (r + gap))
        })
        .collect()
}

/// The diagonal of the mesh's box.
fn extent(mesh: &TriMesh) -> f64 {
    let (lo, hi) = mesh
        .vertices()
        .iter()
        .fold((DVec3::INFINITY, DVec3::NEG_INFINITY), |(a, b), p| {
            (a.min(*p), b.max(*p))
        });
    (hi - lo).length()
}

fn bench(c: &mut Criterion) {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/data/meshes");
    let gjk = Method::of(Algorithm::Gjk(DirectionRule::Vanilla));
    let settings = SolverSettings::benchmark();
    let mut any = false;
    for name in ["cow.obj", "teapot.obj", "stanford-bunny.obj"] {
        let Some(mesh) = load(&dir.join(name)) else {
            continue;
        };
        any = true;
        let parry_mesh = to_parry(&mesh);
        let r = 0.05 * extent(&mesh);
        let tree = CompositeTree::new(Pieces::Triangles(mesh.clone()));
        let poses = poses(&mesh, r, 100, 7);
        let shapes: [(&str, Shape, Box<dyn parry3d_f64::shape::Shape>); 2] = [
            (
                "ball",
                Shape::Sphere(Sphere::new(r).unwrap()),
                Box::new(parry3d_f64::shape::Ball::new(r)),
            ),
            (
                "box",
                Shape::Cuboid(Cuboid::new(DVec3::splat(r)).unwrap()),
                Box::new(parry3d_f64::shape::Cuboid::new(
                    parry3d_f64::math::Vector::splat(r),
                )),
            ),
        ];
        let mut group = c.benchmark_group(format!(
            "{name} ({} triangles), 100 poses",
            mesh.triangle_count()
        ));
        for (kind, ours, theirs) in &shapes {
            group.bench_function(format!("ours, {kind}"), |b| {
                b.iter(|| {
                    for pose in &poses {
                        std::hint::black_box(composite_convex_distance(
                            &tree, ours, *pose, gjk, settings, false,
                        ));
                    }
                })
            });
            group.bench_function(format!("parry3d-f64, {kind}"), |b| {
                b.iter(|| {
                    for pose in &poses {
                        let q = glam::DQuat::from_mat3(&pose.rotation);
                        let t = pose.translation;
                        let at = parry3d_f64::math::Pose::from_parts(
                            parry3d_f64::math::Vector::new(t.x, t.y, t.z),
                            parry3d_f64::math::Rotation::from_xyzw(q.x, q.y, q.z, q.w),
                        );
                        let d = parry3d_f64::query::distance(
                            &parry3d_f64::math::Pose::identity(),
                            &parry_mesh,
                            &at,
                            theirs.as_ref(),
                        );
                        std::hint::black_box(d.ok());
                    }
                })
            });
        }
        group.finish();
    }
    if !any {
        eprintln!(
            "skipping the mesh benchmark: {} has no meshes",
            dir.display()
        );
    }
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(10);
    targets = bench
}
criterion_main!(benches);
