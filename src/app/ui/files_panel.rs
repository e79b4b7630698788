//! Files: a path field and buttons (dialogs open when the path is empty or "…" is
//! pressed), and which shape a dropped OBJ replaces.

use std::path::PathBuf;

use bevy::prelude::MessageWriter;
use bevy_egui::egui;

use crate::app::files::{DropTarget, FileAction, FileRequest};
use crate::app::model::Side;

pub fn files_panel_ui(
    ui: &mut egui::Ui,
    path: &mut String,
    drop_target: &mut DropTarget,
    files: &mut MessageWriter<FileRequest>,
) {
    ui.strong("Files");
    ui.horizontal(|ui| {
        ui.label("path");
        ui.add(egui::TextEdit::singleline(path).desired_width(220.0));
    });
    let typed = || {
        let p = path.trim();
        (!p.is_empty()).then(|| PathBuf::from(p))
    };
    let typed_path = typed();
    let mut request = |action: FileAction, dialog: bool| {
        files.write(FileRequest {
            action,
            path: if dialog { None } else { typed_path.clone() },
        });
    };
    for (label, action) in [
        ("Open mesh as A", FileAction::OpenObj(Side::A)),
        ("Open mesh as B", FileAction::OpenObj(Side::B)),
        ("Open scene", FileAction::OpenScene),
        ("Open URDF (robot)", FileAction::OpenRobot),
        ("Save scene", FileAction::SaveScene),
        ("Export run CSV", FileAction::ExportCsv),
        ("Export run JSON", FileAction::ExportJson),
        ("Export Coal script", FileAction::ExportCoal),
        ("Export parry test", FileAction::ExportParry),
        ("Screenshot PNG", FileAction::Screenshot),
        ("Animation GIF", FileAction::Animation),
    ] {
        ui.horizontal(|ui| {
            if ui
                .button(label)
                .on_hover_text("uses the path above")
                .clicked()
            {
                request(action, typed_path.is_none());
            }
            if ui
                .small_button("…")
                .on_hover_text("choose with a file dialog")
                .clicked()
            {
                request(action, true);
            }
        });
    }
    ui.horizontal(|ui| {
        ui.label("dropped mesh replaces");
        ui.radio_value(&mut drop_target.0, Side::A, "A");
        ui.radio_value(&mut drop_target.0, Side::B, "B");
    });
}
