use glam::DVec3;

/// A convex shape known through its support function (argmax convention).
pub trait SupportMap {
    /// A point of the shape maximising `⟨dir, p⟩`, in the shape's local frame.
    /// `dir` need not be normalised; a zero `dir` returns some point of the shape.
    fn local_support(&self, dir: DVec3) -> DVec3;

    /// Same answer, with a warm start and statistics. Shapes that cannot use a warm
    /// start (everything but hill-climbing polytopes) ignore the cache.
    #[inline(always)]
    fn local_support_cached(&self, dir: DVec3, cache: &mut SupportCache) -> DVec3 {
        cache.vertex_visits += 1;
        self.local_support(dir)
    }
}

/// Per-shape state of one query: the last support vertex and direction (where hill
/// climbing starts) and how many vertices were looked at.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct SupportCache {
    pub last_vertex: usize,
    /// The last direction asked for (zero before the first call).
    pub last_direction: DVec3,
    /// `last_vertex` was given by the caller (a previous query of the same pair), so the
    /// first climb starts there rather than from the nearest fixed warm start.
    pub hinted: bool,
    pub vertex_visits: u64,
    /// Supports where Coal's conventions ([`super::CoalPrimitive`]) gave another point
    /// than the exact support (a component in the 1e-12 dead zone, an inflated tie).
    pub coal_departures: u64,
}

/// Axis-aligned bounding box in a shape's local frame.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Aabb {
    pub min: DVec3,
    pub max: DVec3,
}

impl Aabb {
    /// The box grown by `margin` on every side.
    pub fn widened(&self, margin: f64) -> Aabb {
        Aabb {
            min: self.min - DVec3::splat(margin),
            max: self.max + DVec3::splat(margin),
        }
    }

    pub fn centre(&self) -> DVec3 {
        (self.min + self.max) * 0.5
    }

    pub fn extent(&self) -> DVec3 {
        self.max - self.min
    }

    /// The box of a support map: six support calls along the axes.
    pub fn of_support_map(shape: &(impl SupportMap + ?Sized)) -> Aabb {
        let mut min = DVec3::ZERO;
        let mut max = DVec3::ZERO;
        for axis in 0..3 {
            let mut e = DVec3::ZERO;
            e[axis] = 1.0;
            max[axis] = shape.local_support(e)[axis];
            min[axis] = shape.local_support(-e)[axis];
        }
        Aabb { min, max }
    }
}

/// `dir / ‖dir‖`, or zero for a zero (or non-finite-length) direction.
pub(crate) fn unit_or_zero(dir: DVec3) -> DVec3 {
    let len = dir.length();
    if len > 0.0 && len.is_finite() {
        dir / len
    } else {
        DVec3::ZERO
    }
}

/// +1, −1 or 0: which half of a symmetric extent a direction component selects.
pub(crate) fn sign_or_zero(x: f64) -> f64 {
    if x > 0.0 {
        1.0
    } else if x < 0.0 {
        -1.0
    } else {
        0.0
    }
}
