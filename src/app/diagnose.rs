//! Diagnosis in the viewer: a pose sweep of the current pair and a heat map of
//! iterations over translations of B, both computed on Bevy's async compute task pool
//! (the runs themselves spread over all cores) with progress and cancel, so the UI
//! stays responsive.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Arc;

use bevy::prelude::*;
use bevy::tasks::futures::check_ready;
use bevy::tasks::{AsyncComputeTaskPool, Task, TaskPool};
use glam::DVec3;
use rayon::prelude::*;

use super::model::ViewerModel;
use crate::bench::sweep::{
    distributions, run_sweep, sample_poses, AlgorithmDistribution, SweepPose, SweepRun,
};
use crate::minkowski::MinkowskiDifference;
use crate::pose::{Pose, RelativePose};
use crate::solver::contact::jitter::{
    jitter, worst_at_cell, JitterReport, JitterSettings, TiltGrid,
};
use crate::solver::contact::ContactRule;
use crate::solver::{solve, Algorithm, Outcome};

/// A finished (or cancelled) sweep of the pair as it was when it started.
pub struct SweepResult {
    pub algorithms: Vec<Algorithm>,
    pub poses: Vec<SweepPose>,
    pub runs: Vec<SweepRun>,
    pub distributions: Vec<AlgorithmDistribution>,
    /// A's pose when the sweep started: sweep poses are relative to it.
    pub pose_a: Pose,
    pub cancelled: bool,
}

impl SweepResult {
    /// B's world pose for a sampled pose.
    pub fn world_pose_b(&self, pose: usize) -> Pose {
        self.pose_a.then_local(&self.poses[pose].pose_b)
    }

    /// The first pose where `algorithm` took `iterations`.
    pub fn pose_with(&self, algorithm: &str, iterations: usize) -> Option<usize> {
        self.runs
            .iter()
            .find(|r| r.algorithm == algorithm && r.iterations == iterations)
            .map(|r| r.pose)
    }
}

/// Iterations of one algorithm over a grid of B translations on a plane.
pub struct HeatMap {
    pub algorithm: Algorithm,
    pub centre: Pose,
    pub right: DVec3,
    pub up: DVec3,
    pub half_extent: f64,
    pub cells: usize,
    /// Row-major from the top-left; `None` where the run hit the cap or degenerated.
    pub iterations: Vec<Option<usize>>,
}

impl HeatMap {
    /// B's world pose at cell (column, row).
    pub fn pose_at(&self, column: usize, row: usize) -> Pose {
        let step = 2.0 * self.half_extent / (self.cells.max(2) - 1) as f64;
        let u = -self.half_extent + column as f64 * step;
        let v = self.half_extent - row as f64 * step;
        Pose::new(
            self.centre.translation + self.right * u + self.up * v,
            self.centre.rotation,
        )
    }
}

/// A contact jitter study of the current pose: every rule's nudges (for the plot of
/// point motion against the nudge), and the worst jump of one rule over B's tilts.
pub struct JitterStudy {
    pub reports: Vec<JitterReport>,
    /// The rule the tilt grid was swept for (the focused contact rule).
    pub grid_rule: ContactRule,
    pub grid: Option<TiltGrid>,
    /// Row-major from the top-left; `None` where the pose has no manifold.
    pub worst: Vec<Option<f64>>,
    pub jump_ratio: f64,
}

enum Work {
    Sweep(SweepResult),
    Heat(HeatMap),
    Jitter(JitterStudy),
}

struct Job {
    progress: Arc<AtomicUsize>,
    total: usize,
    cancel: Arc<AtomicBool>,
    task: Task<Work>,
    what: &'static str,
}

/// The diagnosis state: its settings, the running job and the last results.
#[derive(Resource)]
pub struct Diagnosis {
    pub samples: usize,
    pub band: (f64, f64),
    pub cells: usize,
    /// Half the side of the heat map's square; sized from the shapes until edited.
    pub half_extent: f64,
    pub extent_chosen: bool,
    job: Option<Job>,
    pub sweep: Option<SweepResult>,
    pub heat: Option<HeatMap>,
    /// The jitter grid's largest tilt (radians).
    pub tilt: f64,
    pub jitter: Option<JitterStudy>,
}

