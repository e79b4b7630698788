//! Bounded intersections of half-spaces, by their vertices.

use glam::{DMat3, DVec3};

/// The vertices of the bounded set `{x : n·x ≤ d}`: every point where three planes
/// meet that satisfies all of them (within 1e-9 of the planes' scale), each once (points
/// within 1e-12 of the scale of each other are one vertex). Refused: a set
/// that is unbounded (a direction no plane stops: the normals span less than space, or
/// an edge direction `±n_i × n_j` of the recession cone `{u : n·u ≤ 0}` exists) or
/// empty.
pub fn halfspace_vertices(planes: &[[f64; 4]]) -> Result<Vec<DVec3>, String> {
    if planes.iter().flatten().any(|v| !v.is_finite()) {
        return Err("a plane is not finite".into());
    }
    let normals: Vec<DVec3> = planes
        .iter()
        .map(|p| DVec3::new(p[0], p[1], p[2]))
        .collect();
    // Each plane's normal length, and the slack its test allows, computed once: the
    // loops below are cubic in the number of planes.
    let lengths: Vec<f64> = normals.iter().map(|n| n.length()).collect();
    let free = |u: DVec3| {
        normals
            .iter()
            .zip(&lengths)
            .all(|(n, length)| n.dot(u) <= 1e-12 * length)
    };
    let mut spans = false;
    for (i, ni) in normals.iter().enumerate() {
        for nj in &normals[i + 1..] {
            let edge = ni.cross(*nj).normalize_or_zero();
            if edge == DVec3::ZERO {
                continue;
            }
            spans |= normals
                .iter()
                .zip(&lengths)
                .any(|(nk, length)| nk.dot(edge).abs() > 1e-12 * length);
            if free(edge) || free(-edge) {
                return Err(format!("unbounded: no plane stops the direction {edge}"));
            }
        }
    }
    if !spans {
        return Err("unbounded: the normals do not span space".into());
    }
    let scale = planes.iter().map(|p| p[3].abs()).fold(1.0f64, f64::max);
    let slacks: Vec<f64> = lengths.iter().map(|l| 1e-9 * scale * l.max(1.0)).collect();
    // Every vertex lies on the line where two of its planes meet, at an end of the part
    // of that line the other planes allow: one clip per pair of planes, O(n³) in all
    // (every triple checked against every plane was O(n⁴): hours for a mesh hull's
    // thousand planes).
    let mut vertices = Vec::new();
    for i in 0..planes.len() {
        for j in i + 1..planes.len() {
            let direction = normals[i].cross(normals[j]);
            let m = DMat3::from_cols(normals[i], normals[j], direction).transpose();
            if m.determinant().abs() < 1e-12 {
                continue;
            }
            let base = m.inverse() * DVec3::new(planes[i][3], planes[j][3], 0.0);
            // The line base + t·direction within every other plane: exactly, and within
            // the planes' slack (which decides whether any of it is left).
            let (mut low, mut high) = (f64::NEG_INFINITY, f64::INFINITY);
            let (mut low_plane, mut high_plane) = (0, 0);
            let (mut loose_low, mut loose_high) = (f64::NEG_INFINITY, f64::INFINITY);
            let mut feasible = true;
            let direction_length = direction.length();
            for (k, (plane, n)) in planes.iter().zip(&normals).enumerate() {
                if k == i || k == j {
                    continue;
                }
                let rate = n.dot(direction);
                let room = plane[3] - n.dot(base);
                let loose_room = room + slacks[k];
                if rate.abs() <= 1e-12 * lengths[k] * direction_length {
                    feasible &= loose_room >= 0.0;
                    continue;
                }
                let (t, loose_t) = (room / rate, loose_room / rate);
                if rate > 0.0 {
                    if t < high {
                        (high, high_plane) = (t, k);
                    }
                    loose_high = loose_high.min(loose_t);
                } else {
                    if t > low {
                        (low, low_plane) = (t, k);
                    }
                    loose_low = loose_low.max(loose_t);
                }
            }
            if !feasible || loose_low > loose_high || !(low.is_finite() && high.is_finite()) {
                continue;
            }
            // A vertex of three planes i < j < k is found on the lines of each pair;
            // kept once, from the pair of its two first planes.
            for (t, plane) in [(low, low_plane), (high, high_plane)] {
                let x = base + direction * t;
                if plane > j && x.is_finite() {
                    vertices.push(x);
                }
            }
        }
    }
    if vertices.is_empty() {
        return Err("empty: no point satisfies every plane".into());
    }
    Ok(merge_repeats(vertices, 1e-12 * scale))
}

/// The vertices with those found again a rounding apart (where more than three planes
/// meet) kept once: a hull of such a cluster has faces of no particular direction, and
/// hill climbing, whose comparisons round, can stop on one of its points as if it were
/// a top.
fn merge_repeats(mut vertices: Vec<DVec3>, radius: f64) -> Vec<DVec3> {
    vertices.sort_by(|a, b| a.x.total_cmp(&b.x));
    let mut kept: Vec<DVec3> = Vec::with_capacity(vertices.len());
    for v in vertices {
        // Sorted by x: only the kept points within `radius` in x can be that close.
        let repeated = kept
            .iter()
            .rev()
            .take_while(|k| v.x - k.x <= radius)
            .any(|k| (v - *k).abs().max_element() <= radius);
        if !repeated {
            kept.push(v);
        }
    }
    kept
}

