//! Live plots: each enabled method's residual per step (log scale: the Frank-Wolfe
//! duality gap for the distance families, upper − lower for a depth, each family's
//! named by [`crate::solver::family::BoundNames::residual`]), and the focused
//! run's upper and lower bounds. Both read the records through the `Record` trait.

use bevy_egui::egui;
use egui_plot::{HLine, Line, Plot, PlotPoints, VLine};

use crate::app::companion::{self, log10_floor, CompanionState, PlotView};
use crate::app::model::ViewerModel;
use crate::app::plot_legend::{legend_row, Entry, Swatch};
use crate::app::theme::Theme;
use crate::solver::family::LogScale;
use crate::solver::trace::{PlotValues, Trace};

/// `(k, f(values))` for every record of `trace` where `f` is finite.
fn series(trace: &Trace, f: impl Fn(PlotValues) -> f64) -> Vec<[f64; 2]> {
    trace
        .records()
        .map(|r| [r.k() as f64, f(r.plot_values())])
        .filter(|p| p[1].is_finite())
        .collect()
}

/// What the left plot's curves measure, once per family among the enabled runs (a
/// time of impact's curve is its bracket's width, not a duality gap).
fn residual_names(model: &ViewerModel) -> Vec<&'static str> {
    let mut names = Vec::new();
    for r in model.runs() {
        let name = r.run.trace.family().bounds().residual;
        if !names.contains(&name) {
            names.push(name);
        }
    }
    names
}

/// A plot's height from the cursor down to `bottom` (the panel's), at least enough to
/// read: the panel then scrolls.
pub fn rest_of(ui: &egui::Ui, bottom: f32) -> f32 {
    (bottom - ui.cursor().top()).max(60.0)
}

/// The tolerance line's colour (blue of the Okabe-Ito palette).
const EPSILON_BLUE: egui::Color32 = egui::Color32::from_rgb(0, 114, 178);

pub fn plots_ui(
    ui: &mut egui::Ui,
    model: &ViewerModel,
    theme: Theme,
    state: &CompanionState,
    cursor: usize,
    bounds_log: &mut bool,
) {
    let current_k = model
        .focused_trace()
        .and_then(|t| t.record(cursor.min(t.len().saturating_sub(1))))
        .map_or(0.0, |r| r.k() as f64);
    let width = ui.available_width() / 2.0 - 8.0;
    // The panel's height below this point: each column's legend rows take their part
    // and the plot the rest (a column inside a row does not see the panel's height).
    let bottom = ui.max_rect().bottom() - 6.0;
    ui.horizontal(|ui| {
        ui.vertical(|ui| {
            ui.set_width(width);
            // What the curves are, said above the plot: a vertical axis title that long
            // is clipped at laptop sizes.
            let residuals = residual_names(model);
            // Body size, as the right plot's choices beside it: readable from the
            // back row; the legend follows in the same wrapped row.
            let caption = format!(
                "per step, log₁₀: {}; grey line: this step.",
                residuals.join("; ")
            );
            let curves: Vec<_> = (model.runs().iter())
                .map(|r| series(&r.run.trace, |v| log10_floor(v.residual)))
                .collect();
            let settings = &model.pair_scene().settings;
            let epsilon = (settings.tolerance > 0.0).then_some(settings.tolerance);
            let mut entries: Vec<Entry> = (model.runs().iter())
                .map(|r| {
                    let color = theme.method_color(r.run.method);
                    Entry::new(r.run.method.label(), color, Swatch::Solid)
                })
                .collect();
            if let Some(eps) = epsilon {
                entries.push(Entry::new(
                    format!("ε = {eps:e}"),
                    EPSILON_BLUE,
                    Swatch::Dashed,
                ));
            }
            legend_row(ui, Some(&caption), &entries);
            Plot::new("duality-gap")
                .height(rest_of(ui, bottom))
                .x_axis_label("iteration k")
                // The caption above says what the curves are; a longer vertical
                // title runs past a short plot at projector size.
                .y_axis_label("log₁₀")
                .y_axis_formatter(|mark, _| format!("1e{:.0}", mark.value))
                .y_grid_spacer(egui_plot::log_grid_spacer(10))
                .show(ui, |plot| {
                    for (r, points) in model.runs().iter().zip(curves) {
                        plot.line(
                            Line::new(r.run.method.label(), points)
                                .color(theme.method_color(r.run.method))
                                .width(2.5),
                        );
                    }
                    // Unnamed, so the legend holds the curves only (the caption says it).
                    plot.vline(VLine::new("", current_k).color(egui::Color32::DARK_GRAY));
                    // The tolerance the gaps are tested against (a distance run stops on
                    // its criterion at ε: with the duality gap, where its curve crosses).
                    if let Some(eps) = epsilon {
                        plot.hline(
                            HLine::new(format!("ε = {eps:e}"), eps.log10())
                                .color(EPSILON_BLUE)
                                .style(egui_plot::LineStyle::dashed_loose()),
                        );
                    }
                });
        });
        ui.vertical(|ui| {
            ui.set_width(width);
            ui.horizontal(|ui| {
                let names = model.focused_family().bounds();
                ui.radio_value(bounds_log, true, names.log_choice);
                ui.radio_value(bounds_log, false, names.linear_choice);
            });
            bounds_plot_ui(ui, model, state, theme, current_k, bottom, *bounds_log);
        });
    });
}

