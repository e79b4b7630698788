//! Scene files (RON, strict, versioned): bodies with poses, the pairs to check, the
//! algorithms to run and their settings, the dimension, notes and lesson steps for
//! teaching. Version 2 holds a list of bodies; version 1 files (exactly two bodies, `a`
//! and `b`) still load. Loading validates everything and names the file, line and
//! problem; saving writes version 2.

use std::path::{Path, PathBuf};

use std::sync::Arc;

use glam::DVec3;
use thiserror::Error;

use crate::composite::Composite;

use crate::mesh::{MeshError, MeshReport};
use crate::pose::Motion;
use crate::pose::{Pose, RelativePose};
use crate::shape::Shape;
use crate::solver::{Algorithm, Method, Run, SolverSettings};

mod build;
mod composite;
mod course;
mod focus;
mod format;

pub use build::build_shape_spec;
use build::{body_name, build_body, check_dimension};
pub use composite::CONTACT_MARGIN_FRACTION;
pub use course::{Course, CoursePath, COURSE_FILE};
pub use format::*;

/// The scene format version this build writes (it also reads version 1).
pub const SCENE_VERSION: u32 = 2;

/// Why a scene could not be loaded or saved.
#[derive(Debug, Error)]
pub enum SceneError {
    #[error("{path}: cannot read: {source}")]
    Read {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("{path}: cannot write: {source}")]
    Write {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("{path}:{line}:{column}: {message}")]
    Syntax {
        path: PathBuf,
        line: usize,
        column: usize,
        message: String,
    },
    #[error("{path}: {message}")]
    Invalid { path: PathBuf, message: String },
    #[error("{path}: shape {body}: {source}")]
    Mesh {
        path: PathBuf,
        body: String,
        #[source]
        source: Box<MeshError>,
    },
}

/// One shape of a loaded scene: what the file said, the built shape, its pose.
#[derive(Clone, Debug)]
pub struct Body {
    /// The body's own name, when the file gave one (a link, a geom).
    pub name: Option<String>,
    pub spec: ShapeSpec,
    /// The convex shape; for a composite, its hull (the stand-in convex views show).
    pub shape: Shape,
    /// A composite's pieces and hierarchy (a mesh taken as triangles, a height field, a
    /// compound), built once and shared by the scene's copies.
    pub composite: Option<Arc<Composite>>,
    pub pose: Pose,
    /// The import report when the shape came from an OBJ file.
    pub mesh_report: Option<MeshReport>,
    /// The body's translation over the motion (world frame), when it moves.
    pub velocity: Option<DVec3>,
    /// The body's turn over the motion (rotation vector, world frame), when it turns.
    pub spin: Option<DVec3>,
}

/// A validated scene, ready to solve.
#[derive(Clone, Debug)]
pub struct Scene {
    pub name: String,
    pub notes: String,
    pub dimension: Dimension,
    /// Two or more bodies.
    pub bodies: Vec<Body>,
    /// The pairs to check (indices into `bodies`, `i ≠ j`); the first is in focus.
    pub pairs: Vec<(usize, usize)>,
    pub lesson: Vec<LessonStep>,
    /// Questions to ask the class after the lesson.
    pub questions: Vec<String>,
    /// The answer to each question (the worksheet's answer key); empty when unwritten.
    pub answers: Vec<String>,
    /// Every method the file names (its `algorithms`), in its order: the scene's one
    /// list; the distance solvers among them are [`Scene::distance_solvers`].
    pub methods: Vec<Method>,
    pub settings: SolverSettings,
    /// Folder that relative mesh paths are resolved against.
    pub base_dir: PathBuf,
}

impl Scene {
    /// Reads, parses and validates a scene file (RON; [`crate::input::open`] also
    /// imports an engine's query).
    pub fn load(path: &Path) -> Result<Scene, SceneError> {
        let text = Self::read_text(path)?;
        Self::parse(path, &text)
    }

