//! The convex hull of a union of shapes, each at its own pose: its support is the
//! largest of the parts' supports, so the hull is exact without ever being built (a
//! robot link made of several collision elements, boxes, meshes and cylinders mixed).

use glam::DVec3;

use super::{Shape, SupportMap};
use crate::pose::Pose;

/// Parts with their poses in the union's frame.
#[derive(Clone, Debug, PartialEq)]
pub struct UnionHull {
    parts: Vec<(Shape, Pose)>,
}

impl UnionHull {
    /// `None` for an empty list.
    pub fn new(parts: Vec<(Shape, Pose)>) -> Option<Self> {
        (!parts.is_empty()).then_some(Self { parts })
    }

    pub fn parts(&self) -> &[(Shape, Pose)] {
        &self.parts
    }
}

impl SupportMap for UnionHull {
    fn local_support(&self, dir: DVec3) -> DVec3 {
        let mut best = (f64::NEG_INFINITY, DVec3::ZERO);
        for (shape, pose) in &self.parts {
            let local = pose.rotation.inverse() * dir;
            let p = pose.transform_point(shape.local_support(local));
            let value = p.dot(dir);
            if value > best.0 {
                best = (value, p);
            }
        }
        best.1
    }
}
