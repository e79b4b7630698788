//! EPA's steps in words: which face is nearest and how far, what the support along its
//! normal gained, and what the expansion removed and added.

use crate::solver::epa::{EpaEvent, EpaRun};

/// The polytope's vertices as `w1, w2, ...` (1-based, in the order EPA added them).
fn face_label(face: &[usize; 3]) -> String {
    format!("[w{} w{} w{}]", face[0] + 1, face[1] + 1, face[2] + 1)
}

/// Says what EPA's record `index` did, or what the run ended with.
pub fn narrate_epa(run: &EpaRun, index: usize) -> String {
    let Some(r) = run.records.get(index) else {
        return format!("No expansion to show: {}.", run.outcome);
    };
    let step = index + 1;
    let face = face_label(&r.nearest);
    match r.event {
        EpaEvent::Start | EpaEvent::Expanded => format!(
            "Step {step}: face {face} nearest at {:.6}; the support along its normal reaches {:.6}, \
             a gain of {:.3e} > ε: expand; {} faces removed, {} added ({} faces now).",
            r.nearest_distance,
            r.support_distance,
            r.gain,
            r.faces_removed,
            r.faces_added,
            r.faces.len() - r.faces_removed + r.faces_added
        ),
        EpaEvent::Converged => format!(
            "Step {step}: face {face} nearest at {:.9}; the support along its normal gains {:.2e} ≤ ε: \
             certified. Depth in [{:.9}, {:.9}]; result: {}.",
            r.nearest_distance, r.gain, r.nearest_distance, r.support_distance, run.outcome
        ),
        EpaEvent::IterationCap => format!(
            "Step {step}: iteration cap reached with the depth between {:.6} and {:.6}: no answer.",
            r.nearest_distance, r.support_distance
        ),
    }
}
