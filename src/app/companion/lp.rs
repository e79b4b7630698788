//! The LP test in focus: the core's picture of the pivot (`crate::sketch::lp_sketch`:
//! the weights' points on A and B, at the end the common point or the separating plane;
//! for containment, A's vertices inside or outside B). Beside the
//! methods, the tableau after the pivot under the cursor (`lp_tableau.rs`); in the
//! results, Kreuzer's estimate beside the collision test's answer.

use bevy::prelude::*;
use bevy_egui::egui;

use crate::app::draw::sketch::{self, SketchTarget};
use crate::app::draw::{family_in_focus, DrawStep, StepView};
use crate::app::model::ViewerModel;
use crate::app::state::ViewerSet;
use crate::solver::lp::{self, LpQuestion, LpRecord};
use crate::solver::Method;

pub const COMPANION: super::Companion = super::Companion {
    family: lp::FAMILY,
    draw: plugin,
    plot: None,
    playback_section: None,
    methods_section: Some(super::lp_tableau::tableau_ui),
    result_lines: Some(result_lines_ui),
};

/// The collision test: Kreuzer's estimate beside the answer.
fn result_lines_ui(ui: &mut egui::Ui, model: &ViewerModel, m: Method) {
    if let Some(LpQuestion::Collision(_)) = m.entry::<LpQuestion>() {
        if let Some(estimate) = kreuzer_estimate(model) {
            ui.label(format!(
                "   Kreuzer's estimate ∥b − Ax*∥₁/√3 = {estimate:.4e} (not a bound: compare GJK's distance)"
            ));
        }
    }
}

/// Kreuzer's distance estimate on the pair in focus (shapes given by their points).
fn kreuzer_estimate(model: &ViewerModel) -> Option<f64> {
    let scene = model.pair_scene();
    let (a, b) = (&scene.a().shape, &scene.b().shape);
    crate::solver::lp::kreuzer_estimate_of_shapes(a, b, &scene.b_in_a())
}

fn plugin(app: &mut App) {
    app.add_systems(
        Update,
        draw_lp_step
            .run_if(family_in_focus(lp::FAMILY))
            .in_set(DrawStep)
            .in_set(ViewerSet::Draw),
    );
}

fn draw_lp_step(view: StepView, mut target: SketchTarget) {
    let Some(run) = view.model.focused_run().map(|r| &r.run) else {
        return;
    };
    let Some(records) = run.trace.steps::<LpRecord>() else {
        return;
    };
    let context = sketch::context(&view);
    let picture = crate::sketch::lp_sketch(run, records, view.cursor.cursor, &context);
    target.draw(&picture, view.marker.0);
}
