//! Quickhull in 3-D with exact orientation tests (Shewchuk's adaptive predicates, the
//! `robust` crate). Every "is this point outside that face" decision is exact, so the
//! hull it returns is the convex hull of the input as floating-point numbers: no point
//! lies outside any face, whatever the shape's scale, aspect ratio or distance from the
//! origin. Floating-point distances are used only to choose which point to add next.
//!
//! Points exactly on a face plane count as inside, so coplanar neighbours form flat
//! edges (a cube's faces come out as two coplanar triangles each), never a fold.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use glam::DVec3;

use super::incremental::IncrementalHull;
pub use super::orientation::height;

/// A triangulated hull over input indices, faces counter-clockwise seen from outside.
#[derive(Clone, Debug, PartialEq)]
pub struct IndexedHull {
    pub triangles: Vec<[usize; 3]>,
}

/// A face's plane in floating point: only for choosing the farthest outside point.
#[derive(Clone, Copy)]
struct Plane {
    normal: DVec3,
    offset: f64,
}

impl Plane {
    fn of(points: &[DVec3], v: [usize; 3]) -> Self {
        let (a, b, c) = (points[v[0]], points[v[1]], points[v[2]]);
        let normal = (b - a).cross(c - a).normalize_or_zero();
        Self {
            normal,
            offset: normal.dot(a),
        }
    }
}

/// The convex hull of `points` (finite, distinct, not all coplanar). `None` when no four
/// of them span a volume exactly, or when the hull's structure breaks (a horizon that is
/// not one loop), which exact predicates should never allow; the caller then falls back.
pub fn exact_hull(points: &[DVec3]) -> Option<IndexedHull> {
    let seed = initial_tetrahedron(points)?;
    let mut hull = IncrementalHull::tetrahedron(points, seed);
    // Per face: its float plane and the input points strictly outside it (exactly).
    let mut planes: Vec<Plane> = hull.faces.iter().map(|f| Plane::of(points, f.v)).collect();
    let mut outside: Vec<Vec<usize>> = vec![Vec::new(); 4];
    let candidates: Vec<usize> = (0..points.len()).filter(|i| !seed.contains(i)).collect();
    assign_outside(points, &hull, &mut outside, &[0, 1, 2, 3], candidates);

    // One point per round: the farthest above the first face (by index) that is alive
    // and has outside points. Only new faces gain points, so a min-heap of the faces
    // that gained some, emptied lazily of dead ones, names that face without a pass
    // over all faces (which made 50 000 points on a sphere take 22 s).
    let mut pending: BinaryHeap<Reverse<usize>> = (0..4)
        .filter(|&f| !outside[f].is_empty())
        .map(Reverse)
        .collect();
    let mut rounds = 0;
    while let Some(Reverse(start)) = pending.pop() {
        if !hull.faces[start].alive || outside[start].is_empty() {
            continue;
        }
        rounds += 1;
        if rounds > points.len() {
            return None;
        }
        let apex = farthest(points, &planes[start], &outside[start]);
        let expansion = hull.add_point(points, start, apex)?;
        let mut orphans = Vec::new();
        for &f in &expansion.removed {
            orphans.append(&mut outside[f]);
        }
        orphans.retain(|&p| p != apex);
        for &f in &expansion.added {
            planes.push(Plane::of(points, hull.faces[f].v));
            outside.push(Vec::new());
        }
        assign_outside(points, &hull, &mut outside, &expansion.added, orphans);
        pending.extend(
            expansion
                .added
                .iter()
                .filter(|&&f| !outside[f].is_empty())
                .map(|&f| Reverse(f)),
        );
    }
    let triangles = hull.alive().map(|(_, f)| f.v).collect();
    Some(IndexedHull { triangles })
}

