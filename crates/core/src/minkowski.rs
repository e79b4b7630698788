//! The Minkowski difference `D = A ⊖ B` (the CSO), worked in shape A's frame.

use glam::DVec3;
use serde::{Deserialize, Serialize};

use crate::pose::RelativePose;
use crate::shape::{Shape, SupportCache, SupportMap};

/// A point `w = a − b` of the Minkowski difference that remembers its parts, so witness
/// points fall out of barycentric weights. All three are in A's frame.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct CsoPoint {
    pub w: DVec3,
    pub a: DVec3,
    pub b: DVec3,
}

/// Support-call statistics of one query.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct SupportStats {
    /// Support calls on D made by the solver (display-only calls excluded).
    pub calls: u64,
    pub vertex_visits_a: u64,
    pub vertex_visits_b: u64,
    /// Supports where Coal's conventions departed from the exact support (only under
    /// [`crate::solver::SupportRule::Coal`]): the run's bounds then need an exact check.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub coal_departures: u64,
    /// The last support vertices found on A and B (polytopes): where the next query of
    /// the same pair starts hill climbing.
    #[serde(skip)]
    pub last_vertices: (usize, usize),
}

fn is_zero(n: &u64) -> bool {
    *n == 0
}

/// `A ⊖ B` with B placed by `b_in_a`; keeps the warm starts and counters of one query.
/// With a sweep, B is the swept shape `B ⊕ [0, sweep]` (every place B takes translating
/// by `sweep`, Ericson, "The Gilbert-Johnson-Keerthi algorithm" §4): GJK on it answers
/// whether the shapes touch at any time of the motion.
///
/// `A` and `B` are the types whose supports are called: [`Shape`] by default (a `match`
/// per call), or the concrete kinds ([`MinkowskiDifference::concrete`]), so that a solver
/// built on it inlines the support into its loop (as Coal's templated support pairs do).
#[derive(Clone, Debug)]
pub struct MinkowskiDifference<'s, A: SupportMap = Shape, B: SupportMap = Shape> {
    pub shape_a: &'s Shape,
    pub shape_b: &'s Shape,
    /// The same shapes, as the types whose supports are called.
    support_a: &'s A,
    support_b: &'s B,
    pub b_in_a: RelativePose,
    /// B's translation over the motion, in A's frame (zero: B does not move).
    pub sweep: DVec3,
    /// `sweep` is not zero: static queries (nearly all) skip the sweep's test per support.
    swept: bool,
    cache_a: SupportCache,
    cache_b: SupportCache,
    calls: u64,
}

/// Round-off allowed per unit of a pair's size (see [`pair_round_off`]): 32 ulps. A
/// support, a plane's height or a gap is a handful of products and sums of numbers up
/// to that size (rotating B's point, adding B's place, a difference, a dot product:
/// about 12 roundings of at most half an ulp each); the rest is margin.
pub const ROUND_OFF_PER_SIZE: f64 = 32.0 * f64::EPSILON;

/// How far round-off can move what a run computes from this pair's supports (a point of
/// `A ⊖ B`, a support plane's height, a gap, a depth), in lengths: a pair's size (the
/// shapes' extents about their origins, the distance between their origins and B's
/// motion) times [`ROUND_OFF_PER_SIZE`]. The runs' bounds are widened by it before they
/// are reported, so that a lower bound is a lower bound of the exact shapes' distance and
/// not only of the rounded supports' (two spheres 4.87e-8 apart at scale 1.2 came out
/// with a plane's gap 5e-17 above the exact distance).
pub fn pair_round_off(a: &Shape, b: &Shape, b_in_a: &RelativePose, sweep: DVec3) -> f64 {
    let size = b_in_a.translation.length() + sweep.length() + a.extent() + b.extent();
    if size.is_finite() {
        ROUND_OFF_PER_SIZE * size
    } else {
        0.0
    }
}

impl<'s> MinkowskiDifference<'s> {
    pub fn new(shape_a: &'s Shape, shape_b: &'s Shape, b_in_a: RelativePose) -> Self {
        Self {
            shape_a,
            shape_b,
            support_a: shape_a,
            support_b: shape_b,
            b_in_a,
            sweep: DVec3::ZERO,
            swept: false,
            cache_a: SupportCache::default(),
            cache_b: SupportCache::default(),
            calls: 0,
        }
    }

    /// The same difference calling `a` and `b` for supports: no dispatch per call. They
    /// must be the kinds inside `shape_a` and `shape_b` ([`crate::solver::run_gjk`]
    /// picks them).
    pub(crate) fn concrete<A: SupportMap, B: SupportMap>(
        self,
        a: &'s A,
        b: &'s B,
    ) -> MinkowskiDifference<'s, A, B> {
        MinkowskiDifference {
            shape_a: self.shape_a,
            shape_b: self.shape_b,
            support_a: a,
            support_b: b,
            b_in_a: self.b_in_a,
            sweep: self.sweep,
            swept: self.swept,
            cache_a: self.cache_a,
            cache_b: self.cache_b,
            calls: self.calls,
        }
    }
}

