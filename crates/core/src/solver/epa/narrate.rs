//! EPA's steps in words: which face is nearest and how far, what the support along its
//! normal gained, and what the expansion removed and added.

use crate::printed_bound::{Above, Below};
use crate::solver::epa::EpaEvent;
use crate::solver::epa::EpaTrace;
use crate::solver::family::RunView;
use crate::solver::Outcome;

/// The polytope's vertices as `w1, w2, ...` (1-based, in the order EPA added them).
fn face_label(face: &[usize; 3]) -> String {
    format!(
        "[w{} w{} w{}]",
        crate::solver::narration::subscript(face[0] + 1),
        crate::solver::narration::subscript(face[1] + 1),
        crate::solver::narration::subscript(face[2] + 1)
    )
}

/// Says what EPA's record `index` did, or what the run ended with.
pub fn narrate(run: RunView<'_>, trace: &EpaTrace, index: usize) -> String {
    let outcome = &run.summary.outcome;
    let Some(r) = trace.records.get(index) else {
        let gjk_stage = run
            .extras::<super::EpaExtras>()
            .and_then(|e| e.gjk_stage.as_ref());
        let why = match gjk_stage.map(|g| &g.outcome) {
            Some(Outcome::Intersecting) => "the starting polytope was certified at once",
            // GJK could not decide; EPA's start was flat or could not enclose the origin,
            // and the supports along the boundary face's normal decided.
            Some(Outcome::Contact { .. }) => {
                "GJK ended within its tolerance of the origin with no proof either way; EPA \
                 found the origin on a face it cannot push past, and the support along that \
                 face's normal decides: on the origin's plane within round-off (touching) or \
                 clearly below it (a separating plane)"
            }
            Some(Outcome::Separated { .. } | Outcome::Stalled { .. }) => {
                "GJK proved the shapes apart with a separating plane (for spheres and \
                 capsules: their cores, the radii then added), so there is no depth"
            }
            Some(_) => "GJK's answer stands",
            None => {
                "the contact has a closed form (a sphere's core is a point: against a point or \
                 a segment its nearest points, against a box the box's faces; two boxes: the \
                 separating axes, whose smallest overlap is the depth, within round-off \
                 a touch once a point of each box is found that close, and whose largest gap \
                 is the distance once a vertex on a face or two crossing edges realise it), \
                 and the radii were added. To watch EPA expand on boxes, untick the closed \
                 forms in EPA's settings"
            }
        };
        return format!("No expansion: {why}. Result: {outcome}.");
    };
    let step = index + 1;
    let face = face_label(&r.nearest);
    match r.event {
        EpaEvent::Start | EpaEvent::Expanded => format!(
            "Step {step}: face {face} nearest at {:.6}; the support along its normal reaches {:.6}, \
             a gain of {:.3e} > ε: expand; {} removed, {} added ({} faces now).",
            Below(r.nearest_distance),
            Above(r.support_distance),
            Above(r.gain),
            faces(r.faces_removed),
            r.faces_added,
            r.faces.len() - r.faces_removed + r.faces_added
        ),
        EpaEvent::Converged => format!(
            "Step {step}: face {face} nearest at {:.9}; the support along its normal gains {:.2e} ≤ ε: \
             certified. Depth in [{:.9}, {:.9}]; result: {}.",
            Below(r.nearest_distance), Above(r.gain), Below(r.nearest_distance), Above(r.support_distance), outcome
        ),
        EpaEvent::Accepted => format!(
            "Step {step}: iteration cap reached with the depth in [{:.9}, {:.9}] (the nearest face, the best support plane): within the acceptable bracket, so that is the answer; result: {}.",
            Below(r.nearest_distance), Above(r.support_distance), outcome
        ),
        EpaEvent::IterationCap => format!(
            "Step {step}: iteration cap reached with the depth between {:.6} and {:.6}: no answer.",
            Below(r.nearest_distance), Above(r.support_distance)
        ),
    }
}

/// "1 face", "3 faces".
fn faces(n: usize) -> String {
    if n == 1 {
        "1 face".to_string()
    } else {
        format!("{n} faces")
    }
}

#[cfg(test)]
mod tests {
    use crate::pose::RelativePose;
    use crate::shape::{Cuboid, Shape};
    use crate::solver::{Method, SolverSettings};
    use glam::{DMat3, DQuat, DVec3};

    #[test]
    fn narrates_expansions_and_the_certified_end() {
        let a = Shape::Cuboid(Cuboid::new(DVec3::new(0.6, 0.4, 0.3)).unwrap());
        let b = Shape::Cuboid(Cuboid::new(DVec3::new(0.5, 0.2, 0.35)).unwrap());
        let rotation = DMat3::from_quat(DQuat::from_euler(glam::EulerRot::XYZ, 0.3, 0.6, 0.2));
        // EPA's own expansions (two boxes have a closed form by default).
        let mut expanding = SolverSettings::default();
        expanding.epa.closed_forms = false;
        let run = Method::epa().run(
            &a,
            &b,
            RelativePose::from_matrix(rotation, DVec3::ZERO),
            None,
            expanding,
            true,
        );
        assert!(run.trace.len() > 2);
        let first = run.narrate(0);
        assert!(
            first.contains("nearest at") && first.contains("expand"),
            "{first}"
        );
        let last = run.narrate(run.trace.len() - 1);
        assert!(
            last.contains("certified") && last.contains("penetrating"),
            "{last}"
        );
    }
}
