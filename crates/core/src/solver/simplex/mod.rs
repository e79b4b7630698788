//! The GJK simplex and the projection of the origin onto it (the "distance
//! sub-algorithm"), in the pruned form of Coulombe, "High Precision Real Time Collision
//! Detection" §III-B and Coal: the newest vertex `A` is the closest to the origin, so only
//! the regions that touch `A` are tested.
//!
//! Storage order matters for reproducing Coal's iteration counts: the newest vertex is
//! last; a kept segment is stored `[B, A]`; a kept triangle `[C, B, A]` when the origin is
//! above `ABC` (`ABC·AO > 0`), else `[B, C, A]`.

mod from_parts;
mod region_tree;

pub use from_parts::{
    face_weights, keep_positive, nearest_face, nearest_in_simplex, nearest_on_tetrahedron_faces,
    points_enclose_origin, probed_enclosure, tetrahedron_contains_origin, ENCLOSURE_PROBES,
};
use from_parts::{origin_in_tetrahedron, origin_on_flat};

use glam::DVec3;
use serde::{Deserialize, Serialize};

use crate::minkowski::CsoPoint;

/// How a tetrahedron is projected (segments and triangles are the same either way).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "clap", derive(clap::ValueEnum))]
pub enum TetrahedronRule {
    /// Coal's region tree (`projectTetrahedraOrigin`): the default, because it takes
    /// Coal's branch where rounding decides, so iteration counts equal Coal's.
    #[default]
    RegionTree,
    /// Project onto each face through `A` that the origin is outside of and keep the
    /// nearest: independent of vertex order and tolerant of flat tetrahedra.
    NearestFace,
}

/// A simplex vertex with a label: the number of the support call that produced it
/// (`w1`, `w2`, ... in the viewer's narration).
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct SimplexVertex {
    pub id: u32,
    pub point: CsoPoint,
}

/// At most four vertices, newest last. Each vertex (point `w`, label, parts on A and
/// B) stays in the slot a push put it in; `slots` maps storage positions to slots, so
/// keeping a face rewrites one word and moves no numbers (Coal's simplex holds pointers
/// for the same reason). Everything is stored one array per coordinate and read one
/// number at a time through the map: a point stored as 16 + 8 bytes and read back as
/// 8 + 16, or two neighbours stored one by one and read as a pair, makes the load
/// straddle two stores, which the core cannot forward (a stall while they are in
/// flight, which on the loop's path is every iteration).
#[derive(Clone, Copy, Debug)]
pub struct Simplex {
    /// The points `w` by slot.
    x: [f64; 4],
    y: [f64; 4],
    z: [f64; 4],
    /// Byte `i`: the slot where the `i`-th vertex is kept. One word,
    /// always read and written whole: a word loaded over byte stores to it cannot be
    /// forwarded from them, a stall in every iteration.
    slots: u32,
    /// The slots no vertex uses, one bit each: a push takes the lowest, with no search.
    free_slots: u32,
    parts: Parts,
    len: usize,
}

/// Per slot: the label and the parts on A and B, one array per coordinate. Plain numbers,
/// so that an empty simplex is zeroed in place and a push writes numbers: an array of
/// 80-byte vertices was zeroed through a temporary and copied with loads that straddled
/// its stores, a stall at the start of every query.
#[derive(Clone, Copy, Debug)]
struct Parts {
    id: [u32; 4],
    a: [[f64; 4]; 3],
    b: [[f64; 4]; 3],
}

impl Parts {
    #[inline(always)]
    fn set(&mut self, slot: usize, v: &SimplexVertex) {
        self.id[slot] = v.id;
        let (a, b) = (v.point.a, v.point.b);
        (self.a[0][slot], self.a[1][slot], self.a[2][slot]) = (a.x, a.y, a.z);
        (self.b[0][slot], self.b[1][slot], self.b[2][slot]) = (b.x, b.y, b.z);
    }

    #[inline(always)]
    fn a(&self, slot: usize) -> DVec3 {
        DVec3::new(self.a[0][slot], self.a[1][slot], self.a[2][slot])
    }

    #[inline(always)]
    fn b(&self, slot: usize) -> DVec3 {
        DVec3::new(self.b[0][slot], self.b[1][slot], self.b[2][slot])
    }
}

