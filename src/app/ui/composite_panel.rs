//! A composite pair's panel section: each enabled method's answer on the whole pair (its
//! verdict, its certified bracket, the sub-pair that makes it, the hierarchy nodes
//! visited and pruned, the sub-pairs run), the focused method's sub-pairs nearest first
//! (a click puts one in focus: every view below and the playback then show it), and
//! the contacts on the mesh with their internal edges and the layers' legend.

use bevy_egui::egui;

use crate::app::command::{PendingCommands, ViewerCommand};
use crate::app::composite_view::CompositeView;
use crate::app::draw::composite::{
    COLOR_CONE, COLOR_FOCUSED_PIECE, COLOR_GHOST, COLOR_IN_CONE, COLOR_JOLT, COLOR_NODE_KEPT,
    COLOR_NODE_PRUNED, COLOR_PARRY,
};
use crate::app::model::ViewerModel;
use crate::app::theme::Theme;
use crate::composite::query::rank_key;
use crate::printed_bound::{Above, Below};

/// Rows of the sub-pair list shown at once (it scrolls).
const LIST_HEIGHT: f32 = 190.0;

fn color32(c: bevy::prelude::Color) -> egui::Color32 {
    let s = c.to_srgba();
    egui::Color32::from_rgb(
        (s.red * 255.0) as u8,
        (s.green * 255.0) as u8,
        (s.blue * 255.0) as u8,
    )
}

/// "[0.1234, 0.1240]", the bracket printed on its safe sides.
fn bracket_text(lower: f64, upper: f64) -> String {
    if upper.is_finite() {
        format!("[{:.6}, {:.6}]", Below(lower), Above(upper))
    } else {
        format!("≥ {:.6}", Below(lower))
    }
}

/// The whole pair's answers and the sub-pairs; nothing when the pair has no composite.
pub fn composite_panel_ui(
    ui: &mut egui::Ui,
    model: &ViewerModel,
    theme: Theme,
    commands: &mut PendingCommands,
) {
    let Some(view) = model.composite() else {
        return;
    };
    let scene = &model.scene;
    let first = &scene.bodies[view.first_body];
    let Some(composite) = first.composite.as_deref() else {
        return;
    };
    let other = &scene.bodies[view.second_body];
    let other_name = other
        .composite
        .as_deref()
        .map_or_else(|| other.shape.kind_name().to_string(), |c| c.describe());
    ui.strong(format!(
        "Whole pair: {} and {other_name}",
        composite.describe()
    ))
    .on_hover_text(
        "answered through the midphase: parry's Bvh over the pieces keeps the sub-pairs \
         that could be nearest, each runs through the method, and the answer is certified by \
         the runs and the pruned boxes",
    );
    for run in &view.runs {
        let m = run.method;
        let a = &run.answer;
        ui.label(
            egui::RichText::new(format!("{}: {}", m.label(), a.outcome))
                .color(theme.method_color(m)),
        );
        let nearest = a
            .nearest
            .map_or("none".to_string(), |k| scene.sub_pair_name(run, k));
        ui.label(format!(
            "   bracket {} · nearest {nearest}",
            bracket_text(a.lower, a.upper)
        ))
        .on_hover_text(
            "the distance lies in the bracket: every sub-pair run or pruned by its box proves it",
        );
        if let Some(floor) = a.hull_floor {
            ui.label(format!(
                "   hull start: the hulls' separating plane proves {}",
                bracket_text(floor, f64::INFINITY)
            ))
            .on_hover_text(
                "the hulls hold the pieces, so their separating plane (every vertex checked \
                 against it) bounds the distance from below; the search ran the pieces at the \
                 hulls' nearest points first, and ends when they meet that bound",
            );
        }
        // Between two composites the candidates are pairs of pieces.
        let of = match scene.bodies[view.second_body].composite.as_deref() {
            Some(other) => format!(
                "{} × {} pairs of pieces",
                composite.pieces().count(),
                other.pieces().count()
            ),
            None => format!("{} {}", composite.pieces().count(), composite.pieces_word()),
        };
        ui.label(format!(
            "   nodes visited {} (pruned {}), sub-pairs run {} of {of}",
            a.nodes_visited,
            a.nodes_pruned,
            a.sub_pairs.len(),
        ));
    }
    ui.label(
        egui::RichText::new(format!(
            "{:.0} µs for the whole-pair answers at this pose",
            view.micros
        ))
        .weak(),
    );
    sub_pairs_ui(ui, model, view, commands);
    contacts_ui(ui, model, view);
    ui.separator();
}

