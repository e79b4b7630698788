//! EPA in focus: the core's picture of the expansion (`crate::sketch::epa_sketch`): the
//! polytope inside `A ⊖ B` (translucent faces, edges), its face nearest the origin with
//! the normal, the support along it, the horizon, and at the end the penetration vector
//! between the witness points on the shapes.

use bevy::prelude::*;

use crate::app::draw::sketch::{self, SketchTarget};
use crate::app::draw::{family_in_focus, DrawStep, StepView};
use crate::app::state::ViewerSet;
use crate::solver::epa::{self, EpaTrace};

pub const COMPANION: super::Companion = super::Companion {
    family: epa::FAMILY,
    draw: plugin,
    plot: None,
    playback_section: None,
    methods_section: None,
    result_lines: None,
};

fn plugin(app: &mut App) {
    app.add_systems(
        Update,
        draw_expansion
            .run_if(family_in_focus(epa::FAMILY))
            .in_set(DrawStep)
            .in_set(ViewerSet::Draw),
    );
}

fn draw_expansion(view: StepView, mut target: SketchTarget) {
    let Some(run) = view.model.focused_run().map(|r| &r.run) else {
        return;
    };
    let Some(trace) = run.trace.get::<EpaTrace>() else {
        return;
    };
    let context = sketch::context(&view);
    let picture = crate::sketch::epa_sketch(run, trace, view.cursor.cursor, &context);
    target.draw(&picture, view.marker.0);
}