impl Default for Simplex {
    /// Empty.
    #[inline(always)]
    fn default() -> Self {
        Self {
            x: [0.0; 4],
            y: [0.0; 4],
            z: [0.0; 4],
            slots: 0,
            free_slots: 0b1111,
            parts: Parts {
                id: [0; 4],
                a: [[0.0; 4]; 3],
                b: [[0.0; 4]; 3],
            },
            len: 0,
        }
    }
}

impl PartialEq for Simplex {
    fn eq(&self, other: &Self) -> bool {
        *self.vertices() == *other.vertices()
    }
}

/// Up to four items of a simplex in storage order, by value: reads like a slice.
#[derive(Clone, Copy, Debug)]
pub struct Prefix<T> {
    items: [T; 4],
    len: usize,
}

/// A simplex's vertices in storage order.
pub type Vertices = Prefix<SimplexVertex>;

impl<T> std::ops::Deref for Prefix<T> {
    type Target = [T];
    fn deref(&self) -> &[T] {
        &self.items[..self.len]
    }
}

impl<T> IntoIterator for Prefix<T> {
    type Item = T;
    type IntoIter = std::iter::Take<std::array::IntoIter<T, 4>>;
    fn into_iter(self) -> Self::IntoIter {
        self.items.into_iter().take(self.len)
    }
}

impl<'v, T> IntoIterator for &'v Prefix<T> {
    type Item = &'v T;
    type IntoIter = std::slice::Iter<'v, T>;
    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

impl Simplex {
    pub fn new() -> Self {
        Self::default()
    }

    pub fn from_slice(vertices: &[SimplexVertex]) -> Self {
        let mut s = Self::new();
        for v in vertices.iter().take(4) {
            s.push(*v);
        }
        s
    }

    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The vertices in storage order (a copy: for records and final answers).
    pub fn vertices(&self) -> Vertices {
        let mut items = [SimplexVertex::default(); 4];
        for (i, item) in items.iter_mut().enumerate().take(self.len) {
            *item = SimplexVertex {
                id: self.parts.id[self.slot(i)],
                point: self.cso_point(i),
            };
        }
        Vertices {
            items,
            len: self.len,
        }
    }

    /// Where the `i`-th vertex's label and parts are kept (`i` < 4).
    #[inline(always)]
    fn slot(&self, i: usize) -> usize {
        ((self.slots >> (8 * i)) & 0xff) as usize
    }

    /// The `i`-th vertex's point and its parts (`i` < `len`).
    #[inline(always)]
    pub fn cso_point(&self, i: usize) -> CsoPoint {
        let slot = self.slot(i);
        CsoPoint {
            w: self.point_in_slot(slot),
            a: self.parts.a(slot),
            b: self.parts.b(slot),
        }
    }

    /// Witness points `Σ λ_i a_i` and `Σ λ_i b_i` (A's frame) for weights in storage
    /// order.
    pub fn witness_points(&self, weights: &[f64; 4]) -> (DVec3, DVec3) {
        (0..self.len).fold((DVec3::ZERO, DVec3::ZERO), |(a, b), i| {
            let p = self.cso_point(i);
            (a + p.a * weights[i], b + p.b * weights[i])
        })
    }

    /// The points `w` in storage order.
    pub fn points(&self) -> Prefix<DVec3> {
        Prefix {
            items: std::array::from_fn(|i| self.point(i)),
            len: self.len,
        }
    }

    /// The point `w` at storage position `i` (< 4; past the length, some kept point).
    #[inline(always)]
    fn point(&self, i: usize) -> DVec3 {
        self.point_in_slot(self.slot(i))
    }

    #[inline(always)]
    fn point_in_slot(&self, slot: usize) -> DVec3 {
        DVec3::new(self.x[slot], self.y[slot], self.z[slot])
    }

    /// Whether `w` is one of the points (bit for bit).
    #[inline(always)]
    pub fn has_point(&self, w: DVec3) -> bool {
        (0..self.len.min(4)).any(|i| self.point(i) == w)
    }

    /// Adds a vertex as the newest. The caller keeps `len < 4` before pushing.
    pub fn push(&mut self, v: SimplexVertex) {
        debug_assert!(self.len < 4);
        if self.len >= 4 {
            return;
        }
        let free = self.free_slots.trailing_zeros();
        self.free_slots &= self.free_slots - 1;
        let slot = free as usize;
        self.parts.set(slot, &v);
        (self.x[slot], self.y[slot], self.z[slot]) = (v.point.w.x, v.point.w.y, v.point.w.z);
        let shift = 8 * self.len;
        self.slots = (self.slots & !(0xff << shift)) | (free << shift);
        self.len += 1;
    }

