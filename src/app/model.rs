//! The viewer's state without Bevy: the scene, which algorithms run, their runs, and
//! every edit a user can make. Every edit re-solves at once; an edit that fails leaves
//! the scene exactly as it was and returns a message for the UI.

use std::path::Path;
use std::time::Instant;

use crate::mesh_io::{load_obj, MeshReport};
use crate::minkowski::MinkowskiDifference;
use crate::pose::Pose;
use crate::scene::{Body, Scene, ShapeSpec};
use crate::solver::epa::{gjk_settings_for_epa, penetration, EpaRun, EpaSettings};
use crate::solver::{solve, Algorithm, InitialGuess, Method, Run, SolverSettings};
use crate::trace::{csv_rows, IterationRecord, CSV_HEADER};

/// Which of the two shapes an edit is about.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BodyId {
    A,
    B,
}

impl BodyId {
    pub fn label(self) -> &'static str {
        match self {
            BodyId::A => "A",
            BodyId::B => "B",
        }
    }
}

/// One algorithm's run on the current pose, with its measured speed.
#[derive(Clone, Debug)]
pub struct AlgorithmRun {
    pub run: Run,
    /// Mean time of one query without tracing, in microseconds: measured on demand
    /// ("time this pose"), not on every drag; `None` until then.
    pub micros_per_query: Option<f64>,
}

/// The viewer's model: a scene, the enabled algorithms and their runs.
#[derive(Clone, Debug)]
pub struct ViewerModel {
    pub scene: Scene,
    /// Enabled algorithms, in the order of [`Algorithm::ALL`].
    enabled: Vec<Algorithm>,
    pub focus: Algorithm,
    runs: Vec<AlgorithmRun>,
    /// EPA (penetration depth) runs alongside when enabled; in focus, the 3-D view, the
    /// narration and the plots show its expansions instead of the focused solver's steps.
    epa_enabled: bool,
    pub epa_focus: bool,
    epa: Option<EpaRun>,
    /// Start each run from the previous pose's final iterate (Box2D's simplex cache,
    /// Coal's guess from the simplex): fewer iterations while dragging. Off by default,
    /// so that counts are the reference ones.
    pub warm_start: bool,
    /// Bumped on every change of what is drawn (shapes, poses, runs).
    pub revision: u64,
    /// Bumped when a shape itself changes (its mesh must be rebuilt).
    pub shape_revision: u64,
}

impl ViewerModel {
    pub fn new(scene: Scene) -> Self {
        let enabled = ordered(&scene.algorithms);
        let focus = enabled[0];
        let epa_enabled = scene.methods.contains(&Method::Epa);
        let epa_focus = scene.methods.first() == Some(&Method::Epa);
        let mut model = Self {
            scene,
            enabled,
            focus,
            runs: Vec::new(),
            epa_enabled,
            epa_focus,
            epa: None,
            warm_start: false,
            revision: 0,
            shape_revision: 0,
        };
        model.resolve();
        model
    }

    pub fn body(&self, id: BodyId) -> &Body {
        match id {
            BodyId::A => self.scene.a(),
            BodyId::B => self.scene.b(),
        }
    }

    fn body_mut(&mut self, id: BodyId) -> &mut Body {
        match id {
            BodyId::A => self.scene.a_mut(),
            BodyId::B => self.scene.b_mut(),
        }
    }

    pub fn enabled(&self) -> &[Algorithm] {
        &self.enabled
    }

    pub fn runs(&self) -> &[AlgorithmRun] {
        &self.runs
    }

    pub fn run_of(&self, algorithm: Algorithm) -> Option<&AlgorithmRun> {
        self.runs.iter().find(|r| r.run.algorithm == algorithm)
    }

    pub fn focused_run(&self) -> Option<&AlgorithmRun> {
        self.run_of(self.focus)
    }

    /// The focused run's record at `cursor` (clamped).
    pub fn record_at(&self, cursor: usize) -> Option<&IterationRecord> {
        let trace = &self.focused_run()?.run.trace;
        trace.get(cursor.min(trace.len().saturating_sub(1)))
    }

