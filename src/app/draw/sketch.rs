//! Draws a step's [`Sketch`] (built in the core, `crate::sketch`, and shared with the
//! web page) with Bevy's gizmos: its marks as lines and wire spheres, its labels into
//! the frame's [`ViewLabels`], its translucent faces into [`StepFaces`] (a mesh per set
//! of faces, rebuilt when they change) and its framings into [`StepBounds`].

use bevy::ecs::system::SystemParam;
use bevy::prelude::*;

use super::{triangle_list, StepView, ViewLabels};
use crate::app::camera::StepBounds;
use crate::app::state::ViewerSet;
use crate::sketch::{Framing, Mark, Rgba, Sketch, SketchContext};

/// The translucent faces of this frame's step pictures (cleared with the labels).
#[derive(Resource, Default)]
pub struct StepFaces(pub Vec<crate::sketch::Faces>);

/// One of the meshes the step's faces are drawn with: the `i`-th set of faces of the
/// frame, in its own colour (EPA's polytope and its nearest face are two).
#[derive(Component)]
struct StepFacesMesh(usize);

/// How many sets of faces a step picture may hold.
const FACE_MESHES: usize = 4;

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<StepFaces>()
        .add_systems(Startup, spawn_faces)
        .add_systems(
            Update,
            update_faces.after(super::DrawStep).in_set(ViewerSet::Draw),
        );
}

pub fn colour(c: Rgba) -> Color {
    let [r, g, b, a] = c.0;
    Color::srgba(r, g, b, a)
}

/// What the core's step pictures are drawn in, from the viewer's state.
pub fn context(view: &StepView) -> SketchContext {
    let frame = &view.frame;
    SketchContext {
        layers: view.layers.sketch(),
        space: crate::sketch::DifferenceSpace {
            anchor: frame.anchor.as_dvec3(),
            rotation: frame.rotation.as_dquat(),
            radius: f64::from(frame.radius),
        },
        pose_a: view.model.pair_scene().a().pose,
        pose_b: view.model.pair_scene().b().pose,
        marker: f64::from(view.marker.0),
        planar: view.model.scene.dimension == crate::scene::Dimension::Planar,
    }
}

fn bounds(framing: &Framing) -> StepBounds {
    let (centre, radius) = framing.sphere();
    StepBounds {
        centre: centre.as_vec3(),
        radius: radius as f32,
        newest: None,
    }
}

/// What a companion draws a step's picture into.
#[derive(SystemParam)]
pub struct SketchTarget<'w, 's> {
    labels: ResMut<'w, ViewLabels>,
    faces: ResMut<'w, StepFaces>,
    step_bounds: ResMut<'w, StepBounds>,
    gizmos: Gizmos<'w, 's>,
}

impl SketchTarget<'_, '_> {
    /// Draws `sketch` at the viewer's marker size.
    pub fn draw(&mut self, sketch: &Sketch, marker: f32) {
        draw_sketch(
            sketch,
            marker,
            &mut self.labels,
            &mut self.faces,
            &mut self.step_bounds,
            &mut self.gizmos,
        );
    }
}

/// Draws `sketch` and takes its framings for "frame step" and "frame newest".
pub fn draw_sketch(
    sketch: &Sketch,
    marker: f32,
    labels: &mut ViewLabels,
    faces: &mut StepFaces,
    step_bounds: &mut StepBounds,
    gizmos: &mut Gizmos,
) {
    for mark in &sketch.marks {
        match mark {
            Mark::Line {
                from,
                to,
                colour: c,
            } => {
                gizmos.line(from.as_vec3(), to.as_vec3(), colour(*c));
            }
            Mark::Strip { points, colour: c } => {
                gizmos.linestrip(points.iter().map(|p| p.as_vec3()), colour(*c));
            }
            Mark::Marker {
                at,
                size,
                colour: c,
            } => {
                gizmos.sphere(
                    Isometry3d::from_translation(at.as_vec3()),
                    marker * *size as f32,
                    colour(*c),
                );
            }
            Mark::Arrow {
                from,
                to,
                colour: c,
            } => {
                gizmos.arrow(from.as_vec3(), to.as_vec3(), colour(*c));
            }
        }
    }
    for label in &sketch.labels {
        labels
            .0
            .push((label.at.as_vec3(), label.text.clone(), colour(label.colour)));
    }
    faces.0.extend(sketch.faces.iter().cloned());
    // A picture with nothing to frame (an answer without steps) leaves the last one.
    if !sketch.step.points.is_empty() {
        *step_bounds = bounds(&sketch.step);
        step_bounds.newest = sketch.newest.as_ref().map(|n| {
            let b = bounds(n);
            (b.centre, b.radius)
        });
    }
}

fn spawn_faces(
    mut commands: Commands,
    mut materials: ResMut<Assets<StandardMaterial>>,
    mut meshes: ResMut<Assets<Mesh>>,
) {
    for i in 0..FACE_MESHES {
        commands.spawn((
            StepFacesMesh(i),
            Mesh3d(meshes.add(super::shapes::placeholder_mesh())),
            Visibility::Hidden,
            MeshMaterial3d(materials.add(super::shapes::translucent(super::COLOR_SIMPLEX, 0.35))),
            Transform::default(),
            Pickable::IGNORE,
        ));
    }
}

/// The step's translucent faces, one mesh per set in the set's colour, rebuilt when
/// they change.
fn update_faces(
    faces: Res<StepFaces>,
    mut query: Query<(
        &StepFacesMesh,
        &mut Mesh3d,
        &MeshMaterial3d<StandardMaterial>,
        &mut Visibility,
    )>,
    mut meshes: ResMut<Assets<Mesh>>,
    mut materials: ResMut<Assets<StandardMaterial>>,
    mut built: Local<Vec<crate::sketch::Faces>>,
) {
    if *built == faces.0 {
        return;
    }
    *built = faces.0.clone();
    for (which, mut mesh, material, mut visibility) in &mut query {
        let Some(set) = faces.0.get(which.0).filter(|f| !f.triangles.is_empty()) else {
            *visibility = Visibility::Hidden;
            continue;
        };
        let positions: Vec<[f32; 3]> = set
            .triangles
            .iter()
            .flat_map(|t| t.map(|p| p.as_vec3().to_array()))
            .collect();
        if let Some(mut m) = materials.get_mut(&material.0) {
            m.base_color = colour(set.colour);
        }
        *visibility = Visibility::Inherited;
        mesh.0 = meshes.add(triangle_list(positions));
    }
}
