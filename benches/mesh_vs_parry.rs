//! A distance query between a triangle mesh (not its hull) and a convex shape, ours (the
//! certified midphase over parry's Bvh, vanilla GJK on each kept triangle) against
//! parry3d-f64's `TriMesh` distance on the same triangles and shapes, in the same
//! process: real meshes from `../shared/data/meshes` (`common::mesh_dir`), a ball and a
//! box placed near the surface at seeded random poses (gaps from 1e-3 to a tenth of the
//! mesh's size). `mesh_vs_coal` uses the same meshes and poses against Coal.

use collidescope::composite::{composite_convex_distance, CompositeTree, Pieces, TriMesh};
use collidescope::shape::{Cuboid, Shape, Sphere};
use collidescope::solver::{Algorithm, DirectionRule, Method, SolverSettings};
use common::{extent, load, mesh_dir, poses, MESHES};
use criterion::{criterion_group, criterion_main, Criterion};
use glam::DVec3;

mod common;

fn to_parry(mesh: &TriMesh) -> parry3d_f64::shape::TriMesh {
    let points = mesh
        .vertices()
        .iter()
        .map(|p| parry3d_f64::math::Vector::new(p.x, p.y, p.z))
        .collect();
    parry3d_f64::shape::TriMesh::new(points, mesh.triangles().to_vec()).unwrap()
}

fn bench(c: &mut Criterion) {
    let dir = mesh_dir();
    let gjk = Method::of(Algorithm::Gjk(DirectionRule::Vanilla));
    let settings = SolverSettings::benchmark();
    let mut any = false;
    for name in MESHES {
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
