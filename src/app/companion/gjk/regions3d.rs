//! In space, the Voronoi region that holds the origin for the GJK step under the
//! cursor, drawn as a translucent solid in `A − B`'s place (the core's picture,
//! `crate::sketch::region_sketch`: the prism over the nearest face, the slab along the
//! nearest edge, the cone of the nearest vertex, or the tetrahedron itself when it holds
//! the origin). What lies outside it is what the step dropped. Its own unlit mesh.

use bevy::prelude::*;

use crate::app::draw::sketch::colour;
use crate::app::draw::{DrawStep, StepView};
use crate::app::state::ViewerSet;
use crate::scene::Dimension;
use crate::sketch::{region_sketch, ORIGIN_REGION_TINT_3D};
use crate::solver::GjkRecord;

#[derive(Component)]
struct OriginRegion;

pub(super) fn plugin(app: &mut App) {
    app.add_systems(Startup, spawn_region).add_systems(
        Update,
        update_region.in_set(DrawStep).in_set(ViewerSet::Draw),
    );
}

fn spawn_region(
    mut commands: Commands,
    mut materials: ResMut<Assets<StandardMaterial>>,
    mut meshes: ResMut<Assets<Mesh>>,
) {
    let tint = ORIGIN_REGION_TINT_3D;
    let mut material = crate::app::draw::shapes::translucent(colour(tint), tint.0[3]);
    material.unlit = true;
    material.cull_mode = None;
    commands.spawn((
        OriginRegion,
        Mesh3d(meshes.add(crate::app::draw::shapes::placeholder_mesh())),
        Visibility::Hidden,
        MeshMaterial3d(materials.add(material)),
        Transform::default(),
        Pickable::IGNORE,
    ));
}

fn update_region(
    view: StepView,
    mut query: Query<(&mut Mesh3d, &mut Visibility), With<OriginRegion>>,
    mut meshes: ResMut<Assets<Mesh>>,
    mut built: Local<Option<(u64, usize, bool)>>,
) {
    let key = (view.model.revision, view.cursor.cursor, view.layers.region);
    if *built == Some(key) {
        return;
    }
    *built = Some(key);
    let Ok((mut mesh, mut visibility)) = query.single_mut() else {
        return;
    };
    let model = &view.model;
    let records = (model.focused_run())
        .and_then(|r| r.run.trace.steps::<GjkRecord>())
        .filter(|_| view.layers.region && model.scene.dimension == Dimension::Spatial);
    let positions: Vec<[f32; 3]> = records
        .map(|records| {
            let context = crate::app::draw::sketch::context(&view);
            region_sketch(records, view.cursor.cursor, &context).faces
        })
        .into_iter()
        .flatten()
        .flat_map(|f| f.triangles)
        .flat_map(|t| t.map(|p| p.as_vec3().to_array()))
        .collect();
    if positions.is_empty() {
        *visibility = Visibility::Hidden;
        return;
    }
    mesh.0 = meshes.add(crate::app::draw::triangle_list(positions));
    *visibility = Visibility::Inherited;
}
