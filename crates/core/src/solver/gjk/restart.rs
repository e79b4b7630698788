//! The restart rule's policy (`nesterov_restart`): which pairs get momentum,
//! when it stops for good, when it restarts. Nesterov with adaptive restart after
//! O'Donoghue and Candès, "Adaptive Restart for Accelerated Gradient Schemes", on GJK's
//! certificate gap ‖x‖ − α; the thresholds were measured on this project's benchmarks
//! (docs/algorithms.md, "Accelerated GJK").

use crate::shape::Shape;

/// After the first step, a relative certificate gap below this means "far apart".
pub const FAR_RELATIVE_GAP: f64 = 0.1;
/// The same on polytopal pairs, where plain GJK ends exactly after few steps and
/// normalised momentum pays off only near contact (its last, discarded support costs
/// more than it saves already at distance 0.5 below 0.8).
pub const FAR_RELATIVE_GAP_FLAT: f64 = 0.8;
/// A first support plane this far beyond the origin (as a fraction of ‖x‖ after the
/// first step) means "deep overlap": the origin is well inside A ⊖ B, where plain GJK
/// encloses it in a few steps and momentum only delays.
pub const DEEP_OVERLAP_RATIO: f64 = 0.3;
/// On polytopal pairs, "deep overlap" when the origin lies deeper than this fraction of
/// the way from the first support plane to the centres' difference (along the first
/// direction). The angle test above mistakes slight overlaps of small hulls for near
/// contact, and normalised momentum delays their enclosure.
pub const DEEP_OVERLAP_DEPTH_FLAT: f64 = 0.05;
/// Polytopes with at most this many vertices each (boxes, tetrahedra, prisms) are
/// "small": plain GJK ends on them in a few steps, and `NesterovRestart` runs it.
pub const SMALL_POLYTOPE_VERTICES: usize = 16;
/// On curved shapes, a momentum step keeping more than this fraction of the gap
/// restarts the momentum.
pub const MOMENTUM_SLOW_RATIO: f64 = 0.7;
/// On curved shapes, a plain step keeping more than this fraction of the gap switches
/// momentum on.
pub const PLAIN_SLOW_RATIO: f64 = 0.7;

/// What `NesterovRestart` makes of a pair (see [`DirectionRule::NesterovRestart`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum PairKind {
    /// Both strictly convex (spheres, ellipsoids, points).
    Curved,
    /// Both polytopal (polytopes, boxes, points), not both small: every face flat.
    Flat,
    /// Where momentum does not pay, so plain GJK: curved and flat parts (capsules,
    /// cylinders, cones, dilated and implicit shapes, a box against an ellipsoid), or
    /// two small polytopes.
    Plain,
}

impl PairKind {
    pub(super) fn of(a: &Shape, b: &Shape) -> Self {
        if a.is_strictly_convex() && b.is_strictly_convex() {
            PairKind::Curved
        } else if a.is_polytopal() && b.is_polytopal() {
            let small = |s: &Shape| {
                s.vertex_count()
                    .is_some_and(|n| n <= SMALL_POLYTOPE_VERTICES)
            };
            if small(a) && small(b) {
                PairKind::Plain
            } else {
                PairKind::Flat
            }
        } else {
            PairKind::Plain
        }
    }
}

/// What `NesterovRestart` does on this pair, in words (the viewer and `solve` show it
/// beside the run, so that a run identical to GJK's is not a surprise).
pub fn restart_plan(a: &Shape, b: &Shape) -> &'static str {
    match PairKind::of(a, b) {
        PairKind::Curved => "curved pair: Nesterov's momentum with restarts",
        PairKind::Flat => "polytopes: normalised momentum",
        PairKind::Plain => {
            "plain GJK on this pair (curved and flat parts, or two small polytopes: momentum does not pay there)"
        }
    }
}

