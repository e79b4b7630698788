//! A shape's support set along a direction: the points of its surface within a band of
//! the support plane, as the feature a contact manifold is built from (a face, an edge,
//! a corner). A polytope's is the polygon of its vertices within the band; a box's the
//! same over its corners; a cylinder's cap is a disk (sampled as a regular polygon, as
//! Coal's contact patch samples curved shapes) and its side a segment; a capsule's side
//! a segment; a sphere's, or any curved surface's, one point. Coal builds its contact
//! patches from such support sets ("Contact patches", Coal 3.0's
//! `computeContactPatch`, Le Lidec et al., "Contact Models in Robotics: a Comparative
//! Analysis", 2024).

use std::sync::OnceLock;

use glam::DVec3;
use serde::Serialize;
use smallvec::SmallVec;

use crate::shape::{Shape, SupportMap};

/// A few points (a feature's corners, a clipped polygon) on the stack.
pub type Corners = SmallVec<[DVec3; 8]>;

/// A support set's polygon: a box's face or a hull's (three to four corners, most
/// often) on the stack; a sampled cap's on the heap. Small, since a manifold holds two
/// and is moved whole.
pub type FaceCorners = SmallVec<[DVec3; 4]>;

/// A support set, in the frame its points are given in: a point, a segment, or a
/// convex polygon (counter-clockwise seen from the direction it supports).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub enum SupportSet {
    Point(DVec3),
    Segment(DVec3, DVec3),
    Polygon(FaceCorners),
}

impl SupportSet {
    /// The set of these corners: a point, a segment, or a polygon (empty when none).
    pub fn from_corners(points: Vec<DVec3>) -> SupportSet {
        match points.len() {
            1 => SupportSet::Point(points[0]),
            2 => SupportSet::Segment(points[0], points[1]),
            _ => SupportSet::Polygon(points.into()),
        }
    }

    /// Its corners (one, two, or the polygon's).
    pub fn corners(&self) -> Vec<DVec3> {
        self.corners_in(&mut [DVec3::ZERO; 2]).to_vec()
    }

    /// Its corners as a slice, a point's or a segment's held in `spare` (no copy of a
    /// polygon).
    pub fn corners_in<'a>(&'a self, spare: &'a mut [DVec3; 2]) -> &'a [DVec3] {
        match self {
            SupportSet::Point(p) => {
                spare[0] = *p;
                &spare[..1]
            }
            SupportSet::Segment(a, b) => {
                *spare = [*a, *b];
                &spare[..]
            }
            SupportSet::Polygon(points) => points,
        }
    }

    /// How many corners it has.
    pub fn len(&self) -> usize {
        match self {
            SupportSet::Point(_) => 1,
            SupportSet::Segment(..) => 2,
            SupportSet::Polygon(points) => points.len(),
        }
    }

    /// Whether it has no corner (an empty polygon).
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// What a user calls it.
    pub fn word(&self) -> &'static str {
        match self {
            SupportSet::Point(_) => "a point",
            SupportSet::Segment(..) => "an edge",
            SupportSet::Polygon(_) => "a face",
        }
    }

    /// Its name without an article ("A's face").
    pub fn noun(&self) -> &'static str {
        match self {
            SupportSet::Point(_) => "point",
            SupportSet::Segment(..) => "edge",
            SupportSet::Polygon(_) => "face",
        }
    }

    /// The set moved by `f` (a change of frame).
    pub fn map(&self, f: impl Fn(DVec3) -> DVec3) -> SupportSet {
        match self {
            SupportSet::Point(p) => SupportSet::Point(f(*p)),
            SupportSet::Segment(a, b) => SupportSet::Segment(f(*a), f(*b)),
            SupportSet::Polygon(points) => {
                SupportSet::Polygon(points.iter().map(|p| f(*p)).collect())
            }
        }
    }

    /// Moves the set by `f`, in place (no new polygon, no copy of the set).
    pub fn move_by(&mut self, f: impl Fn(DVec3) -> DVec3) {
        match self {
            SupportSet::Point(p) => *p = f(*p),
            SupportSet::Segment(a, b) => (*a, *b) = (f(*a), f(*b)),
            SupportSet::Polygon(points) => points.iter_mut().for_each(|p| *p = f(*p)),
        }
    }

    /// Its area (0 below a polygon).
    pub fn area(&self, normal: DVec3) -> f64 {
        match self {
            SupportSet::Polygon(p) if p.len() >= 3 => {
                let mut twice = DVec3::ZERO;
                for i in 1..p.len() - 1 {
                    twice += (p[i] - p[0]).cross(p[i + 1] - p[0]);
                }
                0.5 * twice.dot(normal).abs()
            }
            _ => 0.0,
        }
    }
}

