//! Diagnose: sweep the current pair for slow poses (histogram per algorithm), or map
//! iterations over translations of B on the plane facing the camera (heat map). Click a
//! bar or a cell to jump to that pose; "save this pose" keeps it as a scene.

use bevy_egui::egui;
use egui_plot::{Bar, BarChart, Plot};
use glam::DVec3;

use crate::app::command::{PendingCommands, ViewerCommand};
use crate::app::diagnose::Diagnosis;
use crate::app::model::{Side, ViewerModel};
use crate::app::state::StatusLine;
use crate::app::theme::Theme;
use crate::solver::Method;

/// What the user asked for in this frame.
#[derive(Default, PartialEq, Eq)]
pub struct DiagnoseActions {
    pub save_pose: bool,
}

pub fn diagnose_panel_ui(
    ui: &mut egui::Ui,
    diagnosis: &mut Diagnosis,
    model: &ViewerModel,
    theme: Theme,
    commands: &mut PendingCommands,
    status: &mut StatusLine,
    camera_right_up: (DVec3, DVec3),
) -> DiagnoseActions {
    let mut actions = DiagnoseActions::default();
    diagnosis.size_heat_map_for(model);
    ui.strong("Diagnose: where is it slow?");
    if let Some((what, done, total)) = diagnosis.progress() {
        ui.horizontal(|ui| {
            ui.add(
                egui::ProgressBar::new(done as f32 / total.max(1) as f32)
                    .text(format!("{what}: {done}/{total}"))
                    .desired_width(200.0),
            );
            if ui.button("Cancel").clicked() {
                diagnosis.cancel();
            }
        });
        ui.ctx().request_repaint();
    } else {
        ui.horizontal(|ui| {
            ui.label("poses");
            ui.add(egui::DragValue::new(&mut diagnosis.samples).range(10..=200_000));
            ui.label("distance");
            ui.add(
                egui::DragValue::new(&mut diagnosis.band.0)
                    .speed(0.001)
                    .max_decimals(4),
            );
            ui.label("..");
            ui.add(
                egui::DragValue::new(&mut diagnosis.band.1)
                    .speed(0.001)
                    .max_decimals(4),
            );
        });
        ui.horizontal(|ui| {
            if ui
                .button("Sweep poses")
                .on_hover_text("random rotations of B at signed distances in the band")
                .clicked()
            {
                if diagnosis.band.0 <= diagnosis.band.1 {
                    diagnosis.start_sweep(model);
                } else {
                    status.error("the distance band needs MIN ≤ MAX");
                }
            }
            if ui
                .button("Heat map")
                .on_hover_text(
                    "iterations of the focused algorithm over translations of B facing the camera",
                )
                .clicked()
            {
                diagnosis.start_heat_map(model, camera_right_up.0, camera_right_up.1);
            }
            ui.label("± m");
            ui.add(
                egui::DragValue::new(&mut diagnosis.half_extent)
                    .speed(0.01)
                    .range(1e-4..=100.0),
            );
        });
    }
    if ui
        .button("Save this pose as a scene")
        .on_hover_text("uses the path in Files")
        .clicked()
    {
        actions.save_pose = true;
    }
    sweep_ui(ui, diagnosis, model, theme, commands, status);
    heat_map_ui(ui, diagnosis, model, commands, status);
    actions
}

