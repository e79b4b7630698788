//! The LP run in focus: the simplex tableau after the pivot under the cursor, with the
//! pivot element, its column (entering) and row (leaving) highlighted. Wide tableaux
//! show the columns around the pivot and the right-hand side.

use bevy_egui::egui;

use crate::app::model::ViewerModel;
use crate::solver::lp::{LpEvent, LpRecord, TableauSnapshot};
use crate::solver::trace::Trace;

/// Columns shown on each side of the pivot column.
const NEIGHBOURS: usize = 5;

pub(super) fn tableau_ui(ui: &mut egui::Ui, model: &ViewerModel, cursor: usize) {
    let Some(records) = model.focused_trace().and_then(Trace::steps::<LpRecord>) else {
        return;
    };
    ui.separator();
    ui.strong("Tableau after this pivot");
    let Some(record) = records.get(cursor.min(records.len().saturating_sub(1))) else {
        ui.label("no pivot was needed");
        return;
    };
    if let LpEvent::Vertex { vertex, inside } = record.event {
        ui.label(format!(
            "containment: vertex {vertex} {} (one collision test per vertex)",
            if inside { "inside" } else { "outside" }
        ));
        return;
    }
    let Some(t) = &record.tableau else {
        ui.label("too large to record (the tableau is kept for up to 4000 entries)");
        return;
    };
    grid(ui, t);
}

fn grid(ui: &mut egui::Ui, t: &TableauSnapshot) {
    let width = t.columns + 1;
    let lo = t.pivot_column.saturating_sub(NEIGHBOURS);
    let hi = (t.pivot_column + NEIGHBOURS + 1).min(t.columns);
    let mut shown: Vec<usize> = (lo..hi).collect();
    shown.push(t.columns); // the right-hand side
    let pivot_colour = egui::Color32::from_rgb(250, 200, 60);
    let line_colour = egui::Color32::from_rgb(250, 200, 60).gamma_multiply(0.35);
    egui::ScrollArea::horizontal().show(ui, |ui| {
        egui::Grid::new("tableau").striped(true).show(ui, |ui| {
            ui.label("");
            for &j in &shown {
                let name = t.column_names.get(j).map_or("rhs", String::as_str);
                ui.strong(name);
            }
            ui.end_row();
            for r in 0..=t.rows {
                ui.label(if r == t.rows {
                    "cost".to_string()
                } else {
                    format!("r{}", r + 1)
                });
                for &j in &shown {
                    let v = t.values[r * width + j];
                    let text = egui::RichText::new(format!("{v:.3}")).monospace();
                    let cell = if r == t.pivot_row && j == t.pivot_column {
                        text.background_color(pivot_colour).strong()
                    } else if r == t.pivot_row || j == t.pivot_column {
                        text.background_color(line_colour)
                    } else {
                        text
                    };
                    ui.label(cell);
                }
                ui.end_row();
            }
        });
    });
    if lo > 0 || hi < t.columns {
        ui.label(format!(
            "columns {}–{} of {} shown, around the pivot",
            lo + 1,
            hi,
            t.columns
        ));
    }
}
