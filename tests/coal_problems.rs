//! Our GJK family against Coal's answers stored in the shared problem files.

mod common;

use std::collections::BTreeMap;

use collidescope::bench::problems::{run_problems, ProblemFile};
use collidescope::solver::TetrahedronRule;
use common::shared_data;

fn coal_status(status: &str) -> &'static str {
    match status {
        "Collision" | "CollisionWithPenetrationInformation" => "intersecting",
        "NoCollision" => "separated",
        "Failed" => "iteration_cap",
        _ => "unknown",
    }
}

fn check_file(name: &str) {
    let Some(dir) = shared_data("problems") else {
        return;
    };
    let file = ProblemFile::load(&dir.join(name)).unwrap();
    let results = run_problems(&file, false, TetrahedronRule::RegionTree, &[]).unwrap();
    let root_eps = file.settings.tolerance.sqrt();
    for alg in ["gjk", "nesterov", "nesterov_normalized"] {
        let mut equal = 0;
        let mut ours_by_d: BTreeMap<String, Vec<f64>> = BTreeMap::new();
        let mut coal_by_d: BTreeMap<String, Vec<f64>> = BTreeMap::new();
        for (p, r) in file.problems.iter().zip(&results) {
            let mine = &r.algorithms[alg];
            let coal = &p.coal[alg];
            equal += usize::from(mine.iterations == coal.iterations);
            let key = format!("{}", p.target_distance);
            ours_by_d
                .entry(key.clone())
                .or_default()
                .push(mine.iterations as f64);
            coal_by_d
                .entry(key)
                .or_default()
                .push(coal.iterations as f64);
            // Coal's "NoCollision" is its stopping test, which bounds the distance from
            // above only: where no separating plane backs it we say `contact`, or
            // `intersecting` where points of A ⊖ B enclose the origin after all (an
            // absolute test passes once ‖x‖ is small, on either side of the boundary:
            // pairs overlapping by 1e-4). Its "Collision" may be check A, which proves
            // nothing alone. Our proofs must agree with the pose the file built.
            let theirs = coal_status(&coal.status);
            let agrees = match mine.status.as_str() {
                "separated" => theirs == "separated" && p.target_distance > 0.0,
                "intersecting" => theirs == "intersecting" || p.target_distance < 0.0,
                "contact" => theirs != "iteration_cap",
                other => other == theirs,
            };
            assert!(
                agrees,
                "{name} problem {} {alg}: ours {}, Coal {theirs}, target {}",
                r.index, mine.status, p.target_distance
            );
            if mine.status == "separated" || (mine.status == "contact" && theirs == "separated") {
                // Equal counts: the same iterate, so round-off only. Otherwise both are
                // within √ε of the optimum (../shared/data/problems/README.md).
                let bound = if mine.iterations == coal.iterations {
                    1e-9
                } else {
                    2.0 * root_eps + 1e-9
                };
                let d = mine.distance.unwrap();
                assert!(
                    (d - coal.distance).abs() <= bound * coal.distance.max(1.0),
                    "{name} problem {} {alg}: {d} vs Coal {}",
                    r.index,
                    coal.distance
                );
            }
        }
        let share = equal as f64 / results.len() as f64;
        if alg == "gjk" {
            assert!(
                share >= 0.9,
                "{name}: only {:.1}% of gjk counts equal Coal's",
                share * 100.0
            );
        }
        for (d, ours) in &ours_by_d {
            let mean = |v: &[f64]| v.iter().sum::<f64>() / v.len() as f64;
            let (mo, mc) = (mean(ours), mean(&coal_by_d[d]));
            assert!(
                (mo - mc).abs() <= 0.1 * mc.max(1.0),
                "{name} {alg} at distance {d}: mean {mo:.2} vs Coal {mc:.2}"
            );
        }
        eprintln!("{name} {alg}: {:.1}% equal iteration counts", share * 100.0);
    }
}