#[cfg(test)]
mod tests {
    use glam::{DMat3, DVec3};

    use super::halfspace_vertices;
    use crate::rng::SplitMix64;

    /// The definition, as an oracle: every point where three planes meet that every
    /// plane allows (within the same slack).
    fn vertices_by_triples(planes: &[[f64; 4]]) -> Vec<DVec3> {
        let n = |p: &[f64; 4]| DVec3::new(p[0], p[1], p[2]);
        let scale = planes.iter().map(|p| p[3].abs()).fold(1.0f64, f64::max);
        let mut out = Vec::new();
        for i in 0..planes.len() {
            for j in i + 1..planes.len() {
                for k in j + 1..planes.len() {
                    let m =
                        DMat3::from_cols(n(&planes[i]), n(&planes[j]), n(&planes[k])).transpose();
                    if m.determinant().abs() < 1e-12 {
                        continue;
                    }
                    let x = m.inverse() * DVec3::new(planes[i][3], planes[j][3], planes[k][3]);
                    let slack = |p: &[f64; 4]| 1e-9 * scale * n(p).length().max(1.0);
                    if planes.iter().all(|p| n(p).dot(x) <= p[3] + slack(p)) {
                        out.push(x);
                    }
                }
            }
        }
        out
    }

    /// Tangent planes of an ellipsoid at random points, some a hair tilted, some moved
    /// away (they touch nothing), inside a box (so that the set is bounded).
    fn random_planes(rng: &mut SplitMix64, count: usize) -> Vec<[f64; 4]> {
        let radii = DVec3::new(1.0, 0.6, 0.8);
        let mut planes = Vec::new();
        for k in 0..count {
            let point = rng.unit_vector() * radii;
            let mut normal = (point / (radii * radii)).normalize();
            if k % 5 == 0 {
                normal = (normal + rng.unit_vector() * 1e-10).normalize();
            }
            let offset = normal.dot(point) + if k % 7 == 0 { 5.0 } else { 0.0 };
            planes.push([normal.x, normal.y, normal.z, offset]);
        }
        for axis in [DVec3::X, DVec3::Y, DVec3::Z] {
            for sign in [-1.0, 1.0] {
                let n = axis * sign;
                planes.push([n.x, n.y, n.z, 1.2]);
            }
        }
        planes
    }

    /// Every vertex the pairs' clipping finds is one of the triples' and the other way
    /// round (to round-off), from 6 to 66 planes.
    #[test]
    fn the_vertices_are_where_three_planes_meet() {
        let mut rng = SplitMix64::new(8);
        for count in [0, 6, 19, 60] {
            for _ in 0..4 {
                let planes = random_planes(&mut rng, count);
                let fast = halfspace_vertices(&planes).unwrap();
                let slow = vertices_by_triples(&planes);
                let near = |p: &DVec3, set: &[DVec3]| set.iter().any(|q| (*p - *q).length() < 1e-7);
                assert!(
                    fast.iter().all(|p| near(p, &slow)),
                    "{count}: a vertex too many"
                );
                assert!(
                    slow.iter().all(|p| near(p, &fast)),
                    "{count}: a vertex missed"
                );
            }
        }
    }

    /// Hill climbing on hulls of vertices found several times a rounding apart (the
    /// triples' enumeration of lp_sample's half-space shapes: four or more planes meet at
    /// their vertices): a cluster's rounded values made one of its points look like a top,
    /// 0.009 short of the support. Climbed values equal the scan's in every direction.
    #[test]
    fn hill_climbing_crosses_clusters_of_repeated_vertices() {
        use crate::shape::Polytope;
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../../../shared/data/problems/lp_sample.json");
        let Ok(text) = std::fs::read_to_string(&path) else {
            eprintln!("skipping: {} is absent", path.display());
            return;
        };
        let file: serde_json::Value = serde_json::from_str(&text).unwrap();
        let mut rng = SplitMix64::new(5);
        let (mut shapes, mut short) = (0, 0);
        for shape in file["shapes"].as_array().unwrap() {
            let Some(rows) = shape.get("halfspaces") else {
                continue;
            };
            let planes: Vec<[f64; 4]> = rows
                .as_array()
                .unwrap()
                .iter()
                .map(|r| std::array::from_fn(|k| r[k].as_f64().unwrap()))
                .collect();
            let polytope = Polytope::from_points(&vertices_by_triples(&planes)).unwrap();
            let vertices = polytope.vertices();
            for _ in 0..20000 {
                let dir = rng.unit_vector();
                let scan = vertices[polytope.support_index_brute_force(dir).0].dot(dir);
                for start in [0, vertices.len() / 2] {
                    let (climbed, _) = polytope.support_index_hill_climb(dir, start);
                    short += (vertices[climbed].dot(dir) < scan) as usize;
                }
            }
            shapes += 1;
        }
        assert!(shapes > 0);
        assert_eq!(short, 0, "{short} climbs stopped short");
    }

    /// A thousand planes (a mesh hull's count): cubic, not quartic.
    #[test]
    fn a_thousand_planes_are_answered() {
        let mut rng = SplitMix64::new(9);
        let count = if cfg!(debug_assertions) { 150 } else { 1000 };
        let vertices = halfspace_vertices(&random_planes(&mut rng, count)).unwrap();
        assert!(vertices.len() > count, "{}", vertices.len());
    }
}
