//! Self-collision checking: the pairs to test (every pair of link shapes minus the
//! SRDF's disabled ones), and per configuration every pair's distance by a GJK-family
//! method, warm-started from the previous configuration's separating direction when
//! the joints moved little (along a path; after a random jump the shapes' centres are
//! the better first guess). Checked as meshes ([`CollisionMode::Mesh`]), a pair with a
//! link's mesh or compound runs through the composite midphase ([`run_composite`]),
//! after the hulls' run has not ruled it out (a mesh lies inside its hull, so the
//! hulls' distance bounds the meshes' from below).

use std::cmp::{Ordering, Reverse};
use std::collections::BinaryHeap;
use std::time::Instant;

use glam::DVec3;

use super::kinematics::shape_poses;
use super::model::{CollisionMode, LinkShape, RobotModel};
use super::srdf::DisabledPair;
use crate::composite::{run_composite, CompositeAnswer, Side};
use crate::minkowski::{CsoPoint, MinkowskiDifference};
use crate::pose::{Pose, RelativePose};
use crate::solver::{
    run_gjk, solve, Algorithm, InitialGuess, Method, Outcome, RunSummary, SolverSettings,
};

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
    /// The pair is proved farther apart than the check's margin, and `distance` is
    /// that proof's lower bound (the bounding spheres' gap, or GJK's separating plane),
    /// not the pair's distance. Never set by [`SelfCollision::check`].
    pub beyond_margin: bool,
    /// Checked as meshes: the sub-pairs (triangle–triangle, triangle–shape, part–part)
    /// the midphase ran; 0 for a pair of convex shapes (`iterations` then sums the
    /// sub-pairs' iterations).
    pub sub_pairs: usize,
}

impl PairAnswer {
    /// A pair proved farther apart than the margin by `lower_bound`.
    fn beyond(lower_bound: f64, seconds: f64) -> Self {
        Self {
            distance: lower_bound,
            colliding: false,
            iterations: 0,
            seconds,
            witnesses: None,
            beyond_margin: true,
            sub_pairs: 0,
        }
    }
}

/// What one pair's last query leaves for the next at a nearby configuration.
#[derive(Clone, Copy, Debug, Default)]
struct PairWarmStart {
    /// The last separating direction (A's frame), when the pair was apart.
    direction: Option<DVec3>,
    /// The last support vertices on the two hulls: hill climbing starts there (kept
    /// across random jumps too: a link sees its neighbours from similar sides).
    climb_starts: (usize, usize),
    /// The last simplex as points of the two links, each in its own link's frame (A's
    /// point in A's, B's in B's): re-placed at the new pose they are points of the new
    /// Minkowski difference.
    simplex: [(DVec3, DVec3); 4],
    simplex_len: usize,
}

impl PairWarmStart {
    /// The stored simplex at relative pose `rel`, or nothing.
    fn simplex_at(&self, rel: &RelativePose) -> Vec<CsoPoint> {
        self.simplex[..self.simplex_len]
            .iter()
            .map(|&(a, b_local)| {
                let b = rel.transform_point(b_local);
                CsoPoint { w: a - b, a, b }
            })
            .collect()
    }

    /// Keeps the run's final simplex (its B points taken back to B's frame).
    fn keep(&mut self, run: &RunSummary, rel: &RelativePose) {
        let vertices = run.simplex.vertices();
        self.simplex_len = vertices.len().min(4);
        for (slot, v) in self.simplex.iter_mut().zip(vertices) {
            let b_local = rel.inverse_rotate(v.point.b - rel.translation);
            *slot = (v.point.a, b_local);
        }
        self.climb_starts = run.stats.last_vertices;
    }
}

/// The checker: the pairs of one model, the method, and what each pair's last query
/// leaves for the next (direction, hill-climbing starts, simplex). It does not hold
/// the model, so a viewer can keep both and check along a path.
pub struct SelfCollision {
    pub pairs: Vec<(usize, usize)>,
    pub algorithm: Algorithm,
    pub settings: SolverSettings,
    warm: Vec<PairWarmStart>,
    /// The configuration the warm directions belong to.
    last_q: Option<Vec<f64>>,
    /// Each link shape's bounding sphere in its own frame (the broad phase), built on
    /// the first query.
    spheres: Vec<(DVec3, f64)>,
    /// Hulls or meshes; `None`: as the model was loaded ([`RobotModel::collision`]).
    pub collision: Option<CollisionMode>,
}

