//! Self-collision checking: the pairs to test (every pair of link shapes minus the
//! SRDF's disabled ones), and per configuration every pair's distance by a GJK-family
//! method, warm-started from the previous configuration's separating direction when
//! the joints moved little (along a path; after a random jump the shapes' centres are
//! the better first guess).

use std::time::Instant;

use glam::DVec3;

use super::kinematics::shape_poses;
use super::model::RobotModel;
use super::srdf::DisabledPair;
use crate::minkowski::MinkowskiDifference;
use crate::pose::RelativePose;
use crate::solver::{solve, Algorithm, InitialGuess, Outcome, SolverSettings};

/// Every pair `(i, j)`, `i < j`, of link shapes (indices into `model.shapes`) that no
/// disabled entry names.
pub fn checked_pairs(model: &RobotModel, disabled: &[DisabledPair]) -> Vec<(usize, usize)> {
    let names: Vec<&str> = model.shapes.iter().map(|s| s.name.as_str()).collect();
    let off = |a: &str, b: &str| {
        disabled
            .iter()
            .any(|d| (d.link1 == a && d.link2 == b) || (d.link1 == b && d.link2 == a))
    };
    let mut pairs = Vec::new();
    for i in 0..names.len() {
        for j in i + 1..names.len() {
            if !off(names[i], names[j]) {
                pairs.push((i, j));
            }
        }
    }
    pairs
}

/// One pair's answer at one configuration.
#[derive(Clone, Copy, Debug)]
pub struct PairAnswer {
    /// ≥ 0; 0 when the shapes intersect; for a run that hit its cap, its upper bound.
    pub distance: f64,
    pub colliding: bool,
    pub iterations: usize,
    pub seconds: f64,
    /// The witness points on the two links (world frame), when the run has them.
    pub witnesses: Option<(DVec3, DVec3)>,
}

/// The checker: the pairs of one model, the method, and what each pair's last query
/// leaves for the next (its separating direction, its hill-climbing starts). It does
/// not hold the model, so a viewer can keep both and check along a path.
pub struct SelfCollision {
    pub pairs: Vec<(usize, usize)>,
    pub algorithm: Algorithm,
    pub settings: SolverSettings,
    warm: Vec<Option<DVec3>>,
    /// Each pair's last support vertices on its two hulls: hill climbing starts there.
    climb_starts: Vec<(usize, usize)>,
    /// The configuration the warm directions belong to.
    last_q: Option<Vec<f64>>,
}

/// Joint steps (radians or metres) below which the previous configuration's directions
/// are better first guesses than the shapes' centres; random jumps are not.
const WARM_STEP: f64 = 0.2;

/// One configuration's answers, with the time of the whole check.
pub struct ConfigAnswer {
    pub pairs: Vec<PairAnswer>,
    pub seconds: f64,
    /// Of that: forward kinematics and the shapes' world poses.
    pub kinematics_seconds: f64,
}

impl SelfCollision {
    pub fn new(pairs: Vec<(usize, usize)>, algorithm: Algorithm) -> Self {
        let warm = vec![None; pairs.len()];
        Self {
            climb_starts: vec![(0, 0); pairs.len()],
            pairs,
            algorithm,
            settings: SolverSettings::default(),
            warm,
            last_q: None,
        }
    }

    /// Whether `q` is near enough the last configuration for its warm directions.
    fn near_last(&mut self, q: &[f64]) -> bool {
        let near = self.last_q.as_ref().is_some_and(|p| {
            p.len() == q.len() && p.iter().zip(q).all(|(a, b)| (a - b).abs() < WARM_STEP)
        });
        self.last_q = Some(q.to_vec());
        near
    }