    /// A file's text; invalid UTF-8 is refused with where it starts (line, column, byte
    /// offset).
    pub fn read_text(path: &Path) -> Result<String, SceneError> {
        let bytes = std::fs::read(path).map_err(|source| SceneError::Read {
            path: path.to_path_buf(),
            source,
        })?;
        String::from_utf8(bytes).map_err(|e| {
            let valid = &e.as_bytes()[..e.utf8_error().valid_up_to()];
            let line = valid.iter().filter(|b| **b == b'\n').count() + 1;
            let column = valid.iter().rev().take_while(|b| **b != b'\n').count() + 1;
            SceneError::Syntax {
                path: path.to_path_buf(),
                line,
                column,
                message: format!(
                    "not UTF-8 text (byte offset {})",
                    e.utf8_error().valid_up_to()
                ),
            }
        })
    }

    /// Parses scene text (RON); `path` names it in messages and anchors relative mesh
    /// paths.
    pub fn parse(path: &Path, text: &str) -> Result<Scene, SceneError> {
        let syntax = |e: ron::error::SpannedError| SceneError::Syntax {
            path: path.to_path_buf(),
            line: e.span.start.line,
            column: e.span.start.col,
            message: e.code.to_string(),
        };
        // The version decides the format; a file without one is read as the current.
        let version = ron::Options::default()
            .from_str::<VersionOnly>(text)
            .map(|v| v.version)
            .unwrap_or(SCENE_VERSION);
        if version != 1 && version != SCENE_VERSION {
            return Err(SceneError::Invalid {
                path: path.to_path_buf(),
                message: format!(
                    "unsupported scene version {version} (this build reads versions 1 and {SCENE_VERSION})"
                ),
            });
        }
        let file: SceneFile = if version == 1 {
            ron::from_str::<SceneFileV1>(text).map_err(syntax)?.into()
        } else {
            ron::from_str(text).map_err(syntax)?
        };
        let base_dir = path.parent().map(Path::to_path_buf).unwrap_or_default();
        Self::from_file(file, path, base_dir)
    }

    /// Builds and checks a scene file read from `path` (which names it in messages and
    /// anchors relative mesh paths): an imported query, a generated scene.
    pub fn from_scene_file(file: SceneFile, path: &Path) -> Result<Scene, SceneError> {
        let base_dir = path.parent().map(Path::to_path_buf).unwrap_or_default();
        Self::from_file(file, path, base_dir)
    }

    /// The first body of the pair in focus.
    pub fn a(&self) -> &Body {
        &self.bodies[self.pairs[0].0]
    }

    /// The second body of the pair in focus.
    pub fn b(&self) -> &Body {
        &self.bodies[self.pairs[0].1]
    }

    pub fn a_mut(&mut self) -> &mut Body {
        &mut self.bodies[self.pairs[0].0]
    }

    pub fn b_mut(&mut self) -> &mut Body {
        &mut self.bodies[self.pairs[0].1]
    }

    /// A scene of two bodies (A and B) with the pair between them.
    pub fn of_pair(name: String, notes: String, a: Body, b: Body) -> Self {
        Scene {
            name,
            notes,
            dimension: Dimension::Spatial,
            bodies: vec![a, b],
            pairs: vec![(0, 1)],
            lesson: Vec::new(),
            questions: Vec::new(),
            answers: Vec::new(),
            methods: vec![Method::of(Algorithm::GJK)],
            settings: SolverSettings::default(),
            base_dir: PathBuf::new(),
        }
    }

