//! A plot's legend as a row of entries above the plot, never over it. egui_plot draws
//! its legend inside the plot, over the data: in a short plot at projector size a
//! legend of four entries covers most of the plot and the ends of the curves under it
//! (the lecturer's review of lessons 8 and 12). Above the plot it covers nothing.

use bevy_egui::egui;

/// How an entry's curve is drawn, so its swatch looks the same.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Swatch {
    Solid,
    Dashed,
    Dots,
}

/// One curve's name, colour and stroke.
pub struct Entry {
    pub name: String,
    pub color: egui::Color32,
    pub swatch: Swatch,
}

impl Entry {
    pub fn new(name: impl Into<String>, color: egui::Color32, swatch: Swatch) -> Self {
        Self {
            name: name.into(),
            color,
            swatch,
        }
    }
}

/// The entries in a wrapped row, each a short stroke in its colour and its name, after
/// the plot's caption when it has one (one row for both where they fit).
pub fn legend_row(ui: &mut egui::Ui, caption: Option<&str>, entries: &[Entry]) {
    ui.horizontal_wrapped(|ui| {
        if let Some(caption) = caption {
            ui.label(caption);
        }
        for entry in entries.iter().filter(|e| !e.name.is_empty()) {
            let height = ui.text_style_height(&egui::TextStyle::Body);
            let size = egui::vec2(height * 1.4, height);
            let (rect, _) = ui.allocate_exact_size(size, egui::Sense::hover());
            draw_swatch(ui.painter(), rect, entry);
            ui.label(&entry.name);
            ui.add_space(height * 0.4);
        }
    });
}

fn draw_swatch(painter: &egui::Painter, rect: egui::Rect, entry: &Entry) {
    let y = rect.center().y;
    let (left, right) = (rect.left() + 1.0, rect.right() - 1.0);
    let stroke = egui::Stroke::new(2.5, entry.color);
    match entry.swatch {
        Swatch::Solid => {
            painter.line_segment([egui::pos2(left, y), egui::pos2(right, y)], stroke);
        }
        Swatch::Dashed => {
            let dash = (right - left) / 5.0;
            for i in [0.0, 2.0, 4.0] {
                let x = left + i * dash;
                painter.line_segment([egui::pos2(x, y), egui::pos2(x + dash, y)], stroke);
            }
        }
        Swatch::Dots => {
            painter.circle_filled(rect.center(), rect.height() * 0.25, entry.color);
        }
    }
}