/// Four points spanning a volume: extremes along the widest axis, then the farthest from
/// their line, then from their plane (by floating point); the last choice is confirmed
/// exactly, scanning all points if the float choice was exactly coplanar.
fn initial_tetrahedron(points: &[DVec3]) -> Option<[usize; 4]> {
    if points.len() < 4 {
        return None;
    }
    let extent = |axis: usize| {
        let (lo, hi) = extremes_along(points, DVec3::AXES[axis]);
        (points[hi] - points[lo]).abs()[axis]
    };
    let widest = (0..3).max_by(|a, b| extent(*a).total_cmp(&extent(*b)))?;
    let (i0, i1) = extremes_along(points, DVec3::AXES[widest]);
    if i0 == i1 {
        return None;
    }
    let (p0, p1) = (points[i0], points[i1]);
    let axis = (p1 - p0).normalize_or_zero();
    let off_line = |p: DVec3| {
        let d = p - p0;
        (d - axis * d.dot(axis)).length_squared()
    };
    let i2 =
        (0..points.len()).max_by(|a, b| off_line(points[*a]).total_cmp(&off_line(points[*b])))?;
    let p2 = points[i2];
    let normal = (p1 - p0).cross(p2 - p0).normalize_or_zero();
    let off_plane = |p: DVec3| normal.dot(p - p0).abs();
    let i3 =
        (0..points.len()).max_by(|a, b| off_plane(points[*a]).total_cmp(&off_plane(points[*b])))?;
    if height(p0, p1, p2, points[i3]) != 0.0 {
        return Some([i0, i1, i2, i3]);
    }
    // Rounding chose badly (or p0, p1, p2 are collinear): any exact off-plane point will do.
    let i3 = (0..points.len()).find(|&i| height(p0, p1, p2, points[i]) != 0.0)?;
    Some([i0, i1, i2, i3])
}

/// The first indices of the smallest and largest `⟨p, dir⟩`.
fn extremes_along(points: &[DVec3], dir: DVec3) -> (usize, usize) {
    let (mut lo, mut hi) = (0, 0);
    for (i, p) in points.iter().enumerate() {
        if p.dot(dir) < points[lo].dot(dir) {
            lo = i;
        }
        if p.dot(dir) > points[hi].dot(dir) {
            hi = i;
        }
    }
    (lo, hi)
}

/// Gives each point to the first of `targets` it lies strictly outside of; points
/// outside none of them are inside the hull and are dropped.
fn assign_outside(
    points: &[DVec3],
    hull: &IncrementalHull,
    outside: &mut [Vec<usize>],
    targets: &[usize],
    candidates: Vec<usize>,
) {
    for p in candidates {
        if let Some(&f) = targets
            .iter()
            .find(|&&f| hull.faces[f].alive && hull.faces[f].height(points, points[p]) > 0.0)
        {
            outside[f].push(p);
        }
    }
}

fn farthest(points: &[DVec3], plane: &Plane, outside: &[usize]) -> usize {
    let distance = |p: usize| plane.normal.dot(points[p]) - plane.offset;
    let mut best = outside[0];
    for &p in &outside[1..] {
        if distance(p) > distance(best) {
            best = p;
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check_closed_and_containing(points: &[DVec3], hull: &IndexedHull) {
        let mut directed = std::collections::HashSet::new();
        for t in &hull.triangles {
            for i in 0..3 {
                assert!(directed.insert((t[i], t[(i + 1) % 3])), "edge used twice");
            }
        }
        for &(a, b) in &directed {
            assert!(directed.contains(&(b, a)), "open edge {a}-{b}");
        }
        for t in &hull.triangles {
            for p in points {
                assert!(height(points[t[0]], points[t[1]], points[t[2]], *p) <= 0.0);
            }
        }
    }

    #[test]
    fn cube_with_interior_and_face_points() {
        let mut points = Vec::new();
        for i in 0..27 {
            let c = |k: usize| ((i / 3usize.pow(k as u32)) % 3) as f64 * 0.5;
            points.push(DVec3::new(c(0), c(1), c(2)));
        }
        let hull = exact_hull(&points).unwrap();
        check_closed_and_containing(&points, &hull);
    }

    #[test]
    fn needle_box_keeps_all_eight_corners() {
        let points: Vec<DVec3> = (0..8)
            .map(|i| {
                DVec3::new(
                    if i & 1 == 0 { 0.0 } else { 100.0 },
                    if i & 2 == 0 { 0.0 } else { 0.01 },
                    if i & 4 == 0 { 0.0 } else { 0.01 },
                )
            })
            .collect();
        let hull = exact_hull(&points).unwrap();
        check_closed_and_containing(&points, &hull);
        let mut used: Vec<usize> = hull.triangles.iter().flatten().copied().collect();
        used.sort_unstable();
        used.dedup();
        assert_eq!(used.len(), 8);
        assert_eq!(hull.triangles.len(), 12);
    }

    #[test]
    fn coplanar_set_has_no_hull() {
        let points = [DVec3::ZERO, DVec3::X, DVec3::Y, DVec3::new(1.0, 1.0, 0.0)];
        assert!(exact_hull(&points).is_none());
    }
}