    /// Keeps the face the projection chose: a new position map, nothing moved.
    #[inline(always)]
    fn keep(&mut self, face: &Face) {
        // All four positions, no loop over the face's length (a loop whose length
        // changes from step to step mispredicts its exit): positions past the face
        // repeat a kept vertex (see `Face::new`), so they add no used slot.
        let slot = |p: usize| self.slot(face.kept[p] as usize) as u32;
        let (s0, s1, s2, s3) = (slot(0), slot(1), slot(2), slot(3));
        self.slots = s0 | (s1 << 8) | (s2 << 16) | (s3 << 24);
        self.free_slots = 0b1111 & !((1 << s0) | (1 << s1) | (1 << s2) | (1 << s3));
        self.len = face.len;
    }

    /// Removes the newest vertex.
    pub fn pop(&mut self) {
        if self.len > 0 {
            self.len -= 1;
            self.free_slots |= 1 << self.slot(self.len);
        }
    }
}

/// The result of projecting the origin onto `conv(simplex)`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Projection {
    /// The smallest face holding the nearest point, in Coal's storage order.
    pub simplex: Simplex,
    /// The nearest point (`x_{k+1}`). Its weights: [`barycentric`], computed only when
    /// needed (records, witness points), since the loop itself never uses them.
    pub x: DVec3,
    /// The origin lies in the simplex (a tetrahedron containing it, or on a face).
    pub contains_origin: bool,
}

/// Projects the origin onto the simplex, whose last vertex is the newest.
pub fn project_origin(simplex: &Simplex, rule: TetrahedronRule) -> Projection {
    let mut kept = *simplex;
    let (x, contains_origin) = project_origin_in_place(&mut kept, rule);
    Projection {
        simplex: kept,
        x,
        contains_origin,
    }
}

/// The same projection, shrinking `simplex` to the kept face in place (the solver's hot
/// path: vertices are 80 bytes, so the search below moves indices, not vertices).
/// Returns the nearest point and whether the origin lies in the simplex.
pub fn project_origin_in_place(simplex: &mut Simplex, rule: TetrahedronRule) -> (DVec3, bool) {
    let Some(&newest) = simplex.vertices().last() else {
        return (DVec3::ZERO, false);
    };
    simplex.pop();
    let projected = push_and_project(simplex, newest, rule);
    (projected.x, projected.contains_origin)
}

/// Adds `newest` to the simplex (at most three vertices) and projects the origin onto
/// the result, keeping the face that holds the nearest point. The solver's step: the
/// new point enters the search as the value the support returned, not read back from
/// the array it was just stored in (a load across the halves of that store stalls the
/// core for a tenth of an iteration).
#[inline(always)]
pub fn push_and_project(
    simplex: &mut Simplex,
    newest: SimplexVertex,
    rule: TetrahedronRule,
) -> Projected {
    let (w0, w1, w2) = (simplex.point(0), simplex.point(1), simplex.point(2));
    let earlier = simplex.len;
    simplex.push(newest);
    let new = newest.point.w;
    let (v0, v1, v2) = (
        V { index: 0, w: w0 },
        V { index: 1, w: w1 },
        V { index: 2, w: w2 },
    );
    let face = match earlier {
        0 => point(V { index: 0, w: new }),
        1 => project_segment(V { index: 1, w: new }, v0),
        2 => project_triangle(V { index: 2, w: new }, v1, v0),
        _ => {
            let v3 = V { index: 3, w: new };
            match rule {
                TetrahedronRule::RegionTree => region_tree::project(v3, v2, v1, v0)
                    .unwrap_or_else(|| project_tetrahedron(v3, v2, v1, v0)),
                TetrahedronRule::NearestFace => project_tetrahedron(v3, v2, v1, v0),
            }
        }
    };
    simplex.keep(&face);
    // The tetrahedron's points as the search had them (all four: only an enclosing
    // tetrahedron is kept whole); a face through the origin, rare, is read back.
    let enclosure_certified = face.contains_origin
        && match face.len {
            4 => origin_in_tetrahedron([w0, w1, w2, new]),
            _ => origin_on_flat(&simplex.points()),
        };
    Projected {
        x: face.x,
        contains_origin: face.contains_origin,
        enclosure_certified,
    }
}