impl Default for Diagnosis {
    fn default() -> Self {
        Self {
            samples: 2000,
            band: (-0.01, 0.1),
            cells: 25,
            half_extent: 0.2,
            extent_chosen: false,
            job: None,
            sweep: None,
            heat: None,
            tilt: 0.01,
            jitter: None,
        }
    }
}

impl Diagnosis {
    /// `(what, done, total)` of the running job.
    pub fn progress(&self) -> Option<(&'static str, usize, usize)> {
        self.job
            .as_ref()
            .map(|j| (j.what, j.progress.load(Ordering::Relaxed), j.total))
    }

    pub fn cancel(&mut self) {
        if let Some(job) = &self.job {
            job.cancel.store(true, Ordering::Relaxed);
        }
    }

    /// Starts a sweep of the current pair with the enabled algorithms.
    pub fn start_sweep(&mut self, model: &ViewerModel) {
        if self.job.is_some() {
            return;
        }
        let (a, b) = (
            model.pair_scene().a().shape.clone(),
            model.pair_scene().b().shape.clone(),
        );
        let algorithms = model.enabled_algorithms();
        let settings = model.pair_scene().settings;
        let (samples, band, pose_a) = (self.samples, self.band, model.pair_scene().a().pose);
        let progress = Arc::new(AtomicUsize::new(0));
        let cancel = Arc::new(AtomicBool::new(false));
        let (p, c) = (progress.clone(), cancel.clone());
        let task = compute_pool().spawn(async move {
            let poses = sample_poses(&a, &b, samples, band, 1);
            let runs = run_sweep(&a, &b, &poses, &algorithms, settings, &c, &|| {
                p.fetch_add(1, Ordering::Relaxed);
            });
            let distributions = distributions(&runs, &algorithms, 10);
            Work::Sweep(SweepResult {
                algorithms,
                poses,
                runs,
                distributions,
                pose_a,
                cancelled: c.load(Ordering::Relaxed),
            })
        });
        self.job = Some(Job {
            progress,
            total: samples,
            cancel,
            task,
            what: "sweep",
        });
    }

    /// A heat-map size that shows structure: half the pair's combined size.
    pub fn size_heat_map_for(&mut self, model: &ViewerModel) {
        if !self.extent_chosen {
            let size = model.pair_scene().a().shape.local_aabb().extent().length()
                + model.pair_scene().b().shape.local_aabb().extent().length();
            self.half_extent = (0.25 * size).max(1e-3);
        }
    }

    /// Starts a heat map of the focused algorithm over B translations on the plane
    /// through B's current position spanned by `right` and `up` (the camera's).
    pub fn start_heat_map(&mut self, model: &ViewerModel, right: DVec3, up: DVec3) {
        if self.job.is_some() {
            return;
        }
        let (a, b) = (
            model.pair_scene().a().shape.clone(),
            model.pair_scene().b().shape.clone(),
        );
        let pose_a = model.pair_scene().a().pose;
        let mut heat = HeatMap {
            algorithm: model.diagnosed_algorithm(),
            centre: model.pair_scene().b().pose,
            right: right.normalize_or_zero(),
            up: up.normalize_or_zero(),
            half_extent: self.half_extent,
            cells: self.cells.max(2),
            iterations: Vec::new(),
        };
        let settings = model.pair_scene().settings;
        let total = heat.cells * heat.cells;
        let progress = Arc::new(AtomicUsize::new(0));
        let cancel = Arc::new(AtomicBool::new(false));
        let (p, c) = (progress.clone(), cancel.clone());
        let task = compute_pool().spawn(async move {
            heat.iterations = (0..total)
                .into_par_iter()
                .map(|i| {
                    if c.load(Ordering::Relaxed) {
                        return None;
                    }
                    let pose_b = heat.pose_at(i % heat.cells, i / heat.cells);
                    let md =
                        MinkowskiDifference::new(&a, &b, RelativePose::between(&pose_a, &pose_b));
                    let run = solve(heat.algorithm, md, settings);
                    p.fetch_add(1, Ordering::Relaxed);
                    matches!(
                        run.outcome,
                        Outcome::Intersecting
                            | Outcome::Separated { .. }
                            | Outcome::Contact { .. }
                            | Outcome::SeparatedEarlyStop { .. }
                    )
                    .then_some(run.iterations)
                })
                .collect();
            Work::Heat(heat)
        });
        self.job = Some(Job {
            progress,
            total,
            cancel,
            task,
            what: "heat map",
        });
    }