    fn from_file(file: SceneFile, path: &Path, base_dir: PathBuf) -> Result<Scene, SceneError> {
        let invalid = |message: String| SceneError::Invalid {
            path: path.to_path_buf(),
            message,
        };
        if file.version != 1 && file.version != SCENE_VERSION {
            return Err(invalid(format!(
                "unsupported scene version {} (this build reads versions 1 and {SCENE_VERSION})",
                file.version
            )));
        }
        if file.bodies.len() < 2 {
            return Err(invalid(format!(
                "bodies: a scene needs at least two, got {}",
                file.bodies.len()
            )));
        }
        let n = file.bodies.len();
        let pairs: Vec<(usize, usize)> = if file.pairs.is_empty() {
            (0..n)
                .flat_map(|i| (i + 1..n).map(move |j| (i, j)))
                .collect()
        } else {
            file.pairs.clone()
        };
        if let Some((i, j)) = pairs.iter().find(|(i, j)| *i >= n || *j >= n || i == j) {
            return Err(invalid(format!(
                "pairs: ({i}, {j}) must name two different bodies of the {n}"
            )));
        }
        let methods = file
            .algorithms
            .iter()
            .map(|name| {
                name.parse::<Method>()
                    .map_err(|e| invalid(format!("algorithms: {e}")))
            })
            .collect::<Result<Vec<_>, _>>()?;
        if methods.is_empty() {
            return Err(invalid(
                "algorithms: the list is empty; name at least one".into(),
            ));
        }
        let settings = file.settings;
        settings
            .validate()
            .map_err(|e| invalid(format!("settings: {e}")))?;
        let bodies = file
            .bodies
            .iter()
            .enumerate()
            .map(|(i, spec)| {
                let label = match &spec.name {
                    Some(name) => format!("{} ({name})", body_name(i)),
                    None => body_name(i),
                };
                build_body(spec, &label, path, &base_dir)
            })
            .collect::<Result<Vec<_>, _>>()?;
        check_dimension(file.dimension, &bodies, &methods).map_err(invalid)?;
        if !file.answers.is_empty() && file.answers.len() != file.questions.len() {
            return Err(invalid(format!(
                "answers: {} answers for {} questions (one answer per question, in order)",
                file.answers.len(),
                file.questions.len()
            )));
        }
        for (k, step) in file.lesson.iter().enumerate() {
            let at = |m: String| invalid(format!("lesson step {}: {m}", k + 1));
            if let Some(name) = &step.algorithm {
                let method = name.parse::<Method>().map_err(at)?;
                if !methods.contains(&method) {
                    return Err(at(format!(
                        "algorithm {name} is not among the scene's algorithms"
                    )));
                }
            }
            if let Some(p) = step.pair.filter(|p| *p >= pairs.len()) {
                return Err(at(format!(
                    "pair {p} does not exist (the scene has {} pairs)",
                    pairs.len()
                )));
            }
            for layer in step.layers.iter().flatten() {
                if !LAYER_NAMES.contains(&layer.as_str()) {
                    return Err(at(format!(
                        "unknown layer '{layer}' (known: {})",
                        LAYER_NAMES.join(", ")
                    )));
                }
            }
        }
        Ok(Scene {
            name: file.name,
            notes: file.notes,
            dimension: file.dimension,
            bodies,
            pairs,
            lesson: file.lesson,
            questions: file.questions,
            answers: file.answers,
            methods,
            settings,
            base_dir,
        })
    }

    /// The distance solvers among the scene's methods, in its order; GJK when it names
    /// none (EPA starts from GJK: a scene of EPA alone still shows GJK's steps).
    pub fn distance_solvers(&self) -> Vec<Algorithm> {
        let solvers: Vec<Algorithm> = self
            .methods
            .iter()
            .filter_map(|m| m.entry::<Algorithm>())
            .collect();
        if solvers.is_empty() {
            vec![Algorithm::GJK]
        } else {
            solvers
        }
    }

    /// Shape B's pose in shape A's frame, where the solvers work.
    pub fn b_in_a(&self) -> RelativePose {
        RelativePose::between(&self.a().pose, &self.b().pose)
    }

