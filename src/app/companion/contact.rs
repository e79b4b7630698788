//! A contact manifold in focus: the reference face and the incident feature, the
//! normal, at a clip step the side plane that cut and the polygon left after it, at the
//! depth step every clipped point (kept or beyond the margin), and from the reduction
//! on the kept points on both shapes (certified in the witness colour, uncertified in
//! red) and the dropped ones in grey.

use bevy::prelude::*;

use crate::app::camera::StepBounds;
use crate::app::draw::common::records_at_cursor;
use crate::app::draw::{family_in_focus, DrawStep, StepView, ViewLabels, COLOR_WITNESS};
use crate::app::state::ViewerSet;
use crate::solver::contact::record::{ContactEvent, ContactRecord};
use crate::solver::contact::{self, ContactExtras, Reference};
use crate::solver::trace::Trace;

const COLOR_REFERENCE: Color = Color::srgb(0.10, 0.30, 0.75);
const COLOR_INCIDENT: Color = Color::srgb(0.80, 0.35, 0.05);
const COLOR_CLIPPED: Color = Color::srgb(0.55, 0.10, 0.55);
const COLOR_PLANE: Color = Color::srgb(0.35, 0.35, 0.35);
const COLOR_DROPPED: Color = Color::srgb(0.6, 0.6, 0.6);
const COLOR_UNCERTIFIED: Color = Color::srgb(0.85, 0.1, 0.1);

pub const COMPANION: super::Companion = super::Companion {
    family: contact::kind::FAMILY,
    draw: plugin,
    plot: None,
    playback_section: None,
    methods_section: None,
    result_lines: None,
};

fn plugin(app: &mut App) {
    app.add_systems(
        Update,
        draw_manifold
            .run_if(family_in_focus(contact::kind::FAMILY))
            .in_set(DrawStep)
            .in_set(ViewerSet::Draw),
    );
}

