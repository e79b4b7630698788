//! Queries at engine speed: shapes built once (`Built`: the hull with its topology and
//! support tables, a mesh's hierarchy), poses read straight from numpy, the answer a
//! small object (`Distance`) or, for a batch, numpy arrays filled on every core with
//! the GIL released. No JSON on the way in or out, no per-sub-pair lists: the scene API
//! (`Scene.run`) stays the place for records, traces and sub-pairs.

use std::path::Path;
use std::sync::Arc;

use collidescope::composite::midphase::certified_bracket;
use collidescope::composite::{run_composite, Composite, CompositeRun, Side};
use collidescope::pose::{Pose, RelativePose};
use collidescope::scene::{Scene, ShapeSpec};
use collidescope::shape::Shape;
use collidescope::solver::{Method, Outcome, SolverSettings};
use collidescope::DVec3;
use numpy::{IntoPyArray, PyArray1, PyArrayMethods};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::intern;
use pyo3::prelude::*;
use pyo3::types::PyDict;
use rayon::prelude::*;

use crate::pose_arg::{index_text, pose_arg, pose_stack, type_name};

/// A shape built once: its convex shape (a composite's hull), its pieces and hierarchy
/// when it is a mesh, height field or compound, and its fixed placement in the frame
/// the user poses (Coal's capsules, cylinders and cones stand along z, ours along y).
#[pyclass(frozen, module = "collidescope._native")]
pub struct Built {
    shape: Shape,
    composite: Option<Arc<Composite>>,
    frame: Option<Pose>,
    label: String,
}

#[pymethods]
impl Built {
    /// Builds a shape spec (its JSON, as a scene body's `shape`); `frame` is the shape's
    /// placement in the user's frame as 4x4 row-major entries, when it has one.
    #[new]
    #[pyo3(signature = (spec_json, label, frame=None))]
    fn new(spec_json: &str, label: &str, frame: Option<Vec<f64>>) -> PyResult<Self> {
        let spec: ShapeSpec = serde_json::from_str(spec_json)
            .map_err(|e| PyValueError::new_err(format!("{label}: {e}")))?;
        let body = Scene::build_body_spec(&spec, Path::new(""), Pose::IDENTITY)
            .map_err(|e| PyValueError::new_err(format!("{label}: {e}")))?;
        let frame = match frame {
            Some(m) if m.len() == 16 => Some(crate::pose_arg::pose_from_matrix(
                &m,
                &format!("{label} frame"),
            )?),
            Some(_) => return Err(PyValueError::new_err("frame: 16 numbers")),
            None => None,
        };
        Ok(Self {
            shape: body.shape,
            composite: body.composite,
            frame,
            label: label.to_string(),
        })
    }

    /// Whether the shape is answered through the midphase (a mesh taken as triangles, a
    /// height field, a compound).
    #[getter]
    fn is_composite(&self) -> bool {
        self.composite.is_some()
    }

    fn __repr__(&self) -> String {
        format!("<built {}>", self.label)
    }
}

impl Built {
    fn side(&self) -> Side<'_> {
        match &self.composite {
            Some(c) => Side::Composite(c),
            None => Side::Convex(&self.shape),
        }
    }

    /// Where the shape is, given where the user put its frame.
    fn placed(&self, pose: &Pose) -> Pose {
        match &self.frame {
            Some(f) => pose.then_local(f),
            None => *pose,
        }
    }
}

/// Solver settings read once (`collidescope.Settings(tolerance=1e-9)`), for calls that
/// should not read a dict each time.
#[pyclass(frozen, name = "Settings", module = "collidescope._native")]
#[derive(Clone, Copy)]
pub struct PySettings {
    pub settings: SolverSettings,
}

#[pymethods]
impl PySettings {
    /// Settings from `(dotted name, JSON value)` assignments over the defaults (Coal's:
    /// tolerance 1e-6, 128 iterations); `names` are how the caller wrote each one, for
    /// messages.
    #[new]
    #[pyo3(signature = (assignments=Vec::new()))]
    fn new(assignments: Vec<(String, String, String)>) -> PyResult<Self> {
        let mut settings = SolverSettings::default();
        for (name, key, value) in assignments {
            settings = settings
                .with_assignment(&format!("{key}={value}"))
                .map_err(|e| PyValueError::new_err(format!("{name}: {}", without_position(&e))))?;
        }
        Ok(Self { settings })
    }