    /// Starts a contact jitter study of the current pose: every contact rule nudged,
    /// then the focused contact rule (Jolt's clipping when none is focused) over a grid
    /// of B's tilts about the contact's tangents.
    pub fn start_jitter(&mut self, model: &ViewerModel) {
        if self.job.is_some() {
            return;
        }
        let scene = model.pair_scene();
        let (a, b) = (scene.a().shape.clone(), scene.b().shape.clone());
        let (pose_a, pose_b) = (scene.a().pose, scene.b().pose);
        let (epa, contact) = (scene.settings.epa, scene.settings.contact);
        let grid_rule = model
            .focus()
            .entry::<ContactRule>()
            .unwrap_or(ContactRule::Clipping);
        let (cells, tilt) = (self.cells.max(2), self.tilt);
        let total = ContactRule::ALL.len() + cells * cells;
        let progress = Arc::new(AtomicUsize::new(0));
        let cancel = Arc::new(AtomicBool::new(false));
        let (p, c) = (progress.clone(), cancel.clone());
        let task = compute_pool().spawn(async move {
            let settings = JitterSettings::default();
            let reports: Vec<JitterReport> = ContactRule::ALL
                .iter()
                .filter_map(|&rule| {
                    let r = jitter(rule, &a, &b, &pose_a, &pose_b, epa, contact, &settings);
                    p.fetch_add(1, Ordering::Relaxed);
                    r
                })
                .collect();
            let normal = grid_rule
                .manifold(
                    &a,
                    &b,
                    RelativePose::between(&pose_a, &pose_b),
                    epa,
                    contact,
                )
                .ok()
                .map(|m| pose_a.transform_vector(m.certified_normal));
            let grid = normal.map(|n| TiltGrid::around(pose_b, n, tilt, cells));
            let worst = grid.as_ref().map_or(Vec::new(), |grid| {
                (0..cells * cells)
                    .into_par_iter()
                    .map(|cell| {
                        if c.load(Ordering::Relaxed) {
                            return None;
                        }
                        let w = worst_at_cell(
                            grid_rule, &a, &b, &pose_a, grid, epa, contact, &settings, cell,
                        );
                        p.fetch_add(1, Ordering::Relaxed);
                        w
                    })
                    .collect()
            });
            Work::Jitter(JitterStudy {
                reports,
                grid_rule,
                grid,
                worst,
                jump_ratio: settings.jump_ratio,
            })
        });
        self.job = Some(Job {
            progress,
            total,
            cancel,
            task,
            what: "contact jitter",
        });
    }

    /// Collects a finished job.
    fn collect(&mut self) {
        let Some(job) = self.job.as_mut() else {
            return;
        };
        let Some(work) = check_ready(&mut job.task) else {
            return;
        };
        self.job = None;
        match work {
            Work::Sweep(s) => self.sweep = Some(s),
            Work::Heat(h) => self.heat = Some(h),
            Work::Jitter(j) => self.jitter = Some(j),
        }
    }
}

/// Bevy's pool for long work (made on first use outside an app, as in tests).
fn compute_pool() -> &'static AsyncComputeTaskPool {
    AsyncComputeTaskPool::get_or_init(TaskPool::default)
}

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<Diagnosis>().add_systems(
        Update,
        collect_finished_jobs.run_if(in_state(super::state::ViewerMode::Diagnose)),
    );
}

