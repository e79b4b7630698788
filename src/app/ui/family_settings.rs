//! The Settings panel's part for the families with their own settings (EPA, the time of
//! impact, the interior point, the LP test): what the focused method reads, editable.
//! The distance solvers' settings are `algorithms_panel`'s.

use bevy_egui::egui;

use crate::solver::catalog::SettingsKind;

use crate::solver::{SolverSettings, TieRule, MAX_ITERATION_CAP};

/// The focused family's own settings; `true` when one changed.
pub fn family_settings_ui(ui: &mut egui::Ui, kind: SettingsKind, s: &mut SolverSettings) -> bool {
    let mut changed = false;
    match kind {
        SettingsKind::Distance => {}
        SettingsKind::Depth => {
            let e = &mut s.epa;
            changed |= tolerance(ui, "gain tolerance", &mut e.tolerance, "expansion stops when the support along the nearest face's normal gains at most this · (1 + |s|)");
            changed |= cap(ui, "expansion cap", &mut e.max_iterations);
            changed |= tolerance(ui, "acceptable at the cap", &mut e.acceptable, "at the expansion cap, a depth bracket within this · max(1, depth) is still an answer (curved shapes close in slowly)");
            changed |= ui
                .checkbox(&mut e.closed_forms, "spheres and boxes against boxes in closed form")
                .on_hover_text("the box's faces and the separating axes answer at once, as parry does; untick to watch EPA expand on them")
                .changed();
            note(ui, "EPA's GJK stage keeps its own test: overlap certified to 1e-9 (relative duality gap), whatever the distance settings.");
        }
        SettingsKind::Motion => {
            let t = &mut s.toi;
            changed |= tolerance(ui, "contact tolerance", &mut t.contact_tolerance, "shapes this close count as touching: a fraction of the scene's size (bounding boxes and the motion's length)");
            changed |= tolerance(ui, "time tolerance", &mut t.time_tolerance, "the bracketing methods stop when the first contact's bracket is this narrow (a fraction of the motion)");
            changed |= cap(ui, "step cap", &mut t.max_iterations);
            changed |= ui
                .checkbox(&mut t.closed_forms, "two spheres and two boxes in closed form")
                .on_hover_text("a quadratic and the separating axes swept answer at once, as parry does; untick to watch the method's own steps")
                .changed();
        }
        SettingsKind::Barrier => {
            let p = &mut s.interior_point;
            changed |= tolerance(
                ui,
                "tolerance",
                &mut p.tolerance,
                "the certified bracket on the distance must be within this · max(1, d)",
            );
            changed |= tolerance(ui, "acceptable", &mut p.acceptable, "when round-off stops the bracket from narrowing, a bracket within this · max(1, d) is still an answer");
            changed |= cap(ui, "Newton cap", &mut p.max_iterations);
        }
        SettingsKind::Contact => {
            let c = &mut s.contact;
            changed |= tolerance(ui, "margin", &mut c.margin, "points up to this far in front of the reference face are contacts, and shapes apart by up to this get a manifold (Jolt's max contact distance)");
            changed |= tolerance(ui, "feature band", &mut c.feature_band, "a support set holds the points within this fraction of the pair's size of the support plane: a face tilted by less than about this angle is still a face");
            changed |= cap(ui, "most points kept", &mut c.max_points);
            changed |= cap(ui, "samples of a curved rim", &mut c.curve_samples);
            changed |= tolerance(ui, "certificate tolerance", &mut c.tolerance, "a point is certified within this fraction of the pair's size of both shapes and of the certified depth");
        }
        SettingsKind::Simplex => {
            let l = &mut s.lp;
            ui.horizontal(|ui| {
                ui.label("pivot rule");
                egui::ComboBox::from_id_salt("pivot rule")
                    .selected_text(pivot_rule_name(l.pivot_rule))
                    .show_ui(ui, |ui| {
                        for rule in [
                            TieRule::LargestPivot,
                            TieRule::SmallestIndex,
                            TieRule::KreuzerAsWritten,
                        ] {
                            changed |= ui
                                .selectable_value(&mut l.pivot_rule, rule, pivot_rule_name(rule))
                                .changed();
                        }
                    });
            });
            ui.horizontal(|ui| {
                let mut kreuzer_cap = l.max_pivots.is_none();
                if ui
                    .checkbox(&mut kreuzer_cap, "Kreuzer's pivot cap (columns × rows)")
                    .changed()
                {
                    l.max_pivots = if kreuzer_cap { None } else { Some(100) };
                    changed = true;
                }
                if let Some(n) = &mut l.max_pivots {
                    changed |= ui
                        .add(egui::DragValue::new(n).range(1..=MAX_ITERATION_CAP))
                        .changed();
                }
            });
        }
    }
    changed
}

fn pivot_rule_name(rule: TieRule) -> &'static str {
    match rule {
        TieRule::LargestPivot => "largest pivot (safeguarded)",
        TieRule::SmallestIndex => "Bland (smallest index)",
        TieRule::KreuzerAsWritten => "Kreuzer's code as written",
    }
}

/// A tolerance on a log slider.
fn tolerance(ui: &mut egui::Ui, label: &str, value: &mut f64, why: &str) -> bool {
    ui.horizontal(|ui| {
        ui.label(label).on_hover_text(why);
        ui.add(
            egui::Slider::new(value, 1e-14..=1e-2)
                .logarithmic(true)
                .custom_formatter(|v, _| format!("{v:.0e}")),
        )
        .changed()
    })
    .inner
}

fn cap(ui: &mut egui::Ui, label: &str, value: &mut usize) -> bool {
    ui.horizontal(|ui| {
        ui.label(label);
        ui.add(egui::DragValue::new(value).range(1..=100_000))
            .changed()
    })
    .inner
}

fn note(ui: &mut egui::Ui, text: &str) {
    ui.label(egui::RichText::new(text).italics());
}