    /// Every setting with its value (defaults included), as JSON.
    fn as_json(&self) -> String {
        serde_json::to_string(&self.settings).unwrap_or_default()
    }

    fn __repr__(&self) -> String {
        format!("collidescope.Settings({})", self.as_json())
    }
}

/// A serde message without " at line 1 column 40" (a position in text the user never
/// wrote).
fn without_position(message: &str) -> String {
    match message.find(" at line ") {
        Some(k) => message[..k].to_string(),
        None => message.to_string(),
    }
}

fn status_code(outcome: &Outcome) -> u8 {
    Outcome::status_code(outcome.status_name())
}

/// One query's answer, in the world frame.
#[derive(Clone, Debug)]
struct Answer {
    outcome: Outcome,
    method: Method,
    /// The certified bracket of the distance (0 when touching or overlapping).
    lower: f64,
    upper: f64,
    point_a: Option<DVec3>,
    point_b: Option<DVec3>,
    /// From A towards B.
    normal: Option<DVec3>,
    iterations: usize,
    /// The sub-pair that makes a composite's answer: its name and each side's piece.
    nearest: Option<String>,
    piece_a: Option<u32>,
    piece_b: Option<u32>,
}

impl Answer {
    fn signed_distance(&self) -> f64 {
        self.outcome.signed_distance().unwrap_or(f64::NAN)
    }

    /// Why the answer has no signed distance, when it has none: a degenerate or
    /// not-applicable run's own words, else the outcome said in full (an iteration
    /// cap with the bracket it reached).
    fn reason(&self) -> Option<String> {
        match &self.outcome {
            Outcome::Degenerate { reason } => Some(reason.clone()),
            Outcome::NotApplicable { why } => Some(why.clone()),
            other if other.signed_distance().is_none() => Some(other.to_string()),
            _ => None,
        }
    }
}

/// The normal from A towards B: the outcome's (overlaps, touches), else along the
/// witnesses when they are apart.
fn world_normal(
    outcome: &Outcome,
    frame_a: &Pose,
    point_a: Option<DVec3>,
    point_b: Option<DVec3>,
) -> Option<DVec3> {
    if let Some(n) = outcome.normal() {
        return Some(frame_a.transform_vector(n));
    }
    let (a, b) = (point_a?, point_b?);
    (b - a).try_normalize()
}

/// Runs `method` on two built shapes at their poses (the users' frames).
fn answer(
    a: &Built,
    pose_a: &Pose,
    b: &Built,
    pose_b: &Pose,
    method: Method,
    settings: SolverSettings,
) -> Answer {
    let (wa, wb) = (a.placed(pose_a), b.placed(pose_b));
    let b_in_a = RelativePose::between(&wa, &wb);
    if a.composite.is_none() && b.composite.is_none() {
        let run = method.run_untraced(&a.shape, &b.shape, b_in_a, settings);
        let s = &run.summary;
        let (lower, upper) = certified_bracket(&s.outcome);
        let point_a = s.witness_a.map(|p| wa.transform_point(p));
        let point_b = s.witness_b.map(|p| wa.transform_point(p));
        return Answer {
            normal: world_normal(&s.outcome, &wa, point_a, point_b),
            outcome: s.outcome.clone(),
            method,
            lower,
            upper,
            point_a,
            point_b,
            iterations: s.iterations,
            nearest: None,
            piece_a: None,
            piece_b: None,
        };
    }
    let run = run_composite(
        a.side(),
        b.side(),
        b_in_a,
        None,
        method,
        settings,
        false,
        None,
    );
    composite_answer(&run, a, &wa, b, &wb)
}

