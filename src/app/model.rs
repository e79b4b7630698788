//! The viewer's state without Bevy: the scene, which methods run, their runs, and every
//! edit a user can make. Edits only change the scene and mark the runs stale; `solve`
//! (the viewer's Solve stage) re-runs what changed. An edit that fails leaves the scene
//! exactly as it was and returns a message for the UI.

use std::path::Path;
use std::time::Instant;

use super::composite_view::{CompositeView, PieceChoice};
use crate::mesh::{load_mesh, MeshReport};
use crate::pose::Pose;
use crate::scene::{Body, Scene, ShapeSpec};
use crate::solver::catalog::Family;
use crate::solver::trace::Trace;
use crate::solver::{nearest_in_simplex, Algorithm, InitialGuess, Method, Run, SolverSettings};

/// A body of the scene: its index in `scene.bodies`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct BodyId(pub usize);

/// A side of the pair in focus: which of its two bodies plays A and which B.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Side {
    A,
    B,
}

impl Side {
    pub fn label(self) -> &'static str {
        match self {
            Side::A => "A",
            Side::B => "B",
        }
    }
}

/// One method's run on the current pose, with its measured speed.
#[derive(Clone, Debug)]
pub struct MethodRun {
    pub run: Run,
    /// Mean time of one query without records, in microseconds: measured on demand
    /// ("time this pose"), not on every drag; `None` until then.
    pub micros_per_query: Option<f64>,
}

/// The viewer's model: a scene, the enabled methods and their runs.
#[derive(Clone, Debug)]
pub struct ViewerModel {
    pub scene: Scene,
    /// Enabled methods, in the catalog's order.
    enabled: Vec<Method>,
    /// The method whose steps the 3-D view, narration and plots show.
    focus: Method,
    runs: Vec<MethodRun>,
    /// Start each distance run from the previous pose's final simplex (its nearest
    /// point as the first direction: Box2D's simplex cache, Coal's cached guess): fewer
    /// iterations while dragging. Off by default, so that counts are the reference ones.
    warm_start: bool,
    /// The runs no longer match the scene: the Solve stage re-runs them.
    stale: bool,
    /// parry3d-f64's answer on the pair in focus at this pose (the cross-check).
    pub parry: Option<crate::cross_check::ParryAnswer>,
    /// The distance d* of the pair in focus to about 1e-13 (a GJK run to that
    /// tolerance), when the shapes are apart: what the bounds plot measures the runs'
    /// bounds against, so that a run's last bound is not its own reference.
    pub reference_distance: Option<f64>,
    /// Bumped on every change of what is drawn (shapes, poses, runs).
    pub revision: u64,
    /// Bumped when a shape itself changes (its mesh must be rebuilt).
    pub shape_revision: u64,
    /// The whole-pair answers and the sub-pair in focus, when the pair in focus holds a
    /// composite: then `runs` and `parry` are the sub-pair's.
    composite: Option<CompositeView>,
    /// The sub-pair the user put in focus (the nearest when `None`).
    choice: Option<PieceChoice>,
}

impl ViewerModel {
    pub fn new(scene: Scene) -> Self {
        let enabled = ordered(&scene.methods);
        // The scene lists the method in focus first.
        let focus = scene
            .methods
            .first()
            .copied()
            .filter(|m| enabled.contains(m))
            .unwrap_or(enabled[0]);
        let mut model = Self {
            scene,
            enabled,
            focus,
            runs: Vec::new(),
            warm_start: false,
            parry: None,
            reference_distance: None,
            stale: true,
            revision: 0,
            shape_revision: 0,
            composite: None,
            choice: None,
        };
        model.solve();
        model
    }

    /// The scene every convex view runs and draws: the sub-pair in focus when the pair
    /// holds a composite (a triangle or part and the other shape, placed as in the
    /// whole), else the scene itself. Edits go to `scene`.
    pub fn pair_scene(&self) -> &Scene {
        self.composite
            .as_ref()
            .and_then(|c| c.scene.as_ref())
            .unwrap_or(&self.scene)
    }

    /// The whole-pair answers and the sub-pair in focus, when the pair holds a composite.
    pub fn composite(&self) -> Option<&CompositeView> {
        self.composite.as_ref()
    }

