//! GJK's companion. In focus: the shared distance drawing, its support direction
//! labelled as the momentum direction `−d` on accelerated steps and `−x` on plain ones;
//! in a planar scene the Voronoi regions of the simplex (`planar.rs`), in space the
//! region holding the origin (`regions3d.rs`). In the results: the restart rule's plan.

mod planar;
mod regions3d;

use crate::app::draw::common::records_at_cursor;
use bevy::prelude::*;
use bevy_egui::egui;

use crate::app::draw::sketch::{self, SketchTarget};
use crate::app::draw::{family_in_focus, DrawStep, StepView};
use crate::app::model::ViewerModel;
use crate::app::state::ViewerSet;
use crate::solver::trace::Trace;
use crate::solver::{gjk, GjkRecord};
use crate::solver::{restart_plan, Algorithm, DirectionRule, Method};

pub const COMPANION: super::Companion = super::Companion {
    family: gjk::FAMILY,
    draw,
    plot: None,
    playback_section: None,
    methods_section: None,
    result_lines: Some(result_lines_ui),
};

fn draw(app: &mut App) {
    app.add_plugins((plugin, planar::plugin, regions3d::plugin));
}

/// With the restart rule: when it restarts on this pair.
fn result_lines_ui(ui: &mut egui::Ui, model: &ViewerModel, m: Method) {
    if m == Method::of(Algorithm::Gjk(DirectionRule::NesterovRestart)) {
        let scene = model.pair_scene();
        let plan = restart_plan(&scene.a().shape, &scene.b().shape);
        ui.label(format!("   {plan}"));
    }
}

fn plugin(app: &mut App) {
    app.add_systems(
        Update,
        draw_gjk_step
            .run_if(family_in_focus(gjk::FAMILY))
            .in_set(DrawStep)
            .in_set(ViewerSet::Draw),
    );
}

fn draw_gjk_step(view: StepView, mut target: SketchTarget) {
    let Some(at) = records_at_cursor(&view.model, view.cursor.cursor, Trace::steps::<GjkRecord>)
    else {
        return;
    };
    let context = sketch::context(&view);
    if let Some(picture) = crate::sketch::gjk_sketch(at.run, at.records, at.index, &context) {
        target.draw(&picture, view.marker.0);
    }
}
