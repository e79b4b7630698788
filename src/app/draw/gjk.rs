//! GJK in focus: the shared distance drawing, its support direction labelled as the
//! momentum direction `−d` on accelerated steps and `−x` on plain ones.

use crate::app::draw::common::records_at_cursor;
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
    let Some(at) = records_at_cursor(&view.model, view.cursor.cursor, Trace::as_gjk) else {
        return;
    };
    let run = at.run;
    let record = at.record();
    let label = if record.momentum { "−d" } else { "−x" };
    let summary = at.at_end().then_some(&run.summary);
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
