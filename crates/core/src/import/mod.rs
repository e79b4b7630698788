//! Queries brought in from the engines people debug: a parry/rapier capture (serde JSON
//! of `(pos1, shape1, pos2, shape2)`, f32 or f64 build), an FCL/Coal failure dump
//! (shape parameters and two 4×4 poses) and a MuJoCo model (MJCF: its geoms at the
//! file's configuration, the pairs MuJoCo's filter tests). Each becomes a scene holding exactly the query
//! the engine ran: numbers to the bit, rotations as given (a matrix stays a matrix).
//!
//! [`crate::input::open`] reads these files wherever a scene is taken (`view`, `solve`, the
//! viewer's Open dialog and drag-and-drop); `collidescope import` writes the scene.

pub mod fcl_dump;
pub mod mjcf;
pub mod parry;

use std::path::{Path, PathBuf};

use glam::DVec3;
use thiserror::Error;

use crate::scene::{Dimension, SceneFile, ShapeSpec, SCENE_VERSION};
use crate::solver::SolverSettings;

/// An import that failed: the file and what is wrong where (line or field).
#[derive(Debug, Error)]
#[error("{}: {message}", path.display())]
pub struct ImportError {
    pub path: PathBuf,
    pub message: String,
}

/// The formats `import` reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    Parry,
    FclDump,
    Mjcf,
}

/// What `text` is, from its content (extensions vary: `.json`, `.txt`, `.log`).
pub fn detect(text: &str) -> Option<Format> {
    if fcl_dump::looks_like_dump(text) {
        return Some(Format::FclDump);
    }
    if mjcf::looks_like_mjcf(text) {
        return Some(Format::Mjcf);
    }
    let trimmed = text.trim_start();
    if trimmed.starts_with('[') {
        return Some(Format::Parry);
    }
    None
}

/// Reads an engine's query into a scene file (not yet validated: `Scene::from_file`
/// builds and checks it, naming this file).
pub fn import_file(path: &Path) -> Result<SceneFile, ImportError> {
    import_file_at(path, None)
}

/// [`import_file`], a MuJoCo model at keyframe `key` (name or index) when one is given
/// (refused for the other formats, which hold one configuration).
pub fn import_file_at(path: &Path, key: Option<&str>) -> Result<SceneFile, ImportError> {
    let fail = |message: String| ImportError {
        path: path.to_path_buf(),
        message,
    };
    let bytes = std::fs::read(path).map_err(|e| fail(format!("cannot read: {e}")))?;
    if let Some(encoding) = utf16(&bytes) {
        return Err(fail(format!(
            "{encoding} text (bytes 0-1 are its byte-order mark): save it as UTF-8; {}",
            FORMATS
        )));
    }
    let text = String::from_utf8(bytes).map_err(|e| {
        let at = e.utf8_error().valid_up_to();
        let valid = &e.as_bytes()[..at];
        let line = valid.iter().filter(|b| **b == b'\n').count() + 1;
        fail(format!(
            "byte {at} (line {line}) is not UTF-8 (0x{:02X}): not text; {FORMATS}",
            e.as_bytes()[at]
        ))
    })?;
    import_text_at(path, &text, key)
}

/// What `import` takes, for the refusal of a file that is none of them.
const FORMATS: &str = "Collidescope imports a parry capture (JSON [pos1, shape1, pos2, shape2]), \
     an FCL/Coal dump (Shape 1: ... X_FS1 ... Shape 2: ... X_FS2 ...) or a MuJoCo model \
     (<mujoco> XML)";

/// "UTF-16LE" or "UTF-16BE" when `bytes` begin with that byte-order mark.
fn utf16(bytes: &[u8]) -> Option<&'static str> {
    match bytes {
        [0xFF, 0xFE, ..] => Some("UTF-16LE"),
        [0xFE, 0xFF, ..] => Some("UTF-16BE"),
        _ => None,
    }
}

