use glam::DVec3;

use super::error::{require_non_negative, ShapeError};
use super::support_map::sign_or_zero;
use super::SupportMap;

/// An axis-aligned box with the given half extents, centred at the local origin.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Cuboid {
    half_extents: DVec3,
    /// The half extents' length (a corner's distance from the centre), kept: the
    /// closed forms and the contact family ask for it on every query.
    extent: f64,
}

impl Cuboid {
    pub fn new(half_extents: DVec3) -> Result<Self, ShapeError> {
        for (name, h) in [
            ("half extent x", half_extents.x),
            ("half extent y", half_extents.y),
            ("half extent z", half_extents.z),
        ] {
            require_non_negative("box", name, h)?;
        }
        Ok(Self {
            half_extents,
            extent: half_extents.length(),
        })
    }

    pub fn half_extents(&self) -> DVec3 {
        self.half_extents
    }

    /// The distance of its corners from its centre.
    pub fn extent(&self) -> f64 {
        self.extent
    }
}

impl SupportMap for Cuboid {
    fn local_support(&self, dir: DVec3) -> DVec3 {
        let h = self.half_extents;
        DVec3::new(
            sign_or_zero(dir.x) * h.x,
            sign_or_zero(dir.y) * h.y,
            sign_or_zero(dir.z) * h.z,
        )
    }
}
