//! GJK in focus: the shared distance drawing, its support direction labelled as the
//! momentum direction `−d` on accelerated steps and `−x` on plain ones.

use crate::app::draw::common::records_at_cursor;
use bevy::prelude::*;

use super::common::draw_distance_step;
use super::{family_in_focus, DrawStep, StepView, ViewLabels, COLOR_SIMPLEX};
use crate::app::camera::StepBounds;
use crate::app::state::ViewerSet;
use crate::solver::trace::Trace;
use crate::solver::GjkEvent;
use crate::solver::{gjk, GjkRecord};

pub(super) fn plugin(app: &mut App) {
    app.add_systems(
        Update,
        draw_gjk_step
            .run_if(family_in_focus(gjk::FAMILY))
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
    let Some(at) = records_at_cursor(&view.model, view.cursor.cursor, Trace::steps::<GjkRecord>)
    else {
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
    // The vertices this step dropped, ghosted where they were, with the edges that
    // joined them to the simplex: the tetrahedron (or triangle) before the reduction
    // stays visible beside what was kept.
    if let (GjkEvent::Projected { dropped, .. }, true, Some(index)) =
        (&record.event, view.layers.simplex, at.index.checked_sub(1))
    {
        let before = &at.records[index].step.simplex;
        let ghost = COLOR_SIMPLEX.with_alpha(0.35);
        let kept: Vec<Vec3> = record
            .step
            .simplex
            .iter()
            .map(|v| view.frame.world_point(v.point.w))
            .collect();
        for v in before.iter().filter(|v| dropped.contains(&v.id)) {
            let p = view.frame.world_point(v.point.w);
            // "Frame step" keeps the dropped vertices in view: the step is about them.
            step_bounds.include(p);
            gizmos.sphere(Isometry3d::from_translation(p), view.marker.0 * 0.8, ghost);
            for q in &kept {
                gizmos.line(p, *q, ghost);
            }
            labels.0.push((
                p,
                format!(
                    "w{} dropped",
                    crate::solver::narration::subscript(v.id as usize)
                ),
                ghost,
            ));
        }
    }
}