/// The nearest checked pair at a configuration: what planners use for margins.
#[derive(Clone, Copy, Debug)]
pub struct NearestPair {
    /// Index into [`SelfCollision::pairs`].
    pub pair: usize,
    /// Its certified distance (0 when colliding).
    pub distance: f64,
    pub colliding: bool,
    /// Pairs that ran GJK; the others were ruled out by their bounding spheres.
    pub narrow_phase_pairs: usize,
}

/// A sphere around a shape, in its frame: the bounding box's centre, and the farthest
/// vertex from it (the box's half diagonal for curved shapes). Every point of the shape
/// lies inside, so two such spheres apart prove the shapes apart.
fn bounding_sphere(shape: &crate::shape::Shape) -> (DVec3, f64) {
    let aabb = shape.local_aabb();
    let centre = aabb.centre();
    let radius = match shape.vertex_points() {
        Some(points) if !points.is_empty() => points
            .iter()
            .map(|p| (*p - centre).length())
            .fold(0.0f64, f64::max),
        _ => 0.5 * aabb.extent().length(),
    };
    // Round-off of the centre and of the poses: a relative hair more.
    (centre, radius * (1.0 + 1e-12) + 1e-15)
}

/// Joint steps (radians or metres) below which the previous configuration's directions
/// are better first guesses than the shapes' centres; random jumps are not.
const WARM_STEP: f64 = 0.2;

/// How many configurations of a batch share warm starts
/// ([`SelfCollision::forget_warm_starts`]): the chunks of a cluster's run start at
/// multiples of it.
pub const WARM_START_BLOCK: usize = 256;

/// One configuration's answers, with the time of the whole check.
pub struct ConfigAnswer {
    pub pairs: Vec<PairAnswer>,
    pub seconds: f64,
    /// Of that: forward kinematics and the shapes' world poses,
    pub kinematics_seconds: f64,
    /// and each pair's relative pose (the rest is the GJK runs).
    pub transforms_seconds: f64,
}

impl SelfCollision {
    pub fn new(pairs: Vec<(usize, usize)>, algorithm: Algorithm) -> Self {
        let warm = vec![PairWarmStart::default(); pairs.len()];
        // "Colliding" is one answer for touching and overlapping links: no overlap proof.
        let settings = SolverSettings {
            overlap_proof: false,
            ..SolverSettings::default()
        };
        Self {
            pairs,
            algorithm,
            settings,
            warm,
            last_q: None,
            spheres: Vec::new(),
            collision: None,
        }
    }

    /// The same checker, checking links as hulls or as meshes whatever the model's
    /// loading (a model loaded as hulls has no meshes: its pairs stay convex).
    pub fn with_collision(mut self, collision: CollisionMode) -> Self {
        self.collision = Some(collision);
        self
    }

    /// Whether pair `k` runs through the midphase: meshes asked for, and one of its
    /// links has a mesh or compound.
    fn through_midphase(&self, model: &RobotModel, k: usize) -> bool {
        let (i, j) = self.pairs[k];
        self.collision.unwrap_or(model.collision) == CollisionMode::Mesh
            && (model.shapes[i].mesh.is_some() || model.shapes[j].mesh.is_some())
    }