    /// Puts a sub-pair of the composite pair in focus (`None`: the nearest, following
    /// the answer as the pose changes).
    pub fn set_sub_pair(&mut self, choice: Option<PieceChoice>) {
        self.choice = choice;
        self.mark_stale();
    }

    /// The sub-pair the user chose (`None`: the nearest is followed).
    pub fn sub_pair_choice(&self) -> Option<PieceChoice> {
        self.choice
    }

    /// The body playing `side` in the pair in focus.
    pub fn side(&self, side: Side) -> BodyId {
        let (a, b) = self.scene.pairs[0];
        BodyId(match side {
            Side::A => a,
            Side::B => b,
        })
    }

    pub fn body(&self, id: BodyId) -> &Body {
        &self.scene.bodies[id.0]
    }

    /// "A", "B" for the pair in focus, else "body k".
    pub fn body_label(&self, id: BodyId) -> String {
        if id == self.side(Side::A) {
            "A".into()
        } else if id == self.side(Side::B) {
            "B".into()
        } else {
            format!("body {}", id.0)
        }
    }

    fn body_mut(&mut self, id: BodyId) -> Result<&mut Body, String> {
        let count = self.scene.bodies.len();
        self.scene
            .bodies
            .get_mut(id.0)
            .ok_or_else(|| format!("no body {} (the scene has {count})", id.0))
    }

    pub fn enabled(&self) -> &[Method] {
        &self.enabled
    }

    pub fn focus(&self) -> Method {
        self.focus
    }

    /// The enabled distance solvers (what a Diagnose sweep compares).
    pub fn enabled_algorithms(&self) -> Vec<Algorithm> {
        self.enabled
            .iter()
            .filter_map(|m| m.entry::<Algorithm>())
            .collect()
    }

    /// The solver a heat map counts iterations of: the focused one, or with another
    /// family in focus, the first enabled solver (GJK when none is).
    pub fn diagnosed_algorithm(&self) -> Algorithm {
        match self.focus.entry::<Algorithm>() {
            Some(a) => a,
            None => self
                .enabled_algorithms()
                .first()
                .copied()
                .unwrap_or(Algorithm::GJK),
        }
    }

    /// The focused method's family: which drawing and narration are shown.
    pub fn focused_family(&self) -> Family {
        self.focus.family()
    }

    pub fn runs(&self) -> &[MethodRun] {
        &self.runs
    }

    pub fn run_of(&self, method: Method) -> Option<&MethodRun> {
        self.runs.iter().find(|r| r.run.method == method)
    }

    pub fn focused_run(&self) -> Option<&MethodRun> {
        self.run_of(self.focus)
    }

    /// The focused run's records.
    pub fn focused_trace(&self) -> Option<&Trace> {
        self.focused_run().map(|r| &r.run.trace)
    }

    /// How many steps the playback cursor runs over: the focused run's records.
    pub fn step_count(&self) -> usize {
        self.focused_trace().map_or(0, Trace::len)
    }

    /// Whether the runs are out of date (an edit since the last [`ViewerModel::solve`]).
    pub fn is_stale(&self) -> bool {
        self.stale
    }

    fn mark_stale(&mut self) {
        self.stale = true;
        self.revision += 1;
    }

    /// Re-runs every enabled method when an edit made the runs stale (the Solve stage).
    pub fn solve(&mut self) {
        if !self.stale {
            return;
        }
        self.stale = false;
        // A composite pair: the whole answers through the midphase, then every convex
        // view runs on the sub-pair in focus.
        self.composite = CompositeView::solve(&self.scene, &self.enabled, self.focus, self.choice);
        let guesses: Vec<Option<glam::DVec3>> = self
            .enabled
            .iter()
            .map(|m| self.warm_start.then(|| self.warm_direction(*m)).flatten())
            .collect();
        let scene = self.pair_scene();
        let runs = self
            .enabled
            .iter()
            .zip(guesses)
            .map(|(m, guess)| MethodRun {
                run: run_method(scene, *m, guess),
                micros_per_query: None,
            })
            .collect();
        // parry3d-f64 on the same pair and pose, for the cross-check panel.
        // (Not for implicit shapes: parry has none, and its GJK on their numerical
        // supports would cost every drag far more than the runs.)
        let (a, b) = (&scene.a().shape, &scene.b().shape);
        let implicit = |s: &crate::shape::Shape| matches!(s, crate::shape::Shape::Implicit(_));
        let parry = (!implicit(a) && !implicit(b)).then(|| {
            let motion = scene.relative_motion().ok().flatten();
            crate::cross_check::parry_answer(a, b, &scene.b_in_a(), motion)
        });
        self.reference_distance = reference_distance(scene);
        self.runs = runs;
        self.parry = parry;
        self.sync_scene_methods();
        self.revision += 1;
    }

