//! Frank-Wolfe in focus: the shared distance drawing over the active set, and the
//! zig-zag path of the iterates up to the cursor.

use crate::app::draw::common::records_at_cursor;
use bevy::prelude::*;

use crate::app::camera::StepBounds;
use crate::app::draw::common::draw_distance_step;
use crate::app::draw::{
    family_in_focus, DrawStep, StepView, ViewLabels, COLOR_ITERATE, COLOR_SUPPORT,
};
use crate::app::state::ViewerSet;
use crate::solver::narration::subscript;
use crate::solver::trace::Trace;
use crate::solver::{frank_wolfe, FrankWolfeRecord};

pub const COMPANION: super::Companion = super::Companion {
    family: frank_wolfe::FAMILY,
    draw: plugin,
    plot: None,
    playback_section: None,
    methods_section: None,
    result_lines: None,
};

fn plugin(app: &mut App) {
    app.add_systems(
        Update,
        draw_frank_wolfe_step
            .run_if(family_in_focus(frank_wolfe::FAMILY))
            .in_set(DrawStep)
            .in_set(ViewerSet::Draw),
    );
}

fn draw_frank_wolfe_step(
    view: StepView,
    mut labels: ResMut<ViewLabels>,
    mut step_bounds: ResMut<StepBounds>,
    mut gizmos: Gizmos,
) {
    let Some(at) = records_at_cursor(
        &view.model,
        view.cursor.cursor,
        Trace::steps::<FrankWolfeRecord>,
    ) else {
        return;
    };
    let (run, records, index, last) = (at.run, at.records, at.index, at.last);
    if view.layers.frank_wolfe_path {
        draw_zig_zag(&view, at.so_far(), &mut labels, &mut gizmos);
    }
    let summary = (index == last).then_some(&run.summary);
    draw_distance_step(
        &view,
        (
            records[index]
                .step
                .iterate_number(index, index.checked_sub(1).map(|i| &records[i].step)),
            &records[index].step,
        ),
        "−x",
        summary,
        &mut labels,
        &mut step_bounds,
        &mut gizmos,
    );
    // Frank-Wolfe's news is its path: the newest iterates (after the start, a support
    // far off), where the zig-zag is, so "frame newest" closes in on them.
    let recent: Vec<Vec3> = at
        .so_far()
        .iter()
        .skip(1)
        .rev()
        .take(8)
        .map(|r| view.frame.world_point(r.step.x))
        .collect();
    if recent.len() >= 2 {
        let around = StepBounds::around(recent, view.frame.radius * 1e-4);
        step_bounds.newest = Some((around.centre, around.radius));
    }
}

/// The zig-zag: the iterates x₁ … x_k joined, each corner marked, and every step's
/// segment from the iterate it started at to the support it moved toward (the face's
/// corners, near the optimum), the newest strongest: x moves along those segments.
fn draw_zig_zag(
    view: &StepView,
    so_far: &[FrankWolfeRecord],
    labels: &mut ViewLabels,
    gizmos: &mut Gizmos,
) {
    let size = view.marker.0;
    let iterates: Vec<Vec3> = so_far
        .iter()
        .map(|r| view.frame.world_point(r.step.x))
        .collect();
    gizmos.linestrip(iterates.iter().copied(), COLOR_ITERATE);
    for x in &iterates {
        gizmos.sphere(Isometry3d::from_translation(*x), size * 0.6, COLOR_ITERATE);
    }
    let newest = so_far.len().saturating_sub(1);
    for (j, pair) in so_far.windows(2).enumerate() {
        let Some(support) = pair[1].step.support else {
            continue;
        };
        let (from, to) = (iterates[j], view.frame.world_point(support.point.w));
        let strength = if j + 1 == newest { 1.0 } else { 0.45 };
        if j + 1 == newest && view.layers.labels {
            // The newest segment's ends, as the text names them: [x_{k−1}, w_k].
            let name = |prefix: &str, n: usize| format!("{prefix}{}", subscript(n));
            let before = j.checked_sub(1).map(|i| &so_far[i].step);
            let named = pair[0].step.iterate_number(j, before);
            labels.0.push((from, name("x", named), COLOR_ITERATE));
            if !view.layers.support_direction {
                labels
                    .0
                    .push((to, name("w", support.id as usize), COLOR_SUPPORT));
            }
        }
        gizmos.line(from, to, COLOR_SUPPORT.with_alpha(strength));
        gizmos.sphere(
            Isometry3d::from_translation(to),
            size * 0.8,
            COLOR_SUPPORT.with_alpha(strength),
        );
    }
}