/// Where a text that is none of the formats says so: empty, only blank, a control
/// character of a binary file, or its first line that is not blank.
fn not_a_format(text: &str) -> String {
    if text.is_empty() {
        return format!("the file is empty: {FORMATS}");
    }
    if let Some((at, c)) = text
        .char_indices()
        .find(|(_, c)| c.is_control() && !matches!(c, '\n' | '\r' | '\t'))
    {
        let line = text[..at].matches('\n').count() + 1;
        return format!(
            "byte {at} (line {line}) is the control character U+{:04X}: a binary file, \
             not text; {FORMATS}",
            u32::from(c)
        );
    }
    match text.lines().enumerate().find(|(_, l)| !l.trim().is_empty()) {
        None => format!("the file holds only blank lines: {FORMATS}"),
        Some((n, l)) => {
            let shown: String = l.trim().chars().take(40).collect();
            format!(
                "line {}, `{shown}`{}: none of the formats begins so; {FORMATS}",
                n + 1,
                if l.trim().chars().count() > 40 {
                    "..."
                } else {
                    ""
                }
            )
        }
    }
}

/// Why a JSON array is not a parry capture, with the place: its length, or the element
/// that should be a pose.
fn not_a_capture(value: &serde_json::Value) -> String {
    let expected = "a capture is [pos1, shape1, pos2, shape2] (distance) or [pos1, vel1, shape1, \
                    pos2, vel2, shape2] (cast_shapes), as serde_json writes it with parry's \
                    serde-serialize feature";
    let Some(items) = value.as_array() else {
        return format!("the top level is not a JSON array: {expected}");
    };
    let poses: &[(usize, &str)] = match items.len() {
        4 => &[(0, "pos1"), (2, "pos2")],
        6 => &[(0, "pos1"), (3, "pos2")],
        n => {
            return format!("the top-level array has {n} elements, not 4 or 6: {expected}");
        }
    };
    for (at, name) in poses {
        let item = &items[*at];
        let missing: Vec<&str> = ["rotation", "translation"]
            .into_iter()
            .filter(|k| item.get(k).is_none())
            .collect();
        if !missing.is_empty() {
            return format!(
                "[{at}] ({name}) is not a parry pose: no \"{}\": {expected}",
                missing.join("\", \"")
            );
        }
    }
    format!("not a parry capture: {expected}")
}

/// [`import_file`] on text already read.
pub fn import_text(path: &Path, text: &str) -> Result<SceneFile, ImportError> {
    import_text_at(path, text, None)
}

