//! The interior point's step picture: the iterates x_k inside A and y_k inside B as two
//! paths (the central path) converging to the closest points, the segment between them
//! at the step, and at the end the witness points (or the common point).

use glam::DVec3;

use super::{Framing, Mark, Rgba, Sketch, SketchContext, COLOUR_WITNESS};
use crate::printed_bound::Within;
use crate::solver::interior_point::IpRecord;
use crate::solver::narration::subscript;
use crate::solver::{Outcome, Run};

const COLOUR_ON_A: Rgba = Rgba::rgb(0.10, 0.30, 0.75);
const COLOUR_ON_B: Rgba = Rgba::rgb(0.80, 0.35, 0.05);
const COLOUR_GAP: Rgba = Rgba::rgb(0.0, 0.33, 0.58);

/// Newton step `index` (clamped) of an interior-point run.
pub fn interior_point_sketch(
    run: &Run,
    records: &[IpRecord],
    index: usize,
    context: &SketchContext,
) -> Option<Sketch> {
    let last = records.len().checked_sub(1)?;
    let i = index.min(last);
    let world = |p: DVec3| context.pose_a.transform_point(p);
    let mut sketch = Sketch::default();
    // The paths so far: x_0 … x_k in A, y_0 … y_k in B.
    let path_a: Vec<DVec3> = records[..=i].iter().map(|r| world(r.x)).collect();
    let path_b: Vec<DVec3> = records[..=i].iter().map(|r| world(r.y)).collect();
    sketch.marks.push(Mark::Strip {
        points: path_a.clone(),
        colour: COLOUR_ON_A,
    });
    sketch.marks.push(Mark::Strip {
        points: path_b.clone(),
        colour: COLOUR_ON_B,
    });
    for (p, q) in path_a.iter().zip(&path_b) {
        sketch.marker(*p, 0.6, COLOUR_ON_A);
        sketch.marker(*q, 0.6, COLOUR_ON_B);
    }
    let (x, y) = (path_a[i], path_b[i]);
    sketch.marker(x, 1.3, COLOUR_ON_A);
    sketch.marker(y, 1.3, COLOUR_ON_B);
    sketch.line(x, y, COLOUR_GAP);
    sketch.label(x, format!("x{}", subscript(i)), COLOUR_ON_A);
    sketch.label(y, format!("y{}", subscript(i)), COLOUR_ON_B);
    if i == last {
        match run.summary.outcome {
            Outcome::Intersecting => {
                let m = (x + y) * 0.5;
                sketch.marker(m, 2.0, COLOUR_WITNESS);
                sketch.label(m, "common point", COLOUR_WITNESS);
            }
            Outcome::Separated {
                distance,
                lower_bound,
            } => {
                sketch.line(x, y, COLOUR_WITNESS);
                sketch.label(
                    (x + y) * 0.5,
                    format!("d = {:.6}", Within(lower_bound, distance)),
                    COLOUR_WITNESS,
                );
            }
            _ => {}
        }
    }
    sketch.step = Framing {
        points: vec![x, y],
        min_radius: context.space.radius * 0.05,
        grown_to: Vec::new(),
    };
    Some(sketch)
}