    /// Pair `k`'s meshes (or a mesh and a convex shape) at `rel`: the midphase's
    /// certified distance, by the checker's method, with its witnesses in the world.
    fn mesh_pair(
        &self,
        model: &RobotModel,
        k: usize,
        rel: &RelativePose,
        poses: &[Pose],
    ) -> PairAnswer {
        let start = Instant::now();
        let (i, j) = self.pairs[k];
        fn side(s: &LinkShape) -> Side<'_> {
            match &s.mesh {
                Some(m) => Side::Composite(&m.composite),
                None => Side::Convex(&s.shape),
            }
        }
        let (a, b) = (&model.shapes[i], &model.shapes[j]);
        let run = run_composite(
            side(a),
            side(b),
            *rel,
            None,
            Method::of(self.algorithm),
            self.settings,
            false,
            None,
        );
        let answer = &run.answer;
        let (distance, colliding) = match answer.outcome {
            ref hit if colliding(hit) => (0.0, true),
            _ if answer.upper.is_finite() => (answer.upper, false),
            _ => (f64::NAN, true),
        };
        let witnesses = if colliding {
            None
        } else {
            mesh_witnesses(model, (i, j), answer, run.swapped, poses)
        };
        PairAnswer {
            distance,
            colliding,
            iterations: answer
                .sub_pairs
                .iter()
                .map(|s| s.run.summary.iterations)
                .sum(),
            seconds: start.elapsed().as_secs_f64(),
            witnesses,
            beyond_margin: false,
            sub_pairs: answer.sub_pairs.len(),
        }
    }

    /// Each link shape's bounding sphere at its world pose (centre, radius): the broad
    /// phase's input, placed once per configuration rather than once per pair.
    fn world_spheres(
        &mut self,
        model: &RobotModel,
        poses: &[crate::pose::Pose],
    ) -> Vec<(DVec3, f64)> {
        if self.spheres.len() != model.shapes.len() {
            self.spheres = model
                .shapes
                .iter()
                .map(|s| bounding_sphere(&s.shape))
                .collect();
        }
        self.spheres
            .iter()
            .zip(poses)
            .map(|(&(centre, radius), pose)| (pose.transform_point(centre), radius))
            .collect()
    }

    /// The gap between the bounding spheres of pair `k` (from [`Self::world_spheres`]):
    /// a lower bound of the pair's distance when positive (the spheres hold the shapes).
    fn sphere_gap(&self, spheres: &[(DVec3, f64)], k: usize) -> f64 {
        let (i, j) = self.pairs[k];
        let ((ci, ri), (cj, rj)) = (spheres[i], spheres[j]);
        (ci - cj).length() - ri - rj
    }

    /// Starts the next configuration cold, as the first one: no warm direction, simplex
    /// or hill-climbing start from the last. A batch split into chunks restarts at
    /// every [`WARM_START_BLOCK`]-th configuration, so that a chunk starting there
    /// gives the answers the whole batch gives (warm starts change iterations, and
    /// with ties a support vertex, not a certified answer's meaning).
    pub fn forget_warm_starts(&mut self) {
        self.warm = vec![PairWarmStart::default(); self.pairs.len()];
        self.last_q = None;
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
        self.check_within(model, q, f64::INFINITY)
    }

    /// Every pair's status at `q` when only distances up to `margin` matter (a
    /// planner's safety margin; 0 asks only which pairs collide): a pair whose bounding
    /// spheres are more than `margin` apart is answered by that gap without GJK, and
    /// GJK stops at the first separating plane beyond `margin` (Boolean mode with that
    /// bound). Every other pair gets its certified distance, as [`Self::check`] does.
    pub fn check_within(&mut self, model: &RobotModel, q: &[f64], margin: f64) -> ConfigAnswer {
        let start = Instant::now();
        let warm = self.near_last(q);
        let poses = shape_poses(model, q);
        let spheres = if margin.is_finite() {
            self.world_spheres(model, &poses)
        } else {
            Vec::new()
        };
        let kinematics_seconds = start.elapsed().as_secs_f64();
        let mut settings = self.settings;
        if margin.is_finite() {
            settings.mode = crate::solver::QueryMode::Boolean { bound: margin };
        }
        let mut transforms_seconds = 0.0;
        let mut answers = Vec::with_capacity(self.pairs.len());
        for k in 0..self.pairs.len() {
            // The broad phase, untimed per pair: a clock read costs as much as the test.
            if margin.is_finite() {
                let gap = self.sphere_gap(&spheres, k);
                if gap > margin {
                    answers.push(PairAnswer::beyond(gap, 0.0));
                    continue;
                }
            }
            let pair_start = Instant::now();
            let (i, j) = self.pairs[k];
            let rel = RelativePose::between(&poses[i], &poses[j]);
            transforms_seconds += pair_start.elapsed().as_secs_f64();
            if self.through_midphase(model, k) {
                answers.push(self.mesh_pair_within(model, k, &rel, &poses, warm, margin));
                continue;
            }
            let run = self.run_pair(model, k, &rel, warm, settings);
            if let Outcome::SeparatedEarlyStop { lower_bound } = run.outcome {
                let mut answer =
                    PairAnswer::beyond(lower_bound, pair_start.elapsed().as_secs_f64());
                answer.iterations = run.iterations;
                answers.push(answer);
                continue;
            }
            let (distance, colliding) = match run.outcome {
                ref hit if colliding(hit) => (0.0, true),
                Outcome::IterationCap { upper_bound, .. } => (upper_bound, false),
                // No finite distance (a degenerate run, a non-finite pose): never free.
                ref other => match other.distance().filter(|d| d.is_finite()) {
                    Some(d) => (d, false),
                    None => (f64::NAN, true),
                },
            };
            let mut witnesses = None;
            if let (Some(wa), Some(wb)) = (run.witness_a, run.witness_b) {
                // A's frame to the world: the witnesses of both links.
                witnesses = Some((poses[i].transform_point(wa), poses[i].transform_point(wb)));
            }
            answers.push(PairAnswer {
                distance,
                colliding,
                iterations: run.iterations,
                seconds: pair_start.elapsed().as_secs_f64(),
                witnesses,
                beyond_margin: false,
                sub_pairs: 0,
            });
        }
        ConfigAnswer {
            pairs: answers,
            seconds: start.elapsed().as_secs_f64(),
            kinematics_seconds,
            transforms_seconds,
        }
    }

    /// One pair's run at relative pose `rel`, warm-started from its last query (its
    /// simplex and direction only when `near`), and what it leaves for the next.
    fn run_pair(
        &mut self,
        model: &RobotModel,
        k: usize,
        rel: &RelativePose,
        near: bool,
        mut settings: SolverSettings,
    ) -> RunSummary {
        let (i, j) = self.pairs[k];
        let warm = &mut self.warm[k];
        if let Some(d) = warm.direction.filter(|_| near) {
            settings.initial_guess = InitialGuess::Direction(d);
        }
        let (a, b) = (&model.shapes[i].shape, &model.shapes[j].shape);
        let md = MinkowskiDifference::new(a, b, *rel).starting_at(warm.climb_starts);
        let run = match self.algorithm {
            Algorithm::Gjk(rule) if near => {
                let simplex = warm.simplex_at(rel);
                run_gjk(md, rule, settings, &simplex)
            }
            algorithm => solve(algorithm, md, settings),
        };
        warm.keep(&run, rel);
        // A Boolean run that stopped at a separating plane keeps the direction it had.
        match (run.witness_a, run.witness_b) {
            (Some(wa), Some(wb)) => warm.direction = Some(wa - wb).filter(|d| d.length() > 0.0),
            _ if colliding(&run.outcome) => warm.direction = None,
            _ => {}
        }
        run
    }
}