/// [`import_file_at`] on text already read.
pub fn import_text_at(
    path: &Path,
    text: &str,
    key: Option<&str>,
) -> Result<SceneFile, ImportError> {
    let fail = |message: String| ImportError {
        path: path.to_path_buf(),
        message,
    };
    let name = path
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|| "imported".into());
    let source = path
        .file_name()
        .map_or_else(String::new, |f| f.to_string_lossy().into_owned());
    let format = detect(text);
    if key.is_some() && format != Some(Format::Mjcf) {
        return Err(fail(
            "--key picks a keyframe of a MuJoCo model; this file is not one".into(),
        ));
    }
    match format {
        Some(Format::Parry) => {
            let value: serde_json::Value = serde_json::from_str(text).map_err(|e| {
                fail(format!(
                    "line {}, column {}: not JSON: {e}",
                    e.line(),
                    e.column()
                ))
            })?;
            if !parry::looks_like_capture(&value) {
                return Err(fail(format!(
                    "a JSON array but not a parry capture: {}",
                    not_a_capture(&value)
                )));
            }
            // Its errors name the argument (pos1, shape2, vel1); one about both names both.
            let query = parry::read(&value).map_err(|e| {
                let named = ["pos", "shape", "vel"].iter().any(|f| e.starts_with(f));
                fail(if named {
                    e
                } else {
                    format!("shape1 and shape2: {e}")
                })
            })?;
            let notes = format!(
                "Imported from {source}: a {} {}, A = {}, B = {}{}.",
                query.precision.crate_name(),
                if query.cast {
                    "cast_shapes query (serde JSON of (pos1, vel1, shape1, pos2, vel2, shape2); \
                     the bodies move by their velocities over parry's time [0, 1])"
                } else {
                    "query (serde JSON of (pos1, shape1, pos2, shape2))"
                },
                query.kinds[0],
                query.kinds[1],
                if query.precision == parry::Precision::F32 {
                    "; every number read as f32 and widened exactly"
                } else {
                    ""
                }
            );
            let mut notes = notes;
            if query.kinds.iter().any(|k| k == "HalfSpace") {
                notes.push_str(
                    " The HalfSpace is a slab whose top face is its plane (under the other body, \
                     twice its reach wide and deep, so distances and depths are the half-space's).",
                );
            }
            for note in &query.composite_notes {
                notes.push_str(&format!(" {note}."));
            }
            if query.composite_notes.iter().any(|n| n.contains("TriMesh")) {
                notes.push_str(
                    " A TriMesh is queried as parry queries it: the surface of its triangles \
                     (not their hull), through the midphase, each answer naming its triangle.",
                );
            }
            if let Some(note) = query.rotation_note() {
                notes.push(' ');
                notes.push_str(&note);
            }
            let mut file = scene(name, notes, query.bodies.to_vec());
            if query.cast {
                file.algorithms = ["toi", "toi_advancement"].map(String::from).to_vec();
            }
            let places = if query.cast {
                ["pos1, vel1, shape1", "pos2, vel2, shape2"]
            } else {
                ["pos1, shape1", "pos2, shape2"]
            };
            located(path, file, places.map(String::from))
        }
        Some(Format::FclDump) => {
            let query = fcl_dump::read(text).map_err(fail)?;
            let mut notes = format!(
                "Imported from {source}: an FCL failure dump, A = {}, B = {} (poses kept as the \
                 printed 4x4 matrices; FCL's z-axis shapes turned onto this project's y axis).",
                query.kinds[0], query.kinds[1]
            );
            if !query.context.is_empty() {
                notes.push('\n');
                notes.push_str(&query.context);
            }
            let file = scene(name, notes, query.bodies.to_vec());
            located(path, file, fcl_dump::places(text))
        }
        Some(Format::Mjcf) => {
            let model = mjcf::read_at(path, text, key).map_err(|e| ImportError {
                path: path.to_path_buf(),
                message: mjcf::without_path(path, e),
            })?;
            if model.pairs.is_empty() {
                return Err(fail(format!(
                    "a MuJoCo model with {} collision geoms and no pair MuJoCo would test{}",
                    model.geoms.len(),
                    if model.left_out.is_empty() {
                        String::new()
                    } else {
                        format!(" (left out: {})", model.left_out.join("; "))
                    }
                )));
            }
            // The geoms' names are on the bodies (the viewer's pair list shows them).
            let configuration = match key {
                Some(key) => format!("keyframe {key:?}"),
                None => "the file's configuration".to_string(),
            };
            let mut notes = format!(
                "Imported from {source}: {}: {} collision geoms at {configuration} \
                 (bodies named by their geoms), the {} pairs MuJoCo tests (its collision \
                 filter's and the explicit <pair>s), ordered by their certified signed distance \
                 (the deepest overlap first, then the nearest){}.",
                if model.name == "MuJoCo model" {
                    "a MuJoCo model with no name".to_string()
                } else {
                    format!("the MuJoCo model {:?}", model.name)
                },
                model.geoms.len(),
                model.pairs.len(),
                mjcf::focus_note(&model)
            );
            if !model.left_out.is_empty() {
                notes.push_str(&format!(" Left out: {}.", model.left_out.join("; ")));
            }
            if model.geoms.iter().any(|g| g.kind == "mesh") {
                notes.push_str(
                    " Mesh geoms are their convex hulls, as MuJoCo collides them (a scene may \
                     take a mesh file's triangles instead: Mesh(path, as: Mesh)).",
                );
            }
            if model.geoms.iter().any(|g| g.kind == "hfield") {
                notes.push_str(
                    " Height fields are the scene's HeightField placed as MuJoCo places them \
                     (elevations normalised to [0, 1] times elevation_z, x over ±radius_x, y \
                     over ±radius_y, the first row at +y), queried as their surface: MuJoCo's \
                     base below z = 0 is not modelled.",
                );
            }
            for stand_in in &model.stand_ins {
                notes.push_str(&format!(" Planes: {stand_in}."));
            }
            let mut file = scene(name, notes, model.bodies);
            file.pairs = model.pairs;
            Ok(file)
        }
        None => Err(fail(format!(
            "not a format Collidescope imports: {}",
            not_a_format(text)
        ))),
    }
}

