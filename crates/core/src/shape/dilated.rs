use glam::DVec3;

use super::error::{require_non_negative, ShapeError};
use super::support_map::unit_or_zero;
use super::{Shape, SupportCache, SupportMap};

/// Any shape grown by a ball (`inner ⊕ B(radius)`): rounded boxes, margins.
#[derive(Clone, Debug, PartialEq)]
pub struct Dilated {
    inner: Box<Shape>,
    radius: f64,
}

impl Dilated {
    pub fn new(inner: Shape, radius: f64) -> Result<Self, ShapeError> {
        require_non_negative("dilated shape", "radius", radius)?;
        Ok(Self {
            inner: Box::new(inner),
            radius,
        })
    }

    pub fn inner(&self) -> &Shape {
        &self.inner
    }

    pub fn radius(&self) -> f64 {
        self.radius
    }
}

impl SupportMap for Dilated {
    fn local_support(&self, dir: DVec3) -> DVec3 {
        self.inner.local_support(dir) + unit_or_zero(dir) * self.radius
    }

    fn local_support_cached(&self, dir: DVec3, cache: &mut SupportCache) -> DVec3 {
        self.inner.local_support_cached(dir, cache) + unit_or_zero(dir) * self.radius
    }
}
