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

use super::Simplex;
use crate::minkowski::CsoPoint;

/// The nearest point of `conv(simplex)` (1 to 3 vertices) to the origin and its weights
/// in storage order: every face (vertex, edge, triangle) is projected with
/// [`nearest_in_affine_hull`], its weights clamped to the face (round-off can push an
/// interior point's weights a hair below zero on a thin face) and the point rebuilt from
/// them; the nearest wins. Every candidate is a point of the simplex, so the answer is
/// one whatever round-off did, and the loop's region tests play no part. The whole
/// simplex comes first: when its nearest point has no negative weight it is the
/// answer (the nearest point of the affine hull, inside), and the faces are skipped.
pub fn nearest_in_simplex(simplex: &Simplex) -> Option<(DVec3, [f64; 4])> {
    let n = simplex.len();
    if n == 0 || n > 3 {
        return None;
    }
    let points = Points::of(simplex);
    if n == 1 {
        let w = points.w[0];
        return w.is_finite().then_some((w, [1.0, 0.0, 0.0, 0.0]));
    }
    // The whole simplex first (most runs end here: a far pair ends on a vertex or on an
    // edge or triangle whose interior holds the nearest point).
    if let Some(answer) = nearest_inside_whole(&points) {
        return Some(answer);
    }
    let mut best: Option<(DVec3, [f64; 4])> = None;
    // Every proper face in storage order (ties keep the first).
    for mask in 1..(1u8 << n) - 1 {
        // The face's vertex indices, without allocating.
        let mut chosen = [0usize; 3];
        let mut count = 0;
        for i in 0..n {
            if mask & (1 << i) != 0 {
                chosen[count] = i;
                count += 1;
            }
        }
        let face = &chosen[..count];
        let Some(local) = nearest_in_affine_hull(&points, face) else {
            continue;
        };
        let Some((x, weights)) = rebuild(&points, local, face) else {
            continue;
        };
        if best.is_some_and(|(b, _)| b.length_squared() <= x.length_squared()) {
            continue;
        }
        best = Some((x, weights));
    }
    best
}

/// The nearest point of the affine hull of a segment or triangle (2 or 3 points) when
/// it lies in the simplex (no weight negative), with its weights: `None` otherwise, or
/// when the simplex is degenerate. The point is its base vertex plus the weighted edges
/// from it (the weights of an affine combination sum to one by construction), so it is
/// computed in one step from the numbers the weights came from: this ends nearly every
/// separated query, on its critical path.
#[inline(always)]
fn nearest_inside_whole(points: &Points) -> Option<(DVec3, [f64; 4])> {
    let (x, weights) = if points.n == 2 {
        let weights = nearest_in_affine_hull(points, &[0, 1])?;
        (points.w[0] + points.e10 * weights[1], weights)
    } else {
        let triangle = BasedTriangle::of(points);
        let (mu1, mu2) = triangle.weights()?;
        let mu0 = 1.0 - mu1 - mu2;
        // In storage order, whole: an array written at computed positions and read
        // back whole stalls on loads straddling those stores.
        let weights = match triangle.corners[0] {
            0 => [mu0, mu1, mu2, 0.0],
            1 => [mu2, mu0, mu1, 0.0],
            _ => [mu1, mu2, mu0, 0.0],
        };
        (
            triangle.base + triangle.e1 * mu1 + triangle.e2 * mu2,
            weights,
        )
    };
    // Every weight ≥ 0 (NaN fails) and the point finite.
    let inside = weights.iter().all(|w| *w >= 0.0) && x.is_finite();
    inside.then_some((x, weights))
}

/// A triangle seen from the vertex opposite its longest side: its two sides from there
/// make the largest angle, so their cross product is the best-conditioned normal (a
/// sliver 1e6 long and 1 wide keeps it to round-off).
struct BasedTriangle {
    /// Positions in the face of the base vertex and of the far ends of `e1` and `e2`.
    corners: [usize; 3],
    base: DVec3,
    e1: DVec3,
    e2: DVec3,
}

impl BasedTriangle {
    /// The triangle of the three `points`.
    #[inline(always)]
    fn of(points: &Points) -> Self {
        Self::of_face(points, [0, 1, 2])
    }