impl<'s, A: SupportMap, B: SupportMap> MinkowskiDifference<'s, A, B> {
    /// B swept by `sweep` (A's frame): the swept support `S_B(d) + (⟨d, sweep⟩ > 0 ?
    /// sweep : 0)` of Ericson §4, the segment's end that lies further along `d`.
    pub fn swept(mut self, sweep: DVec3) -> Self {
        self.sweep = sweep;
        self.swept = sweep != DVec3::ZERO;
        self
    }

    /// Hill climbing on A and B starts at these vertices (a previous query's
    /// [`SupportStats::last_vertices`]: the same pair at a nearby pose).
    pub fn starting_at(mut self, (vertex_a, vertex_b): (usize, usize)) -> Self {
        self.cache_a.last_vertex = vertex_a;
        self.cache_b.last_vertex = vertex_b;
        self.cache_a.hinted = true;
        self.cache_b.hinted = true;
        self
    }

    /// The round-off allowance of this pair's runs ([`pair_round_off`]).
    pub fn round_off(&self) -> f64 {
        pair_round_off(self.shape_a, self.shape_b, &self.b_in_a, self.sweep)
    }

    /// `S_D(dir) = S_A(dir) − S_B(−dir)`, counted as one solver support call.
    #[inline(always)]
    pub fn support(&mut self, dir: DVec3) -> CsoPoint {
        self.calls += 1;
        self.evaluate(dir)
    }

    /// The same support, for display only (the true Frank-Wolfe gap of accelerated
    /// runs): neither the call nor its vertex visits enter the statistics, and the
    /// warm starts stay as they were, so a traced run climbs exactly as an untraced one.
    pub fn support_uncounted(&mut self, dir: DVec3) -> CsoPoint {
        let (a, b) = (self.cache_a, self.cache_b);
        let p = self.evaluate(dir);
        // A departure still counts: the bounds it enters need the exact check.
        let departed = (self.cache_a.coal_departures - a.coal_departures)
            + (self.cache_b.coal_departures - b.coal_departures);
        (self.cache_a, self.cache_b) = (a, b);
        self.cache_a.coal_departures += departed;
        p
    }

    #[inline(always)]
    fn evaluate(&mut self, dir: DVec3) -> CsoPoint {
        let a = self.support_a.local_support_cached(dir, &mut self.cache_a);
        let dir_in_b = self.b_in_a.inverse_rotate(-dir);
        let b_local = self
            .support_b
            .local_support_cached(dir_in_b, &mut self.cache_b);
        let mut b = self.b_in_a.transform_point(b_local);
        // B's support along −dir: the swept end further along −dir.
        if self.swept && self.sweep.dot(-dir) > 0.0 {
            b += self.sweep;
        }
        CsoPoint { w: a - b, a, b }
    }

    /// `c_A − c_B` in A's frame: the "centre difference" initial guess.
    pub fn centre_difference(&self) -> DVec3 {
        let centre_b = self.b_in_a.transform_point(self.shape_b.local_centre()) + self.sweep * 0.5;
        self.shape_a.local_centre() - centre_b
    }

    /// `−t_B` in A's frame: the difference of the shapes' origins.
    pub fn origin_difference(&self) -> DVec3 {
        -self.b_in_a.translation
    }

    pub fn stats(&self) -> SupportStats {
        SupportStats {
            calls: self.calls,
            vertex_visits_a: self.cache_a.vertex_visits,
            vertex_visits_b: self.cache_b.vertex_visits,
            coal_departures: self.cache_a.coal_departures + self.cache_b.coal_departures,
            last_vertices: (self.cache_a.last_vertex, self.cache_b.last_vertex),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pose::Pose;
    use crate::shape::{Cuboid, Sphere};

    #[test]
    fn support_is_difference_of_parts_and_maximises_the_dot() {
        let a = Shape::Cuboid(Cuboid::new(DVec3::new(1.0, 2.0, 3.0)).unwrap());
        let b = Shape::Sphere(Sphere::new(0.5).unwrap());
        let pose_b =
            Pose::from_euler_degrees(DVec3::new(5.0, 0.0, 0.0), DVec3::new(0.0, 0.0, 30.0));
        let rel = RelativePose::between(&Pose::IDENTITY, &pose_b);
        let mut md = MinkowskiDifference::new(&a, &b, rel);
        let d = DVec3::new(1.0, 1.0, -1.0);
        let p = md.support(d);
        assert!((p.w - (p.a - p.b)).length() < 1e-15);
        // Closed form: box corner (1,2,-3) minus (sphere centre − 0.5 d̂).
        let expected =
            DVec3::new(1.0, 2.0, -3.0) - (DVec3::new(5.0, 0.0, 0.0) - d.normalize() * 0.5);
        assert!((p.w - expected).length() < 1e-12);
        assert_eq!(md.stats().calls, 1);
        md.support_uncounted(d);
        assert_eq!(md.stats().calls, 1);
    }
}
