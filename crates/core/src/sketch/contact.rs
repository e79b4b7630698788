//! A contact manifold's step picture: the reference face and the incident feature, the
//! normal, at a clip step the side plane that cut and the polygon left after it, at the
//! depth step every clipped point (kept or beyond the margin), and from the reduction
//! on the kept points on both shapes (certified in the witness colour, uncertified in
//! red) and the dropped ones in grey.

use glam::DVec3;

use super::{Framing, Mark, Rgba, Sketch, SketchContext, COLOUR_WITNESS};
use crate::solver::contact::record::{ContactEvent, ContactRecord};
use crate::solver::contact::{ContactExtras, Reference};
use crate::solver::Run;

const COLOUR_REFERENCE: Rgba = Rgba::rgb(0.10, 0.30, 0.75);
const COLOUR_INCIDENT: Rgba = Rgba::rgb(0.80, 0.35, 0.05);
const COLOUR_CLIPPED: Rgba = Rgba::rgb(0.55, 0.10, 0.55);
const COLOUR_PLANE: Rgba = Rgba::rgb(0.35, 0.35, 0.35);
const COLOUR_DROPPED: Rgba = Rgba::rgb(0.6, 0.6, 0.6);
const COLOUR_UNCERTIFIED: Rgba = Rgba::rgb(0.85, 0.1, 0.1);