/// The support set of `shape` (its own frame) along the unit direction `n`: the points
/// of its surface within `band` of its support plane, curved boundaries sampled at
/// `samples` points. Kinds without a flat or straight feature (a sphere, an ellipsoid,
/// an implicit surface) give their support point alone.
pub fn support_set(shape: &Shape, n: DVec3, band: f64, samples: usize) -> SupportSet {
    match shape {
        Shape::Polytope(p) => of_points(p.vertices(), n, band),
        Shape::Cuboid(c) => cuboid(c.half_extents(), n, band),
        Shape::Cylinder(c) => cylinder(c.radius(), c.half_height(), n, band, samples),
        Shape::Cone(c) => cone(c.radius(), c.half_height(), n, band, samples),
        Shape::Capsule(c) => {
            // The segment's support set, pushed out by the radius along n.
            let (top, bottom) = (DVec3::Y * c.half_height(), -DVec3::Y * c.half_height());
            let push = n * c.radius();
            match of_points(&[top, bottom], n, band) {
                SupportSet::Segment(a, b) => SupportSet::Segment(a + push, b + push),
                other => other.map(|p| p + push),
            }
        }
        other => SupportSet::Point(other.local_support(n)),
    }
}

/// A cylinder's (axis y): its cap (a disk sampled as a regular polygon) when `n` is
/// within the band of the axis, its side's segment when `n` is within the band of
/// perpendicular, else its rim's support point.
fn cylinder(radius: f64, half_height: f64, n: DVec3, band: f64, samples: usize) -> SupportSet {
    let radial = DVec3::new(n.x, 0.0, n.z);
    let radial_length = radial.length();
    let cap_y = if n.y >= 0.0 {
        half_height
    } else {
        -half_height
    };
    // The rim's points drop below the support plane by up to 2 r |radial| across the cap.
    if 2.0 * radius * radial_length <= band {
        let mut points: FaceCorners = unit_circle(samples)
            .iter()
            .map(|&(cos, sin)| DVec3::new(radius * cos, cap_y, radius * sin))
            .collect();
        if n.y < 0.0 {
            points.reverse();
        }
        counter_clockwise(&mut points, n);
        return SupportSet::Polygon(points);
    }
    let out = if radial_length > 0.0 {
        radial / radial_length * radius
    } else {
        DVec3::ZERO
    };
    // The side's segment: both ends within the band when the axis is nearly flat to n.
    if 2.0 * half_height * n.y.abs() <= band {
        return SupportSet::Segment(out + DVec3::Y * half_height, out - DVec3::Y * half_height);
    }
    SupportSet::Point(out + DVec3::Y * cap_y)
}

