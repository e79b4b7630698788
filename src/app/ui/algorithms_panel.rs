//! Which algorithms run, with what settings, which one is in focus, and how each did.

use bevy_egui::egui;

use crate::app::model::ViewerModel;
use crate::app::StatusLine;
use crate::solver::catalog;
use crate::solver::{Algorithm, Criterion, CriterionKind, InitialGuess, Method, Outcome};

/// The name shown in panels and plot legends (the catalog's label).
pub fn display_name(a: Algorithm) -> &'static str {
    a.label()
}

/// The algorithm's colour in panels and plots (the catalog's).
pub fn algorithm_color(a: Algorithm) -> egui::Color32 {
    let [r, g, b] = catalog::info(Method::Solver(a)).colour;
    egui::Color32::from_rgb(r, g, b)
}

/// The outcome in words (its `Display`).
pub fn outcome_text(o: &Outcome) -> String {
    o.to_string()
}

pub fn algorithms_panel_ui(ui: &mut egui::Ui, model: &mut ViewerModel, status: &mut StatusLine) {
    ui.strong("Algorithms (the selected radio is in focus)");
    for a in Algorithm::ALL {
        ui.horizontal(|ui| {
            let mut on = model.enabled().contains(&a);
            if ui
                .radio(model.focus == a && !model.epa_focus, "")
                .on_hover_text("focus: drawn in 3-D")
                .clicked()
            {
                model.set_focus(a);
            }
            let label = egui::RichText::new(display_name(a)).color(algorithm_color(a));
            if ui.checkbox(&mut on, label).changed() {
                model.set_enabled(a, on);
            }
        });
    }
    ui.horizontal(|ui| {
        if ui
            .radio(model.epa_focus, "")
            .on_hover_text("focus: EPA's polytope drawn in 3-D")
            .clicked()
        {
            model.set_epa_focus(true);
        }
        let epa = catalog::info(Method::Epa);
        let [r, g, b] = epa.colour;
        let label = egui::RichText::new(epa.label).color(egui::Color32::from_rgb(r, g, b));
        let mut on = model.epa_enabled();
        if ui
            .checkbox(&mut on, label)
            .on_hover_text("GJK, then EPA's expansions when the shapes overlap")
            .changed()
        {
            model.set_epa_enabled(on);
        }
    });
    ui.separator();
    settings_ui(ui, model, status);
    ui.separator();
    results_ui(ui, model);
}

fn settings_ui(ui: &mut egui::Ui, model: &mut ViewerModel, status: &mut StatusLine) {
    ui.strong("Settings");
    let mut warm = model.warm_start;
    if ui
        .checkbox(&mut warm, "warm start from the previous pose")
        .on_hover_text(
            "each run starts along the last iterate of the run before (off: the reference counts)",
        )
        .changed()
    {
        model.set_warm_start(warm);
    }
    let mut s = model.scene.settings;
    let mut changed = false;
    ui.horizontal(|ui| {
        ui.label("tolerance ε");
        changed |= ui
            .add(
                egui::Slider::new(&mut s.tolerance, 1e-14..=1e-1)
                    .logarithmic(true)
                    .custom_formatter(|v, _| format!("{v:.0e}")),
            )
            .changed();
    });
    ui.horizontal(|ui| {
        ui.label("criterion");
        egui::ComboBox::from_id_salt("criterion")
            .selected_text(format!("{:?}", s.criterion))
            .show_ui(ui, |ui| {
                for c in [
                    Criterion::VanDenBergen,
                    Criterion::DualityGap,
                    Criterion::Hybrid,
                ] {
                    changed |= ui
                        .selectable_value(&mut s.criterion, c, format!("{c:?}"))
                        .changed();
                }
            });
        changed |= ui
            .radio_value(&mut s.kind, CriterionKind::Absolute, "absolute")
            .changed();
        changed |= ui
            .radio_value(&mut s.kind, CriterionKind::Relative, "relative")
            .changed();
    });
    ui.horizontal(|ui| {
        ui.label("iteration cap");
        changed |= ui
            .add(egui::DragValue::new(&mut s.max_iterations).range(1..=100_000))
            .changed();
    });
    ui.horizontal(|ui| {
        ui.label("initial guess");
        let name = match s.initial_guess {
            InitialGuess::CentreDifference => "c_A − c_B",
            InitialGuess::OriginDifference => "t_A − t_B",
            InitialGuess::UnitX => "(1, 0, 0)",
            InitialGuess::Direction(_) => "given",
        };
        egui::ComboBox::from_id_salt("guess")
            .selected_text(name)
            .show_ui(ui, |ui| {
                changed |= ui
                    .selectable_value(
                        &mut s.initial_guess,
                        InitialGuess::CentreDifference,
                        "c_A − c_B",
                    )
                    .changed();
                changed |= ui
                    .selectable_value(
                        &mut s.initial_guess,
                        InitialGuess::OriginDifference,
                        "t_A − t_B",
                    )
                    .changed();
                changed |= ui
                    .selectable_value(&mut s.initial_guess, InitialGuess::UnitX, "(1, 0, 0)")
                    .changed();
            });
    });
    if changed {
        if let Err(e) = model.set_settings(s) {
            status.error(e);
        }
    }
}

fn results_ui(ui: &mut egui::Ui, model: &mut ViewerModel) {
    ui.horizontal(|ui| {
        ui.strong("Results on this pose");
        if ui
            .button("time this pose")
            .on_hover_text("measure µs per query of each algorithm (untraced), once")
            .clicked()
        {
            model.time_this_pose();
        }
    });
    egui::Grid::new("results").striped(true).show(ui, |ui| {
        ui.label("algorithm");
        ui.label("iter.");
        ui.label("supports");
        ui.label("µs/query");
        ui.end_row();
        for r in model.runs() {
            let a = r.run.algorithm;
            ui.colored_label(algorithm_color(a), display_name(a));
            ui.label(r.run.summary.iterations.to_string());
            ui.label(r.run.summary.stats.calls.to_string());
            ui.label(
                r.micros_per_query
                    .map_or("—".to_string(), |t| format!("{t:.2}")),
            );
            ui.end_row();
        }
    });
    for r in model.runs() {
        ui.label(
            egui::RichText::new(format!(
                "{}: {}",
                display_name(r.run.algorithm),
                outcome_text(&r.run.summary.outcome)
            ))
            .color(algorithm_color(r.run.algorithm)),
        );
        if let Some(k) = r.run.summary.momentum_stopped_at {
            ui.label(format!("   momentum stopped at iteration {k}"));
        }
    }
    if let Some(epa) = model.epa() {
        let [r, g, b] = catalog::info(Method::Epa).colour;
        ui.label(
            egui::RichText::new(format!(
                "EPA: {}; {} expansions, {} support calls",
                epa.outcome, epa.iterations, epa.support_calls
            ))
            .color(egui::Color32::from_rgb(r, g, b)),
        );
    }
}