fn collect_finished_jobs(mut diagnosis: ResMut<Diagnosis>) {
    diagnosis.collect();
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scene::Scene;

    fn wait(diagnosis: &mut Diagnosis) {
        for _ in 0..2000 {
            diagnosis.collect();
            if diagnosis.progress().is_none() {
                return;
            }
            std::thread::sleep(std::time::Duration::from_millis(5));
        }
        panic!("the background job did not finish");
    }

    #[test]
    fn contact_jitter_runs_in_the_background_and_its_cells_open_real_poses() {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("scenes/contact_cylinder_on_cap.ron");
        let mut model = ViewerModel::new(Scene::load(&path).unwrap());
        model.solve();
        let mut diagnosis = Diagnosis {
            cells: 5,
            ..Diagnosis::default()
        };
        diagnosis.start_jitter(&model);
        wait(&mut diagnosis);
        let study = diagnosis.jitter.as_ref().expect("a jitter study");
        assert_eq!(study.reports.len(), 3);
        // parry's square cap turns under the smallest nudge; Jolt's sampled rim does not.
        let parry = study
            .reports
            .iter()
            .find(|r| r.rule == ContactRule::Parry)
            .unwrap();
        assert!(parry.jumps(study.jump_ratio) > 0);
        let grid = study.grid.as_ref().unwrap();
        assert_eq!(study.worst.len(), 25);
        // The centre cell is the current pose; every cell has a manifold (1e-2 deep).
        assert_eq!(grid.pose_at(2, 2), model.pair_scene().b().pose);
        assert!(study.worst.iter().all(|w| w.is_some()));
    }

    #[test]
    fn sweep_and_heat_map_run_in_the_background_and_jump_to_real_poses() {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("scenes/cubes_frank_wolfe_zigzag.ron");
        let mut model = ViewerModel::new(Scene::load(&path).unwrap());
        // Fixed-step FW is slow on cubes.
        model.set_enabled(
            crate::solver::Method::of(Algorithm::FrankWolfe(crate::solver::StepRule::Fixed)),
            false,
        );
        model.solve();
        let mut diagnosis = Diagnosis {
            samples: 200,
            cells: 9,
            ..Diagnosis::default()
        };
        diagnosis.start_sweep(&model);
        assert!(diagnosis.progress().is_some());
        wait(&mut diagnosis);
        let sweep = diagnosis.sweep.as_ref().expect("a sweep result");
        assert_eq!(sweep.runs.len(), 200 * model.enabled_algorithms().len());
        let gjk = &sweep.distributions[0];
        let (iterations, _) = gjk.histogram[0];
        let pose = sweep.pose_with(gjk.algorithm, iterations).unwrap();
        // Jumping there and solving again gives that many iterations (up to rounding).
        let b = model.side(crate::app::model::Side::B);
        model.set_pose(b, sweep.world_pose_b(pose)).unwrap();
        model.solve();
        let again = model
            .run_of(crate::solver::Method::of(Algorithm::GJK))
            .unwrap()
            .run
            .summary
            .iterations;
        assert!(again.abs_diff(iterations) <= 1, "{again} vs {iterations}");

        diagnosis.start_heat_map(&model, DVec3::X, DVec3::Y);
        wait(&mut diagnosis);
        let heat = diagnosis.heat.as_ref().expect("a heat map");
        assert_eq!(heat.iterations.len(), 81);
        // The centre cell is the current pose.
        assert_eq!(
            heat.pose_at(4, 4).translation,
            model.pair_scene().b().pose.translation
        );

        // Cancel stops a long sweep early.
        diagnosis.samples = 100_000;
        diagnosis.start_sweep(&model);
        diagnosis.cancel();
        wait(&mut diagnosis);
        assert!(diagnosis.sweep.as_ref().unwrap().cancelled);
    }
}