    /// Every pair's distance at configuration `q` (actuated joints, in order).
    pub fn check(&mut self, model: &RobotModel, q: &[f64]) -> ConfigAnswer {
        let start = Instant::now();
        let warm = self.near_last(q);
        let poses = shape_poses(model, q);
        let kinematics_seconds = start.elapsed().as_secs_f64();
        let mut answers = Vec::with_capacity(self.pairs.len());
        for (k, &(i, j)) in self.pairs.iter().enumerate() {
            let pair_start = Instant::now();
            let (a, b) = (&model.shapes[i], &model.shapes[j]);
            let rel = RelativePose::between(&poses[i], &poses[j]);
            let mut settings = self.settings;
            if let Some(d) = self.warm[k].filter(|_| warm) {
                settings.initial_guess = InitialGuess::Direction(d);
            }
            let md =
                MinkowskiDifference::new(&a.shape, &b.shape, rel).starting_at(self.climb_starts[k]);
            let run = solve(self.algorithm, md, settings);
            self.climb_starts[k] = run.stats.last_vertices;
            let (distance, colliding) = match run.outcome {
                Outcome::Intersecting | Outcome::Penetrating { .. } | Outcome::Touching { .. } => {
                    (0.0, true)
                }
                Outcome::IterationCap { upper_bound, .. } => (upper_bound, false),
                ref other => (other.distance().unwrap_or(f64::NAN), false),
            };
            let mut witnesses = None;
            if let (Some(wa), Some(wb)) = (run.witness_a, run.witness_b) {
                let d = wa - wb;
                self.warm[k] = (d.length() > 0.0).then_some(d);
                // A's frame to the world: the witnesses of both links.
                witnesses = Some((poses[i].transform_point(wa), poses[i].transform_point(wb)));
            }
            answers.push(PairAnswer {
                distance,
                colliding,
                iterations: run.iterations,
                seconds: pair_start.elapsed().as_secs_f64(),
                witnesses,
            });
        }
        ConfigAnswer {
            pairs: answers,
            seconds: start.elapsed().as_secs_f64(),
            kinematics_seconds,
        }
    }
}

impl SelfCollision {
    /// "Is anything colliding?": GJK in Boolean mode (it stops at the first separating
    /// plane) pair by pair, returning the first colliding pair (an index into `pairs`)
    /// as soon as one is found, and the time taken.
    pub fn first_collision(&mut self, model: &RobotModel, q: &[f64]) -> (Option<usize>, f64) {
        let start = Instant::now();
        let warm = self.near_last(q);
        let poses = shape_poses(model, q);
        let mut settings = self.settings;
        settings.mode = crate::solver::QueryMode::Boolean { bound: 0.0 };
        for (k, &(i, j)) in self.pairs.iter().enumerate() {
            let (a, b) = (&model.shapes[i], &model.shapes[j]);
            let rel = RelativePose::between(&poses[i], &poses[j]);
            let mut pair_settings = settings;
            if let Some(d) = self.warm[k].filter(|_| warm) {
                pair_settings.initial_guess = InitialGuess::Direction(d);
            }
            let md =
                MinkowskiDifference::new(&a.shape, &b.shape, rel).starting_at(self.climb_starts[k]);
            let run = solve(self.algorithm, md, pair_settings);
            self.climb_starts[k] = run.stats.last_vertices;
            if matches!(
                run.outcome,
                Outcome::Intersecting | Outcome::Penetrating { .. } | Outcome::Touching { .. }
            ) {
                return (Some(k), start.elapsed().as_secs_f64());
            }
        }
        (None, start.elapsed().as_secs_f64())
    }
}

/// parry3d-f64 on the same pairs and poses (its native shapes built once): seconds per
/// configuration and its distances, for `--timing` and the benchmark's ratio.
pub fn parry_check(
    model: &RobotModel,
    pairs: &[(usize, usize)],
    configs: &[Vec<f64>],
) -> Option<(f64, Vec<Vec<f64>>)> {
    use crate::parry_bridge::{native, parry_pose};
    let shapes: Vec<_> = model
        .shapes
        .iter()
        .map(|s| native(&s.shape))
        .collect::<Option<Vec<_>>>()?;
    let identity = parry3d_f64::math::Pose::IDENTITY;
    let start = Instant::now();
    let mut all = Vec::with_capacity(configs.len());
    for q in configs {
        let poses = shape_poses(model, q);
        let distances = pairs
            .iter()
            .map(|&(i, j)| {
                let rel = parry_pose(&RelativePose::between(&poses[i], &poses[j]));
                parry3d_f64::query::distance(
                    &identity,
                    shapes[i].as_ref(),
                    &rel,
                    shapes[j].as_ref(),
                )
                .map_or(f64::NAN, |d| d.distance)
            })
            .collect();
        all.push(distances);
    }
    Some((
        start.elapsed().as_secs_f64() / configs.len().max(1) as f64,
        all,
    ))
}
