//! Coal 3's support functions for its flat-sided primitives (Coal's
//! `src/narrowphase/support_functions.cpp`), so that a query brought from Coal replays
//! the iterations Coal ran. They differ from the exact supports in two ways only:
//! a direction component within Eigen's `dummy_precision` (1e-12) of zero counts as
//! zero, and on ties the cylinder and the cone pick an inflated point (1 + 1e-10) to
//! prefer a side. Coal's axis is z, ours y: Coal's (x, y, z) is our (x, −z, y), an exact
//! permutation, so the arithmetic is Coal's to the bit.
//!
//! Where Coal's point is not an exact support (a dead-zone component that is not zero,
//! an inflated tie) the cache counts a departure, and the run's verdict is then checked
//! with exact supports ([`crate::solver::distance::coal_replay`]).

use glam::DVec3;

use super::{Capsule, Cone, Cuboid, Cylinder, SupportCache, SupportMap};

/// `Eigen::NumTraits<double>::dummy_precision()`.
const DUMMY_PRECISION: f64 = 1e-12;
/// Coal's preferred-side inflation of cylinders and cones.
const INFLATE: f64 = 1.0 + 1e-10;

/// A shape as Coal's GJK sees it. Spheres and capsules are not here: Coal runs GJK on
/// their cores (a point, a segment) and adds the radius after ([`super::Shape::coal_core`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CoalPrimitive {
    kind: CoalKind,
    /// Supports in Coal's own frame of the shape (axis z) rather than ours (axis y): a
    /// run whose A is a capsule, cylinder or cone works in that frame, as Coal's does
    /// (the dot products sum in Coal's order).
    coal_frame: bool,
}

/// The set, in our frame (axis y).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum CoalKind {
    Box(Cuboid),
    /// A capsule's core: the segment from −h to h along the axis.
    Segment {
        half_height: f64,
    },
    Cylinder(Cylinder),
    Cone(Cone),
}

/// Coal's coordinates of a vector of our frame: Coal's (x, y, z) is our (x, −z, y).
pub fn coal_from_ours(v: DVec3) -> DVec3 {
    DVec3::new(v.x, -v.z, v.y)
}

/// Our coordinates of a vector of Coal's frame.
pub fn ours_from_coal(v: DVec3) -> DVec3 {
    DVec3::new(v.x, v.z, -v.y)
}

/// `|x| ≤ dummy_precision`, as Eigen's `isZero(prec)` tests a coefficient.
fn negligible(x: f64) -> bool {
    x.abs() <= DUMMY_PRECISION
}

/// +h past the dead zone, −h below it, 0 inside.
fn dead_zone_select(d: f64, h: f64) -> f64 {
    if d > DUMMY_PRECISION {
        h
    } else if d < -DUMMY_PRECISION {
        -h
    } else {
        0.0
    }
}

impl CoalPrimitive {
    pub fn new(kind: CoalKind) -> Self {
        Self {
            kind,
            coal_frame: false,
        }
    }

    /// Whether the set has an axis (Coal's z, our y): capsules, cylinders, cones.
    pub fn is_axial(&self) -> bool {
        !matches!(self.kind, CoalKind::Box(_))
    }

    /// A box or a segment: every face flat.
    pub fn is_polytopal(&self) -> bool {
        matches!(self.kind, CoalKind::Box(_) | CoalKind::Segment { .. })
    }

    /// The same set with its supports in Coal's frame of it (axis z).
    pub fn in_coal_frame(self) -> Self {
        Self {
            coal_frame: self.is_axial(),
            ..self
        }
    }

    /// Coal's support, in the shape's frame (ours, or Coal's for [`Self::in_coal_frame`]).
    pub fn coal_support(&self, d: DVec3) -> DVec3 {
        self.coal_support_and_departure(d).0
    }

    /// Coal's support, and whether it departs from an exact one: a component in the dead
    /// zone that is not zero (Coal's point is then not a maximiser), or an inflated tie
    /// (a point outside the set by 1e-10 of its size).
    pub fn coal_support_and_departure(&self, d: DVec3) -> (DVec3, bool) {
        if self.is_axial() && !self.coal_frame {
            let (p, departed) = self.support_in_coal_coordinates(coal_from_ours(d));
            (ours_from_coal(p), departed)
        } else {
            self.support_in_coal_coordinates(d)
        }
    }

    /// The exact support of the same set, in the same frame.
    pub fn exact_support(&self, d: DVec3) -> DVec3 {
        if self.coal_frame {
            coal_from_ours(self.exact_support_in_ours(ours_from_coal(d)))
        } else {
            self.exact_support_in_ours(d)
        }
    }

