//! A B that also turns (Mirtich's bound on a turning body's closing speed; conservative advancement in `advancement.rs` uses it): B translates by
//! `t·v` and turns by the angle `t·|ω|` about `ω` through its own origin. A point of
//! B at distance `r` from that origin moves at most `|v·n| + |ω|·r` towards A along any unit `n`; with `r_B` the
//! largest such distance (a bound from B's bounding box), the gap `d` across the
//! separating plane cannot close before `d / (−n·v + |ω|·r_B)`. Step there, measure.
//!
//! There is no swept shape for a turning body, so no opening swept test: the answer
//! is `impact` (at the first time within the contact tolerance) or `no_impact` when the
//! steps pass t = 1, each certified contact-free; its `closest_distance` is the
//! smallest distance the probes measured, an upper bound of the closest approach (the
//! true one, between probes, may be smaller but is not zero).

/// The largest distance of B's points from B's origin, from its bounding box.
pub(super) fn reach(b: &crate::shape::Shape) -> f64 {
    let aabb = b.local_aabb();
    aabb.min.abs().max(aabb.max.abs()).length()
}
