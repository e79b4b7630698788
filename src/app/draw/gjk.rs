//! GJK in focus: the shared distance drawing, its support direction labelled as the
//! momentum direction `−d` on accelerated steps and `−x` on plain ones.

use bevy::prelude::*;

use super::common::draw_distance_step;
use super::{family_in_focus, DrawStep, StepView, ViewLabels};
use crate::app::camera::StepBounds;
use crate::app::ViewerSet;
use crate::solver::catalog::Family;
use crate::solver::trace::Trace;

pub(super) fn plugin(app: &mut App) {
    app.add_systems(
        Update,
        draw_gjk_step
            .run_if(family_in_focus(Family::Gjk))
            .in_set(DrawStep)
            .in_set(ViewerSet::Draw),
    );
}

fn draw_gjk_step(
    view: StepView,
    mut labels: ResMut<ViewLabels>,
    mut step_bounds: ResMut<StepBounds>,
    mut gizmos: Gizmos,
) {
    let Some(run) = view.model.focused_run().map(|r| &r.run) else {
        return;
    };
    let Trace::Gjk(records) = &run.trace else {
        return;
    };
    let Some(last) = records.len().checked_sub(1) else {
        return;
    };
    let index = view.cursor.cursor.min(last);
    let record = &records[index];
    let label = if record.momentum { "−d" } else { "−x" };
    let summary = (index == last).then_some(&run.summary);
    draw_distance_step(
        &view,
        &record.step,
        label,
        summary,
        &mut labels,
        &mut step_bounds,
        &mut gizmos,
    );
}
