use glam::DVec3;

use super::error::{require_positive, ShapeError};
use super::SupportMap;

/// An axis-aligned ellipsoid with semi-axes `radii`, centred at the local origin.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Ellipsoid {
    radii: DVec3,
    /// `radii ∘ radii`, which every support needs (the same rounding as squaring there).
    radii_squared: DVec3,
}

impl Ellipsoid {
    pub fn new(radii: DVec3) -> Result<Self, ShapeError> {
        for (name, r) in [
            ("radius x", radii.x),
            ("radius y", radii.y),
            ("radius z", radii.z),
        ] {
            require_positive("ellipsoid", name, r)?;
        }
        Ok(Self {
            radii,
            radii_squared: radii * radii,
        })
    }

    pub fn radii(&self) -> DVec3 {
        self.radii
    }
}

impl SupportMap for Ellipsoid {
    /// `v = a²∘d, s = v / √⟨v, d⟩`, evaluated in the same order as Coal.
    #[inline(always)]
    fn local_support(&self, dir: DVec3) -> DVec3 {
        let v = self.radii_squared * dir;
        let norm = v.dot(dir).sqrt();
        // Positive and finite (NaN fails both): two comparisons, no bit tests.
        if norm > 0.0 && norm < f64::INFINITY {
            v / norm
        } else {
            DVec3::ZERO
        }
    }
}