fn draw_manifold(
    view: StepView,
    mut labels: ResMut<ViewLabels>,
    mut step_bounds: ResMut<StepBounds>,
    mut gizmos: Gizmos,
) {
    let model = &view.model;
    let Some(at) = records_at_cursor(model, view.cursor.cursor, Trace::steps::<ContactRecord>)
    else {
        return;
    };
    let Some(m) = at
        .run
        .extras
        .get::<ContactExtras>()
        .and_then(|e| e.manifold.as_ref())
    else {
        return;
    };
    let pose_a = model.pair_scene().a().pose;
    let world = |p: glam::DVec3| pose_a.transform_point(p).as_vec3();
    let size = view.marker.0;
    let record = &at.records[at.index];
    let outline = |gizmos: &mut Gizmos, points: &[glam::DVec3], colour: Color| {
        let mut strip: Vec<Vec3> = points.iter().map(|p| world(*p)).collect();
        if strip.len() > 2 {
            strip.push(strip[0]);
        }
        if strip.len() == 1 {
            gizmos.sphere(Isometry3d::from_translation(strip[0]), size, colour);
        }
        gizmos.linestrip(strip, colour);
    };
    let (reference, incident) = match m.reference {
        Reference::B => (&m.feature_b, &m.feature_a),
        _ => (&m.feature_a, &m.feature_b),
    };
    let reference_corners = reference.corners();
    outline(&mut gizmos, &reference_corners, COLOR_REFERENCE);
    // While the incident feature is clipped, the polygon left stands for it (two
    // outlines on the same edges would hide each other).
    if record.event != ContactEvent::Clip {
        outline(&mut gizmos, &incident.corners(), COLOR_INCIDENT);
    }
    let centre = reference_corners.iter().copied().sum::<glam::DVec3>()
        / reference_corners.len().max(1) as f64;
    labels
        .0
        .push((world(centre), "reference".into(), COLOR_REFERENCE));
    if let Some(first) = incident.corners().first() {
        labels
            .0
            .push((world(*first), "incident".into(), COLOR_INCIDENT));
    }
    // The normal, from the reference face's centre, a fifth of the view long.
    let reach = view.frame.radius * 0.2;
    let normal = pose_a
        .transform_vector(m.normal)
        .as_vec3()
        .normalize_or_zero();
    gizmos.arrow(world(centre), world(centre) + normal * reach, COLOR_WITNESS);
    labels
        .0
        .push((world(centre) + normal * reach, "n".into(), COLOR_WITNESS));
    // "Frame step" closes in on the contact: the incident feature, what is left of it
    // and the manifold's points (a table-sized reference face would fill the view).
    let mut framed: Vec<Vec3> = match record.event {
        ContactEvent::Clip | ContactEvent::Depths => {
            record.points.iter().map(|p| world(*p)).collect()
        }
        _ => m.points.iter().map(|p| world(p.on_a)).collect(),
    };
    match record.event {
        ContactEvent::Clip => {
            outline(&mut gizmos, &record.points, COLOR_CLIPPED);
            for p in &record.points {
                gizmos.sphere(
                    Isometry3d::from_translation(world(*p)),
                    size * 0.8,
                    COLOR_CLIPPED,
                );
            }
            if !record.points.is_empty() {
                let kept =
                    record.points.iter().copied().sum::<glam::DVec3>() / record.points.len() as f64;
                labels.0.push((
                    world(kept),
                    format!("left: {} corners", record.points.len()),
                    COLOR_CLIPPED,
                ));
            }
            if let Some((point, out)) = record.plane {
                // The plane's trace on the reference face (a long line) and its outward
                // normal: what lies beyond is cut away.
                let p = world(point);
                let out = pose_a.transform_vector(out).as_vec3().normalize_or_zero();
                let along = normal.cross(out).normalize_or_zero();
                let (mut lo, mut hi) = (f32::MAX, f32::MIN);
                for q in incident.corners().iter().chain(&record.points) {
                    let t = (world(*q) - p).dot(along);
                    lo = lo.min(t);
                    hi = hi.max(t);
                }
                let margin = reach * 0.3;
                gizmos.line(
                    p + along * (lo - margin),
                    p + along * (hi + margin),
                    COLOR_PLANE,
                );
                let middle = p + along * (0.5 * (lo + hi));
                gizmos.arrow(middle, middle + out * reach * 0.5, COLOR_PLANE);
                labels
                    .0
                    .push((middle + out * reach * 0.5, "side plane".into(), COLOR_PLANE));
            }
        }
        ContactEvent::Depths => {
            for (k, c) in m.candidates.iter().enumerate() {
                let colour = if m.beyond_margin.contains(&k) {
                    COLOR_DROPPED
                } else {
                    COLOR_CLIPPED
                };
                gizmos.line(world(c.on_a), world(c.on_b), colour);
                gizmos.sphere(Isometry3d::from_translation(world(c.on_b)), size, colour);
            }
        }
        ContactEvent::Normal | ContactEvent::Features => {}
        ContactEvent::Reduce | ContactEvent::Certify => {
            for k in m.reduced_away.iter().chain(&m.beyond_margin) {
                let c = m.candidates[*k];
                gizmos.sphere(
                    Isometry3d::from_translation(world(c.on_b)),
                    size * 0.8,
                    COLOR_DROPPED,
                );
            }
            for (i, p) in m.points.iter().enumerate() {
                let certified = m.checks.get(i).is_some_and(|c| c.certified);
                let colour = if certified || record.event == ContactEvent::Reduce {
                    COLOR_WITNESS
                } else {
                    COLOR_UNCERTIFIED
                };
                let (a, b) = (world(p.on_a), world(p.on_b));
                gizmos.sphere(Isometry3d::from_translation(a), size * 1.3, colour);
                gizmos.sphere(Isometry3d::from_translation(b), size * 1.3, colour);
                gizmos.line(a, b, colour);
                framed.push(a);
            }
        }
    }
    framed.extend(incident.corners().iter().map(|p| world(*p)));
    if framed.len() < 2 {
        framed.extend(reference_corners.iter().map(|p| world(*p)));
    }
    *step_bounds = StepBounds::around(framed, view.frame.radius * 0.02);
}
