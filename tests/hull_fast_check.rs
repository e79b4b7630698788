//! The hull check's fast path (a convexity certificate and a walk per point instead of
//! every point against every face) against the check it replaced, written out here as
//! it was: same verdict and same defect on parry's hulls, on the exact Quickhull's, and
//! on hulls missing an extreme point; and `solid_hull` picks the same triangles the old
//! pipeline picked. Clouds include the hard and the degenerate: points on a sphere (all
//! extreme), on a grid and on a cube's faces (coplanar and collinear runs), a thin
//! plate, duplicates, tiny and huge scales, far from the origin.

mod common;

use std::collections::{HashMap, HashSet};

use collidescope::shape::hull::certificate::certify_convex;
use collidescope::shape::hull::check::{
    bounds, check_hull, principal_axes, HullDefect, HULL_TOLERANCE,
};
use collidescope::shape::hull::quickhull::{exact_hull, height};
use collidescope::shape::hull::solid_hull;
use collidescope::shape::hull::surface::closed_surface;
use collidescope::shape::Polytope;
use collidescope::DVec3;
use common::Rng;

/// The check before the fast path, verbatim in its decisions: closed surface (hash map
/// of directed edges), extremes along the axes and principal axes, then every face
/// against every point.
fn old_check(points: &[DVec3], triangles: &[[usize; 3]]) -> Result<(), HullDefect> {
    if triangles.is_empty() {
        return Err(HullDefect::NoFaces);
    }
    if let Some(&v) = triangles.iter().flatten().find(|&&v| v >= points.len()) {
        return Err(HullDefect::NotAnInputPoint { vertex: v });
    }
    let mut directed: HashMap<(usize, usize), u32> = HashMap::new();
    for t in triangles {
        for i in 0..3 {
            *directed.entry((t[i], t[(i + 1) % 3])).or_default() += 1;
        }
    }
    for t in triangles {
        for i in 0..3 {
            let (from, to) = (t[i], t[(i + 1) % 3]);
            if directed[&(from, to)] != 1 || directed.get(&(to, from)) != Some(&1) {
                return Err(HullDefect::OpenSurface { from, to });
            }
        }
    }
    let mut used = vec![false; points.len()];
    for &v in triangles.iter().flatten() {
        used[v] = true;
    }
    for axis in DVec3::AXES.into_iter().chain(principal_axes(points)) {
        for direction in [axis, -axis] {
            let input = points
                .iter()
                .map(|p| p.dot(direction))
                .fold(f64::MIN, f64::max);
            let hull = points
                .iter()
                .zip(&used)
                .filter(|(_, u)| **u)
                .map(|(p, _)| p.dot(direction))
                .fold(f64::MIN, f64::max);
            if hull != input {
                return Err(HullDefect::MissesExtreme {
                    direction,
                    input,
                    hull,
                });
            }
        }
    }
    let (lo, hi) = bounds(points);
    let size = (hi - lo).length();
    let tolerance = HULL_TOLERANCE * size;
    for (face, t) in triangles.iter().enumerate() {
        let (a, b, c) = (points[t[0]], points[t[1]], points[t[2]]);
        let n = (b - a).cross(c - a);
        let area2 = n.length();
        if area2 == 0.0 {
            continue;
        }
        let unit = n / area2;
        let slack = 64.0 * f64::EPSILON * size * ((b - a).length() * (c - a).length() / area2);
        for (point, p) in points.iter().enumerate() {
            if unit.dot(*p - a) < -slack {
                continue;
            }
            let distance = height(a, b, c, *p) / area2;
            if distance > tolerance {
                return Err(HullDefect::PointOutside {
                    point,
                    face,
                    distance,
                });
            }
        }
    }
    Ok(())
}