/// A composite run's answer in the world: the nearest sub-pair's witnesses placed by
/// its piece's pose in the composite, named as the reports name it.
fn composite_answer(run: &CompositeRun, a: &Built, wa: &Pose, b: &Built, wb: &Pose) -> Answer {
    let answer = &run.answer;
    // The side whose pieces the sub-pairs name first, and its pose.
    let (first, first_pose, second) = if run.swapped { (b, wb, a) } else { (a, wa, b) };
    let mut point_first = None;
    let mut point_second = None;
    let mut iterations = 0;
    let mut pieces = (None, None);
    let mut nearest = None;
    if let (Some(sub), Some(composite)) = (run.nearest(), first.composite.as_deref()) {
        let s = &sub.run.summary;
        iterations = s.iterations;
        let piece_frame = match composite.tree().piece(sub.piece as usize) {
            Some((_, Some(p))) => {
                first_pose.then_local(&Pose::from_matrix(p.translation, p.rotation))
            }
            _ => *first_pose,
        };
        point_first = s.witness_a.map(|p| piece_frame.transform_point(p));
        point_second = s.witness_b.map(|p| piece_frame.transform_point(p));
        let other = sub
            .other
            .zip(second.composite.as_deref())
            .map(|(j, c)| (c.engine_id(j), c.piece_name(j)));
        let own = (
            composite.engine_id(sub.piece),
            composite.piece_name(sub.piece),
        );
        nearest = Some(match &other {
            Some((_, name)) => format!("{} · {name}", own.1),
            None => own.1.clone(),
        });
        pieces = if run.swapped {
            (other.map(|o| o.0), Some(own.0))
        } else {
            (Some(own.0), other.map(|o| o.0))
        };
    }
    let (point_a, point_b) = if run.swapped {
        (point_second, point_first)
    } else {
        (point_first, point_second)
    };
    Answer {
        normal: world_normal(&answer.outcome, wa, point_a, point_b),
        outcome: answer.outcome.clone(),
        method: run.method,
        lower: answer.lower,
        upper: answer.upper,
        point_a,
        point_b,
        iterations,
        nearest,
        piece_a: pieces.0,
        piece_b: pieces.1,
    }
}

/// A shape argument's built form: a `Built`, or a collidescope `Shape` (built once, on
/// first use, and kept in its `_handle`).
fn built<'py>(obj: &Bound<'py, PyAny>, what: &str) -> PyResult<Bound<'py, Built>> {
    if let Ok(b) = obj.cast::<Built>() {
        return Ok(b.clone());
    }
    let py = obj.py();
    let handle = obj.getattr(intern!(py, "_handle")).map_err(|_| {
        PyTypeError::new_err(format!(
            "{what}: expected a collidescope shape (cs.Box, cs.Convex, cs.TriMesh, \
             cs.Shape.from_coal, ...), got {}",
            type_name(obj)
        ))
    })?;
    let handle = if handle.is_none() {
        obj.call_method1(intern!(py, "_build"), (what,))?
    } else {
        handle
    };
    handle
        .cast::<Built>()
        .cloned()
        .map_err(|_| PyTypeError::new_err(format!("{what}: its _handle is not a built shape")))
}

/// The method a call names (default: EPA, a signed distance as `coal.distance` gives).
fn method_arg(method: Option<&Bound<'_, PyAny>>) -> PyResult<Method> {
    let Some(method) = method.filter(|m| !m.is_none()) else {
        return Ok(Method::epa());
    };
    let name: String = method.extract().map_err(|_| {
        PyTypeError::new_err(format!(
            "method: a method's name (a str such as 'gjk', 'epa', 'nesterov'), got {}",
            type_name(method)
        ))
    })?;
    name.parse()
        .map_err(|e: String| PyValueError::new_err(format!("method: {e}")))
}

fn settings_arg(settings: Option<&Bound<'_, PyAny>>) -> PyResult<SolverSettings> {
    match settings {
        None => Ok(SolverSettings::default()),
        Some(s) if s.is_none() => Ok(SolverSettings::default()),
        Some(s) => {
            if let Ok(built) = s.cast::<PySettings>() {
                return Ok(built.get().settings);
            }
            if s.cast::<PyDict>().is_ok() {
                // A dict, read each call through collidescope.Settings (which names the
                // key at fault); build a Settings once for loops.
                let py = s.py();
                let made = py
                    .import(intern!(py, "collidescope"))?
                    .getattr(intern!(py, "Settings"))?
                    .call((), Some(s.cast::<PyDict>()?))?;
                return settings_arg(Some(&made));
            }
            Err(PyTypeError::new_err(format!(
                "settings: expected collidescope.Settings(...) or a dict, got {}",
                s.get_type()
                    .name()
                    .map(|n| n.to_string())
                    .unwrap_or_default()
            )))
        }
    }
}

/// One query's answer: signed distance, certified bracket, witness points and normal in
/// the world, the nearest sub-pair of a composite.
#[pyclass(frozen, name = "Distance", module = "collidescope")]
pub struct PyDistance {
    answer: Answer,
}

