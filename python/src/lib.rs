//! The native half of the `collidescope` Python package: scenes travel as JSON (Python's
//! `json` writes floats in shortest round-trip form and serde_json reads them exactly
//! rounded, so every number arrives to the bit), runs come back as JSON of the same
//! fields as `collidescope solve --json`. The Python half (`collidescope/__init__.py`)
//! builds the scene dicts from numpy arrays and Coal objects and turns points into
//! numpy arrays.

mod pose_arg;
mod query;

use std::path::Path;

use collidescope::pose::Pose;
use collidescope::scene::{Scene, SceneError, SceneFile, ShapeSpec};
use collidescope::solver::Method;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

fn value_error(e: impl std::fmt::Display) -> PyErr {
    PyValueError::new_err(e.to_string())
}

/// A scene file (its JSON) built and checked as the app builds it.
fn build(scene_json: &str) -> PyResult<Scene> {
    let file: SceneFile = serde_json::from_str(scene_json).map_err(value_error)?;
    Scene::from_scene_file(file, Path::new("")).map_err(|e| value_error(without_path(e)))
}

/// A scene's refusal without the file path the core puts first: a scene from Python
/// has no file, and a made-up name would be one the user never wrote.
fn without_path(e: SceneError) -> String {
    match e {
        SceneError::Invalid { message, .. } => message,
        SceneError::Mesh { body, source, .. } => format!("shape {body}: {source}"),
        SceneError::Syntax {
            line,
            column,
            message,
            ..
        } => format!("{line}:{column}: {message}"),
        other => other.to_string(),
    }
}

/// Checks a scene (raises ValueError saying what is wrong).
#[pyfunction]
fn check(scene_json: &str) -> PyResult<()> {
    build(scene_json).map(|_| ())
}

/// Checks one shape (its spec's JSON) as a scene's body builds it: the Python side
/// asks shape by shape when a scene is refused, to name the argument at fault.
#[pyfunction]
fn check_shape(shape_json: &str) -> PyResult<()> {
    let spec: ShapeSpec = serde_json::from_str(shape_json).map_err(value_error)?;
    Scene::build_body_spec(&spec, Path::new(""), Pose::IDENTITY)
        .map(|_| ())
        .map_err(value_error)
}

/// One pair's answer as a JSON value: through the midphase (the composite report: the
/// outcome, its certified bracket, the nearest sub-pair named, the sub-pairs nearest
/// first, the contacts with their internal edges) when a body of the pair in focus is a
/// composite (a mesh taken as triangles, a height field, a compound), else the convex
/// run's report. Never the hull's answer for a composite.
fn report(scene: &Scene, method: Method, traces: bool) -> serde_json::Value {
    let mut value = match scene.run_composite(method, scene.settings, traces, None) {
        Some(run) => {
            let mut value = scene.composite_report(&run, traces);
            value["is_composite"] = serde_json::Value::Bool(true);
            value
        }
        None => {
            let run = scene.run(method);
            let mut value = scene.run_report(&run);
            value["is_composite"] = serde_json::Value::Bool(false);
            value
        }
    };
    let (i, j) = scene.pairs[0];
    value["pair"] = serde_json::json!([i, j]);
    value["bodies"] = serde_json::json!([scene.bodies[i].name, scene.bodies[j].name]);
    value
}

fn method_named(method: &str) -> PyResult<Method> {
    method.parse().map_err(value_error)
}

/// The scene with its pair `k` in focus (first), the others after it in their order.
fn focused(scene: &Scene, k: usize) -> PyResult<Scene> {
    let mut focused = scene.clone();
    focused.focus_pair(k).map_err(value_error)?;
    Ok(focused)
}

/// Runs a method (any name of the catalog) on the scene's first pair (or pair `pair`):
/// the run as JSON, the fields of `collidescope solve --json`, or, when a body of the
/// pair is a composite, the composite report (sub-pairs' records when `traces`).
#[pyfunction]
#[pyo3(signature = (scene_json, method, pair=0, traces=false))]
fn run(scene_json: &str, method: &str, pair: usize, traces: bool) -> PyResult<String> {
    let scene = build(scene_json)?;
    let method = method_named(method)?;
    let scene = focused(&scene, pair)?;
    serde_json::to_string(&report(&scene, method, traces)).map_err(value_error)
}

/// Runs a method on every pair of the scene (built once): a JSON list, one report per
/// pair in the scene's order, each naming its pair and bodies.
#[pyfunction]
#[pyo3(signature = (scene_json, method, traces=false))]
fn run_pairs(scene_json: &str, method: &str, traces: bool) -> PyResult<String> {
    let scene = build(scene_json)?;
    let method = method_named(method)?;
    let mut reports = Vec::with_capacity(scene.pairs.len());
    for k in 0..scene.pairs.len() {
        reports.push(report(&focused(&scene, k)?, method, traces));
    }
    serde_json::to_string(&reports).map_err(value_error)
}