    /// B's translation relative to A, in A's frame (`None` when neither body moves).
    pub fn relative_velocity(&self) -> Option<DVec3> {
        let (a, b) = (self.a(), self.b());
        if a.velocity.is_none() && b.velocity.is_none() && b.spin.is_none() {
            return None;
        }
        let world = b.velocity.unwrap_or(DVec3::ZERO) - a.velocity.unwrap_or(DVec3::ZERO);
        Some(a.pose.rotation.inverse() * world)
    }

    /// B's motion relative to A in A's frame: `Ok(None)` when nothing moves, `Err` when
    /// A turns (the relative motion is then no turn of B about its own origin).
    pub fn relative_motion(&self) -> Result<Option<Motion>, String> {
        if self.a().spin.is_some_and(|s| s != DVec3::ZERO) {
            return Err(
                "A turns: give the turn to B (B's motion relative to a turning A is \
                        no turn of B about its origin)"
                    .into(),
            );
        }
        let spin = self.b().spin.unwrap_or(DVec3::ZERO);
        Ok(self.relative_velocity().map(|velocity| Motion {
            velocity,
            spin: self.a().pose.rotation.inverse() * spin,
        }))
    }

    /// Runs one method on the pair in focus with the scene's settings, with records.
    pub fn run(&self, method: impl Into<Method>) -> Run {
        self.run_with(method, self.settings)
    }

    /// The same run with `settings` instead of the scene's (the viewer's warm start
    /// changes the first direction): the one place a method meets a scene's pair, its
    /// motion and settings (the CLI, the Python package and the viewer all come here).
    pub fn run_with(&self, method: impl Into<Method>, settings: SolverSettings) -> Run {
        let method = method.into();
        let (a, b) = (&self.a().shape, &self.b().shape);
        match self.relative_motion() {
            Ok(motion) => method.run(a, b, self.b_in_a(), motion, settings, true),
            Err(why) if method.family() == crate::solver::toi::FAMILY => {
                Run::not_applicable(method, why)
            }
            Err(_) => method.run(a, b, self.b_in_a(), None, settings, true),
        }
    }

    /// A run as `solve --json` and the Python package report it: the outcome, the
    /// signed distance (−depth for an overlap), the certified bracket
    /// (`lower_bound`, `upper_bound`: the same top-level fields as a composite pair's
    /// report, so that code reading both need not branch), counts, witness points and
    /// normal in world coordinates, and the records.
    pub fn run_report(&self, run: &Run) -> serde_json::Value {
        let s = &run.summary;
        let pose = &self.a().pose;
        let world = |p: Option<DVec3>| p.map(|p| pose.transform_point(p));
        let (lower, upper) = crate::composite::midphase::certified_bracket(&s.outcome);
        let mut report = serde_json::json!({
            "algorithm": run.method.name(),
            "outcome": s.outcome,
            "status": s.outcome.status_name(),
            "distance": s.outcome.signed_distance(),
            "lower_bound": lower,
            "upper_bound": upper.is_finite().then_some(upper),
            "normal": s.outcome.normal(),
            "normal_world": s.outcome.normal().map(|n| pose.transform_vector(n)),
            "iterations": s.iterations,
            "support_calls": s.stats.calls,
            "vertex_visits": s.stats.vertex_visits_a + s.stats.vertex_visits_b,
            "momentum_stopped_at": s.momentum_stopped_at,
            "gjk_iterations": run.gjk_stage().map(|g| g.iterations),
            "witness_a_world": world(s.witness_a),
            "witness_b_world": world(s.witness_b),
            "trace": run.trace,
        });
        // The family's own fields (a contact run's manifold, EPA's GJK stage), beside.
        if let (Some(report), Ok(serde_json::Value::Object(extras))) =
            (report.as_object_mut(), serde_json::to_value(&run.extras))
        {
            for (key, value) in extras {
                report.entry(key).or_insert(value);
            }
        }
        // A contact run's manifold in world coordinates (both null when the shapes are
        // too far apart for one).
        if run.method.family() == crate::solver::contact::kind::FAMILY {
            if let Some(map) = report.as_object_mut() {
                map.entry("manifold").or_insert(serde_json::Value::Null);
            }
        }
        if let Some(manifold) = report.get("manifold") {
            let world = manifold_in_world(manifold, pose).unwrap_or(serde_json::Value::Null);
            report["manifold_world"] = world;
        }
        report
    }

