//! The focused run at the cursor: the simplex (points, edges, translucent faces), the
//! support direction, the support point and its parts on A and B, the iterate `x_k`, the
//! Frank-Wolfe path, and at the end the witness points with the distance segment.

use bevy::ecs::system::SystemParam;
use bevy::prelude::*;

use super::camera::{MarkerScale, StepBounds};
use super::draw_minkowski::DifferenceFrame;
use super::draw_shapes::translucent;
use super::{Layers, Model, PlaybackCursor, ViewerSet};
use crate::solver::Algorithm;

pub const COLOR_SIMPLEX: Color = Color::srgb(0.55, 0.1, 0.6);
pub const COLOR_SUPPORT: Color = Color::srgb(0.85, 0.1, 0.1);
pub const COLOR_ITERATE: Color = Color::srgb(0.05, 0.05, 0.05);
pub const COLOR_WITNESS: Color = Color::srgb(0.0, 0.55, 0.25);

/// Text labels in the 3-D view for this frame (drawn by the UI over the viewport).
#[derive(Resource, Default)]
pub struct ViewLabels(pub Vec<(Vec3, String, Color)>);

#[derive(Component)]
struct SimplexFaces;

/// The systems that draw the focused solver's step (family drawings run after them).
#[derive(SystemSet, Debug, Clone, PartialEq, Eq, Hash)]
pub struct DrawStep;

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<ViewLabels>()
        .add_systems(Startup, (spawn_faces, thicker_lines))
        .add_systems(
            Update,
            (update_faces, draw_step)
                .after(super::draw_minkowski::DrawDifference)
                .in_set(DrawStep)
                .in_set(ViewerSet::Draw),
        );
}

/// Lines thick enough to read on a projector.
fn thicker_lines(mut store: ResMut<GizmoConfigStore>) {
    let (config, _) = store.config_mut::<DefaultGizmoConfigGroup>();
    config.line.width = 3.0;
}

fn spawn_faces(
    mut commands: Commands,
    mut materials: ResMut<Assets<StandardMaterial>>,
    mut meshes: ResMut<Assets<Mesh>>,
) {
    commands.spawn((
        SimplexFaces,
        Mesh3d(meshes.add(super::draw_shapes::placeholder_mesh())),
        Visibility::Hidden,
        MeshMaterial3d(materials.add(translucent(COLOR_SIMPLEX, 0.35))),
        Transform::default(),
        Pickable::IGNORE,
    ));
}

/// The translucent faces of the simplex at the cursor (every triple of its points).
fn update_faces(
    model: Res<Model>,
    cursor: Res<PlaybackCursor>,
    layers: Res<Layers>,
    frame: Res<DifferenceFrame>,
    mut query: Query<(&mut Mesh3d, &mut Visibility), With<SimplexFaces>>,
    mut meshes: ResMut<Assets<Mesh>>,
    mut built: Local<Option<(u64, usize, bool, u32)>>,
) {
    let key = (
        model.revision,
        cursor.cursor,
        layers.simplex,
        frame.anchor.x.to_bits(),
    );
    if *built == Some(key) {
        return;
    }
    *built = Some(key);
    let Ok((mut mesh, mut visibility)) = query.single_mut() else {
        return;
    };
    let mut positions: Vec<[f32; 3]> = Vec::new();
    if layers.simplex && !model.epa_focus {
        if let Some(record) = model.record_at(cursor.cursor) {
            let points: Vec<Vec3> = record
                .simplex
                .iter()
                .take(4)
                .map(|v| frame.world_point(v.point.w))
                .collect();
            if points.len() >= 3 {
                for i in 0..points.len() {
                    for j in i + 1..points.len() {
                        for k in j + 1..points.len() {
                            positions
                                .extend([points[i], points[j], points[k]].map(|p| p.to_array()));
                        }
                    }
                }
            }
        }
    }
    if positions.is_empty() {
        *visibility = Visibility::Hidden;
        return;
    }
    *visibility = Visibility::Inherited;
    mesh.0 = meshes.add(triangle_list(positions));
}

/// A mesh of separate triangles (three positions each) for translucent overlays.
pub fn triangle_list(positions: Vec<[f32; 3]>) -> Mesh {
    let normals = vec![[0.0, 1.0, 0.0]; positions.len()];
    super::draw_shapes::separate_triangles(positions, normals)
}

/// What a step drawing reads (this file's and each family's).
#[derive(SystemParam)]
pub struct StepView<'w> {
    pub model: Res<'w, Model>,
    pub cursor: Res<'w, PlaybackCursor>,
    pub layers: Res<'w, Layers>,
    pub frame: Res<'w, DifferenceFrame>,
    pub marker: Res<'w, MarkerScale>,
}

