//! What a drag costs the viewer on a mesh of 100 k triangles (issue 45: "a mesh of
//! 100 k triangles stays interactive"): the re-solve (every enabled method's answer on
//! the whole pair through the midphase, the contacts with their internal edges, then
//! the traced runs of the sub-pair in focus and parry's cross-check), and the drawing
//! work that follows (the composite layers and A ⊖ B of the sub-pair). The mesh's own
//! render data is built once per shape (measured apart): a drag only moves it. The
//! frame budget at 60 Hz is 16.7 ms.
//!
//! The mesh: a bowl, y = (x² + z²)/4 over [-2, 2]², 224 × 224 cells (100 352
//! triangles), generated (no data file needed); the ball drags along its surface,
//! inside the contact margin (the contacts, their cones and parry's and Jolt's
//! corrections are worked out on every pose) and a little above it.

use std::sync::Arc;

use collidescope::app::composite_drawing;
use collidescope::app::model::{Side, ViewerModel};
use collidescope::composite::{Composite, TriMesh};
use collidescope::pose::Pose;
use collidescope::scene::{Body, Scene, ShapeSpec};
use collidescope::solver::Method;
use collidescope::tessellate::{body_mesh, difference_mesh};
use collidescope::DVec3;
use criterion::{criterion_group, criterion_main, Criterion};

const CELLS: usize = 224;

fn bowl_height(x: f64, z: f64) -> f64 {
    0.25 * (x * x + z * z)
}

/// The bowl as a scene body (its composite and its hull, as a scene builds them).
fn bowl_body() -> Body {
    let n = CELLS;
    let mut vertices = Vec::with_capacity((n + 1) * (n + 1));
    for j in 0..=n {
        for i in 0..=n {
            let x = -2.0 + 4.0 * i as f64 / n as f64;
            let z = -2.0 + 4.0 * j as f64 / n as f64;
            vertices.push(DVec3::new(x, bowl_height(x, z), z));
        }
    }
    let id = |i: usize, j: usize| (j * (n + 1) + i) as u32;
    let mut triangles = Vec::with_capacity(2 * n * n);
    for j in 0..n {
        for i in 0..n {
            triangles.push([id(i, j), id(i + 1, j + 1), id(i + 1, j)]);
            triangles.push([id(i, j), id(i, j + 1), id(i + 1, j + 1)]);
        }
    }
    let spec = ShapeSpec::TriMesh {
        vertices: vertices.iter().map(|v| v.to_array()).collect(),
        triangles: triangles.clone(),
        flags: 0,
    };
    let composite: Arc<Composite> =
        Composite::of_mesh(TriMesh::new(vertices, triangles).unwrap()).unwrap();
    Body {
        name: Some("bowl".into()),
        spec,
        shape: composite.hull().clone(),
        composite: Some(composite),
        pose: Pose::IDENTITY,
        mesh_report: None,
        velocity: None,
        spin: None,
    }
}

fn ball_body(radius: f64, at: DVec3) -> Body {
    let spec = ShapeSpec::Sphere { radius };
    Scene::build_body_spec(&spec, std::path::Path::new("."), Pose::from_translation(at)).unwrap()
}

/// The viewer's model of the bowl and the ball, the ball where the drag starts.
fn model(methods: &[Method], gap: f64) -> ViewerModel {
    let mut scene = Scene::of_pair(
        "ball in a 100 k-triangle bowl".into(),
        String::new(),
        bowl_body(),
        ball_body(0.3, ball_at(0, gap)),
    );
    scene.methods = methods.to_vec();
    ViewerModel::new(scene)
}

/// The ball's centre at step `k` of a drag: along the bowl, `gap` above its surface
/// (a ball of radius 0.3 on a gentle slope: the surface's nearest point is about
/// straight below).
fn ball_at(k: u32, gap: f64) -> DVec3 {
    let t = (k % 200) as f64 / 200.0;
    let (x, z) = (-0.8 + 1.6 * t, 0.3 - 0.4 * t);
    DVec3::new(x, bowl_height(x, z) + 0.3 + gap, z)
}

fn drag(c: &mut Criterion) {
    let mut group = c.benchmark_group("viewer drag, ball on a 100 352-triangle mesh");
    group.sample_size(20);
    for (name, methods) in [
        ("GJK", vec![Method::all()[0]]),
        ("GJK + EPA", vec![Method::all()[0], Method::epa()]),
    ] {
        for (where_, gap) in [("touching (contacts listed)", 0.001), ("5 cm above", 0.05)] {
            let mut m = model(&methods, gap);
            let ball = m.side(Side::B);
            let mut k = 0u32;
            group.bench_function(format!("{name}, {where_}: re-solve"), |b| {
                b.iter(|| {
                    k += 1;
                    m.set_pose(ball, Pose::from_translation(ball_at(k, gap)))
                        .unwrap();
                    m.solve();
                })
            });
            group.bench_function(
                format!("{name}, {where_}: re-solve + composite layers + A ⊖ B"),
                |b| {
                    b.iter(|| {
                        k += 1;
                        m.set_pose(ball, Pose::from_translation(ball_at(k, gap)))
                            .unwrap();
                        m.solve();
                        let drawing = composite_drawing(&m);
                        let scene = m.pair_scene();
                        let difference =
                            difference_mesh(&scene.a().shape, &scene.b().shape, &scene.b_in_a());
                        (drawing.boxes.len(), difference.triangles.len())
                    })
                },
            );
        }
    }
    let m = model(&[Method::all()[0]], 0.05);
    group.sample_size(10);
    group.bench_function(
        "the mesh's triangles and edges (on a shape change only)",
        |b| b.iter(|| body_mesh(&m.scene.bodies[0])),
    );
    group.finish();
}

criterion_group!(benches, drag);
criterion_main!(benches);
