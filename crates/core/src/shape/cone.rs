use glam::DVec3;

use super::cylinder::disc_rim;
use super::error::{require_non_negative, ShapeError};
use super::SupportMap;

/// A solid cone along local y: apex at `+half_height`, base disc of `radius` at
/// `-half_height` (parry's convention).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Cone {
    radius: f64,
    half_height: f64,
}

impl Cone {
    pub fn new(radius: f64, half_height: f64) -> Result<Self, ShapeError> {
        require_non_negative("cone", "radius", radius)?;
        require_non_negative("cone", "half height", half_height)?;
        Ok(Self {
            radius,
            half_height,
        })
    }

    pub fn radius(&self) -> f64 {
        self.radius
    }

    pub fn half_height(&self) -> f64 {
        self.half_height
    }
}

impl SupportMap for Cone {
    fn local_support(&self, dir: DVec3) -> DVec3 {
        let apex = DVec3::new(0.0, self.half_height, 0.0);
        let rim = disc_rim(dir, self.radius) - apex;
        if rim.dot(dir) > apex.dot(dir) {
            rim
        } else {
            apex
        }
    }
}