/// parry's hull over input indices (first input index per bit pattern), as before.
fn parry_triangles(points: &[DVec3]) -> Option<Vec<[usize; 3]>> {
    let input: Vec<parry3d_f64::math::Vector> = points
        .iter()
        .map(|p| parry3d_f64::math::Vector::new(p.x, p.y, p.z))
        .collect();
    let (vertices, triangles) = parry3d_f64::transformation::try_convex_hull(&input).ok()?;
    let key = |p: DVec3| (p + DVec3::ZERO).to_array().map(f64::to_bits);
    let mut first = HashMap::new();
    for (i, p) in points.iter().enumerate() {
        first.entry(key(*p)).or_insert(i);
    }
    let mapped: Option<Vec<usize>> = vertices
        .iter()
        .map(|v| first.get(&key(DVec3::new(v.x, v.y, v.z))).copied())
        .collect();
    let mapped = mapped?;
    Some(
        triangles
            .iter()
            .map(|t| t.map(|v| mapped[v as usize]))
            .collect(),
    )
}

/// The old pipeline's choice: parry's hull if the old check passes it, else the exact
/// Quickhull's if it passes, else none.
fn old_pipeline(points: &[DVec3]) -> Option<Vec<[usize; 3]>> {
    if let Some(t) = parry_triangles(points) {
        if old_check(points, &t).is_ok() {
            return Some(t);
        }
    }
    let hull = exact_hull(points)?;
    old_check(points, &hull.triangles)
        .is_ok()
        .then_some(hull.triangles)
}

fn vertex_set(triangles: &[[usize; 3]]) -> Vec<usize> {
    let mut v: Vec<usize> = triangles.iter().flatten().copied().collect();
    v.sort_unstable();
    v.dedup();
    v
}

fn distinct(points: Vec<DVec3>) -> Vec<DVec3> {
    let mut seen = HashSet::new();
    points
        .into_iter()
        .filter(|p| seen.insert(p.to_array().map(f64::to_bits)))
        .collect()
}

/// Named clouds, each of distinct points spanning a volume.
fn clouds() -> Vec<(String, Vec<DVec3>)> {
    let mut rng = Rng::new(51);
    let mut clouds = Vec::new();
    let n = 1500;
    let ball: Vec<DVec3> = (0..n)
        .map(|_| rng.unit_vector() * rng.unit().cbrt())
        .collect();
    let sphere: Vec<DVec3> = (0..n).map(|_| rng.unit_vector()).collect();
    let cube: Vec<DVec3> = (0..n).map(|_| rng.vector(1.0)).collect();
    // Every point of a 9×9×9 grid: 6 coplanar faces of 81 points, collinear edges.
    let grid: Vec<DVec3> = (0..729)
        .map(|i| DVec3::new((i % 9) as f64, ((i / 9) % 9) as f64, (i / 81) as f64) * 0.25)
        .collect();
    // Random points on a box's faces (coplanar runs) around random interior points.
    let faces: Vec<DVec3> = (0..n)
        .map(|k| {
            let mut p = rng.vector(1.0);
            if k % 3 != 0 {
                let axis = rng.index(3);
                p[axis] = if rng.unit() < 0.5 { -1.0 } else { 1.0 };
            }
            p * DVec3::new(3.0, 1.0, 0.5)
        })
        .collect();
    // A plate 1e-6 thick, turned.
    let turn = rng.rotation();
    let plate: Vec<DVec3> = (0..n)
        .map(|_| turn * (rng.vector(1.0) * DVec3::new(1.0, 1.0, 1e-6)))
        .collect();
    // A sphere with a coplanar disc of points cut through it and points duplicated.
    let mut sphere_and_disc = sphere[..600].to_vec();
    sphere_and_disc.extend((0..300).map(|_| {
        let v = rng.vector(0.7);
        DVec3::new(v.x, v.y, 0.25)
    }));
    sphere_and_disc.extend_from_slice(&sphere[..200]);
    let offset = DVec3::new(1e6, -3e6, 2.5e6);
    clouds.push(("ball".to_string(), ball.clone()));
    clouds.push(("sphere".to_string(), sphere.clone()));
    clouds.push(("cube".to_string(), cube.clone()));
    clouds.push(("grid".to_string(), grid));
    clouds.push(("box faces".to_string(), faces));
    clouds.push(("thin plate".to_string(), plate));
    clouds.push(("sphere with a disc".to_string(), distinct(sphere_and_disc)));
    clouds.push((
        "tiny ball".to_string(),
        ball.iter().map(|p| *p * 1e-9).collect(),
    ));
    clouds.push((
        "huge sphere".to_string(),
        sphere.iter().map(|p| *p * 1e12).collect(),
    ));
    clouds.push((
        "cube far away".to_string(),
        distinct(cube.iter().map(|p| *p + offset).collect()),
    ));
    clouds.push((
        "sphere far away".to_string(),
        distinct(sphere.iter().map(|p| *p * 1e-3 + offset).collect()),
    ));
    clouds
}