    /// Coal's `getShapeSupport`, direction and point in Coal's coordinates (axis z), and
    /// whether it departs from an exact support.
    fn support_in_coal_coordinates(&self, d: DVec3) -> (DVec3, bool) {
        let dead = |x: f64| x != 0.0 && negligible(x);
        match self.kind {
            // Coal's box inflation is a function-local static set on the process's first
            // call: 1 unless that first direction had a zero component. We take 1.
            CoalKind::Box(b) => {
                let h = b.half_extents();
                let p = DVec3::new(
                    dead_zone_select(d.x, h.x),
                    dead_zone_select(d.y, h.y),
                    dead_zone_select(d.z, h.z),
                );
                (p, dead(d.x) || dead(d.y) || dead(d.z))
            }
            CoalKind::Segment { half_height } => (
                DVec3::new(0.0, 0.0, dead_zone_select(d.z, half_height)),
                dead(d.z),
            ),
            CoalKind::Cylinder(c) => {
                let aligned = negligible(d.x) && negligible(d.y);
                let mut half_h = c.half_height();
                if aligned {
                    half_h *= INFLATE;
                }
                let mut r = c.radius();
                let z = if d.z > DUMMY_PRECISION {
                    half_h
                } else if d.z < -DUMMY_PRECISION {
                    -half_h
                } else {
                    r *= INFLATE;
                    0.0
                };
                // Both inflations put the point outside the cylinder.
                let inflated = aligned || negligible(d.z);
                if aligned {
                    (DVec3::new(0.0, 0.0, z), inflated)
                } else {
                    // Eigen's `normalized()`: each coefficient over the norm.
                    let norm = (d.x * d.x + d.y * d.y).sqrt();
                    (DVec3::new(d.x / norm * r, d.y / norm * r, z), inflated)
                }
            }
            CoalKind::Cone(c) => {
                let (h, r) = (c.half_height(), c.radius());
                if negligible(d.x) && negligible(d.y) {
                    // Up: the apex, as exact. Otherwise the base's centre, inflated.
                    return if d.z > DUMMY_PRECISION {
                        (DVec3::new(0.0, 0.0, h), false)
                    } else {
                        (DVec3::new(0.0, 0.0, -INFLATE * h), true)
                    };
                }
                let squared = d.x * d.x + d.y * d.y;
                let len = squared + d.z * d.z;
                let zdist = squared.sqrt();
                let rim = |rad: f64| DVec3::new(rad * d.x, rad * d.y, -h);
                // Apex or rim by Coal's angle test: where it and the exact comparison
                // disagree the two points tie to round-off, both maximisers.
                let p = if d.z <= 0.0 {
                    rim(r / zdist)
                } else {
                    let len = len.sqrt();
                    let sin_a = r / (r * r + 4.0 * h * h).sqrt();
                    if d.z > len * sin_a {
                        DVec3::new(0.0, 0.0, h)
                    } else {
                        rim(r / zdist)
                    }
                };
                (p, false)
            }
        }
    }

    fn exact_support_in_ours(&self, d: DVec3) -> DVec3 {
        match self.kind {
            CoalKind::Box(b) => b.local_support(d),
            CoalKind::Segment { half_height } => match Capsule::new(0.0, half_height) {
                Ok(segment) => segment.local_support(d),
                Err(_) => DVec3::ZERO,
            },
            CoalKind::Cylinder(c) => c.local_support(d),
            CoalKind::Cone(c) => c.local_support(d),
        }
    }
}

impl SupportMap for CoalPrimitive {
    fn local_support(&self, dir: DVec3) -> DVec3 {
        self.coal_support(dir)
    }

    fn local_support_cached(&self, dir: DVec3, cache: &mut SupportCache) -> DVec3 {
        cache.vertex_visits += 1;
        let (coal, departed) = self.coal_support_and_departure(dir);
        cache.coal_departures += u64::from(departed);
        coal
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cylinder() -> CoalPrimitive {
        CoalPrimitive::new(CoalKind::Cylinder(Cylinder::new(0.5, 1.0).unwrap()))
    }

    #[test]
    fn away_from_the_dead_zone_coal_and_exact_agree() {
        let shapes = [
            CoalKind::Box(Cuboid::new(DVec3::new(0.1, 0.2, 0.3)).unwrap()),
            CoalKind::Segment { half_height: 0.4 },
            CoalKind::Cylinder(Cylinder::new(0.5, 1.0).unwrap()),
            CoalKind::Cone(Cone::new(0.5, 1.0).unwrap()),
        ]
        .map(CoalPrimitive::new)
        .into_iter()
        .flat_map(|p| [p, p.in_coal_frame()]);
        let mut rng = crate::rng::SplitMix64::new(7);
        for shape in shapes {
            for _ in 0..1000 {
                let d = rng.vector(1.0);
                let (coal, exact) = (shape.coal_support(d), shape.exact_support(d));
                // Both maximise ⟨d, ·⟩ (the cone's tests round differently at its ties).
                assert!((d.dot(coal) - d.dot(exact)).abs() <= 1e-12, "{shape:?} {d}");
            }
        }
    }

    #[test]
    fn the_dead_zone_and_the_inflated_ties_are_coals() {
        let b = CoalPrimitive::new(CoalKind::Box(Cuboid::new(DVec3::ONE).unwrap()));
        // A component of 1e-13 counts as zero for Coal, as +1 for the exact support.
        let d = DVec3::new(1e-13, -1.0, 1.0);
        assert_eq!(b.coal_support(d), DVec3::new(0.0, -1.0, 1.0));
        assert_eq!(b.exact_support(d), DVec3::new(1.0, -1.0, 1.0));
        let mut cache = SupportCache::default();
        b.local_support_cached(d, &mut cache);
        assert_eq!(cache.coal_departures, 1);
        // Along the axis, Coal's cylinder inflates its half height.
        let top = cylinder().coal_support(DVec3::new(0.0, 1.0, 0.0));
        assert_eq!(top, DVec3::new(0.0, INFLATE, 0.0));
        // Sideways, its radius.
        let side = cylinder().coal_support(DVec3::new(1.0, 0.0, 0.0));
        assert_eq!(side, DVec3::new(0.5 * INFLATE, 0.0, 0.0));
        // In Coal's frame the axis is z.
        let top = cylinder()
            .in_coal_frame()
            .coal_support(DVec3::new(0.0, 0.0, 1.0));
        assert_eq!(top, DVec3::new(0.0, 0.0, INFLATE));
    }
}
