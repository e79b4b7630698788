//! Rounded shapes whose cores are a point (a sphere) against a point, a segment (a
//! capsule) or a box: the contact in closed form, no iteration, as parry and Jolt answer
//! spheres. Exact up to one rounding per operation, where EPA on the same pair would
//! run GJK first and could only approach the answer.

use glam::DVec3;

use crate::pose::RelativePose;
use crate::shape::Shape;

/// Two cores' contact: their signed distance (negative: the point is inside the other
/// core by that much), the unit direction to move B out of A, and the nearest (or
/// deepest) points of the two cores, all in A's frame.
pub(super) struct CoreContact {
    pub signed_distance: f64,
    pub normal: DVec3,
    pub on_a: DVec3,
    pub on_b: DVec3,
}

/// The contact of two cores when one of them is a point and the other a point, a
/// segment or a box; `None` for any other pair (EPA answers those).
pub(super) fn point_core_contact(
    a: &Shape,
    b: &Shape,
    b_in_a: RelativePose,
) -> Option<CoreContact> {
    let (r, t) = (b_in_a.rotation, b_in_a.translation);
    // B's point first: no rotation round trip when both are points.
    if matches!(b, Shape::Point(_)) {
        let (signed_distance, normal, on_a) = point_against(a, t)?;
        return Some(CoreContact {
            signed_distance,
            normal,
            on_a,
            on_b: t,
        });
    }
    if matches!(a, Shape::Point(_)) {
        // A's point in B's frame, against B's core; the normal that pushes A out of B
        // pushes B the other way.
        let p = r.transpose() * -t;
        let (signed_distance, out_of_b, on_b) = point_against(b, p)?;
        return Some(CoreContact {
            signed_distance,
            normal: -(r * out_of_b),
            on_a: DVec3::ZERO,
            on_b: r * on_b + t,
        });
    }
    None
}

/// A point `p` against a core in the core's frame: signed distance, the unit direction
/// out of the core through `p`, and the core's point nearest `p` (or, inside, the
/// boundary point `p` leaves through).
fn point_against(core: &Shape, p: DVec3) -> Option<(f64, DVec3, DVec3)> {
    let outside = |nearest: DVec3, fallback: DVec3| {
        let v = p - nearest;
        let d = v.length();
        let normal = if d > 0.0 { v * d.recip() } else { fallback };
        (d, normal, nearest)
    };
    match core {
        // Coincident points: every direction separates equally (+y by convention).
        Shape::Point(_) => Some(outside(DVec3::ZERO, DVec3::Y)),
        // A capsule core: the segment from −h to +h on y; a point on it leaves along x.
        Shape::Capsule(c) if c.radius() == 0.0 => {
            let h = c.half_height();
            Some(outside(DVec3::new(0.0, p.y.clamp(-h, h), 0.0), DVec3::X))
        }
        Shape::Cuboid(c) => {
            let h = c.half_extents();
            let nearest = p.clamp(-h, h);
            if nearest != p {
                return Some(outside(nearest, DVec3::Y));
            }
            // Inside (or on the boundary): out through the nearest face.
            let room = h - p.abs();
            let axis = room.min_position();
            let sign = if p[axis] < 0.0 { -1.0 } else { 1.0 };
            let normal = DVec3::AXES[axis] * sign;
            let mut exit = p;
            exit[axis] = h[axis] * sign;
            Some((-room[axis], normal, exit))
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shape::{Capsule, Cuboid, PointShape};
    use glam::DMat3;

    fn at(t: DVec3) -> RelativePose {
        RelativePose::from_matrix(DMat3::from_rotation_z(0.7), t)
    }

    #[test]
    fn a_point_inside_a_box_leaves_through_the_nearest_face() {
        let cube = Shape::Cuboid(Cuboid::new(DVec3::new(1.0, 0.5, 2.0)).unwrap());
        let point = Shape::Point(PointShape);
        let c = point_core_contact(&cube, &point, at(DVec3::new(0.2, 0.3, -1.5))).unwrap();
        assert_eq!(c.signed_distance, -0.2);
        assert_eq!(c.normal, DVec3::Y);
        assert_eq!(c.on_a, DVec3::new(0.2, 0.5, -1.5));
        // The same pair the other way round: B is pushed the opposite way.
        let rel = at(DVec3::new(0.2, 0.3, -1.5));
        let inverse = RelativePose::from_matrix(
            rel.rotation.transpose(),
            rel.rotation.transpose() * -rel.translation,
        );
        let d = point_core_contact(&point, &cube, inverse).unwrap();
        assert!((d.signed_distance + 0.2).abs() < 1e-15);
        assert!((d.normal + rel.rotation.transpose() * DVec3::Y).length() < 1e-15);
    }

    #[test]
    fn a_point_outside_a_segment_or_a_box_is_at_its_euclidean_distance() {
        let segment = Shape::Capsule(Capsule::new(0.0, 1.0).unwrap());
        let point = Shape::Point(PointShape);
        let c = point_core_contact(&segment, &point, at(DVec3::new(3.0, 5.0, 4.0))).unwrap();
        assert!((c.signed_distance - (9.0f64 + 16.0 + 16.0).sqrt()).abs() < 1e-14);
        let cube = Shape::Cuboid(Cuboid::new(DVec3::ONE).unwrap());
        let c = point_core_contact(&cube, &point, at(DVec3::new(2.0, 3.0, 0.0))).unwrap();
        assert!((c.signed_distance - 5.0f64.sqrt()).abs() < 1e-15);
        assert!(point_core_contact(&cube, &cube, at(DVec3::ZERO)).is_none());
    }
}
