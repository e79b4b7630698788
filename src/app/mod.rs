//! The Bevy viewer: two shapes, their Minkowski difference, the focused run's simplex
//! and support directions step by step, panels and live plots. One plugin per file;
//! the logic that needs no window (model, playback, narration, tessellation) is plain
//! Rust and tested without one.

mod camera;
mod diagnose;
mod drag;
mod draw_epa;
mod draw_minkowski;
mod draw_shapes;
mod draw_simplex;
mod files;
pub mod model;
pub mod narration;
pub mod narration_epa;
mod playback;
pub mod playback_state;
mod screenshot;
pub mod tessellate;
mod ui;

use std::path::PathBuf;

use bevy::prelude::*;
use bevy::window::WindowResolution;
use bevy_egui::EguiPlugin;

use crate::scene::Scene;
use crate::solver::Method;
use model::ViewerModel;
use playback_state::Playback;

/// How the viewer was started.
#[derive(Clone, Debug, Default)]
pub struct ViewerOptions {
    pub scene: Option<PathBuf>,
    /// Scripted mode: render, save this PNG and exit.
    pub screenshot: Option<PathBuf>,
    pub iteration: Option<usize>,
    pub focus: Option<Method>,
    pub size: Option<(u32, u32)>,
    /// Scripted mode: close in on the step (simplex and origin) instead of the whole scene.
    pub close_up: bool,
    /// Scripted mode: run the Diagnose sweep and heat map before capturing.
    pub diagnose: bool,
}

/// The default scene when none is given: shipped with the binary.
const DEFAULT_SCENE: &str = include_str!("../../scenes/ellipsoids_close.ron");

/// The viewer's model as a resource.
#[derive(Resource, Deref, DerefMut)]
pub struct Model(pub ViewerModel);

/// The time cursor as a resource.
#[derive(Resource, Deref, DerefMut, Default)]
pub struct PlaybackCursor(pub Playback);

/// The last message for the status line (errors stay until the next message).
#[derive(Resource, Default, Clone, Debug)]
pub struct StatusLine {
    pub text: String,
    pub is_error: bool,
}

impl StatusLine {
    pub fn info(&mut self, text: impl Into<String>) {
        self.text = text.into();
        self.is_error = false;
    }

    pub fn error(&mut self, text: impl Into<String>) {
        self.text = text.into();
        self.is_error = true;
    }
}

/// Where `A ⊖ B` is drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DifferencePlacement {
    /// Around the world origin, among the shapes.
    InPlace,
    /// Beside the shapes, with its own origin marker.
    SideView,
}

/// Which layers are drawn.
#[derive(Resource, Clone, Debug)]
pub struct Layers {
    pub shapes: bool,
    pub difference: bool,
    pub placement: DifferencePlacement,
    pub simplex: bool,
    pub labels: bool,
    pub support_direction: bool,
    pub support_parts: bool,
    pub iterate: bool,
    pub witness: bool,
    pub frank_wolfe_path: bool,
}

impl Default for Layers {
    fn default() -> Self {
        Self {
            shapes: true,
            difference: true,
            placement: DifferencePlacement::SideView,
            simplex: true,
            labels: true,
            support_direction: true,
            support_parts: true,
            iterate: true,
            witness: true,
            frank_wolfe_path: true,
        }
    }
}

/// The order of the per-frame work: input, then solving, then drawing.
#[derive(SystemSet, Debug, Clone, PartialEq, Eq, Hash)]
pub enum ViewerSet {
    Input,
    Draw,
}

/// Loads the scene (or the default one) and runs the viewer until its window closes.
pub fn run_viewer(options: ViewerOptions) -> anyhow::Result<()> {
    let scene = match &options.scene {
        Some(path) => Scene::load(path)?,
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
    match options.focus {
        Some(Method::Solver(focus)) => model.set_focus(focus),
        Some(Method::Epa) => model.set_epa_focus(true),
        None => {}
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
    .insert_resource(PlaybackCursor(playback))
    .init_resource::<StatusLine>()
    .init_resource::<Layers>()
    .configure_sets(Update, (ViewerSet::Input, ViewerSet::Draw).chain())
    .add_plugins((
        camera::plugin,
        diagnose::plugin,
        drag::plugin,
        playback::plugin,
        draw_shapes::plugin,
        draw_minkowski::plugin,
        draw_simplex::plugin,
        draw_epa::plugin,
        files::plugin,
        ui::plugin,
    ));
    if let Some(path) = options.screenshot {
        app.add_plugins(screenshot::ScriptedScreenshot {
            path,
            close_up: options.close_up,
            diagnose: options.diagnose,
        });
    }
    match app.run() {
        AppExit::Success => Ok(()),
        AppExit::Error(code) => anyhow::bail!("the viewer stopped with error code {code}"),
    }
}
