//! Shapes A and B as semi-transparent meshes with their edges, rebuilt when a shape
//! changes and moved when a pose changes.

use bevy::asset::RenderAssetUsages;
use bevy::mesh::{Indices, PrimitiveTopology};
use bevy::prelude::*;

use crate::app::camera::SceneBounds;
use crate::app::drag::ShapeBody;
use crate::app::model::Side;
use crate::app::state::{Layers, Model, ViewerSet};
use crate::pose::Pose;
use crate::tessellate::{body_mesh, TriMesh};

// Okabe–Ito blue and orange: told apart with any colour vision.
pub const COLOR_A: Color = super::bevy_colour(crate::sketch::COLOUR_A);
pub const COLOR_B: Color = super::bevy_colour(crate::sketch::COLOUR_B);

/// The drawable edges of a shape in its local frame, and its local bounding-box corners.
#[derive(Component, Default)]
pub struct Outline {
    pub edges: Vec<[Vec3; 2]>,
    pub corners: Vec<Vec3>,
}

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<BodyTints>()
        .init_resource::<OtherBodiesShown>()
        .add_systems(Startup, spawn_shapes)
        .add_systems(
            Update,
            (
                rebuild_shape_meshes,
                sync_other_bodies,
                place_other_bodies,
                place_shapes,
                draw_shape_edges,
            )
                .chain()
                .in_set(ViewerSet::Draw),
        );
}

/// A body of a version-2 scene outside the pair in focus, by its index among the
/// scene's bodies (drawn grey or in its [`BodyTints`] colour, not draggable; a click
/// on it focuses one of its pairs, `robot.rs`).
#[derive(Component)]
pub struct OtherBody(pub usize);

pub const COLOR_OTHER: Color = super::bevy_colour(crate::sketch::COLOUR_OTHER);

/// Whether the scene's other bodies are drawn (robot mode hides the links' collision
/// hulls while it shows their visual meshes).
#[derive(Resource, Clone, Copy, Debug, PartialEq)]
pub struct OtherBodiesShown(pub bool);

impl Default for OtherBodiesShown {
    fn default() -> Self {
        Self(true)
    }
}

/// Colours for the scene's other bodies by index (robot mode: colliding links red,
/// near ones amber); `None`, or an index past the end, is [`COLOR_OTHER`].
#[derive(Resource, Default, Clone, Debug, PartialEq)]
pub struct BodyTints(pub Vec<Option<Color>>);

impl BodyTints {
    fn of(&self, body: usize) -> Color {
        self.0.get(body).copied().flatten().unwrap_or(COLOR_OTHER)
    }
}

/// Respawns the scene's other bodies whenever the shapes change (a new scene, a new
/// pair in focus, an edited shape).
#[allow(clippy::too_many_arguments)]
fn sync_other_bodies(
    mut commands: Commands,
    model: Res<Model>,
    layers: Res<Layers>,
    tints: Res<BodyTints>,
    shown: Res<OtherBodiesShown>,
    mut built: Local<Option<u64>>,
    existing: Query<Entity, With<OtherBody>>,
    mut materials: ResMut<Assets<StandardMaterial>>,
    mut meshes: ResMut<Assets<Mesh>>,
) {
    let key =
        model.shape_revision.wrapping_mul(4) + u64::from(layers.shapes) + 2 * u64::from(shown.0);
    if *built == Some(key) {
        return;
    }
    *built = Some(key);
    for entity in &existing {
        commands.entity(entity).despawn();
    }
    if !layers.shapes || !shown.0 {
        return;
    }
    let scene = &model.scene;
    let (a, b) = scene.pairs[0];
    for (i, body) in scene.bodies.iter().enumerate() {
        if i == a || i == b {
            continue;
        }
        let tri = body_mesh(body);
        if tri.triangles.is_empty() {
            continue;
        }
        commands.spawn((
            OtherBody(i),
            Mesh3d(meshes.add(bevy_mesh(&tri))),
            MeshMaterial3d(materials.add(translucent(tints.of(i), 0.35))),
            bevy_transform(&body.pose),
        ));
    }
}

/// The other bodies follow their poses (a robot's links move with its joints) and their
/// tints (a link that starts colliding turns red).
fn place_other_bodies(
    model: Res<Model>,
    tints: Res<BodyTints>,
    mut bodies: Query<(
        &OtherBody,
        &mut Transform,
        &MeshMaterial3d<StandardMaterial>,
    )>,
    mut materials: ResMut<Assets<StandardMaterial>>,
) {
    for (body, mut transform, material) in &mut bodies {
        if let Some(b) = model.scene.bodies.get(body.0) {
            let placed = bevy_transform(&b.pose);
            if *transform != placed {
                *transform = placed;
            }
        }
        if tints.is_changed() {
            if let Some(mut m) = materials.get_mut(&material.0) {
                m.base_color = tints.of(body.0).with_alpha(0.35);
            }
        }
    }
}

/// A flat-shaded Bevy mesh of a triangle mesh (one normal per face).
pub fn bevy_mesh(tri: &TriMesh) -> Mesh {
    let mut positions = Vec::with_capacity(tri.triangles.len() * 3);
    let mut normals = Vec::with_capacity(tri.triangles.len() * 3);
    for t in &tri.triangles {
        let p = t.map(|i| tri.vertices[i as usize].as_vec3());
        let n = (p[1] - p[0]).cross(p[2] - p[0]).normalize_or_zero();
        for q in p {
            positions.push(q.to_array());
            normals.push(n.to_array());
        }
    }
    separate_triangles(positions, normals)
}

