//! Support calls on the hull of the Stanford bunny: brute-force scan against
//! hill climbing with a warm start (directions that turn a little each call, as
//! during a GJK run), with identical answers checked before timing.

use std::path::Path;

use collidescope::mesh::load_obj;
use collidescope::rng::SplitMix64;
use collidescope::DVec3;
use criterion::{criterion_group, criterion_main, Criterion};

fn bunny_hull() -> Option<collidescope::shape::Polytope> {
    let path =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/data/meshes/stanford-bunny.obj");
    match load_obj(&path) {
        Ok(mesh) => Some(mesh.polytope),
        Err(e) => {
            eprintln!("skipping the support benchmark: {e}");
            None
        }
    }
}

/// Slowly turning directions, like successive GJK directions.
fn directions(n: usize) -> Vec<DVec3> {
    let mut rng = SplitMix64::new(9);
    let mut d = rng.unit_vector();
    (0..n)
        .map(|_| {
            d = (d + rng.unit_vector() * 0.2).normalize();
            d
        })
        .collect()
}

fn support(c: &mut Criterion) {
    let Some(hull) = bunny_hull() else { return };
    let dirs = directions(1000);
    let mut warm = 0;
    for d in &dirs {
        let (climbed, _) = hull.support_index_hill_climb(*d, warm);
        let (scanned, _) = hull.support_index_brute_force(*d);
        assert_eq!(
            hull.vertices()[climbed].dot(*d),
            hull.vertices()[scanned].dot(*d)
        );
        warm = climbed;
    }
    let mut group = c.benchmark_group(format!(
        "support on the bunny hull ({} vertices), 1000 directions",
        hull.vertices().len()
    ));
    group.bench_function("brute force", |b| {
        b.iter(|| {
            dirs.iter()
                .map(|d| hull.support_index_brute_force(*d).0)
                .sum::<usize>()
        })
    });
    group.bench_function("hill climbing, warm start", |b| {
        b.iter(|| {
            let mut warm = 0;
            dirs.iter()
                .map(|d| {
                    warm = hull.support_index_hill_climb(*d, warm).0;
                    warm
                })
                .sum::<usize>()
        })
    });
    group.finish();
}

criterion_group!(benches, support);
criterion_main!(benches);