#[test]
fn the_fast_check_gives_the_old_verdict_on_every_candidate_hull() {
    let mut rng = Rng::new(7);
    for (name, points) in clouds() {
        let mut candidates: Vec<(String, Vec<[usize; 3]>)> = Vec::new();
        if let Some(t) = parry_triangles(&points) {
            candidates.push(("parry".to_string(), t));
        }
        let exact = exact_hull(&points).unwrap_or_else(|| panic!("{name}: no exact hull"));
        candidates.push(("exact".to_string(), exact.triangles.clone()));
        // The hull of the points without one of their extreme points: the check must
        // catch the dropped point, whatever the fast path proves about the rest.
        let vertices = vertex_set(&exact.triangles);
        for _ in 0..4 {
            let dropped = vertices[rng.index(vertices.len())];
            let kept: Vec<usize> = (0..points.len()).filter(|&i| i != dropped).collect();
            let subset: Vec<DVec3> = kept.iter().map(|&i| points[i]).collect();
            if let Some(hull) = exact_hull(&subset) {
                let t = hull.triangles.iter().map(|t| t.map(|v| kept[v])).collect();
                candidates.push((format!("without point {dropped}"), t));
            }
        }
        for (what, triangles) in &candidates {
            let fast = check_hull(&points, triangles);
            assert_eq!(fast, old_check(&points, triangles), "{name}, {what}");
            if what.starts_with("without") {
                assert!(fast.is_err(), "{name}: {what} passed the check");
            }
            if what == "exact" {
                assert_eq!(fast, Ok(()), "{name}: the exact hull failed");
                // The fast path itself ran: the surface was proved convex.
                let surface = closed_surface(triangles, points.len()).unwrap();
                let proof = certify_convex(&points, triangles, &surface);
                assert!(proof.is_ok(), "{name}: {:?}", proof.err());
            }
        }
    }
}

#[test]
fn solid_hull_picks_the_hull_the_old_pipeline_picked() {
    for (name, points) in clouds() {
        let new = solid_hull(&points);
        let old = old_pipeline(&points).unwrap_or_default();
        assert_eq!(new.triangles, old, "{name}: {}", new.source);
        assert_eq!(vertex_set(&new.triangles), vertex_set(&old), "{name}");
        // Duplicates change nothing: the polytope keeps the same vertices.
        let doubled: Vec<DVec3> = points.iter().chain(&points).copied().collect();
        let once = Polytope::from_points(&points).unwrap();
        let twice = Polytope::from_points(&doubled).unwrap();
        assert_eq!(once.vertices(), twice.vertices(), "{name}");
    }
}

/// Every point of every cloud lies inside every face of the hull the pipeline keeps
/// (exact signs, no tolerance needed for exact hulls and none exceeded for parry's).
#[test]
fn every_point_is_inside_every_face_of_the_kept_hull() {
    for (name, points) in clouds() {
        let hull = solid_hull(&points);
        assert!(!hull.triangles.is_empty(), "{name}: {}", hull.source);
        let (lo, hi) = bounds(&points);
        let tolerance = HULL_TOLERANCE * (hi - lo).length();
        for t in &hull.triangles {
            let (a, b, c) = (points[t[0]], points[t[1]], points[t[2]]);
            let area2 = (b - a).cross(c - a).length();
            for p in &points {
                let h = height(a, b, c, *p);
                assert!(h <= 0.0 || h / area2 <= tolerance, "{name}");
            }
        }
    }
}
