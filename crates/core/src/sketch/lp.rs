//! The LP test's step picture: the points the weights give on A and B (Σλ_i p_i,
//! Σμ_j q_j) approaching each other pivot by pivot, and at the end the common point or
//! the separating plane (a square between the shapes, its normal from A to B); for
//! containment, A's vertices coloured inside (green) or outside (red) of B.

use glam::DVec3;

use super::{Faces, Framing, Rgba, Sketch, SketchContext, COLOUR_WITNESS};
use crate::printed_bound::Below;
use crate::solver::lp::{LpEvent, LpRecord};
use crate::solver::{Outcome, Run};

const COLOUR_ON_A: Rgba = Rgba::rgb(0.10, 0.30, 0.75);
const COLOUR_ON_B: Rgba = Rgba::rgb(0.80, 0.35, 0.05);
const COLOUR_PLANE: Rgba = Rgba::rgb(0.45, 0.1, 0.6);
const COLOUR_OUTSIDE: Rgba = Rgba::rgb(0.85, 0.1, 0.1);

/// Pivot `index` (clamped) of an LP run; with no pivots, the answer alone.
pub fn lp_sketch(run: &Run, records: &[LpRecord], index: usize, context: &SketchContext) -> Sketch {
    let pose_a = context.pose_a;
    let world = |p: DVec3| pose_a.transform_point(p);
    let mut sketch = Sketch::default();
    let last = records.len().checked_sub(1);
    let index = last.map(|l| index.min(l));
    if let Some(i) = index {
        let r = &records[i];
        match r.event {
            LpEvent::Pivot { .. } => {
                let (a, b) = (world(r.point_a), world(r.point_b));
                sketch.marker(a, 1.3, COLOUR_ON_A);
                sketch.marker(b, 1.3, COLOUR_ON_B);
                sketch.line(a, b, COLOUR_PLANE.with_alpha(0.6));
                sketch.label(a, "Σλp", COLOUR_ON_A);
                sketch.label(b, "Σμq", COLOUR_ON_B);
                sketch.step = Framing {
                    points: vec![a, b],
                    min_radius: context.space.radius * 0.05,
                    grown_to: Vec::new(),
                };
            }
            LpEvent::Vertex { .. } => {
                for r in &records[..=i] {
                    if let LpEvent::Vertex { inside, .. } = r.event {
                        let colour = if inside {
                            COLOUR_WITNESS
                        } else {
                            COLOUR_OUTSIDE
                        };
                        sketch.marker(world(r.point_a), 1.3, colour);
                    }
                }
            }
        }
    }
    if index != last {
        return sketch;
    }
    match run.summary.outcome {
        Outcome::Intersecting => {
            if let Some(p) = run.summary.witness_a {
                let p = world(p);
                sketch.marker(p, 2.0, COLOUR_WITNESS);
                sketch.label(p, "common point", COLOUR_WITNESS);
            }
        }
        Outcome::SeparatingPlane {
            normal,
            offset,
            gap,
        } => {
            // A square of the plane, centred between the shapes' centres.
            let mid = (pose_a.translation + context.pose_b.translation) * 0.5;
            let foot_local = pose_a.inverse().transform_point(mid);
            let on_plane = foot_local - normal * (normal.dot(foot_local) - offset);
            let c = world(on_plane);
            let n = pose_a.rotation * normal;
            let u = n.any_orthonormal_vector();
            let v = n.cross(u);
            let half = context.space.radius.max(0.2) * 0.5;
            let corners = [u + v, u - v, -u - v, -u + v].map(|d| c + d * half);
            sketch.faces.push(Faces {
                triangles: vec![
                    [corners[0], corners[1], corners[2]],
                    [corners[0], corners[2], corners[3]],
                ],
                colour: COLOUR_PLANE.with_alpha(0.25),
            });
            for k in 0..4 {
                sketch.line(corners[k], corners[(k + 1) % 4], COLOUR_PLANE);
            }
            sketch.line(corners[0], corners[2], COLOUR_PLANE.with_alpha(0.4));
            sketch.line(corners[1], corners[3], COLOUR_PLANE.with_alpha(0.4));
            sketch.arrow(c, c + n * half * 0.6, COLOUR_PLANE);
            sketch.label(
                c,
                format!("separating plane, gap {:.3e}", Below(gap)),
                COLOUR_PLANE,
            );
        }
        Outcome::NotContained { vertex } => {
            if let Some(p) = run.summary.witness_a {
                sketch.label(
                    world(p),
                    format!("vertex {vertex} outside B"),
                    COLOUR_OUTSIDE,
                );
            }
        }
        _ => {}
    }
    sketch
}
