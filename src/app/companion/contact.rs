//! A contact manifold in focus: the core's picture of the step
//! (`crate::sketch::contact_sketch`): the reference face and the incident feature, the
//! normal, the side planes and the polygon they leave, the depths, and the kept,
//! dropped and certified points.

use bevy::prelude::*;

use crate::app::draw::common::records_at_cursor;
use crate::app::draw::sketch::{self, SketchTarget};
use crate::app::draw::{family_in_focus, DrawStep, StepView};
use crate::app::state::ViewerSet;
use crate::solver::contact;
use crate::solver::contact::record::ContactRecord;
use crate::solver::trace::Trace;

pub const COMPANION: super::Companion = super::Companion {
    family: contact::kind::FAMILY,
    draw: plugin,
    plot: None,
    playback_section: None,
    methods_section: None,
    result_lines: None,
};

fn plugin(app: &mut App) {
    app.add_systems(
        Update,
        draw_manifold
            .run_if(family_in_focus(contact::kind::FAMILY))
            .in_set(DrawStep)
            .in_set(ViewerSet::Draw),
    );
}

fn draw_manifold(view: StepView, mut target: SketchTarget) {
    let Some(at) = records_at_cursor(
        &view.model,
        view.cursor.cursor,
        Trace::steps::<ContactRecord>,
    ) else {
        return;
    };
    let context = sketch::context(&view);
    if let Some(picture) = crate::sketch::contact_sketch(at.run, at.records, at.index, &context) {
        target.draw(&picture, view.marker.0);
    }
}
