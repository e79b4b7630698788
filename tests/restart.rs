//! `nesterov_restart` (issue 15): on the paper's protocol it takes no more iterations
//! than GJK at any distance on ellipsoids (half as many or fewer near contact) and on
//! mesh hulls (far apart within 1 %), with the same certified distances.

mod common;

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
        let slack = 0.0;
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

/// The mesh-hull half of the protocol (hulls of the shared meshes with 100–1000
/// vertices): never above GJK but far apart, where a momentum step switched back on by
/// a crawling plain step costs an iteration on a few problems (within 1 %).
#[test]
fn restart_is_never_slower_than_gjk_on_mesh_hulls() {
    use collidescope::bench::protocol::mesh_problems;
    use collidescope::mesh_io::load_obj;
    use collidescope::shape::AffineDimension;
    let Some(dir) = common::shared_data("meshes") else {
        return;
    };
    let mut paths: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "obj"))
        .collect();
    paths.sort();
    let hulls: Vec<_> = paths
        .iter()
        .filter_map(|p| {
            let hull = load_obj(p).ok()?.polytope;
            let fits = hull.dimension() == AffineDimension::Solid
                && (100..=1000).contains(&hull.vertices().len());
            fits.then(|| (p.display().to_string(), hull))
        })
        .collect();
    assert!(
        hulls.len() >= 3,
        "{} usable hulls in {}",
        hulls.len(),
        dir.display()
    );
    let set = mesh_problems(&hulls, 80, 5, 1);
    let settings = SolverSettings {
        tolerance: 1e-8,
        criterion: Criterion::DualityGap,
        max_iterations: 1000,
        ..SolverSettings::default()
    };
    for target in SIGNED_DISTANCES {
        let (mut ours, mut plain, mut count) = (0usize, 0usize, 0usize);
        for p in set.problems.iter().filter(|p| p.target_distance == target) {
            let (a, b) = (&set.shapes[p.a], &set.shapes[p.b]);
            let run = |rule| {
                solve(
                    Algorithm::Gjk(rule),
                    MinkowskiDifference::new(a, b, p.b_in_a),
                    settings,
                )
                .iterations
            };
            ours += run(DirectionRule::NesterovRestart);
            plain += run(DirectionRule::Vanilla);
            count += 1;
        }
        let (ours, plain) = (ours as f64 / count as f64, plain as f64 / count as f64);
        let slack = if target >= 0.5 { 0.01 * plain } else { 0.0 };
        assert!(
            ours <= plain + slack,
            "target {target}: restart {ours:.3} > GJK {plain:.3}"
        );
    }
}