impl SelfCollision {
    /// Pair `k` checked as meshes when only distances up to `margin` matter: the hulls
    /// first (a lower bound of the meshes' distance), in Boolean mode with that bound,
    /// warm-started; the midphase only when the hulls come within the margin.
    fn mesh_pair_within(
        &mut self,
        model: &RobotModel,
        k: usize,
        rel: &RelativePose,
        poses: &[Pose],
        warm: bool,
        margin: f64,
    ) -> PairAnswer {
        if margin.is_finite() {
            let start = Instant::now();
            let mut settings = self.settings;
            settings.mode = crate::solver::QueryMode::Boolean { bound: margin };
            let run = self.run_pair(model, k, rel, warm, settings);
            let lower = match run.outcome {
                Outcome::SeparatedEarlyStop { lower_bound } => Some(lower_bound),
                Outcome::Separated { lower_bound, .. } if lower_bound > margin => Some(lower_bound),
                _ => None,
            };
            if let Some(lower) = lower {
                let mut answer = PairAnswer::beyond(lower, start.elapsed().as_secs_f64());
                answer.iterations = run.iterations;
                return answer;
            }
        }
        self.mesh_pair(model, k, rel, poses)
    }

    /// "Is anything colliding?": GJK in Boolean mode (it stops at the first separating
    /// plane) pair by pair, returning the first colliding pair (an index into `pairs`)
    /// as soon as one is found, and the time taken.
    pub fn first_collision(&mut self, model: &RobotModel, q: &[f64]) -> (Option<usize>, f64) {
        let start = Instant::now();
        let warm = self.near_last(q);
        let poses = shape_poses(model, q);
        let spheres = self.world_spheres(model, &poses);
        let mut settings = self.settings;
        settings.mode = crate::solver::QueryMode::Boolean { bound: 0.0 };
        for k in 0..self.pairs.len() {
            // Broad phase: spheres apart prove the pair free, no GJK needed.
            if self.sphere_gap(&spheres, k) > 0.0 {
                continue;
            }
            let (i, j) = self.pairs[k];
            let rel = RelativePose::between(&poses[i], &poses[j]);
            let run = self.run_pair(model, k, &rel, warm, settings);
            // The hulls apart prove the meshes apart; touching, the meshes are asked.
            let hit = colliding(&run.outcome)
                && (!self.through_midphase(model, k)
                    || self.mesh_pair(model, k, &rel, &poses).colliding);
            if hit {
                return (Some(k), start.elapsed().as_secs_f64());
            }
        }
        (None, start.elapsed().as_secs_f64())
    }
}