    /// Re-runs every enabled algorithm on the current scene.
    pub fn resolve(&mut self) {
        let runs = self
            .enabled
            .iter()
            .map(|a| {
                let guess = self.warm_start.then(|| self.final_iterate(*a)).flatten();
                run_traced(&self.scene, *a, guess)
            })
            .collect();
        self.runs = runs;
        self.epa = self.epa_enabled.then(|| {
            let s = &self.scene;
            penetration(
                &s.a().shape,
                &s.b().shape,
                s.b_in_a(),
                gjk_settings_for_epa(),
                EpaSettings::default(),
            )
        });
        self.scene.algorithms = self.enabled.clone();
        let solvers = self.enabled.iter().map(|a| Method::Solver(*a));
        self.scene.methods = if self.epa_enabled {
            std::iter::once(Method::Epa).chain(solvers).collect()
        } else {
            solvers.collect()
        };
        self.revision += 1;
    }

    /// The last iterate of `algorithm`'s current run (A's frame), a direction to start
    /// the next run from.
    fn final_iterate(&self, algorithm: Algorithm) -> Option<glam::DVec3> {
        let x = self.run_of(algorithm)?.run.trace.last()?.x;
        (x.is_finite() && x.length() > 0.0).then_some(x)
    }

    /// Times every enabled algorithm on the current pose (the results panel's button).
    pub fn time_this_pose(&mut self) {
        let scene = &self.scene;
        for r in &mut self.runs {
            let guess = r.run.trace.first().map(|first| first.direction);
            let settings = SolverSettings {
                initial_guess: guess.map_or(scene.settings.initial_guess, InitialGuess::Direction),
                ..scene.settings
            };
            r.micros_per_query = Some(time_queries(scene, r.run.algorithm, settings));
        }
    }

    pub fn set_warm_start(&mut self, on: bool) {
        self.warm_start = on;
        self.resolve();
    }

    /// Puts pair `k` of the scene in focus (its bodies become A and B).
    pub fn set_focus_pair(&mut self, k: usize) {
        if k == 0 || k >= self.scene.pairs.len() {
            return;
        }
        let pair = self.scene.pairs.remove(k);
        self.scene.pairs.insert(0, pair);
        self.shape_revision += 1;
        self.resolve();
    }

    /// The EPA run on the current pose, when EPA is enabled.
    pub fn epa(&self) -> Option<&EpaRun> {
        self.epa.as_ref()
    }

    pub fn epa_enabled(&self) -> bool {
        self.epa_enabled
    }

    pub fn set_epa_enabled(&mut self, on: bool) {
        self.epa_enabled = on;
        self.epa_focus &= on;
        self.resolve();
    }

    /// Puts EPA in focus (enabling it), or gives the focus back to the solvers.
    pub fn set_epa_focus(&mut self, on: bool) {
        if on && !self.epa_enabled {
            self.set_epa_enabled(true);
        }
        self.epa_focus = on;
        self.revision += 1;
    }

    /// How many steps the playback cursor runs over: EPA's records in EPA focus, else
    /// the focused run's.
    pub fn step_count(&self) -> usize {
        if self.epa_focus {
            self.epa.as_ref().map_or(0, |r| r.records.len())
        } else {
            self.focused_run().map_or(0, |r| r.run.trace.len())
        }
    }

    /// Moves a shape; NaN or infinite poses are refused.
    pub fn set_pose(&mut self, id: BodyId, pose: Pose) -> Result<(), String> {
        if !pose.is_finite() {
            return Err(format!("shape {}: the pose must be finite", id.label()));
        }
        let pose = Pose::new(pose.translation, pose.rotation.normalize());
        self.body_mut(id).pose = pose;
        self.resolve();
        Ok(())
    }

    /// Replaces a shape by a new description (kind and parameters).
    pub fn set_shape(&mut self, id: BodyId, spec: ShapeSpec) -> Result<(), String> {
        let body = self.build_body(id, spec)?;
        *self.body_mut(id) = body;
        self.shape_revision += 1;
        self.resolve();
        Ok(())
    }

    fn build_body(&self, id: BodyId, spec: ShapeSpec) -> Result<Body, String> {
        let pose = self.body(id).pose;
        Scene::build_body_spec(&spec, &self.scene.base_dir, pose)
            .map_err(|e| format!("shape {}: {e}", id.label()))
    }

