use glam::DVec3;

use super::error::{require_non_negative, ShapeError};
use super::support_map::unit_or_zero;
use super::SupportMap;

/// A ball centred at the local origin.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sphere {
    radius: f64,
}

impl Sphere {
    pub fn new(radius: f64) -> Result<Self, ShapeError> {
        require_non_negative("sphere", "radius", radius)?;
        Ok(Self { radius })
    }

    pub fn radius(&self) -> f64 {
        self.radius
    }
}

impl SupportMap for Sphere {
    fn local_support(&self, dir: DVec3) -> DVec3 {
        unit_or_zero(dir) * self.radius
    }
}