/// What the restart rule remembers of a run.
#[derive(Clone, Copy, Debug)]
pub(super) struct Restart {
    /// Which of its three rules the pair gets (unread by the other rules).
    pub pair: PairKind,
    /// The step at which momentum (re)started: δ counts from it.
    pub momentum_from: usize,
    /// The lower bound α before the last step (for its gap ratio).
    pub previous_alpha: f64,
    /// The first step's plane offset ω₀, negative when the plane lies beyond the origin.
    pub first_plane: f64,
    /// The offset of the centres' difference along the first direction (how deep the
    /// origin is, relative to the difference's extent; read on polytopal pairs only).
    pub first_centre_offset: f64,
}

/// What the restart rule makes of the step just taken.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Adapt {
    Keep,
    /// Plain GJK to the end (deep inside, or far apart on polytopes).
    PlainToTheEnd,
    /// Plain steps, until they crawl (far apart on curved shapes).
    PlainForNow,
    /// Momentum from the start again.
    Restart,
}

impl Restart {
    pub fn new(pair: PairKind) -> Self {
        Self {
            pair,
            momentum_from: 0,
            previous_alpha: 0.0,
            first_plane: 0.0,
            first_centre_offset: 0.0,
        }
    }

    /// After a projection at step `k` that took the certificate gap from
    /// `previous_gap` to `r − alpha`, by a momentum step or not (see
    /// `DirectionRule::NesterovRestart`); `stopped`: momentum ended for good already.
    pub fn adapt(
        &self,
        k: usize,
        r: f64,
        alpha: f64,
        previous_gap: f64,
        momentum: bool,
        stopped: bool,
    ) -> Adapt {
        if stopped || self.pair == PairKind::Plain {
            return Adapt::Keep; // momentum ended for good, or never had a place
        }
        let gap = (r - alpha).max(0.0);
        // "The step kept more than this share of the gap", without a division.
        let kept_more_than = |share: f64| previous_gap > 0.0 && gap > share * previous_gap;
        let far_ratio = match self.pair {
            PairKind::Flat => FAR_RELATIVE_GAP_FLAT,
            PairKind::Curved | PairKind::Plain => FAR_RELATIVE_GAP,
        };
        let far = k == 1 && r > 0.0 && gap <= far_ratio * r;
        let deep = k == 1 && self.deep_overlap(r);
        if deep || (far && self.pair == PairKind::Flat) {
            // Deep inside, or far apart on polytopes: plain GJK to the end
            // (deep inside its steps may keep much of ‖x‖ while the simplex grows around
            // the origin; on flat parts a slow plain step walks across faces toward the
            // exact end, which momentum does not speed up).
            Adapt::PlainToTheEnd
        } else if self.pair == PairKind::Flat {
            // Polytopes: no restarts (see `DirectionRule::NesterovRestart`).
            Adapt::Keep
        } else if far {
            // Far apart on curved shapes: plain GJK steps (momentum comes back only if
            // they crawl, as on a curved surface they can).
            Adapt::PlainForNow
        } else if (momentum && kept_more_than(MOMENTUM_SLOW_RATIO))
            || (!momentum && kept_more_than(PLAIN_SLOW_RATIO))
        {
            Adapt::Restart
        } else {
            Adapt::Keep
        }
    }

    /// The first support plane says "deep overlap" (see
    /// `DirectionRule::NesterovRestart`), with ‖x‖ = `r` after the first step.
    fn deep_overlap(&self, r: f64) -> bool {
        let depth = -self.first_plane;
        // The extent from the plane to the centres' difference is ≥ 0 (the centre lies
        // in A ⊖ B); written without a division.
        let deep_along_centres =
            depth > 0.0 && depth > DEEP_OVERLAP_DEPTH_FLAT * (self.first_centre_offset + depth);
        let deep_by_angle = depth > DEEP_OVERLAP_RATIO * r;
        match self.pair {
            PairKind::Flat => deep_along_centres,
            PairKind::Curved | PairKind::Plain => deep_by_angle,
        }
    }
}
