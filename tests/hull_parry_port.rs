//! The port of parry3d-f64's hull (`shape::hull::parry_port`) returns exactly what
//! `parry3d_f64::transformation::try_convex_hull` returns: the same vertices (bit for
//! bit), the same triangles in the same order, the same errors, the same panics. The
//! polytopes, their support ties and the lessons' transcripts rest on that.

mod common;

use std::panic::{catch_unwind, AssertUnwindSafe};

use collidescope::shape::hull::parry_port;
use common::{shared_data, Rng};
use parry3d_f64::math::Vector;

type Answer = Result<Result<(Vec<[u64; 3]>, Vec<[u32; 3]>), String>, ()>;

fn answer(
    run: impl FnOnce() -> Result<
        (Vec<Vector>, Vec<[u32; 3]>),
        parry3d_f64::transformation::ConvexHullError,
    >,
) -> Answer {
    catch_unwind(AssertUnwindSafe(run))
        .map(|r| {
            r.map(|(v, t)| {
                (
                    v.iter()
                        .map(|p| [p.x, p.y, p.z].map(f64::to_bits))
                        .collect(),
                    t,
                )
            })
            .map_err(|e| format!("{e:?}"))
        })
        .map_err(|_| ())
}

fn same_as_parry(name: &str, points: &[Vector]) {
    let parry = answer(|| parry3d_f64::transformation::try_convex_hull(points));
    let port = answer(|| parry_port::try_convex_hull(points));
    assert!(
        parry == port,
        "{name}: the port differs from parry ({} points)",
        points.len()
    );
}

fn v(x: f64, y: f64, z: f64) -> Vector {
    Vector::new(x, y, z)
}

fn cloud(rng: &mut Rng, n: usize, kind: usize) -> Vec<Vector> {
    (0..n)
        .map(|_| {
            let p = match kind {
                0 => rng.unit_vector() * rng.unit().cbrt(),
                1 => rng.unit_vector(),
                2 => rng.vector(1.0),
                // A lattice: many coplanar and collinear points, ties everywhere.
                3 => rng.vector(1.0).map(|c| (c * 3.0).round()),
                // A cylinder: flat caps cut into many coplanar triangles.
                _ => {
                    let a = rng.range(0.0, std::f64::consts::TAU);
                    let z = [-1.0, 1.0][rng.index(2)];
                    glam::DVec3::new(a.cos(), a.sin(), z * rng.unit().round())
                }
            };
            v(p.x, p.y, p.z)
        })
        .collect()
}

#[test]
fn the_port_returns_parrys_hull_on_random_clouds() {
    let mut rng = Rng::new(7);
    for n in [4, 5, 8, 20, 100, 1000, 5000] {
        for kind in 0..5 {
            for _ in 0..3 {
                let points = cloud(&mut rng, n, kind);
                same_as_parry(&format!("kind {kind}, {n} points"), &points);
            }
        }
    }
}

#[test]
fn the_port_returns_parrys_hull_on_degenerate_sets() {
    let mut rng = Rng::new(8);
    let base = cloud(&mut rng, 300, 0);
    let mut sets: Vec<(&str, Vec<Vector>)> = vec![
        ("too few", vec![v(0.0, 0.0, 0.0), v(1.0, 0.0, 0.0)]),
        ("one point thrice", vec![v(1.0, 2.0, 3.0); 3]),
        (
            "collinear",
            (0..50)
                .map(|i| v(i as f64, 2.0 * i as f64, -(i as f64)))
                .collect(),
        ),
        (
            "coplanar",
            cloud(&mut rng, 200, 2)
                .into_iter()
                .map(|p| v(p.x, p.y, 0.5))
                .collect(),
        ),
        (
            "tilted plane",
            cloud(&mut rng, 200, 2)
                .into_iter()
                .map(|p| v(p.x, p.y, p.x * 0.3 - p.y))
                .collect(),
        ),
        (
            "duplicates",
            base.iter().chain(base.iter()).copied().collect(),
        ),
        (
            "far from the origin",
            base.iter().map(|p| *p + v(1e7, -3e6, 2e5)).collect(),
        ),
        ("tiny", base.iter().map(|p| *p * 1e-100).collect()),
        ("huge", base.iter().map(|p| *p * 1e70).collect()),
        (
            "needle",
            base.iter().map(|p| v(p.x * 1e4, p.y, p.z * 1e-9)).collect(),
        ),
        (
            "cube corners and centre",
            (0..9)
                .map(|i| {
                    if i == 8 {
                        v(0.5, 0.5, 0.5)
                    } else {
                        v((i & 1) as f64, ((i >> 1) & 1) as f64, (i >> 2) as f64)
                    }
                })
                .collect(),
        ),
    ];
    let mut cube_grid = Vec::new();
    for i in 0..6 {
        for j in 0..6 {
            for k in 0..6 {
                cube_grid.push(v(i as f64, j as f64, k as f64));
            }
        }
    }
    sets.push(("grid", cube_grid));
    for (name, points) in sets {
        same_as_parry(name, &points);
    }
}

#[test]
fn the_port_returns_parrys_hull_on_the_shared_meshes() {
    let Some(dir) = shared_data("meshes") else {
        return;
    };
    let mut paths: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "obj"))
        .collect();
    paths.sort();
    for path in paths {
        let text = std::fs::read_to_string(&path).unwrap();
        let points: Vec<Vector> = text
            .lines()
            .filter_map(|l| l.strip_prefix("v "))
            .filter_map(|l| {
                let c: Vec<f64> = l
                    .split_whitespace()
                    .take(3)
                    .filter_map(|w| w.parse().ok())
                    .collect();
                (c.len() == 3).then(|| v(c[0], c[1], c[2]))
            })
            .collect();
        same_as_parry(&path.display().to_string(), &points);
    }
}

/// The polytope's path (`solid_hull_of_distinct`: parry's vertices taken by index)
/// gives the triangles of the general one (vertices looked up among the input by
/// their bits) on distinct points, degenerate ones included.
#[test]
fn distinct_points_give_the_same_hull_by_index_as_by_lookup() {
    use collidescope::shape::hull::{solid_hull, solid_hull_of_distinct};
    use collidescope::DVec3;
    let mut rng = Rng::new(9);
    let mut sets: Vec<Vec<DVec3>> = Vec::new();
    for n in [4, 10, 300, 3000] {
        for kind in 0..5 {
            let mut seen = std::collections::HashSet::new();
            sets.push(
                cloud(&mut rng, n, kind)
                    .into_iter()
                    .map(|p| DVec3::new(p.x, p.y, p.z) + DVec3::ZERO)
                    .filter(|p| seen.insert(p.to_array().map(f64::to_bits)))
                    .collect(),
            );
        }
    }
    let ball: Vec<DVec3> = sets[10].clone();
    sets.push(ball.iter().map(|p| *p * 1e-100).collect());
    sets.push(
        ball.iter()
            .map(|p| *p + DVec3::new(1e7, -3e6, 2e5))
            .collect(),
    );
    sets.push(
        ball.iter()
            .map(|p| DVec3::new(p.x * 1e4, p.y, p.z * 1e-9))
            .collect(),
    );
    for (k, points) in sets.iter().enumerate() {
        if points.len() < 4 {
            continue;
        }
        let general = solid_hull(points);
        let by_index = solid_hull_of_distinct(points);
        assert_eq!(general.triangles, by_index.triangles, "set {k}");
        assert_eq!(general.source, by_index.source, "set {k}");
    }
}