/// What [`push_and_project`] found.
#[derive(Clone, Copy, Debug)]
pub struct Projected {
    /// The nearest point.
    pub x: DVec3,
    /// The search says the origin lies in the kept face (from rounded dot products).
    pub contains_origin: bool,
    /// ... and exact signs on the kept points confirm it: a simplex the origin misses
    /// by a hair (round-off in the search's dot products) says "inside" without this.
    pub enclosure_certified: bool,
}

/// A vertex seen by the search: its position in the input and its point.
#[derive(Clone, Copy)]
struct V {
    index: u8,
    w: DVec3,
}

/// A kept face: input positions in storage order, the nearest point, enclosure.
#[derive(Clone, Copy)]
struct Face {
    kept: [u8; 4],
    len: usize,
    x: DVec3,
    contains_origin: bool,
}

impl Face {
    #[inline(always)]
    fn new(vertices: &[V], x: DVec3, contains_origin: bool) -> Self {
        // Positions past the face repeat its first vertex (`Simplex::keep` reads all four).
        let mut kept = [vertices.first().map_or(0, |v| v.index); 4];
        for (i, v) in vertices.iter().enumerate() {
            kept[i] = v.index;
        }
        Face {
            kept,
            len: vertices.len(),
            x,
            contains_origin,
        }
    }
}

#[inline(always)]
fn point(a: V) -> Face {
    Face::new(&[a], a.w, a.w == DVec3::ZERO)
}

/// Segment `[B, A]`, `A` newest: the vertex `A` or the open segment.
#[inline(always)]
fn project_segment(a: V, b: V) -> Face {
    let (pa, pb) = (a.w, b.w);
    let towards_b = (pb - pa).dot(-pa);
    if towards_b <= 0.0 {
        point(a)
    } else {
        segment(a, b)
    }
}

/// The nearest point on the line through `A` and `B`, known to lie inside the segment:
/// `x = ((AB·B) A + (AB·AO) B) / ‖AB‖²`. Stored `[B, A]`.
#[inline(always)]
fn segment(a: V, b: V) -> Face {
    segment_with(a, b, (b.w - a.w).dot(-a.w))
}

/// [`segment`] with `AB·AO` given, as the tetrahedron tree computes it (`A·A − B·A`).
#[inline(always)]
fn segment_with(a: V, b: V, ab_dot_ao: f64) -> Face {
    let (pa, pb) = (a.w, b.w);
    let ab = pb - pa;
    let ab2 = ab.length_squared();
    if ab2.is_nan() || ab2 <= 0.0 {
        return point(a);
    }
    let weight_a = ab.dot(pb);
    let weight_b = ab_dot_ao;
    let x = (pa * weight_a + pb * weight_b) / ab2;
    Face::new(&[b, a], x, x == DVec3::ZERO)
}

/// Triangle with `A` newest: regions A, AB, AC and the face.
#[inline(always)]
fn project_triangle(a: V, b: V, c: V) -> Face {
    let (pa, pb, pc) = (a.w, b.w, c.w);
    let ao = -pa;
    let ab = pb - pa;
    let ac = pc - pa;
    let abc = ab.cross(ac);
    if abc.cross(ac).dot(ao) >= 0.0 {
        if ac.dot(ao) >= 0.0 {
            segment(a, c)
        } else {
            edge_or_vertex(a, b, ab.dot(ao))
        }
    } else if ab.cross(abc).dot(ao) >= 0.0 {
        edge_or_vertex(a, b, ab.dot(ao))
    } else {
        face(a, b, c, abc, abc.dot(ao))
    }
}

/// Edge AB when the origin lies beyond A along it (`ab_dot_ao = AB·AO ≥ 0`), else A.
#[inline(always)]
fn edge_or_vertex(a: V, b: V, ab_dot_ao: f64) -> Face {
    if ab_dot_ao < 0.0 {
        point(a)
    } else {
        segment(a, b)
    }
}

