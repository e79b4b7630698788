//! Opening a file wherever a scene is taken (`view`, `solve`, `lesson`, `export`, the
//! viewer's Open dialog and drag-and-drop, the Python package's `load`): a RON scene
//! ([`crate::scene`]) or an engine's query ([`crate::import`]: a parry capture, an
//! FCL/Coal dump, a MuJoCo model). The choice is made here, above both, so that scenes
//! never import the importers (which build scene files).

use std::path::Path;

use crate::import::{self, ImportError};
use crate::scene::{Scene, SceneError};

/// Reads and validates the scene `path` holds, or imports the engine's query it holds.
pub fn open(path: &Path) -> Result<Scene, SceneError> {
    let text = Scene::read_text(path)?;
    open_text(path, &text)
}

/// [`open`] on text already read; `path` names it in messages and anchors relative mesh
/// paths. A file that is not RON (`.json`, `.txt`, ...) holding an engine's query is
/// imported; anything else is read as a scene.
pub fn open_text(path: &Path, text: &str) -> Result<Scene, SceneError> {
    let ron = path
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("ron"));
    if !ron && import::detect(text).is_some() {
        let file = import::import_text(path, text).map_err(imported)?;
        return Scene::from_scene_file(file, path);
    }
    Scene::parse(path, text)
}

/// [`open`], a MuJoCo model at keyframe `key` (name or index) when one is given
/// (refused for every other file, which holds one configuration).
pub fn open_at(path: &Path, key: Option<&str>) -> Result<Scene, SceneError> {
    match key {
        Some(key) => {
            let file = import::import_file_at(path, Some(key)).map_err(imported)?;
            Scene::from_scene_file(file, path)
        }
        None => open(path),
    }
}

/// An import's refusal as a scene's (the same text: the file, then what is wrong where).
fn imported(e: ImportError) -> SceneError {
    SceneError::Invalid {
        path: e.path,
        message: e.message,
    }
}
