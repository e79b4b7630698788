//! One sentence per step, in words a student understands: what was added, which
//! feature of the simplex is nearest the origin, what was dropped and why.

use crate::solver::Algorithm;
use crate::trace::{IterationRecord, MomentumStop, StepEvent};

fn subscript(n: usize) -> String {
    const DIGITS: [char; 10] = ['₀', '₁', '₂', '₃', '₄', '₅', '₆', '₇', '₈', '₉'];
    n.to_string()
        .chars()
        .map(|c| DIGITS[c.to_digit(10).unwrap_or(0) as usize])
        .collect()
}

fn labels(ids: &[u32]) -> String {
    ids.iter()
        .map(|i| format!("w{i}"))
        .collect::<Vec<_>>()
        .join(" ")
}

fn and_list(ids: &[u32]) -> String {
    let names: Vec<String> = ids.iter().map(|i| format!("w{i}")).collect();
    match names.len() {
        0 => String::new(),
        1 => names[0].clone(),
        n => format!("{} and {}", names[..n - 1].join(", "), names[n - 1]),
    }
}

/// The nearest feature of the kept simplex, as a phrase.
fn feature(ids: &[u32]) -> String {
    match ids.len() {
        1 => format!("origin nearest vertex {}", labels(ids)),
        2 => format!("origin nearest edge [{}]", labels(ids)),
        3 => format!("origin nearest face [{}]", labels(ids)),
        _ => format!("simplex [{}]", labels(ids)),
    }
}

/// Says what `record` (step `index` of `algorithm`'s run) did.
pub fn narrate(algorithm: Algorithm, record: &IterationRecord, index: usize) -> String {
    let step = index + 1;
    let kept: Vec<u32> = record.simplex.iter().map(|v| v.id).collect();
    // `record.k` counts iterations after the step: a step that advanced it used x_{k−1}.
    let advanced = matches!(
        record.event,
        StepEvent::Projected { .. } | StepEvent::FrankWolfeStep { .. }
    );
    let k = if advanced {
        record.k.saturating_sub(1)
    } else {
        record.k
    };
    let direction = if record.momentum {
        format!("the momentum direction −d{}", subscript(k))
    } else {
        format!("direction −x{}", subscript(k))
    };
    let added = record
        .support
        .map(|s| format!("w{}", s.id))
        .unwrap_or_default();
    match &record.event {
        StepEvent::Started { .. } => format!(
            "Step {step}: start at x₀ = {added}, the support point opposite the initial direction."
        ),
        StepEvent::Projected { dropped, .. } => {
            let mut s = format!("Step {step}: support point {added} in {direction} added; {}", feature(&kept));
            if !dropped.is_empty() {
                s += &format!("; {} dropped", and_list(dropped));
            }
            s + &format!(" (|x| = {:.6}).", record.x_norm)
        }
        StepEvent::OriginEnclosed { .. } => format!(
            "Step {step}: support point {added} in {direction} added; the simplex encloses the origin, so the shapes intersect."
        ),
        StepEvent::WithinTolerance => format!(
            "Step {step}: |x| = {:.2e} is below the tolerance: the origin touches A − B, counted as contact.",
            record.x_norm
        ),
        StepEvent::MomentumStopped { cause } => {
            let why = match cause {
                MomentumStop::GapBelowTolerance => format!(
                    "the gap 2<x, x − s> = {:.2e} at the momentum support is below the tolerance",
                    record.criteria.duality_gap
                ),
                MomentumStop::ConvergenceTest => "the convergence test passed with momentum on".to_string(),
                MomentumStop::UnusableDirection => "the momentum direction became unusable".to_string(),
            };
            format!("Step {step}: momentum stopped ({why}); {added} discarded, continuing as plain GJK.")
        }
        StepEvent::Converged => format!(
            "Step {step}: converged: {added} in {direction} brings no progress (gap {:.2e}); distance |x| = {:.9}.",
            record.criteria.duality_gap, record.x_norm
        ),
        StepEvent::SeparatingPlane => format!(
            "Step {step}: the plane of {added} with normal along {direction} separates the shapes (ω = {:.6} > 0): no collision.",
            record.omega
        ),
        StepEvent::FrankWolfeStep { gamma, away, dropped, .. } => {
            let mut s = if *away {
                format!("Step {step}: away step of γ = {gamma:.4} from the worst active point")
            } else {
                format!("Step {step}: Frank-Wolfe step of γ = {gamma:.4} toward support point {added}")
            };
            if !dropped.is_empty() {
                s += &format!("; {} dropped from the active set", and_list(dropped));
            }
            s + &format!(" ({} active points, |x| = {:.6}).", record.active_set_size, record.x_norm)
        }
        StepEvent::Refined => format!(
            "Step {step}: the loop stopped on round-off: x recomputed from the shapes' points (|x| = {:.9}) is not certified yet, so the run goes on with the precise projection.",
            record.x_norm
        ),
        StepEvent::Stalled => format!(
            "Step {step}: {added} in {direction} is already in the simplex, yet the gap {:.2e} is above the tolerance: round-off, no further progress possible. Distance between {:.9} (plane) and {:.9} (|x|).",
            record.criteria.duality_gap, record.alpha.max(0.0), record.x_norm
        ),
        StepEvent::Degenerate => format!("Step {step}: the numbers stopped being finite; {} stops here.", algorithm.name()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::minkowski::MinkowskiDifference;
    use crate::pose::{Pose, RelativePose};
    use crate::shape::{Cuboid, Shape};
    use crate::solver::{solve, DirectionRule, SolverSettings};
    use glam::DVec3;

    #[test]
    fn narrates_a_real_run_in_plain_words() {
        let a = Shape::Cuboid(Cuboid::new(DVec3::splat(0.5)).unwrap());
        let pose_b =
            Pose::from_euler_degrees(DVec3::new(1.4, 0.3, 0.2), DVec3::new(0.0, 0.0, 45.0));
        let md = MinkowskiDifference::new(&a, &a, RelativePose::between(&Pose::IDENTITY, &pose_b));
        let run = solve(
            Algorithm::Gjk(DirectionRule::Vanilla),
            md,
            SolverSettings::default(),
        );
        let lines: Vec<String> = run
            .trace
            .iter()
            .enumerate()
            .map(|(i, r)| narrate(run.algorithm, r, i))
            .collect();
        assert!(
            lines[0].starts_with(
                "Step 1: support point w1 in direction −x₀ added; origin nearest vertex w1"
            ),
            "{}",
            lines[0]
        );
        assert!(lines.iter().any(|l| l.contains("dropped")), "{lines:#?}");
        assert!(lines.last().unwrap().contains("converged"), "{lines:#?}");
    }

    #[test]
    fn narrates_momentum_stops() {
        let path =
            std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("scenes/ellipsoids_close.ron");
        let scene = crate::scene::Scene::load(&path).unwrap();
        let run = scene.run(Algorithm::Gjk(DirectionRule::Nesterov));
        let lines: Vec<String> = run
            .trace
            .iter()
            .enumerate()
            .map(|(i, r)| narrate(run.algorithm, r, i))
            .collect();
        assert!(
            lines
                .iter()
                .any(|l| l.contains("momentum stopped") && l.contains("continuing as plain GJK")),
            "{lines:#?}"
        );
        assert!(lines[1].contains("momentum direction"), "{}", lines[1]);
    }
}