/// Contact step `index` (clamped) of `run`, when it built a manifold.
pub fn contact_sketch(
    run: &Run,
    records: &[ContactRecord],
    index: usize,
    context: &SketchContext,
) -> Option<Sketch> {
    let record = records.get(index.min(records.len().checked_sub(1)?))?;
    let m = run.extras.get::<ContactExtras>()?.manifold.as_ref()?;
    let pose_a = context.pose_a;
    let world = |p: DVec3| pose_a.transform_point(p);
    let mut sketch = Sketch::default();
    let outline = |sketch: &mut Sketch, points: &[DVec3], colour: Rgba| {
        let mut strip: Vec<DVec3> = points.iter().map(|p| world(*p)).collect();
        if strip.len() > 2 {
            strip.push(strip[0]);
        }
        if strip.len() == 1 {
            sketch.marker(strip[0], 1.0, colour);
        }
        sketch.marks.push(Mark::Strip {
            points: strip,
            colour,
        });
    };
    let (reference, incident) = match m.reference {
        Reference::B => (&m.feature_b, &m.feature_a),
        _ => (&m.feature_a, &m.feature_b),
    };
    let reference_corners = reference.corners();
    // The first step is the normal alone: which face is the reference and which the
    // incident is the next step's choice, and its picture's.
    let features_chosen = record.event != ContactEvent::Normal;
    if features_chosen {
        outline(&mut sketch, &reference_corners, COLOUR_REFERENCE);
    }
    // While the incident feature is clipped, the polygon left stands for it (two
    // outlines on the same edges would hide each other).
    if features_chosen && record.event != ContactEvent::Clip {
        outline(&mut sketch, &incident.corners(), COLOUR_INCIDENT);
    }
    let centre =
        reference_corners.iter().copied().sum::<DVec3>() / reference_corners.len().max(1) as f64;
    if features_chosen {
        sketch.label(world(centre), "reference", COLOUR_REFERENCE);
        if let Some(first) = incident.corners().first() {
            sketch.label(world(*first), "incident", COLOUR_INCIDENT);
        }
    }
    // The normal, a fifth of the view long: from the reference face's centre once the
    // faces are chosen; before, from the middle of B's side of the contact, which the
    // step's framing holds (a table-sized reference face's centre may lie outside it).
    let reach = context.space.radius * 0.2;
    let normal = pose_a.transform_vector(m.normal).normalize_or_zero();
    let (foot, length) = if features_chosen {
        (world(centre), reach)
    } else {
        // As long as B's side of the contact is wide, so that it stays in the frame.
        let corners = incident.corners();
        let middle = corners.iter().copied().sum::<DVec3>() / corners.len().max(1) as f64;
        let wide = (corners.iter()).fold(0.0f64, |w, c| w.max((*c - middle).length()));
        let length = if wide > 0.0 { wide.min(reach) } else { reach };
        (world(middle), length)
    };
    sketch.arrow(foot, foot + normal * length, COLOUR_WITNESS);
    let name = if features_chosen { "n" } else { "normal n" };
    sketch.label(foot + normal * length, name, COLOUR_WITNESS);
    // "Frame step" closes in on the contact: the incident feature, what is left of it
    // and the manifold's points (a table-sized reference face would fill the view).
    let mut framed: Vec<DVec3> = match record.event {
        ContactEvent::Clip | ContactEvent::Depths => {
            record.points.iter().map(|p| world(*p)).collect()
        }
        _ => m.points.iter().map(|p| world(p.on_a)).collect(),
    };
    match record.event {
        ContactEvent::Clip => {
            outline(&mut sketch, &record.points, COLOUR_CLIPPED);
            for p in &record.points {
                sketch.marker(world(*p), 0.8, COLOUR_CLIPPED);
            }
            if !record.points.is_empty() {
                let kept =
                    record.points.iter().copied().sum::<DVec3>() / record.points.len() as f64;
                sketch.label(
                    world(kept),
                    format!("left: {} corners", record.points.len()),
                    COLOUR_CLIPPED,
                );
            }
            if let Some((point, out)) = record.plane {
                // The plane's trace on the reference face (a long line) and its outward
                // normal: what lies beyond is cut away.
                let p = world(point);
                let out = pose_a.transform_vector(out).normalize_or_zero();
                let along = normal.cross(out).normalize_or_zero();
                let (mut lo, mut hi) = (f64::MAX, f64::MIN);
                for q in incident.corners().iter().chain(&record.points) {
                    let t = (world(*q) - p).dot(along);
                    lo = lo.min(t);
                    hi = hi.max(t);
                }
                let margin = reach * 0.3;
                sketch.line(
                    p + along * (lo - margin),
                    p + along * (hi + margin),
                    COLOUR_PLANE,
                );
                let middle = p + along * (0.5 * (lo + hi));
                sketch.arrow(middle, middle + out * reach * 0.5, COLOUR_PLANE);
                sketch.label(middle + out * reach * 0.5, "side plane", COLOUR_PLANE);
            }
        }
        ContactEvent::Depths => {
            for (k, c) in m.candidates.iter().enumerate() {
                let colour = if m.beyond_margin.contains(&k) {
                    COLOUR_DROPPED
                } else {
                    COLOUR_CLIPPED
                };
                sketch.line(world(c.on_a), world(c.on_b), colour);
                sketch.marker(world(c.on_b), 1.0, colour);
            }
        }
        ContactEvent::Normal | ContactEvent::Features => {}
        ContactEvent::Reduce | ContactEvent::Certify => {
            for k in m.reduced_away.iter().chain(&m.beyond_margin) {
                let c = m.candidates[*k];
                sketch.marker(world(c.on_b), 0.8, COLOUR_DROPPED);
            }
            for (i, p) in m.points.iter().enumerate() {
                let certified = m.checks.get(i).is_some_and(|c| c.certified);
                let colour = if certified || record.event == ContactEvent::Reduce {
                    COLOUR_WITNESS
                } else {
                    COLOUR_UNCERTIFIED
                };
                let (a, b) = (world(p.on_a), world(p.on_b));
                sketch.marker(a, 1.3, colour);
                sketch.marker(b, 1.3, colour);
                sketch.line(a, b, colour);
                framed.push(a);
            }
        }
    }
    framed.extend(incident.corners().iter().map(|p| world(*p)));
    if framed.len() < 2 {
        framed.extend(reference_corners.iter().map(|p| world(*p)));
    }
    sketch.step = Framing {
        points: framed,
        min_radius: context.space.radius * 0.02,
        grown_to: Vec::new(),
    };
    Some(sketch)
}
