//! EPA's step picture: the polytope inside `A ⊖ B` at the expansion (translucent faces,
//! edges), its face nearest the origin highlighted with the normal, the support along
//! that normal, the horizon of the expansion, and at the end the penetration vector
//! between the witness points on the shapes.

use glam::DVec3;

use super::{Faces, Framing, Rgba, Sketch, SketchContext, COLOUR_SUPPORT, COLOUR_WITNESS};
use crate::printed_bound::Below;
use crate::solver::epa::{EpaEvent, EpaTrace};
use crate::solver::narration::subscript;
use crate::solver::Run;

const COLOUR_POLYTOPE: Rgba = Rgba::rgb(0.45, 0.45, 0.1);
const COLOUR_NEAREST: Rgba = Rgba::rgb(0.95, 0.55, 0.0);
const COLOUR_HORIZON: Rgba = Rgba::rgb(0.8, 0.0, 0.3);

/// EPA's step `index` (clamped) of `run`; with no expansion (separated cores of rounded
/// shapes, a closed form) the answer alone.
pub fn epa_sketch(run: &Run, trace: &EpaTrace, index: usize, context: &SketchContext) -> Sketch {
    let (layers, space) = (&context.layers, &context.space);
    let origin = space.anchor;
    let size = context.marker;
    let mut sketch = Sketch::default();
    let Some(record) = trace
        .records
        .len()
        .checked_sub(1)
        .map(|last| &trace.records[index.min(last)])
    else {
        if layers.witness {
            penetration(run, context, &mut sketch);
        }
        return sketch;
    };
    let world = |v: usize| space.world_point(trace.points[v].w);
    if layers.simplex {
        let triangles = |faces: &[[usize; 3]]| -> Vec<[DVec3; 3]> {
            faces.iter().map(|f| f.map(world)).collect()
        };
        sketch.faces.push(Faces {
            triangles: triangles(&record.faces),
            colour: COLOUR_POLYTOPE.with_alpha(0.15),
        });
        sketch.faces.push(Faces {
            triangles: triangles(&[record.nearest]),
            colour: COLOUR_NEAREST.with_alpha(0.8),
        });
        // Among many faces the nearest one is what the step is about: the others'
        // edges fade, its own are drawn over them.
        let edges = if record.faces.len() > 12 {
            COLOUR_POLYTOPE.with_alpha(0.25)
        } else {
            COLOUR_POLYTOPE
        };
        for face in &record.faces {
            for i in 0..3 {
                let (p, q) = (face[i], face[(i + 1) % 3]);
                if p < q {
                    sketch.line(world(p), world(q), edges);
                }
            }
        }
        for i in 0..3 {
            let (p, q) = (record.nearest[i], record.nearest[(i + 1) % 3]);
            sketch.line(world(p), world(q), COLOUR_NEAREST);
        }
        for (p, q) in &record.horizon {
            sketch.line(world(*p), world(*q), COLOUR_HORIZON);
        }
        if layers.labels {
            for v in record.nearest {
                sketch.label(world(v), format!("w{}", subscript(v + 1)), COLOUR_NEAREST);
            }
        }
    }
    // The nearest face's foot point and normal, and the support along it.
    let foot = space.world_point(record.normal * record.nearest_distance);
    let reach = space.world_point(record.normal * record.support_distance);
    let support = space.world_point(record.support);
    // The depth vector in A ⊖ B: from the origin to the nearest face's foot point, a
    // lower bound of the depth at every step, the depth itself at the end.
    if (foot - origin).length() > size * 2.0 {
        sketch.arrow(origin, foot, COLOUR_NEAREST);
    } else {
        sketch.line(origin, foot, COLOUR_NEAREST);
    }
    sketch.marker(foot, 1.0, COLOUR_NEAREST);
    let done = matches!(record.event, EpaEvent::Converged | EpaEvent::Accepted);
    if layers.labels {
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
        sketch.label((origin + foot) * 0.5, what, COLOUR_NEAREST);
    }
    if layers.support_direction {
        let along = space.world_direction(record.normal).normalize_or_zero();
        let length = (space.radius.max(0.2) * 0.5).min(size * 30.0);
        sketch.arrow(foot, foot + along * length, COLOUR_SUPPORT);
        sketch.marker(support, 1.3, COLOUR_SUPPORT);
        sketch.line(reach, support, COLOUR_SUPPORT.with_alpha(0.5));
        sketch.label(support, "s", COLOUR_SUPPORT);
    }
    sketch.step = Framing {
        points: [origin, foot, support]
            .into_iter()
            .chain(record.nearest.map(world))
            .collect(),
        min_radius: space.radius * 0.05,
        grown_to: Vec::new(),
    };
    // At the end: the penetration vector between the witness points on the shapes.
    if layers.witness && done {
        penetration(run, context, &mut sketch);
    }
    sketch
}

/// The witness points on A and B and the push that separates them (depth along n).
fn penetration(run: &Run, context: &SketchContext, sketch: &mut Sketch) {
    let s = &run.summary;
    let (Some(a), Some(b), Some(normal)) = (s.witness_a, s.witness_b, s.outcome.normal()) else {
        return;
    };
    let pose_a = context.pose_a;
    let size = context.marker;
    let (a, b) = (pose_a.transform_point(a), pose_a.transform_point(b));
    sketch.marker(a, 1.5, COLOUR_WITNESS);
    sketch.marker(b, 1.5, COLOUR_WITNESS);
    sketch.line(b, a, COLOUR_WITNESS);
    let direction = pose_a.rotation * normal;
    // `0.0 - d`, not `-d`: a touching answer's depth reads 0, never −0.
    if let Some(depth) = s.outcome.signed_distance().map(|d| 0.0 - d) {
        // The viewer draws in single precision: the arrow's length as it computed it.
        let tip = a + direction * f64::from((depth as f32).max((size * 4.0) as f32));
        let what = if depth == 0.0 {
            "touching: depth proved 0".to_string()
        } else {
            format!("depth {:.6}: move B by depth · n", Below(depth))
        };
        sketch.label((a + b) * 0.5, what, COLOUR_WITNESS);
        sketch.arrow(a, tip, COLOUR_NEAREST);
        sketch.label(tip, "n", COLOUR_NEAREST);
    }
}
