//! Frank-Wolfe's steps in words: the step toward the support (or away from the worst
//! active point) with its γ, the active set's size, and why the run stopped.

use crate::printed_bound::{Above, Below};
use crate::solver::narration::feature;
use crate::solver::narration::{and_list, subscript};
use crate::solver::{FrankWolfeEvent, FrankWolfeRecord};

/// Says what `record` (step `index` of the run of method `name`) did.
pub fn narrate(name: &str, record: &FrankWolfeRecord, index: usize) -> String {
    let step = index + 1;
    let r = &record.step;
    // `k` counts iterations after the step: a step that advanced it used x_{k−1}.
    let advanced = matches!(
        record.event,
        FrankWolfeEvent::Step { .. } | FrankWolfeEvent::Reoptimised { .. }
    );
    let k = if advanced { r.k.saturating_sub(1) } else { r.k };
    let direction = format!("direction −x{}", subscript(k));
    let added = r
        .support
        .map(|s| format!("w{}", crate::solver::narration::subscript(s.id as usize)))
        .unwrap_or_default();
    match &record.event {
        FrankWolfeEvent::Started { .. } => format!(
            "Step {step}: start at x₀ = {added}, the support point opposite the initial direction."
        ),
        FrankWolfeEvent::Step {
            gamma,
            away,
            dropped,
            ..
        } => {
            let mut s = if *away {
                format!("Step {step}: away step of γ = {gamma:.4} from the worst active point")
            } else {
                format!(
                    "Step {step}: Frank-Wolfe step of γ = {gamma:.4} toward support point {added}"
                )
            };
            if !dropped.is_empty() {
                s += &format!("; {} dropped from the active set", and_list(dropped));
            }
            s + &format!(
                " ({} active points, ∥x∥ = {:.6}).",
                record.active_set_size, Above(r.x_norm)
            )
        }
        FrankWolfeEvent::Reoptimised { dropped, .. } => {
            let kept: Vec<u32> = r.simplex.iter().map(|v| v.id).collect();
            let mut s = format!(
                "Step {step}: support point {added} in {direction} joins the active set, re-optimised over it (GJK's projection); {}",
                feature(&kept)
            );
            if !dropped.is_empty() {
                s += &format!("; {} dropped", and_list(dropped));
            }
            s + &format!(" (∥x∥ = {:.6}).", Above(r.x_norm))
        }
        FrankWolfeEvent::OriginEnclosed { .. } => format!(
            "Step {step}: support point {added} in {direction} added; the active set encloses the origin, so the shapes intersect."
        ),
        FrankWolfeEvent::WithinTolerance => format!(
            "Step {step}: ∥x∥ = {:.2e} is below the tolerance: the origin lies within it of A ⊖ B (Coal calls this a collision; it proves one only if points of A ⊖ B enclose the origin).",
            Above(r.x_norm)
        ),
        FrankWolfeEvent::Refined => format!(
            "Step {step}: the test passed, but round-off had moved x off A ⊖ B: recomputed from the shapes' points, ∥x∥ = {:.9} does not pass it. From here each re-optimisation tries every face from the shapes' points.",
            Above(r.x_norm)
        ),
        FrankWolfeEvent::Converged => format!(
            "Step {step}: converged: the duality gap at {added} is {:.2e}; distance ∥x∥ = {:.9}.",
            Above(r.criteria.duality_gap), Above(r.x_norm)
        ),
        FrankWolfeEvent::SeparatingPlane => format!(
            "Step {step}: the plane of {added} with normal along {direction} separates the shapes (ω = {:.6} > 0): no collision.",
            Below(r.omega)
        ),
        FrankWolfeEvent::Degenerate => {
            format!("Step {step}: the numbers stopped being finite; {name} stops here.")
        }
    }
}