/// Sub-pair `index` (an `index` of the composite report's `sub_pairs`) of `method`'s
/// composite run on pair `pair`: a scene of the two convex pieces where they are (the
/// triangle or part, and the other body or its piece), as JSON.
#[pyfunction]
#[pyo3(signature = (scene_json, method, index, pair=0))]
fn sub_pair_scene(scene_json: &str, method: &str, index: usize, pair: usize) -> PyResult<String> {
    let scene = build(scene_json)?;
    let method = method_named(method)?;
    let scene = focused(&scene, pair)?;
    let run = scene
        .run_composite(method, scene.settings, false, None)
        .ok_or_else(|| {
            value_error(format!(
                "pair {pair}: neither body is a mesh, height field or compound (no sub-pairs)"
            ))
        })?;
    let count = run.answer.sub_pairs.len();
    let sub = scene.sub_pair_scene(&run, index).ok_or_else(|| {
        value_error(format!(
            "sub-pair {index}: the run has {count} sub-pairs (0..{})",
            count.saturating_sub(1)
        ))
    })?;
    serde_json::to_string(&sub.to_file()).map_err(value_error)
}

/// The scene as RON text (what `save` writes).
#[pyfunction]
fn to_ron(scene_json: &str) -> PyResult<String> {
    build(scene_json)?;
    let file: SceneFile = serde_json::from_str(scene_json).map_err(value_error)?;
    file.to_ron().map_err(value_error)
}

/// Reads a scene file, or imports an engine's query (parry capture, FCL dump, MuJoCo
/// model; a MuJoCo model at keyframe `key` when given): its JSON.
#[pyfunction]
#[pyo3(signature = (path, key=None))]
fn load(path: &str, key: Option<&str>) -> PyResult<String> {
    let path = Path::new(path);
    let scene = collidescope::input::open_at(path, key).map_err(value_error)?;
    serde_json::to_string(&scene.to_file()).map_err(value_error)
}

/// The settings of a scene that names none: Coal's defaults (JSON).
#[pyfunction]
fn default_settings() -> PyResult<String> {
    let s = collidescope::solver::SolverSettings::default();
    serde_json::to_string(&collidescope::scene::SettingsSpec::from(s)).map_err(value_error)
}

/// The method names the catalog knows.
#[pyfunction]
fn methods() -> Vec<&'static str> {
    collidescope::solver::catalog::CATALOG
        .iter()
        .map(|row| row.name)
        .collect()
}

/// The pair `pair` of the scene as an engine's reproduction, without the command-line
/// tool: a Coal Python script (`kind` "coal") or a parry3d-f64 test (`kind` "parry"),
/// each asserting the certified bracket; `source` is named in it.
#[pyfunction]
#[pyo3(signature = (scene_json, kind, pair=0, source="the Python package"))]
fn export(scene_json: &str, kind: &str, pair: usize, source: &str) -> PyResult<String> {
    let scene = focused(&build(scene_json)?, pair)?;
    let text = match kind {
        "coal" => collidescope::export::coal_script(&scene, source),
        "parry" => collidescope::export::parry_test(&scene, source),
        other => {
            return Err(value_error(format!(
                "export: no exporter named {other:?} (coal, parry)"
            )))
        }
    };
    text.map_err(|e| value_error(format!("pair {pair}: cannot export to {kind}: {e}")))
}

/// Pair `pair` of the scene run with `methods` (the scene's own when empty) as a
/// self-contained web page (what `collidescope export --html` writes).
#[pyfunction]
#[pyo3(signature = (scene_json, pair=0, methods=Vec::new()))]
fn to_html(scene_json: &str, pair: usize, methods: Vec<String>) -> PyResult<String> {
    let scene = focused(&build(scene_json)?, pair)?;
    let methods = methods
        .iter()
        .map(|m| method_named(m))
        .collect::<PyResult<Vec<_>>>()?;
    collidescope::export::web::scene_page(&scene, &methods)
        .map_err(|e| value_error(format!("pair {pair}: cannot make a web page: {e}")))
}

/// Where an engine's convex object (its points and the triangles it was built with) is
/// not convex: `(vertex, polygon, height)` of the vertex farthest beyond a polygon's
/// plane, or None (the check the Coal export makes, in one place).
#[pyfunction]
fn convexity_defect(points: Vec<[f64; 3]>, polygons: Vec<[u32; 3]>) -> Option<(usize, usize, f64)> {
    collidescope::mesh::convexity_defect(&points, &polygons)
}

#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(check, m)?)?;
    m.add_function(wrap_pyfunction!(check_shape, m)?)?;
    m.add_function(wrap_pyfunction!(run, m)?)?;
    m.add_function(wrap_pyfunction!(run_pairs, m)?)?;
    m.add_function(wrap_pyfunction!(sub_pair_scene, m)?)?;
    m.add_function(wrap_pyfunction!(to_ron, m)?)?;
    m.add_function(wrap_pyfunction!(export, m)?)?;
    m.add_function(wrap_pyfunction!(to_html, m)?)?;
    m.add_function(wrap_pyfunction!(load, m)?)?;
    m.add_function(wrap_pyfunction!(methods, m)?)?;
    m.add_function(wrap_pyfunction!(default_settings, m)?)?;
    m.add_class::<query::Built>()?;
    m.add_class::<query::PySettings>()?;
    m.add_class::<query::PyDistance>()?;
    m.add_function(wrap_pyfunction!(query::distance, m)?)?;
    m.add_function(wrap_pyfunction!(query::distances, m)?)?;
    m.add_function(wrap_pyfunction!(query::pose_parts, m)?)?;
    m.add_function(wrap_pyfunction!(convexity_defect, m)?)?;
    Ok(())
}