impl SelfCollision {
    /// The nearest pair at `q` and its certified distance (branch and bound): pairs in
    /// order of their bounding spheres' gap, a lower bound of their distance; GJK runs on
    /// a pair only while that bound is below the best distance found, so every pair left
    /// out is proved no nearer. A colliding pair ends the search at once.
    pub fn nearest_pair(&mut self, model: &RobotModel, q: &[f64]) -> Option<(NearestPair, f64)> {
        let start = Instant::now();
        let warm = self.near_last(q);
        let poses = shape_poses(model, q);
        let spheres = self.world_spheres(model, &poses);
        // A heap rather than a sort: the search usually ends after a few pairs, and
        // ordering all of a large robot's pairs cost more than its GJK runs.
        let mut order: BinaryHeap<Reverse<(OrderedGap, usize)>> = (0..self.pairs.len())
            .map(|k| Reverse((OrderedGap(self.sphere_gap(&spheres, k)), k)))
            .collect();
        let mut best: Option<NearestPair> = None;
        let mut narrow = 0;
        while let Some(Reverse((OrderedGap(bound), k))) = order.pop() {
            if best.is_some_and(|b| bound >= b.distance) {
                break;
            }
            let (i, j) = self.pairs[k];
            let rel = RelativePose::between(&poses[i], &poses[j]);
            let run = self.run_pair(model, k, &rel, warm, self.settings);
            narrow += 1;
            if self.through_midphase(model, k) {
                // The hulls' distance bounds the meshes' from below: no nearer than the
                // best found, the meshes need not be asked.
                let hull_lower = crate::composite::midphase::bracket(&run.outcome).0;
                if best.is_some_and(|b| hull_lower >= b.distance) {
                    continue;
                }
                let mesh = self.mesh_pair(model, k, &rel, &poses);
                if mesh.colliding {
                    let hit = NearestPair {
                        pair: k,
                        distance: 0.0,
                        colliding: true,
                        narrow_phase_pairs: narrow,
                    };
                    return Some((hit, start.elapsed().as_secs_f64()));
                }
                if best.is_none_or(|b| mesh.distance < b.distance) {
                    best = Some(NearestPair {
                        pair: k,
                        distance: mesh.distance,
                        colliding: false,
                        narrow_phase_pairs: 0,
                    });
                }
                continue;
            }
            if colliding(&run.outcome) {
                let hit = NearestPair {
                    pair: k,
                    distance: 0.0,
                    colliding: true,
                    narrow_phase_pairs: narrow,
                };
                return Some((hit, start.elapsed().as_secs_f64()));
            }
            let distance = match run.outcome {
                Outcome::IterationCap { upper_bound, .. } => upper_bound,
                ref other => other.distance().unwrap_or(f64::INFINITY),
            };
            if best.is_none_or(|b| distance < b.distance) {
                best = Some(NearestPair {
                    pair: k,
                    distance,
                    colliding: false,
                    narrow_phase_pairs: 0,
                });
            }
        }
        best.map(|mut b| {
            b.narrow_phase_pairs = narrow;
            (b, start.elapsed().as_secs_f64())
        })
    }
}