/// A box's (half extents `h`): the corners within the band, as [`of_points`] gives them
/// (the same corners in the same order), found from which corners qualify rather than by
/// a hull: a corner, an edge, or a face (a box resting on another asks for this on
/// every manifold). Other selections (three corners, a flat box) go to [`of_points`].
fn cuboid(h: DVec3, n: DVec3, band: f64) -> SupportSet {
    let mut corners = [DVec3::ZERO; 8];
    for (k, corner) in corners.iter_mut().enumerate() {
        *corner = DVec3::new(
            if k & 1 == 0 { -h.x } else { h.x },
            if k & 2 == 0 { -h.y } else { h.y },
            if k & 4 == 0 { -h.z } else { h.z },
        );
    }
    if h.min_element() <= 0.0 {
        return of_points(&corners, n, band);
    }
    // Corner k's height n · c_k is (±n.x h.x) + (±n.y h.y) + (±n.z h.z), summed in the
    // dot product's order: the same number, from three products.
    let (px, py, pz) = (n.x * h.x, n.y * h.y, n.z * h.z);
    let signed = |k: usize, bit: usize, p: f64| if k & bit == 0 { -p } else { p };
    let heights: [f64; 8] =
        std::array::from_fn(|k| signed(k, 1, px) + signed(k, 2, py) + signed(k, 4, pz));
    let top = heights.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    // Which corners qualify, as bits (no branch or count carried from one to the next).
    let mask = (0..8).fold(0u32, |mask, k| {
        mask | (u32::from(heights[k] >= top - band) << k)
    });
    let count = mask.count_ones() as usize;
    let mut near = [0usize; 8];
    let mut bits = mask;
    for slot in near.iter_mut().take(count) {
        *slot = bits.trailing_zeros() as usize;
        bits &= bits - 1;
    }
    // Lexicographic order of the coordinates across n, as [`hull_across`] sorts.
    let (u, v) = n.any_orthonormal_pair();
    let key = |p: DVec3| (u.dot(p), v.dot(p));
    let before = |a: (f64, f64), b: (f64, f64)| a.0.total_cmp(&b.0).then(a.1.total_cmp(&b.1));
    match count {
        1 => SupportSet::Point(corners[near[0]]),
        2 => {
            let (p, q) = (corners[near[0]], corners[near[1]]);
            match before(key(p), key(q)) {
                std::cmp::Ordering::Less => SupportSet::Segment(p, q),
                std::cmp::Ordering::Greater => SupportSet::Segment(q, p),
                std::cmp::Ordering::Equal => of_points(&corners, n, band),
            }
        }
        4 => {
            // A face: the four corners differ in two bits (its free axes).
            let k0 = near[0];
            let spread = near[..4].iter().fold(0, |bits, &k| bits | (k ^ k0));
            if spread.count_ones() != 2 {
                return of_points(&corners, n, band);
            }
            let (low, high) = (spread & spread.wrapping_neg(), spread & (spread - 1));
            let base = k0 & !spread;
            let mut face = [
                corners[base],
                corners[base | low],
                corners[base | low | high],
                corners[base | high],
            ];
            let twice = (face[1] - face[0]).cross(face[2] - face[0]);
            if twice.dot(n) < 0.0 {
                face.reverse();
            }
            let keys = [key(face[0]), key(face[1]), key(face[2]), key(face[3])];
            if (0..4).any(|i| (i + 1..4).any(|j| keys[i] == keys[j])) {
                return of_points(&corners, n, band);
            }
            let mut first = 0;
            for i in 1..4 {
                if before(keys[i], keys[first]).is_lt() {
                    first = i;
                }
            }
            face.rotate_left(first);
            SupportSet::Polygon(FaceCorners::from_slice(&face))
        }
        _ => of_points(&corners, n, band),
    }
}

/// The (cos, sin) of `samples` (at least three) angles evenly round the circle from 0,
/// computed once per count up to 64 (a cap is sampled on every manifold).
fn unit_circle(samples: usize) -> std::borrow::Cow<'static, [(f64, f64)]> {
    const CACHED: usize = 64;
    static TABLES: [OnceLock<Vec<(f64, f64)>>; CACHED + 1] =
        [const { OnceLock::new() }; CACHED + 1];
    let samples = samples.max(3);
    let compute = || {
        (0..samples)
            .map(|k| {
                let t = std::f64::consts::TAU * k as f64 / samples as f64;
                (t.cos(), t.sin())
            })
            .collect::<Vec<_>>()
    };
    match TABLES.get(samples) {
        Some(table) => std::borrow::Cow::Borrowed(table.get_or_init(compute).as_slice()),
        None => std::borrow::Cow::Owned(compute()),
    }
}

/// A cone's (axis y, apex at +h, base disc at −h): its base (sampled as a regular
/// polygon) when `n` is within the band of −y, a line of its side (apex to rim) when
/// both ends lie within the band, else its support point.
fn cone(radius: f64, half_height: f64, n: DVec3, band: f64, samples: usize) -> SupportSet {
    let radial = DVec3::new(n.x, 0.0, n.z);
    let radial_length = radial.length();
    if n.y < 0.0 && 2.0 * radius * radial_length <= band {
        let mut points: FaceCorners = unit_circle(samples)
            .iter()
            .rev()
            .map(|&(cos, sin)| DVec3::new(radius * cos, -half_height, radius * sin))
            .collect();
        counter_clockwise(&mut points, n);
        return SupportSet::Polygon(points);
    }
    let apex = DVec3::Y * half_height;
    let rim = if radial_length > 0.0 {
        radial / radial_length * radius - DVec3::Y * half_height
    } else {
        -DVec3::Y * half_height
    };
    let (h_apex, h_rim) = (n.dot(apex), n.dot(rim));
    let top = h_apex.max(h_rim);
    if radial_length > 0.0 && top - h_apex <= band && top - h_rim <= band {
        return SupportSet::Segment(apex, rim);
    }
    SupportSet::Point(if h_apex >= h_rim { apex } else { rim })
}