fn vector<'py>(py: Python<'py>, v: Option<DVec3>) -> Option<Bound<'py, PyArray1<f64>>> {
    v.map(|v| v.to_array().to_vec().into_pyarray(py))
}

#[pymethods]
impl PyDistance {
    /// The verdict, each a proof: "separated" (a plane with a positive gap: apart by
    /// `distance`, within the bracket), "penetrating" (EPA's depth, `distance` minus
    /// it), "touching" (a depth proved zero), "intersecting" (the origin enclosed:
    /// overlapping, no depth asked), "contact" (within the tolerance, apart or not
    /// unproved: at most `upper_bound` apart), "stalled" (round-off ended the run: the
    /// distance in the bracket), "iteration_cap" (no answer: the bracket reached,
    /// `reason`), "degenerate" / "not_applicable" (no answer: `reason` says why).
    #[getter]
    fn status(&self) -> &'static str {
        self.answer.outcome.status_name()
    }

    /// The signed distance: the distance apart, minus the depth when overlapping, 0
    /// touching; None when the run certifies none (`reason` says why).
    #[getter]
    fn distance(&self) -> Option<f64> {
        self.answer.outcome.signed_distance()
    }

    /// Certified lower bound of the distance apart (a separating plane's gap; 0 when
    /// the shapes may touch or overlap: the bracket is of the distance apart, `distance`
    /// is signed).
    #[getter]
    fn lower_bound(&self) -> f64 {
        self.answer.lower
    }

    /// Certified upper bound of the distance (a pair of points; 0 overlapping), None
    /// when the run bounds nothing.
    #[getter]
    fn upper_bound(&self) -> Option<f64> {
        self.answer.upper.is_finite().then_some(self.answer.upper)
    }

    /// The witness on A (world frame).
    #[getter]
    fn point_a<'py>(&self, py: Python<'py>) -> Option<Bound<'py, PyArray1<f64>>> {
        vector(py, self.answer.point_a)
    }

    /// The witness on B (world frame).
    #[getter]
    fn point_b<'py>(&self, py: Python<'py>) -> Option<Bound<'py, PyArray1<f64>>> {
        vector(py, self.answer.point_b)
    }

    /// Unit normal from A towards B (world frame): the direction that separates them,
    /// or moving B along it by the depth resolves an overlap.
    #[getter]
    fn normal<'py>(&self, py: Python<'py>) -> Option<Bound<'py, PyArray1<f64>>> {
        vector(py, self.answer.normal)
    }

    #[getter]
    fn iterations(&self) -> usize {
        self.answer.iterations
    }

    #[getter]
    fn method(&self) -> &'static str {
        self.answer.method.name()
    }

    /// A composite's nearest sub-pair ("triangle 12", "triangle 3 · triangle 40",
    /// "part 2"); None for two convex shapes.
    #[getter]
    fn nearest(&self) -> Option<String> {
        self.answer.nearest.clone()
    }

    /// The triangle (as the user numbered it) or part of A that makes the answer.
    #[getter]
    fn piece_a(&self) -> Option<u32> {
        self.answer.piece_a
    }

    #[getter]
    fn piece_b(&self) -> Option<u32> {
        self.answer.piece_b
    }

    /// Why a degenerate or not-applicable run gave no answer.
    #[getter]
    fn reason(&self) -> Option<String> {
        self.answer.reason()
    }

    /// The answer as a dict (points as numpy arrays).
    fn as_dict<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyDict>> {
        let py = slf.py();
        let d = PyDict::new(py);
        let this = slf.get();
        d.set_item("status", this.status())?;
        d.set_item("distance", this.distance())?;
        d.set_item("lower_bound", this.lower_bound())?;
        d.set_item("upper_bound", this.upper_bound())?;
        d.set_item("point_a", this.point_a(py))?;
        d.set_item("point_b", this.point_b(py))?;
        d.set_item("normal", this.normal(py))?;
        d.set_item("iterations", this.iterations())?;
        d.set_item("method", this.method())?;
        d.set_item("nearest", this.nearest())?;
        d.set_item("piece_a", this.piece_a())?;
        d.set_item("piece_b", this.piece_b())?;
        d.set_item("reason", this.reason())?;
        Ok(d)
    }

    fn __repr__(&self) -> String {
        let a = &self.answer;
        let mut text = format!(
            "Distance(status={:?}, distance={}, bracket=[{}, {}]",
            a.outcome.status_name(),
            a.outcome
                .signed_distance()
                .map_or("None".into(), |d| format!("{d:?}")),
            collidescope::printed_bound::Below(a.lower),
            collidescope::printed_bound::Above(a.upper),
        );
        if let Some(n) = &a.nearest {
            text += &format!(", nearest={n:?}");
        }
        if let Some(r) = a.reason() {
            text += &format!(", reason={r:?}");
        }
        text + ")"
    }
}

