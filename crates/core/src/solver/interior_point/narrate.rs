//! The interior point's Newton steps in words: how far the points inside A and B moved,
//! how small the barrier parameter μ has become, and the certified bracket of the
//! distance that the step leaves.

use crate::printed_bound::{Above, Outward};
use crate::solver::family::RunView;
use crate::solver::interior_point::{IpRecord, IpStage};

/// Says what record `index` of an interior-point run did.
pub fn narrate(run: RunView<'_>, records: &[IpRecord], index: usize) -> String {
    let Some(r) = records.get(index) else {
        return format!(
            "No Newton step was recorded. Result: {}.",
            run.summary.outcome
        );
    };
    let end = if index + 1 == records.len() {
        format!(" Result: {}.", run.summary.outcome)
    } else {
        String::new()
    };
    let bracket = if r.lower > 0.0 {
        format!("the distance lies in {:.6e}", Outward(r.lower, r.upper))
    } else {
        format!(
            "the distance is at most {:.6e} (no lower bound yet)",
            Above(r.upper)
        )
    };
    if r.stage == IpStage::ContactTime {
        return format!(
            "First contact, step {}: a point inside A and inside B at t = {:.6} (B's ghost); the first contact lies in {:.9} (μ = {:.1e}).{end}",
            r.k, r.time, Outward(r.lower, r.upper), r.mu
        );
    }
    if r.time > 0.0 {
        return format!(
            "Newton step {}: x in A and y in B at t = {:.6} of B's motion (its ghost), {:.3e} apart; μ = {:.1e}; {bracket}.{end}",
            r.k, r.time, Above(r.upper), r.mu
        );
    }
    if r.k == 0 {
        return format!(
            "Start: x inside A and y inside B (found by phase 1), {:.3e} apart; μ = {:.1e}.{end}",
            Above(r.upper),
            r.mu
        );
    }
    format!(
        "Newton step {}: x and y move {:.0} % of the way (both stay strictly inside their bodies); μ = {:.1e}, dual residual {:.1e}; {bracket}; {} constraint(s) hold them apart.{end}",
        r.k,
        100.0 * r.step,
        r.mu,
        r.dual_residual,
        r.active.len()
    )
}