    /// What a saved scene lists: the enabled methods, the one in focus first.
    fn sync_scene_methods(&mut self) {
        let others = self.enabled.iter().filter(|m| **m != self.focus);
        self.scene.methods = std::iter::once(self.focus).chain(others.copied()).collect();
    }

    /// The nearest point of `method`'s final simplex at the previous pose (A's frame): a
    /// direction to start the next run from.
    fn warm_direction(&self, method: Method) -> Option<glam::DVec3> {
        let simplex = &self.run_of(method)?.run.summary.simplex;
        let (x, _) = nearest_in_simplex(simplex)?;
        (x.is_finite() && x.length() > 0.0).then_some(x)
    }

    /// Times every enabled method on the current pose (the results panel's button).
    pub fn time_this_pose(&mut self) {
        let scene = self
            .composite
            .as_ref()
            .and_then(|c| c.scene.as_ref())
            .unwrap_or(&self.scene);
        for r in &mut self.runs {
            let guess = first_direction(&r.run.trace);
            r.micros_per_query = Some(time_queries(scene, r.run.method, guess));
        }
    }

    pub fn warm_start(&self) -> bool {
        self.warm_start
    }

    pub fn set_warm_start(&mut self, on: bool) {
        self.warm_start = on;
        self.mark_stale();
    }

    /// Replaces the pairs to check; the pair in focus stays first if it is among them.
    /// Refused when empty or when a pair names a body twice or one that does not exist.
    pub fn set_pairs(&mut self, mut pairs: Vec<(usize, usize)>) -> Result<(), String> {
        let n = self.scene.bodies.len();
        if pairs.is_empty() || pairs.iter().any(|&(i, j)| i == j || i >= n || j >= n) {
            return Err("a scene needs at least one pair of two different bodies".into());
        }
        if let Some(k) = pairs
            .iter()
            .position(|p| Some(*p) == self.scene.pairs.first().copied())
        {
            let focused = pairs.remove(k);
            pairs.insert(0, focused);
        }
        self.scene.pairs = pairs;
        self.shape_revision += 1;
        self.mark_stale();
        Ok(())
    }

    /// Puts pair `k` of the scene in focus (its bodies become A and B).
    pub fn set_focus_pair(&mut self, k: usize) {
        if k == 0 || k >= self.scene.pairs.len() {
            return;
        }
        let pair = self.scene.pairs.remove(k);
        self.scene.pairs.insert(0, pair);
        self.choice = None;
        self.shape_revision += 1;
        self.mark_stale();
    }

    /// Moves a body; NaN or infinite poses are refused; in a planar scene the pose is
    /// kept in the xy-plane (z = 0, its turn about z only).
    pub fn set_pose(&mut self, id: BodyId, pose: Pose) -> Result<(), String> {
        if !pose.is_finite() {
            return Err(format!("{}: the pose must be finite", self.body_label(id)));
        }
        let mut pose = Pose::new(pose.translation, pose.rotation.normalize());
        if self.scene.dimension == crate::scene::Dimension::Planar {
            pose = onto_plane(pose);
        }
        self.body_mut(id)?.pose = pose;
        self.mark_stale();
        Ok(())
    }