/// An imported pair's scene, built as a scene is (its shapes and poses checked), so
/// that a body the scene refuses ("shape b: translation must be finite") is refused
/// here with its place in the file (`pos2, shape2`, `Shape 2 (line 9), X_FS2 (line
/// 10)`).
fn located(path: &Path, file: SceneFile, places: [String; 2]) -> Result<SceneFile, ImportError> {
    let Err(e) = crate::scene::Scene::from_scene_file(file.clone(), path) else {
        return Ok(file);
    };
    let full = e.to_string();
    let prefix = format!("{}: ", path.display());
    let rest = full.strip_prefix(&prefix).unwrap_or(&full);
    let place = if rest.starts_with("shape a:") {
        places[0].clone()
    } else if rest.starts_with("shape b:") {
        places[1].clone()
    } else {
        places.join("; ")
    };
    Err(ImportError {
        path: path.to_path_buf(),
        message: format!("{place}: {rest}"),
    })
}

/// The scene of an imported pair: distance and penetration methods, Coal's defaults.
fn scene(name: String, notes: String, bodies: Vec<crate::scene::BodySpec>) -> SceneFile {
    SceneFile {
        version: SCENE_VERSION,
        name,
        notes,
        dimension: Dimension::Spatial,
        bodies,
        pairs: vec![(0, 1)],
        algorithms: ["gjk", "nesterov", "epa"].map(String::from).to_vec(),
        settings: SolverSettings::default(),
        lesson: Vec::new(),
        questions: Vec::new(),
        answers: Vec::new(),
    }
}

/// A radius about a body's origin that holds the shape a spec describes.
pub(crate) fn spec_reach(spec: &ShapeSpec) -> f64 {
    match spec {
        ShapeSpec::Sphere { radius } => *radius,
        ShapeSpec::Box { half_extents } => DVec3::from_array(*half_extents).length(),
        ShapeSpec::Capsule {
            radius,
            half_height,
        } => radius + half_height,
        ShapeSpec::Cylinder {
            radius,
            half_height,
        }
        | ShapeSpec::Cone {
            radius,
            half_height,
        } => radius.hypot(*half_height),
        ShapeSpec::Polytope { points, .. } => points
            .iter()
            .map(|p| DVec3::from_array(*p).length())
            .fold(0.0, f64::max),
        ShapeSpec::Dilated { shape, radius } => spec_reach(shape) + radius,
        ShapeSpec::Ellipsoid { radii } => radii.iter().fold(0.0, |m: f64, r| m.max(*r)),
        ShapeSpec::TriMesh { vertices, .. } => vertices
            .iter()
            .map(|p| DVec3::from_array(*p).length())
            .fold(0.0, f64::max),
        ShapeSpec::HeightField { heights, scale, .. } => {
            let high =
                heights.iter().flatten().fold(0.0f64, |m, h| m.max(h.abs())) * scale[1].abs();
            DVec3::new(0.5 * scale[0], high, 0.5 * scale[2])
                .abs()
                .length()
        }
        ShapeSpec::Compound { parts } => parts
            .iter()
            .map(|p| DVec3::from_array(p.translation).length() + spec_reach(&p.shape))
            .fold(0.0, f64::max),
        _ => 1.0,
    }
}
