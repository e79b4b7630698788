//! GJK's steps in words: the support added, the simplex feature nearest the origin, the
//! vertices dropped, and why the run stopped.

use crate::printed_bound::{Above, Below};
use crate::solver::narration::{and_list, feature, subscript};
use crate::solver::{GjkEvent, GjkRecord, MomentumStop};

/// Says what `record` (step `index` of the run of method `name`) did.
pub fn narrate(name: &str, record: &GjkRecord, index: usize) -> String {
    let step = index + 1;
    let r = &record.step;
    let kept: Vec<u32> = r.simplex.iter().map(|v| v.id).collect();
    // `k` counts iterations after the step: a step that advanced it used x_{k−1}.
    let advanced = matches!(record.event, GjkEvent::Projected { .. });
    let k = if advanced { r.k.saturating_sub(1) } else { r.k };
    let direction = if record.momentum {
        format!("the momentum direction −d{}", subscript(k))
    } else {
        format!("direction −x{}", subscript(k))
    };
    let added = r
        .support
        .map(|s| format!("w{}", crate::solver::narration::subscript(s.id as usize)))
        .unwrap_or_default();
    match &record.event {
        GjkEvent::Projected { dropped, .. } => {
            let mut s = format!("Step {step}: support point {added} in {direction} added; {}", feature(&kept));
            if !dropped.is_empty() {
                s += &format!("; {} dropped", and_list(dropped));
            }
            s + &format!(" (∥x∥ = {:.6}).", Above(r.x_norm))
        }
        GjkEvent::OriginEnclosed { .. } => format!(
            "Step {step}: support point {added} in {direction} added; the simplex encloses the origin, so the shapes intersect."
        ),
        GjkEvent::WithinTolerance => format!(
            "Step {step}: ∥x∥ = {:.2e} is below the tolerance: the origin lies within it of A ⊖ B (Coal calls this a collision; it proves one only if points of A ⊖ B enclose the origin).",
            Above(r.x_norm)
        ),
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
        GjkEvent::SeparatingPlane => format!(
            "Step {step}: the plane of {added} with normal along {direction} separates the shapes (ω = {:.6} > 0): no collision.",
            Below(r.omega)
        ),
        GjkEvent::Refined => format!(
            "Step {step}: the loop stopped on round-off: x recomputed from the shapes' points (∥x∥ = {:.9}) is not certified yet, so the run goes on with the precise projection.",
            Above(r.x_norm)
        ),
        GjkEvent::Stalled => format!(
            "Step {step}: {added} in {direction} is already in the simplex, yet the gap {:.2e} is above the tolerance: round-off, no further progress possible. Distance between {:.9} (plane) and {:.9} (∥x∥).",
            Above(r.criteria.duality_gap), Below(r.alpha.max(0.0)), Above(r.x_norm)
        ),
        GjkEvent::Degenerate => format!("Step {step}: the numbers stopped being finite; {name} stops here."),
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
