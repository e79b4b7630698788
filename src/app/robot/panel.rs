//! The robot panel: joint sliders, a random configuration or path, what is drawn, the
//! margin, the checked pairs nearest first and the disabled ones.

use bevy_egui::egui;

use super::check::RobotState;
use crate::app::command::{PendingCommands, ViewerCommand};
use crate::app::model::ViewerModel;
use crate::printed_bound::{Above, Below};
use crate::robot::acm::random_configuration;
use crate::robot::path::SmoothPath;
use crate::robot::{CollisionMode, JointKind};

/// "Only distances up to M": the margin check, what a planner's safety margin asks
/// (0: only which pairs collide). Its default is the amber threshold, the distance the
/// picture needs.
pub(super) fn margin_ui(ui: &mut egui::Ui, state: &mut RobotState) {
    let mut on = state.margin.is_some();
    let mut margin = state.margin.unwrap_or_else(|| state.near_distance());
    let mut changed = false;
    ui.horizontal(|ui| {
        changed |= ui
            .checkbox(&mut on, "only distances up to")
            .on_hover_text(
                "pairs whose bounding spheres are farther apart are not run; GJK stops at \
                 the first separating plane beyond the margin (0: only which pairs collide)",
            )
            .changed();
        ui.add_enabled_ui(on, |ui| {
            changed |= ui
                .add(
                    egui::DragValue::new(&mut margin)
                        .speed(0.001)
                        .range(0.0..=10.0)
                        .suffix(" m"),
                )
                .changed();
        });
    });
    if changed {
        state.margin = on.then_some(margin);
        state.recheck();
    }
}

/// Links as hulls or as meshes, and "where do they disagree?" at this configuration.
pub(super) fn collision_ui(
    ui: &mut egui::Ui,
    state: &mut RobotState,
    commands: &mut PendingCommands,
) {
    let with_mesh = state
        .model
        .shapes
        .iter()
        .filter(|s| s.mesh.is_some())
        .count();
    let mut collision = state.collision;
    ui.horizontal(|ui| {
        ui.label("check links as");
        ui.radio_value(&mut collision, CollisionMode::Hull, "hulls")
            .on_hover_text("each link's convex hull: one GJK run per pair, warm-started");
        ui.add_enabled_ui(with_mesh > 0, |ui| {
            ui.radio_value(&mut collision, CollisionMode::Mesh, "meshes")
                .on_hover_text(
                    "each link's triangle mesh (or compound of its parts), as MoveIt (FCL) and \
                     Pinocchio (Coal) check URDF meshes: the hulls first, the midphase when \
                     they come near",
                );
        });
        if ui
            .button("where do they disagree?")
            .on_hover_text(
                "check every pair the other way too and list the pairs whose verdict \
                 (colliding or apart) changes here",
            )
            .clicked()
        {
            state.compare_other();
        }
    });
    if collision != state.collision {
        state.set_collision(collision, commands);
    }
    let names: Vec<&str> = state.model.shapes.iter().map(|s| s.name.as_str()).collect();
    let other = match state.collision {
        CollisionMode::Hull => "as meshes",
        CollisionMode::Mesh => "as hulls",
    };
    match state.other_verdicts.as_deref() {
        None => {}
        Some([]) => {
            ui.label(format!("no pair's verdict changes {other} here"));
        }
        Some(changes) => {
            for &(k, colliding, d) in changes {
                let (i, j) = state.pairs[k];
                let said = if colliding {
                    "colliding".to_string()
                } else {
                    format!("apart {d:.6}")
                };
                ui.label(
                    egui::RichText::new(format!("{} – {}: {said} {other}", names[i], names[j]))
                        .color(AMBER),
                );
            }
        }
    }
}

const RED: egui::Color32 = egui::Color32::from_rgb(200, 40, 40);

const AMBER: egui::Color32 = egui::Color32::from_rgb(200, 130, 0);