#[test]
fn ellipsoid_problems_match_coal() {
    check_file("ellipsoids_sample.json");
}

#[test]
fn mesh_problems_match_coal() {
    check_file("meshes_sample.json");
}

/// Problems where the last bit decides, written by `benches/coal_mesh_problems.py`
/// (seeds 3-8, Coal 3.0.3) and kept where two support vertices of a hull tie to within
/// one rounding, or exactly (lattice points): until B's points were rounded as Coal's
/// Eigen rounds `R p + t` (`RelativePose::transform_point`) and tied tops were climbed
/// as Coal climbs them (`shape/coal_climb.rs`), each of these ended one iteration off
/// Coal's. Every count must equal Coal's here.
#[test]
fn rounding_ties_resolve_as_coal_resolves_them() {
    let path =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/coal_rounding_ties.json");
    let file = ProblemFile::load(&path).unwrap();
    let results = run_problems(&file, false, TetrahedronRule::RegionTree, &[]).unwrap();
    for (p, r) in file.problems.iter().zip(&results) {
        for alg in ["gjk", "nesterov", "nesterov_normalized"] {
            assert_eq!(
                r.algorithms[alg].iterations, p.coal[alg].iterations,
                "problem {} {alg} (target {})",
                r.index, p.target_distance
            );
        }
    }
}

/// The untraced path (what a library user and the timings run: `run_gjk`, built on the
/// concrete shape kinds) and the traced path (what the viewer and `solve` show, through
/// `Shape`) are one solver: on every sample problem they end with the same outcome,
/// iteration count, support work, witness points and simplex, bit for bit.
#[test]
fn traced_and_untraced_runs_are_identical() {
    use collidescope::bench::problems::PROBLEM_ALGORITHMS;
    use collidescope::minkowski::MinkowskiDifference;
    use collidescope::solver::{run_gjk, Algorithm, FrankWolfe, Gjk, InitialGuess, SolverSettings};
    let Some(dir) = shared_data("problems") else {
        return;
    };
    for name in ["ellipsoids_sample.json", "meshes_sample.json"] {
        let file = ProblemFile::load(&dir.join(name)).unwrap();
        let shapes = file.build_shapes().unwrap();
        let base = file.settings().unwrap();
        for (index, p) in file.problems.iter().enumerate() {
            let b_in_a = p.b_in_a();
            let settings = SolverSettings {
                initial_guess: InitialGuess::Direction(-b_in_a.translation),
                ..base
            };
            for algorithm in PROBLEM_ALGORITHMS {
                let md = || MinkowskiDifference::new(&shapes[p.a], &shapes[p.b], b_in_a);
                let (untraced, traced, steps) = match algorithm {
                    Algorithm::Gjk(rule) => {
                        let mut records = Vec::new();
                        let traced = Gjk::new(md(), rule, settings).run_into(Some(&mut records));
                        (run_gjk(md(), rule, settings, &[]), traced, records.len())
                    }
                    Algorithm::FrankWolfe(rule) => {
                        let mut records = Vec::new();
                        let traced =
                            FrankWolfe::new(md(), rule, settings).run_into(Some(&mut records));
                        (
                            FrankWolfe::new(md(), rule, settings).run_into(None),
                            traced,
                            records.len(),
                        )
                    }
                };
                let label = format!("{name} problem {index} {}", algorithm.name());
                assert!(steps > 0, "{label}: the traced run kept no records");
                assert_eq!(untraced.outcome, traced.outcome, "{label}");
                assert_eq!(untraced.iterations, traced.iterations, "{label}");
                assert_eq!(untraced.stats, traced.stats, "{label}");
                assert_eq!(untraced.witness_a, traced.witness_a, "{label}");
                assert_eq!(untraced.witness_b, traced.witness_b, "{label}");
                assert_eq!(untraced.simplex, traced.simplex, "{label}");
            }
        }
    }
}
