//! Coal's contact patch as Coal 3.0 builds it (`ContactPatchSolver::computePatch` in
//! `include/coal/contact_patch/contact_patch_solver.hxx`, the support sets of
//! `src/narrowphase/support_functions.cpp`), with `ContactPatchRequest`'s defaults: one
//! patch, 12 samples of a curved rim, a patch tolerance of 1e-3 (absolute).
//!
//! The patch lives in the plane through the contact's midpoint `pos` with the normal as
//! its z axis (`constructOrthonormalBasisFromVector`). Each shape's support set is the
//! points within the tolerance of its support plane (a box's corners, a convex's
//! vertices, a triangle's corners, a capsule's two rim points, a cylinder's or cone's
//! sampled cap), projected into that plane; a box's and a convex's are put in
//! counter-clockwise order by a Graham scan, the others are kept in the order Coal adds
//! them. The set with more points clips the other (Sutherland–Hodgman in the plane, with
//! Coal's tests and its tolerance 1e-12 on the determinants). Every patch point has
//! the contact's depth: its point on A is half the depth behind the plane, on B half in
//! front. A strictly convex shape (sphere, ellipsoid) or a set of one point gives `pos`
//! alone.
//!
//! What Coal 3.0.3 does that a reader may not expect, kept here so the patch is Coal's:
//! two segments (capsule on capsule, cylinder side on side) compare their cross product
//! with `>=` where a difference was meant, so parallel segments give `pos` alone; a
//! cylinder's sampled cap, a triangle and a capsule's pair are not reordered, so a cap
//! seen from below clips as a clockwise polygon.

use glam::{DVec2, DVec3};

use super::clip::ClipStage;
use super::support_set::SupportSet;
use super::{
    certified_normal, certify, pair_size, CertifiedNormal, ContactPoint, ContactRule,
    ContactSettings, Manifold, OwnFeatures, Reference,
};
use crate::pose::RelativePose;
use crate::shape::Shape;
use crate::solver::outcome::Outcome;
use crate::solver::settings::EpaSettings;

/// `ContactPatchRequest`'s default patch tolerance (absolute, in the scene's units).
pub const COAL_PATCH_TOLERANCE: f64 = 1e-3;
/// `ContactPatchRequest`'s default samples of a curved rim (`default_preallocated_size`).
pub const COAL_CURVE_SAMPLES: usize = 12;
/// Eigen's `dummy_precision` for doubles: Coal's threshold on determinants.
const DUMMY_PRECISION: f64 = 1e-12;

/// The patch frame: `pos` and Coal's basis with the normal as z.
#[derive(Clone, Copy, Debug)]
struct PatchFrame {
    origin: DVec3,
    x: DVec3,
    y: DVec3,
}

impl PatchFrame {
    /// `constructOrthonormalBasisFromVector` (coal/math/transform.h): y is minus Eigen's
    /// `unitOrthogonal` of the normal, x is y × normal.
    fn new(origin: DVec3, normal: DVec3) -> Self {
        let n = normal.normalize();
        let much_smaller = |a: f64, b: f64| a.abs() <= b.abs() * DUMMY_PRECISION;
        let orthogonal = if !much_smaller(n.x, n.z) || !much_smaller(n.y, n.z) {
            let inverse = 1.0 / n.x.hypot(n.y);
            DVec3::new(-n.y * inverse, n.x * inverse, 0.0)
        } else {
            let inverse = 1.0 / n.y.hypot(n.z);
            DVec3::new(0.0, -n.z * inverse, n.y * inverse)
        };
        let y = -orthogonal;
        let x = y.cross(normal);
        PatchFrame { origin, x, y }
    }

    fn flat(&self, p: DVec3) -> DVec2 {
        let d = p - self.origin;
        DVec2::new(self.x.dot(d), self.y.dot(d))
    }

    fn lift(&self, q: DVec2) -> DVec3 {
        self.origin + self.x * q.x + self.y * q.y
    }
}