/// The witness points of a midphase answer's nearest sub-pair, in the world: the run's
/// frame is its first piece's (the first composite's, link `j`'s when the midphase took
/// the pair the other way round), placed by the piece's pose in its composite.
fn mesh_witnesses(
    model: &RobotModel,
    (i, j): (usize, usize),
    answer: &CompositeAnswer,
    swapped: bool,
    poses: &[Pose],
) -> Option<(DVec3, DVec3)> {
    let nearest = &answer.sub_pairs[answer.nearest?];
    let (wa, wb) = (
        nearest.run.summary.witness_a?,
        nearest.run.summary.witness_b?,
    );
    let first = if swapped { j } else { i };
    let composite = &model.shapes[first].mesh.as_ref()?.composite;
    let piece_pose = composite
        .tree()
        .piece(nearest.piece as usize)
        .and_then(|(_, pose)| pose);
    let to_world = |p: DVec3| {
        let p = piece_pose.map_or(p, |pose| pose.transform_point(p));
        poses[first].transform_point(p)
    };
    let (on_first, on_second) = (to_world(wa), to_world(wb));
    Some(if swapped {
        (on_second, on_first)
    } else {
        (on_first, on_second)
    })
}

/// A bounding spheres' gap ordered by `f64::total_cmp`, for the nearest pair's heap.
#[derive(Clone, Copy, PartialEq)]
struct OrderedGap(f64);

impl Eq for OrderedGap {}

impl PartialOrd for OrderedGap {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for OrderedGap {
    fn cmp(&self, other: &Self) -> Ordering {
        self.0.total_cmp(&other.0)
    }
}

/// Whether a run found the hulls overlapping or touching, or cannot say they are
/// free: `contact` (touching, overlapping or that near) and a run that broke down
/// (`degenerate`) are never reported free.
fn colliding(outcome: &Outcome) -> bool {
    matches!(
        outcome,
        Outcome::Intersecting
            | Outcome::Penetrating { .. }
            | Outcome::Touching { .. }
            | Outcome::Contact { .. }
            | Outcome::Degenerate { .. }
    )
}

/// parry3d-f64 on the same pairs and poses (its native shapes built once): seconds per
/// configuration and its distances, for `--timing` and the benchmark's ratio.
pub fn parry_check(
    model: &RobotModel,
    pairs: &[(usize, usize)],
    configs: &[Vec<f64>],
) -> Option<(f64, Vec<Vec<f64>>)> {
    parry_check_as(model, pairs, configs, CollisionMode::Hull)
}

/// [`parry_check`] with the links as hulls or as meshes: a link's mesh as parry's
/// `TriMesh`, its compound as parry's `Compound` (an independent answer to the mesh
/// check's). `None` when a link has no parry counterpart.
pub fn parry_check_as(
    model: &RobotModel,
    pairs: &[(usize, usize)],
    configs: &[Vec<f64>],
    collision: CollisionMode,
) -> Option<(f64, Vec<Vec<f64>>)> {
    use crate::parry_bridge::{native, parry_pose};
    let shapes: Vec<_> = model
        .shapes
        .iter()
        .map(|s| match &s.mesh {
            Some(m) if collision == CollisionMode::Mesh => parry_composite(&m.composite),
            _ => native(&s.shape),
        })
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

/// A link's composite as parry3d-f64's own shape: a mesh as its `TriMesh`, a compound of
/// parts it has as its `Compound`.
fn parry_composite(
    composite: &crate::composite::Composite,
) -> Option<Box<dyn parry3d_f64::shape::Shape>> {
    use crate::composite::Pieces;
    use crate::parry_bridge::{native, parry_pose};
    use parry3d_f64::math::Vector;
    use parry3d_f64::shape as ps;
    Some(match composite.pieces() {
        Pieces::Triangles(mesh) => {
            let points = mesh
                .vertices()
                .iter()
                .map(|p| Vector::new(p.x, p.y, p.z))
                .collect();
            Box::new(ps::TriMesh::new(points, mesh.triangles().to_vec()).ok()?)
        }
        Pieces::Parts(parts) => {
            let parts = parts
                .iter()
                .map(|p| {
                    let shape: std::sync::Arc<dyn ps::Shape> = native(&p.shape)?.into();
                    Some((parry_pose(&p.pose), ps::SharedShape(shape)))
                })
                .collect::<Option<Vec<_>>>()?;
            Box::new(ps::Compound::new(parts))
        }
    })
}
