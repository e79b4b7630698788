//! The distance families' step pictures (GJK and its accelerated variants, Frank-Wolfe):
//! the simplex or active set (points, edges, translucent faces), the support direction
//! and support point with its parts on A and B, the iterate x_k, the support plane, and
//! at the end the witness points with the distance segment.

use glam::DVec3;

use super::{
    Faces, Framing, Mark, Sketch, SketchContext, COLOUR_A_PART, COLOUR_B_PART, COLOUR_ITERATE,
    COLOUR_SIMPLEX, COLOUR_SUPPORT, COLOUR_WITNESS, PAIR_COLOURS,
};
use crate::printed_bound::{Below, Within};
use crate::solver::distance::DistanceStep;
use crate::solver::narration::subscript;
use crate::solver::{FrankWolfeRecord, GjkEvent, GjkRecord, Run, RunSummary};

/// GJK's step `index` (clamped): the shared distance picture, its support direction
/// named `−d` on a momentum step and `−x` on a plain one, and the vertices the step
/// dropped ghosted where they were.
pub fn gjk_sketch(
    run: &Run,
    records: &[GjkRecord],
    index: usize,
    context: &SketchContext,
) -> Option<Sketch> {
    let last = records.len().checked_sub(1)?;
    let index = index.min(last);
    let record = &records[index];
    let previous = index.checked_sub(1).map(|i| &records[i].step);
    let label = if record.momentum { "−d" } else { "−x" };
    let summary = (index == last).then_some(&run.summary);
    let number = DistanceStep::iterate_number(index, |i| records.get(i).map(|r| &r.step));
    let mut sketch = distance_sketch(context, (number, &record.step), label, summary);
    // The tetrahedron (or triangle) before the reduction stays visible beside what was
    // kept: the dropped vertices, with the edges that joined them to the simplex.
    if let (GjkEvent::Projected { dropped, .. }, true, Some(before)) =
        (&record.event, context.layers.simplex, previous)
    {
        let space = &context.space;
        let ghost = COLOUR_SIMPLEX.with_alpha(0.35);
        let kept: Vec<DVec3> = record
            .step
            .simplex
            .iter()
            .map(|v| space.world_point(v.point.w))
            .collect();
        for v in before.simplex.iter().filter(|v| dropped.contains(&v.id)) {
            let p = space.world_point(v.point.w);
            // "Frame step" keeps the dropped vertices in view: the step is about them.
            sketch.step.grown_to.push(p);
            sketch.marker(p, 0.8, ghost);
            for q in &kept {
                sketch.line(p, *q, ghost);
            }
            sketch.label(p, format!("w{} dropped", subscript(v.id as usize)), ghost);
        }
    }
    Some(sketch)
}

/// Frank-Wolfe's step `index` (clamped): the zig-zag of its iterates (with the path
/// layer), then the shared distance picture over the active set. "Frame newest" closes
/// in on the latest iterates, where the zig-zag is.
pub fn frank_wolfe_sketch(
    run: &Run,
    records: &[FrankWolfeRecord],
    index: usize,
    context: &SketchContext,
) -> Option<Sketch> {
    let last = records.len().checked_sub(1)?;
    let index = index.min(last);
    let so_far = &records[..=index];
    let mut sketch = Sketch::default();
    if context.layers.frank_wolfe_path {
        zig_zag(context, so_far, &mut sketch);
    }
    let number = DistanceStep::iterate_number(index, |i| records.get(i).map(|r| &r.step));
    let summary = (index == last).then_some(&run.summary);
    let step = distance_sketch(context, (number, &records[index].step), "−x", summary);
    sketch.step = step.step.clone();
    sketch.newest = step.newest.clone();
    sketch.extend(step);
    let recent: Vec<DVec3> = so_far
        .iter()
        .skip(1)
        .rev()
        .take(8)
        .map(|r| context.space.world_point(r.step.x))
        .collect();
    if recent.len() >= 2 {
        sketch.newest = Some(Framing {
            points: recent,
            min_radius: context.space.radius * 1e-4,
            grown_to: Vec::new(),
        });
    }
    Some(sketch)
}

/// The zig-zag: the iterates x₁ … x_k joined, each corner marked, and every step's
/// segment from the iterate it started at to the support it moved toward (the face's
/// corners, near the optimum), the newest strongest: x moves along those segments.
fn zig_zag(context: &SketchContext, so_far: &[FrankWolfeRecord], sketch: &mut Sketch) {
    let space = &context.space;
    let iterates: Vec<DVec3> = so_far.iter().map(|r| space.world_point(r.step.x)).collect();
    sketch.marks.push(Mark::Strip {
        points: iterates.clone(),
        colour: COLOUR_ITERATE,
    });
    for x in &iterates {
        sketch.marker(*x, 0.6, COLOUR_ITERATE);
    }
    let newest = so_far.len().saturating_sub(1);
    for (j, pair) in so_far.windows(2).enumerate() {
        let Some(support) = pair[1].step.support else {
            continue;
        };
        let (from, to) = (iterates[j], space.world_point(support.point.w));
        let strength = if j + 1 == newest { 1.0 } else { 0.45 };
        if j + 1 == newest && context.layers.labels {
            // The newest segment's ends, as the text names them: [x_{k−1}, w_k].
            let named = DistanceStep::iterate_number(j, |i| so_far.get(i).map(|r| &r.step));
            sketch.label(from, format!("x{}", subscript(named)), COLOUR_ITERATE);
            if !context.layers.support_direction {
                sketch.label(
                    to,
                    format!("w{}", subscript(support.id as usize)),
                    COLOUR_SUPPORT,
                );
            }
        }
        sketch.line(from, to, COLOUR_SUPPORT.with_alpha(strength));
        sketch.marker(to, 0.8, COLOUR_SUPPORT.with_alpha(strength));
    }
}

