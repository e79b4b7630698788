//! The Bevy viewer: the scene's pair in focus, their Minkowski difference, the focused
//! method's steps (drawn and narrated by its family), panels and live plots. One plugin
//! per file; each frame runs Input (keys, drags, file requests), then Solve (panel
//! commands applied, stale runs re-run once), then Draw. The logic that needs no window
//! (model, commands, playback, narration, tessellation) is plain Rust and tested
//! without one.

pub mod animate;
mod camera;
pub mod command;
pub mod companion;
pub mod composite_view;
mod diagnose;
mod drag;
mod draw;
pub use draw::composite::{composite_drawing, CompositeDrawing};
mod files;
mod fonts;
pub mod lesson;
pub mod lesson_page;
pub mod model;
mod playback;
pub mod playback_state;
mod plot_legend;
pub mod presentation;
pub mod robot;
mod screenshot;
pub mod state;
pub mod theme;
mod ui;
pub mod worksheet;

use std::path::PathBuf;

use bevy::prelude::*;
use bevy::window::WindowResolution;
use bevy_egui::EguiPlugin;

use crate::scene::Scene;
use crate::solver::Method;
use model::ViewerModel;
use playback_state::Playback;
use state::{Layers, Model, PlaybackCursor, StatusLine, ViewerMode, ViewerSet};

/// How the viewer was started.
#[derive(Clone, Debug, Default)]
pub struct ViewerOptions {
    pub scene: Option<PathBuf>,
    /// With a URDF as the scene: the SRDF whose disabled pairs robot mode skips.
    pub srdf: Option<PathBuf>,
    /// With a MuJoCo model as the scene: the keyframe (name or index) to open it at.
    pub key: Option<String>,
    /// Scripted mode: render, save this PNG and exit.
    pub screenshot: Option<PathBuf>,
    pub iteration: Option<usize>,
    pub focus: Option<Method>,
    pub size: Option<(u32, u32)>,
    /// Scripted mode: close in on the step (simplex and origin) instead of the whole scene.
    pub close_up: bool,
    /// Scripted mode: run the Diagnose sweep and heat map before capturing.
    pub diagnose: bool,
    /// The lesson step to open at (from 1), when the scene has a lesson.
    pub lesson_step: Option<usize>,
    /// Start in the projector theme.
    pub projector: bool,
    /// Scripted mode, a lesson: fail when a label the step's text names is off the view.
    pub check_labels: bool,
    /// Scripted mode: capture every step as an animation to this file, then exit.
    pub animate: Option<(PathBuf, animate::Walk)>,
}

/// The default scene when none is given: shipped with the binary.
const DEFAULT_SCENE: &str = include_str!("../../scenes/ellipsoids_close.ron");

/// Loads the scene (or the default one) and runs the viewer until its window closes.
pub fn run_viewer(options: ViewerOptions) -> anyhow::Result<()> {
    // A URDF by its extension, or an XML file whose root is <robot> (MuJoCo's XML opens
    // as a scene).
    let is_urdf = options.scene.as_ref().is_some_and(|p| {
        p.extension()
            .is_some_and(|e| e.eq_ignore_ascii_case("urdf"))
            || (p.extension().is_some_and(|e| e.eq_ignore_ascii_case("xml")) && files::is_urdf(p))
    });
    let mut robot = robot::RobotSession::default();
    let scene = match &options.scene {
        Some(path) if is_urdf => {
            // Without --srdf, the SRDF beside the URDF (as Files > Open URDF finds it).
            let srdf = options.srdf.clone().or_else(|| files::srdf_beside(path));
            if let Some(found) = srdf.as_ref().filter(|_| options.srdf.is_none()) {
                eprintln!("using the SRDF beside the URDF: {}", found.display());
            }
            let state =
                robot::RobotState::load(path, srdf.as_deref()).map_err(anyhow::Error::msg)?;
            let scene = state.scene(path.parent().unwrap_or(std::path::Path::new(".")));
            robot.0 = Some(state);
            scene
        }
        Some(path) => crate::input::open_at(path, options.key.as_deref())?,
        None => Scene::parse(
            std::path::Path::new("scenes/ellipsoids_close.ron"),
            DEFAULT_SCENE,
        )?,
    };
    if cfg!(target_os = "linux") && std::env::var_os("DISPLAY").is_none() {
        anyhow::bail!(
            "the viewer needs an X display and DISPLAY is not set (on a headless machine: xvfb-run collidescope view ...)"
        );
    }
    let mut model = ViewerModel::new(scene);
    if let Some(focus) = options.focus {
        model.set_focus(focus);
        model.solve();
    }
    let mut playback = Playback::default();
    let len = model.step_count();
    playback.cursor = options.iteration.unwrap_or(0).min(len.saturating_sub(1));
    let (width, height) = options.size.unwrap_or((1600, 960));

    let mut app = App::new();
    app.add_plugins(DefaultPlugins.set(WindowPlugin {
        primary_window: Some(Window {
            title: "Collidescope".into(),
            resolution: WindowResolution::new(width, height).with_scale_factor_override(1.0),
            ..default()
        }),
        ..default()
    }))
    .add_plugins(MeshPickingPlugin)
    .add_plugins(EguiPlugin::default())
    .insert_resource(ClearColor(Color::srgb(0.93, 0.94, 0.96)))
    .insert_resource(Model(model))
    .insert_resource(robot)
    .insert_resource(PlaybackCursor(playback))
    .insert_resource({
        let mut p = state::Presentation::default();
        p.set_projector(options.projector);
        // An animation for slides shows the 3-D view and the narration only.
        p.panels_hidden = options.animate.is_some();
        p
    })
    .insert_resource(
        lesson::LessonPlayer::starting_at(options.lesson_step.unwrap_or(1).saturating_sub(1))
            .with_first_cursor(options.iteration.filter(|_| options.lesson_step.is_none())),
    )
    .init_resource::<StatusLine>()
    .init_resource::<Layers>()
    .init_state::<ViewerMode>()
    .configure_sets(
        Update,
        (ViewerSet::Input, ViewerSet::Solve, ViewerSet::Draw).chain(),
    )
    .add_plugins((
        camera::plugin,
        command::plugin,
        diagnose::plugin,
        drag::plugin,
        playback::plugin,
        draw::plugin,
        files::plugin,
        ui::plugin,
        robot::plugin,
        lesson::plugin,
        presentation::plugin,
        fonts::plugin,
        animate::plugin,
    ));
    if let Some((out, walk)) = options.animate {
        app.insert_resource(animate::AnimationJob::new(out, walk, true));
    }
    if let Some(path) = options.screenshot {
        app.add_plugins(screenshot::ScriptedScreenshot {
            path,
            close_up: options.close_up,
            diagnose: options.diagnose,
            check_labels: options.check_labels,
        });
    }
    match app.run() {
        AppExit::Success => Ok(()),
        AppExit::Error(code) => anyhow::bail!("the viewer stopped with error code {code}"),
    }
}
