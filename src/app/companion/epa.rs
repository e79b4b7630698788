//! EPA in focus: the polytope inside `A ⊖ B` at the cursor's expansion (translucent
//! faces, edges), its face nearest the origin highlighted with the normal, the support
//! along that normal, the horizon of the expansion, and at the end the penetration
//! vector between the witness points on the shapes.

use crate::app::draw::common::records_at_cursor;
use crate::printed_bound::Below;
use bevy::prelude::*;

use crate::app::camera::StepBounds;
use crate::app::draw::minkowski::DifferenceFrame;
use crate::app::draw::shapes::translucent;
use crate::app::draw::{
    family_in_focus, triangle_list, DrawStep, StepView, ViewLabels, COLOR_SUPPORT, COLOR_WITNESS,
};
use crate::app::state::{Layers, Model, PlaybackCursor, ViewerSet};
use crate::solver::epa::{self, EpaEvent, EpaRecord, EpaTrace};
use crate::solver::trace::Trace;
use crate::solver::Run;

const COLOR_POLYTOPE: Color = Color::srgb(0.45, 0.45, 0.1);
const COLOR_NEAREST: Color = Color::srgb(0.95, 0.55, 0.0);
const COLOR_HORIZON: Color = Color::srgb(0.8, 0.0, 0.3);

/// Which translucent mesh an entity shows.
#[derive(Component, Clone, Copy, PartialEq, Eq)]
enum EpaMesh {
    Polytope,
    NearestFace,
}

pub const COMPANION: super::Companion = super::Companion {
    family: epa::FAMILY,
    draw: plugin,
    plot: None,
    playback_section: None,
    methods_section: None,
    result_lines: None,
};

fn plugin(app: &mut App) {
    app.add_systems(Startup, spawn_meshes).add_systems(
        Update,
        (
            update_meshes,
            draw_expansion.run_if(family_in_focus(epa::FAMILY)),
        )
            .in_set(DrawStep)
            .in_set(ViewerSet::Draw),
    );
}

fn spawn_meshes(
    mut commands: Commands,
    mut materials: ResMut<Assets<StandardMaterial>>,
    mut meshes: ResMut<Assets<Mesh>>,
) {
    for (which, color, alpha) in [
        (EpaMesh::Polytope, COLOR_POLYTOPE, 0.15),
        (EpaMesh::NearestFace, COLOR_NEAREST, 0.8),
    ] {
        commands.spawn((
            which,
            Mesh3d(meshes.add(crate::app::draw::shapes::placeholder_mesh())),
            Visibility::Hidden,
            MeshMaterial3d(materials.add(translucent(color, alpha))),
            Transform::default(),
            Pickable::IGNORE,
        ));
    }
}

/// The focused EPA run with its records, when EPA is in focus.
fn epa_run(model: &Model) -> Option<(&Run, &EpaTrace)> {
    let run = &model.focused_run()?.run;
    Some((run, run.trace.get::<EpaTrace>()?))
}

/// The record at the cursor (clamped) and the trace it indexes.
fn record_at(model: &Model, cursor: usize) -> Option<(&EpaTrace, &EpaRecord)> {
    let (_, trace) = epa_run(model)?;
    let at = records_at_cursor(model, cursor, |t: &Trace| {
        t.get::<EpaTrace>().map(|t| t.records.as_slice())
    })?;
    Some((trace, at.record()))
}

fn update_meshes(
    model: Res<Model>,
    cursor: Res<PlaybackCursor>,
    layers: Res<Layers>,
    frame: Res<DifferenceFrame>,
    mut query: Query<(&EpaMesh, &mut Mesh3d, &mut Visibility)>,
    mut meshes: ResMut<Assets<Mesh>>,
    mut built: Local<Option<(u64, usize, bool, u32)>>,
) {
    let key = (
        model.revision,
        cursor.cursor,
        layers.simplex && model.focused_family() == epa::FAMILY,
        frame.anchor.x.to_bits(),
    );
    if *built == Some(key) {
        return;
    }
    *built = Some(key);
    let record = record_at(&model, cursor.cursor).filter(|_| key.2);
    for (which, mut mesh, mut visibility) in &mut query {
        let Some((trace, record)) = record else {
            *visibility = Visibility::Hidden;
            continue;
        };
        let faces: Vec<[usize; 3]> = match which {
            EpaMesh::Polytope => record.faces.clone(),
            EpaMesh::NearestFace => vec![record.nearest],
        };
        let positions: Vec<[f32; 3]> = faces
            .iter()
            .flat_map(|f| f.map(|v| frame.world_point(trace.points[v].w).to_array()))
            .collect();
        *visibility = Visibility::Inherited;
        mesh.0 = meshes.add(triangle_list(positions));
    }
}

