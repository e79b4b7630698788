//! Frank-Wolfe in focus: the shared distance drawing over the active set, and the
//! zig-zag path of the iterates up to the cursor.

use crate::app::draw::common::records_at_cursor;
use bevy::prelude::*;

use crate::app::camera::StepBounds;
use crate::app::draw::common::draw_distance_step;
use crate::app::draw::{family_in_focus, DrawStep, StepView, ViewLabels, COLOR_ITERATE};
use crate::app::state::ViewerSet;
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
        let path: Vec<Vec3> = at
            .so_far()
            .iter()
            .map(|r| view.frame.world_point(r.step.x))
            .collect();
        gizmos.linestrip(path, COLOR_ITERATE.with_alpha(0.7));
    }
    let summary = (index == last).then_some(&run.summary);
    draw_distance_step(
        &view,
        &records[index].step,
        "−x",
        summary,
        &mut labels,
        &mut step_bounds,
        &mut gizmos,
    );
}
