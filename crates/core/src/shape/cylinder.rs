use glam::DVec3;

use super::error::{require_non_negative, ShapeError};
use super::support_map::sign_or_zero;
use super::SupportMap;

/// A solid cylinder with its axis along local y, centred at the local origin.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Cylinder {
    radius: f64,
    half_height: f64,
}

impl Cylinder {
    pub fn new(radius: f64, half_height: f64) -> Result<Self, ShapeError> {
        require_non_negative("cylinder", "radius", radius)?;
        require_non_negative("cylinder", "half height", half_height)?;
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

/// The point of a disc of radius `r` (in the local xz plane) furthest along `dir`.
pub(crate) fn disc_rim(dir: DVec3, r: f64) -> DVec3 {
    let radial = (dir.x * dir.x + dir.z * dir.z).sqrt();
    if radial > 0.0 && radial.is_finite() {
        DVec3::new(dir.x / radial * r, 0.0, dir.z / radial * r)
    } else {
        DVec3::ZERO
    }
}

impl SupportMap for Cylinder {
    fn local_support(&self, dir: DVec3) -> DVec3 {
        disc_rim(dir, self.radius) + DVec3::new(0.0, sign_or_zero(dir.y) * self.half_height, 0.0)
    }
}