/// A shape's support set as Coal computes it.
enum CoalSet {
    /// Sphere, ellipsoid, point: `IsStrictlyConvex`, the patch is `pos`.
    StrictlyConvex,
    /// The points (our frame of the shape) and whether Coal puts them in hull order.
    Points { points: Vec<DVec3>, hull: bool },
    /// A kind Coal has no contact patch for.
    Unsupported(&'static str),
}

/// Coal's local frame of a capsule, cylinder or cone stands along z where ours stands
/// along y: Coal's (x, y, z) is our (x, −z, y) (as the Coal export turns them).
fn to_coal(d: DVec3) -> DVec3 {
    DVec3::new(d.x, -d.z, d.y)
}

fn from_coal(c: DVec3) -> DVec3 {
    DVec3::new(c.x, c.z, -c.y)
}

/// Coal's support set of `shape` along the unit `dir` (the shape's frame).
fn coal_set(shape: &Shape, dir: DVec3, tol: f64, samples: usize) -> CoalSet {
    match shape {
        Shape::Point(_) | Shape::Sphere(_) | Shape::Ellipsoid(_) => CoalSet::StrictlyConvex,
        Shape::Dilated(d) => coal_set(d.inner(), dir, tol, samples),
        Shape::Cuboid(c) => {
            let h = c.half_extents();
            let value = h.x * dir.x.abs() + h.y * dir.y.abs() + h.z * dir.z.abs();
            let corners = [
                DVec3::new(h.x, h.y, h.z),
                DVec3::new(-h.x, h.y, h.z),
                DVec3::new(-h.x, -h.y, h.z),
                DVec3::new(h.x, -h.y, h.z),
                DVec3::new(h.x, h.y, -h.z),
                DVec3::new(-h.x, h.y, -h.z),
                DVec3::new(-h.x, -h.y, -h.z),
                DVec3::new(h.x, -h.y, -h.z),
            ];
            let points = corners
                .into_iter()
                .filter(|c| value - c.dot(dir) < tol)
                .collect();
            CoalSet::Points { points, hull: true }
        }
        Shape::Polytope(p) if p.vertices().len() == 3 => {
            let v = p.vertices();
            let value = v.iter().map(|q| q.dot(dir)).fold(f64::MIN, f64::max);
            let points = v
                .iter()
                .copied()
                .filter(|q| value - q.dot(dir) < tol)
                .collect();
            CoalSet::Points {
                points,
                hull: false,
            }
        }
        Shape::Polytope(p) => {
            let v = p.vertices();
            let value = v.iter().map(|q| q.dot(dir)).fold(f64::MIN, f64::max);
            let points = v
                .iter()
                .copied()
                .filter(|q| value - q.dot(dir) <= tol)
                .collect();
            CoalSet::Points { points, hull: true }
        }
        Shape::Capsule(c) => {
            let (h, r) = (c.half_height(), c.radius());
            let d = to_coal(dir);
            let value = h * d.z.abs() + r;
            let p1 = DVec3::new(r * d.x, r * d.y, h);
            let p2 = DVec3::new(r * d.x, r * d.y, -h);
            let points = if value - d.dot(p1) <= tol && value - d.dot(p2) <= tol {
                vec![from_coal(p1), from_coal(p2)]
            } else {
                let segment_end = DVec3::new(0.0, 0.0, if d.z > 0.0 { h } else { -h });
                vec![from_coal(segment_end + d * r)]
            };
            CoalSet::Points {
                points,
                hull: false,
            }
        }
        Shape::Cylinder(c) => {
            let (h, r) = (c.half_height(), c.radius());
            let d = to_coal(dir);
            let value = r * d.x.hypot(d.y) + h * d.z.abs();
            let z = if d.z <= 0.0 { -h } else { h };
            let p1 = DVec3::new(r * d.x, r * d.y, z);
            let p2 = DVec3::new(-r * d.x, -r * d.y, z);
            let points = if value - d.dot(p1) <= tol && value - d.dot(p2) <= tol {
                sampled_rim(r, z, samples)
            } else {
                [-h, h]
                    .into_iter()
                    .map(|z| DVec3::new(r * d.x, r * d.y, z))
                    .filter(|p| value - d.dot(*p) <= tol)
                    .collect()
            };
            CoalSet::Points {
                points: points.into_iter().map(from_coal).collect(),
                hull: false,
            }
        }
        Shape::Cone(c) => {
            let (h, r) = (c.half_height(), c.radius());
            let d = to_coal(dir);
            let value = (h * d.z).max(-h * d.z + r * d.x.hypot(d.y));
            let p1 = DVec3::new(r * d.x, r * d.y, -h);
            let p2 = DVec3::new(-r * d.x, -r * d.y, -h);
            let points = if value - d.dot(p1) <= tol && value - d.dot(p2) <= tol {
                sampled_rim(r, -h, samples)
            } else {
                [DVec3::new(0.0, 0.0, h), DVec3::new(r * d.x, r * d.y, -h)]
                    .into_iter()
                    .filter(|p| value - d.dot(*p) <= tol)
                    .collect()
            };
            CoalSet::Points {
                points: points.into_iter().map(from_coal).collect(),
                hull: false,
            }
        }
        Shape::Superellipsoid(_) => CoalSet::Unsupported("a superellipsoid"),
        Shape::Implicit(_) => CoalSet::Unsupported("an implicit surface"),
        Shape::Union(_) => CoalSet::Unsupported("the hull of several shapes"),
        Shape::Coal(_) => CoalSet::Unsupported("a support-only Coal primitive"),
    }
}

/// `samples` points of a circle of radius `r` at height `z` (Coal's frame), from the
/// x axis counter-clockwise about z.
fn sampled_rim(r: f64, z: f64, samples: usize) -> Vec<DVec3> {
    let step = 2.0 * std::f64::consts::PI / samples as f64;
    (0..samples)
        .map(|i| {
            let theta = i as f64 * step;
            DVec3::new(r * theta.cos(), r * theta.sin(), z)
        })
        .collect()
}

fn cross(a: DVec2, b: DVec2) -> f64 {
    a.x * b.y - a.y * b.x
}

/// `computeSupportSetConvexHull`: a triangle put counter-clockwise, more points by
/// Graham's scan from the lowest y (Coal's comparator, a stable insertion sort).
fn coal_hull(mut cloud: Vec<DVec2>) -> Vec<DVec2> {
    if cloud.len() <= 2 {
        return cloud;
    }
    if cloud.len() == 3 {
        if cloud[0].y > cloud[1].y {
            cloud.swap(0, 1);
        }
        if cloud[0].y > cloud[2].y {
            cloud.swap(0, 2);
        }
        if cross(cloud[1] - cloud[0], cloud[2] - cloud[0]) < 0.0 {
            cloud.swap(1, 2);
        }
        return cloud;
    }
    let mut lowest = 0;
    for i in 1..cloud.len() {
        if cloud[i].y < cloud[lowest].y {
            lowest = i;
        }
    }
    cloud.swap(0, lowest);
    let v = cloud[0];
    let before = |p1: DVec2, p2: DVec2| {
        let det = cross(p1 - v, p2 - v);
        if det.abs() <= DUMMY_PRECISION {
            (p1 - v).length_squared() <= (p2 - v).length_squared()
        } else {
            det > 0.0
        }
    };
    for i in 2..cloud.len() {
        let mut j = i;
        while j > 1 && before(cloud[j], cloud[j - 1]) && !before(cloud[j - 1], cloud[j]) {
            cloud.swap(j, j - 1);
            j -= 1;
        }
    }
    let mut hull = vec![v];
    let mut next = 1;
    while hull.len() < 3 && next < cloud.len() {
        if (hull[hull.len() - 1] - cloud[next]).length_squared() > f64::EPSILON {
            hull.push(cloud[next]);
        }
        next += 1;
    }
    let right_sided = |p1: DVec2, p2: DVec2, p3: DVec2| cross(p2 - p1, p3 - p1) > DUMMY_PRECISION;
    for &p in &cloud[next..] {
        while hull.len() > 1 && !right_sided(hull[hull.len() - 2], hull[hull.len() - 1], p) {
            hull.pop();
        }
        hull.push(p);
    }
    hull
}

/// `computeLineSegmentIntersection`: the point of segment [c, d] on the line (a, b).
fn line_segment_intersection(a: DVec2, b: DVec2, c: DVec2, d: DVec2) -> DVec2 {
    let ab = b - a;
    let n = DVec2::new(-ab.y, ab.x);
    let denominator = n.dot(c - d);
    if denominator.abs() < f64::EPSILON {
        return d;
    }
    let alpha = (n.dot(a - d) / denominator).clamp(0.0, 1.0);
    c * alpha + d * (1.0 - alpha)
}

/// One clipper edge's pass over the current polygon, as Coal's main loop runs it;
/// `true` when the loop stops after it (no intersection, one point left).
fn clip_pass(previous: &[DVec2], a: DVec2, b: DVec2, current: &mut Vec<DVec2>) -> bool {
    current.clear();
    let ab = b - a;
    if previous.len() == 2 {
        let (p1, p2) = (previous[0], previous[1]);
        let det1 = cross(ab, p1 - a);
        let det2 = cross(ab, p2 - a);
        if det1 < 0.0 && det2 < 0.0 {
            return true;
        }
        if det1 >= 0.0 && det2 >= 0.0 {
            current.extend_from_slice(previous);
            return false;
        }
        let (inside, inside_det) = if det1 >= 0.0 { (p1, det1) } else { (p2, det2) };
        if inside_det > DUMMY_PRECISION {
            current.push(inside);
            current.push(line_segment_intersection(a, b, p1, p2));
            return false;
        }
        current.push(inside);
        return true;
    }
    let mut added = vec![false; previous.len()];
    for j in 0..previous.len() {
        let next = (j + 1) % previous.len();
        let (p1, p2) = (previous[j], previous[next]);
        let det1 = cross(ab, p1 - a);
        let det2 = cross(ab, p2 - a);
        if det1 < 0.0 && det2 < 0.0 {
            continue;
        }
        if det1 >= 0.0 && det2 >= 0.0 {
            if !added[j] {
                current.push(p1);
                added[j] = true;
            }
            continue;
        }
        if det1 >= 0.0 {
            if !added[j] {
                current.push(p1);
                added[j] = true;
            }
            if det1 > DUMMY_PRECISION {
                current.push(line_segment_intersection(a, b, p1, p2));
            }
        } else if det2 > DUMMY_PRECISION {
            current.push(line_segment_intersection(a, b, p1, p2));
        } else if !added[next] {
            current.push(p2);
            added[next] = true;
        }
    }
    current.len() <= 1
}

/// Two segments (Coal's segment–segment case): `None` when Coal returns `pos` alone.
fn segment_pair(first: &[DVec2], second: &[DVec2]) -> Option<Vec<DVec2>> {
    let (a, b) = (first[0], first[1]);
    let (c, d) = (second[0], second[1]);
    // Coal 3.0.3 compares where it means to subtract: `det` is the boolean
    // `(b−a).x (d−c).y >= (b−a).y (d−c).x`, so it is 1 whenever the cross product is not
    // negative (parallel segments included).
    let det = if (b.x - a.x) * (d.y - c.y) >= (b.y - a.y) * (d.x - c.x) {
        1.0_f64
    } else {
        0.0
    };
    if det.abs() > DUMMY_PRECISION
        || (c - d).length_squared() < DUMMY_PRECISION
        || (b - a).length_squared() < DUMMY_PRECISION
    {
        return None;
    }
    let cd = d - c;
    let l = cd.length_squared();
    let project = |p: DVec2| {
        let t = (p - c).dot(cd);
        let t = if t >= l {
            1.0
        } else if t <= 0.0 {
            0.0
        } else {
            t / l
        };
        c + cd * t
    };
    let p1 = project(a);
    let p2 = project(b);
    let mut patch = vec![p1];
    if (p1 - p2).length_squared() >= DUMMY_PRECISION {
        patch.push(p2);
    }
    Some(patch)
}

/// Coal's contact patch of A (at the identity) and B at `b_in_a`, from the certified
/// normal; `Err` with the outcome when the shapes are apart by more than the margin.
pub fn coal_patch(
    a: &Shape,
    b: &Shape,
    b_in_a: RelativePose,
    epa: EpaSettings,
    contact: ContactSettings,
) -> Result<Manifold, Outcome> {
    let certified = certified_normal(a, b, b_in_a, epa, contact)?;
    let (on_a, on_b) = certified.pair(a, b, b_in_a, epa);
    let CertifiedNormal {
        outcome,
        normal,
        depth: certified_depth,
        ..
    } = certified;
    // Coal's signed distance (negative on overlap) and its contact point.
    let signed = -normal.dot(on_a - on_b);
    let frame = PatchFrame::new((on_a + on_b) * 0.5, normal);
    let set_a = coal_set(a, normal, COAL_PATCH_TOLERANCE, COAL_CURVE_SAMPLES);
    let set_b = coal_set(
        b,
        b_in_a.inverse_rotate(-normal),
        COAL_PATCH_TOLERANCE,
        COAL_CURVE_SAMPLES,
    );
    let mut notes = Vec::new();
    let flat_of = |set: &CoalSet, to_a: &dyn Fn(DVec3) -> DVec3| match set {
        CoalSet::Points { points, hull } => {
            let flat: Vec<DVec2> = points.iter().map(|p| frame.flat(to_a(*p))).collect();
            if *hull {
                coal_hull(flat)
            } else {
                flat
            }
        }
        _ => Vec::new(),
    };
    let flat_a = flat_of(&set_a, &|p| p);
    let flat_b = flat_of(&set_b, &|p| b_in_a.transform_point(p));
    for (set, name) in [(&set_a, "A"), (&set_b, "B")] {
        match set {
            CoalSet::StrictlyConvex => notes.push(format!(
                "{name} is strictly convex: Coal's patch is the contact point alone"
            )),
            CoalSet::Unsupported(kind) => notes.push(format!(
                "{name} is {kind}: Coal has no support set for it (computePatch refuses \
                 the pair); shown as the contact point alone"
            )),
            CoalSet::Points { .. } => {}
        }
    }
    let lift_all = |flat: &[DVec2]| flat.iter().map(|q| frame.lift(*q)).collect::<Vec<_>>();
    let mut clipping = Vec::new();
    let mut reference = Reference::None;
    let patch: Option<Vec<DVec2>> = if flat_a.len() <= 1 || flat_b.len() <= 1 {
        None
    } else if flat_a.len() == 2 && flat_b.len() == 2 {
        let patch = segment_pair(&flat_a, &flat_b);
        if patch.is_none() {
            notes.push(
                "two segments: Coal 3.0.3's segment–segment test reads a comparison as a \
                 determinant, so when the cross product is not negative (parallel segments \
                 too) the patch is the contact point alone"
                    .to_string(),
            );
        }
        patch
    } else {
        // The set with more points clips the other (A's on a tie).
        let (clipper, mut current) = if flat_a.len() < flat_b.len() {
            reference = Reference::B;
            (flat_b.clone(), flat_a.clone())
        } else {
            reference = Reference::A;
            (flat_a.clone(), flat_b.clone())
        };
        let mut next = Vec::new();
        for i in 0..clipper.len() {
            let (ca, cb) = (clipper[i], clipper[(i + 1) % clipper.len()]);
            let stop = clip_pass(&current, ca, cb, &mut next);
            std::mem::swap(&mut current, &mut next);
            let edge = cb - ca;
            let outward = frame.x * edge.y - frame.y * edge.x;
            clipping.push(ClipStage {
                point: frame.lift(ca),
                normal: outward.normalize_or_zero(),
                after: lift_all(&current),
            });
            if stop {
                break;
            }
        }
        (current.len() > 1).then_some(current)
    };
    let points_3d: Vec<DVec3> = match &patch {
        Some(p) => lift_all(p),
        None => vec![frame.origin],
    };
    let candidates: Vec<ContactPoint> = points_3d
        .iter()
        .map(|&p| ContactPoint {
            on_a: p - normal * (signed / 2.0),
            on_b: p + normal * (signed / 2.0),
            depth: -signed,
        })
        .collect();
    let kept: Vec<usize> = (0..candidates.len()).collect();
    let mut manifold = Manifold {
        rule: ContactRule::CoalPatch,
        normal,
        certified_normal: normal,
        checked_along: normal,
        outcome,
        feature_a: SupportSet::from_corners(lift_all(&flat_a)),
        feature_b: SupportSet::from_corners(lift_all(&flat_b)),
        reference,
        clipping,
        points: candidates.clone(),
        candidates,
        kept,
        beyond_margin: Vec::new(),
        reduced_away: Vec::new(),
        checks: Vec::new(),
        uncertified: None,
        notes,
    };
    let size = pair_size(a, b, b_in_a);
    certify(
        &mut manifold,
        (a, b),
        b_in_a,
        (certified_depth, size),
        OwnFeatures::No,
        contact,
    );
    Ok(manifold)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn coal_hull_orders_a_square_counter_clockwise_from_the_lowest_point() {
        let cloud = vec![
            DVec2::new(1.0, 1.0),
            DVec2::new(-1.0, -1.0),
            DVec2::new(-1.0, 1.0),
            DVec2::new(1.0, -1.0),
            DVec2::new(0.0, 0.0),
        ];
        let hull = coal_hull(cloud);
        assert_eq!(hull.len(), 4, "{hull:?}");
        for i in 0..4 {
            let (p, q, r) = (hull[i], hull[(i + 1) % 4], hull[(i + 2) % 4]);
            assert!(cross(q - p, r - q) > 0.0);
        }
    }

    #[test]
    fn the_basis_is_right_handed_with_the_normal_as_z() {
        for n in [
            DVec3::Z,
            DVec3::X,
            -DVec3::Y,
            DVec3::new(0.3, -0.4, 0.866).normalize(),
        ] {
            let f = PatchFrame::new(DVec3::ZERO, n);
            assert!((f.x.cross(f.y) - n).length() < 1e-12, "{n}");
            assert!(f.x.dot(n).abs() < 1e-12 && (f.x.length() - 1.0).abs() < 1e-12);
        }
    }
}
