use std::borrow::Cow;

use glam::DVec3;

use super::implicit::ImplicitShape;
use super::{
    Aabb, Capsule, CoalKind, CoalPrimitive, Cone, Cuboid, Cylinder, Dilated, Ellipsoid, HullSource,
    PointShape, Polytope, Sphere, Superellipsoid, SupportCache, SupportMap, UnionHull,
};

/// Every shape kind of the core, behind one type so scenes, solvers and the viewer can
/// hold any of them. Dispatch is a `match`, cheap next to a support evaluation.
#[derive(Clone, Debug, PartialEq)]
pub enum Shape {
    Point(PointShape),
    Sphere(Sphere),
    Ellipsoid(Ellipsoid),
    Cuboid(Cuboid),
    Capsule(Capsule),
    Cylinder(Cylinder),
    Cone(Cone),
    Superellipsoid(Superellipsoid),
    Polytope(Polytope),
    Dilated(Dilated),
    /// Superquadrics with unequal exponents, hyperquadrics, intersections.
    Implicit(ImplicitShape),
    /// The hull of several shapes at their poses (a robot link's collision elements).
    Union(UnionHull),
    /// A box, segment, cylinder or cone with Coal's support conventions: what
    /// [`Shape::coal_core`] hands the distance solvers under `supports: Coal`.
    Coal(CoalPrimitive),
}

macro_rules! dispatch {
    ($self:expr, $s:ident => $body:expr) => {
        match $self {
            Shape::Point($s) => $body,
            Shape::Sphere($s) => $body,
            Shape::Ellipsoid($s) => $body,
            Shape::Cuboid($s) => $body,
            Shape::Capsule($s) => $body,
            Shape::Cylinder($s) => $body,
            Shape::Cone($s) => $body,
            Shape::Superellipsoid($s) => $body,
            Shape::Polytope($s) => $body,
            Shape::Dilated($s) => $body,
            Shape::Implicit($s) => $body,
            Shape::Union($s) => $body,
            Shape::Coal($s) => $body,
        }
    };
}