    /// The triangle of the points at input positions `f` (`corners` index `f`).
    #[inline(always)]
    fn of_face(points: &Points, f: [usize; 3]) -> Self {
        let sides = [
            points.edge(f[2], f[1]).length_squared(),
            points.edge(f[0], f[2]).length_squared(),
            points.edge(f[1], f[0]).length_squared(),
        ];
        // The longest side (the last of equals); NaN sides fail the normal's test.
        let mut o = 0;
        for (i, side) in sides.iter().enumerate().skip(1) {
            if *side >= sides[o] {
                o = i;
            }
        }
        let (i, j) = ((o + 1) % 3, (o + 2) % 3);
        Self {
            corners: [o, i, j],
            base: points.w[f[o]],
            e1: points.edge(f[i], f[o]),
            e2: points.edge(f[j], f[o]),
        }
    }

    /// The weights `μ1, μ2` of `e1, e2` at the origin's projection on the triangle's
    /// plane (`None` for a degenerate triangle). The projection `x = base + μ1 e1 +
    /// μ2 e2` satisfies `x × e2 ⊥ n`, so `μ1 = −(base × e2)·n / ‖n‖²` and
    /// `μ2 = −(e1 × base)·n / ‖n‖²`: the weights without x itself.
    #[inline(always)]
    fn weights(&self) -> Option<(f64, f64)> {
        let n = self.e1.cross(self.e2);
        let n2 = n.length_squared();
        if n2.is_nan() || n2 <= 0.0 {
            return None;
        }
        let inverse_n2 = 1.0 / n2;
        let mu1 = -self.base.cross(self.e2).dot(n) * inverse_n2;
        let mu2 = -self.e1.cross(self.base).dot(n) * inverse_n2;
        Some((mu1, mu2))
    }
}

/// A simplex's points (1 to 3) with their differences from the shapes' parts, each
/// computed once: `edge(i, j) = w_i − w_j` as `(a_i − a_j) − (b_i − b_j)`, and
/// `edge(j, i)` as its negation, which is the same number (rounding is symmetric).
struct Points {
    n: usize,
    w: [DVec3; 3],
    e10: DVec3,
    e20: DVec3,
    e21: DVec3,
}

impl Points {
    #[inline(always)]
    fn of(simplex: &Simplex) -> Self {
        let n = simplex.len();
        // Past the simplex's length the last vertex repeats (its edges are unused).
        let p: [CsoPoint; 3] = std::array::from_fn(|i| simplex.cso_point(i.min(n - 1)));
        let difference = |i: usize, j: usize| (p[i].a - p[j].a) - (p[i].b - p[j].b);
        Self {
            n,
            w: p.map(|p| p.w),
            e10: difference(1, 0),
            e20: difference(2, 0),
            e21: difference(2, 1),
        }
    }

    #[inline(always)]
    fn edge(&self, i: usize, j: usize) -> DVec3 {
        match (i, j) {
            (1, 0) => self.e10,
            (0, 1) => -self.e10,
            (2, 0) => self.e20,
            (0, 2) => -self.e20,
            (2, 1) => self.e21,
            (1, 2) => -self.e21,
            _ => DVec3::ZERO,
        }
    }
}

/// The point of the simplex with weights `local` (of the vertices `chosen`, clamped to
/// ≥ 0 and rescaled to sum 1), rebuilt from the edges' parts: `w₀ + Σ λᵢ edge(i, 0)`.
/// With the weights in storage order.
#[inline(always)]
fn rebuild(points: &Points, local: [f64; 4], chosen: &[usize]) -> Option<(DVec3, [f64; 4])> {
    let mut weights = [0.0; 4];
    for (k, &i) in chosen.iter().enumerate() {
        weights[i] = local[k].max(0.0);
    }
    let sum: f64 = weights.iter().sum();
    if !(sum > 0.0 && sum.is_finite()) {
        return None;
    }
    // The offsets are summed with the clamped weights while the division runs, and
    // scaled once: this ends every separated query, on its critical path.
    let inverse = 1.0 / sum;
    let mut offset = points.edge(1, 0) * weights[1];
    if points.n == 3 {
        offset += points.edge(2, 0) * weights[2];
    }
    Some((points.w[0] + offset * inverse, weights.map(|w| w * inverse)))
}

