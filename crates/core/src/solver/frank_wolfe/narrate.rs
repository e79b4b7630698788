//! Frank-Wolfe's steps in words: the step toward the support (or away from the worst
//! active point) with its γ, the active set's size, and why the run stopped.

use crate::printed_bound::Above;
use crate::solver::distance::narrate::StepWords;
use crate::solver::narration::and_list;
use crate::solver::{FrankWolfeEvent, FrankWolfeRecord};

/// Says what `record` (step `index` of the run of method `name`) did.
pub fn narrate(name: &str, record: &FrankWolfeRecord, index: usize, from: usize) -> String {
    let r = &record.step;
    let words = StepWords::new(r, index, from);
    let (step, added) = (words.step, &words.added);
    let direction = words.direction();
    match &record.event {
        FrankWolfeEvent::Started { .. } => format!(
            "Step {step}: start at x₁ = {added}, the support point in {direction} (x₀: the initial direction)."
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
        FrankWolfeEvent::Reoptimised { dropped, .. } => words.projected(
            format!(
                "Step {step}: support point {added} in {direction} joins the active set, re-optimised over it (GJK's projection)"
            ),
            dropped,
        ),
        FrankWolfeEvent::OriginEnclosed { .. } => words.origin_enclosed(&direction, "active set"),
        FrankWolfeEvent::WithinTolerance => words.within_tolerance(),
        FrankWolfeEvent::Refined => format!(
            "Step {step}: the test passed, but round-off had moved x off A ⊖ B: recomputed from the shapes' points, ∥x∥ = {:.9} does not pass it. From here each re-optimisation tries every face from the shapes' points.",
            Above(r.x_norm)
        ),
        FrankWolfeEvent::Converged => format!(
            "Step {step}: converged: the duality gap with {added} in {direction} is {:.2e}; distance ∥x∥ = {:.9}.",
            Above(r.criteria.duality_gap), Above(r.x_norm)
        ),
        FrankWolfeEvent::SeparatingPlane => words.separating_plane(&direction),
        FrankWolfeEvent::Degenerate => words.degenerate(name),
    }
}
