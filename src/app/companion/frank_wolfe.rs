//! Frank-Wolfe in focus: the core's picture of the step (`crate::sketch`): the shared
//! distance drawing over the active set, and the zig-zag path of the iterates up to
//! the cursor.

use crate::app::draw::common::records_at_cursor;
use bevy::prelude::*;

use crate::app::draw::sketch::{self, SketchTarget};
use crate::app::draw::{family_in_focus, DrawStep, StepView};
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

fn draw_frank_wolfe_step(view: StepView, mut target: SketchTarget) {
    let Some(at) = records_at_cursor(
        &view.model,
        view.cursor.cursor,
        Trace::steps::<FrankWolfeRecord>,
    ) else {
        return;
    };
    let context = sketch::context(&view);
    if let Some(picture) = crate::sketch::frank_wolfe_sketch(at.run, at.records, at.index, &context)
    {
        target.draw(&picture, view.marker.0);
    }
}
