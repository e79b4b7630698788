//! Rounded shapes whose cores are a point (a sphere) against a point or a segment (a
//! sphere or a capsule): the contact in closed form, as parry and Jolt answer spheres.
//! EPA has nothing to expand there (the cores' difference is a point or a segment, flat
//! around the origin), so only GJK's stage is saved, and its round-off. A sphere against
//! a box is left to EPA on purpose: its expansions are worth seeing (the shipped scene
//! of a sphere sinking into a box face), though parry answers it in closed form.

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

/// The contact of two cores when one of them is a point and the other a point or a
/// segment; `None` for any other pair (EPA answers those).
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

/// A point `p` against a point or segment core in the core's frame: distance, the unit
/// direction from the core to `p`, and the core's point nearest `p`.
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
    fn a_point_against_a_point_from_either_side() {
        let point = Shape::Point(PointShape);
        let rel = at(DVec3::new(0.3, -0.4, 1.2));
        let c = point_core_contact(&point, &point, rel).unwrap();
        assert_eq!(c.signed_distance, 1.3);
        assert!((c.normal - DVec3::new(0.3, -0.4, 1.2) / 1.3).length() < 1e-15);
        let coincident = point_core_contact(&point, &point, at(DVec3::ZERO)).unwrap();
        assert_eq!(
            (coincident.signed_distance, coincident.normal),
            (0.0, DVec3::Y)
        );
    }

    #[test]
    fn a_point_outside_a_segment_or_a_box_is_at_its_euclidean_distance() {
        let segment = Shape::Capsule(Capsule::new(0.0, 1.0).unwrap());
        let point = Shape::Point(PointShape);
        let c = point_core_contact(&segment, &point, at(DVec3::new(3.0, 5.0, 4.0))).unwrap();
        assert!((c.signed_distance - (9.0f64 + 16.0 + 16.0).sqrt()).abs() < 1e-14);
        // From B's side: A's point seen from B's segment, pushed the other way.
        let d = point_core_contact(&point, &segment, at(DVec3::new(0.0, 0.0, 2.0))).unwrap();
        assert!((d.signed_distance - 2.0).abs() < 1e-15);
        assert!((d.normal - DVec3::Z).length() < 1e-15);
        // A box core is EPA's.
        let cube = Shape::Cuboid(Cuboid::new(DVec3::ONE).unwrap());
        assert!(point_core_contact(&cube, &point, at(DVec3::ZERO)).is_none());
    }
}
