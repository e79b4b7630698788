//! Live plots: the Frank-Wolfe duality gap per iteration (log scale) for every enabled
//! algorithm, and ‖x_k‖ with the lower bound α for the focused one.

use bevy_egui::egui;
use egui_plot::{Legend, Line, Plot, PlotPoints, VLine};

use super::algorithms_panel::{algorithm_color, display_name};
use crate::app::model::ViewerModel;

/// `log10` of a positive value, floored so zero gaps stay on the plot.
fn log10_floor(v: f64) -> f64 {
    v.max(1e-18).log10()
}

pub fn plots_ui(ui: &mut egui::Ui, model: &ViewerModel, cursor: usize, bounds_log: &mut bool) {
    let current_k = model.record_at(cursor).map_or(0.0, |r| r.k as f64);
    let height = (ui.available_height() - 10.0).max(120.0);
    let width = ui.available_width() / 2.0 - 8.0;
    ui.horizontal(|ui| {
        ui.vertical(|ui| {
            ui.set_width(width);
            Plot::new("duality-gap")
                .height(height)
                .legend(Legend::default().text_style(egui::TextStyle::Body))
                .x_axis_label("iteration k")
                .y_axis_label("FW duality gap (log₁₀)")
                .y_axis_formatter(|mark, _| format!("1e{:.0}", mark.value))
                .show(ui, |plot| {
                    for r in model.runs() {
                        let points: PlotPoints = r
                            .run
                            .trace
                            .iter()
                            .map(|rec| [rec.k as f64, log10_floor(rec.fw_gap)])
                            .collect();
                        plot.line(
                            Line::new(display_name(r.run.algorithm), points)
                                .color(algorithm_color(r.run.algorithm))
                                .width(2.5),
                        );
                    }
                    plot.vline(
                        VLine::new("current step", current_k).color(egui::Color32::DARK_GRAY),
                    );
                });
        });
        ui.vertical(|ui| {
            ui.set_width(width);
            ui.horizontal(|ui| {
                if model.epa_focus {
                    ui.radio_value(bounds_log, true, "log: upper − lower");
                    ui.radio_value(bounds_log, false, "linear: depth bounds");
                } else {
                    ui.radio_value(bounds_log, true, "log: |x_k| − d* and d* − α");
                    ui.radio_value(bounds_log, false, "linear: |x_k| and α");
                }
            });
            bounds_plot_ui(ui, model, current_k, height - 24.0, *bounds_log);
        });
    });
}

/// The focused run's upper bound |x_k| and lower bound α, either as they are or as their
/// distance to d* (the smallest distance any enabled run certified) on a log scale.
fn bounds_plot_ui(ui: &mut egui::Ui, model: &ViewerModel, current_k: f64, height: f32, log: bool) {
    if model.epa_focus {
        return epa_bounds_plot_ui(ui, model, height, log);
    }
    let Some(focused) = model.focused_run() else {
        return;
    };
    let color = algorithm_color(focused.run.algorithm);
    let d_hat = model
        .runs()
        .iter()
        .filter_map(|r| r.run.summary.outcome.distance())
        .fold(f64::INFINITY, f64::min);
    let trace = &focused.run.trace;
    let mut plot = Plot::new("bounds")
        .height(height)
        .legend(Legend::default().text_style(egui::TextStyle::Body))
        .x_axis_label("iteration k");
    plot = if log {
        plot.y_axis_label("gap to d* (log₁₀)")
            .y_axis_formatter(|mark, _| format!("1e{:.0}", mark.value))
    } else {
        plot.y_axis_label("distance bounds")
    };
    plot.show(ui, |plot| {
        let (upper, lower): (PlotPoints, PlotPoints) = if log && d_hat.is_finite() {
            (
                trace
                    .iter()
                    .map(|r| [r.k as f64, log10_floor(r.x_norm - d_hat)])
                    .collect(),
                trace
                    .iter()
                    .filter(|r| r.alpha.is_finite())
                    .map(|r| [r.k as f64, log10_floor(d_hat - r.alpha)])
                    .collect(),
            )
        } else {
            (
                trace.iter().map(|r| [r.k as f64, r.x_norm]).collect(),
                trace
                    .iter()
                    .filter(|r| r.alpha.is_finite())
                    .map(|r| [r.k as f64, r.alpha])
                    .collect(),
            )
        };
        let (upper_name, lower_name) = if log {
            ("|x_k| − d*", "d* − α")
        } else {
            ("|x_k| (upper bound)", "α (lower bound)")
        };
        plot.line(Line::new(upper_name, upper).color(color).width(2.5));
        plot.line(
            Line::new(lower_name, lower)
                .color(color.gamma_multiply(0.5))
                .width(2.5)
                .style(egui_plot::LineStyle::dashed_loose()),
        );
        plot.vline(VLine::new("current step", current_k).color(egui::Color32::DARK_GRAY));
    });
}

/// EPA in focus: the depth's bounds per expansion, the nearest face's distance below and
/// the support along its normal above (as they are, or their gap on a log scale).
fn epa_bounds_plot_ui(ui: &mut egui::Ui, model: &ViewerModel, height: f32, log: bool) {
    let Some(run) = model.epa() else {
        return;
    };
    let lower: PlotPoints = run
        .records
        .iter()
        .enumerate()
        .map(|(i, r)| [i as f64, r.lower_bound()])
        .collect();
    let upper: PlotPoints = run
        .records
        .iter()
        .enumerate()
        .map(|(i, r)| [i as f64, r.upper_bound()])
        .collect();
    let gap: PlotPoints = run
        .records
        .iter()
        .enumerate()
        .map(|(i, r)| [i as f64, log10_floor(r.upper_bound() - r.lower_bound())])
        .collect();
    let mut plot = Plot::new("epa-bounds")
        .height(height)
        .legend(Legend::default().text_style(egui::TextStyle::Body))
        .x_axis_label("expansion");
    plot = if log {
        plot.y_axis_label("upper − lower (log₁₀)")
            .y_axis_formatter(|mark, _| format!("1e{:.0}", mark.value))
    } else {
        plot.y_axis_label("penetration depth bounds")
    };
    plot.show(ui, |plot| {
        if log {
            plot.line(
                Line::new("upper − lower", gap)
                    .color(egui::Color32::from_rgb(188, 189, 34))
                    .width(2.5),
            );
        } else {
            plot.line(
                Line::new("upper: support along the normal", upper)
                    .color(egui::Color32::from_rgb(214, 39, 40))
                    .width(2.5),
            );
            plot.line(
                Line::new("lower: nearest face", lower)
                    .color(egui::Color32::from_rgb(31, 119, 180))
                    .width(2.5),
            );
        }
    });
}