/// The signed distance between shape `a` at `pose_a` and shape `b` at `pose_b`: by
/// default (`method=None`, "epa") GJK, and EPA's depth when they overlap (as
/// `coal.distance` on convex shapes), or any `method` of `collidescope.methods()`.
/// Shapes are built on first use and kept; poses are world poses: a 4x4 numpy matrix
/// (the fast path: C-contiguous float64), (R, t), a pinocchio.SE3, a coal.Transform3s
/// (each about 1 us to read), or None (the identity); a rotation orthonormal within
/// 1e-5 (an f32 pose) is taken as its nearest rotation, one further off is refused;
/// `settings` a collidescope.Settings (or a dict, read on every call). The answer's
/// `status` is a proof (`separated`: a plane with a positive gap; `penetrating`: EPA's
/// depth), `distance` signed, `lower_bound`/`upper_bound` the certified bracket,
/// `point_a`, `point_b`, `normal` in the world; for a mesh, height field or compound,
/// `nearest` names the triangle or part pair that makes the answer.
#[pyfunction]
#[pyo3(signature = (a, pose_a, b, pose_b, method=None, settings=None))]
pub fn distance(
    a: &Bound<'_, PyAny>,
    pose_a: &Bound<'_, PyAny>,
    b: &Bound<'_, PyAny>,
    pose_b: &Bound<'_, PyAny>,
    method: Option<&Bound<'_, PyAny>>,
    settings: Option<&Bound<'_, PyAny>>,
) -> PyResult<PyDistance> {
    let built_a = built(a, "a")?;
    let built_b = built(b, "b")?;
    let pose_a = pose_arg(pose_a, "pose_a")?;
    let pose_b = pose_arg(pose_b, "pose_b")?;
    let method = method_arg(method)?;
    let settings = settings_arg(settings)?;
    let (ba, bb) = (built_a.get(), built_b.get());
    Ok(PyDistance {
        answer: answer(ba, &pose_a, bb, &pose_b, method, settings),
    })
}

