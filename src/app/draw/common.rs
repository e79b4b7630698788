//! What the distance families (GJK and Frank-Wolfe) draw alike at the cursor: the
//! simplex or active set (points, edges, translucent faces), the support direction, the
//! support point and its parts on A and B, the iterate `x_k`, and at the end the witness
//! points with the distance segment.

use crate::printed_bound::Within;
use bevy::prelude::*;

use super::shapes::{translucent, COLOR_A, COLOR_B};
use super::{
    triangle_list, StepView, ViewLabels, COLOR_ITERATE, COLOR_SIMPLEX, COLOR_SUPPORT, COLOR_WITNESS,
};
use crate::app::camera::StepBounds;
use crate::app::model::ViewerModel;
use crate::app::state::ViewerSet;
use crate::solver::distance::DistanceStep;
use crate::solver::trace::Trace;
use crate::solver::{Run, RunSummary};

#[derive(Component)]
struct SimplexFaces;

pub(super) fn plugin(app: &mut App) {
    app.add_systems(Startup, spawn_faces).add_systems(
        Update,
        update_faces.in_set(super::DrawStep).in_set(ViewerSet::Draw),
    );
}

fn spawn_faces(
    mut commands: Commands,
    mut materials: ResMut<Assets<StandardMaterial>>,
    mut meshes: ResMut<Assets<Mesh>>,
) {
    commands.spawn((
        SimplexFaces,
        Mesh3d(meshes.add(super::shapes::placeholder_mesh())),
        Visibility::Hidden,
        MeshMaterial3d(materials.add(translucent(COLOR_SIMPLEX, 0.35))),
        Transform::default(),
        Pickable::IGNORE,
    ));
}

/// The focused run's records of one family with the playback cursor clamped to them:
/// what every family's drawing starts from.
pub struct AtCursor<'m, R> {
    pub run: &'m Run,
    pub records: &'m [R],
    /// The cursor, clamped to the records.
    pub index: usize,
    pub last: usize,
}

impl<'m, R> AtCursor<'m, R> {
    pub fn record(&self) -> &'m R {
        &self.records[self.index]
    }

    /// The records up to the cursor, included.
    pub fn so_far(&self) -> &'m [R] {
        &self.records[..=self.index]
    }

    pub fn at_end(&self) -> bool {
        self.index == self.last
    }
}

/// The focused run's records, when they are the family `records` picks
/// (`Trace::steps::<GjkRecord>`, ...) and there is at least one.
pub fn records_at_cursor<'m, R>(
    model: &'m ViewerModel,
    cursor: usize,
    records: impl Fn(&'m Trace) -> Option<&'m [R]>,
) -> Option<AtCursor<'m, R>> {
    let run = &model.focused_run()?.run;
    let records = records(&run.trace)?;
    let last = records.len().checked_sub(1)?;
    Some(AtCursor {
        run,
        records,
        index: cursor.min(last),
        last,
    })
}

/// The focused distance run's step at `cursor` (clamped), when a distance family is in
/// focus.
pub fn distance_step_at(model: &ViewerModel, cursor: usize) -> Option<&DistanceStep> {
    let trace = model.focused_trace()?;
    trace.distance_step(cursor.min(trace.len().checked_sub(1)?))
}