/// The barycentric weights (in the order of `face`, indices of `points`: 1 to 3) of
/// the nearest point of the face's affine hull to the origin. `None` for a degenerate
/// face. Inlined: it ends every separated query.
#[inline(always)]
fn nearest_in_affine_hull(points: &Points, face: &[usize]) -> Option<[f64; 4]> {
    let weights = match *face {
        [_] => [1.0, 0.0, 0.0, 0.0],
        [f0, f1] => {
            let (base, e) = (points.w[f0], points.edge(f1, f0));
            let e2 = e.length_squared();
            if e2.is_nan() || e2 <= 0.0 {
                return None;
            }
            let t = -base.dot(e) / e2;
            [1.0 - t, t, 0.0, 0.0]
        }
        [f0, f1, f2] => {
            let triangle = BasedTriangle::of_face(points, [f0, f1, f2]);
            let (mu1, mu2) = triangle.weights()?;
            let [o, i, j] = triangle.corners;
            let mut weights = [0.0; 4];
            weights[o] = 1.0 - mu1 - mu2;
            weights[i] = mu1;
            weights[j] = mu2;
            weights
        }
        _ => return None,
    };
    weights.iter().all(|w| w.is_finite()).then_some(weights)
}

/// Whether the origin lies in the tetrahedron `simplex` (four vertices, boundary
/// included), decided by exact orientation signs on its points: the region tree's
/// "inside" comes from rounded dot products and can be wrong by a hair when the origin
/// is that close to a face.
///
/// The origin's barycentric coordinates times the signed volume are the four
/// determinants of three vertices each (with alternating signs), and the volume is
/// their sum; so the origin is inside exactly when the four have one sign and are not
/// all zero (a flat tetrahedron). Four exact signs, with the origin as the fourth point
/// of each predicate (its differences exact): this runs on every enclosure.
pub fn tetrahedron_contains_origin(simplex: &Simplex) -> bool {
    simplex.len() == 4 && origin_in_tetrahedron(std::array::from_fn(|i| simplex.point(i)))
}

/// [`tetrahedron_contains_origin`] on the four points by value (the solver passes the
/// projection's own copies: read back from the simplex's array right after it was
/// written, they stalled the core on loads straddling the stores).
#[inline(always)]
pub fn origin_in_tetrahedron([p0, p1, p2, p3]: [DVec3; 4]) -> bool {
    use crate::shape::hull::orientation::height;
    let o = DVec3::ZERO;
    // height(a, b, c, 0) = −det[a; b; c].
    let weights = [
        -height(p1, p2, p3, o),
        height(p0, p2, p3, o),
        -height(p0, p1, p3, o),
        height(p0, p1, p2, o),
    ];
    let none_negative = weights.iter().all(|w| *w >= 0.0);
    let none_positive = weights.iter().all(|w| *w <= 0.0);
    none_negative != none_positive
}

/// Whether the origin lies in the convex hull of `points` (boundary included), by exact
/// signs: by Carathéodory's theorem it does exactly when it lies in a tetrahedron of
/// four of them (or, where they are flat, a triangle, a segment or a point of them), so
/// every such set is tried. `None` when there are too many points for that (more than
/// [`ENCLOSURE_SUBSET_LIMIT`]): the question is left open.
pub fn points_enclose_origin(points: &[DVec3]) -> Option<bool> {
    let n = points.len();
    if n >= HULL_TEST_FROM {
        if let Some(inside) = origin_in_exact_hull(points) {
            return Some(inside);
        }
    }
    if n > ENCLOSURE_SUBSET_LIMIT {
        return None;
    }
    Some(origin_in_some_subset(points))
}

/// Carathéodory by enumeration: some four of `points` (or, where they are flat, three,
/// two or one) hold the origin, by exact signs.
fn origin_in_some_subset(points: &[DVec3]) -> bool {
    use crate::shape::hull::span::{origin_in_triangle, origin_on_segment};
    let n = points.len();
    let flat = || {
        (0..n).any(|i| {
            points[i] == DVec3::ZERO
                || (i + 1..n).any(|j| {
                    origin_on_segment(points[i], points[j])
                        || (j + 1..n).any(|k| origin_in_triangle(points[i], points[j], points[k]))
                })
        })
    };
    for i in 0..n {
        for j in i + 1..n {
            for k in j + 1..n {
                for l in k + 1..n {
                    if origin_in_tetrahedron([points[i], points[j], points[k], points[l]]) {
                        return true;
                    }
                }
            }
        }
    }
    flat()
}

