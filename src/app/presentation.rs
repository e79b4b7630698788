//! Presenting in class: the projector theme (F5: larger UI, high contrast, thick lines,
//! the Okabe–Ito palette for the methods, `theme.rs`), the UI scale (Ctrl + / Ctrl −), hiding every
//! panel but the 3-D view and the narration (F4), and fullscreen (F11).

use bevy::prelude::*;
use bevy::window::{MonitorSelection, WindowMode};
use bevy_egui::input::egui_wants_any_keyboard_input;
use bevy_egui::{egui, EguiContexts, EguiPrimaryContextPass};

use super::state::{Presentation, ViewerSet};

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<Presentation>()
        .add_systems(
            Update,
            presentation_keys
                .run_if(not(egui_wants_any_keyboard_input))
                .in_set(ViewerSet::Input),
        )
        .add_systems(
            EguiPrimaryContextPass,
            apply_presentation.before(super::ui::ViewerUi),
        )
        .add_systems(Update, apply_window_and_lines.in_set(ViewerSet::Draw));
}

fn presentation_keys(keys: Res<ButtonInput<KeyCode>>, mut presentation: ResMut<Presentation>) {
    let ctrl = keys.any_pressed([KeyCode::ControlLeft, KeyCode::ControlRight]);
    if keys.just_pressed(KeyCode::F5) {
        let on = !presentation.projector;
        presentation.set_projector(on);
    }
    if keys.just_pressed(KeyCode::F4) {
        presentation.panels_hidden = !presentation.panels_hidden;
    }
    if keys.just_pressed(KeyCode::F11) {
        presentation.fullscreen = !presentation.fullscreen;
    }
    if ctrl && keys.any_just_pressed([KeyCode::Equal, KeyCode::NumpadAdd]) {
        presentation.scale_by(0.25);
    }
    if ctrl && keys.any_just_pressed([KeyCode::Minus, KeyCode::NumpadSubtract]) {
        presentation.scale_by(-0.25);
    }
}

/// UI scale and contrast, once per change.
fn apply_presentation(
    mut contexts: EguiContexts,
    presentation: Res<Presentation>,
    mut applied: Local<Option<Presentation>>,
) -> Result {
    if *applied == Some(*presentation) {
        return Ok(());
    }
    let ctx = contexts.ctx_mut()?;
    ctx.set_zoom_factor(presentation.ui_scale);
    let visuals = if presentation.projector {
        // High contrast for a washed-out projector: black on white, strong strokes.
        let mut v = egui::Visuals::light();
        v.override_text_color = Some(egui::Color32::BLACK);
        v.widgets.noninteractive.fg_stroke.width = 1.5;
        v.widgets.inactive.fg_stroke.width = 1.5;
        v.panel_fill = egui::Color32::WHITE;
        v.window_fill = egui::Color32::WHITE;
        v
    } else {
        egui::Visuals::dark()
    };
    ctx.set_visuals(visuals);
    *applied = Some(*presentation);
    Ok(())
}

/// Fullscreen, line width and background follow the theme.
fn apply_window_and_lines(
    presentation: Res<Presentation>,
    mut windows: Query<&mut Window>,
    mut store: ResMut<GizmoConfigStore>,
    mut clear: ResMut<ClearColor>,
) {
    if !presentation.is_changed() {
        return;
    }
    for mut window in &mut windows {
        window.mode = if presentation.fullscreen {
            WindowMode::BorderlessFullscreen(MonitorSelection::Current)
        } else {
            WindowMode::Windowed
        };
    }
    let (config, _) = store.config_mut::<DefaultGizmoConfigGroup>();
    config.line.width = if presentation.projector { 6.0 } else { 3.0 };
    clear.0 = if presentation.projector {
        Color::WHITE
    } else {
        Color::srgb(0.93, 0.94, 0.96)
    };
}

/// The theme's buttons (in the top bar).
pub fn presentation_ui(ui: &mut egui::Ui, presentation: &mut Presentation) {
    let mut projector = presentation.projector;
    if ui
        .checkbox(&mut projector, "projector")
        .on_hover_text("F5: larger UI, high contrast, thick lines, Okabe–Ito colours")
        .changed()
    {
        presentation.set_projector(projector);
    }
    ui.add(
        egui::Slider::new(&mut presentation.ui_scale, Presentation::SCALE_RANGE)
            .step_by(0.05)
            .text("UI scale"),
    )
    .on_hover_text("Ctrl + / Ctrl −");
    if ui
        .button("hide panels")
        .on_hover_text("F4: only the 3-D view and the narration (F4 again to return)")
        .clicked()
    {
        presentation.panels_hidden = true;
    }
    ui.checkbox(&mut presentation.fullscreen, "fullscreen")
        .on_hover_text("F11");
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_projector_theme_scales() {
        let mut p = Presentation::default();
        p.set_projector(true);
        assert_eq!(p.ui_scale, 1.75);
        p.scale_by(5.0);
        assert_eq!(p.ui_scale, 2.5);
        p.set_projector(false);
        assert_eq!(p.ui_scale, 1.1);
    }
}