fn draw_expansion(
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
    let origin = frame.anchor;
    let size = marker.0;
    let Some((run, trace)) = epa_run(&model) else {
        return;
    };
    let Some((_, record)) = record_at(&model, cursor.cursor) else {
        // No expansion (separated cores of rounded shapes, or a polytope certified at
        // once): the answer alone.
        if layers.witness {
            draw_penetration(&model, run, size, &mut gizmos, &mut labels);
        }
        return;
    };
    let world = |v: usize| frame.world_point(trace.points[v].w);
    if layers.simplex {
        // Among many faces the nearest one is what the step is about: the others'
        // edges fade, its own are drawn over them.
        let edges = if record.faces.len() > 12 {
            COLOR_POLYTOPE.with_alpha(0.25)
        } else {
            COLOR_POLYTOPE
        };
        for face in &record.faces {
            for i in 0..3 {
                let (p, q) = (face[i], face[(i + 1) % 3]);
                if p < q {
                    gizmos.line(world(p), world(q), edges);
                }
            }
        }
        for i in 0..3 {
            let (p, q) = (record.nearest[i], record.nearest[(i + 1) % 3]);
            gizmos.line(world(p), world(q), COLOR_NEAREST);
        }
        for (p, q) in &record.horizon {
            gizmos.line(world(*p), world(*q), COLOR_HORIZON);
        }
        if layers.labels {
            for v in record.nearest {
                labels.0.push((
                    world(v),
                    format!("w{}", crate::solver::narration::subscript(v + 1)),
                    COLOR_NEAREST,
                ));
            }
        }
    }
    // The nearest face's foot point and normal, and the support along it.
    let foot = frame.world_point(record.normal * record.nearest_distance);
    let reach = frame.world_point(record.normal * record.support_distance);
    let support = frame.world_point(record.support);
    // The depth vector in A ⊖ B: from the origin to the nearest face's foot point, a
    // lower bound of the depth at every step, the depth itself at the end.
    if (foot - origin).length() > size * 2.0 {
        gizmos.arrow(origin, foot, COLOR_NEAREST);
    } else {
        gizmos.line(origin, foot, COLOR_NEAREST);
    }
    gizmos.sphere(Isometry3d::from_translation(foot), size, COLOR_NEAREST);
    if layers.labels {
        let done = matches!(record.event, EpaEvent::Converged | EpaEvent::Accepted);
        let what = if done && record.nearest_distance == 0.0 {
            "depth proved 0".to_string()
        } else if done {
            format!("depth {:.6}", Below(record.nearest_distance))
        } else if record.nearest_distance > 0.0 {
            format!("depth ≥ {:.4e}", Below(record.nearest_distance))
        } else {
            // A face through the origin bounds nothing yet: say so rather than "≥ 0".
            "depth not yet bounded (a face through O)".to_string()
        };
        labels.0.push(((origin + foot) * 0.5, what, COLOR_NEAREST));
    }
    if layers.support_direction {
        let along = frame.world_direction(record.normal).normalize_or_zero();
        let length = (frame.radius.max(0.2) * 0.5).min(size * 30.0);
        gizmos.arrow(foot, foot + along * length, COLOR_SUPPORT);
        gizmos.sphere(
            Isometry3d::from_translation(support),
            size * 1.3,
            COLOR_SUPPORT,
        );
        gizmos.line(reach, support, COLOR_SUPPORT.with_alpha(0.5));
        labels.0.push((support, "s".into(), COLOR_SUPPORT));
    }
    let points = [origin, foot, support]
        .into_iter()
        .chain(record.nearest.map(world));
    *step_bounds = StepBounds::around(points, frame.radius * 0.05);
    // At the end: the penetration vector between the witness points on the shapes.
    if layers.witness && matches!(record.event, EpaEvent::Converged | EpaEvent::Accepted) {
        draw_penetration(&model, run, size, &mut gizmos, &mut labels);
    }
}

/// The witness points on A and B and the push that separates them (depth along n).
fn draw_penetration(
    model: &Model,
    run: &Run,
    size: f32,
    gizmos: &mut Gizmos,
    labels: &mut ViewLabels,
) {
    let s = &run.summary;
    let (Some(a), Some(b), Some(normal)) = (s.witness_a, s.witness_b, s.outcome.normal()) else {
        return;
    };
    let pose_a = model.pair_scene().a().pose;
    let (a, b) = (
        pose_a.transform_point(a).as_vec3(),
        pose_a.transform_point(b).as_vec3(),
    );
    gizmos.sphere(Isometry3d::from_translation(a), size * 1.5, COLOR_WITNESS);
    gizmos.sphere(Isometry3d::from_translation(b), size * 1.5, COLOR_WITNESS);
    gizmos.line(b, a, COLOR_WITNESS);
    let direction = (pose_a.rotation * normal).as_vec3();
    // `0.0 - d`, not `-d`: a touching answer's depth reads 0, never −0.
    if let Some(depth) = s.outcome.signed_distance().map(|d| 0.0 - d) {
        let tip = a + direction * (depth as f32).max(size * 4.0);
        let what = if depth == 0.0 {
            "touching: depth proved 0".to_string()
        } else {
            format!("depth {:.6}: move B by depth · n", Below(depth))
        };
        labels.0.push(((a + b) * 0.5, what, COLOR_WITNESS));
        gizmos.arrow(a, tip, COLOR_NEAREST);
        labels.0.push((tip, "n".into(), COLOR_NEAREST));
    }
}
