//! Pose sweeps: where is a query slow? Random relative poses of two shapes at signed
//! distances in a band (placed as in the protocol of docs/algorithms.md,
//! "Accelerated GJK: Nesterov, normalised, restart"), every chosen algorithm on each,
//! the distribution of iterations and support calls, and the slowest poses.

use std::sync::atomic::{AtomicBool, Ordering};

use glam::{DQuat, DVec3};
use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use super::protocol::translations_at_distances;
use crate::minkowski::MinkowskiDifference;
use crate::pose::{Pose, RelativePose};
use crate::rng::SplitMix64;
use crate::shape::Shape;
use crate::solver::{solve, Algorithm, SolverSettings};

/// One sampled pose: B's world pose (A sits at the identity) and its signed distance.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct SweepPose {
    pub index: usize,
    pub pose_b: Pose,
    pub target_distance: f64,
}

impl SweepPose {
    /// B in A's frame, computed exactly as a scene file computes it when solved.
    pub fn b_in_a(&self) -> RelativePose {
        RelativePose::between(&Pose::IDENTITY, &self.pose_b)
    }
}

/// One algorithm on one pose.
#[derive(Clone, Debug, Serialize)]
pub struct SweepRun {
    pub pose: usize,
    pub algorithm: &'static str,
    pub iterations: usize,
    pub support_calls: u64,
    pub status: &'static str,
}

/// Samples `samples` poses: random rotation, random direction, signed distance uniform
/// in `band`. Deterministic for a seed; placement runs on all cores.
pub fn sample_poses(
    a: &Shape,
    b: &Shape,
    samples: usize,
    band: (f64, f64),
    seed: u64,
) -> Vec<SweepPose> {
    sample_poses_in(a, b, samples, band, seed, 0..samples)
}

/// The poses of [`sample_poses`] whose indices fall in `range` (a chunk of a sweep run
/// elsewhere): every draw is taken in order, so each pose is the one the whole sweep
/// places at that index, and only the chunk's are placed.
pub fn sample_poses_in(
    a: &Shape,
    b: &Shape,
    samples: usize,
    band: (f64, f64),
    seed: u64,
    range: std::ops::Range<usize>,
) -> Vec<SweepPose> {
    let end = range.end.min(samples);
    let start = range.start.min(end);
    let mut rng = SplitMix64::new(seed);
    for _ in 0..start {
        skip_draw(&mut rng);
    }
    let draws: Vec<(DQuat, DVec3, f64)> = (start..end)
        .map(|_| (rng.rotation(), rng.unit_vector(), rng.range(band.0, band.1)))
        .collect();
    let reach =
        3.0 * (a.local_aabb().extent().length() + b.local_aabb().extent().length()).max(1e-9);
    draws
        .par_iter()
        .enumerate()
        .map(|(offset, &(rotation, direction, delta))| {
            let place = |t: DVec3| RelativePose::between(&Pose::IDENTITY, &Pose::new(t, rotation));
            let placed = translations_at_distances(a, b, direction * reach, place, &[delta]);
            SweepPose {
                index: start + offset,
                pose_b: Pose::new(placed[0].translation, rotation),
                target_distance: delta,
            }
        })
        .collect()
}

/// Moves `rng` past one pose's draw (a rotation, a direction, a distance) as
/// [`sample_poses`] takes it, without its logarithms and cosines: a chunk far into a
/// sweep starts at its own draw in a few nanoseconds per pose skipped. Exact: a
/// Gaussian vector is redrawn only when its length is at most 1e-9, which needs every
/// coordinate's angle within 0.05 of a quarter or three quarters of a turn (else that
/// coordinate alone is at least sin(0.1π)·√(−2 ln(1 − 2⁻⁵³)) > 4e-9); when every
/// angle is there, the draw is taken for real.
fn skip_draw(rng: &mut SplitMix64) {
    fn skip_gaussian(rng: &mut SplitMix64, coordinates: usize, draw: impl Fn(&mut SplitMix64)) {
        let mut probe = rng.clone();
        let mut surely_kept = false;
        for _ in 0..coordinates {
            probe.next_u64();
            let angle = probe.unit();
            surely_kept |= (angle - 0.25).abs() > 0.05 && (angle - 0.75).abs() > 0.05;
        }
        if surely_kept {
            *rng = probe;
        } else {
            draw(rng);
        }
    }
    skip_gaussian(rng, 4, |r| {
        r.rotation();
    });
    skip_gaussian(rng, 3, |r| {
        r.unit_vector();
    });
    rng.next_u64();
}

