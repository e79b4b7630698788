use glam::DVec3;
use serde::{Deserialize, Serialize};

use super::SupportMap;

/// A single point at the local origin (a degenerate but valid convex shape).
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct PointShape;

impl SupportMap for PointShape {
    fn local_support(&self, _dir: DVec3) -> DVec3 {
        DVec3::ZERO
    }
}