/// The focused run's upper and lower bounds, as they are or on a log scale: for a
/// distance, their gaps to d* (a GJK run to 1e-13, else the smallest distance any
/// enabled run certified); for a depth, upper − lower. On the log choice a family's companion may show its own plot
/// instead (the time of impact's motion, the interior point's barrier).
#[allow(clippy::too_many_arguments)]
fn bounds_plot_ui(
    ui: &mut egui::Ui,
    model: &ViewerModel,
    state: &CompanionState,
    theme: Theme,
    current_k: f64,
    bottom: f32,
    log: bool,
) {
    let Some(focused) = model.focused_run() else {
        return;
    };
    let view = PlotView {
        model,
        state,
        color: theme.method_color(focused.run.method),
        current_k,
        bottom,
    };
    if log && companion::plot_ui(ui, &view) {
        return;
    }
    let trace = &focused.run.trace;
    let color = theme.method_color(focused.run.method);
    let names = trace.family().bounds();
    // d*: a GJK run's to 1e-13 (the model's reference), else the smallest distance a
    // distance run certified (EPA's signed answers aside).
    let d_hat = model.reference_distance.unwrap_or_else(|| {
        model
            .runs()
            .iter()
            .filter(|r| r.run.trace.family().answers_distance())
            .filter_map(|r| r.run.summary.outcome.distance())
            .fold(f64::INFINITY, f64::min)
    });
    let mut plot = Plot::new("bounds").x_axis_label("iteration k");
    plot = if log {
        // The choice above the plot names the curves ("log: ∥x_k∥ − d* and d* − α");
        // a longer vertical title runs past a short plot at projector size.
        plot.y_axis_label("log₁₀")
            .y_axis_formatter(|mark, _| format!("1e{:.0}", mark.value))
            .y_grid_spacer(egui_plot::log_grid_spacer(10))
    } else {
        plot.y_axis_label(names.axis)
    };
    let (upper, lower, upper_name, lower_name) = match (log, names.log) {
        (false, _) => (
            series(trace, |v| v.upper),
            series(trace, |v| v.lower),
            names.upper,
            names.lower,
        ),
        (true, LogScale::Upper) => (
            series(trace, |v| log10_floor(v.upper)),
            Vec::new(),
            names.log_upper,
            names.log_lower,
        ),
        (true, LogScale::Width) => (
            series(trace, |v| log10_floor(v.upper - v.lower)),
            Vec::new(),
            names.log_upper,
            names.log_lower,
        ),
        (true, _) if d_hat.is_finite() => (
            series(trace, |v| log10_floor(v.upper - d_hat)),
            series(trace, |v| log10_floor(d_hat - v.lower)),
            names.log_upper,
            names.log_lower,
        ),
        (true, _) => (Vec::new(), Vec::new(), names.log_upper, names.log_lower),
    };
    let mut entries = vec![Entry::new(upper_name, color, Swatch::Solid)];
    if !lower_name.is_empty() {
        let lower_color = color.gamma_multiply(0.5);
        entries.push(Entry::new(lower_name, lower_color, Swatch::Dashed));
    }
    legend_row(ui, None, &entries);
    let plot = plot.height(rest_of(ui, bottom));
    plot.show(ui, |plot| {
        let (upper, lower) = (PlotPoints::from(upper), PlotPoints::from(lower));
        plot.line(Line::new(upper_name, upper).color(color).width(2.5));
        if !lower_name.is_empty() {
            plot.line(
                Line::new(lower_name, lower)
                    .color(color.gamma_multiply(0.5))
                    .width(2.5)
                    .style(egui_plot::LineStyle::dashed_loose()),
            );
        }
        plot.vline(VLine::new("", current_k).color(egui::Color32::DARK_GRAY));
    });
}