/// Runs every algorithm on every pose (all cores). Stops taking new poses once `stop`
/// is set, returning what was done; `tick` is called per finished pose.
pub fn run_sweep(
    a: &Shape,
    b: &Shape,
    poses: &[SweepPose],
    algorithms: &[Algorithm],
    settings: SolverSettings,
    stop: &AtomicBool,
    tick: &(dyn Fn() + Sync),
) -> Vec<SweepRun> {
    let mut runs: Vec<SweepRun> = poses
        .par_iter()
        .flat_map_iter(|pose| {
            if stop.load(Ordering::Relaxed) {
                return Vec::new();
            }
            let rel = pose.b_in_a();
            let runs: Vec<SweepRun> = algorithms
                .iter()
                .map(|alg| {
                    let run = solve(*alg, MinkowskiDifference::new(a, b, rel), settings);
                    SweepRun {
                        pose: pose.index,
                        algorithm: alg.name(),
                        iterations: run.iterations,
                        support_calls: run.stats.calls,
                        status: run.outcome.status_name(),
                    }
                })
                .collect();
            tick();
            runs
        })
        .collect();
    runs.sort_by_key(|r| r.pose);
    runs
}

/// The distribution of one algorithm's iterations and support calls over a sweep.
#[derive(Clone, Debug, Serialize)]
pub struct AlgorithmDistribution {
    pub algorithm: &'static str,
    pub runs: usize,
    pub mean_iterations: f64,
    pub p50: usize,
    pub p90: usize,
    pub p99: usize,
    pub max: usize,
    pub mean_support_calls: f64,
    pub max_support_calls: u64,
    /// Runs that reached the iteration cap or ended degenerate: the cases to look at.
    pub capped: usize,
    pub degenerate: usize,
    /// Runs whose stopping test held without a proof either way (`contact`).
    pub contact: usize,
    /// `(iterations, count)` for every iteration count seen.
    pub histogram: Vec<(usize, usize)>,
    /// Pose indices, slowest first.
    pub slowest: Vec<usize>,
}

pub fn distributions(
    runs: &[SweepRun],
    algorithms: &[Algorithm],
    worst: usize,
) -> Vec<AlgorithmDistribution> {
    algorithms
        .iter()
        .map(|alg| {
            let name = alg.name();
            let mut own: Vec<&SweepRun> = runs.iter().filter(|r| r.algorithm == name).collect();
            // The `worst` slowest first (most iterations, then the lower pose: a total
            // order, so the same as sorting them all, without sorting millions).
            let slower = |x: &&SweepRun, y: &&SweepRun| {
                y.iterations.cmp(&x.iterations).then(x.pose.cmp(&y.pose))
            };
            let keep = worst.min(own.len());
            if keep > 0 && keep < own.len() {
                own.select_nth_unstable_by(keep - 1, slower);
            }
            own[..keep].sort_by(slower);
            let mut iterations: Vec<usize> = own.iter().map(|r| r.iterations).collect();
            iterations.sort_unstable();
            let n = iterations.len();
            let pct = |p: f64| {
                if n == 0 {
                    0
                } else {
                    iterations[((n - 1) as f64 * p).round() as usize]
                }
            };
            let mut histogram: Vec<(usize, usize)> = Vec::new();
            for it in &iterations {
                match histogram.last_mut() {
                    Some((value, count)) if value == it => *count += 1,
                    _ => histogram.push((*it, 1)),
                }
            }
            AlgorithmDistribution {
                algorithm: alg.name(),
                runs: n,
                mean_iterations: iterations.iter().sum::<usize>() as f64 / n.max(1) as f64,
                p50: pct(0.5),
                p90: pct(0.9),
                p99: pct(0.99),
                max: iterations.last().copied().unwrap_or(0),
                mean_support_calls: own.iter().map(|r| r.support_calls as f64).sum::<f64>()
                    / n.max(1) as f64,
                max_support_calls: own.iter().map(|r| r.support_calls).max().unwrap_or(0),
                capped: own.iter().filter(|r| r.status == "iteration_cap").count(),
                degenerate: own.iter().filter(|r| r.status == "degenerate").count(),
                contact: own.iter().filter(|r| r.status == "contact").count(),
                histogram,
                slowest: own[..keep].iter().map(|r| r.pose).collect(),
            }
        })
        .collect()
}

/// A [`SweepRun`] as a chunk file holds it, compactly (a sweep has millions): its
/// iterations, support calls and outcome (by its number,
/// [`super::chunks::status_code`]); the algorithm is the plan's at its place.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ChunkRun(pub usize, pub u64, pub u8);

/// One pose of a sweep as a chunk file holds it ([`super::chunks`]): its runs, in the
/// plan's algorithms' order. (The pose itself is not kept: the report places again the
/// few it writes as scenes, [`sample_poses_in`].)
pub type SweepItem = Vec<ChunkRun>;

/// What a sweep's chunks must share with the report that merges them.
#[derive(Clone, Debug, PartialEq)]
pub struct SweepPlan {
    pub samples: usize,
    pub band: (f64, f64),
    pub seed: u64,
    pub algorithms: Vec<Algorithm>,
}

impl SweepPlan {
    /// The plan as a chunk file states it.
    pub fn json(&self) -> serde_json::Value {
        serde_json::json!({
            "samples": self.samples,
            "band": [self.band.0, self.band.1],
            "seed": self.seed,
            "algorithms": self.algorithms.iter().map(|a| a.name()).collect::<Vec<_>>(),
        })
    }