    /// Sets a body's motion over t ∈ [0, 1] (world frame); non-finite is refused.
    pub fn set_velocity(&mut self, id: BodyId, v: Option<glam::DVec3>) -> Result<(), String> {
        if v.is_some_and(|v| !v.is_finite()) {
            return Err(format!(
                "{}: the velocity must be finite",
                self.body_label(id)
            ));
        }
        let planar = self.scene.dimension == crate::scene::Dimension::Planar;
        self.body_mut(id)?.velocity = v.map(|v| if planar { v.with_z(0.0) } else { v });
        self.mark_stale();
        Ok(())
    }

    /// Replaces a body's shape by a new description (kind and parameters).
    pub fn set_shape(&mut self, id: BodyId, spec: ShapeSpec) -> Result<(), String> {
        let label = self.body_label(id);
        let pose = self.body_mut(id)?.pose;
        let mut body = Scene::build_body_spec(&spec, &self.scene.base_dir, pose)
            .map_err(|e| format!("{label}: {e}"))?;
        let old = self.body_mut(id)?;
        (body.velocity, body.spin) = (old.velocity, old.spin);
        body.name = old.name.clone();
        *self.body_mut(id)? = body;
        self.choice = None;
        self.shape_revision += 1;
        self.mark_stale();
        Ok(())
    }

    /// Loads an OBJ file as body `id`'s shape; the dialog, drag-and-drop and the path
    /// field all come here. On error the scene is unchanged.
    pub fn load_obj(&mut self, id: BodyId, path: &Path) -> Result<MeshReport, String> {
        let pose = self.body_mut(id)?.pose;
        let mesh = load_mesh(path).map_err(|e| e.to_string())?;
        let absolute = path.canonicalize().unwrap_or_else(|_| path.to_path_buf());
        let report = mesh.report.clone();
        *self.body_mut(id)? = Body {
            name: self.body(id).name.clone(),
            spec: ShapeSpec::Mesh {
                path: absolute.to_string_lossy().into_owned(),
                use_as: Default::default(),
            },
            shape: crate::shape::Shape::Polytope(mesh.polytope),
            composite: None,
            pose,
            mesh_report: Some(mesh.report),
            velocity: self.body(id).velocity,
            spin: self.body(id).spin,
        };
        self.choice = None;
        self.shape_revision += 1;
        self.mark_stale();
        Ok(report)
    }

    /// Replaces the whole scene by a scene file. On error the scene is unchanged.
    pub fn load_scene(&mut self, path: &Path) -> Result<(), String> {
        let scene = crate::input::open(path).map_err(|e| e.to_string())?;
        self.replace_scene(scene);
        Ok(())
    }

    /// Replaces the whole scene (a robot opened in robot mode, a loaded file).
    pub fn replace_scene(&mut self, scene: Scene) {
        // Counters keep growing so that everything drawn from the old scene is rebuilt.
        let (revision, shape_revision) = (self.revision, self.shape_revision);
        *self = ViewerModel::new(scene);
        self.revision = revision + 1;
        self.shape_revision = shape_revision + 1;
    }

    pub fn save_scene(&self, path: &Path) -> Result<(), String> {
        self.scene.save(path).map_err(|e| e.to_string())
    }

    pub fn set_enabled(&mut self, method: Method, on: bool) {
        let mut list = self.enabled.clone();
        list.retain(|m| *m != method);
        if on {
            list.push(method);
        }
        if list.is_empty() {
            return; // keep at least one method
        }
        self.enabled = ordered(&list);
        if !self.enabled.contains(&self.focus) {
            self.focus = self.enabled[0];
        }
        self.mark_stale();
    }

    /// Focuses a method, enabling it if needed.
    pub fn set_focus(&mut self, method: Method) {
        if !self.enabled.contains(&method) {
            self.set_enabled(method, true);
        }
        self.focus = method;
        self.sync_scene_methods();
        if self.composite.is_some() {
            // The sub-pairs listed are the focused method's.
            self.mark_stale();
        }
        self.revision += 1;
    }

    pub fn set_settings(&mut self, settings: SolverSettings) -> Result<(), String> {
        settings.validate()?;
        self.scene.settings = settings;
        self.mark_stale();
        Ok(())
    }

    /// The focused run as CSV, one row per record (the family's own columns).
    pub fn focused_run_csv(&self) -> String {
        self.focused_run()
            .map(|r| r.run.trace.csv(r.run.method.name()))
            .unwrap_or_default()
    }