    /// Loads an OBJ file as shape `id`; the dialog, drag-and-drop and the path field all
    /// come here. On error the scene is unchanged.
    pub fn load_obj(&mut self, id: BodyId, path: &Path) -> Result<MeshReport, String> {
        let mesh = load_obj(path).map_err(|e| e.to_string())?;
        let absolute = path.canonicalize().unwrap_or_else(|_| path.to_path_buf());
        let pose = self.body(id).pose;
        let report = mesh.report.clone();
        *self.body_mut(id) = Body {
            spec: ShapeSpec::Mesh {
                path: absolute.to_string_lossy().into_owned(),
            },
            shape: crate::shape::Shape::Polytope(mesh.polytope),
            pose,
            mesh_report: Some(mesh.report),
        };
        self.shape_revision += 1;
        self.resolve();
        Ok(report)
    }

    /// Replaces the whole scene by a scene file. On error the scene is unchanged.
    pub fn load_scene(&mut self, path: &Path) -> Result<(), String> {
        let scene = Scene::load(path).map_err(|e| e.to_string())?;
        // Counters keep growing so that everything drawn from the old scene is rebuilt.
        let (revision, shape_revision) = (self.revision, self.shape_revision);
        *self = ViewerModel::new(scene);
        self.revision = revision + 1;
        self.shape_revision = shape_revision + 1;
        Ok(())
    }

    pub fn save_scene(&self, path: &Path) -> Result<(), String> {
        self.scene.save(path).map_err(|e| e.to_string())
    }

    pub fn set_enabled(&mut self, algorithm: Algorithm, on: bool) {
        let mut list = self.enabled.clone();
        list.retain(|a| *a != algorithm);
        if on {
            list.push(algorithm);
        }
        if list.is_empty() {
            return; // keep at least one algorithm
        }
        self.enabled = ordered(&list);
        if !self.enabled.contains(&self.focus) {
            self.focus = self.enabled[0];
        }
        self.resolve();
    }

    /// Focuses an algorithm, enabling it if needed.
    pub fn set_focus(&mut self, algorithm: Algorithm) {
        if !self.enabled.contains(&algorithm) {
            self.set_enabled(algorithm, true);
        }
        self.focus = algorithm;
        self.epa_focus = false;
        self.revision += 1;
    }

    pub fn set_settings(&mut self, settings: SolverSettings) -> Result<(), String> {
        settings.validate()?;
        self.scene.settings = SolverSettings {
            record_trace: true,
            ..settings
        };
        self.resolve();
        Ok(())
    }

    /// The focused run as CSV, one row per recorded iteration.
    pub fn focused_run_csv(&self) -> String {
        let rows = self
            .focused_run()
            .map(|r| csv_rows(r.run.algorithm.name(), &r.run.trace))
            .unwrap_or_default();
        format!("{CSV_HEADER}\n{rows}")
    }

    /// The focused run (summary and full trace) as JSON.
    pub fn focused_run_json(&self) -> String {
        match self.focused_run() {
            Some(r) => serde_json::to_string_pretty(&r.run).unwrap_or_default(),
            None => "{}".to_string(),
        }
    }
}

/// `list` in the order of [`Algorithm::ALL`], without repeats; GJK when empty.
fn ordered(list: &[Algorithm]) -> Vec<Algorithm> {
    let v: Vec<Algorithm> = Algorithm::ALL
        .into_iter()
        .filter(|a| list.contains(a))
        .collect();
    if v.is_empty() {
        vec![Algorithm::ALL[0]]
    } else {
        v
    }
}

/// Solves with the trace; `guess` (a warm start) replaces the scene's initial guess.
fn run_traced(scene: &Scene, algorithm: Algorithm, guess: Option<glam::DVec3>) -> AlgorithmRun {
    let settings = SolverSettings {
        initial_guess: guess.map_or(scene.settings.initial_guess, InitialGuess::Direction),
        ..scene.settings
    };
    let run = solve(
        algorithm,
        MinkowskiDifference::new(&scene.a().shape, &scene.b().shape, scene.b_in_a()),
        settings,
    );
    AlgorithmRun {
        run,
        micros_per_query: None,
    }
}

