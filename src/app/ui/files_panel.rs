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
        ("Export web page", FileAction::ExportWebPage),
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
    lessons_menu(ui, files);
    gallery_menu(ui, files);
    ui.horizontal(|ui| {
        ui.label("dropped mesh replaces");
        ui.radio_value(&mut drop_target.0, Side::A, "A");
        ui.radio_value(&mut drop_target.0, Side::B, "B");
    });
}

/// A folder of the shipped scenes (`gallery`, `lessons`): below the working folder, else
/// in the source tree this viewer was built from.
fn scenes_dir(name: &str) -> Option<PathBuf> {
    [
        PathBuf::from("scenes").join(name),
        PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/scenes")).join(name),
    ]
    .into_iter()
    .find(|p| p.is_dir())
}

fn gallery_dir() -> Option<PathBuf> {
    scenes_dir("gallery")
}

/// Lessons: the course's paths in teaching order (`scenes/lessons/course.ron`), each
/// lesson by its title.
fn lessons_menu(ui: &mut egui::Ui, files: &mut MessageWriter<FileRequest>) {
    ui.menu_button("Lessons", |ui| {
        let Some(dir) = scenes_dir("lessons") else {
            ui.label("no scenes/lessons folder here");
            return;
        };
        let course = match crate::scene::Course::load(&dir) {
            Ok(course) => course,
            Err(e) => {
                ui.label(e.to_string());
                return;
            }
        };
        for path in &course.paths {
            ui.strong(&path.name).on_hover_text(&path.about);
            for stem in &path.lessons {
                let file = dir.join(format!("{stem}.ron"));
                let title = lesson_title(&file).unwrap_or_else(|| stem.clone());
                if ui.button(title).clicked() {
                    files.write(FileRequest {
                        action: FileAction::OpenScene,
                        path: Some(file),
                    });
                    ui.close();
                }
            }
            ui.separator();
        }
    });
}

/// A lesson's title: its scene's `name`, read from the file's text without loading it.
fn lesson_title(file: &std::path::Path) -> Option<String> {
    let text = std::fs::read_to_string(file).ok()?;
    let line = text.lines().find(|l| l.trim_start().starts_with("name:"))?;
    let quoted = line.split_once('"')?.1.rsplit_once('"')?.0;
    Some(quoted.to_string())
}

/// The gallery's scenes by name (their first comment line says which bug report).
fn gallery_scenes() -> Vec<(String, PathBuf)> {
    let Some(dir) = gallery_dir() else {
        return Vec::new();
    };
    let mut scenes: Vec<(String, PathBuf)> = std::fs::read_dir(&dir)
        .into_iter()
        .flatten()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "ron"))
        .map(|p| {
            let title = std::fs::read_to_string(&p)
                .ok()
                .and_then(|t| {
                    t.lines()
                        .next()
                        .and_then(|l| l.strip_prefix("// Gallery: "))
                        .and_then(|l| l.split(". Imported").next())
                        .map(str::to_string)
                })
                .unwrap_or_else(|| {
                    p.file_stem()
                        .unwrap_or_default()
                        .to_string_lossy()
                        .into_owned()
                });
            (title, p)
        })
        .collect();
    scenes.sort();
    scenes
}

/// Gallery: real failures of other engines (FCL, parry, ncollide), each opening as a
/// scene whose lesson walks through where that engine went wrong.
fn gallery_menu(ui: &mut egui::Ui, files: &mut MessageWriter<FileRequest>) {
    ui.menu_button("Gallery of real failures", |ui| {
        let scenes = gallery_scenes();
        if scenes.is_empty() {
            ui.label("no scenes/gallery folder here");
        }
        for (title, path) in scenes {
            if ui.button(title).clicked() {
                files.write(FileRequest {
                    action: FileAction::OpenScene,
                    path: Some(path),
                });
                ui.close();
            }
        }
    });
}
