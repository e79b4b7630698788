//! Our types as parry3d-f64's: vectors and poses (our glam 0.32 against parry's glam
//! 0.33, `glamx`), and parry's native shape for each of our kinds. The one place the two
//! meet; `parry_bridge` (reference answers) and the contact family's parry rule use it.

use glam::DVec3;
use parry3d_f64::math::{Pose as ParryPose, Rotation as ParryRotation, Vector as ParryVector};

use super::{AffineDimension, Polytope, Shape};
use crate::pose::RelativePose;

/// Our vector as parry's.
pub fn to_parry(v: DVec3) -> ParryVector {
    ParryVector::from_array(v.to_array())
}

/// parry's vector as ours.
pub fn from_parry(v: ParryVector) -> DVec3 {
    DVec3::from_array(v.to_array())
}

/// Our relative pose as parry's `pos12`.
pub fn parry_pose(rel: &RelativePose) -> ParryPose {
    let q = glam::DQuat::from_mat3(&rel.rotation);
    let rotation = ParryRotation::from_xyzw(q.x, q.y, q.z, q.w);
    ParryPose::from_parts(to_parry(rel.translation), rotation)
}

/// Parry's native shape for ours (built once and reused by callers that time parry).
pub fn native(shape: &Shape) -> Option<Box<dyn parry3d_f64::shape::Shape>> {
    use parry3d_f64::shape as ps;
    Some(match shape {
        Shape::Sphere(s) => Box::new(ps::Ball::new(s.radius())),
        Shape::Cuboid(c) => Box::new(ps::Cuboid::new(to_parry(c.half_extents()))),
        Shape::Capsule(c) => Box::new(ps::Capsule::new_y(c.half_height(), c.radius())),
        Shape::Cylinder(c) => Box::new(ps::Cylinder::new(c.half_height(), c.radius())),
        Shape::Cone(c) => Box::new(ps::Cone::new(c.half_height(), c.radius())),
        Shape::Polytope(p) => Box::new(parry_convex_polyhedron(p)?),
        _ => return None,
    })
}

/// parry's convex polyhedron with our checked hull's vertices and faces (parry's own
/// hull builder collapses needle-thin sets). `None` for flat shapes, shapes without a
/// hull, and hulls parry's polyhedron refuses (zero-area slivers).
pub fn parry_convex_polyhedron(p: &Polytope) -> Option<parry3d_f64::shape::ConvexPolyhedron> {
    if p.dimension() != AffineDimension::Solid || p.is_hull_fallback() {
        return None;
    }
    let points: Vec<ParryVector> = p.vertices().iter().map(|v| to_parry(*v)).collect();
    parry3d_f64::shape::ConvexPolyhedron::from_convex_mesh(points, p.faces())
}