impl Shape {
    /// The kind's name as the CLI and scene files spell it.
    pub fn kind_name(&self) -> &'static str {
        match self {
            Shape::Point(_) => "point",
            Shape::Sphere(_) => "sphere",
            Shape::Ellipsoid(_) => "ellipsoid",
            Shape::Cuboid(_) => "box",
            Shape::Capsule(_) => "capsule",
            Shape::Cylinder(_) => "cylinder",
            Shape::Cone(_) => "cone",
            Shape::Superellipsoid(_) => "superellipsoid",
            Shape::Polytope(_) => "polytope",
            Shape::Dilated(_) => "dilated",
            Shape::Implicit(_) => "implicit",
            Shape::Union(_) => "union",
            Shape::Coal(_) => "coal core",
        }
    }

    /// The point used for the "centre difference" initial guess: the local origin for
    /// primitives, the bounding-box centre for polytopes.
    pub fn local_centre(&self) -> DVec3 {
        match self {
            Shape::Polytope(p) => p.local_centre(),
            Shape::Dilated(d) => d.inner().local_centre(),
            Shape::Implicit(i) => i.interior(),
            _ => DVec3::ZERO,
        }
    }

    /// The finite point set whose hull the shape is (polytopes, boxes, points): what the
    /// LP test takes; `None` for curved shapes.
    pub fn vertex_points(&self) -> Option<Vec<DVec3>> {
        match self {
            Shape::Polytope(p) => Some(p.vertices().to_vec()),
            Shape::Point(_) => Some(vec![DVec3::ZERO]),
            Shape::Cuboid(c) => {
                let h = c.half_extents();
                Some(
                    (0..8)
                        .map(|i| {
                            DVec3::new(
                                if i & 1 == 0 { -h.x } else { h.x },
                                if i & 2 == 0 { -h.y } else { h.y },
                                if i & 4 == 0 { -h.z } else { h.z },
                            )
                        })
                        .collect(),
                )
            }
            _ => None,
        }
    }

    /// For a polytope (or a dilated one): which checked hull it uses, or why it scans.
    pub fn hull_source(&self) -> Option<&HullSource> {
        match self {
            Shape::Polytope(p) => Some(p.hull_source()),
            Shape::Dilated(d) => d.inner().hull_source(),
            _ => None,
        }
    }

    /// One line for reports: the kind, and for polytopes the vertex count and hull path.
    pub fn describe(&self) -> String {
        match self {
            Shape::Polytope(p) => format!(
                "polytope, {} vertices, {} triangles; hull: {}",
                p.vertices().len(),
                p.faces().len(),
                p.hull_source()
            ),
            Shape::Dilated(d) => format!("dilated {}", d.inner().describe()),
            Shape::Implicit(i) => format!("implicit: {}", i.what()),
            Shape::Union(u) => format!("hull of a union of {} parts", u.parts().len()),
            other => other.kind_name().to_string(),
        }
    }

    /// The shape as a core ⊕ ball of the returned radius: a sphere is a point, a capsule
    /// a segment, a dilated shape its inner shape's core with the radii added; other
    /// shapes are their own core (radius 0). Queries run on the cores and add the radii
    /// at the end (as Coal and Jolt do): exact for the rounded part, and no iterations
    /// spent approximating a sphere.
    /// Borrowed when the shape is its own core (no copy of a large hull per query).
    pub fn rounded_core(&self) -> (Cow<'_, Shape>, f64) {
        match self {
            Shape::Sphere(s) => (Cow::Owned(Shape::Point(PointShape)), s.radius()),
            // The segment as a capsule of radius 0: its support needs no hull.
            Shape::Capsule(c) => match Capsule::new(0.0, c.half_height()) {
                Ok(segment) => (Cow::Owned(Shape::Capsule(segment)), c.radius()),
                Err(_) => (Cow::Borrowed(self), 0.0),
            },
            Shape::Dilated(d) => {
                let (core, radius) = d.inner().rounded_core();
                (core, radius + d.radius())
            }
            other => (Cow::Borrowed(other), 0.0),
        }
    }

    /// Whether [`Shape::rounded_core`] is the shape itself with radius 0 (all but
    /// spheres, capsules and dilated shapes): a caller may then skip the copy-on-write
    /// core, whose every move copies a whole shape's bytes.
    pub fn is_own_core(&self) -> bool {
        !matches!(
            self,
            Shape::Sphere(_) | Shape::Capsule(_) | Shape::Dilated(_)
        )
    }

    /// The shape as Coal's GJK sees it, and the radius Coal adds after the run (its
    /// swept-sphere radius): a sphere is its centre, a capsule its segment, a dilated
    /// shape its inner shape's core; boxes, cylinders and cones take Coal's supports
    /// ([`CoalPrimitive`]); ellipsoids and polytopes are computed as Coal computes them
    /// already. Shapes Coal does not have are their own core.
    pub fn coal_core(&self) -> (Shape, f64) {
        let (core, radius) = self.rounded_core();
        let core = match core.as_ref() {
            Shape::Cuboid(b) => CoalKind::Box(*b).into(),
            Shape::Capsule(c) => CoalKind::Segment {
                half_height: c.half_height(),
            }
            .into(),
            Shape::Cylinder(c) => CoalKind::Cylinder(*c).into(),
            Shape::Cone(c) => CoalKind::Cone(*c).into(),
            other => other.clone(),
        };
        (core, radius)
    }

    pub fn local_aabb(&self) -> Aabb {
        // The same numbers the supports along ±x, ±y, ±z give, without the six calls
        // (the closed-form queries ask for the scene's size on every query).
        let symmetric = |h: DVec3| Aabb { min: -h, max: h };
        match self {
            Shape::Point(_) => symmetric(DVec3::ZERO),
            Shape::Sphere(s) => symmetric(DVec3::splat(s.radius())),
            Shape::Cuboid(c) => symmetric(c.half_extents()),
            Shape::Ellipsoid(e) => symmetric(e.radii()),
            Shape::Capsule(c) => {
                let r = c.radius();
                symmetric(DVec3::new(r, c.half_height() + r, r))
            }
            // A cone's apex is at +h and its base at −h: the same box as its cylinder's.
            Shape::Cylinder(c) => symmetric(DVec3::new(c.radius(), c.half_height(), c.radius())),
            Shape::Cone(c) => symmetric(DVec3::new(c.radius(), c.half_height(), c.radius())),
            _ => Aabb::of_support_map(self),
        }
    }

    /// A bound on the distance of every point of the shape from its origin, at the cost
    /// of a few operations (a polytope keeps it; a union asks its parts): the size the
    /// runs' round-off allowance is measured by.
    pub fn extent(&self) -> f64 {
        match self {
            Shape::Polytope(p) => p.extent(),
            Shape::Cuboid(c) => c.extent(),
            Shape::Dilated(d) => d.inner().extent() + d.radius(),
            Shape::Union(u) => u
                .parts()
                .iter()
                .map(|(part, pose)| part.extent() + pose.translation.length())
                .fold(0.0, f64::max),
            _ => {
                let bounds = self.local_aabb();
                bounds.min.abs().max(bounds.max.abs()).length()
            }
        }
    }

    /// How many vertices a polytopal shape has (`None` for curved ones), without
    /// building them.
    pub fn vertex_count(&self) -> Option<usize> {
        match self {
            Shape::Point(_) => Some(1),
            Shape::Cuboid(_) => Some(8),
            Shape::Polytope(p) => Some(p.vertices().len()),
            _ => None,
        }
    }

    /// Every face flat: the hull of finitely many points (polytopes, boxes, points).
    pub fn is_polytopal(&self) -> bool {
        matches!(
            self,
            Shape::Point(_) | Shape::Cuboid(_) | Shape::Polytope(_)
        ) || matches!(self, Shape::Coal(c) if c.is_polytopal())
    }

    /// Whether the shape's boundary is strictly convex (no flat face or straight edge),
    /// which is when Nesterov without normalisation is the right choice (Montaut et al.,
    /// "Collision Detection Accelerated: An Optimization Perspective"); a dilated shape
    /// keeps its inner shape's flat faces, offset. A point counts as strictly convex: it
    /// adds no flat part to a Minkowski difference.
    pub fn is_strictly_convex(&self) -> bool {
        match self {
            Shape::Point(_) | Shape::Sphere(_) | Shape::Ellipsoid(_) => true,
            Shape::Superellipsoid(s) => s.exponent() > 1.0,
            Shape::Dilated(d) => d.inner().is_strictly_convex(),
            _ => false,
        }
    }
}