    /// The focused run (summary and records) as JSON.
    pub fn focused_run_json(&self) -> String {
        match self.focused_run() {
            Some(r) => serde_json::to_string_pretty(&r.run).unwrap_or_default(),
            None => "{}".to_string(),
        }
    }
}

/// `list` in the catalog's order, without repeats; GJK when empty.
fn ordered(list: &[Method]) -> Vec<Method> {
    let v: Vec<Method> = Method::all()
        .into_iter()
        .filter(|m| list.contains(m))
        .collect();
    if v.is_empty() {
        vec![Method::all()[0]]
    } else {
        v
    }
}

/// The scene's settings, the first direction replaced by `guess` (a warm start).
fn settings_with(scene: &Scene, guess: Option<glam::DVec3>) -> SolverSettings {
    SolverSettings {
        initial_guess: guess.map_or(scene.settings.initial_guess, InitialGuess::Direction),
        ..scene.settings
    }
}

/// d* to about 1e-13: plain GJK on the pair, far past any lesson's tolerance (its upper
/// bound ∥x∥, certified by its separating plane to that width). `None` when the shapes
/// are not proved apart.
fn reference_distance(scene: &Scene) -> Option<f64> {
    use crate::solver::{Algorithm, DirectionRule};
    let settings = SolverSettings {
        tolerance: 1e-13,
        criterion: crate::solver::Criterion::VanDenBergen,
        kind: crate::solver::CriterionKind::Absolute,
        max_iterations: 10_000,
        mode: crate::solver::QueryMode::Distance,
        ..scene.settings
    };
    let method = Method::from(Algorithm::Gjk(DirectionRule::Vanilla));
    // Untraced: it runs on every drag, and only its answer is read.
    let (a, b, b_in_a) = (&scene.a().shape, &scene.b().shape, scene.b_in_a());
    let run = method.run(a, b, b_in_a, None, settings, false);
    let outcome = &run.summary.outcome;
    outcome.lower_bound().filter(|l| *l > 0.0)?;
    outcome.distance()
}

/// Runs `method` with records on the pair in focus.
fn run_method(scene: &Scene, method: Method, guess: Option<glam::DVec3>) -> Run {
    scene.run_with(method, settings_with(scene, guess))
}

/// The direction a distance run started from (so timing repeats the same run).
fn first_direction(trace: &Trace) -> Option<glam::DVec3> {
    trace.distance_step(0).map(|s| s.direction)
}

/// Times untraced queries of `method` on the pair in focus: the mean over ≥ 2 ms or
/// 2000 runs, in microseconds.
fn time_queries(scene: &Scene, method: Method, guess: Option<glam::DVec3>) -> f64 {
    let settings = settings_with(scene, guess);
    let (a, b, b_in_a) = (&scene.a().shape, &scene.b().shape, scene.b_in_a());
    let v = scene.relative_motion().ok().flatten();
    let start = Instant::now();
    let mut repeats = 0u32;
    while repeats < 2000 && (repeats < 3 || start.elapsed().as_micros() < 2000) {
        std::hint::black_box(method.run(a, b, b_in_a, v, settings, false));
        repeats += 1;
    }
    start.elapsed().as_secs_f64() * 1e6 / repeats as f64
}