/// A distance step's picture: simplex, support, iterate, support plane, and the
/// witnesses when `summary` is given (the run's last step). `direction_label` names the
/// direction whose support was taken ("−x", or "−d" for a momentum step); `number` is
/// the step's iterate's (step k makes x_k, as the narration says).
pub fn distance_sketch(
    context: &SketchContext,
    (number, step): (usize, &DistanceStep),
    direction_label: &str,
    summary: Option<&RunSummary>,
) -> Sketch {
    let (layers, space) = (&context.layers, &context.space);
    let size = context.marker;
    let pose_a = context.pose_a;
    let origin = space.anchor;
    let mut sketch = Sketch::default();
    // What "frame step" closes in on: the origin, the simplex, x_k and s_k.
    let mut step_points = vec![origin, space.world_point(step.x)];
    step_points.extend(
        step.simplex
            .iter()
            .take(4)
            .map(|v| space.world_point(v.point.w)),
    );
    step_points.extend(step.support.map(|s| space.world_point(s.point.w)));
    sketch.step = Framing {
        points: step_points,
        min_radius: space.radius * 0.05,
        grown_to: Vec::new(),
    };
    // The newest part: the origin, the new support and the new iterate.
    let mut newest = vec![origin, space.world_point(step.x)];
    newest.extend(step.support.map(|s| space.world_point(s.point.w)));
    sketch.newest = Some(Framing {
        points: newest,
        min_radius: space.radius * 1e-6,
        grown_to: Vec::new(),
    });

    if layers.simplex {
        simplex(context, step, &mut sketch);
    }
    if layers.plane {
        support_plane(context, step, &mut sketch);
    }
    if let Some(s) = step.support {
        let s_world = space.world_point(s.point.w);
        if layers.support_direction {
            // −d: the direction whose support was taken, drawn from the origin.
            let dir = -space.world_direction(step.direction).normalize_or_zero();
            let length = (space.radius.max(0.2) * 0.8).min(size * 30.0);
            sketch.arrow(origin, origin + dir * length, COLOUR_SUPPORT);
            sketch.label(origin + dir * length, direction_label, COLOUR_SUPPORT);
            sketch.marker(s_world, 1.3, COLOUR_SUPPORT);
            sketch.label(
                s_world,
                format!("s = w{}", subscript(s.id as usize)),
                COLOUR_SUPPORT,
            );
        }
        // The support's parts, unless the simplex's pairs below already show them.
        let in_simplex = (layers.simplex || (layers.support_parts && !layers.difference))
            && step.simplex.iter().any(|v| v.id == s.id);
        if layers.support_parts && !in_simplex {
            let a = pose_a.transform_point(s.point.a);
            let b = pose_a.transform_point(s.point.b);
            sketch.marker(a, 1.3, COLOUR_A_PART);
            sketch.marker(b, 1.3, COLOUR_B_PART);
            sketch.line(a, b, COLOUR_SUPPORT.with_alpha(0.6));
            sketch.label(a, "a", COLOUR_A_PART);
            sketch.label(b, "b", COLOUR_B_PART);
        }
    }
    // The simplex's pairs on the shapes: with the simplex, or alone when A ⊖ B is hidden
    // (a page about the witness points on the shapes themselves).
    let pairs_alone = layers.support_parts && !layers.difference;
    if (layers.support_parts && layers.simplex) || pairs_alone {
        vertex_pairs(context, step, &mut sketch);
    }
    if layers.iterate {
        let x = space.world_point(step.x);
        sketch.line(origin, x, COLOUR_ITERATE);
        sketch.marker(x, 1.1, COLOUR_ITERATE);
        sketch.label(x, format!("x{}", subscript(number)), COLOUR_ITERATE);
    }
    if let Some(summary) = summary.filter(|_| layers.witness) {
        witnesses(context, summary, &mut sketch);
    }
    sketch
}