/// Points from which [`points_enclose_origin`] builds their exact hull instead of trying
/// every four: a run stopped by touching shapes (the origin a hair outside) tried all
/// C(18, 4) = 3060 tetrahedra, 55 µs on two boxes meeting end to end.
const HULL_TEST_FROM: usize = 8;

/// Whether the origin lies in the hull of `points` (boundary included), from their
/// exact convex hull (Quickhull on exact orientation tests): inside exactly when it is
/// above no face. The same answer as trying every four points, in one hull. `None` when
/// the points span no volume (or are not finite): the caller tries subsets instead.
fn origin_in_exact_hull(points: &[DVec3]) -> Option<bool> {
    use crate::shape::hull::quickhull::{exact_hull, height};
    if !points.iter().all(|p| p.is_finite()) {
        return None;
    }
    // + 0: −0 and 0 are one point.
    let mut distinct: Vec<DVec3> = points.iter().map(|p| *p + DVec3::ZERO).collect();
    let key = |p: &DVec3| p.to_array().map(f64::to_bits);
    distinct.sort_unstable_by_key(key);
    distinct.dedup_by_key(|p| key(p));
    let hull = exact_hull(&distinct)?;
    let v = |i: usize| distinct[i];
    Some(
        hull.triangles
            .iter()
            .all(|t| height(v(t[0]), v(t[1]), v(t[2]), DVec3::ZERO) <= 0.0),
    )
}

/// Points beyond which [`points_enclose_origin`] does not try every four (1820
/// tetrahedra at 16).
pub const ENCLOSURE_SUBSET_LIMIT: usize = 16;

/// Directions whose supports are added to a run's own points when it stops within the
/// tolerance of the origin and must prove an overlap: the six axes and four corners of
/// a cube (a regular tetrahedron's), so that a body around the origin is probed on
/// every side.
pub const ENCLOSURE_PROBES: [DVec3; 10] = [
    DVec3::X,
    DVec3::NEG_X,
    DVec3::Y,
    DVec3::NEG_Y,
    DVec3::Z,
    DVec3::NEG_Z,
    DVec3::new(1.0, 1.0, 1.0),
    DVec3::new(1.0, -1.0, -1.0),
    DVec3::new(-1.0, 1.0, -1.0),
    DVec3::new(-1.0, -1.0, 1.0),
];

/// Whether `points` of `A ⊖ B` and the supports along [`ENCLOSURE_PROBES`] enclose the
/// origin (exact signs): the overlap proof of a run that stopped with its iterate
/// within the tolerance of the origin (Coal's "check A", which proves nothing alone).
/// `support` is the support of `A ⊖ B`; `None` when there are too many points to try.
pub fn probed_enclosure(points: &[DVec3], mut support: impl FnMut(DVec3) -> DVec3) -> Option<bool> {
    // The points alone first: a warm-started run whose simplex already encloses the
    // origin needs no probe (each is two hill climbs across a mesh), and an enclosure
    // by some of the points is one by all of them.
    if points_enclose_origin(points) == Some(true) {
        return Some(true);
    }
    let mut all = points.to_vec();
    all.extend(ENCLOSURE_PROBES.iter().map(|d| support(*d)));
    all.dedup();
    points_enclose_origin(&all)
}

/// The origin's nearest point in `conv(simplex)` (any order, 1 to 4 points, every face
/// tried from the shapes' points): the face that holds it (vertices of zero weight
/// dropped) and the point. Inside a tetrahedron (exact signs): all four kept, the point
/// zero. For iterations whose ordering assumptions do not hold (the ray cast's moving
/// point) or that round-off has sent to the precise projection.
pub fn nearest_face(mut simplex: Simplex) -> Option<(Simplex, DVec3)> {
    if simplex.len() == 4 {
        if tetrahedron_contains_origin(&simplex) {
            return Some((simplex, DVec3::ZERO));
        }
        simplex = nearest_on_tetrahedron_faces(&simplex)?.0;
    }
    let (x, weights) = nearest_in_simplex(&simplex)?;
    let mut kept = simplex;
    keep_positive(&mut kept, weights);
    Some((kept, x))
}