/// A triangle-list mesh whose every three positions (with their normals) are a triangle.
pub fn separate_triangles(positions: Vec<[f32; 3]>, normals: Vec<[f32; 3]>) -> Mesh {
    let indices: Vec<u32> = (0..positions.len() as u32).collect();
    Mesh::new(
        PrimitiveTopology::TriangleList,
        RenderAssetUsages::default(),
    )
    .with_inserted_attribute(Mesh::ATTRIBUTE_POSITION, positions)
    .with_inserted_attribute(Mesh::ATTRIBUTE_NORMAL, normals)
    .with_inserted_indices(Indices::U32(indices))
}

/// The eight corners of the mesh's bounding box.
pub fn box_corners(tri: &TriMesh) -> Vec<Vec3> {
    let (min, max) = tri.vertices.iter().fold(
        (Vec3::splat(f32::INFINITY), Vec3::splat(f32::NEG_INFINITY)),
        |(lo, hi), v| (lo.min(v.as_vec3()), hi.max(v.as_vec3())),
    );
    if tri.vertices.is_empty() {
        return vec![];
    }
    (0..8)
        .map(|i| {
            Vec3::new(
                if i & 1 == 0 { min.x } else { max.x },
                if i & 2 == 0 { min.y } else { max.y },
                if i & 4 == 0 { min.z } else { max.z },
            )
        })
        .collect()
}

/// A tiny valid mesh for entities whose real mesh is built on the first frame.
pub fn placeholder_mesh() -> Mesh {
    Sphere::new(1e-4).mesh().ico(0).expect("an icosahedron")
}

pub fn edge_segments(tri: &TriMesh) -> Vec<[Vec3; 2]> {
    tri.edges
        .iter()
        .map(|e| {
            [
                tri.vertices[e[0] as usize].as_vec3(),
                tri.vertices[e[1] as usize].as_vec3(),
            ]
        })
        .collect()
}

/// A translucent, double-sided material.
pub fn translucent(color: Color, alpha: f32) -> StandardMaterial {
    StandardMaterial {
        base_color: color.with_alpha(alpha),
        alpha_mode: AlphaMode::Blend,
        double_sided: true,
        cull_mode: None,
        perceptual_roughness: 0.7,
        ..default()
    }
}

pub fn bevy_transform(pose: &Pose) -> Transform {
    Transform::from_translation(pose.translation.as_vec3()).with_rotation(pose.rotation.as_quat())
}

fn spawn_shapes(
    mut commands: Commands,
    mut materials: ResMut<Assets<StandardMaterial>>,
    mut meshes: ResMut<Assets<Mesh>>,
) {
    for (body, color) in [(Side::A, COLOR_A), (Side::B, COLOR_B)] {
        commands.spawn((
            ShapeBody(body),
            Mesh3d(meshes.add(placeholder_mesh())),
            MeshMaterial3d(materials.add(translucent(color, 0.45))),
            Transform::default(),
            Outline::default(),
        ));
    }
}

fn rebuild_shape_meshes(
    model: Res<Model>,
    mut built: Local<Option<u64>>,
    mut shapes: Query<(&ShapeBody, &mut Mesh3d, &mut Outline)>,
    mut meshes: ResMut<Assets<Mesh>>,
) {
    if *built == Some(model.shape_revision) {
        return;
    }
    *built = Some(model.shape_revision);
    for (body, mut mesh, mut outline) in &mut shapes {
        // A composite is drawn as what it is (its triangles, its parts), built once per
        // shape: a drag only moves the entity.
        let tri = body_mesh(model.body(model.side(body.0)));
        // A new asset rather than an edit in place: the renderer's buffers are sized per asset.
        if !tri.triangles.is_empty() {
            mesh.0 = meshes.add(bevy_mesh(&tri));
        }
        outline.edges = edge_segments(&tri);
        outline.corners = box_corners(&tri);
    }
}

pub(super) fn place_shapes(
    model: Res<Model>,
    layers: Res<Layers>,
    mut shapes: Query<(&ShapeBody, &mut Transform, &mut Visibility, &Outline)>,
    mut bounds: ResMut<SceneBounds>,
) {
    let (mut min, mut max) = (Vec3::splat(f32::INFINITY), Vec3::splat(f32::NEG_INFINITY));
    for (body, mut transform, mut visibility, outline) in &mut shapes {
        let t = bevy_transform(&model.body(model.side(body.0)).pose);
        *transform = t;
        *visibility = if layers.shapes {
            Visibility::Inherited
        } else {
            Visibility::Hidden
        };
        for p in &outline.corners {
            let w = t.transform_point(*p);
            min = min.min(w);
            max = max.max(w);
        }
        let origin = t.translation;
        min = min.min(origin);
        max = max.max(origin);
    }
    // The scene's other bodies count for "frame all" too (their bounding boxes' centres
    // and extents, placed).
    let (a, b) = model.scene.pairs[0];
    for (i, body) in model.scene.bodies.iter().enumerate() {
        if i == a || i == b {
            continue;
        }
        let aabb = body.shape.local_aabb();
        let centre = body
            .pose
            .transform_point((aabb.min + aabb.max) * 0.5)
            .as_vec3();
        let reach = ((aabb.max - aabb.min) * 0.5).length() as f32;
        min = min.min(centre - Vec3::splat(reach));
        max = max.max(centre + Vec3::splat(reach));
    }
    bounds.min = min;
    bounds.max = max;
}

fn draw_shape_edges(
    layers: Res<Layers>,
    shapes: Query<(&ShapeBody, &Transform, &Outline)>,
    mut gizmos: Gizmos,
) {
    if !layers.shapes {
        return;
    }
    for (body, t, outline) in &shapes {
        let color = match body.0 {
            Side::A => COLOR_A,
            Side::B => COLOR_B,
        };
        for [p, q] in &outline.edges {
            gizmos.line(
                t.transform_point(*p),
                t.transform_point(*q),
                color.darker(0.25),
            );
        }
    }
}