/// The support set of a finite point set's hull along `n`: the points within `band`
/// of the highest, as a point, a segment (the two furthest apart) or their convex
/// polygon in the plane across `n`.
pub fn of_points(points: &[DVec3], n: DVec3, band: f64) -> SupportSet {
    let top = points
        .iter()
        .map(|p| n.dot(*p))
        .fold(f64::NEG_INFINITY, f64::max);
    // Filled in place (a collected SmallVec is built, then moved: a copy of its array).
    let mut near = Corners::new();
    for p in points {
        if n.dot(*p) >= top - band {
            near.push(*p);
        }
    }
    match near.len() {
        0 => SupportSet::Point(DVec3::ZERO),
        1 => SupportSet::Point(near[0]),
        _ => {
            let hull = hull_across(&near, n);
            match hull.len() {
                1 => SupportSet::Point(hull[0]),
                2 => SupportSet::Segment(hull[0], hull[1]),
                _ => SupportSet::Polygon(hull),
            }
        }
    }
}

/// A point with its coordinates across the support direction.
type Projected = (f64, f64, DVec3);

/// The convex hull of `points` seen along `n` (Andrew's monotone chain on their
/// coordinates across `n`), counter-clockwise about `n`; two points when they are on a
/// line.
fn hull_across(points: &[DVec3], n: DVec3) -> FaceCorners {
    let (u, v) = n.any_orthonormal_pair();
    if let [p, q] = points {
        // Two points (an edge, a capsule's segment): the same answer without the chain.
        // (The chain's order: sorted by `total_cmp`, equal projections merged by `==`.)
        let (pu, pv, qu, qv) = (u.dot(*p), v.dot(*p), u.dot(*q), v.dot(*q));
        let order = pu.total_cmp(&qu).then(pv.total_cmp(&qv));
        let (first, second) = if order.is_gt() { (*q, *p) } else { (*p, *q) };
        return if pu == qu && pv == qv {
            FaceCorners::from_slice(&[first])
        } else {
            FaceCorners::from_slice(&[first, second])
        };
    }
    if let [p, q, r] = points {
        // A triangle (most faces of a hull): the chain's answer from its two turns.
        let project = |p: &DVec3| (u.dot(*p), v.dot(*p), *p);
        if let Some(hull) = three_across([project(p), project(q), project(r)], n) {
            return hull;
        }
    }
    monotone_chain(points, n, (u, v))
}

/// [`monotone_chain`] on three points, when their projections are distinct: sorted as
/// the chain sorts them, p0 p1 p2, the chain's lower pass turns at p1 by
/// `cross(p0, p1, p2)` and its upper pass by `cross(p2, p1, p0)`; the same signs give
/// the same polygon. `None` (the chain decides) when two projections are equal or the
/// turns disagree by round-off.
fn three_across(mut t: [Projected; 3], n: DVec3) -> Option<FaceCorners> {
    let before = |a: &Projected, b: &Projected| a.0.total_cmp(&b.0).then(a.1.total_cmp(&b.1));
    // Sorted by insertion (stable, as the chain's sort).
    for i in 1..3 {
        let mut j = i;
        while j > 0 && before(&t[j - 1], &t[j]).is_gt() {
            t.swap(j - 1, j);
            j -= 1;
        }
    }
    let same = |a: &Projected, b: &Projected| a.0 == b.0 && a.1 == b.1;
    if same(&t[0], &t[1]) || same(&t[1], &t[2]) {
        return None;
    }
    let cross = |o: &Projected, a: &Projected, b: &Projected| {
        (a.0 - o.0) * (b.1 - o.1) - (a.1 - o.1) * (b.0 - o.0)
    };
    // As the chain tests them: a turn is kept unless it is `<= 0` (NaN keeps it).
    let kept = |turn: f64| turn > 0.0 || turn.is_nan();
    let lower_turn = kept(cross(&t[0], &t[1], &t[2]));
    let upper_turn = kept(cross(&t[2], &t[1], &t[0]));
    let mut hull = match (lower_turn, upper_turn) {
        (true, false) => FaceCorners::from_slice(&[t[0].2, t[1].2, t[2].2]),
        (false, true) => FaceCorners::from_slice(&[t[0].2, t[2].2, t[1].2]),
        // On one line: its two ends.
        (false, false) => return Some(FaceCorners::from_slice(&[t[0].2, t[2].2])),
        (true, true) => return None,
    };
    counter_clockwise(&mut hull, n);
    Some(hull)
}

