//! Bounded intersections of half-spaces, by their vertices.

use glam::{DMat3, DVec3};

/// The vertices of the bounded set `{x : n·x ≤ d}`: every point where three planes
/// meet that satisfies all of them (within 1e-9 of the planes' scale). Refused: a set
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
    let free = |u: DVec3| normals.iter().all(|n| n.dot(u) <= 1e-12 * n.length());
    let mut spans = false;
    for (i, ni) in normals.iter().enumerate() {
        for nj in &normals[i + 1..] {
            let edge = ni.cross(*nj).normalize_or_zero();
            if edge == DVec3::ZERO {
                continue;
            }
            spans |= normals
                .iter()
                .any(|nk| nk.dot(edge).abs() > 1e-12 * nk.length());
            if free(edge) || free(-edge) {
                return Err(format!("unbounded: no plane stops the direction {edge}"));
            }
        }
    }
    if !spans {
        return Err("unbounded: the normals do not span space".into());
    }
    let scale = planes.iter().map(|p| p[3].abs()).fold(1.0f64, f64::max);
    let mut vertices = Vec::new();
    for i in 0..planes.len() {
        for j in i + 1..planes.len() {
            for k in j + 1..planes.len() {
                let m = DMat3::from_cols(normals[i], normals[j], normals[k]).transpose();
                if m.determinant().abs() < 1e-12 {
                    continue;
                }
                let x = m.inverse() * DVec3::new(planes[i][3], planes[j][3], planes[k][3]);
                let inside = planes
                    .iter()
                    .zip(&normals)
                    .all(|(p, n)| n.dot(x) <= p[3] + 1e-9 * scale * n.length().max(1.0));
                if inside && x.is_finite() {
                    vertices.push(x);
                }
            }
        }
    }
    if vertices.is_empty() {
        return Err("empty: no point satisfies every plane".into());
    }
    Ok(vertices)
}
