//! Files: OBJ for A or B, scenes, exports and screenshots. The async dialog, drag and
//! drop and the path field all end in [`perform`]; a failure is reported in the status
//! line and the scene stays as it was.

use std::path::{Path, PathBuf};

use bevy::ecs::system::SystemParam;
use bevy::prelude::*;
use bevy::render::view::screenshot::{save_to_disk, Screenshot};
use bevy::tasks::{block_on, futures_lite::future, AsyncComputeTaskPool, Task};

use super::camera::CameraRequest;
use super::model::{Side, ViewerModel};
use super::robot::{RobotSession, RobotState};
use super::state::{Model, PlaybackCursor, StatusLine, ViewerSet};

/// Something to do with a file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FileAction {
    OpenObj(Side),
    OpenScene,
    /// A URDF in robot mode (its SRDF found beside it, or in ../srdf/, by its name).
    OpenRobot,
    SaveScene,
    ExportCsv,
    ExportJson,
    /// The pair as a standalone Coal script (Python) that checks Coal's answer.
    ExportCoal,
    /// The pair as a standalone parry3d-f64 `#[test]` that checks parry's answer.
    ExportParry,
    /// The scene's runs (or its lesson) as a self-contained web page.
    ExportWebPage,
    Screenshot,
    /// Every step of the focused run (or of the lesson) as a GIF or numbered PNGs.
    Animation,
}

impl FileAction {
    fn saves(self) -> bool {
        matches!(
            self,
            FileAction::SaveScene
                | FileAction::ExportCsv
                | FileAction::ExportJson
                | FileAction::ExportCoal
                | FileAction::ExportParry
                | FileAction::ExportWebPage
                | FileAction::Screenshot
                | FileAction::Animation
        )
    }