/// The focused method's sub-pairs, nearest first; a click puts one in focus.
fn sub_pairs_ui(
    ui: &mut egui::Ui,
    model: &ViewerModel,
    view: &CompositeView,
    commands: &mut PendingCommands,
) {
    let run = view.focused_run();
    let scene = &model.scene;
    ui.horizontal(|ui| {
        ui.strong(format!(
            "Sub-pairs of {}, nearest first",
            run.method.label()
        ));
        let following = model.sub_pair_choice().is_none();
        if ui
            .selectable_label(following, "follow the nearest")
            .on_hover_text(
                "the sub-pair in focus is the one that makes the answer, as the pose changes",
            )
            .clicked()
        {
            commands.push(ViewerCommand::FocusSubPair(None));
        }
    });
    if let Some((piece, _)) = view.choice_not_run {
        let name = scene.bodies[view.first_body]
            .composite
            .as_deref()
            .map_or_else(String::new, |c| c.piece_name(piece));
        ui.colored_label(
            color32(COLOR_GHOST),
            format!("{name} was pruned at this pose: the nearest is in focus"),
        );
    }
    let order = run.ranked();
    if order.is_empty() {
        ui.label("no sub-pair was run: the views show the hull");
        return;
    }
    let row_height = ui.text_style_height(&egui::TextStyle::Body) + 4.0;
    egui::ScrollArea::vertical()
        .id_salt("sub-pairs")
        .max_height(LIST_HEIGHT)
        .show_rows(ui, row_height, order.len(), |ui, rows| {
            egui::Grid::new("sub-pairs-grid")
                .striped(true)
                .num_columns(4)
                .show(ui, |ui| {
                    for &k in &order[rows] {
                        let sub = &run.answer.sub_pairs[k];
                        let outcome = &sub.run.summary.outcome;
                        let mut name = scene.sub_pair_name(run, k);
                        if Some(k) == run.answer.nearest {
                            name.push_str(" ★");
                        }
                        let selected = Some(k) == view.sub_pair;
                        if ui
                            .selectable_label(selected, name)
                            .on_hover_text("put this sub-pair in focus: A ⊖ B, the steps and the plots show it")
                            .clicked()
                        {
                            commands
                                .push(ViewerCommand::FocusSubPair(Some((sub.piece, sub.other))));
                        }
                        ui.label(outcome.status_name())
                            .on_hover_text(outcome.to_string());
                        let key = rank_key(outcome);
                        ui.label(match outcome.signed_distance() {
                            Some(d) => format!("{d:.6}"),
                            None if key.is_finite() => format!("{key:.6}"),
                            None => "—".into(),
                        });
                        ui.label(format!("{} it.", sub.run.summary.iterations));
                        ui.end_row();
                    }
                });
        });
    if let Some(k) = view.sub_pair {
        ui.horizontal(|ui| {
            ui.colored_label(color32(COLOR_FOCUSED_PIECE).gamma_multiply(0.7), "■");
            ui.label(format!(
                "In focus: {} (yellow on the mesh). The results below, A ⊖ B, the steps and \
                 the plots are this sub-pair's.",
                scene.sub_pair_name(run, k)
            ));
        });
    }
}

