//! Which algorithms run, with what settings, which one is in focus, and how each did.

use bevy_egui::egui;

use crate::app::command::{PendingCommands, ViewerCommand};
use crate::app::companion;
use crate::app::model::ViewerModel;
use crate::app::theme::Theme;
use crate::solver::catalog::{self, SettingsKind};
use crate::solver::{Criterion, CriterionKind, InitialGuess, Method, Outcome, SupportRule};

/// The outcome in words (its `Display`).
pub fn outcome_text(o: &Outcome) -> String {
    o.to_string()
}

pub fn algorithms_panel_ui(
    ui: &mut egui::Ui,
    model: &ViewerModel,
    theme: Theme,
    commands: &mut PendingCommands,
) {
    // The results of the enabled methods first: they must be visible without scrolling
    // on a laptop-sized window; the catalog of methods below them may scroll. A pair
    // with a composite says the whole pair's answers and lists its sub-pairs first.
    super::composite_panel::composite_panel_ui(ui, model, theme, commands);
    results_ui(ui, model, theme, commands);
    ui.separator();
    ui.strong("Methods (the selected radio is in focus)");
    for m in Method::all() {
        let row = m.info();
        ui.horizontal(|ui| {
            let mut on = model.enabled().contains(&m);
            if ui
                .radio(model.focus() == m, "")
                .on_hover_text("focus: drawn in 3-D, narrated, plotted")
                .clicked()
            {
                commands.push(ViewerCommand::SetFocus(m));
            }
            let label = egui::RichText::new(row.label).color(theme.method_color(m));
            if ui
                .checkbox(&mut on, label)
                .on_hover_text(row.family().purpose())
                .changed()
            {
                commands.push(ViewerCommand::SetEnabled(m, on));
            }
        });
    }
    ui.separator();
    settings_ui(ui, model, commands);
}