    /// The runs of `poses` ([`run_sweep`]'s, sorted by pose) as a chunk's items.
    pub fn items(&self, poses: &[SweepPose], runs: &[SweepRun]) -> Vec<SweepItem> {
        let mut runs = runs.iter().peekable();
        poses
            .iter()
            .map(|pose| {
                std::iter::from_fn(|| runs.next_if(|r| r.pose == pose.index))
                    .map(|r| {
                        ChunkRun(
                            r.iterations,
                            r.support_calls,
                            super::chunks::status_code(r.status),
                        )
                    })
                    .collect()
            })
            .collect()
    }

    /// The runs of merged items, as [`run_sweep`] gives them for the whole sweep; an
    /// error names a pose with another number of runs or an unknown outcome.
    pub fn unpack(&self, items: Vec<SweepItem>) -> Result<Vec<SweepRun>, String> {
        let mut runs = Vec::with_capacity(items.len() * self.algorithms.len());
        for (k, item) in items.into_iter().enumerate() {
            if item.len() != self.algorithms.len() {
                return Err(format!(
                    "pose {k}: {} runs in its chunk, for {} algorithms",
                    item.len(),
                    self.algorithms.len()
                ));
            }
            for (algorithm, ChunkRun(iterations, support_calls, status)) in
                self.algorithms.iter().zip(item)
            {
                runs.push(SweepRun {
                    pose: k,
                    algorithm: algorithm.name(),
                    iterations,
                    support_calls,
                    status: super::chunks::status_of_code(status)
                        .map_err(|e| format!("pose {k}: {e}"))?,
                });
            }
        }
        Ok(runs)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shape::{Cuboid, Ellipsoid};

    /// A chunk's poses are the whole sweep's at the same indices, wherever it starts.
    #[test]
    fn a_chunk_s_poses_are_the_sweep_s() {
        let a = Shape::Ellipsoid(Ellipsoid::new(DVec3::new(0.5, 0.3, 0.4)).unwrap());
        let b = Shape::Cuboid(Cuboid::new(DVec3::splat(0.2)).unwrap());
        for seed in [1, 2, 99] {
            let all = sample_poses(&a, &b, 300, (-0.01, 0.1), seed);
            for (start, end) in [(0, 300), (0, 1), (17, 150), (299, 300), (300, 300)] {
                let chunk = sample_poses_in(&a, &b, 300, (-0.01, 0.1), seed, start..end);
                assert_eq!(
                    chunk.as_slice(),
                    &all[start..end],
                    "seed {seed}, {start}..{end}"
                );
            }
        }
        // The skip against the draws themselves, over many (the redraw branch included
        // when an angle sits near a quarter turn).
        let mut drawn = SplitMix64::new(5);
        let mut skipped = SplitMix64::new(5);
        for _ in 0..20000 {
            drawn.rotation();
            drawn.unit_vector();
            drawn.range(0.0, 1.0);
            skip_draw(&mut skipped);
            assert_eq!(drawn.next_u64(), skipped.next_u64());
        }
    }

    #[test]
    fn sampled_poses_sit_in_the_band_and_runs_cover_every_pose() {
        let a = Shape::Ellipsoid(Ellipsoid::new(DVec3::new(0.5, 0.3, 0.4)).unwrap());
        let b = Shape::Cuboid(Cuboid::new(DVec3::splat(0.2)).unwrap());
        let poses = sample_poses(&a, &b, 50, (0.01, 0.1), 3);
        assert_eq!(poses.len(), 50);
        let algorithms = [
            Algorithm::GJK,
            Algorithm::Gjk(crate::solver::DirectionRule::Nesterov),
        ];
        let settings = SolverSettings::benchmark();
        let runs = run_sweep(
            &a,
            &b,
            &poses,
            &algorithms,
            settings,
            &AtomicBool::new(false),
            &|| {},
        );
        assert_eq!(runs.len(), 100);
        for (pose, run) in poses.iter().zip(runs.iter().step_by(2)) {
            assert!(pose.target_distance >= 0.01 && pose.target_distance <= 0.1);
            let d = solve(
                Algorithm::GJK,
                MinkowskiDifference::new(&a, &b, pose.b_in_a()),
                settings,
            )
            .outcome
            .distance()
            .unwrap();
            assert!(
                (d - pose.target_distance).abs() < 1e-3,
                "{d} vs {}",
                pose.target_distance
            );
            assert_eq!(run.pose, pose.index);
        }
        let dist = distributions(&runs, &algorithms, 3);
        assert_eq!(dist[0].runs, 50);
        assert!(dist[0].p50 <= dist[0].p90 && dist[0].p90 <= dist[0].max);
        assert_eq!(dist[0].slowest.len(), 3);
        assert_eq!(dist[0].histogram.iter().map(|h| h.1).sum::<usize>(), 50);
        // A stop before the start runs nothing.
        let none = run_sweep(
            &a,
            &b,
            &poses,
            &algorithms,
            settings,
            &AtomicBool::new(true),
            &|| {},
        );
        assert!(none.is_empty());
    }
}