/// The weights of the origin's nearest point on a face [`nearest_face`] kept (a
/// tetrahedron it kept holds the origin), in storage order.
pub fn face_weights(face: &Simplex) -> Option<[f64; 4]> {
    if face.len() == 4 {
        return Some(super::barycentric(face, DVec3::ZERO));
    }
    nearest_in_simplex(face).map(|(_, local)| local)
}

/// The nearest point to the origin on the faces of tetrahedron `simplex`, with the face
/// (its vertices of nonzero weight) that holds it: where the origin is outside after all.
pub fn nearest_on_tetrahedron_faces(simplex: &Simplex) -> Option<(Simplex, DVec3)> {
    let v = simplex.vertices();
    if v.len() != 4 {
        return None;
    }
    let mut best: Option<(Simplex, DVec3)> = None;
    for skip in 0..4 {
        let mut face = Simplex::new();
        for (i, vertex) in v.iter().enumerate() {
            if i != skip {
                face.push(*vertex);
            }
        }
        let Some((x, weights)) = nearest_in_simplex(&face) else {
            continue;
        };
        if best
            .as_ref()
            .is_some_and(|(_, b)| b.length_squared() <= x.length_squared())
        {
            continue;
        }
        let mut kept = face;
        keep_positive(&mut kept, weights);
        best = Some((kept, x));
    }
    best
}

/// Whether the origin lies exactly in the affine hull of a point, segment or triangle
/// (1 to 3 points; exact orientation tests): a face projection's "contains the origin"
/// must be this.
pub fn origin_on_flat(w: &[DVec3]) -> bool {
    use crate::shape::hull::orientation::height;
    use crate::shape::hull::span::collinear;
    match w.len() {
        1 => w[0] == DVec3::ZERO,
        2 => collinear(w[0], w[1], DVec3::ZERO),
        3 => height(w[0], w[1], w[2], DVec3::ZERO) == 0.0,
        _ => false,
    }
}

/// Shrinks `simplex` to its vertices of positive weight (all of them if none is).
pub fn keep_positive(simplex: &mut Simplex, weights: [f64; 4]) {
    let mut kept = Simplex::new();
    for (v, w) in simplex.vertices().iter().zip(weights) {
        if w > 0.0 {
            kept.push(*v);
        }
    }
    if !kept.is_empty() {
        *simplex = kept;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::SplitMix64;

    /// The hull test answers as the enumeration does, on point sets where exact ties are
    /// the rule: small integer grids (the origin on faces, edges and vertices, coplanar
    /// and repeated points, −0), shifted so the origin is inside, on the boundary or out.
    #[test]
    fn the_hull_test_agrees_with_trying_every_subset() {
        let mut rng = SplitMix64::new(5);
        let (mut inside, mut outside, mut solid) = (0, 0, 0);
        for trial in 0..4000 {
            let n = 8 + trial % 9;
            let shift = DVec3::new(
                rng.index(3) as f64 - 1.0,
                rng.index(3) as f64 - 1.0,
                rng.index(3) as f64 - 1.0,
            );
            let points: Vec<DVec3> = (0..n)
                .map(|_| {
                    let c = |r: &mut SplitMix64| r.index(3) as f64 - 1.0;
                    let p = DVec3::new(c(&mut rng), c(&mut rng), c(&mut rng)) * 0.5 + shift * 0.5;
                    if trial % 7 == 0 {
                        p * -1.0
                    } else {
                        p
                    }
                })
                .collect();
            let by_subsets = origin_in_some_subset(&points);
            if let Some(by_hull) = origin_in_exact_hull(&points) {
                solid += 1;
                assert_eq!(by_hull, by_subsets, "{points:?}");
            }
            if by_subsets {
                inside += 1;
            } else {
                outside += 1;
            }
        }
        assert!(
            inside > 500 && outside > 500 && solid > 2000,
            "{inside} {outside} {solid}"
        );
    }
}
