//! Planar mode's own drawing for GJK: the Voronoi regions of the simplex the step
//! projected, shaded by kind with the region holding the origin stronger, and the
//! support line, from the core's picture (`crate::sketch::region_sketch`, which web
//! pages draw too). Here each shading has its own unlit mesh.

use bevy::prelude::*;

use crate::app::draw::sketch::colour;
use crate::app::draw::{DrawStep, StepView};
use crate::app::state::ViewerSet;
use crate::scene::Dimension;
use crate::sketch::{region_sketch, Mark, Rgba, ORIGIN_REGION_TINT, REGION_TINTS};
use crate::solver::GjkRecord;

/// The overlay meshes, one per shading (the core's tints, in order: vertex, edge and
/// interior regions, then the origin's).
#[derive(Component, Clone, Copy, PartialEq)]
struct Shading(Rgba);

pub(super) fn plugin(app: &mut App) {
    app.add_systems(Startup, spawn_overlays).add_systems(
        Update,
        update_regions.in_set(DrawStep).in_set(ViewerSet::Draw),
    );
}

fn spawn_overlays(
    mut commands: Commands,
    mut materials: ResMut<Assets<StandardMaterial>>,
    mut meshes: ResMut<Assets<Mesh>>,
) {
    for tint in REGION_TINTS.into_iter().chain([ORIGIN_REGION_TINT]) {
        let mut material = crate::app::draw::shapes::translucent(colour(tint), tint.0[3]);
        material.unlit = true;
        commands.spawn((
            Shading(tint),
            Mesh3d(meshes.add(crate::app::draw::shapes::placeholder_mesh())),
            Visibility::Hidden,
            MeshMaterial3d(materials.add(material)),
            Transform::default(),
            Pickable::IGNORE,
        ));
    }
}

/// GJK in focus in a planar scene: the step's region picture, or none.
fn planar_regions(view: &StepView) -> Option<crate::sketch::Sketch> {
    let model = &view.model;
    if model.scene.dimension != Dimension::Planar {
        return None;
    }
    let records = model.focused_run()?.run.trace.steps::<GjkRecord>()?;
    let context = crate::app::draw::sketch::context(view);
    Some(region_sketch(records, view.cursor.cursor, &context))
}

fn update_regions(
    view: StepView,
    mut query: Query<(&Shading, &mut Mesh3d, &mut Visibility)>,
    mut meshes: ResMut<Assets<Mesh>>,
    mut built: Local<Option<(u64, usize, bool)>>,
    mut gizmos: Gizmos,
) {
    let picture = planar_regions(&view);
    // The support line, every frame (gizmos last one frame).
    for mark in picture.iter().flat_map(|p| &p.marks) {
        if let Mark::Line {
            from,
            to,
            colour: c,
        } = mark
        {
            gizmos.line(from.as_vec3(), to.as_vec3(), colour(*c));
        }
    }
    let key = (view.model.revision, view.cursor.cursor, view.layers.region);
    if *built == Some(key) {
        return;
    }
    *built = Some(key);
    for (shading, mut mesh, mut visibility) in &mut query {
        let positions: Vec<[f32; 3]> = (picture.iter())
            .flat_map(|p| &p.faces)
            .filter(|f| f.colour == shading.0)
            .flat_map(|f| &f.triangles)
            .flat_map(|t| t.map(|p| p.as_vec3().to_array()))
            .collect();
        if positions.is_empty() {
            *visibility = Visibility::Hidden;
        } else {
            mesh.0 = meshes.add(crate::app::draw::triangle_list(positions));
            *visibility = Visibility::Inherited;
        }
    }
}
