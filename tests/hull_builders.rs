//! The exact Quickhull against parry3d-f64's checked hull on the shared meshes: both pass
//! the hull check and reach the same extreme vertices, so either can serve a polytope.

mod common;

use std::time::Instant;

use collidescope::mesh::load_obj;
use collidescope::shape::hull::check::check_hull;
use collidescope::shape::hull::quickhull::exact_hull;
use collidescope::shape::{AffineDimension, Polytope};
use collidescope::DVec3;
use common::{shared_data, Rng};

#[test]
fn exact_quickhull_matches_the_checked_hull_on_real_meshes() {
    let Some(dir) = shared_data("meshes") else {
        return;
    };
    let mut rng = Rng::new(3);
    let mut paths: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "obj"))
        .collect();
    paths.sort();
    for path in paths {
        let mesh = load_obj(&path).unwrap();
        if mesh.polytope.dimension() != AffineDimension::Solid {
            continue;
        }
        // The distinct points the file's faces use (the importer ignores the others;
        // the polytope keeps only hull vertices).
        let text = std::fs::read_to_string(&path).unwrap();
        let all: Vec<DVec3> = text
            .lines()
            .filter_map(|l| l.strip_prefix("v "))
            .map(|l| {
                let v: Vec<f64> = l.split_whitespace().map(|w| w.parse().unwrap()).collect();
                DVec3::new(v[0], v[1], v[2])
            })
            .collect();
        let mut points: Vec<DVec3> = text
            .lines()
            .filter_map(|l| l.strip_prefix("f "))
            .flat_map(|l| l.split_whitespace())
            .map(|w| all[w.split('/').next().unwrap().parse::<usize>().unwrap() - 1])
            .collect();
        points.sort_by(|a, b| a.to_array().partial_cmp(&b.to_array()).unwrap());
        points.dedup();
        let start = Instant::now();
        let hull = exact_hull(&points).expect("a solid mesh has a hull");
        let seconds = start.elapsed().as_secs_f64();
        let name = path.file_name().unwrap().to_string_lossy();
        assert_eq!(check_hull(&points, &hull.triangles), Ok(()), "{name}");
        let exact = Polytope::from_points(
            &hull
                .triangles
                .iter()
                .flatten()
                .map(|&i| points[i])
                .collect::<Vec<_>>(),
        )
        .unwrap();
        eprintln!(
            "{name}: {} points, exact hull {} triangles in {seconds:.3} s; checked hull {} vertices",
            points.len(),
            hull.triangles.len(),
            mesh.polytope.vertices().len()
        );
        for _ in 0..500 {
            let d = rng.unit_vector();
            let best = |p: &Polytope| {
                p.vertices()
                    .iter()
                    .map(|v| v.dot(d))
                    .fold(f64::MIN, f64::max)
            };
            assert_eq!(best(&exact), best(&mesh.polytope), "{name} along {d}");
        }
    }
}