/// The contacts on the mesh with their features and internal edges, and the legend.
fn contacts_ui(ui: &mut egui::Ui, model: &ViewerModel, view: &CompositeView) {
    let run = view.focused_run();
    let scene = &model.scene;
    let Some(composite) = scene.bodies[view.first_body].composite.as_deref() else {
        return;
    };
    let legend = |ui: &mut egui::Ui, colour: bevy::prelude::Color, text: &str, hover: &str| {
        ui.horizontal(|ui| {
            ui.colored_label(color32(colour), "■");
            ui.label(text).on_hover_text(hover);
        });
    };
    egui::CollapsingHeader::new(format!(
        "Contacts within the margin: {} ({} ghosts)",
        run.contacts.len(),
        run.contacts
            .iter()
            .filter(|c| c.edges.as_ref().is_some_and(|e| !e.in_cone))
            .count()
    ))
    .id_salt("composite-contacts")
    .default_open(true)
    .show(ui, |ui| {
        // Between two composites, the second one (its pieces name each contact's other side).
        let other = scene.bodies[view.second_body].composite.as_deref();
        for c in &run.contacts {
            let name = composite.piece_name(c.piece);
            // Printed the safe way: a depth (proved) rounded down, a gap (an upper
            // bound) up.
            let gap = if c.gap < 0.0 {
                format!("depth {:.6}", Below(-c.gap))
            } else {
                format!("gap {:.6}", Above(c.gap))
            };
            let with = match (&c.other, other) {
                (Some(o), Some(k)) => format!(" with {}", k.piece_name(o.piece)),
                _ => String::new(),
            };
            let gap = format!("{gap}{with}");
            let Some(e) = &c.edges else {
                ui.label(format!("{name}: {gap}"));
                continue;
            };
            let (word, colour) = if e.in_cone {
                ("in its cone", COLOR_IN_CONE)
            } else {
                ("a ghost", COLOR_GHOST)
            };
            let v = |n: glam::DVec3| {
                let w = scene.bodies[view.first_body].pose.rotation * n;
                format!("({:.3}, {:.3}, {:.3})", w.x, w.y, w.z)
            };
            let jolt = match c.jolt_kept {
                Some(true) => ", Jolt's enhanced removal keeps it",
                Some(false) => ", Jolt's enhanced removal drops it",
                None => "",
            };
            ui.colored_label(
                color32(colour),
                format!("{name} {}: {gap}, normal {} is {word}", e.feature, v(e.contact_normal)),
            )
            .on_hover_text(format!(
                "cone ({}) of {} normals; parry FIX_INTERNAL_EDGES: {}; Jolt active edges: {}{jolt}",
                e.cone.kind(),
                e.cone.normals().len(),
                e.parry_fixed.map_or("drops it".to_string(), v),
                v(e.jolt_active_edges),
            ));
            if let (Some(o), Some(k)) = (&c.other, other) {
                if let Some(f) = &o.edges {
                    let (word, colour) = if f.in_cone {
                        ("in its cone", COLOR_IN_CONE)
                    } else {
                        ("a ghost", COLOR_GHOST)
                    };
                    ui.colored_label(
                        color32(colour),
                        format!(
                            "    seen from {} {}: the normal is {word} there",
                            k.piece_name(o.piece),
                            f.feature
                        ),
                    );
                }
            }
        }
        ui.label(egui::RichText::new("Legend (layers \"BVH\" and \"internal edges\")").weak());
        legend(
            ui,
            COLOR_CONE,
            "the feature's normal cone",
            "the normals the mesh has at the contact's feature (face, edge, vertex), from the \
             faces around it; an arc joins normals the cone spans",
        );
        legend(
            ui,
            COLOR_IN_CONE,
            "contact normal inside the cone",
            "a true normal of the surface there",
        );
        legend(
            ui,
            COLOR_GHOST,
            "ghost normal (outside the cone)",
            "the triangle alone pushes along a direction the surface does not face: what \
             catches a box sliding across a flat triangulated floor",
        );
        legend(
            ui,
            COLOR_PARRY,
            "parry's FIX_INTERNAL_EDGES normal",
            "what parry reports for a ghost with TriMeshFlags::FIX_INTERNAL_EDGES",
        );
        legend(
            ui,
            COLOR_JOLT,
            "Jolt's active-edge normal",
            "what Jolt reports (ActiveEdges: a contact on an inactive edge takes the face normal)",
        );
        legend(
            ui,
            COLOR_NODE_KEPT,
            "BVH node searched",
            "its box was nearer than the best sub-pair found then",
        );
        legend(
            ui,
            COLOR_NODE_PRUNED,
            "BVH node pruned",
            "its box (or a triangle's plane) was no nearer than the best found: nothing in it is run",
        );
    });
}