impl SupportMap for Shape {
    fn local_support(&self, dir: DVec3) -> DVec3 {
        dispatch!(self, s => s.local_support(dir))
    }

    fn local_support_cached(&self, dir: DVec3, cache: &mut SupportCache) -> DVec3 {
        dispatch!(self, s => s.local_support_cached(dir, cache))
    }
}

impl From<CoalKind> for Shape {
    fn from(kind: CoalKind) -> Self {
        Shape::Coal(CoalPrimitive::new(kind))
    }
}

impl From<Polytope> for Shape {
    fn from(p: Polytope) -> Self {
        Shape::Polytope(p)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shape::{Capsule, Cone, Cuboid, Cylinder, Ellipsoid, PointShape, Sphere};

    #[test]
    fn the_quick_boxes_are_the_supports_boxes() {
        let shapes = [
            Shape::Point(PointShape),
            Shape::Sphere(Sphere::new(0.37).unwrap()),
            Shape::Cuboid(Cuboid::new(DVec3::new(0.1, 2.5, 1e-7)).unwrap()),
            Shape::Ellipsoid(Ellipsoid::new(DVec3::new(0.3, 0.7, 1.1)).unwrap()),
            Shape::Capsule(Capsule::new(0.3, 0.7).unwrap()),
            Shape::Capsule(Capsule::new(0.0, 1.3).unwrap()),
            Shape::Cylinder(Cylinder::new(0.45, 0.1).unwrap()),
            Shape::Cylinder(Cylinder::new(1e-9, 3.0).unwrap()),
            Shape::Cone(Cone::new(0.6, 0.35).unwrap()),
        ];
        for s in shapes {
            let (quick, slow) = (s.local_aabb(), Aabb::of_support_map(&s));
            assert_eq!(
                (quick.min, quick.max),
                (slow.min, slow.max),
                "{}",
                s.kind_name()
            );
        }
    }
}
