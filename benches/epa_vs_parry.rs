//! One penetration query, ours (GJK then EPA, rounded shapes by core and radius) against
//! parry3d-f64's penetration query (its dispatcher, GJK and EPA) on the same overlapping
//! pairs in the same process: the overlapping problems of `epa_sample.json`, grouped by
//! their category (boxes, mesh hulls, spheres and capsules, ellipsoids, ...).

use std::collections::BTreeMap;
use std::path::Path;

use collidescope::bench::problems::ProblemFile;
use collidescope::parry_bridge::parry_penetration;
use collidescope::solver::epa::{gjk_settings_for_epa, penetration, EpaSettings};
use criterion::{criterion_group, criterion_main, Criterion};

fn queries(c: &mut Criterion) {
    let path =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/data/problems/epa_sample.json");
    let (Ok(file), Ok(text)) = (ProblemFile::load(&path), std::fs::read_to_string(&path)) else {
        eprintln!("skipping the EPA benchmark: {} is absent", path.display());
        return;
    };
    let raw: serde_json::Value = serde_json::from_str(&text).expect("the file parsed once");
    let shapes = file.build_shapes().expect("the sample's shapes build");
    // Overlapping problems by category.
    let mut groups: BTreeMap<String, Vec<usize>> = BTreeMap::new();
    for (i, p) in raw["problems"].as_array().into_iter().flatten().enumerate() {
        if p["truth"] == "overlap" {
            let category = p["category"].as_str().unwrap_or("other").to_string();
            groups.entry(category).or_default().push(i);
        }
    }
    let settings = EpaSettings {
        ..EpaSettings::default()
    };
    for (category, indices) in groups {
        let mut group = c.benchmark_group(format!("epa {category}: {} queries", indices.len()));
        group.bench_function("ours (GJK + EPA)", |b| {
            b.iter(|| {
                for &i in &indices {
                    let p = &file.problems[i];
                    std::hint::black_box(penetration(
                        &shapes[p.a],
                        &shapes[p.b],
                        p.b_in_a(),
                        gjk_settings_for_epa(),
                        settings,
                        None,
                    ));
                }
            })
        });
        group.bench_function("parry3d-f64", |b| {
            b.iter(|| {
                for &i in &indices {
                    let p = &file.problems[i];
                    std::hint::black_box(parry_penetration(
                        &shapes[p.a],
                        &shapes[p.b],
                        &p.b_in_a(),
                    ));
                }
            })
        });
        group.finish();
    }
}

criterion_group!(benches, queries);
criterion_main!(benches);