    /// The file form of this scene.
    pub fn to_file(&self) -> SceneFile {
        let body = |b: &Body| BodySpec {
            name: b.name.clone(),
            shape: b.spec.clone(),
            translation: b.pose.translation.to_array(),
            rotation: rotation_spec(&b.pose),
            velocity: b.velocity.map(|v| v.to_array()),
            spin: b.spin.map(|v| v.to_array()),
        };
        let s = &self.settings;
        SceneFile {
            version: SCENE_VERSION,
            name: self.name.clone(),
            notes: self.notes.clone(),
            dimension: self.dimension,
            bodies: self.bodies.iter().map(body).collect(),
            pairs: self.pairs.clone(),
            lesson: self.lesson.clone(),
            questions: self.questions.clone(),
            answers: self.answers.clone(),
            algorithms: self.methods.iter().map(|m| m.name().to_string()).collect(),
            settings: *s,
        }
    }

    /// Writes the scene as RON. Mesh paths are rewritten relative to the new folder.
    pub fn save(&self, path: &Path) -> Result<(), SceneError> {
        let mut file = self.to_file();
        let target_dir = path.parent().map(Path::to_path_buf).unwrap_or_default();
        for body in &mut file.bodies {
            rebase_mesh_paths(&mut body.shape, &self.base_dir, &target_dir);
        }
        file.write(path)
    }
}

/// Euler degrees when they reproduce the rotation bit for bit (readable, editable),
/// else the exact quaternion (a saved slow case must reproduce its iteration counts).
fn rotation_spec(pose: &Pose) -> RotationSpec {
    if let Some(m) = pose.matrix {
        return RotationSpec::Matrix(m.transpose().to_cols_array_2d());
    }
    let degrees = round_degrees(pose.euler_degrees());
    if Pose::from_euler_degrees(DVec3::ZERO, degrees).rotation == pose.rotation {
        RotationSpec::EulerDegrees(degrees.to_array())
    } else {
        RotationSpec::Quaternion(pose.rotation.to_array())
    }
}

/// Euler angles survive a quaternion round trip only to ~1e-12; keep files readable.
fn round_degrees(d: DVec3) -> DVec3 {
    // `+ 0.0` turns −0 into 0.
    let r = |x: f64| (x * 1e9).round() / 1e9 + 0.0;
    DVec3::new(r(d.x), r(d.y), r(d.z))
}

fn rebase_mesh_paths(spec: &mut ShapeSpec, from: &Path, to: &Path) {
    match spec {
        ShapeSpec::Mesh { path, .. } => {
            let absolute = from.join(&*path);
            let absolute = absolute.canonicalize().unwrap_or(absolute);
            let to = to.canonicalize().unwrap_or_else(|_| to.to_path_buf());
            *path = relative_path(&absolute, &to).to_string_lossy().into_owned();
        }
        ShapeSpec::Dilated { shape, .. } => rebase_mesh_paths(shape, from, to),
        _ => {}
    }
}

/// `target` relative to `base` when both are absolute, else `target` as is.
fn relative_path(target: &Path, base: &Path) -> PathBuf {
    if !(target.is_absolute() && base.is_absolute()) {
        return target.to_path_buf();
    }
    let t: Vec<_> = target.components().collect();
    let b: Vec<_> = base.components().collect();
    let common = t.iter().zip(&b).take_while(|(x, y)| x == y).count();
    let mut out = PathBuf::new();
    for _ in common..b.len() {
        out.push("..");
    }
    for c in &t[common..] {
        out.push(c);
    }
    out
}

