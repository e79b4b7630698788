//! One distance query, ours (vanilla GJK, the benchmark settings) against parry3d-f64's
//! GJK on the same shapes in the same process: ellipsoid pairs and mesh-hull pairs at
//! signed distance 1e-3 (ALGORITHMS.md §12 protocol).

use std::path::Path;

use collidescope::bench::protocol::{ellipsoid_problems, mesh_problems, ProblemSet};
use collidescope::bench::timing::{parry_distance, ParryShape};
use collidescope::mesh::load_obj;
use collidescope::minkowski::MinkowskiDifference;
use collidescope::solver::{solve, Algorithm, DirectionRule, SolverSettings};
use criterion::{criterion_group, criterion_main, Criterion};

fn mesh_set() -> Option<ProblemSet> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/data/meshes");
    let hulls: Vec<(String, collidescope::shape::Polytope)> =
        ["cow.obj", "teapot.obj", "suzanne.obj", "spot.obj"]
            .iter()
            .filter_map(|n| {
                load_obj(&dir.join(n))
                    .ok()
                    .map(|m| (n.to_string(), m.polytope))
            })
            .collect();
    if hulls.is_empty() {
        eprintln!(
            "skipping the mesh-hull benchmark: {} has no meshes",
            dir.display()
        );
        return None;
    }
    Some(mesh_problems(&hulls, 8, 1, 5))
}

fn bench_set(c: &mut Criterion, name: &str, set: &ProblemSet) {
    // The problems at signed distance 1e-3.
    let problems: Vec<_> = set
        .problems
        .iter()
        .filter(|p| p.target_distance == 1e-3)
        .collect();
    let settings = SolverSettings::benchmark();
    let parry_shapes: Vec<ParryShape> = set.shapes.iter().map(ParryShape::new).collect();
    let mut group = c.benchmark_group(format!(
        "{name}: {} queries at distance 1e-3",
        problems.len()
    ));
    for rule in [
        DirectionRule::Vanilla,
        DirectionRule::Nesterov,
        DirectionRule::NesterovNormalized,
    ] {
        let algorithm = Algorithm::Gjk(rule);
        group.bench_function(format!("ours, {}", algorithm.name()), |b| {
            b.iter(|| {
                for p in &problems {
                    let md = MinkowskiDifference::new(&set.shapes[p.a], &set.shapes[p.b], p.b_in_a);
                    std::hint::black_box(solve(algorithm, md, settings));
                }
            })
        });
    }
    group.bench_function("parry3d-f64 GJK", |b| {
        b.iter(|| {
            for p in &problems {
                std::hint::black_box(parry_distance(
                    &parry_shapes[p.a],
                    &parry_shapes[p.b],
                    &p.b_in_a,
                ));
            }
        })
    });
    group.finish();
}

fn queries(c: &mut Criterion) {
    bench_set(c, "ellipsoids", &ellipsoid_problems(20, 1, 3));
    if let Some(set) = mesh_set() {
        bench_set(c, "mesh hulls", &set);
    }
}

criterion_group!(benches, queries);
criterion_main!(benches);
