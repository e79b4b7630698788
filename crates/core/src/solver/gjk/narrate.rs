//! GJK's steps in words: the support added, the simplex feature nearest the origin, the
//! vertices dropped, and why the run stopped.

use crate::printed_bound::{Above, Below};
use crate::solver::distance::narrate::StepWords;
use crate::solver::narration::subscript;
use crate::solver::{GjkEvent, GjkRecord, MomentumStop};

/// Says what `record` (step `index` of the run of method `name`) did.
pub fn narrate(name: &str, record: &GjkRecord, index: usize, from: usize) -> String {
    let r = &record.step;
    let words = StepWords::new(r, index, from);
    let (step, added) = (words.step, &words.added);
    let direction = if record.momentum {
        format!("the momentum direction −d{}", subscript(words.k))
    } else {
        words.direction()
    };
    match &record.event {
        GjkEvent::Projected { dropped, .. } => words.projected(
            format!("Step {step}: support point {added} in {direction} added"),
            dropped,
        ),
        GjkEvent::OriginEnclosed { .. } => words.origin_enclosed(&direction, "simplex"),
        GjkEvent::WithinTolerance => words.within_tolerance(),
        GjkEvent::MomentumStopped { cause } => {
            let why = match cause {
                MomentumStop::GapBelowTolerance => format!(
                    "the gap 2<x, x − s> = {:.2e} at the momentum support is below the tolerance",
                    Above(r.criteria.duality_gap)
                ),
                MomentumStop::ConvergenceTest => "the convergence test passed with momentum on".to_string(),
                MomentumStop::UnusableDirection => "the momentum direction became unusable".to_string(),
            };
            format!("Step {step}: momentum stopped ({why}); {added} discarded, continuing as plain GJK.")
        }
        GjkEvent::Converged => format!(
            "Step {step}: converged: {added} in {direction} brings no progress (gap {:.2e}); distance ∥x∥ = {:.9}.",
            Above(r.criteria.duality_gap), Above(r.x_norm)
        ),
        GjkEvent::SeparatingPlane => words.separating_plane(&direction),
        GjkEvent::Refined => format!(
            "Step {step}: the loop stopped on round-off: x recomputed from the shapes' points (∥x∥ = {:.9}) is not certified yet, so the run goes on with the precise projection.",
            Above(r.x_norm)
        ),
        GjkEvent::Stalled => format!(
            "Step {step}: {added} in {direction} is already in the simplex, yet the gap {:.2e} is above the tolerance: round-off, no further progress possible. Distance between {:.9} (plane) and {:.9} (∥x∥).",
            Above(r.criteria.duality_gap), Below(r.alpha.max(0.0)), Above(r.x_norm)
        ),
        GjkEvent::Degenerate => words.degenerate(name),
    }
}

#[cfg(test)]
mod tests {
    use crate::minkowski::MinkowskiDifference;
    use crate::pose::{Pose, RelativePose};
    use crate::shape::{Cuboid, Shape};
    use crate::solver::{solve_traced, Algorithm, DirectionRule, SolverSettings};
    use glam::DVec3;

    #[test]
    fn narrates_a_real_run_in_plain_words() {
        let a = Shape::Cuboid(Cuboid::new(DVec3::splat(0.5)).unwrap());
        let pose_b =
            Pose::from_euler_degrees(DVec3::new(1.4, 0.3, 0.2), DVec3::new(0.0, 0.0, 45.0));
        let md = MinkowskiDifference::new(&a, &a, RelativePose::between(&Pose::IDENTITY, &pose_b));
        let run = solve_traced(
            Algorithm::Gjk(DirectionRule::Vanilla),
            md,
            SolverSettings::default(),
        );
        let lines: Vec<String> = (0..run.trace.len()).map(|i| run.narrate(i)).collect();
        assert!(
            lines[0].starts_with(
                "Step 1: support point w₁ in direction −x₀ added; origin nearest vertex w₁"
            ),
            "{}",
            lines[0]
        );
        assert!(lines.iter().any(|l| l.contains("dropped")), "{lines:#?}");
        assert!(lines.last().unwrap().contains("converged"), "{lines:#?}");
    }

    #[test]
    fn narrates_momentum_stops() {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../../scenes/ellipsoids_close.ron");
        let scene = crate::scene::Scene::load(&path).unwrap();
        let run = scene.run(Algorithm::Gjk(DirectionRule::Nesterov));
        let lines: Vec<String> = (0..run.trace.len()).map(|i| run.narrate(i)).collect();
        assert!(
            lines
                .iter()
                .any(|l| l.contains("momentum stopped") && l.contains("continuing as plain GJK")),
            "{lines:#?}"
        );
        assert!(lines[1].contains("momentum direction"), "{}", lines[1]);
    }
}