/// The translucent faces of the simplex at the cursor (every triple of its points).
fn update_faces(
    view: StepView,
    mut query: Query<(&mut Mesh3d, &mut Visibility), With<SimplexFaces>>,
    mut meshes: ResMut<Assets<Mesh>>,
    mut built: Local<Option<(u64, usize, bool, u32)>>,
) {
    let (model, frame) = (&view.model, &view.frame);
    let key = (
        model.revision,
        view.cursor.cursor,
        view.layers.simplex,
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
    let step = distance_step_at(model, view.cursor.cursor).filter(|_| view.layers.simplex);
    if let Some(step) = step {
        let points: Vec<Vec3> = step
            .simplex
            .iter()
            .take(4)
            .map(|v| frame.world_point(v.point.w))
            .collect();
        if points.len() >= 3 {
            for i in 0..points.len() {
                for j in i + 1..points.len() {
                    for k in j + 1..points.len() {
                        positions.extend([points[i], points[j], points[k]].map(|p| p.to_array()));
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

/// One colour per simplex vertex for its pair of points on A and B (Okabe and Ito's
/// yellow, vermillion, sky blue and bluish green: apart from A's blue and B's orange).
const PAIR_COLOURS: [Color; 4] = [
    Color::srgb(0.80, 0.72, 0.0),
    Color::srgb(0.835, 0.369, 0.0),
    Color::srgb(0.337, 0.706, 0.914),
    Color::srgb(0.0, 0.620, 0.451),
];

/// Each simplex vertex w_i = a_i − b_i as its pair of points, a_i on A and b_i on B,
/// one colour per pair (Box2D's shape-distance sample draws them so): where on the two
/// shapes each point of the simplex comes from.
fn draw_vertex_pairs(
    step: &DistanceStep,
    pose_a: crate::pose::Pose,
    size: f32,
    labels: &mut ViewLabels,
    gizmos: &mut Gizmos,
) {
    for (i, v) in step.simplex.iter().take(4).enumerate() {
        let colour = PAIR_COLOURS[i % PAIR_COLOURS.len()];
        let a = pose_a.transform_point(v.point.a).as_vec3();
        let b = pose_a.transform_point(v.point.b).as_vec3();
        gizmos.sphere(Isometry3d::from_translation(a), size * 1.2, colour);
        gizmos.sphere(Isometry3d::from_translation(b), size * 1.2, colour);
        gizmos.line(a, b, colour.with_alpha(0.5));
        let id = crate::solver::narration::subscript(v.id as usize);
        labels.0.push((a, format!("a{id}"), colour));
        labels.0.push((b, format!("b{id}"), colour));
    }
}

/// The step's support plane in `A ⊖ B`: through its support w, perpendicular to the
/// direction d the support was taken against, at ω = ⟨d, w⟩/∥d∥ from the origin (d = x
/// for GJK). Every point of `A ⊖ B` lies on the far side, so when ω > 0 the plane
/// separates the origin from `A ⊖ B` and ω is a lower bound of the distance. Drawn as
/// a square with its diagonals and the foot of the perpendicular from O.
fn draw_support_plane(
    view: &StepView,
    step: &DistanceStep,
    labels: &mut ViewLabels,
    gizmos: &mut Gizmos,
) {
    let Some(s) = step.support else {
        return;
    };
    let d = step.direction;
    let length = d.length();
    if !(length > 0.0 && length.is_finite()) {
        return;
    }
    let n = d / length;
    let omega = n.dot(s.point.w);
    let frame = &view.frame;
    let foot = n * omega;
    let (u, v) = n.any_orthonormal_pair();
    // As large as the step's news: the support's offset from the foot, the iterate.
    let half = 1.5
        * (s.point.w - foot)
            .length()
            .max(step.x.length())
            .max(omega.abs());
    let corner = |a: f64, b: f64| frame.world_point(foot + u * (a * half) + v * (b * half));
    let ring = [
        corner(-1.0, -1.0),
        corner(1.0, -1.0),
        corner(1.0, 1.0),
        corner(-1.0, 1.0),
    ];
    let colour = if omega > 0.0 {
        COLOR_WITNESS
    } else {
        COLOR_SUPPORT
    };
    for i in 0..4 {
        gizmos.line(ring[i], ring[(i + 1) % 4], colour);
    }
    gizmos.line(ring[0], ring[2], colour.with_alpha(0.35));
    gizmos.line(ring[1], ring[3], colour.with_alpha(0.35));
    let (o, f) = (
        frame.world_point(glam::DVec3::ZERO),
        frame.world_point(foot),
    );
    gizmos.line(o, f, colour.with_alpha(0.6));
    let text = if omega > 0.0 {
        format!("plane ω = {:.3e}", crate::printed_bound::Below(omega))
    } else {
        "plane (does not separate O)".to_string()
    };
    labels.0.push((ring[2], text, colour));
}

/// Draws `step` (the cursor's record of the focused distance run): simplex, support,
/// iterate, and the witnesses when `at_end`. `direction_label` names the direction
/// whose support was taken ("−x", or "−d" for a momentum step). `number` is the
/// step's (from 1): step k makes x_k, as the narration says.
pub fn draw_distance_step(
    view: &StepView,
    (number, step): (usize, &DistanceStep),
    direction_label: &str,
    summary: Option<&RunSummary>,
    labels: &mut ViewLabels,
    step_bounds: &mut StepBounds,
    gizmos: &mut Gizmos,
) {
    let (model, layers, frame) = (&view.model, &view.layers, &view.frame);
    let size = view.marker.0;
    let pose_a = model.pair_scene().a().pose;
    let origin = frame.anchor;
    // What "frame step" closes in on: the origin, the simplex, x_k and s_k.
    let mut step_points: Vec<Vec3> = vec![origin, frame.world_point(step.x)];
    step_points.extend(
        step.simplex
            .iter()
            .take(4)
            .map(|v| frame.world_point(v.point.w)),
    );
    step_points.extend(step.support.map(|s| frame.world_point(s.point.w)));
    *step_bounds = StepBounds::around(step_points, frame.radius * 0.05);
    // The newest part: the origin, the new support and the new iterate.
    let mut newest = vec![origin, frame.world_point(step.x)];
    newest.extend(step.support.map(|s| frame.world_point(s.point.w)));
    let tight = StepBounds::around(newest, frame.radius * 1e-6);
    step_bounds.newest = Some((tight.centre, tight.radius));

    if layers.simplex {
        let points: Vec<(Vec3, u32)> = step
            .simplex
            .iter()
            .map(|v| (frame.world_point(v.point.w), v.id))
            .collect();
        for (i, (p, id)) in points.iter().enumerate() {
            gizmos.sphere(Isometry3d::from_translation(*p), size, COLOR_SIMPLEX);
            // The new support is labelled once, as "s = w_k", by the support layer.
            let support_labelled =
                layers.support_direction && step.support.is_some_and(|s| s.id == *id);
            if layers.labels && (points.len() <= 8 || i < 8) && !support_labelled {
                labels.0.push((
                    *p,
                    format!("w{}", crate::solver::narration::subscript(*id as usize)),
                    COLOR_SIMPLEX,
                ));
            }
            for (q, _) in points.iter().skip(i + 1).take(3) {
                if points.len() <= 4 {
                    gizmos.line(*p, *q, COLOR_SIMPLEX);
                }
            }
        }
    }
    if layers.plane {
        draw_support_plane(view, step, labels, gizmos);
    }
    if let Some(s) = step.support {
        let s_world = frame.world_point(s.point.w);
        if layers.support_direction {
            // −d: the direction whose support was taken, drawn from the origin.
            let dir = -frame.world_direction(step.direction).normalize_or_zero();
            let length = (frame.radius.max(0.2) * 0.8).min(size * 30.0);
            gizmos.arrow(origin, origin + dir * length, COLOR_SUPPORT);
            labels
                .0
                .push((origin + dir * length, direction_label.into(), COLOR_SUPPORT));
            gizmos.sphere(
                Isometry3d::from_translation(s_world),
                size * 1.3,
                COLOR_SUPPORT,
            );
            labels.0.push((
                s_world,
                format!(
                    "s = w{}",
                    crate::solver::narration::subscript(s.id as usize)
                ),
                COLOR_SUPPORT,
            ));
        }
        // The support's parts, unless the simplex's pairs below already show them.
        let in_simplex = (layers.simplex || (layers.support_parts && !layers.difference))
            && step.simplex.iter().any(|v| v.id == s.id);
        if layers.support_parts && !in_simplex {
            let a = pose_a.transform_point(s.point.a).as_vec3();
            let b = pose_a.transform_point(s.point.b).as_vec3();
            let (colour_a, colour_b) = (COLOR_A.darker(0.3), COLOR_B.darker(0.3));
            gizmos.sphere(Isometry3d::from_translation(a), size * 1.3, colour_a);
            gizmos.sphere(Isometry3d::from_translation(b), size * 1.3, colour_b);
            gizmos.line(a, b, COLOR_SUPPORT.with_alpha(0.6));
            labels.0.push((a, "a".into(), colour_a));
            labels.0.push((b, "b".into(), colour_b));
        }
    }
    // The simplex's pairs on the shapes: with the simplex, or alone when A ⊖ B is hidden
    // (a page about the witness points on the shapes themselves).
    let pairs_alone = layers.support_parts && !layers.difference;
    if (layers.support_parts && layers.simplex) || pairs_alone {
        draw_vertex_pairs(step, pose_a, size, labels, gizmos);
    }
    if layers.iterate {
        let x = frame.world_point(step.x);
        gizmos.line(origin, x, COLOR_ITERATE);
        gizmos.sphere(Isometry3d::from_translation(x), size * 1.1, COLOR_ITERATE);
        labels.0.push((
            x,
            format!("x{}", crate::solver::narration::subscript(number)),
            COLOR_ITERATE,
        ));
    }
    let Some(summary) = summary.filter(|_| layers.witness) else {
        return;
    };
    if let (Some(a), Some(b)) = (summary.witness_a, summary.witness_b) {
        let (a, b) = (
            pose_a.transform_point(a).as_vec3(),
            pose_a.transform_point(b).as_vec3(),
        );
        gizmos.line(a, b, COLOR_WITNESS);
        gizmos.sphere(Isometry3d::from_translation(a), size * 1.5, COLOR_WITNESS);
        gizmos.sphere(Isometry3d::from_translation(b), size * 1.5, COLOR_WITNESS);
        if let Some(d) = summary.outcome.distance() {
            // Bracketed by a separating plane, the distance prints as a measurement;
            // otherwise as the upper bound it is.
            let lower = summary.outcome.lower_bound().unwrap_or(f64::NEG_INFINITY);
            let text = format!("d = {:.6}", Within(lower, d));
            labels.0.push(((a + b) * 0.5, text, COLOR_WITNESS));
        }
    }
}
