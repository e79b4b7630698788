//! The 3-D view's drawings. Scene layers every method shares (the shapes, `A ⊖ B`) run
//! always; the step under the cursor is drawn by its family's companion
//! (`app/companion/`), each registered with a run condition on the family in focus (one
//! drawing per record type) through the companions' list: `common` holds what the
//! distance families (GJK, Frank-Wolfe) share, and this file what every step drawing
//! reads ([`StepView`]) and the layer colours.

pub mod common;
pub mod composite;
pub mod construction;
pub mod minkowski;
pub mod shapes;

use bevy::ecs::system::SystemParam;
use bevy::prelude::*;

use super::camera::MarkerScale;
use super::state::{Layers, Model, PlaybackCursor, ViewerSet};
use crate::solver::catalog::Family;
use minkowski::DifferenceFrame;

// Layer colours from Okabe & Ito's colour-blind-safe palette (reddish purple,
// vermillion, black, bluish green).
pub const COLOR_SIMPLEX: Color = Color::srgb(0.80, 0.475, 0.655);
pub const COLOR_SUPPORT: Color = Color::srgb(0.835, 0.369, 0.0);
pub const COLOR_ITERATE: Color = Color::srgb(0.0, 0.0, 0.0);
pub const COLOR_WITNESS: Color = Color::srgb(0.0, 0.62, 0.45);

/// Text labels in the 3-D view for this frame (drawn by the UI over the viewport).
#[derive(Resource, Default)]
pub struct ViewLabels(pub Vec<(Vec3, String, Color)>);

/// Where the last frame's labels went, for the lesson's legibility check (`view
/// --check-labels`): the 3-D view's rectangle, each label drawn inside it (its text, the
/// point it names and the rectangle it took, in logical pixels), and the labels that fell
/// outside the view or behind the camera.
#[derive(Resource, Default, Debug)]
pub struct LabelLayout {
    pub view: Option<bevy_egui::egui::Rect>,
    pub placed: Vec<PlacedLabel>,
    pub outside: Vec<String>,
}

/// One label as drawn.
#[derive(Clone, Debug)]
pub struct PlacedLabel {
    pub text: String,
    /// The world point it names (two labels of one world point may share a place).
    pub world: Vec3,
    pub point: bevy_egui::egui::Pos2,
    pub rect: bevy_egui::egui::Rect,
}

/// The systems that draw the focused run's step, after the scene layers.
#[derive(SystemSet, Debug, Clone, PartialEq, Eq, Hash)]
pub struct DrawStep;

/// What a step drawing reads.
#[derive(SystemParam)]
pub struct StepView<'w> {
    pub model: Res<'w, Model>,
    pub cursor: Res<'w, PlaybackCursor>,
    pub layers: Res<'w, Layers>,
    pub frame: Res<'w, DifferenceFrame>,
    pub marker: Res<'w, MarkerScale>,
}

/// A run condition: the method in focus is of `family`.
pub fn family_in_focus(family: Family) -> impl Fn(Res<Model>) -> bool + Clone {
    move |model: Res<Model>| model.focused_family() == family
}

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<ViewLabels>()
        .init_resource::<LabelLayout>()
        .add_systems(Startup, thicker_lines)
        .add_systems(
            Update,
            start_labels
                .after(minkowski::DrawDifference)
                .before(DrawStep)
                .in_set(ViewerSet::Draw),
        )
        .add_plugins((
            shapes::plugin,
            minkowski::plugin,
            construction::plugin,
            common::plugin,
            composite::plugin,
            super::companion::draw_plugin,
        ));
}

/// Lines thick enough to read on a projector.
fn thicker_lines(mut store: ResMut<GizmoConfigStore>) {
    let (config, _) = store.config_mut::<DefaultGizmoConfigGroup>();
    config.line.width = 3.0;
}

/// This frame's labels start with the origin of `A ⊖ B`, when anything is drawn in
/// `A ⊖ B`'s space (a page of the shapes alone has no O to name).
fn start_labels(frame: Res<DifferenceFrame>, layers: Res<Layers>, mut labels: ResMut<ViewLabels>) {
    labels.0.clear();
    let in_difference = layers.difference
        || layers.simplex
        || layers.iterate
        || layers.support_direction
        || layers.region
        || layers.plane;
    if in_difference {
        labels.0.push((frame.anchor, "O".into(), Color::BLACK));
    }
}

/// A mesh of separate triangles (three positions each) for translucent overlays.
pub fn triangle_list(positions: Vec<[f32; 3]>) -> Mesh {
    let normals = vec![[0.0, 1.0, 0.0]; positions.len()];
    shapes::separate_triangles(positions, normals)
}