/// [`hull_across`] by Andrew's monotone chain, for any number of points.
fn monotone_chain(points: &[DVec3], n: DVec3, (u, v): (DVec3, DVec3)) -> FaceCorners {
    let mut indexed: SmallVec<[Projected; 16]> = SmallVec::new();
    for p in points {
        indexed.push((u.dot(*p), v.dot(*p), *p));
    }
    indexed.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.total_cmp(&b.1)));
    indexed.dedup_by(|a, b| a.0 == b.0 && a.1 == b.1);
    if indexed.len() <= 2 {
        return indexed.iter().map(|p| p.2).collect();
    }
    let cross = |o: &Projected, a: &Projected, b: &Projected| {
        (a.0 - o.0) * (b.1 - o.1) - (a.1 - o.1) * (b.0 - o.0)
    };
    // The lower chain, then the upper one, in one buffer (each chain's last point is
    // the other's first, so it is dropped).
    let mut chain: SmallVec<[Projected; 16]> = SmallVec::new();
    for p in &indexed {
        while chain.len() >= 2 && cross(&chain[chain.len() - 2], &chain[chain.len() - 1], p) <= 0.0
        {
            chain.pop();
        }
        chain.push(*p);
    }
    chain.pop();
    let lower = chain.len();
    for p in indexed.iter().rev() {
        while chain.len() >= lower + 2
            && cross(&chain[chain.len() - 2], &chain[chain.len() - 1], p) <= 0.0
        {
            chain.pop();
        }
        chain.push(*p);
    }
    chain.pop();
    if chain.len() < 3 {
        // Collinear: the two ends.
        let first = indexed[0].2;
        let last = indexed[indexed.len() - 1].2;
        return FaceCorners::from_slice(&[first, last]);
    }
    // (u, v, n) is right-handed, so counter-clockwise in (u, v) is about n.
    let mut hull = FaceCorners::new();
    for p in &chain {
        hull.push(p.2);
    }
    counter_clockwise(&mut hull, n);
    hull
}

