//! The nearest point of a simplex's affine hull to the origin, with its edges computed
//! from the shapes' own points: `w_i − w_0 = (a_i − a_0) − (b_i − b_0)`.
//!
//! Why: each CSO point `w = a − b` is rounded at the scale of its coordinates. On a
//! long, thin face of `A ⊖ B` (a needle 3e6 long and 1 wide, far from the origin of A's
//! frame) that rounding tilts the face's normal by ~1e-10 rad, which moves the plane by
//! ~1e-4 where the origin is. Differences of nearby points of one shape are exact (or
//! nearly), so edges built from them keep the normal to round-off of its own length.
//! The loop keeps Coal's arithmetic (iteration counts must match); the final answer is
//! recomputed here.

use glam::DVec3;

use super::{Simplex, SimplexVertex};

/// The nearest point of `conv(simplex)` (1 to 3 vertices) to the origin and its weights
/// in storage order: every face (vertex, edge, triangle) is tried with
/// [`nearest_in_affine_hull`] and the nearest one whose weights are all ≥ 0 wins. Unlike
/// the loop's region tests, this cannot pick a wrong region when the simplex is nearly
/// degenerate, and the answer is always a point of the simplex.
pub fn nearest_in_simplex(simplex: &Simplex) -> Option<(DVec3, [f64; 4])> {
    let vertices = simplex.vertices();
    if vertices.is_empty() || vertices.len() > 3 {
        return None;
    }
    let mut best: Option<(DVec3, [f64; 4])> = None;
    for mask in 1u8..(1 << vertices.len()) {
        let chosen: Vec<(usize, SimplexVertex)> = (0..vertices.len())
            .filter(|i| mask & (1 << i) != 0)
            .map(|i| (i, vertices[i]))
            .collect();
        let face = Simplex::from_slice(&chosen.iter().map(|(_, v)| *v).collect::<Vec<_>>());
        let Some((x, local)) = nearest_in_affine_hull(&face) else {
            continue;
        };
        if local[..chosen.len()].iter().any(|w| *w < 0.0) {
            continue;
        }
        if best.is_some_and(|(b, _)| b.length_squared() <= x.length_squared()) {
            continue;
        }
        let mut weights = [0.0; 4];
        for (k, (i, _)) in chosen.iter().enumerate() {
            weights[*i] = local[k];
        }
        best = Some((x, weights));
    }
    best
}

/// The nearest point of the affine hull of `simplex` (1 to 3 vertices) to the origin and
/// its barycentric weights in storage order. `None` for a degenerate simplex or a
/// tetrahedron (the origin is inside; there is no distance to refine).
pub fn nearest_in_affine_hull(simplex: &Simplex) -> Option<(DVec3, [f64; 4])> {
    let v = simplex.vertices();
    let difference =
        |i: usize, j: usize| (v[i].point.a - v[j].point.a) - (v[i].point.b - v[j].point.b);
    let (x, weights) = match v.len() {
        1 => (v[0].point.w, [1.0, 0.0, 0.0, 0.0]),
        2 => {
            let (base, e) = (v[0].point.w, difference(1, 0));
            let e2 = e.length_squared();
            if e2.is_nan() || e2 <= 0.0 {
                return None;
            }
            let t = -base.dot(e) / e2;
            (base + e * t, [1.0 - t, t, 0.0, 0.0])
        }
        3 => {
            // Base at the vertex opposite the longest side: its two sides make the
            // triangle's largest angle, so their cross product is the best-conditioned
            // normal (a sliver 1e6 long and 1 wide keeps it to round-off).
            let side = |i: usize| difference((i + 1) % 3, (i + 2) % 3).length_squared();
            let o = (0..3).max_by(|a, b| side(*a).total_cmp(&side(*b)))?;
            let (i, j) = ((o + 1) % 3, (o + 2) % 3);
            let (e1, e2) = (difference(i, o), difference(j, o));
            let base = v[o].point.w;
            let n = e1.cross(e2);
            let n2 = n.length_squared();
            if n2.is_nan() || n2 <= 0.0 {
                return None;
            }
            let x = n * (n.dot(base) / n2);
            // x − base = μ1 e1 + μ2 e2 in the plane.
            let r = x - base;
            let mu1 = r.cross(e2).dot(n) / n2;
            let mu2 = e1.cross(r).dot(n) / n2;
            let mut weights = [0.0; 4];
            weights[o] = 1.0 - mu1 - mu2;
            weights[i] = mu1;
            weights[j] = mu2;
            (x, weights)
        }
        _ => return None,
    };
    (x.is_finite() && weights.iter().all(|w| w.is_finite())).then_some((x, weights))
}