fn settings_ui(ui: &mut egui::Ui, model: &ViewerModel, commands: &mut PendingCommands) {
    let kind = catalog::info(model.focus()).settings;
    if kind != SettingsKind::Distance {
        // The focused family's own settings; the distance solvers' follow.
        ui.strong(format!("Settings: {}", model.focus().label()));
        let mut s = model.scene.settings;
        if super::family_settings::family_settings_ui(ui, kind, &mut s) {
            commands.push(ViewerCommand::SetSettings(s));
        }
        ui.separator();
        ui.strong("Settings: the distance solvers");
    } else {
        ui.strong("Settings");
    }
    let mut warm = model.warm_start();
    if ui
        .checkbox(&mut warm, "warm start from the previous pose")
        .on_hover_text(
            "each run starts from the final simplex of the run before (off: the reference counts)",
        )
        .changed()
    {
        commands.push(ViewerCommand::SetWarmStart(warm));
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
    ui.horizontal(|ui| {
        ui.label("supports");
        changed |= ui
            .radio_value(&mut s.supports, SupportRule::Exact, "exact")
            .on_hover_text("each shape's exact support, on the whole shape")
            .changed();
        changed |= ui
            .radio_value(&mut s.supports, SupportRule::Coal, "as Coal")
            .on_hover_text(
                "Coal's conventions, so that GJK takes Coal's iterations: spheres and \
                 capsules run as their cores (a point, a segment) with the radii taken off \
                 at the end; direction components within 1e-12 of zero count as zero",
            )
            .changed();
    });
    if changed {
        commands.push(ViewerCommand::SetSettings(s));
    }
}

/// parry3d-f64 on the same pair and pose: its answer, and each run against it (green
/// within the run's certified bound, red otherwise, with both numbers and a button that
/// saves the pose as a scene for a regression test or a bug report).
fn cross_check_ui(ui: &mut egui::Ui, model: &ViewerModel) {
    use crate::cross_check::compare;
    let Some(parry) = &model.parry else {
        return;
    };
    const GREEN: egui::Color32 = egui::Color32::from_rgb(0, 158, 115);
    const RED: egui::Color32 = egui::Color32::from_rgb(213, 94, 0);
    ui.separator();
    ui.strong("Cross-check: parry3d-f64")
        .on_hover_text(parry.via);
    let depth = parry
        .depth
        .map_or(String::new(), |d| format!(", depth {d:.6e}"));
    ui.label(format!("distance {:.9e}{depth}", parry.distance));
    if let Some((a, b)) = parry.witnesses {
        // World frame, as the run's own witness points are shown.
        let world = |p: glam::DVec3| model.pair_scene().a().pose.transform_point(p);
        let (a, b) = (world(a), world(b));
        ui.label(format!(
            "its GJK's closest points A ({:.4}, {:.4}, {:.4}), B ({:.4}, {:.4}, {:.4})",
            a.x, a.y, a.z, b.x, b.y, b.z
        ))
        .on_hover_text("parry's GJK on the same pair (world frame); the distance above is its own query where it has the shapes");
    }
    if let Some(impact) = &parry.impact {
        ui.label(format!("time of impact: {}", impact.describe()))
            .on_hover_text(impact.via);
    }
    let mut disagrees = false;
    for r in model.runs() {
        let agreement = compare(&r.run.summary, &model.scene.settings, parry);
        let comparable = !matches!(agreement, crate::cross_check::Agreement::NotComparable(_));
        disagrees |= comparable && !agreement.agrees();
        let colour = match (comparable, agreement.agrees()) {
            (false, _) => ui.visuals().weak_text_color(),
            (true, true) => GREEN,
            (true, false) => RED,
        };
        ui.label(
            egui::RichText::new(format!("{}: {agreement}", r.run.method.label())).color(colour),
        );
    }
    if disagrees {
        let id = egui::Id::new("cross-check-saved");
        if ui
            .button("save as scene")
            .on_hover_text("parry-disagreement.ron: a regression test or a bug report")
            .clicked()
        {
            let path = std::path::Path::new("parry-disagreement.ron");
            let message = match model.save_scene(path) {
                Ok(()) => format!("saved to {}", path.display()),
                Err(e) => e,
            };
            ui.ctx().data_mut(|d| d.insert_temp(id, message));
        }
        if let Some(message) = ui.ctx().data(|d| d.get_temp::<String>(id)) {
            ui.label(message);
        }
    }
    ui.separator();
}

fn results_ui(
    ui: &mut egui::Ui,
    model: &ViewerModel,
    theme: Theme,
    commands: &mut PendingCommands,
) {
    ui.horizontal(|ui| {
        let sub_pair = model.composite().and_then(|c| {
            c.scene.as_ref()?;
            Some(model.scene.sub_pair_name(c.focused_run(), c.sub_pair?))
        });
        match sub_pair {
            Some(name) => ui.strong(format!("Results on the sub-pair {name}")),
            None => ui.strong("Results on this pose"),
        };
        if ui
            .button("time this pose")
            .on_hover_text("measure µs per query of each method (without records), once")
            .clicked()
        {
            commands.push(ViewerCommand::TimeThisPose);
        }
    });
    egui::Grid::new("results").striped(true).show(ui, |ui| {
        ui.label("method");
        ui.label("verdict")
            .on_hover_text("what the run proved: separated (a plane with a positive gap), intersecting (an enclosure of the origin), contact (neither: touching, overlapping or at most its distance apart), ...");
        ui.label("iter.");
        ui.label("supports");
        ui.label("µs/query");
        ui.end_row();
        for r in model.runs() {
            let m = r.run.method;
            ui.colored_label(theme.method_color(m), m.label());
            ui.label(r.run.summary.outcome.status_name())
                .on_hover_text(r.run.summary.outcome.to_string());
            ui.label(r.run.summary.iterations.to_string());
            ui.label(r.run.summary.stats.calls.to_string());
            ui.label(
                r.micros_per_query
                    .map_or("—".to_string(), |t| format!("{t:.2}")),
            );
            ui.end_row();
        }
    });
    cross_check_ui(ui, model);
    for r in model.runs() {
        let m = r.run.method;
        ui.label(
            egui::RichText::new(format!(
                "{}: {}",
                m.label(),
                outcome_text(&r.run.summary.outcome)
            ))
            .color(theme.method_color(m)),
        );
        if let Some(k) = r.run.summary.momentum_stopped_at {
            ui.label(format!("   momentum stopped at iteration {k}"));
        }
        companion::result_lines_ui(ui, model, m);
        if let Some(gjk) = r.run.gjk_stage() {
            ui.label(format!(
                "   GJK stage: {} iterations; then {} expansions",
                gjk.iterations, r.run.summary.iterations
            ));
        }
    }
}
