//! The interior point in focus: the iterates x_k inside A and y_k inside B as two paths
//! (the central path) converging to the closest points, the segment between them at
//! the cursor's step, and at the end the witness points (or the common point). Its plot:
//! the barrier parameter, the dual residual and the bracket per Newton step.

use crate::app::draw::common::records_at_cursor;
use crate::printed_bound::Within;
use bevy::prelude::*;
use bevy_egui::egui;
use egui_plot::{Legend, Line, Plot, PlotPoints, VLine};

use super::{log10_floor, PlotView};
use crate::app::camera::StepBounds;
use crate::app::draw::{family_in_focus, DrawStep, StepView, ViewLabels, COLOR_WITNESS};
use crate::app::state::ViewerSet;
use crate::solver::interior_point::{self, IpRecord};
use crate::solver::trace::Trace;
use crate::solver::Outcome;

const COLOR_ON_A: Color = Color::srgb(0.10, 0.30, 0.75);
const COLOR_ON_B: Color = Color::srgb(0.80, 0.35, 0.05);
const COLOR_GAP: Color = Color::srgb(0.0, 0.33, 0.58);

pub const COMPANION: super::Companion = super::Companion {
    family: interior_point::FAMILY,
    draw: plugin,
    plot: Some(plot_ui),
    playback_section: None,
    methods_section: None,
    result_lines: None,
};

/// The barrier plot when the focused run is an interior point's.
fn plot_ui(ui: &mut egui::Ui, view: &PlotView) -> bool {
    let Some(focused) = view.model.focused_run() else {
        return false;
    };
    let Some(records) = focused.run.trace.steps::<IpRecord>() else {
        return false;
    };
    barrier_plot_ui(ui, records, view.color, view.current_k, view.height);
    true
}

fn plugin(app: &mut App) {
    app.add_systems(
        Update,
        draw_central_path
            .run_if(family_in_focus(interior_point::FAMILY))
            .in_set(DrawStep)
            .in_set(ViewerSet::Draw),
    );
}

fn draw_central_path(
    view: StepView,
    mut labels: ResMut<ViewLabels>,
    mut step_bounds: ResMut<StepBounds>,
    mut gizmos: Gizmos,
) {
    let model = &view.model;
    let Some(at) = records_at_cursor(model, view.cursor.cursor, Trace::steps::<IpRecord>) else {
        return;
    };
    let (run, last) = (at.run, at.last);
    let pose_a = model.pair_scene().a().pose;
    let world = |p: glam::DVec3| pose_a.transform_point(p).as_vec3();
    let size = view.marker.0;
    let i = at.index;
    // The paths so far: x_0 … x_k in A, y_0 … y_k in B.
    let path_a: Vec<Vec3> = at.so_far().iter().map(|r| world(r.x)).collect();
    let path_b: Vec<Vec3> = at.so_far().iter().map(|r| world(r.y)).collect();
    gizmos.linestrip(path_a.iter().copied(), COLOR_ON_A);
    gizmos.linestrip(path_b.iter().copied(), COLOR_ON_B);
    for (p, q) in path_a.iter().zip(&path_b) {
        gizmos.sphere(Isometry3d::from_translation(*p), size * 0.6, COLOR_ON_A);
        gizmos.sphere(Isometry3d::from_translation(*q), size * 0.6, COLOR_ON_B);
    }
    let (x, y) = (path_a[i], path_b[i]);
    gizmos.sphere(Isometry3d::from_translation(x), size * 1.3, COLOR_ON_A);
    gizmos.sphere(Isometry3d::from_translation(y), size * 1.3, COLOR_ON_B);
    gizmos.line(x, y, COLOR_GAP);
    labels.0.push((
        x,
        format!("x{}", crate::solver::narration::subscript(i)),
        COLOR_ON_A,
    ));
    labels.0.push((
        y,
        format!("y{}", crate::solver::narration::subscript(i)),
        COLOR_ON_B,
    ));
    if i == last {
        let colour = COLOR_WITNESS;
        match run.summary.outcome {
            Outcome::Intersecting => {
                let m = (x + y) * 0.5;
                gizmos.sphere(Isometry3d::from_translation(m), size * 2.0, colour);
                labels.0.push((m, "common point".into(), colour));
            }
            Outcome::Separated {
                distance,
                lower_bound,
            } => {
                gizmos.line(x, y, colour);
                let text = format!("d = {:.6}", Within(lower_bound, distance));
                labels.0.push(((x + y) * 0.5, text, colour));
            }
            _ => {}
        }
    }
    *step_bounds = StepBounds::around([x, y], view.frame.radius * 0.05);
}

/// An interior point in focus, per Newton step on a log scale: the barrier parameter μ,
/// the dual residual's norm and the width of the certified bracket.
fn barrier_plot_ui(
    ui: &mut egui::Ui,
    records: &[crate::solver::interior_point::IpRecord],
    color: egui::Color32,
    current_k: f64,
    height: f32,
) {
    let line = |f: &dyn Fn(&crate::solver::interior_point::IpRecord) -> f64| -> PlotPoints {
        records
            .iter()
            .map(|r| [r.k as f64, f(r)])
            .filter(|p| p[1].is_finite())
            .map(|[k, v]| [k, log10_floor(v)])
            .collect()
    };
    Plot::new("barrier")
        .height(height)
        .legend(Legend::default().text_style(egui::TextStyle::Body))
        .x_axis_label("Newton step k")
        .y_axis_label("log₁₀")
        .y_axis_formatter(|mark, _| format!("1e{:.0}", mark.value))
        .show(ui, |plot| {
            plot.line(Line::new("μ", line(&|r| r.mu)).color(color).width(2.5));
            plot.line(
                Line::new("dual residual", line(&|r| r.dual_residual))
                    .color(color.gamma_multiply(0.6))
                    .width(2.0)
                    .style(egui_plot::LineStyle::dashed_loose()),
            );
            plot.line(
                Line::new("bracket upper − lower", line(&|r| r.upper - r.lower))
                    .color(egui::Color32::from_rgb(0, 158, 115))
                    .width(2.0),
            );
            plot.vline(VLine::new("", current_k).color(egui::Color32::DARK_GRAY));
        });
}