/// Many queries at once: `shapes` (K shapes), `poses` (K, 4, 4) or (C, K, 4, 4) (C
/// configurations), `pairs` (P, 2) indices into shapes. Every (configuration, pair) is
/// answered on all cores without the GIL; the result is a dict of numpy arrays of shape
/// (P,) or (C, P) (points and normals (..., 3)).
#[pyfunction]
#[pyo3(signature = (shapes, poses, pairs, method=None, settings=None))]
pub fn distances<'py>(
    py: Python<'py>,
    shapes: &Bound<'py, PyAny>,
    poses: &Bound<'py, PyAny>,
    pairs: Vec<(i64, i64)>,
    method: Option<&Bound<'py, PyAny>>,
    settings: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyDict>> {
    let mut handles = Vec::new();
    let items = shapes.try_iter().map_err(|_| {
        PyTypeError::new_err(format!(
            "shapes: a list of collidescope shapes, got {}",
            type_name(shapes)
        ))
    })?;
    for (k, shape) in items.enumerate() {
        handles.push(built(&shape?, &format!("shapes[{k}]"))?);
    }
    let count = handles.len();
    let (lead, poses) = pose_stack(poses, "poses")?;
    if lead.last() != Some(&count) || lead.len() > 2 {
        return Err(PyValueError::new_err(format!(
            "poses: expected shape ({count}, 4, 4) or (configurations, {count}, 4, 4) for \
             the {count} shapes, got {:?}",
            lead.iter().chain(&[4, 4]).collect::<Vec<_>>()
        )));
    }
    let configurations = if lead.len() == 2 { lead[0] } else { 1 };
    for (k, &(i, j)) in pairs.iter().enumerate() {
        for v in [i, j] {
            if v < 0 || v as usize >= count {
                return Err(PyValueError::new_err(format!(
                    "pairs[{k}] = ({i}, {j}): {v} is not a shape index (0..{})",
                    count.saturating_sub(1)
                )));
            }
        }
        if i == j {
            return Err(PyValueError::new_err(format!(
                "pairs[{k}] = ({i}, {j}): a shape with itself"
            )));
        }
    }
    let method = method_arg(method)?;
    let settings = settings_arg(settings)?;
    let refs: Vec<&Built> = handles.iter().map(|h| h.get()).collect();
    let pairs: Vec<(usize, usize)> = pairs
        .iter()
        .map(|&(i, j)| (i as usize, j as usize))
        .collect();
    let n = configurations * pairs.len();
    let answers: Vec<Answer> = py.detach(|| {
        (0..n)
            .into_par_iter()
            .map(|item| {
                let (c, (i, j)) = (item / pairs.len(), pairs[item % pairs.len()]);
                let at = |k: usize| &poses[c * count + k];
                answer(refs[i], at(i), refs[j], at(j), method, settings)
            })
            .collect()
    });
    let shape: Vec<usize> = if lead.len() == 2 {
        vec![configurations, pairs.len()]
    } else {
        vec![pairs.len()]
    };
    let with3: Vec<usize> = shape.iter().copied().chain([3]).collect();
    let out = PyDict::new(py);
    let scalar = |f: &dyn Fn(&Answer) -> f64| -> PyResult<Bound<'py, PyAny>> {
        let v: Vec<f64> = answers.iter().map(f).collect();
        Ok(v.into_pyarray(py).reshape(shape.clone())?.into_any())
    };
    let point = |f: &dyn Fn(&Answer) -> Option<DVec3>| -> PyResult<Bound<'py, PyAny>> {
        let v: Vec<f64> = answers
            .iter()
            .flat_map(|a| f(a).map_or([f64::NAN; 3], |p| p.to_array()))
            .collect();
        Ok(v.into_pyarray(py).reshape(with3.clone())?.into_any())
    };
    out.set_item("distance", scalar(&|a| a.signed_distance())?)?;
    out.set_item("lower_bound", scalar(&|a| a.lower)?)?;
    out.set_item("upper_bound", scalar(&|a| a.upper)?)?;
    out.set_item("point_a", point(&|a| a.point_a)?)?;
    out.set_item("point_b", point(&|a| a.point_b)?)?;
    out.set_item("normal", point(&|a| a.normal)?)?;
    let codes: Vec<u8> = answers.iter().map(|a| status_code(&a.outcome)).collect();
    out.set_item("status", codes.into_pyarray(py).reshape(shape.clone())?)?;
    let iterations: Vec<i64> = answers.iter().map(|a| a.iterations as i64).collect();
    out.set_item(
        "iterations",
        iterations.into_pyarray(py).reshape(shape.clone())?,
    )?;
    let piece = |f: &dyn Fn(&Answer) -> Option<u32>| -> PyResult<Bound<'py, PyAny>> {
        let v: Vec<i64> = answers.iter().map(|a| f(a).map_or(-1, i64::from)).collect();
        Ok(v.into_pyarray(py).reshape(shape.clone())?.into_any())
    };
    out.set_item("piece_a", piece(&|a| a.piece_a)?)?;
    out.set_item("piece_b", piece(&|a| a.piece_b)?)?;
    out.set_item("status_names", Outcome::STATUS_NAMES.to_vec())?;
    // Why any query gave no answer, keyed by its index ("3, 1").
    let reasons = PyDict::new(py);
    for (k, a) in answers.iter().enumerate() {
        if let Some(r) = a.reason() {
            reasons.set_item(index_text(k, &shape), r)?;
        }
    }
    out.set_item("reasons", reasons)?;
    out.set_item("method", method.name())?;
    Ok(out)
}

/// A pose argument checked as every call checks it (`what` names it in messages): its
/// rotation's rows and its translation, exactly as given, for the scene API.
#[pyfunction]
pub fn pose_parts(pose: &Bound<'_, PyAny>, what: &str) -> PyResult<([[f64; 3]; 3], [f64; 3])> {
    let pose = pose_arg(pose, what)?;
    let m = pose.rotation_matrix().transpose().to_cols_array_2d();
    Ok((m, pose.translation.to_array()))
}
