//! The interior point in focus: the core's picture of the step
//! (`crate::sketch::interior_point_sketch`: the central path inside A and B, the segment
//! at the step, the witnesses or the common point). Its plot: the barrier parameter,
//! the dual residual and the bracket per Newton step.

use crate::app::draw::common::records_at_cursor;
use bevy::prelude::*;
use bevy_egui::egui;
use egui_plot::{Line, Plot, PlotPoints, VLine};

use crate::app::plot_legend::{legend_row, Entry, Swatch};

/// The bracket's colour (green of the Okabe-Ito palette).
const BRACKET_GREEN: egui::Color32 = egui::Color32::from_rgb(0, 158, 115);

use super::{log10_floor, PlotView};
use crate::app::draw::sketch::{self, SketchTarget};
use crate::app::draw::{family_in_focus, DrawStep, StepView};
use crate::app::state::ViewerSet;
use crate::solver::interior_point::{self, IpRecord};
use crate::solver::trace::Trace;

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
    barrier_plot_ui(ui, records, view.color, view.current_k, view.bottom);
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

fn draw_central_path(view: StepView, mut target: SketchTarget) {
    let Some(at) = records_at_cursor(&view.model, view.cursor.cursor, Trace::steps::<IpRecord>)
    else {
        return;
    };
    let context = sketch::context(&view);
    if let Some(picture) =
        crate::sketch::interior_point_sketch(at.run, at.records, at.index, &context)
    {
        target.draw(&picture, view.marker.0);
    }
}

/// An interior point in focus, per Newton step on a log scale: the barrier parameter μ,
/// the dual residual's norm and the width of the certified bracket.
fn barrier_plot_ui(
    ui: &mut egui::Ui,
    records: &[crate::solver::interior_point::IpRecord],
    color: egui::Color32,
    current_k: f64,
    bottom: f32,
) {
    let line = |f: &dyn Fn(&crate::solver::interior_point::IpRecord) -> f64| -> Vec<[f64; 2]> {
        records
            .iter()
            .map(|r| [r.k as f64, f(r)])
            .filter(|p| p[1].is_finite())
            .map(|[k, v]| [k, log10_floor(v)])
            .collect()
    };
    let mu = line(&|r| r.mu);
    let dual = line(&|r| r.dual_residual);
    let width = line(&|r| r.upper - r.lower);
    let (dual_color, width_color) = (color.gamma_multiply(0.6), BRACKET_GREEN);
    legend_row(
        ui,
        None,
        &[
            Entry::new("μ", color, Swatch::Solid),
            Entry::new("dual residual", dual_color, Swatch::Dashed),
            Entry::new("bracket upper − lower", width_color, Swatch::Solid),
        ],
    );
    let points = |v: Vec<[f64; 2]>| PlotPoints::from(v);
    Plot::new("barrier")
        .height(crate::app::ui::rest_of(ui, bottom))
        .x_axis_label("Newton step k")
        .y_axis_label("log₁₀")
        .y_axis_formatter(|mark, _| format!("1e{:.0}", mark.value))
        .show(ui, |plot| {
            plot.line(Line::new("μ", points(mu)).color(color).width(2.5));
            plot.line(
                Line::new("dual residual", points(dual))
                    .color(dual_color)
                    .width(2.0)
                    .style(egui_plot::LineStyle::dashed_loose()),
            );
            plot.line(
                Line::new("bracket upper − lower", points(width))
                    .color(width_color)
                    .width(2.0),
            );
            plot.vline(VLine::new("", current_k).color(egui::Color32::DARK_GRAY));
        });
}
