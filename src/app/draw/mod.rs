//! The 3-D view's drawings. Scene layers every method shares (the shapes, `A ⊖ B`) run
//! always; the step under the cursor is drawn by its family's companion
//! (`app/companion/`), each registered with a run condition on the family in focus (one
//! drawing per record type) through the companions' list. Families whose step pictures
//! the core builds (`crate::sketch`, shared with the web page) are drawn by `sketch`;
//! `common` finds the focused run's records at the cursor, and this file holds what
//! every step drawing reads ([`StepView`]) and the layer colours.

pub mod common;
pub mod composite;
pub mod construction;
pub mod minkowski;
pub mod shapes;
pub mod sketch;

use bevy::ecs::system::SystemParam;
use bevy::prelude::*;

use super::camera::MarkerScale;
use super::state::{Layers, Model, PlaybackCursor, ViewerSet};
use crate::solver::catalog::Family;
use minkowski::DifferenceFrame;

// Layer colours: the core's palette (`crate::sketch::palette`), as Bevy colours.
pub const COLOR_SIMPLEX: Color = bevy_colour(crate::sketch::COLOUR_SIMPLEX);

pub const fn bevy_colour(c: crate::sketch::Rgba) -> Color {
    let [r, g, b, a] = c.0;
    Color::srgba(r, g, b, a)
}

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
            sketch::plugin,
            composite::plugin,
            super::companion::draw_plugin,
        ));
}

/// Lines thick enough to read on a projector.
fn thicker_lines(mut store: ResMut<GizmoConfigStore>) {
    let (config, _) = store.config_mut::<DefaultGizmoConfigGroup>();
    config.line.width = 3.0;
}

/// This frame's step faces start empty, and its labels start with the origin of `A ⊖ B`, when anything is drawn in
/// `A ⊖ B`'s space (a page of the shapes alone has no O to name).
fn start_labels(
    frame: Res<DifferenceFrame>,
    layers: Res<Layers>,
    mut labels: ResMut<ViewLabels>,
    mut faces: ResMut<sketch::StepFaces>,
) {
    labels.0.clear();
    faces.0.clear();
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
