//! Invariants every recorded iteration must satisfy (ALGORITHMS.md §2, §3, §13).

mod common;

use collidescope::minkowski::MinkowskiDifference;
use collidescope::pose::{Pose, RelativePose};
use collidescope::shape::Shape;
use collidescope::solver::distance::DistanceStep;
use collidescope::solver::trace::Trace;
use collidescope::solver::{
    solve_traced, Algorithm, Criterion, CriterionKind, DirectionRule, FrankWolfeRecord, GjkRecord,
    Outcome, SolverSettings,
};
use collidescope::DVec3;
use common::{mesh_hulls, random_primitive, Rng, PRIMITIVE_KINDS};

fn settings(tolerance: f64) -> SolverSettings {
    SolverSettings {
        tolerance,
        criterion: Criterion::DualityGap,
        kind: CriterionKind::Absolute,
        max_iterations: 300,
        ..SolverSettings::default()
    }
}

/// x* by a tight vanilla GJK run (‖x − x*‖ ≤ 1e-7), or zero when intersecting.
fn optimum(a: &Shape, b: &Shape, rel: RelativePose) -> Option<DVec3> {
    let run = solve_traced(
        Algorithm::Gjk(DirectionRule::Vanilla),
        MinkowskiDifference::new(a, b, rel),
        SolverSettings {
            max_iterations: 10_000,
            ..settings(1e-14)
        },
    );
    match run.summary.outcome {
        Outcome::Intersecting => Some(DVec3::ZERO),
        Outcome::Separated { .. } => steps(&run.trace).last().map(|(r, ..)| r.x),
        _ => None,
    }
}

/// Each record's distance step, event name and full active-set size.
fn steps(trace: &Trace) -> Vec<(&DistanceStep, &'static str, usize)> {
    if let Some(records) = trace.steps::<GjkRecord>() {
        records
            .iter()
            .map(|r| (&r.step, r.event.name(), r.step.simplex.len()))
            .collect()
    } else if let Some(records) = trace.steps::<FrankWolfeRecord>() {
        records
            .iter()
            .map(|r| (&r.step, r.event.name(), r.active_set_size))
            .collect()
    } else {
        panic!("not a distance trace")
    }
}

fn check_pair(a: &Shape, b: &Shape, rel: RelativePose, label: &str) {
    let Some(x_star) = optimum(a, b, rel) else {
        return;
    };
    for algorithm in Algorithm::ALL {
        let run = solve_traced(
            algorithm,
            MinkowskiDifference::new(a, b, rel),
            settings(1e-8),
        );
        let mut previous_alpha = 0.0f64;
        let mut previous_norm = f64::INFINITY;
        for (r, event, active_set_size) in steps(&run.trace) {
            assert!(
                r.x.is_finite() && r.fw_gap.is_finite(),
                "{label} {algorithm}: non-finite record {r:?}"
            );
            // Weights: ≥ 0 and summing to 1 over the whole recorded simplex or active set.
            if active_set_size == r.simplex.len() && !r.simplex.is_empty() {
                let sum: f64 = r.simplex.iter().map(|v| v.weight).sum();
                assert!(
                    (sum - 1.0).abs() < 1e-9,
                    "{label} {algorithm}: weights sum {sum}"
                );
            }
            assert!(
                r.simplex.iter().all(|v| v.weight >= 0.0),
                "{label} {algorithm}: negative weight"
            );
            // α never decreases.
            assert!(
                r.alpha >= previous_alpha,
                "{label} {algorithm}: α fell {previous_alpha} → {}",
                r.alpha
            );
            previous_alpha = r.alpha;
            // The Frank-Wolfe bound ‖x_k − x*‖² ≤ g_k at every iterate in A ⊖ B
            // (x* known to 1e-7, hence the slack).
            if r.x_in_difference() {
                let err = (r.x - x_star).length();
                assert!(
                    err <= r.fw_gap.max(0.0).sqrt() + 2e-7,
                    "{label} {algorithm} k={}: ‖x − x*‖ = {err:e} but √g = {:e}",
                    r.k,
                    r.fw_gap.max(0.0).sqrt()
                );
            }
            // ‖x_k‖ never increases for vanilla GJK. The last record holds the point
            // recomputed from the shapes' points, which may correct the loop's round-off
            // upwards (the loop's point can sit just outside A ⊖ B).
            let refined = matches!(event, "converged" | "stalled");
            let slack = if refined { 1e-8 } else { 1e-12 };
            if algorithm == Algorithm::Gjk(DirectionRule::Vanilla) && r.x_in_difference() {
                assert!(
                    r.x_norm <= previous_norm * (1.0 + slack) + 1e-15,
                    "{label}: ‖x‖ rose from {previous_norm} to {} ({})",
                    r.x_norm,
                    event
                );
                previous_norm = r.x_norm;
            }
        }
    }
}

#[test]
fn invariants_hold_on_random_primitive_pairs() {
    let mut rng = Rng::new(31);
    for i in 0..300 {
        let (ka, kb) = (rng.index(PRIMITIVE_KINDS), rng.index(PRIMITIVE_KINDS));
        let a = random_primitive(&mut rng, ka);
        let b = random_primitive(&mut rng, kb);
        let pose_b = Pose::new(rng.vector(1.5), rng.rotation());
        let rel = RelativePose::between(&Pose::IDENTITY, &pose_b);
        check_pair(
            &a,
            &b,
            rel,
            &format!("pair {i} ({} vs {})", a.kind_name(), b.kind_name()),
        );
    }
}

#[test]
fn invariants_hold_on_mesh_hulls() {
    let hulls = mesh_hulls();
    let mut rng = Rng::new(8);
    for (i, (name, a)) in hulls.iter().enumerate() {
        let (_, b) = &hulls[(i + 1) % hulls.len()];
        for _ in 0..3 {
            let pose_b = Pose::new(rng.unit_vector() * rng.range(0.6, 1.5), rng.rotation());
            check_pair(a, b, RelativePose::between(&Pose::IDENTITY, &pose_b), name);
        }
    }
}