/// The origin projects into the interior of triangle ABC:
/// `x = −(ABC·AO)/‖ABC‖² ABC`, stored `[C, B, A]` above the face, `[B, C, A]` below.
#[inline(always)]
fn face(a: V, b: V, c: V, abc: DVec3, abc_dot_ao: f64) -> Face {
    let abc2 = abc.length_squared();
    if abc2.is_nan() || abc2 <= 0.0 {
        // Collinear vertices: the nearer of the two edges through A.
        return nearer(segment(a, b), segment(a, c));
    }
    let stored = if abc_dot_ao >= 0.0 {
        [c, b, a]
    } else {
        [b, c, a]
    };
    let x = if abc_dot_ao == 0.0 {
        DVec3::ZERO
    } else {
        abc * (-abc_dot_ao / abc2)
    };
    Face::new(&stored, x, abc_dot_ao == 0.0)
}

/// Tetrahedron `[D, C, B, A]`, `A` newest. The faces through `A` that the origin lies
/// outside of are candidates; the nearest candidate projection wins. Face normals are
/// oriented by the opposite vertex, so no orientation convention is assumed, and a flat
/// tetrahedron (all four points coplanar) is answered by its three faces through `A`.
fn project_tetrahedron(a: V, b: V, c: V, d: V) -> Face {
    let pa = a.w;
    let ao = -pa;
    // (P, Q, opposite): faces ABC, ACD, ADB, in the argument order Coal uses for them.
    let faces = [(b, c, d), (c, d, b), (d, b, c)];
    let mut outside = [false; 3];
    let mut flat = false;
    for (i, (p, q, opposite)) in faces.iter().enumerate() {
        let n = (p.w - pa).cross(q.w - pa);
        let side = n.dot(opposite.w - pa);
        if side == 0.0 || !side.is_finite() {
            flat = true;
        }
        let outward = if side > 0.0 { -n } else { n };
        outside[i] = outward.dot(ao) > 0.0;
    }
    if !flat && !outside.iter().any(|o| *o) {
        return inside(a, b, c, d);
    }
    let mut best: Option<Face> = None;
    for (i, (p, q, _)) in faces.iter().enumerate() {
        if flat || outside[i] {
            let candidate = project_triangle(a, *p, *q);
            best = Some(match best {
                None => candidate,
                Some(current) => nearer(current, candidate),
            });
        }
    }
    best.unwrap_or_else(|| inside(a, b, c, d))
}

/// The origin is inside the tetrahedron.
#[inline(always)]
fn inside(a: V, b: V, c: V, d: V) -> Face {
    Face::new(&[d, c, b, a], DVec3::ZERO, true)
}

/// Barycentric weights of `x` (a point of the simplex, as a projection returns it) over
/// the simplex's vertices, in storage order: ≥ 0 and summing to 1.
pub fn barycentric(simplex: &Simplex, x: DVec3) -> [f64; 4] {
    let mut v = [DVec3::ZERO; 4];
    v[..simplex.len()].copy_from_slice(&simplex.points());
    let mut w = [0.0; 4];
    match simplex.len() {
        0 => {}
        1 => w[0] = 1.0,
        2 => {
            let edge = v[1] - v[0];
            let length2 = edge.length_squared();
            let t = if length2 > 0.0 {
                (x - v[0]).dot(edge) / length2
            } else {
                0.0
            };
            w[0] = 1.0 - t;
            w[1] = t;
            normalise_weights(&mut w[..2]);
        }
        3 => {
            let t = triangle_weights(v[0], v[1], v[2], x);
            w[..3].copy_from_slice(&t);
        }
        _ => {
            let volume = |p: [DVec3; 4]| (p[1] - p[0]).dot((p[2] - p[0]).cross(p[3] - p[0]));
            let p = v;
            let total = volume(p);
            w = [0.25; 4];
            if total != 0.0 && total.is_finite() {
                for (i, wi) in w.iter_mut().enumerate() {
                    let mut q = p;
                    q[i] = x;
                    *wi = volume(q) / total;
                }
                normalise_weights(&mut w);
            }
        }
    }
    w
}

fn nearer(first: Face, second: Face) -> Face {
    if second.contains_origin && !first.contains_origin {
        return second;
    }
    if second.x.length_squared() < first.x.length_squared() {
        second
    } else {
        first
    }
}