/// A contact manifold's points and normals (reported in A's frame) in world
/// coordinates: `{certified_normal, normal, checked_along, points: [{on_a, on_b, depth}]}`.
fn manifold_in_world(manifold: &serde_json::Value, pose: &Pose) -> Option<serde_json::Value> {
    let vector = |v: &serde_json::Value| -> Option<DVec3> {
        let a = v.as_array()?;
        Some(DVec3::new(
            a.first()?.as_f64()?,
            a.get(1)?.as_f64()?,
            a.get(2)?.as_f64()?,
        ))
    };
    let points: Option<Vec<serde_json::Value>> = manifold
        .get("points")?
        .as_array()?
        .iter()
        .map(|p| {
            Some(serde_json::json!({
                "on_a": pose.transform_point(vector(p.get("on_a")?)?),
                "on_b": pose.transform_point(vector(p.get("on_b")?)?),
                "depth": p.get("depth")?,
            }))
        })
        .collect();
    Some(serde_json::json!({
        "certified_normal": pose.transform_vector(vector(manifold.get("certified_normal")?)?),
        "normal": pose.transform_vector(vector(manifold.get("normal")?)?),
        "checked_along": pose.transform_vector(vector(manifold.get("checked_along")?)?),
        "points": points?,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    const SCENE: &str = r#"
Scene(
    version: 1,
    name: "spheres",
    a: (shape: Sphere(radius: 1.0)),
    b: (shape: Sphere(radius: 0.5), translation: (3.0, 0.0, 0.0), rotation: EulerDegrees((0.0, 10.0, 0.0))),
    algorithms: ["gjk", "fw_linesearch"],
    settings: (tolerance: 1e-8, criterion: DualityGap, kind: Absolute, max_iterations: 100, initial_guess: CentreDifference),
)
"#;

    /// invalid UTF-8 is refused with its line, column and byte offset.
    #[test]
    fn invalid_utf8_is_refused_with_where_it_starts() {
        let dir = std::env::temp_dir().join(format!("collidescope-utf8-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("bad.ron");
        let mut bytes = b"Scene(\n    version: 1,\n    name: \"x".to_vec();
        bytes.extend([0xff, 0xfe]);
        std::fs::write(&path, bytes).unwrap();
        let err = Scene::load(&path).unwrap_err().to_string();
        assert!(
            err.contains(":3:") && err.contains("byte offset 35"),
            "{err}"
        );
    }

    #[test]
    fn implicit_kinds_load_and_bad_ones_say_why() {
        let scene_with = |shape: &str| {
            format!(
                r#"Scene(version: 2, name: "implicit", bodies: [Body(shape: {shape}), Body(shape: Sphere(radius: 0.5), translation: (3.0, 0.0, 0.0))], algorithms: ["interior_point"], settings: Settings(tolerance: 1e-8, criterion: DualityGap, kind: Absolute, max_iterations: 100, initial_guess: CentreDifference))"#
            )
        };
        let ok = scene_with(
            "Intersection(members: [Member(shape: Superquadric(radii: (2.0, 1.0, 1.7), exponents: (2.1, 2.2, 2.4))), Member(shape: Halfspaces(planes: [(0.0, 0.0, -1.0, -0.4)]))])",
        );
        let scene = Scene::parse(Path::new("mouse.ron"), &ok).unwrap();
        assert_eq!(scene.a().shape.kind_name(), "implicit");
        for (shape, why) in [
            (
                "Superquadric(radii: (1.0, 1.0, 1.0), exponents: (0.5, 2.0, 2.0))",
                "exponents must be ≥ 1",
            ),
            (
                "Intersection(members: [Member(shape: Sphere(radius: 1.0)), Member(shape: Sphere(radius: 1.0), translation: (2.5, 0.0, 0.0))])",
                "empty",
            ),
            ("Halfspaces(planes: [(1.0, 0.0, 0.0, 1.0)])", "unbounded"),
            (
                "Hyperquadric(terms: [Term(normal: (1.0, 0.0, 0.0), exponent: 2.0)])",
                "unbounded",
            ),
        ] {
            let err = Scene::parse(Path::new("bad.ron"), &scene_with(shape)).unwrap_err();
            let message = err.to_string();
            assert!(message.starts_with("bad.ron") && message.contains(why), "{message}");
        }
    }

    #[test]
    fn parses_and_round_trips() {
        let scene = Scene::parse(Path::new("mem.ron"), SCENE).unwrap();
        assert_eq!(scene.distance_solvers().len(), 2);
        assert_eq!(scene.b().pose.translation, DVec3::new(3.0, 0.0, 0.0));
        let dir = std::env::temp_dir().join(format!("collidescope-scene-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let out = dir.join("saved.ron");
        scene.save(&out).unwrap();
        let again = Scene::load(&out).unwrap();
        assert_eq!(again.to_file(), scene.to_file());
    }

    #[test]
    fn version_2_holds_bodies_pairs_and_lessons_and_version_1_still_loads() {
        let v1 = Scene::parse(Path::new("v1.ron"), SCENE).unwrap();
        assert_eq!((v1.bodies.len(), v1.pairs.clone()), (2, vec![(0, 1)]));
        let text = r#"Scene(
    version: 2,
    name: "three",
    dimension: Planar,
    bodies: [
        Body(shape: Circle(radius: 0.5)),
        Body(shape: Rectangle(half_extents: (0.5, 0.5)), translation: (2.0, 0.0, 0.0)),
        Body(shape: Point, translation: (0.0, 3.0, 0.0)),
    ],
    pairs: [(1, 2), (0, 1)],
    algorithms: ["gjk"],
    settings: Settings(tolerance: 1e-8, criterion: DualityGap, kind: Absolute, max_iterations: 100, initial_guess: CentreDifference),
    lesson: [Step(text: "Look at the **box**.", algorithm: Some("gjk"), cursor: Some(2))],
)"#;
        let scene = Scene::parse(Path::new("v2.ron"), text).unwrap();
        assert_eq!(scene.dimension, Dimension::Planar);
        assert_eq!(scene.bodies.len(), 3);
        // The first pair is in focus: the square (A) against the point (B); its
        // nearest point to (0, 3, 0) is its corner (1.5, 0.5).
        let d = scene
            .run(Algorithm::GJK)
            .summary
            .outcome
            .distance()
            .unwrap();
        let expected = (DVec3::new(0.0, 3.0, 0.0) - DVec3::new(1.5, 0.5, 0.0)).length();
        assert!((d - expected).abs() < 1e-9, "{d} vs {expected}");
        assert_eq!(scene.lesson[0].cursor, Some(2));
        // Saving writes version 2 and reads back the same.
        let again =
            Scene::from_file(scene.to_file(), Path::new("again.ron"), PathBuf::new()).unwrap();
        assert_eq!(again.to_file(), scene.to_file());
        // Every pair when none is listed; a bad pair is named.
        let all = text.replace("    pairs: [(1, 2), (0, 1)],\n", "");
        assert_eq!(
            Scene::parse(Path::new("all.ron"), &all)
                .unwrap()
                .pairs
                .len(),
            3
        );
        let bad = text.replace("(1, 2), (0, 1)", "(1, 1)");
        let err = Scene::parse(Path::new("bad.ron"), &bad)
            .unwrap_err()
            .to_string();
        assert!(err.contains("pairs") && err.contains("(1, 1)"), "{err}");
        let one = text.replace("        Body(shape: Point, translation: (0.0, 3.0, 0.0)),\n", "")
            .replace("        Body(shape: Rectangle(half_extents: (0.5, 0.5)), translation: (2.0, 0.0, 0.0)),\n", "")
            .replace("    pairs: [(1, 2), (0, 1)],\n", "");
        let err = Scene::parse(Path::new("one.ron"), &one)
            .unwrap_err()
            .to_string();
        assert!(err.contains("at least two"), "{err}");
    }

    #[test]
    fn errors_name_line_and_problem() {
        let typo = SCENE.replace("radius: 0.5", "radius: 0.5, colour: 3");
        let err = Scene::parse(Path::new("typo.ron"), &typo)
            .unwrap_err()
            .to_string();
        assert!(err.starts_with("typo.ron:6:"), "{err}");
        assert!(err.contains("colour"), "{err}");
        let bad_value = SCENE.replace("radius: 1.0", "radius: -1.0");
        let err = Scene::parse(Path::new("neg.ron"), &bad_value)
            .unwrap_err()
            .to_string();
        assert!(err.contains("shape a") && err.contains("radius"), "{err}");
        let bad_alg = SCENE.replace("\"gjk\"", "\"gjkk\"");
        let err = Scene::parse(Path::new("alg.ron"), &bad_alg)
            .unwrap_err()
            .to_string();
        assert!(err.contains("unknown algorithm 'gjkk'"), "{err}");
        let version = SCENE.replace("version: 1", "version: 7");
        let err = Scene::parse(Path::new("v.ron"), &version)
            .unwrap_err()
            .to_string();
        assert!(err.contains("version 7"), "{err}");
        let missing = Scene::load(Path::new("/no/such/scene.ron"))
            .unwrap_err()
            .to_string();
        assert!(missing.contains("/no/such/scene.ron"), "{missing}");
        let nan = SCENE.replace("(3.0, 0.0, 0.0)", "(NaN, 0.0, 0.0)");
        let err = Scene::parse(Path::new("nan.ron"), &nan)
            .unwrap_err()
            .to_string();
        assert!(err.contains("finite"), "{err}");
    }

    #[test]
    fn motion_fields_load_save_and_refuse_what_cannot_be_answered() {
        let text = |a_spin: &str, b_velocity: &str| {
            format!(
                r#"Scene(
    version: 2,
    name: "moving",
    bodies: [
        Body(shape: Box(half_extents: (1.0, 1.0, 1.0)){a_spin}),
        Body(shape: Sphere(radius: 0.5), translation: (3.0, 0.0, 0.0){b_velocity}),
    ],
    algorithms: ["toi_advancement"],
    settings: Settings(tolerance: 1e-8, criterion: DualityGap, kind: Absolute, max_iterations: 100, initial_guess: CentreDifference),
)"#
            )
        };
        let path = Path::new("moving.ron");
        let scene = Scene::parse(path, &text("", ", velocity: Some((-4.0, 0.0, 0.0))")).unwrap();
        let run = scene.run(Method::toi(crate::solver::toi::ToiRule::Advancement));
        match run.summary.outcome {
            crate::solver::Outcome::Impact { time, .. } => assert!((time - 0.375).abs() < 1e-7),
            ref other => panic!("{other}"),
        }
        let saved = scene.to_file();
        assert_eq!(saved.bodies[1].velocity, Some([-4.0, 0.0, 0.0]));
        // A turning A: the time of impact says why it cannot answer.
        let turning = Scene::parse(
            path,
            &text(
                ", spin: Some((0.0, 0.0, 1.0))",
                ", velocity: Some((-4.0, 0.0, 0.0))",
            ),
        )
        .unwrap();
        let run = turning.run(Method::toi(crate::solver::toi::ToiRule::Advancement));
        assert_eq!(run.summary.outcome.status_name(), "not_applicable");
        // A non-finite velocity is refused at load, naming the body.
        let err = Scene::parse(path, &text("", ", velocity: Some((1.0, NaN, 0.0))"))
            .unwrap_err()
            .to_string();
        assert!(err.contains("velocity must be finite"), "{err}");
    }
}