/// `polygon` ordered counter-clockwise about `n`.
fn counter_clockwise(polygon: &mut FaceCorners, n: DVec3) {
    let mut twice = DVec3::ZERO;
    for i in 1..polygon.len().saturating_sub(1) {
        twice += (polygon[i] - polygon[0]).cross(polygon[i + 1] - polygon[0]);
    }
    if twice.dot(n) < 0.0 {
        polygon.reverse();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Two points across a direction: the shortcut gives the chain's own answer (its
    /// order, and one point where their projections coincide).
    #[test]
    fn two_points_across_a_direction_as_the_chain_orders_them() {
        let mut rng = crate::rng::SplitMix64::new(5);
        for k in 0..2000 {
            let n = rng.unit_vector();
            let p = rng.vector(1.0);
            let q = match k % 4 {
                0 => p + n * rng.range(-1.0, 1.0),
                1 => p,
                _ => rng.vector(1.0),
            };
            let pair = [p, q];
            let chain = monotone_chain(&pair, n, n.any_orthonormal_pair());
            assert_eq!(hull_across(&pair, n), chain, "{p} {q} along {n}");
        }
    }

    /// Three points across a direction: the shortcut gives the chain's own answer
    /// (triangles either way round, points on one line, repeated points).
    #[test]
    fn three_points_across_a_direction_as_the_chain_orders_them() {
        let mut rng = crate::rng::SplitMix64::new(6);
        for k in 0..4000 {
            let n = rng.unit_vector();
            let (p, q) = (rng.vector(1.0), rng.vector(1.0));
            let r = match k % 6 {
                0 => p + (q - p) * rng.range(-2.0, 2.0),
                1 => q,
                2 => p + n * rng.range(-1.0, 1.0),
                _ => rng.vector(1.0),
            };
            let three = [p, q, r];
            // Points so large that the turns' products overflow (inf − inf: NaN).
            let three = if k % 6 == 3 {
                three.map(|x| x * 1e300)
            } else {
                three
            };
            let chain = monotone_chain(&three, n, n.any_orthonormal_pair());
            assert_eq!(hull_across(&three, n), chain, "{p} {q} {r} along {n}");
        }
    }
    use crate::shape::{Capsule, Cuboid, Cylinder, Sphere};

    #[test]
    fn a_box_gives_a_face_an_edge_or_a_corner() {
        let b = Shape::Cuboid(Cuboid::new(DVec3::new(1.0, 2.0, 3.0)).unwrap());
        let face = support_set(&b, DVec3::Z, 1e-9, 8);
        assert!(matches!(&face, SupportSet::Polygon(p) if p.len() == 4));
        assert!((face.area(DVec3::Z) - 8.0).abs() < 1e-12);
        let edge = support_set(&b, DVec3::new(1.0, 0.0, 1.0).normalize(), 1e-9, 8);
        assert!(matches!(edge, SupportSet::Segment(a, b) if (a - b).length() == 4.0));
        let corner = support_set(&b, DVec3::ONE.normalize(), 1e-9, 8);
        assert_eq!(corner, SupportSet::Point(DVec3::new(1.0, 2.0, 3.0)));
        // Tilted by less than the band, still the face.
        let tilted = DVec3::new(1e-5, 0.0, 1.0).normalize();
        assert!(matches!(
            support_set(&b, tilted, 1e-3, 8),
            SupportSet::Polygon(_)
        ));
    }

    #[test]
    fn a_box_gives_the_corners_of_points_in_the_same_order() {
        let mut rng = crate::rng::SplitMix64::new(5);
        let h = DVec3::new(0.5, 1.0, 2.0);
        let corners: Vec<DVec3> = (0..8)
            .map(|k| {
                DVec3::new(
                    if k & 1 == 0 { -h.x } else { h.x },
                    if k & 2 == 0 { -h.y } else { h.y },
                    if k & 4 == 0 { -h.z } else { h.z },
                )
            })
            .collect();
        let mut kinds = [0; 3];
        for trial in 0..3000 {
            // Directions near faces, edges and corners, tilted by up to the band and more.
            let base = match trial % 3 {
                0 => DVec3::AXES[rng.index(3)] * if rng.range(0.0, 1.0) < 0.5 { -1.0 } else { 1.0 },
                1 => (DVec3::AXES[rng.index(3)] + DVec3::AXES[rng.index(3)]).normalize_or(DVec3::X),
                _ => rng.unit_vector(),
            };
            let tilt = 10f64.powf(rng.range(-9.0, -1.0));
            let n = (base + rng.unit_vector() * tilt).normalize();
            let band = 10f64.powf(rng.range(-9.0, -2.0));
            let ours = cuboid(h, n, band);
            kinds[ours.len().min(3) - 1] += 1;
            assert_eq!(ours, of_points(&corners, n, band), "n {n:?} band {band}");
        }
        assert!(kinds.iter().all(|&k| k > 100), "{kinds:?}");
    }

    #[test]
    fn round_shapes_give_caps_sides_and_points() {
        let cylinder = Shape::Cylinder(Cylinder::new(0.5, 1.0).unwrap());
        let cap = support_set(&cylinder, -DVec3::Y, 1e-9, 12);
        let SupportSet::Polygon(points) = &cap else {
            panic!("{cap:?}")
        };
        assert_eq!(points.len(), 12);
        assert!(points
            .iter()
            .all(|p| p.y == -1.0 && (p.length_squared() - 1.25).abs() < 1e-12));
        assert!(cap.area(-DVec3::Y) > 0.0);
        let side = support_set(&cylinder, DVec3::X, 1e-9, 12);
        assert_eq!(
            side,
            SupportSet::Segment(DVec3::new(0.5, 1.0, 0.0), DVec3::new(0.5, -1.0, 0.0))
        );
        let capsule = Shape::Capsule(Capsule::new(0.25, 1.0).unwrap());
        let lying = support_set(&capsule, -DVec3::Z, 1e-9, 12);
        assert_eq!(
            lying,
            SupportSet::Segment(DVec3::new(0.0, 1.0, -0.25), DVec3::new(0.0, -1.0, -0.25))
        );
        let ball = Shape::Sphere(Sphere::new(2.0).unwrap());
        assert_eq!(
            support_set(&ball, DVec3::X, 1e-3, 12),
            SupportSet::Point(DVec3::new(2.0, 0.0, 0.0))
        );
    }
}