/// Barycentric coordinates of `x` (a point of the triangle's plane) over `p0, p1, p2`,
/// as ratios of signed areas: `λ0 = n·((p1 − x) × (p2 − x)) / ‖n‖²`. On long thin
/// triangles (a needle's face in A ⊖ B) this keeps the error near round-off of the
/// areas, where the normal equations (a Gram determinant) would square the condition
/// number and misplace the witness points.
fn triangle_weights(p0: DVec3, p1: DVec3, p2: DVec3, x: DVec3) -> [f64; 3] {
    let n = (p1 - p0).cross(p2 - p0);
    let n2 = n.length_squared();
    let mut w = if n2 > 0.0 && n2.is_finite() {
        let (q0, q1, q2) = (p0 - x, p1 - x, p2 - x);
        [
            n.dot(q1.cross(q2)) / n2,
            n.dot(q2.cross(q0)) / n2,
            n.dot(q0.cross(q1)) / n2,
        ]
    } else {
        [1.0 / 3.0; 3]
    };
    normalise_weights(&mut w);
    w
}

/// Clamps round-off negatives to zero and rescales to sum 1.
fn normalise_weights(w: &mut [f64]) {
    for x in w.iter_mut() {
        if x.is_nan() || *x <= 0.0 {
            *x = 0.0;
        }
    }
    let sum: f64 = w.iter().sum();
    if sum > 0.0 && sum.is_finite() {
        for x in w.iter_mut() {
            *x /= sum;
        }
    } else {
        let n = w.len() as f64;
        for x in w.iter_mut() {
            *x = 1.0 / n;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(id: u32, x: f64, y: f64, z: f64) -> SimplexVertex {
        let w = DVec3::new(x, y, z);
        SimplexVertex {
            id,
            point: CsoPoint {
                w,
                a: w,
                b: DVec3::ZERO,
            },
        }
    }

    /// The exact "origin inside" test against signed volumes, on random tetrahedra in
    /// every vertex order (both orientations), away from the boundary where f64
    /// volumes decide.
    #[test]
    fn tetrahedron_contains_origin_matches_signed_volumes() {
        let mut seed = 7u64;
        let mut next = || {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            ((seed >> 11) as f64 / (1u64 << 53) as f64) * 2.0 - 1.0
        };
        let volume = |p: [DVec3; 4]| (p[1] - p[0]).dot((p[2] - p[0]).cross(p[3] - p[0]));
        let (mut inside, mut outside) = (0, 0);
        for _ in 0..4000 {
            let p: [DVec3; 4] = std::array::from_fn(|_| DVec3::new(next(), next(), next()));
            let total = volume(p);
            if total.abs() < 1e-3 {
                continue;
            }
            let parts: Vec<f64> = (0..4)
                .map(|i| {
                    let mut q = p;
                    q[i] = DVec3::ZERO;
                    volume(q) / total
                })
                .collect();
            if parts.iter().any(|t| t.abs() < 1e-9) {
                continue;
            }
            let expected = parts.iter().all(|t| *t > 0.0);
            for order in [[0, 1, 2, 3], [1, 0, 2, 3], [3, 1, 0, 2], [2, 3, 1, 0]] {
                let simplex =
                    Simplex::from_slice(&order.map(|i| v(i as u32, p[i].x, p[i].y, p[i].z)));
                assert_eq!(
                    tetrahedron_contains_origin(&simplex),
                    expected,
                    "{p:?} {order:?}"
                );
            }
            if expected {
                inside += 1;
            } else {
                outside += 1;
            }
        }
        assert!(
            inside > 50 && outside > 50,
            "{inside} inside, {outside} outside"
        );
    }

    /// On the boundary the exact test decides: the origin on a face, an edge or a vertex
    /// is inside (closed tetrahedron), a hair beyond a face is outside, and a flat
    /// tetrahedron whose plane holds the origin contains nothing. Every vertex order.
    #[test]
    fn tetrahedron_contains_origin_on_the_boundary() {
        let tiny = f64::EPSILON * 0.25;
        let cases: [([[f64; 3]; 4], bool); 6] = [
            // Face z = 0 through the origin (the origin inside that face).
            (
                [
                    [1.0, 0.0, 0.0],
                    [-1.0, 1.0, 0.0],
                    [-1.0, -1.0, 0.0],
                    [0.0, 0.0, 1.0],
                ],
                true,
            ),
            // The origin on edge [(-1,0,0), (1,0,0)].
            (
                [
                    [-1.0, 0.0, 0.0],
                    [1.0, 0.0, 0.0],
                    [0.0, 1.0, 0.0],
                    [0.0, 0.5, 1.0],
                ],
                true,
            ),
            // The origin a vertex.
            (
                [
                    [0.0, 0.0, 0.0],
                    [1.0, 0.0, 0.0],
                    [0.0, 1.0, 0.0],
                    [0.0, 0.0, 1.0],
                ],
                true,
            ),
            // The face z = tiny lies a hair above the origin: outside.
            (
                [
                    [1.0, 0.0, tiny],
                    [-1.0, 1.0, tiny],
                    [-1.0, -1.0, tiny],
                    [0.0, 0.0, 1.0],
                ],
                false,
            ),
            // The same hair below: inside.
            (
                [
                    [1.0, 0.0, -tiny],
                    [-1.0, 1.0, -tiny],
                    [-1.0, -1.0, -tiny],
                    [0.0, 0.0, 1.0],
                ],
                true,
            ),
            // Flat: all four in the plane z = 0, around the origin.
            (
                [
                    [1.0, 0.0, 0.0],
                    [-1.0, 1.0, 0.0],
                    [-1.0, -1.0, 0.0],
                    [0.5, 0.5, 0.0],
                ],
                false,
            ),
        ];
        for (points, expected) in cases {
            for order in [
                [0, 1, 2, 3],
                [1, 0, 2, 3],
                [3, 1, 0, 2],
                [2, 3, 1, 0],
                [3, 2, 1, 0],
            ] {
                let simplex = Simplex::from_slice(&order.map(|i| {
                    let [x, y, z] = points[i];
                    v(i as u32, x, y, z)
                }));
                assert_eq!(
                    tetrahedron_contains_origin(&simplex),
                    expected,
                    "{points:?} {order:?}"
                );
            }
        }
    }

    /// Brute force: the nearest point of the convex hull of up to 4 points, by sampling
    /// the closed form on every face subset.
    fn nearest_by_subsets(points: &[DVec3]) -> f64 {
        let mut best = f64::INFINITY;
        let n = points.len();
        for mask in 1u32..(1 << n) {
            let sub: Vec<DVec3> = (0..n)
                .filter(|i| mask & (1 << i) != 0)
                .map(|i| points[i])
                .collect();
            // Solve the affine least-squares problem on the subset, keep it if weights ≥ 0.
            let m = sub.len();
            if m == 1 {
                best = best.min(sub[0].length());
                continue;
            }
            let base = sub[0];
            let e: Vec<DVec3> = sub[1..].iter().map(|p| *p - base).collect();
            let k = e.len();
            let mut g = vec![vec![0.0; k]; k];
            let mut r = vec![0.0; k];
            for i in 0..k {
                for j in 0..k {
                    g[i][j] = e[i].dot(e[j]);
                }
                r[i] = -e[i].dot(base);
            }
            // Gaussian elimination.
            let mut ok = true;
            for col in 0..k {
                let piv = (col..k)
                    .max_by(|a, b| g[*a][col].abs().total_cmp(&g[*b][col].abs()))
                    .unwrap();
                if g[piv][col].abs() < 1e-14 {
                    ok = false;
                    break;
                }
                g.swap(col, piv);
                r.swap(col, piv);
                for row in 0..k {
                    if row != col {
                        let f = g[row][col] / g[col][col];
                        let pivot_row = g[col].clone();
                        for (target, p) in g[row].iter_mut().zip(&pivot_row) {
                            *target -= f * p;
                        }
                        r[row] -= f * r[col];
                    }
                }
            }
            if !ok {
                continue;
            }
            let lam: Vec<f64> = (0..k).map(|i| r[i] / g[i][i]).collect();
            let sum: f64 = lam.iter().sum();
            if lam.iter().all(|l| *l >= -1e-12) && sum <= 1.0 + 1e-12 {
                let mut x = base;
                for i in 0..k {
                    x += e[i] * lam[i];
                }
                best = best.min(x.length());
            }
        }
        best
    }

    #[test]
    fn projection_matches_subset_enumeration_on_gjk_simplices() {
        // Simplices exactly as GJK builds them: a plain GJK loop on random point clouds,
        // checking each projection against enumeration of all faces.
        let mut seed = 7u64;
        let mut rnd = || {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            ((seed >> 11) as f64 / (1u64 << 53) as f64) * 2.0 - 1.0
        };
        let mut checked = 0;
        for round in 0..600 {
            let rule = if round % 2 == 0 {
                TetrahedronRule::RegionTree
            } else {
                TetrahedronRule::NearestFace
            };
            let offset = DVec3::new(rnd(), rnd(), rnd()) * 1.5;
            let cloud: Vec<DVec3> = (0..20)
                .map(|_| DVec3::new(rnd(), rnd(), rnd()) + offset)
                .collect();
            let support = |d: DVec3| {
                cloud
                    .iter()
                    .copied()
                    .max_by(|a, b| a.dot(d).total_cmp(&b.dot(d)))
                    .unwrap()
            };
            let mut simplex = Simplex::new();
            let mut x = cloud[0];
            for id in 0..40 {
                let s = support(-x);
                if x.length_squared() - x.dot(s) <= 1e-12 {
                    break;
                }
                simplex.push(v(id, s.x, s.y, s.z));
                let points: Vec<DVec3> = simplex.vertices().iter().map(|v| v.point.w).collect();
                let proj = project_origin(&simplex, rule);
                let expected = nearest_by_subsets(&points);
                assert!(
                    (proj.x.length() - expected).abs() < 1e-9 * (1.0 + expected),
                    "got {} expected {expected}",
                    proj.x.length()
                );
                let weights = barycentric(&proj.simplex, proj.x);
                let w: f64 = weights[..proj.simplex.len()].iter().sum();
                assert!((w - 1.0).abs() < 1e-12);
                assert!(weights.iter().all(|w| *w >= 0.0));
                if proj.contains_origin {
                    break;
                }
                let recon: DVec3 = proj
                    .simplex
                    .vertices()
                    .iter()
                    .zip(weights)
                    .map(|(v, w)| v.point.w * w)
                    .sum();
                assert!((recon - proj.x).length() < 1e-9, "weights reproduce x");
                simplex = proj.simplex;
                x = proj.x;
                checked += 1;
            }
        }
        assert!(checked > 1000, "only {checked} projections checked");
    }

    #[test]
    fn degenerate_simplices_give_finite_answers() {
        let cases = [
            vec![v(1, 1.0, 0.0, 0.0), v(2, 1.0, 0.0, 0.0)],
            vec![
                v(1, 1.0, 0.0, 0.0),
                v(2, 2.0, 0.0, 0.0),
                v(3, 3.0, 0.0, 0.0),
            ],
            vec![
                v(1, 1.0, 1.0, 0.0),
                v(2, 1.0, -1.0, 0.0),
                v(3, 1.0, 0.0, 1.0),
                v(4, 1.0, 0.0, -1.0),
            ],
            vec![
                v(1, 1.0, 1.0, 0.0),
                v(2, 1.0, 1.0, 0.0),
                v(3, 1.0, 1.0, 0.0),
                v(4, 1.0, 1.0, 0.0),
            ],
        ];
        for (c, rule) in cases.iter().flat_map(|c| {
            [TetrahedronRule::RegionTree, TetrahedronRule::NearestFace].map(|r| (c.clone(), r))
        }) {
            let p = project_origin(&Simplex::from_slice(&c), rule);
            assert!(p.x.is_finite());
            let weights = barycentric(&p.simplex, p.x);
            assert!(weights.iter().all(|w| w.is_finite() && *w >= 0.0));
        }
    }

    #[test]
    fn tetrahedron_around_origin_contains_it() {
        // Stored as GJK stores it: the origin on the side of (c − b) × (d − b), where
        // d, c, b are the first three vertices (the region tree relies on it).
        let s = Simplex::from_slice(&[
            v(2, -1.0, -1.0, 1.0),
            v(1, 1.0, 1.0, 1.0),
            v(3, -1.0, 1.0, -1.0),
            v(4, 1.0, -1.0, -1.0),
        ]);
        for rule in [TetrahedronRule::RegionTree, TetrahedronRule::NearestFace] {
            assert!(project_origin(&s, rule).contains_origin);
        }
        let p = project_origin(&s, TetrahedronRule::RegionTree);
        assert!((barycentric(&p.simplex, p.x).iter().sum::<f64>() - 1.0).abs() < 1e-12);
    }
}