fn draw_step(
    view: StepView,
    mut labels: ResMut<ViewLabels>,
    mut step_bounds: ResMut<StepBounds>,
    mut gizmos: Gizmos,
) {
    let StepView {
        model,
        cursor,
        layers,
        frame,
        marker,
    } = view;
    labels.0.clear();
    if model.epa_focus {
        return; // EPA's own drawing (draw_epa) shows its expansion
    }
    let Some(run) = model.focused_run() else {
        return;
    };
    let trace = &run.run.trace;
    let Some(record) = model.record_at(cursor.cursor) else {
        return;
    };
    let index = cursor.cursor.min(trace.len().saturating_sub(1));
    let size = marker.0;
    let pose_a = model.scene.a().pose;
    let origin = frame.anchor;
    labels.0.push((origin, "O".into(), Color::BLACK));
    // What "frame step" closes in on: the origin, the simplex, x_k and s_k.
    let mut step_points: Vec<Vec3> = vec![origin, frame.world_point(record.x)];
    step_points.extend(
        record
            .simplex
            .iter()
            .take(4)
            .map(|v| frame.world_point(v.point.w)),
    );
    step_points.extend(record.support.map(|s| frame.world_point(s.point.w)));
    *step_bounds = StepBounds::around(step_points, frame.radius * 0.05);

    if layers.simplex {
        let points: Vec<(Vec3, u32)> = record
            .simplex
            .iter()
            .map(|v| (frame.world_point(v.point.w), v.id))
            .collect();
        for (i, (p, id)) in points.iter().enumerate() {
            gizmos.sphere(Isometry3d::from_translation(*p), size, COLOR_SIMPLEX);
            if layers.labels && (points.len() <= 8 || i < 8) {
                labels.0.push((*p, format!("w{id}"), COLOR_SIMPLEX));
            }
            for (q, _) in points.iter().skip(i + 1).take(3) {
                if points.len() <= 4 {
                    gizmos.line(*p, *q, COLOR_SIMPLEX);
                }
            }
        }
    }
    if let Some(s) = record.support {
        let s_world = frame.world_point(s.point.w);
        if layers.support_direction {
            // −d: the direction whose support was taken, drawn from the origin.
            let dir = -frame.world_direction(record.direction).normalize_or_zero();
            let length = (frame.radius.max(0.2) * 0.8).min(marker.0 * 30.0);
            gizmos.arrow(origin, origin + dir * length, COLOR_SUPPORT);
            labels.0.push((
                origin + dir * length,
                if record.momentum {
                    "−d".into()
                } else {
                    "−x".into()
                },
                COLOR_SUPPORT,
            ));
            gizmos.sphere(
                Isometry3d::from_translation(s_world),
                size * 1.3,
                COLOR_SUPPORT,
            );
            labels
                .0
                .push((s_world, format!("s = w{}", s.id), COLOR_SUPPORT));
        }
        if layers.support_parts {
            let a = pose_a.transform_point(s.point.a).as_vec3();
            let b = pose_a.transform_point(s.point.b).as_vec3();
            gizmos.sphere(
                Isometry3d::from_translation(a),
                size * 1.3,
                super::draw_shapes::COLOR_A.darker(0.3),
            );
            gizmos.sphere(
                Isometry3d::from_translation(b),
                size * 1.3,
                super::draw_shapes::COLOR_B.darker(0.3),
            );
            gizmos.line(a, b, COLOR_SUPPORT.with_alpha(0.6));
            labels
                .0
                .push((a, "a".into(), super::draw_shapes::COLOR_A.darker(0.3)));
            labels
                .0
                .push((b, "b".into(), super::draw_shapes::COLOR_B.darker(0.3)));
        }
    }
    if layers.iterate {
        let x = frame.world_point(record.x);
        gizmos.line(origin, x, COLOR_ITERATE);
        gizmos.sphere(Isometry3d::from_translation(x), size * 1.1, COLOR_ITERATE);
        labels.0.push((x, format!("x{}", record.k), COLOR_ITERATE));
    }
    if layers.frank_wolfe_path && matches!(run.run.algorithm, Algorithm::FrankWolfe(_)) {
        let path: Vec<Vec3> = trace[..=index]
            .iter()
            .map(|r| frame.world_point(r.x))
            .collect();
        gizmos.linestrip(path, COLOR_ITERATE.with_alpha(0.7));
    }
    let at_end = index + 1 == trace.len();
    if layers.witness && at_end {
        if let (Some(a), Some(b)) = (run.run.summary.witness_a, run.run.summary.witness_b) {
            let (a, b) = (
                pose_a.transform_point(a).as_vec3(),
                pose_a.transform_point(b).as_vec3(),
            );
            gizmos.line(a, b, COLOR_WITNESS);
            gizmos.sphere(Isometry3d::from_translation(a), size * 1.5, COLOR_WITNESS);
            gizmos.sphere(Isometry3d::from_translation(b), size * 1.5, COLOR_WITNESS);
            if let Some(d) = run.run.summary.outcome.distance() {
                labels
                    .0
                    .push(((a + b) * 0.5, format!("d = {d:.6}"), COLOR_WITNESS));
            }
        }
    }
}