/// The pose's place and turn within the xy-plane: z dropped, the rotation's twist about z
/// kept (the swing out of the plane removed).
fn onto_plane(pose: Pose) -> Pose {
    let q = pose.rotation;
    let twist = glam::DQuat::from_xyzw(0.0, 0.0, q.z, q.w);
    let rotation = if twist.length() > 0.0 {
        twist.normalize()
    } else {
        glam::DQuat::IDENTITY
    };
    Pose::new(pose.translation.with_z(0.0), rotation)
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::DVec3;

    fn model() -> ViewerModel {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("scenes/ellipsoids_close.ron");
        ViewerModel::new(Scene::load(&path).unwrap())
    }

    /// A drag or a typed pose in a planar scene stays in the plane: z dropped, only the
    /// turn about z kept.
    #[test]
    fn planar_poses_stay_in_the_plane() {
        let path = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("scenes/lessons/10_ericson_worked_example.ron");
        let mut m = ViewerModel::new(Scene::load(&path).unwrap());
        let b = m.side(Side::B);
        let turn = glam::DQuat::from_rotation_z(0.7) * glam::DQuat::from_rotation_x(0.4);
        m.set_pose(b, Pose::new(DVec3::new(1.0, 2.0, 0.5), turn))
            .unwrap();
        let pose = m.body(b).pose;
        assert_eq!(pose.translation, DVec3::new(1.0, 2.0, 0.0));
        let (axis, angle) = pose.rotation.to_axis_angle();
        assert!((axis - DVec3::Z).length() < 1e-12 && (angle - 0.7).abs() < 1e-12);
        m.set_velocity(b, Some(DVec3::new(1.0, 0.0, 3.0))).unwrap();
        assert_eq!(m.body(b).velocity, Some(DVec3::X));
        m.solve();
        assert!(m.focused_run().is_some());
    }

    #[test]
    fn epa_runs_when_enabled_and_its_focus_drives_the_steps() {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("scenes/epa_deep_coincident.ron");
        let mut m = ViewerModel::new(Scene::load(&path).unwrap());
        // The scene names epa first: enabled and in focus.
        assert!(m.enabled().contains(&Method::epa()) && m.focus() == Method::epa());
        let epa = m.run_of(Method::epa()).unwrap();
        assert_eq!(m.step_count(), epa.run.trace.len());
        assert!(epa.run.trace.len() > 5);
        assert_eq!(m.focused_family(), crate::solver::epa::FAMILY);
        // A pose change re-runs EPA; focusing a solver gives the steps back to it.
        let b = m.side(Side::B);
        let mut pose = m.body(b).pose;
        pose.translation.x += 0.05;
        m.set_pose(b, pose).unwrap();
        assert!(m.is_stale());
        m.solve();
        let epa = &m.run_of(Method::epa()).unwrap().run.summary.outcome;
        assert!(epa.signed_distance().unwrap() < 0.0);
        let solver = *m.enabled().iter().find(|x| **x != Method::epa()).unwrap();
        m.set_focus(solver);
        assert_ne!(m.focused_family(), crate::solver::epa::FAMILY);
        assert_eq!(m.step_count(), m.focused_run().unwrap().run.trace.len());
        // Saving keeps EPA in the list.
        assert!(m.scene.methods.contains(&Method::epa()));
        m.set_enabled(Method::epa(), false);
        m.solve();
        assert!(m.run_of(Method::epa()).is_none() && !m.scene.methods.contains(&Method::epa()));
    }

    #[test]
    fn warm_start_begins_at_the_previous_iterate_and_is_off_by_default() {
        let mut m = model();
        assert!(!m.warm_start());
        m.set_warm_start(true);
        m.solve();
        let trace = m.focused_trace().unwrap();
        let before = trace.distance_step(trace.len() - 1).unwrap().x;
        let b = m.side(Side::B);
        let mut pose = m.body(b).pose;
        pose.translation.x += 1e-4;
        m.set_pose(b, pose).unwrap();
        m.solve();
        let warm = &m.focused_run().unwrap().run;
        // The first support is taken along the previous simplex's nearest point.
        let first = warm.trace.distance_step(0).unwrap().direction;
        assert!((first - before).length() < 1e-12);
        let d_warm = warm.summary.outcome.distance().unwrap();
        m.set_warm_start(false);
        m.solve();
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
        m.solve();
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
        let b = m.side(Side::B);
        let pose = m.body(b).pose;
        m.set_pose(b, pose).unwrap();
        m.solve();
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
        let b = m.side(Side::B);
        let mut pose = m.body(b).pose;
        pose.translation += DVec3::new(1.0, 0.0, 0.0);
        let revision = m.revision;
        m.set_pose(b, pose).unwrap();
        m.solve();
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
        let (a, b) = (m.side(Side::A), m.side(Side::B));
        let mut pose = m.body(a).pose;
        pose.translation.x = f64::NAN;
        assert!(m.set_pose(a, pose).is_err());
        assert!(m.set_pose(BodyId(7), Pose::IDENTITY).is_err());
        assert!(m.set_shape(a, ShapeSpec::Sphere { radius: -1.0 }).is_err());
        assert!(m.load_obj(b, Path::new("/no/such.obj")).is_err());
        assert!(m.load_scene(Path::new("/no/such.ron")).is_err());
        let dir = std::env::temp_dir().join(format!("collidescope-model-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let broken = dir.join("broken.obj");
        std::fs::write(&broken, "v 0 0 0\nv 1 0\n").unwrap();
        let err = m.load_obj(b, &broken).unwrap_err();
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
        let fw = Method::of(Algorithm::FrankWolfe(crate::solver::StepRule::LineSearch));
        m.set_enabled(fw, true);
        m.solve();
        assert!(m.run_of(fw).is_some());
        m.set_focus(fw);
        assert_eq!(m.focused_run().unwrap().run.method, fw);
        for method in Method::all() {
            m.set_enabled(method, false);
        }
        m.solve();
        assert_eq!(m.enabled().len(), 1, "one algorithm always stays");
        assert!(m.focused_run().is_some());
        assert!(m.focused_run_csv().lines().count() > 1);
        assert!(m.focused_run_json().contains("trace"));
        assert!(m.focused_run_csv().starts_with("algorithm,k,event"));
    }

    #[test]
    fn shape_edit_and_obj_load() {
        let mut m = model();
        let (a, b) = (m.side(Side::A), m.side(Side::B));
        m.set_shape(
            a,
            ShapeSpec::Box {
                half_extents: [0.5, 0.5, 0.5],
            },
        )
        .unwrap();
        assert_eq!(m.body(a).shape.kind_name(), "box");
        let dir = std::env::temp_dir().join(format!("collidescope-obj-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let cube = dir.join("tet.obj");
        std::fs::write(
            &cube,
            "v 0 0 0\nv 1 0 0\nv 0 1 0\nv 0 0 1\nf 1 2 3\nf 1 2 4\nf 1 3 4\nf 2 3 4\n",
        )
        .unwrap();
        let report = m.load_obj(b, &cube).unwrap();
        assert_eq!(report.hull_vertices, 4);
        assert_eq!(m.body(b).shape.kind_name(), "polytope");
    }

    /// The time of impact companion's motion curve on the model's scene.
    fn motion_curve(m: &ViewerModel) -> Vec<[f64; 2]> {
        crate::app::companion::toi::motion_curve(&m.scene, m.enabled())
    }

    #[test]
    fn a_moving_body_drives_the_time_of_impact_and_its_plot() {
        let path =
            Path::new(env!("CARGO_MANIFEST_DIR")).join("scenes/toi_bullet_through_plate.ron");
        let mut m = ViewerModel::new(Scene::load(&path).unwrap());
        assert_eq!(m.focused_family(), crate::solver::toi::FAMILY);
        assert!(m.step_count() > 2);
        assert_eq!(motion_curve(&m).len(), 101);
        let time = |m: &ViewerModel| match m.focused_run().unwrap().run.summary.outcome {
            crate::solver::Outcome::Impact { time, .. } => time,
            ref other => panic!("{other}"),
        };
        assert!((time(&m) - 0.4848).abs() < 1e-7);
        // Twice the speed: half the time; the velocity survives a shape edit and a save.
        let b = m.side(Side::B);
        m.set_velocity(b, Some(glam::DVec3::new(0.0, -20.0, 0.0)))
            .unwrap();
        m.set_shape(b, ShapeSpec::Sphere { radius: 0.05 }).unwrap();
        m.solve();
        assert!((time(&m) - 0.2424).abs() < 1e-7);
        assert_eq!(
            m.scene.to_file().bodies[1].velocity,
            Some([0.0, -20.0, 0.0])
        );
        // No velocity: an honest not_applicable, and no plot.
        m.set_velocity(b, None).unwrap();
        m.solve();
        let outcome = &m.focused_run().unwrap().run.summary.outcome;
        assert_eq!(outcome.status_name(), "not_applicable", "{outcome}");
        assert!(motion_curve(&m).is_empty());
        assert!(m.set_velocity(b, Some(glam::DVec3::NAN)).is_err());
    }
}