    fn extensions(self) -> (&'static str, &'static [&'static str]) {
        match self {
            FileAction::OpenObj(_) => ("Mesh (OBJ, STL, PLY)", &["obj", "stl", "ply"]),
            // An engine's query opens as a scene: a parry capture, an FCL/Coal dump, a
            // MuJoCo model.
            FileAction::OpenScene => (
                "Scene, parry capture (JSON), FCL/Coal dump or MuJoCo model (XML)",
                &["ron", "json", "txt", "log", "xml", "mjcf"],
            ),
            FileAction::SaveScene => ("Collidescope scene", &["ron"]),
            FileAction::OpenRobot => ("URDF", &["urdf"]),
            FileAction::ExportCsv => ("CSV", &["csv"]),
            FileAction::ExportJson => ("JSON", &["json"]),
            FileAction::ExportCoal => ("Python (Coal)", &["py"]),
            FileAction::ExportParry => ("Rust test (parry3d-f64)", &["rs"]),
            FileAction::ExportWebPage => ("Web page", &["html"]),
            FileAction::Screenshot => ("PNG", &["png"]),
            FileAction::Animation => ("animated GIF", &["gif"]),
        }
    }
}

/// A file request from the UI: with a path it is done now, without one a dialog opens.
#[derive(Message, Clone, Debug)]
pub struct FileRequest {
    pub action: FileAction,
    pub path: Option<PathBuf>,
}

/// Which shape a dropped OBJ replaces.
#[derive(Resource, Clone, Copy, Debug)]
pub struct DropTarget(pub Side);

#[derive(Resource, Default)]
struct PendingDialog(Option<(FileAction, Task<Option<PathBuf>>)>);

pub(super) fn plugin(app: &mut App) {
    app.add_message::<FileRequest>()
        .insert_resource(DropTarget(Side::B))
        .init_resource::<PendingDialog>()
        .add_systems(
            Update,
            (
                open_dialogs,
                finish_dialogs,
                dropped_files,
                perform_requests,
            )
                .in_set(ViewerSet::Input),
        );
}

/// What a file action changed, for the caller to follow up.
#[derive(Debug)]
pub enum Performed {
    Message(String),
    SceneReplaced(String),
    /// A robot opened: its state for robot mode, and the message.
    RobotOpened(Box<RobotState>, String),
    Screenshot(PathBuf),
    Animation(PathBuf),
}

/// The SRDF that goes with a URDF: `name.srdf` beside it or in `../srdf/`. Both ways
/// of opening a robot (`view robot.urdf`, Files > Open URDF) look for it here.
pub(super) fn srdf_beside(urdf: &Path) -> Option<PathBuf> {
    let stem = urdf.file_stem()?;
    let dir = urdf.parent()?;
    let name = Path::new(stem).with_extension("srdf");
    [dir.join(&name), dir.join("../srdf").join(&name)]
        .into_iter()
        .find(|p| p.is_file())
}

/// Does `action` on `path`. The one entry point for dialogs, drops and typed paths.
pub fn perform(
    action: FileAction,
    path: &Path,
    model: &mut ViewerModel,
) -> Result<Performed, String> {
    let write = |text: String| {
        std::fs::write(path, text).map_err(|e| format!("{}: cannot write: {e}", path.display()))
    };
    match action {
        FileAction::OpenObj(body) => {
            let report = model.load_obj(model.side(body), path)?;
            let convex = match report.convex {
                Some(true) => "convex",
                Some(false) => "not convex: its hull is used",
                None => "flat",
            };
            Ok(Performed::Message(format!(
                "{} loaded as {}: {} vertices, {} faces -> hull of {} vertices ({convex})",
                path.display(),
                body.label(),
                report.input_vertices,
                report.input_faces,
                report.hull_vertices
            )))
        }
        FileAction::OpenScene => {
            model.load_scene(path)?;
            Ok(Performed::SceneReplaced(format!(
                "scene {} loaded",
                path.display()
            )))
        }
        FileAction::OpenRobot => {
            let srdf = srdf_beside(path);
            let state = RobotState::load(path, srdf.as_deref())?;
            let dir = path.parent().unwrap_or(Path::new("."));
            model.replace_scene(state.scene(dir));
            let with = srdf.map_or(String::new(), |s| format!(" with {}", s.display()));
            let message = format!("robot {} loaded{with}", path.display());
            Ok(Performed::RobotOpened(Box::new(state), message))
        }
        FileAction::SaveScene => {
            model.save_scene(path)?;
            Ok(Performed::Message(format!(
                "scene saved to {}",
                path.display()
            )))
        }
        FileAction::ExportCsv => {
            write(model.focused_run_csv())?;
            Ok(Performed::Message(format!(
                "focused run written to {}",
                path.display()
            )))
        }
        FileAction::ExportJson => {
            write(model.focused_run_json())?;
            Ok(Performed::Message(format!(
                "focused run written to {}",
                path.display()
            )))
        }
        FileAction::ExportCoal | FileAction::ExportParry => {
            let source = model.scene.name.clone();
            let (text, engine) = if action == FileAction::ExportCoal {
                (
                    crate::export::coal_script(&model.scene, &source),
                    "Coal script",
                )
            } else {
                (
                    crate::export::parry_test(&model.scene, &source),
                    "parry3d-f64 test",
                )
            };
            write(text.map_err(|e| format!("cannot export: {e}"))?)?;
            Ok(Performed::Message(format!(
                "{engine} written to {}",
                path.display()
            )))
        }
        FileAction::ExportWebPage => {
            // A lesson as its pages; otherwise the pair in focus with the methods the
            // viewer runs, as they stand now (a dragged pose included).
            let (page, what) = if model.scene.lesson.is_empty() {
                let page = crate::export::web::scene_page(&model.scene, model.enabled());
                (page, "web page of the runs")
            } else {
                let page = crate::app::lesson_page::lesson_page(model.scene.clone());
                (page, "web page of the lesson")
            };
            write(page.map_err(|e| format!("cannot export: {e}"))?)?;
            Ok(Performed::Message(format!(
                "{what} written to {}",
                path.display()
            )))
        }
        FileAction::Screenshot => Ok(Performed::Screenshot(path.to_path_buf())),
        FileAction::Animation => Ok(Performed::Animation(path.to_path_buf())),
    }
}

/// What performing a file action may touch.
#[derive(SystemParam)]
struct FileEffects<'w, 's> {
    model: ResMut<'w, Model>,
    robot: ResMut<'w, RobotSession>,
    status: ResMut<'w, StatusLine>,
    cursor: ResMut<'w, PlaybackCursor>,
    commands: Commands<'w, 's>,
    camera: MessageWriter<'w, CameraRequest>,
}

fn perform_and_report(action: FileAction, path: &Path, effects: &mut FileEffects) {
    match perform(action, path, &mut effects.model.0) {
        Ok(Performed::Message(m)) => effects.status.info(m),
        Ok(Performed::SceneReplaced(m)) => {
            effects.robot.0 = None;
            effects.cursor.cursor = 0;
            effects.camera.write(CameraRequest::FrameAll);
            effects.status.info(m);
        }
        Ok(Performed::RobotOpened(state, m)) => {
            effects.robot.0 = Some(*state);
            effects.cursor.cursor = 0;
            effects.camera.write(CameraRequest::FrameAll);
            effects.status.info(m);
        }
        Ok(Performed::Screenshot(p)) => {
            effects
                .commands
                .spawn(Screenshot::primary_window())
                .observe(save_to_disk(p.clone()));
            effects
                .status
                .info(format!("screenshot saved to {}", p.display()));
        }
        Ok(Performed::Animation(p)) => {
            let walk = if effects.model.scene.lesson.is_empty() {
                super::animate::Walk::Steps
            } else {
                super::animate::Walk::Lesson
            };
            effects
                .commands
                .insert_resource(super::animate::AnimationJob::new(p.clone(), walk, false));
            effects
                .status
                .info(format!("capturing an animation to {}", p.display()));
        }
        Err(e) => effects.status.error(e),
    }
}

fn perform_requests(mut requests: MessageReader<FileRequest>, mut effects: FileEffects) {
    for request in requests.read() {
        if let Some(path) = &request.path {
            perform_and_report(request.action, path, &mut effects);
        }
    }
}

fn open_dialogs(
    mut requests: MessageReader<FileRequest>,
    mut pending: ResMut<PendingDialog>,
    mut status: ResMut<StatusLine>,
) {
    for request in requests.read() {
        if request.path.is_some() {
            continue;
        }
        if pending.0.is_some() {
            status.info("a file dialog is already open");
            continue;
        }
        let action = request.action;
        let (name, extensions) = action.extensions();
        let dialog = rfd::AsyncFileDialog::new().add_filter(name, extensions);
        let task = AsyncComputeTaskPool::get().spawn(async move {
            let handle = if action.saves() {
                dialog.save_file().await
            } else {
                dialog.pick_file().await
            };
            handle.map(|h| h.path().to_path_buf())
        });
        pending.0 = Some((action, task));
    }
}

fn finish_dialogs(mut pending: ResMut<PendingDialog>, mut effects: FileEffects) {
    let Some((action, task)) = pending.0.as_mut() else {
        return;
    };
    let Some(result) = block_on(future::poll_once(task)) else {
        return;
    };
    let action = *action;
    pending.0 = None;
    match result {
        Some(path) => perform_and_report(action, &path, &mut effects),
        None => effects.status.info("no file chosen (without a desktop portal no dialog can open: type a path in the Files panel)"),
    }
}

/// Whether an XML file's root element is a URDF `<robot>` (read as far as the root).
pub(super) fn is_urdf(path: &Path) -> bool {
    std::fs::read_to_string(path).is_ok_and(|text| {
        text.find('<').is_some_and(|_| {
            text.split('<')
                .map(str::trim_start)
                .find(|tag| !tag.starts_with('?') && !tag.starts_with('!') && !tag.is_empty())
                .is_some_and(|tag| tag.starts_with("robot"))
        })
    })
}

fn dropped_files(
    mut drops: MessageReader<FileDragAndDrop>,
    target: Res<DropTarget>,
    mut effects: FileEffects,
) {
    for drop in drops.read() {
        if let FileDragAndDrop::DroppedFile { path_buf, .. } = drop {
            // A mesh (OBJ, STL, PLY) replaces the drop target; scenes and engines' queries
            // open as scenes; a URDF in robot mode.
            let action = match path_buf.extension().and_then(|e| e.to_str()) {
                Some("ron" | "json" | "txt" | "log" | "mjcf") => FileAction::OpenScene,
                Some("urdf") => FileAction::OpenRobot,
                // XML is a MuJoCo model or a URDF: its root element says which.
                Some("xml") if is_urdf(path_buf) => FileAction::OpenRobot,
                Some("xml") => FileAction::OpenScene,
                _ => FileAction::OpenObj(target.0),
            };
            perform_and_report(action, path_buf, &mut effects);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scene::Scene;

    /// An XML file opens by its root: `<robot>` in robot mode, `<mujoco>` as a scene.
    #[test]
    fn xml_files_open_by_their_root_element() {
        let dir = std::env::temp_dir().join(format!("collidescope-xml-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let urdf = dir.join("arm.xml");
        std::fs::write(
            &urdf,
            "<?xml version=\"1.0\"?>\n<!-- an arm -->\n<robot name=\"a\"/>",
        )
        .unwrap();
        let mjcf = dir.join("model.xml");
        std::fs::write(&mjcf, "<!-- a model -->\n<mujoco model=\"m\"/>").unwrap();
        assert!(is_urdf(&urdf));
        assert!(!is_urdf(&mjcf));
        assert!(!is_urdf(&dir.join("absent.xml")));
    }

    #[test]
    fn a_urdf_opens_in_robot_mode_with_its_srdf_and_a_bad_one_changes_nothing() {
        let scene = Path::new(env!("CARGO_MANIFEST_DIR")).join("scenes/boxes_face_to_face.ron");
        let mut model = ViewerModel::new(Scene::load(&scene).unwrap());
        let before = model.scene.to_file();
        let dir =
            std::env::temp_dir().join(format!("collidescope-files-urdf-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let bad = dir.join("bad.urdf");
        std::fs::write(
            &bad,
            "<robot name='x'><link name='a'/><joint name='j' type='hinge'/></robot>",
        )
        .unwrap();
        let err = perform(FileAction::OpenRobot, &bad, &mut model).unwrap_err();
        assert!(err.contains("bad.urdf"), "{err}");
        assert_eq!(model.scene.to_file(), before);
        let panda = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../shared/data/robots/panda_description/urdf/panda.urdf");
        if !panda.exists() {
            eprintln!("skipped: {} is absent", panda.display());
            return;
        }
        match perform(FileAction::OpenRobot, &panda, &mut model).unwrap() {
            Performed::RobotOpened(state, message) => {
                assert!(message.contains("panda.srdf"), "{message}");
                assert_eq!(state.pairs.len(), 20);
                assert_eq!(
                    (model.scene.bodies.len(), model.scene.pairs.len()),
                    (11, 20)
                );
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn failures_leave_the_scene_and_say_why() {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("scenes/boxes_face_to_face.ron");
        let mut model = ViewerModel::new(Scene::load(&path).unwrap());
        let before = model.scene.to_file();
        let dir = std::env::temp_dir().join(format!("collidescope-files-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let flat = dir.join("flat.obj");
        std::fs::write(&flat, "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n").unwrap();
        let msg = perform(FileAction::OpenObj(Side::A), &flat, &mut model).unwrap();
        assert!(matches!(msg, Performed::Message(m) if m.contains("flat")));
        model = ViewerModel::new(Scene::load(&path).unwrap());
        for (action, file) in [
            (FileAction::OpenObj(Side::B), dir.join("missing.obj")),
            (FileAction::OpenScene, dir.join("missing.ron")),
            (FileAction::ExportCsv, PathBuf::from("/no/such/dir/x.csv")),
        ] {
            let err = perform(action, &file, &mut model).unwrap_err();
            assert!(!err.is_empty());
        }
        assert_eq!(model.scene.to_file(), before);
        let csv = dir.join("run.csv");
        perform(FileAction::ExportCsv, &csv, &mut model).unwrap();
        assert!(std::fs::read_to_string(&csv)
            .unwrap()
            .starts_with("algorithm,k,event"));
        let saved = dir.join("saved.ron");
        perform(FileAction::SaveScene, &saved, &mut model).unwrap();
        perform(FileAction::OpenScene, &saved, &mut model).unwrap();
        assert_eq!(model.scene.to_file().bodies[0], before.bodies[0]);
    }
}
