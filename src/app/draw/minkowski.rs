//! `A ⊖ B`: the exact hull of vertex differences for small polytope pairs, otherwise a
//! support-sampled mesh (said in the UI), drawn in place or beside the shapes, with its
//! origin marked. Rebuilt on every pose change.

use bevy::prelude::*;

use super::shapes::{bevy_mesh, box_corners, edge_segments, placeholder_mesh, translucent};
use crate::app::camera::{MarkerScale, SceneBounds};
use crate::app::state::{DifferencePlacement, Layers, Model, ViewerSet};
use crate::tessellate::difference_mesh;

pub const COLOR_DIFFERENCE: Color = super::bevy_colour(crate::sketch::COLOUR_DIFFERENCE);

/// How points of `A ⊖ B` (in A's frame) map to the world: rotate by A's rotation, then
/// move to `anchor`, where the origin of the difference space is drawn.
#[derive(Resource, Clone, Copy, Debug, Default)]
pub struct DifferenceFrame {
    pub anchor: Vec3,
    pub rotation: Quat,
    /// Whether the drawn mesh is support-sampled rather than exact.
    pub sampled: bool,
    pub vertex_count: usize,
    /// Size of the drawing, for marker sizes.
    pub radius: f32,
    /// It is the difference of the shapes' cores (a distance run under Coal's
    /// conventions), not of the shapes.
    pub cores: bool,
    /// The world sphere around the drawing's bounding box and the origin.
    pub sphere: (Vec3, f32),
}

impl DifferenceFrame {
    pub fn world_point(&self, w: glam::DVec3) -> Vec3 {
        self.anchor + self.rotation * w.as_vec3()
    }
}

/// The systems that place `A ⊖ B` (others draw relative to it).
#[derive(SystemSet, Debug, Clone, PartialEq, Eq, Hash)]
pub struct DrawDifference;

#[derive(Component)]
struct DifferenceMesh {
    edges: Vec<[Vec3; 2]>,
    corners: Vec<Vec3>,
}

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<DifferenceFrame>()
        .add_systems(Startup, spawn_difference)
        .add_systems(
            Update,
            (rebuild_difference, draw_difference_edges)
                .chain()
                .after(super::shapes::place_shapes)
                .in_set(DrawDifference)
                .in_set(ViewerSet::Draw),
        );
}

fn spawn_difference(
    mut commands: Commands,
    mut materials: ResMut<Assets<StandardMaterial>>,
    mut meshes: ResMut<Assets<Mesh>>,
) {
    commands.spawn((
        DifferenceMesh {
            edges: vec![],
            corners: vec![],
        },
        Mesh3d(meshes.add(placeholder_mesh())),
        MeshMaterial3d(materials.add(translucent(COLOR_DIFFERENCE, 0.28))),
        Transform::default(),
        Pickable::IGNORE,
    ));
}

#[allow(clippy::too_many_arguments)]
fn rebuild_difference(
    model: Res<Model>,
    layers: Res<Layers>,
    mut built: Local<Option<(u64, DifferencePlacement, bool)>>,
    mut query: Query<(
        &mut Mesh3d,
        &mut Transform,
        &mut Visibility,
        &mut DifferenceMesh,
    )>,
    mut meshes: ResMut<Assets<Mesh>>,
    mut frame: ResMut<DifferenceFrame>,
    mut bounds: ResMut<SceneBounds>,
) {
    let Ok((mut mesh, mut transform, mut visibility, mut drawn)) = query.single_mut() else {
        return;
    };
    *visibility = if layers.difference {
        Visibility::Inherited
    } else {
        Visibility::Hidden
    };
    // A distance run under Coal's conventions works on the cores' difference: draw that.
    let on_cores = model.pair_scene().settings.supports == crate::solver::SupportRule::Coal
        && model
            .focused_run()
            .is_some_and(|r| r.run.method.entry::<crate::solver::Algorithm>().is_some());
    let key = (model.revision, layers.placement, on_cores);
    if *built != Some(key) {
        *built = Some(key);
        let scene = model.pair_scene();
        let (a, b) = (&scene.a().shape, &scene.b().shape);
        let tri = if on_cores {
            difference_mesh(&a.rounded_core().0, &b.rounded_core().0, &scene.b_in_a())
        } else {
            difference_mesh(a, b, &scene.b_in_a())
        };
        if !tri.triangles.is_empty() {
            mesh.0 = meshes.add(bevy_mesh(&tri));
        }
        drawn.edges = edge_segments(&tri);
        drawn.corners = box_corners(&tri);
        let rotation = scene.a().pose.rotation.as_quat();
        let radius = drawn
            .corners
            .iter()
            .map(|c| c.length())
            .fold(0.0f32, f32::max);
        let anchor = match layers.placement {
            DifferencePlacement::InPlace => Vec3::ZERO,
            DifferencePlacement::SideView => {
                // Beside the shapes along −x, far enough that the two never overlap.
                let (centre, shapes_radius) = bounds.sphere();
                centre
                    - Vec3::X * (shapes_radius + radius + 0.3 * (shapes_radius + radius).max(0.1))
            }
        };
        *frame = DifferenceFrame {
            anchor,
            rotation,
            sampled: tri.sampled,
            vertex_count: tri.vertices.len(),
            radius,
            cores: on_cores,
            sphere: world_sphere(&drawn.corners, anchor, rotation),
        };
        *transform = Transform::from_translation(anchor).with_rotation(rotation);
    }
    if layers.difference {
        for c in &drawn.corners {
            let w = transform.transform_point(*c);
            bounds.min = bounds.min.min(w);
            bounds.max = bounds.max.max(w);
        }
        bounds.min = bounds.min.min(frame.anchor);
        bounds.max = bounds.max.max(frame.anchor);
    }
}

/// The sphere around the box `corners` (in the difference's frame) and the origin,
/// placed at `anchor` turned by `rotation`.
fn world_sphere(corners: &[Vec3], anchor: Vec3, rotation: Quat) -> (Vec3, f32) {
    let points = corners.iter().map(|c| anchor + rotation * *c);
    let bounds = crate::app::camera::StepBounds::around(points.chain([anchor]), 1.0e-6);
    (bounds.centre, bounds.radius)
}

fn draw_difference_edges(
    layers: Res<Layers>,
    frame: Res<DifferenceFrame>,
    marker: Res<MarkerScale>,
    query: Query<(&Transform, &DifferenceMesh)>,
    mut gizmos: Gizmos,
) {
    if !layers.difference {
        return;
    }
    let color = COLOR_DIFFERENCE.darker(0.3);
    for (t, drawn) in &query {
        for [p, q] in &drawn.edges {
            gizmos.line(t.transform_point(*p), t.transform_point(*q), color);
        }
    }
    // The origin of the difference space: the point GJK measures the distance to.
    let size = (marker.0 * 6.0).min(frame.radius.max(0.05) * 0.3);
    let o = frame.anchor;
    gizmos.line(
        o - Vec3::X * size,
        o + Vec3::X * size,
        Color::srgb(0.8, 0.1, 0.1),
    );
    gizmos.line(
        o - Vec3::Y * size,
        o + Vec3::Y * size,
        Color::srgb(0.1, 0.6, 0.1),
    );
    gizmos.line(
        o - Vec3::Z * size,
        o + Vec3::Z * size,
        Color::srgb(0.1, 0.2, 0.8),
    );
    gizmos.sphere(Isometry3d::from_translation(o), size * 0.25, Color::BLACK);
}