/// The robot panel: joints, then the pairs nearest first.
pub fn robot_panel_ui(
    ui: &mut egui::Ui,
    state: &mut RobotState,
    model: &ViewerModel,
    commands: &mut PendingCommands,
) {
    ui.heading(format!("Robot {}", state.model.name));
    ui.label(format!(
        "{} links with collision geometry, {} pairs checked, {} disabled by {}",
        state.model.shapes.len(),
        state.pairs.len(),
        state.disabled.len(),
        state.disabled_by
    ));
    let mut q = state.q.clone();
    let mut changed = false;
    for (k, &j) in state.model.actuated.iter().enumerate() {
        let joint = &state.model.joints[j];
        let (lo, hi) = match (joint.kind, joint.limits) {
            (JointKind::Continuous, _) => (-std::f64::consts::PI, std::f64::consts::PI),
            (_, Some((lo, hi))) => (lo, hi),
            _ => (-1.0, 1.0),
        };
        changed |= ui
            .add(egui::Slider::new(&mut q[k], lo..=hi).text(&joint.name))
            .changed();
    }
    ui.horizontal(|ui| {
        if ui.button("random configuration").clicked() {
            q = random_configuration(&state.model, &mut state.rng);
            changed = true;
        }
        let play = if state.playing {
            "pause"
        } else {
            "play a random path"
        };
        if ui.button(play).clicked() {
            state.playing = !state.playing;
            let seed = state.rng.next_u64();
            state.path = SmoothPath::new(&state.model, state.q.clone(), seed);
        }
    });
    if changed {
        state.move_to(q, commands);
    }
    let visuals = &state.model.visuals;
    ui.horizontal(|ui| {
        ui.label("draw");
        ui.add_enabled_ui(!visuals.parts.is_empty(), |ui| {
            ui.radio_value(&mut state.show_visuals, true, "visual meshes")
                .on_hover_text("the URDF's <visual> meshes, with their colours");
        });
        ui.radio_value(&mut state.show_visuals, false, "collision shapes")
            .on_hover_text("the shapes the checks use (hulls, or meshes when checked as meshes)");
    });
    if !visuals.missing.is_empty() {
        ui.label(format!(
            "{} visual meshes could not be read: {}",
            visuals.missing.len(),
            if visuals.parts.is_empty() {
                "the links show their collision hulls"
            } else {
                "those links show only their other visuals"
            }
        ))
        .on_hover_text(visuals.missing.join("\n"));
    }
    ui.label(
        egui::RichText::new(
            "The picture shows the robot: links red where a pair collides, amber where one is \
             near; click a link (or a row) to put its nearest pair in focus, in blue and orange. \
             Tick A ⊖ B and simplex in the top bar to step through that pair.",
        )
        .italics(),
    );
    ui.separator();
    collision_ui(ui, state, commands);
    margin_ui(ui, state);
    let seconds = state.answer.seconds * 1e6;
    let narrow = state
        .answer
        .pairs
        .iter()
        .filter(|p| !p.beyond_margin)
        .count();
    match state.margin {
        Some(m) => ui.strong(format!(
            "Pairs, nearest first ({seconds:.0} µs for all; {narrow} within {m:.4} m or not ruled out)"
        )),
        None => ui.strong(format!("Pairs, nearest first ({seconds:.0} µs for all)")),
    };
    let names: Vec<&str> = state.model.shapes.iter().map(|s| s.name.as_str()).collect();
    let mut order: Vec<usize> = (0..state.pairs.len()).collect();
    order.sort_by(|a, b| {
        state.answer.pairs[*a]
            .distance
            .total_cmp(&state.answer.pairs[*b].distance)
    });
    let near = state.near_distance();
    let focused = model.scene.pairs.first().copied();
    let mut turn_off = None;
    egui::Grid::new("robot-pairs").striped(true).show(ui, |ui| {
        ui.label("pair");
        ui.label("distance");
        ui.label("iter.");
        ui.label("µs");
        ui.label("");
        ui.end_row();
        for k in order {
            let (i, j) = state.pairs[k];
            let a = &state.answer.pairs[k];
            let colour = if a.colliding {
                RED
            } else if a.distance < near && !a.beyond_margin {
                AMBER
            } else {
                ui.visuals().text_color()
            };
            let label = format!("{} – {}", names[i], names[j]);
            let text = egui::RichText::new(label).color(colour);
            let selected = focused == Some((i, j));
            if ui.selectable_label(selected, text).clicked() {
                if let Some(p) = model.scene.pairs.iter().position(|p| *p == (i, j)) {
                    commands.push(ViewerCommand::FocusPair(p));
                }
            }
            let distance = if a.colliding {
                "colliding".to_string()
            } else if a.beyond_margin {
                format!("≥ {:.6}", Below(a.distance))
            } else {
                format!("{:.6}", Above(a.distance))
            };
            let cell = ui.label(egui::RichText::new(distance).color(colour));
            if a.beyond_margin {
                cell.on_hover_text(
                    "beyond the margin: a lower bound (the bounding spheres' gap, or GJK's \
                     first separating plane beyond the margin), not the distance",
                );
            }
            ui.label(a.iterations.to_string());
            ui.label(format!("{:.1}", a.seconds * 1e6));
            if ui
                .small_button("off")
                .on_hover_text("stop checking this pair (it joins the disabled pairs below)")
                .clicked()
            {
                turn_off = Some((names[i].to_string(), names[j].to_string()));
            }
            ui.end_row();
        }
    });
    if let Some((link1, link2)) = turn_off {
        state.disable_pair(link1, link2, commands);
    }
    if !state.disabled.is_empty() {
        egui::CollapsingHeader::new(format!("{} pairs disabled", state.disabled.len())).show(
            ui,
            |ui| {
                ui.label("Tick a pair to check it anyway.");
                let mut toggled = false;
                for (d, on) in state.disabled.iter().zip(state.enabled_anyway.iter_mut()) {
                    let text = format!("{} – {} ({})", d.link1, d.link2, d.reason);
                    toggled |= ui.checkbox(on, text).changed();
                }
                if toggled {
                    state.repair(commands);
                }
            },
        );
    }
}
