//! What one pose change costs the viewer with two 2000-vertex hulls: re-solving every
//! enabled algorithm (with traces and timing) and rebuilding the A ⊖ B mesh. The frame
//! budget at 60 Hz is 16.7 ms.

use std::path::Path;

use collidescope::app::model::{Side, ViewerModel};
use collidescope::pose::Pose;
use collidescope::scene::Scene;
use collidescope::shape::{Polytope, Shape};
use collidescope::tessellate::{difference_mesh, shape_mesh};
use collidescope::DVec3;
use criterion::{criterion_group, criterion_main, Criterion};

/// 2000 points on an ellipsoid (all of them hull vertices), deterministic.
fn hull_2000(radii: DVec3, seed: u64) -> Shape {
    let mut s = seed;
    let mut next = || {
        s = s
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (s >> 11) as f64 / (1u64 << 53) as f64
    };
    let points: Vec<DVec3> = (0..2000)
        .map(|_| {
            let z = 2.0 * next() - 1.0;
            let t = std::f64::consts::TAU * next();
            let r = (1.0 - z * z).sqrt();
            DVec3::new(r * t.cos(), r * t.sin(), z) * radii
        })
        .collect();
    Shape::Polytope(Polytope::from_points(&points).unwrap())
}

fn model_with_hulls() -> ViewerModel {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("scenes/ellipsoids_close.ron");
    let mut scene = Scene::load(&path).unwrap();
    scene.a_mut().shape = hull_2000(DVec3::new(0.5, 0.3, 0.4), 1);
    scene.b_mut().shape = hull_2000(DVec3::new(0.4, 0.5, 0.25), 2);
    ViewerModel::new(scene)
}

fn pose_change(c: &mut Criterion) {
    let mut model = model_with_hulls();
    let b_id = model.side(Side::B);
    let start = model.body(b_id).pose;
    let mut step = 0u32;
    let mut group = c.benchmark_group("viewer pose change, two 2000-vertex hulls");
    group.sample_size(30);
    group.bench_function("re-solve enabled algorithms + rebuild A ⊖ B", |b| {
        b.iter(|| {
            step += 1;
            let offset = DVec3::new(0.0, 0.001 * (step % 50) as f64, 0.0);
            model
                .set_pose(b_id, Pose::new(start.translation + offset, start.rotation))
                .unwrap();
            model.solve();
            let scene = &model.scene;
            difference_mesh(&scene.a().shape, &scene.b().shape, &scene.b_in_a())
        })
    });
    group.bench_function("rebuild A ⊖ B only", |b| {
        let scene = &model.scene;
        b.iter(|| difference_mesh(&scene.a().shape, &scene.b().shape, &scene.b_in_a()))
    });
    group.bench_function("shape mesh of one hull (on shape change only)", |b| {
        b.iter(|| shape_mesh(&model.scene.a().shape))
    });
    group.finish();
}

criterion_group!(benches, pose_change);
criterion_main!(benches);
