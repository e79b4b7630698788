//! Large sets are hulled by the exact Quickhull first (`hull::EXACT_FIRST_FROM`), where
//! parry's hull turns quadratic: the hull must be the same point set as parry's, and
//! checked.

use collidescope::rng::SplitMix64 as Rng;
use collidescope::shape::hull::{self, HullSource, EXACT_FIRST_FROM};
use collidescope::DVec3;
use std::collections::BTreeSet;

/// The input indices of parry3d-f64's hull vertices (its vertices are input points).
fn parry_vertex_set(points: &[DVec3]) -> BTreeSet<usize> {
    let input: Vec<parry3d_f64::math::Vector> = points
        .iter()
        .map(|p| parry3d_f64::math::Vector::new(p.x, p.y, p.z))
        .collect();
    let (vertices, _) = parry3d_f64::transformation::try_convex_hull(&input).unwrap();
    vertices
        .iter()
        .map(|v| {
            points
                .iter()
                .position(|p| p.x == v.x && p.y == v.y && p.z == v.z)
                .expect("parry's vertex is an input point")
        })
        .collect()
}

fn check_large(points: &[DVec3], what: &str) {
    assert!(
        points.len() >= EXACT_FIRST_FROM,
        "{what}: too small for the rule"
    );
    let built = hull::solid_hull(points);
    assert_eq!(built.source, HullSource::ExactQuickhullLarge, "{what}");
    let ours: BTreeSet<usize> = built.triangles.iter().flatten().copied().collect();
    assert_eq!(ours, parry_vertex_set(points), "{what}: another vertex set");
    hull::check::check_hull(points, &built.triangles).unwrap();
}

#[test]
fn large_clouds_get_the_same_hull_vertices_as_parry() {
    let mut rng = Rng::new(51);
    let sphere: Vec<DVec3> = (0..EXACT_FIRST_FROM)
        .map(|_| rng.unit_vector() * 3.0 + DVec3::new(1e3, -2e3, 5e2))
        .collect();
    check_large(&sphere, "sphere far from the origin");
    let ball: Vec<DVec3> = (0..EXACT_FIRST_FROM + 1)
        .map(|_| rng.unit_vector() * rng.unit().cbrt())
        .collect();
    check_large(&ball, "ball");
}

#[test]
fn the_bunny_gets_the_same_hull_vertices_as_parry() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../shared/data/meshes/stanford-bunny.obj");
    if !path.exists() {
        eprintln!("skipped: {} is absent", path.display());
        return;
    }
    let text = std::fs::read_to_string(&path).unwrap();
    let mesh = text.lines().filter_map(|line| {
        let mut words = line.split_whitespace();
        (words.next() == Some("v")).then(|| {
            let mut n = words.map(|w| w.parse::<f64>().unwrap());
            DVec3::new(n.next().unwrap(), n.next().unwrap(), n.next().unwrap())
        })
    });
    let mut distinct = Vec::new();
    let mut seen = std::collections::HashSet::new();
    for p in mesh {
        if seen.insert([p.x.to_bits(), p.y.to_bits(), p.z.to_bits()]) {
            distinct.push(p);
        }
    }
    check_large(&distinct, "stanford-bunny");
}