/// Times untraced queries of `algorithm` on the scene's focused pair, with the settings
/// its run used: the mean over ≥ 2 ms or 2000 runs, in microseconds.
fn time_queries(scene: &Scene, algorithm: Algorithm, settings: SolverSettings) -> f64 {
    let settings = SolverSettings {
        record_trace: false,
        ..settings
    };
    let b_in_a = scene.b_in_a();
    let start = Instant::now();
    let mut repeats = 0u32;
    while repeats < 2000 && (repeats < 3 || start.elapsed().as_micros() < 2000) {
        let md = MinkowskiDifference::new(&scene.a().shape, &scene.b().shape, b_in_a);
        std::hint::black_box(solve(algorithm, md, settings));
        repeats += 1;
    }
    start.elapsed().as_secs_f64() * 1e6 / repeats as f64
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::DVec3;

    fn model() -> ViewerModel {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("scenes/ellipsoids_close.ron");
        ViewerModel::new(Scene::load(&path).unwrap())
    }

    #[test]
    fn epa_runs_when_enabled_and_its_focus_drives_the_steps() {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("scenes/epa_deep_coincident.ron");
        let mut m = ViewerModel::new(Scene::load(&path).unwrap());
        // The scene names epa first: enabled and in focus.
        assert!(m.epa_enabled() && m.epa_focus);
        let epa = m.epa().unwrap();
        assert_eq!(m.step_count(), epa.records.len());
        assert!(epa.records.len() > 5);
        // A pose change re-runs EPA; focusing a solver gives the steps back to it.
        let mut pose = m.body(BodyId::B).pose;
        pose.translation.x += 0.05;
        m.set_pose(BodyId::B, pose).unwrap();
        assert!(m.epa().unwrap().outcome.signed_distance().unwrap() < 0.0);
        m.set_focus(m.enabled()[0]);
        assert!(!m.epa_focus);
        assert_eq!(m.step_count(), m.focused_run().unwrap().run.trace.len());
        // Saving keeps EPA in the list.
        assert_eq!(m.scene.methods.first(), Some(&crate::solver::Method::Epa));
        m.set_epa_enabled(false);
        assert!(m.epa().is_none() && !m.scene.methods.contains(&crate::solver::Method::Epa));
    }

    #[test]
    fn warm_start_begins_at_the_previous_iterate_and_is_off_by_default() {
        let mut m = model();
        assert!(!m.warm_start);
        m.set_warm_start(true);
        let before = m.focused_run().unwrap().run.trace.last().unwrap().x;
        let mut pose = m.body(BodyId::B).pose;
        pose.translation.x += 1e-4;
        m.set_pose(BodyId::B, pose).unwrap();
        let warm = &m.focused_run().unwrap().run;
        // The first support is taken along the previous iterate.
        assert!((warm.trace[0].direction - before).length() < 1e-12);
        let d_warm = warm.summary.outcome.distance().unwrap();
        m.set_warm_start(false);
        let cold = &m.focused_run().unwrap().run;
        assert!((cold.summary.outcome.distance().unwrap() - d_warm).abs() < 1e-4);
    }

    #[test]
    fn another_pair_can_be_focused() {
        let text = r#"Scene(
    version: 2,
    name: "three",
    bodies: [
        Body(shape: Sphere(radius: 0.5)),
        Body(shape: Sphere(radius: 0.5), translation: (2.0, 0.0, 0.0)),
        Body(shape: Sphere(radius: 0.5), translation: (0.0, 4.0, 0.0)),
    ],
    pairs: [(0, 1), (0, 2)],
    algorithms: ["gjk"],
    settings: Settings(tolerance: 1e-10, criterion: DualityGap, kind: Absolute, max_iterations: 100, initial_guess: CentreDifference),
)"#;
        let mut m = ViewerModel::new(Scene::parse(Path::new("three.ron"), text).unwrap());
        let d = |m: &ViewerModel| {
            m.focused_run()
                .unwrap()
                .run
                .summary
                .outcome
                .distance()
                .unwrap()
        };
        assert!((d(&m) - 1.0).abs() < 1e-5);
        m.set_focus_pair(1);
        assert!((d(&m) - 3.0).abs() < 1e-5);
        assert_eq!(m.scene.pairs[0], (0, 2));
    }

    #[test]
    fn timing_is_on_demand() {
        let mut m = model();
        assert!(m.runs().iter().all(|r| r.micros_per_query.is_none()));
        m.time_this_pose();
        assert!(m
            .runs()
            .iter()
            .all(|r| r.micros_per_query.is_some_and(|t| t > 0.0)));
        let pose = m.body(BodyId::B).pose;
        m.set_pose(BodyId::B, pose).unwrap();
        assert!(
            m.runs().iter().all(|r| r.micros_per_query.is_none()),
            "stale after a change"
        );
    }

    #[test]
    fn pose_edit_re_solves() {
        let mut m = model();
        let before = m
            .focused_run()
            .unwrap()
            .run
            .summary
            .outcome
            .distance()
            .unwrap();
        let mut pose = m.body(BodyId::B).pose;
        pose.translation += DVec3::new(1.0, 0.0, 0.0);
        let revision = m.revision;
        m.set_pose(BodyId::B, pose).unwrap();
        assert!(m.revision > revision);
        let after = m
            .focused_run()
            .unwrap()
            .run
            .summary
            .outcome
            .distance()
            .unwrap();
        assert!(after > before + 0.5, "{before} -> {after}");
    }

    #[test]
    fn bad_edits_keep_the_scene() {
        let mut m = model();
        let before = m.scene.to_file();
        let mut pose = m.body(BodyId::A).pose;
        pose.translation.x = f64::NAN;
        assert!(m.set_pose(BodyId::A, pose).is_err());
        assert!(m
            .set_shape(BodyId::A, ShapeSpec::Sphere { radius: -1.0 })
            .is_err());
        assert!(m.load_obj(BodyId::B, Path::new("/no/such.obj")).is_err());
        assert!(m.load_scene(Path::new("/no/such.ron")).is_err());
        let dir = std::env::temp_dir().join(format!("collidescope-model-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let broken = dir.join("broken.obj");
        std::fs::write(&broken, "v 0 0 0\nv 1 0\n").unwrap();
        let err = m.load_obj(BodyId::B, &broken).unwrap_err();
        assert!(err.contains("broken.obj"), "{err}");
        let bad_scene = dir.join("bad.ron");
        std::fs::write(&bad_scene, "Scene(version: 1").unwrap();
        let err = m.load_scene(&bad_scene).unwrap_err();
        assert!(err.contains("bad.ron:1:"), "{err}");
        assert_eq!(m.scene.to_file(), before);
    }

    #[test]
    fn toggles_and_focus() {
        let mut m = model();
        m.set_enabled(Algorithm::ALL[5], true);
        assert!(m.run_of(Algorithm::ALL[5]).is_some());
        m.set_focus(Algorithm::ALL[5]);
        assert_eq!(m.focused_run().unwrap().run.algorithm, Algorithm::ALL[5]);
        for a in Algorithm::ALL {
            m.set_enabled(a, false);
        }
        assert_eq!(m.enabled().len(), 1, "one algorithm always stays");
        assert!(m.focused_run().is_some());
        assert!(m.focused_run_csv().lines().count() > 1);
        assert!(m.focused_run_json().contains("trace"));
    }

    #[test]
    fn shape_edit_and_obj_load() {
        let mut m = model();
        m.set_shape(
            BodyId::A,
            ShapeSpec::Box {
                half_extents: [0.5, 0.5, 0.5],
            },
        )
        .unwrap();
        assert_eq!(m.body(BodyId::A).shape.kind_name(), "box");
        let dir = std::env::temp_dir().join(format!("collidescope-obj-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let cube = dir.join("tet.obj");
        std::fs::write(
            &cube,
            "v 0 0 0\nv 1 0 0\nv 0 1 0\nv 0 0 1\nf 1 2 3\nf 1 2 4\nf 1 3 4\nf 2 3 4\n",
        )
        .unwrap();
        let report = m.load_obj(BodyId::B, &cube).unwrap();
        assert_eq!(report.hull_vertices, 4);
        assert_eq!(m.body(BodyId::B).shape.kind_name(), "polytope");
    }
}