/// The simplex's points (labelled w_i, but for the new support, which the support layer
/// names "s = w_k"), its edges, and its faces (every triple of at most four points).
fn simplex(context: &SketchContext, step: &DistanceStep, sketch: &mut Sketch) {
    let (layers, space) = (&context.layers, &context.space);
    let points: Vec<(DVec3, u32)> = step
        .simplex
        .iter()
        .map(|v| (space.world_point(v.point.w), v.id))
        .collect();
    for (i, (p, id)) in points.iter().enumerate() {
        sketch.marker(*p, 1.0, COLOUR_SIMPLEX);
        let support_labelled =
            layers.support_direction && step.support.is_some_and(|s| s.id == *id);
        if layers.labels && (points.len() <= 8 || i < 8) && !support_labelled {
            sketch.label(*p, format!("w{}", subscript(*id as usize)), COLOUR_SIMPLEX);
        }
        for (q, _) in points.iter().skip(i + 1).take(3) {
            if points.len() <= 4 {
                sketch.line(*p, *q, COLOUR_SIMPLEX);
            }
        }
    }
    let corners: Vec<DVec3> = points.iter().take(4).map(|(p, _)| *p).collect();
    let mut triangles = Vec::new();
    if corners.len() >= 3 {
        for i in 0..corners.len() {
            for j in i + 1..corners.len() {
                for k in j + 1..corners.len() {
                    triangles.push([corners[i], corners[j], corners[k]]);
                }
            }
        }
    }
    if !triangles.is_empty() {
        sketch.faces.push(Faces {
            triangles,
            colour: COLOUR_SIMPLEX.with_alpha(0.35),
        });
    }
}

/// Each simplex vertex w_i = a_i − b_i as its pair of points, a_i on A and b_i on B,
/// one colour per pair (Box2D's shape-distance sample draws them so): where on the two
/// shapes each point of the simplex comes from.
fn vertex_pairs(context: &SketchContext, step: &DistanceStep, sketch: &mut Sketch) {
    for (i, v) in step.simplex.iter().take(4).enumerate() {
        let colour = PAIR_COLOURS[i % PAIR_COLOURS.len()];
        let a = context.pose_a.transform_point(v.point.a);
        let b = context.pose_a.transform_point(v.point.b);
        sketch.marker(a, 1.2, colour);
        sketch.marker(b, 1.2, colour);
        sketch.line(a, b, colour.with_alpha(0.5));
        let id = subscript(v.id as usize);
        sketch.label(a, format!("a{id}"), colour);
        sketch.label(b, format!("b{id}"), colour);
    }
}

/// The step's support plane in `A ⊖ B`: through its support w, perpendicular to the
/// direction d the support was taken against, at ω = ⟨d, w⟩/∥d∥ from the origin (d = x
/// for GJK). Every point of `A ⊖ B` lies on the far side, so when ω > 0 the plane
/// separates the origin from `A ⊖ B` and ω is a lower bound of the distance. Drawn as
/// a square with its diagonals and the foot of the perpendicular from O.
fn support_plane(context: &SketchContext, step: &DistanceStep, sketch: &mut Sketch) {
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
    let space = &context.space;
    let foot = n * omega;
    let (u, v) = n.any_orthonormal_pair();
    // As large as the step's news: the support's offset from the foot, the iterate.
    let half = 1.5
        * (s.point.w - foot)
            .length()
            .max(step.x.length())
            .max(omega.abs());
    let corner = |a: f64, b: f64| space.world_point(foot + u * (a * half) + v * (b * half));
    let ring = [
        corner(-1.0, -1.0),
        corner(1.0, -1.0),
        corner(1.0, 1.0),
        corner(-1.0, 1.0),
    ];
    let colour = if omega > 0.0 {
        COLOUR_WITNESS
    } else {
        COLOUR_SUPPORT
    };
    for i in 0..4 {
        sketch.line(ring[i], ring[(i + 1) % 4], colour);
    }
    sketch.line(ring[0], ring[2], colour.with_alpha(0.35));
    sketch.line(ring[1], ring[3], colour.with_alpha(0.35));
    sketch.line(
        space.world_point(DVec3::ZERO),
        space.world_point(foot),
        colour.with_alpha(0.6),
    );
    let text = if omega > 0.0 {
        format!("plane ω = {:.3e}", Below(omega))
    } else {
        "plane (does not separate O)".to_string()
    };
    sketch.label(ring[2], text, colour);
}

/// The run's witness points on A and B joined by the distance segment, labelled with
/// the distance: as a measurement when a separating plane brackets it, otherwise as the
/// upper bound it is.
fn witnesses(context: &SketchContext, summary: &RunSummary, sketch: &mut Sketch) {
    let (Some(a), Some(b)) = (summary.witness_a, summary.witness_b) else {
        return;
    };
    let (a, b) = (
        context.pose_a.transform_point(a),
        context.pose_a.transform_point(b),
    );
    sketch.line(a, b, COLOUR_WITNESS);
    sketch.marker(a, 1.5, COLOUR_WITNESS);
    sketch.marker(b, 1.5, COLOUR_WITNESS);
    if let Some(d) = summary.outcome.distance() {
        let lower = summary.outcome.lower_bound().unwrap_or(f64::NEG_INFINITY);
        sketch.label(
            (a + b) * 0.5,
            format!("d = {:.6}", Within(lower, d)),
            COLOUR_WITNESS,
        );
    }
}
