//! Diagnose: sweep the current pair for slow poses (histogram per algorithm), or map
//! iterations over translations of B on the plane facing the camera (heat map). Click a
//! bar or a cell to jump to that pose; "save this pose" keeps it as a scene.

use bevy_egui::egui;
use egui_plot::{Bar, BarChart, Legend, Line, LineStyle, Plot, PlotPoints};
use glam::DVec3;

use crate::app::command::{PendingCommands, ViewerCommand};
use crate::app::diagnose::Diagnosis;
use crate::app::model::{Side, ViewerModel};
use crate::app::state::StatusLine;
use crate::app::theme::Theme;
use crate::solver::contact::jitter::Nudge;
use crate::solver::contact::ContactRule;
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
        let convex = model.pair_scene().a().composite.is_none()
            && model.pair_scene().b().composite.is_none();
        ui.horizontal(|ui| {
            let button = ui
                .add_enabled(convex, egui::Button::new("Contact jitter"))
                .on_hover_text(
                    "nudge B by 1e-9..1e-3 of the pair's size and move the whole scene: how far \
                 each contact rule's points move per unit of the body's motion; then the \
                 focused contact rule over B's tilts",
                );
            if button.clicked() {
                diagnosis.start_jitter(model);
            }
            ui.label("tilt ± rad");
            ui.add(
                egui::DragValue::new(&mut diagnosis.tilt)
                    .speed(0.001)
                    .range(1e-6..=0.5),
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
    jitter_ui(ui, diagnosis, model, theme, commands, status);
    actions
}

/// The colour of a contact rule's method.
fn rule_colour(theme: Theme, rule: ContactRule) -> egui::Color32 {
    rule.name()
        .parse::<Method>()
        .map_or(egui::Color32::GRAY, |m| theme.method_color(m))
}

/// The jitter study: point motion against the nudge per rule (log-log, the body's own
/// motion as the grey diagonal), and the focused rule's worst jump over B's tilts.
fn jitter_ui(
    ui: &mut egui::Ui,
    diagnosis: &Diagnosis,
    model: &ViewerModel,
    theme: Theme,
    commands: &mut PendingCommands,
    status: &mut StatusLine,
) {
    let Some(study) = &diagnosis.jitter else {
        return;
    };
    ui.separator();
    ui.strong("Contact jitter at this pose");
    if study.reports.is_empty() {
        ui.label("no manifold here: the shapes are farther apart than the contact margin");
        return;
    }
    for r in &study.reports {
        let worst = r.worst();
        ui.colored_label(
            rule_colour(theme, r.rule),
            format!(
                "{}: {} points; {} of {} nudges jumped (> {}x); worst {}",
                r.rule.name(),
                r.base_points,
                r.jumps(study.jump_ratio),
                r.samples.len(),
                study.jump_ratio,
                worst.map_or(String::new(), |w| format!(
                    "{} by {:.0e}: {:.2e}x",
                    w.nudge.name(),
                    w.magnitude,
                    w.ratio()
                ))
            ),
        );
    }
    Plot::new("jitter curves")
        .height(220.0)
        .legend(Legend::default().position(egui_plot::Corner::LeftTop))
        .x_axis_label("log10 nudge (of the pair's size)")
        .y_axis_label("log10 max point motion")
        .allow_scroll(false)
        .show(ui, |plot| {
            let size =
                model.pair_scene().a().shape.extent() + model.pair_scene().b().shape.extent();
            let diagonal: PlotPoints = [-9.0, -3.0]
                .iter()
                .map(|&x: &f64| [x, x + size.log10()])
                .collect();
            plot.line(
                Line::new("body (moved by the nudge)", diagonal)
                    .color(egui::Color32::GRAY)
                    .style(LineStyle::dashed_loose()),
            );
            for r in &study.reports {
                let colour = rule_colour(theme, r.rule);
                for (nudge, style) in [
                    (Nudge::MoveB, LineStyle::Solid),
                    (Nudge::TurnB, LineStyle::dotted_dense()),
                ] {
                    let points: PlotPoints = r
                        .curve(nudge)
                        .iter()
                        .filter_map(|(m, w)| w.map(|w| [m.log10(), w.max(1e-18).log10()]))
                        .collect();
                    plot.line(
                        Line::new(format!("{}, {}", r.rule.name(), nudge.name()), points)
                            .color(colour)
                            .style(style)
                            .width(2.0),
                    );
                }
            }
        });
    let Some(grid) = &study.grid else {
        return;
    };
    let jumping = study
        .worst
        .iter()
        .filter(|w| w.is_some_and(|r| r > study.jump_ratio))
        .count();
    ui.label(format!(
        "{}: worst jump over B's tilts ±{:.1e} rad ({} of {} poses jump); click a cell to open \
         its pose; grey = no manifold",
        study.grid_rule.name(),
        grid.half_angle,
        jumping,
        study.worst.len()
    ));
    // log10 of the ratio from 0 (the body's own motion) to 6 and beyond.
    let (response, hovered) = heat_grid(ui, grid.cells, |k| {
        study
            .worst
            .get(k)
            .copied()
            .flatten()
            .map(|v| (v.max(1.0).log10() / 6.0).clamp(0.0, 1.0) as f32)
    });
    if let Some((column, row)) = hovered {
        let (u, v) = grid.angles(column, row);
        let text = match study
            .worst
            .get(row * grid.cells + column)
            .copied()
            .flatten()
        {
            Some(w) => {
                format!("tilts ({u:+.2e}, {v:+.2e}) rad: points moved {w:.2e}x the body")
            }
            None => format!("tilts ({u:+.2e}, {v:+.2e}) rad: no manifold"),
        };
        response.clone().on_hover_text(text);
        if response.clicked() {
            jump(
                model,
                commands,
                status,
                grid.pose_at(column, row),
                format!(
                    "jitter cell ({column}, {row}) of {}",
                    study.grid_rule.name()
                ),
            );
        }
    }
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
    let (response, hovered) = heat_grid(ui, heat.cells, |k| {
        heat.iterations.get(k).copied().flatten().map(|v| {
            if hi > lo {
                (v - lo) as f32 / (hi - lo) as f32
            } else {
                0.0
            }
        })
    });
    if let Some((column, row)) = hovered {
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

/// A square grid of `cells` × `cells` painted from cold (0) to hot (1), grey where
/// `value` has none, the current pose ringed at the centre; the response and the cell
/// under the pointer.
fn heat_grid(
    ui: &mut egui::Ui,
    cells: usize,
    value: impl Fn(usize) -> Option<f32>,
) -> (egui::Response, Option<(usize, usize)>) {
    let size = ui.available_width().min(260.0);
    let (rect, response) = ui.allocate_exact_size(egui::vec2(size, size), egui::Sense::click());
    let painter = ui.painter_at(rect);
    let cell = size / cells as f32;
    for row in 0..cells {
        for column in 0..cells {
            let color = match value(row * cells + column) {
                Some(t) => egui::Color32::from_rgb(
                    (40.0 + 215.0 * t) as u8,
                    (60.0 + 120.0 * (1.0 - t)) as u8,
                    (200.0 * (1.0 - t)) as u8,
                ),
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
    let hovered = response.hover_pos().and_then(|at| {
        let (column, row) = (
            ((at.x - rect.min.x) / cell) as usize,
            ((at.y - rect.min.y) / cell) as usize,
        );
        (column < cells && row < cells).then_some((column, row))
    });
    (response, hovered)
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
