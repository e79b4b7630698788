use glam::DVec3;

use super::error::{require_non_negative, ShapeError};
use super::support_map::{sign_or_zero, unit_or_zero};
use super::SupportMap;

/// A segment along local y from `-half_height` to `+half_height`, dilated by `radius`
/// (parry's and Bevy's convention).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Capsule {
    radius: f64,
    half_height: f64,
}

impl Capsule {
    pub fn new(radius: f64, half_height: f64) -> Result<Self, ShapeError> {
        require_non_negative("capsule", "radius", radius)?;
        require_non_negative("capsule", "half height", half_height)?;
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

impl SupportMap for Capsule {
    fn local_support(&self, dir: DVec3) -> DVec3 {
        DVec3::new(0.0, sign_or_zero(dir.y) * self.half_height, 0.0)
            + unit_or_zero(dir) * self.radius
    }
}
