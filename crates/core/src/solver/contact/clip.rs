//! Clipping an incident feature against a reference face's side planes (Sutherland and
//! Hodgman, "Reentrant Polygon Clipping", 1974), each plane's result kept so that the
//! polygon can be shown as it is cut.

use glam::DVec3;
use serde::Serialize;
use smallvec::SmallVec;

use super::support_set::Corners;

/// A reference face's side planes: (a point, the outward unit normal).
pub type SidePlanes = SmallVec<[(DVec3, DVec3); 8]>;

/// One side plane of the reference face and what was left of the incident feature
/// after it: the plane through `point` with outward `normal` (points with
/// `normal · (x − point) > 0` are cut away).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ClipStage {
    pub point: DVec3,
    pub normal: DVec3,
    pub after: Vec<DVec3>,
}

/// The side planes of `face` (a convex polygon, counter-clockwise about `axis`): through
/// each edge, along `axis`, facing out.
pub fn side_planes(face: &[DVec3], axis: DVec3) -> SidePlanes {
    planes_of(face, axis).collect()
}

/// [`side_planes`], one at a time (no buffer for them).
fn planes_of(face: &[DVec3], axis: DVec3) -> impl Iterator<Item = (DVec3, DVec3)> + '_ {
    (0..face.len()).filter_map(move |i| {
        let (p, q) = (face[i], face[(i + 1) % face.len()]);
        let out = (q - p).cross(axis);
        let length = out.length();
        (length > 0.0 && length.is_finite()).then(|| (p, out / length))
    })
}

/// `incident` (a polygon's corners in order, or a segment's two ends) clipped against
/// each of `planes` in turn, every stage kept. A segment stays a segment (its part
/// inside); a polygon stays a polygon.
pub fn clip(incident: &[DVec3], planes: &[(DVec3, DVec3)]) -> Vec<ClipStage> {
    let mut stages = Vec::with_capacity(planes.len());
    let mut last = Corners::new();
    clip_through(
        incident,
        planes.iter().copied(),
        &mut last,
        |point, normal, after| {
            stages.push(ClipStage {
                point,
                normal,
                after: after.to_vec(),
            })
        },
    );
    stages
}

/// What [`clip`]'s last stage holds against `face`'s side planes ([`side_planes`]),
/// `incident` itself with no plane, into `out`, without keeping the stages: what a
/// manifold built untraced needs.
pub fn clip_final(incident: &[DVec3], face: &[DVec3], axis: DVec3, out: &mut Corners) {
    clip_through(incident, planes_of(face, axis), out, |_, _, _| {})
}

/// Clips `incident` by each plane in turn into `out`, handing every stage to `stage`
/// (stopping early once nothing is left).
fn clip_through(
    incident: &[DVec3],
    planes: impl Iterator<Item = (DVec3, DVec3)>,
    out: &mut Corners,
    mut stage: impl FnMut(DVec3, DVec3, &[DVec3]),
) {
    // Two buffers in turn: each pass reads one and writes the other (the references
    // swap, not the buffers).
    out.clear();
    out.extend_from_slice(incident);
    let mut spare = Corners::new();
    let mut passes = 0;
    {
        let (mut from, mut to) = (&mut *out, &mut spare);
        for (point, normal) in planes {
            to.clear();
            if from.len() == 2 {
                clip_segment(from[0], from[1], point, normal, to);
            } else {
                clip_polygon(from, point, normal, to);
            }
            std::mem::swap(&mut from, &mut to);
            passes += 1;
            stage(point, normal, from);
            if from.is_empty() {
                break;
            }
        }
    }
    // After an odd number of passes the result is in the spare buffer.
    if passes % 2 == 1 {
        out.clear();
        out.extend_from_slice(&spare);
    }
}

/// The part of segment `[a, b]` on the inner side of the plane, into `out`.
fn clip_segment(a: DVec3, b: DVec3, point: DVec3, normal: DVec3, out: &mut Corners) {
    let (da, db) = (normal.dot(a - point), normal.dot(b - point));
    match (da <= 0.0, db <= 0.0) {
        (true, true) => out.extend([a, b]),
        (false, false) => {}
        (true, false) => out.extend([a, crossing(a, b, da, db)]),
        (false, true) => out.extend([crossing(a, b, da, db), b]),
    }
}

/// One Sutherland–Hodgman pass: the polygon's part on the inner side of the plane,
/// into `out`.
fn clip_polygon(polygon: &[DVec3], point: DVec3, normal: DVec3, out: &mut Corners) {
    let Some(&first) = polygon.first() else {
        return;
    };
    // Each corner's height measured once, carried to the next edge.
    let height = |p: DVec3| normal.dot(p - point);
    let first_height = height(first);
    let (mut a, mut da) = (first, first_height);
    for i in 0..polygon.len() {
        let (b, db) = match polygon.get(i + 1) {
            Some(&b) => (b, height(b)),
            None => (first, first_height),
        };
        if da <= 0.0 {
            out.push(a);
        }
        if (da <= 0.0) != (db <= 0.0) {
            out.push(crossing(a, b, da, db));
        }
        (a, da) = (b, db);
    }
}

/// Where segment `[a, b]` crosses the plane, from the ends' signed heights.
fn crossing(a: DVec3, b: DVec3, da: f64, db: f64) -> DVec3 {
    let t = da / (da - db);
    a + (b - a) * t.clamp(0.0, 1.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn square(half: f64, z: f64) -> Vec<DVec3> {
        vec![
            DVec3::new(-half, -half, z),
            DVec3::new(half, -half, z),
            DVec3::new(half, half, z),
            DVec3::new(-half, half, z),
        ]
    }

    #[test]
    fn a_square_clipped_by_a_smaller_one_is_the_smaller() {
        let planes = side_planes(&square(1.0, 0.0), DVec3::Z);
        assert_eq!(planes.len(), 4);
        let stages = clip(&square(2.0, 0.1), &planes);
        let last = &stages.last().unwrap().after;
        assert_eq!(last.len(), 4);
        for p in last {
            assert!((p.x.abs() - 1.0).abs() < 1e-15 && (p.y.abs() - 1.0).abs() < 1e-15);
        }
        // A square turned 45 degrees inside the bigger one: an octagon.
        let turned: Vec<DVec3> = (0..4)
            .map(|k| {
                let t = std::f64::consts::FRAC_PI_2 * k as f64;
                DVec3::new(1.3 * t.cos(), 1.3 * t.sin(), 0.0)
            })
            .collect();
        let stages = clip(&turned, &planes);
        assert_eq!(stages.last().unwrap().after.len(), 8);
    }

    #[test]
    fn a_segment_keeps_its_inner_part() {
        let planes = side_planes(&square(1.0, 0.0), DVec3::Z);
        let stages = clip(
            &[DVec3::new(-3.0, 0.5, 0.0), DVec3::new(3.0, 0.5, 0.0)],
            &planes,
        );
        let kept = &stages.last().unwrap().after;
        assert_eq!(
            kept,
            &vec![DVec3::new(-1.0, 0.5, 0.0), DVec3::new(1.0, 0.5, 0.0)]
        );
        let outside = clip(
            &[DVec3::new(-3.0, 2.0, 0.0), DVec3::new(3.0, 2.0, 0.0)],
            &planes,
        );
        assert!(outside.last().unwrap().after.is_empty());
    }
}
