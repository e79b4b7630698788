//! What GJK's and Frank-Wolfe's sentences share, written once for both: the step's
//! number, the direction it used and the support it added, the sentences of the events
//! both families have (a projection onto the kept points, an enclosed origin, an iterate
//! within the tolerance, a separating plane, numbers that stopped being finite), and the
//! verdict at the end of a run that stops on its test. Each family's `narrate.rs` says
//! its own events with these.

use crate::printed_bound::{Above, Below};
use crate::solver::family::RunView;
use crate::solver::narration::{and_list, feature, subscript};

use super::step::DistanceStep;

/// The parts of a distance step's sentence.
pub struct StepWords<'r> {
    /// The step's number (from 1).
    pub step: usize,
    /// The number of the iterate that chose the direction: the one the step before
    /// made (step k makes x_k, whatever the iteration counter did on a step that
    /// advanced nothing, such as Nesterov's momentum stop).
    pub k: usize,
    /// The support added, as `w₅` (empty when the step took none).
    pub added: String,
    pub r: &'r DistanceStep,
}

impl<'r> StepWords<'r> {
    /// The words of `r`, step `index` (from 0) of its run, whose direction came from
    /// the iterate named x_`from`.
    pub fn new(r: &'r DistanceStep, index: usize, from: usize) -> Self {
        let k = from;
        let added = r
            .support
            .map(|s| format!("w{}", subscript(s.id as usize)))
            .unwrap_or_default();
        Self {
            step: index + 1,
            k,
            added,
            r,
        }
    }

    /// `direction −x_k`.
    pub fn direction(&self) -> String {
        format!("direction −x{}", subscript(self.k))
    }

    /// `head` (how the support came in), then the kept points' feature nearest the
    /// origin, the points dropped, and the new norm.
    pub fn projected(&self, head: String, dropped: &[u32]) -> String {
        let kept: Vec<u32> = self.r.simplex.iter().map(|v| v.id).collect();
        let mut s = format!("{head}; {}", feature(&kept));
        if !dropped.is_empty() {
            s += &format!("; {} dropped", and_list(dropped));
        }
        s + &format!(" (∥x∥ = {:.6}).", Above(self.r.x_norm))
    }

    /// The support in `direction` made `set` (the simplex, the active set) enclose the
    /// origin.
    pub fn origin_enclosed(&self, direction: &str, set: &str) -> String {
        let (step, added) = (self.step, &self.added);
        format!(
            "Step {step}: support point {added} in {direction} added; the {set} encloses the origin, so the shapes intersect."
        )
    }

    /// `‖x‖` fell below the tolerance.
    pub fn within_tolerance(&self) -> String {
        let step = self.step;
        format!(
            "Step {step}: ∥x∥ = {:.2e} is below the tolerance: the origin lies within it of A ⊖ B (Coal calls this a collision; it proves one only if points of A ⊖ B enclose the origin).",
            Above(self.r.x_norm)
        )
    }

    /// Boolean mode: the support's plane separates the shapes.
    pub fn separating_plane(&self, direction: &str) -> String {
        let (step, added) = (self.step, &self.added);
        format!(
            "Step {step}: the plane of {added} with normal along {direction} separates the shapes (ω = {:.6} > 0): no collision.",
            Below(self.r.omega)
        )
    }

    /// The run of method `name` stops on numbers that are not finite.
    pub fn degenerate(&self, name: &str) -> String {
        let step = self.step;
        format!("Step {step}: the numbers stopped being finite; {name} stops here.")
    }
}

/// A distance step's sentence, with the run's verdict when the step ended the run on
/// its stopping test: the test alone proves neither separation nor overlap.
pub fn verdict(run: RunView<'_>, ends_on_test: bool, line: String) -> String {
    if ends_on_test {
        format!("{line} Verdict: {}.", run.summary.outcome)
    } else {
        line
    }
}