fn sweep_ui(
    ui: &mut egui::Ui,
    diagnosis: &Diagnosis,
    model: &ViewerModel,
    theme: Theme,
    commands: &mut PendingCommands,
    status: &mut StatusLine,
) {
    let Some(sweep) = &diagnosis.sweep else {
        return;
    };
    let done = sweep.runs.len() / sweep.algorithms.len().max(1);
    ui.label(format!(
        "{} poses{}; click a bar to see a pose with that many iterations",
        done,
        if sweep.cancelled { " (cancelled)" } else { "" }
    ));
    for d in &sweep.distributions {
        let algorithm = sweep
            .algorithms
            .iter()
            .copied()
            .find(|a| a.name() == d.algorithm);
        let color = algorithm.map_or(egui::Color32::GRAY, |a| theme.method_color(Method::of(a)));
        let name = algorithm.map_or(d.algorithm, |a| a.label());
        ui.colored_label(
            color,
            format!(
                "{name}: mean {:.1}, p90 {}, max {}, capped {}, contact {}",
                d.mean_iterations, d.p90, d.max, d.capped, d.contact
            ),
        );
        let bars: Vec<Bar> = d
            .histogram
            .iter()
            .map(|(it, n)| Bar::new(*it as f64, *n as f64).width(0.8))
            .collect();
        let response = Plot::new(("histogram", d.algorithm))
            .height(70.0)
            .allow_drag(false)
            .allow_zoom(false)
            .allow_scroll(false)
            .x_axis_label("iterations")
            .show(ui, |plot| {
                plot.bar_chart(BarChart::new(name, bars).color(color));
                plot.pointer_coordinate()
            });
        if response.response.clicked() {
            if let Some(at) = response.inner {
                let iterations = at.x.round().max(0.0) as usize;
                if let Some(pose) = sweep.pose_with(d.algorithm, iterations) {
                    jump(
                        model,
                        commands,
                        status,
                        sweep.world_pose_b(pose),
                        format!("pose {pose}: {iterations} iterations of {}", d.algorithm),
                    );
                }
            }
        }
        ui.horizontal_wrapped(|ui| {
            ui.label("slowest:");
            for pose in d.slowest.iter().take(5) {
                let its = sweep
                    .runs
                    .iter()
                    .find(|r| r.pose == *pose && r.algorithm == d.algorithm)
                    .map_or(0, |r| r.iterations);
                if ui.small_button(format!("#{pose} ({its})")).clicked() {
                    jump(
                        model,
                        commands,
                        status,
                        sweep.world_pose_b(*pose),
                        format!("pose {pose}: {its} iterations of {}", d.algorithm),
                    );
                }
            }
        });
    }
}

fn heat_map_ui(
    ui: &mut egui::Ui,
    diagnosis: &Diagnosis,
    model: &ViewerModel,
    commands: &mut PendingCommands,
    status: &mut StatusLine,
) {
    let Some(heat) = &diagnosis.heat else { return };
    let found: Vec<usize> = heat.iterations.iter().flatten().copied().collect();
    let (lo, hi) = (
        found.iter().min().copied().unwrap_or(0),
        found.iter().max().copied().unwrap_or(1),
    );
    ui.label(format!(
        "{}: iterations over B's translations ±{:.3} (facing the camera): {lo}..{hi}; grey = no answer",
        heat.algorithm.label(),
        heat.half_extent
    ));
    let size = ui.available_width().min(260.0);
    let (rect, response) = ui.allocate_exact_size(egui::vec2(size, size), egui::Sense::click());
    let painter = ui.painter_at(rect);
    let cell = size / heat.cells as f32;
    for row in 0..heat.cells {
        for column in 0..heat.cells {
            let value = heat
                .iterations
                .get(row * heat.cells + column)
                .copied()
                .flatten();
            let color = match value {
                Some(v) => {
                    let t = if hi > lo {
                        (v - lo) as f32 / (hi - lo) as f32
                    } else {
                        0.0
                    };
                    egui::Color32::from_rgb(
                        (40.0 + 215.0 * t) as u8,
                        (60.0 + 120.0 * (1.0 - t)) as u8,
                        (200.0 * (1.0 - t)) as u8,
                    )
                }
                None => egui::Color32::GRAY,
            };
            let min = rect.min + egui::vec2(column as f32 * cell, row as f32 * cell);
            painter.rect_filled(
                egui::Rect::from_min_size(min, egui::vec2(cell, cell)),
                0.0,
                color,
            );
        }
    }
    // The current pose sits at the centre cell.
    painter.circle_stroke(
        rect.center(),
        4.0,
        egui::Stroke::new(2.0, egui::Color32::WHITE),
    );
    if let Some(at) = response.hover_pos() {
        let (column, row) = (
            ((at.x - rect.min.x) / cell) as usize,
            ((at.y - rect.min.y) / cell) as usize,
        );
        if let Some(v) = heat.iterations.get(row * heat.cells + column) {
            response.clone().on_hover_text(
                v.map_or("no answer (cap or degenerate)".to_string(), |v| {
                    format!("{v} iterations")
                }),
            );
        }
        if response.clicked() && column < heat.cells && row < heat.cells {
            jump(
                model,
                commands,
                status,
                heat.pose_at(column, row),
                format!("heat-map cell ({column}, {row})"),
            );
        }
    }
}

fn jump(
    model: &ViewerModel,
    commands: &mut PendingCommands,
    status: &mut StatusLine,
    pose: crate::pose::Pose,
    what: String,
) {
    commands.push(ViewerCommand::SetPose(model.side(Side::B), pose));
    status.info(format!("jumped to {what}"));
}
