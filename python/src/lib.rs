//! The native half of the `collidescope` Python package: scenes travel as JSON (Python's
//! `json` writes floats in shortest round-trip form and serde_json reads them exactly
//! rounded, so every number arrives to the bit), runs come back as JSON of the same
//! fields as `collidescope solve --json`. The Python half (`collidescope/__init__.py`)
//! builds the scene dicts from numpy arrays and Coal objects and turns points into
//! numpy arrays.

use std::path::Path;

use collidescope::scene::{Scene, SceneFile};
use collidescope::solver::Method;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

fn value_error(e: impl std::fmt::Display) -> PyErr {
    PyValueError::new_err(e.to_string())
}

/// A scene file (its JSON) built and checked as the app builds it.
fn build(scene_json: &str) -> PyResult<Scene> {
    let file: SceneFile = serde_json::from_str(scene_json).map_err(value_error)?;
    Scene::from_scene_file(file, Path::new("python-scene.ron")).map_err(value_error)
}

/// Checks a scene (raises ValueError saying what is wrong).
#[pyfunction]
fn check(scene_json: &str) -> PyResult<()> {
    build(scene_json).map(|_| ())
}

/// Runs a method (any name of the catalog) on the scene's first pair, with its records:
/// the run as JSON, the fields of `collidescope solve --json`.
#[pyfunction]
fn run(scene_json: &str, method: &str) -> PyResult<String> {
    let scene = build(scene_json)?;
    let method: Method = method.parse().map_err(value_error)?;
    let run = scene.run(method);
    serde_json::to_string(&scene.run_report(&run)).map_err(value_error)
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

#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(check, m)?)?;
    m.add_function(wrap_pyfunction!(run, m)?)?;
    m.add_function(wrap_pyfunction!(to_ron, m)?)?;
    m.add_function(wrap_pyfunction!(load, m)?)?;
    m.add_function(wrap_pyfunction!(methods, m)?)?;
    m.add_function(wrap_pyfunction!(default_settings, m)?)?;
    Ok(())
}
