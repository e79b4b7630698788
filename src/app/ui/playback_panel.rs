//! Playback controls and the narration of the step under the cursor.

use bevy::prelude::MessageWriter;
use bevy_egui::egui;

use crate::app::model::ViewerModel;
use crate::app::playback::PlaybackRequest;
use crate::app::playback_state::{Playback, PlaybackCommand};

pub fn playback_panel_ui(
    ui: &mut egui::Ui,
    model: &ViewerModel,
    cursor: &mut Playback,
    requests: &mut MessageWriter<PlaybackRequest>,
    show_narration: bool,
    show_slow_causes: bool,
) {
    let len = model.step_count();
    let index = cursor.cursor.min(len.saturating_sub(1));
    let Some(run) = model.focused_run() else {
        ui.label("no run");
        return;
    };
    let (name, narration) = (run.run.method.label(), run.run.narrate(index));
    let mut send = |c: PlaybackCommand| {
        requests.write(PlaybackRequest(c));
    };
    ui.horizontal(|ui| {
        ui.strong(name);
        if ui.button("⏮").on_hover_text("first (Home)").clicked() {
            send(PlaybackCommand::First);
        }
        if ui
            .button("◀")
            .on_hover_text("step back (Left arrow)")
            .clicked()
        {
            send(PlaybackCommand::StepBack);
        }
        let play = if cursor.playing {
            "⏸ pause"
        } else {
            "▶ play"
        };
        if ui.button(play).on_hover_text("Space").clicked() {
            send(PlaybackCommand::TogglePlay);
        }
        if ui
            .button("▶|")
            .on_hover_text("step forward (Right arrow)")
            .clicked()
        {
            send(PlaybackCommand::StepForward);
        }
        if ui.button("⏭").on_hover_text("last (End)").clicked() {
            send(PlaybackCommand::Last);
        }
        // Counted from 1, as the narration counts ("Step 1: ..."): one numbering. A run
        // with no steps (a closed form, a method that does not apply) says so.
        if len == 0 {
            ui.label("no steps");
        } else {
            let mut step = cursor.cursor.min(len - 1) + 1;
            let slider = egui::Slider::new(&mut step, 1..=len).text(format!("of {len}"));
            if ui.add(slider).changed() {
                send(PlaybackCommand::Seek(step - 1));
            }
        }
        ui.label("speed");
        ui.add(
            egui::Slider::new(&mut cursor.speed, 0.25..=30.0)
                .logarithmic(true)
                .suffix(" steps/s"),
        );
    });
    if show_narration {
        ui.label(egui::RichText::new(narration).size(17.0));
    }
    let distance_family = run.run.method.entry::<crate::solver::Algorithm>().is_some();
    if distance_family && model.pair_scene().settings.supports == crate::solver::SupportRule::Coal {
        let (a, b) = (&model.pair_scene().a().shape, &model.pair_scene().b().shape);
        ui.label(crate::solver::distance::coal_replay::describe(a, b));
    }
    // Why the run was slow, with a button to the first step that shows it (not in a
    // lesson: its text says what the run shows).
    if !show_slow_causes {
        return;
    }
    let explained = crate::solver::distance::explain::explain_with_checks(
        &run.run,
        Some((&model.pair_scene().a().shape, &model.pair_scene().b().shape)),
    );
    if explained.causes.is_empty() && !explained.checks.is_empty() {
        // A slow run with no cause named: what each test measured, folded away.
        let title = egui::RichText::new("slow, no cause named: what each test measured")
            .color(egui::Color32::from_rgb(213, 94, 0));
        egui::CollapsingHeader::new(title)
            .id_salt("slow-checks")
            .default_open(false)
            .show(ui, |ui| {
                for check in &explained.checks {
                    ui.label(egui::RichText::new(check.to_string()).small());
                }
            });
    }
    for cause in explained.causes {
        ui.horizontal(|ui| {
            ui.label(
                egui::RichText::new(format!("slow: {cause}"))
                    .color(egui::Color32::from_rgb(213, 94, 0)),
            );
            if let Some(&first) = cause.steps.first() {
                if ui
                    .small_button("show")
                    .on_hover_text("jump to the first step that shows it")
                    .clicked()
                {
                    send(PlaybackCommand::Seek(first));
                }
            }
        });
    }
}

/// The narration of the step under the cursor alone, large (panels hidden).
pub fn narration_ui(ui: &mut egui::Ui, model: &ViewerModel, cursor: &Playback) {
    let Some(run) = model.focused_run() else {
        return;
    };
    let index = cursor.cursor.min(model.step_count().saturating_sub(1));
    let text = format!("{}: {}", run.run.method.label(), run.run.narrate(index));
    ui.label(egui::RichText::new(text).size(22.0));
}
