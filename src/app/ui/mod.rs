//! The panels around the 3-D view. Each panel is a plain `_ui` function over the model
//! and a few requests; this file lays them out, sizes the 3-D viewport to what is left,
//! and writes the labels of the 3-D view.

mod algorithms_panel;
mod composite_panel;
mod diagnose_panel;
mod family_settings;
mod files_panel;
mod playback_panel;
mod plots;
pub use plots::rest_of;
mod shape_panel;
mod top_bar;

use crate::app::theme::Theme;
use bevy::camera::Viewport;
use bevy::ecs::system::SystemParam;
use bevy::prelude::*;
use bevy_egui::{egui, EguiContexts, EguiPrimaryContextPass};

use super::camera::{CameraRequest, OrbitCamera};
use super::command::PendingCommands;
use super::companion::{self, CompanionState};
use super::diagnose::Diagnosis;
use super::draw::minkowski::DifferenceFrame;
use super::draw::{LabelLayout, PlacedLabel, ViewLabels};
use super::files::{DropTarget, FileAction, FileRequest};
use super::playback::PlaybackRequest;
use super::state::{Layers, Model, PlaybackCursor, StatusLine, ViewerMode};

pub use shape_panel::ShapeDrafts;

/// Text typed into the panels that is not part of the model yet.
#[derive(Resource)]
pub struct UiText {
    pub file_path: String,
    pub drafts: ShapeDrafts,
    /// The bounds plot on a log scale (distance to d*) rather than linear.
    pub bounds_log: bool,
}

impl Default for UiText {
    fn default() -> Self {
        Self {
            file_path: "collidescope-run.csv".into(),
            drafts: ShapeDrafts::default(),
            bounds_log: true,
        }
    }
}

/// Everything the panels read and edit.
#[derive(SystemParam)]
pub struct PanelState<'w> {
    model: Res<'w, Model>,
    /// The labels that fell outside the view (for `view --check-labels`).
    label_layout: ResMut<'w, LabelLayout>,
    commands: ResMut<'w, PendingCommands>,
    mode: Res<'w, State<ViewerMode>>,
    next_mode: ResMut<'w, NextState<ViewerMode>>,
    cursor: ResMut<'w, PlaybackCursor>,
    layers: ResMut<'w, Layers>,
    status: ResMut<'w, StatusLine>,
    text: ResMut<'w, UiText>,
    drop_target: ResMut<'w, DropTarget>,
    frame: Res<'w, DifferenceFrame>,
    diagnosis: ResMut<'w, Diagnosis>,
    companions: ResMut<'w, CompanionState>,
    orbit: Res<'w, OrbitCamera>,
    robot: ResMut<'w, crate::app::robot::RobotSession>,
    lesson: ResMut<'w, crate::app::lesson::LessonPlayer>,
    presentation: ResMut<'w, crate::app::state::Presentation>,
}

/// What the panels ask other plugins to do.
#[derive(SystemParam)]
pub struct PanelRequests<'w> {
    files: MessageWriter<'w, FileRequest>,
    playback: MessageWriter<'w, PlaybackRequest>,
    camera: MessageWriter<'w, CameraRequest>,
}

/// "A: parry hull, checked · B: exact quickhull, checked" for the polytopes in the scene
/// (empty when neither body is one): which hull their supports and drawings use.
fn hull_paths(model: &Model) -> String {
    use crate::app::model::Side;
    [Side::A, Side::B]
        .into_iter()
        .filter_map(|side| {
            let source = model.body(model.side(side)).shape.hull_source()?;
            Some(format!("{}: {}", side.label(), source.label()))
        })
        .collect::<Vec<_>>()
        .join(" · ")
}

/// The panels' system (the theme is applied before it).
#[derive(SystemSet, Debug, Clone, PartialEq, Eq, Hash)]
pub struct ViewerUi;

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<UiText>()
        .add_systems(EguiPrimaryContextPass, viewer_ui.in_set(ViewerUi));
}

fn viewer_ui(
    mut contexts: EguiContexts,
    mut state: PanelState,
    mut requests: PanelRequests,
    labels: Res<ViewLabels>,
    mut camera: Query<(&mut Camera, &GlobalTransform), With<Camera3d>>,
    window: Query<&Window>,
    animation: Option<Res<crate::app::animate::AnimationJob>>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    // The 3-D view takes what the panels leave, whichever layout drew them.
    let mut place = |root: &egui::Ui, state: &mut PanelState| {
        let show = state.layers.labels;
        place_viewport(
            ctx,
            root,
            &mut camera,
            &window,
            &labels,
            show,
            &mut state.label_layout,
        );
    };
    let mut root = egui::Ui::new(
        ctx.clone(),
        "viewer-root".into(),
        egui::UiBuilder::new()
            .layer_id(egui::LayerId::background())
            .max_rect(ctx.viewport_rect()),
    );
    if state.presentation.panels_hidden {
        // Only the 3-D view and the narration (F4 brings the panels back).
        egui::Panel::bottom("narration-only").show(&mut root, |ui| {
            if crate::app::lesson::has_lesson(&state.lesson) {
                crate::app::lesson::lesson_text_ui(ui, &state.lesson, 22.0);
            } else {
                playback_panel::narration_ui(ui, &state.model, &state.cursor);
            }
        });
        place(&root, &mut state);
        return Ok(());
    }
    egui::Panel::top("top-bar").show(&mut root, |ui| {
        top_bar::top_bar_ui(
            ui,
            &mut state.layers,
            &state.status,
            &state.frame,
            &hull_paths(&state.model),
            &mut requests.camera,
        );
        ui.horizontal(|ui| {
            if crate::app::lesson::has_lesson(&state.lesson) {
                let p = &mut state.presentation;
                let label = if p.lesson_panels {
                    "lesson view"
                } else {
                    "all panels"
                };
                let hint = "In a lesson the picture and its text own the screen: the shape, \
                            method and playback panels fold away (the plots come back on steps \
                            that show them). This brings every panel back, or folds them again.";
                if ui.button(label).on_hover_text(hint).clicked() {
                    p.lesson_panels = !p.lesson_panels;
                }
            }
            crate::app::presentation::presentation_ui(ui, &mut state.presentation);
            if let Some(job) = &animation {
                let (done, total) = job.progress();
                let fraction = done as f32 / total.max(1) as f32;
                ui.add(
                    egui::ProgressBar::new(fraction)
                        .desired_width(220.0)
                        .text(format!("animation: frame {done} of {total}")),
                );
            }
        });
    });
    // A lesson folds the panels away unless asked for: the picture and the text own the
    // screen (the plots stay on the steps that show them).
    let lesson_view =
        crate::app::lesson::has_lesson(&state.lesson) && !state.presentation.lesson_panels;
    // The questions page after the last step is the text and the picture alone.
    let playback_shown = !lesson_view || (state.layers.plots && !state.lesson.on_questions());
    if playback_shown {
        let mut panel = egui::Panel::bottom("playback-panel")
            .resizable(true)
            .default_size(330.0);
        if lesson_view {
            // In a lesson, over a quarter of the window, at least: the plots read (with
            // their legends above them), the picture stays the larger part (a
            // projector's 1080 rows scale the panels up). A minimum, not a default: the
            // panel's first size is taken before the window reaches its own.
            let height = ctx.viewport_rect().height();
            panel = panel.min_size((height * 0.28).max(220.0).min(height * 0.45));
        }
        panel.show(&mut root, |ui| {
            playback_panel::playback_panel_ui(
                ui,
                &state.model,
                &mut state.cursor,
                &mut requests.playback,
                crate::app::lesson::narration_shown(&state.lesson),
                !crate::app::lesson::has_lesson(&state.lesson),
            );
            companion::playback_section_ui(ui, &state.model, &mut state.companions);
            ui.separator();
            plots::plots_ui(
                ui,
                &state.model,
                Theme::of(&state.presentation),
                &state.companions,
                state.cursor.cursor,
                &mut state.text.bounds_log,
            );
        });
    }
    if crate::app::lesson::has_lesson(&state.lesson) {
        // As tall as the step's text (a step of four lines is read whole, never cut).
        egui::Panel::bottom("lesson-text")
            .resizable(false)
            .show(&mut root, |ui| {
                crate::app::lesson::lesson_text_ui(ui, &state.lesson, 22.0);
            });
    }
    if lesson_view {
        egui::Panel::left("lesson-steps")
            .resizable(true)
            .default_size(230.0)
            .show(&mut root, |ui| {
                egui::ScrollArea::vertical().show(ui, |ui| {
                    crate::app::lesson::lesson_panel_ui(ui, &mut state.lesson);
                    crate::app::lesson::try_it_ui(ui, &state.model, &mut state.commands);
                });
            });
        place(&root, &mut state);
        return Ok(());
    }
    egui::Panel::left("scene-panel")
        .resizable(true)
        .default_size(330.0)
        .show(&mut root, |ui| {
            egui::ScrollArea::vertical().show(ui, |ui| {
                if crate::app::lesson::has_lesson(&state.lesson) {
                    crate::app::lesson::lesson_panel_ui(ui, &mut state.lesson);
                    ui.separator();
                }
                if let Some(robot) = state.robot.0.as_mut() {
                    crate::app::robot::robot_panel_ui(ui, robot, &state.model, &mut state.commands);
                    ui.separator();
                }
                shape_panel::scene_panel_ui(
                    ui,
                    &state.model,
                    &mut state.text.drafts,
                    &mut state.commands,
                );
                ui.separator();
                files_panel::files_panel_ui(
                    ui,
                    &mut state.text.file_path,
                    &mut state.drop_target,
                    &mut requests.files,
                );
            });
        });
    egui::Panel::right("algorithms-panel")
        .resizable(true)
        .default_size(360.0)
        .show(&mut root, |ui| {
            egui::ScrollArea::vertical().show(ui, |ui| {
                let mut mode = *state.mode.get();
                ui.horizontal(|ui| {
                    ui.selectable_value(&mut mode, ViewerMode::Explore, "Methods");
                    ui.selectable_value(&mut mode, ViewerMode::Diagnose, "Diagnose");
                });
                if mode != *state.mode.get() {
                    state.next_mode.set(mode);
                }
                ui.separator();
                if *state.mode.get() == ViewerMode::Explore {
                    algorithms_panel::algorithms_panel_ui(
                        ui,
                        &state.model,
                        Theme::of(&state.presentation),
                        &mut state.commands,
                    );
                    companion::methods_sections_ui(ui, &state.model, state.cursor.cursor);
                    return;
                }
                let view = state.orbit.transform();
                let right_up = (view.right().as_dvec3(), view.up().as_dvec3());
                let actions = diagnose_panel::diagnose_panel_ui(
                    ui,
                    &mut state.diagnosis,
                    &state.model,
                    Theme::of(&state.presentation),
                    &mut state.commands,
                    &mut state.status,
                    right_up,
                );
                if actions.save_pose {
                    requests.files.write(FileRequest {
                        action: FileAction::SaveScene,
                        path: Some(scene_path(&state.text.file_path)),
                    });
                }
            });
        });
    place(&root, &mut state);
    Ok(())
}

/// The 3-D camera draws in what the panels left, with its labels.
fn place_viewport(
    ctx: &egui::Context,
    root: &egui::Ui,
    camera: &mut Query<(&mut Camera, &GlobalTransform), With<Camera3d>>,
    window: &Query<&Window>,
    labels: &ViewLabels,
    show_labels: bool,
    layout: &mut LabelLayout,
) {
    *layout = LabelLayout::default();
    let view = root.available_rect_before_wrap();
    let zoom = ctx.zoom_factor();
    let scale = window.iter().next().map_or(1.0, |w| w.scale_factor()) * zoom;
    if let Ok((mut cam, transform)) = camera.single_mut() {
        let position = UVec2::new((view.min.x * scale) as u32, (view.min.y * scale) as u32);
        let size = UVec2::new(
            (view.width() * scale).max(1.0) as u32,
            (view.height() * scale).max(1.0) as u32,
        );
        cam.viewport = Some(Viewport {
            physical_position: position,
            physical_size: size,
            ..default()
        });
        if show_labels {
            *layout = draw_labels(ctx, &cam, transform, labels, view, zoom);
        }
    }
}

/// The path field if it names a scene file, else `slow-case.ron`.
fn scene_path(field: &str) -> std::path::PathBuf {
    let p = field.trim();
    if p.ends_with(".ron") {
        p.into()
    } else {
        "slow-case.ron".into()
    }
}

/// How much of its layer's colour a label's text keeps (the rest is black).
const LABEL_SHADE: f32 = 0.72;

/// Behind every view label: the view's background colour, nearly opaque.
const LABEL_BACKING: egui::Color32 = egui::Color32::from_rgba_premultiplied(200, 202, 207, 215);

/// Writes the 3-D view's labels at their projected positions; returns where each went
/// (and which fell outside the view or behind the camera).
fn draw_labels(
    ctx: &egui::Context,
    camera: &Camera,
    transform: &GlobalTransform,
    labels: &ViewLabels,
    view: egui::Rect,
    zoom: f32,
) -> LabelLayout {
    let mut outside = Vec::new();
    let mut drawn = Vec::new();
    let painter = ctx.layer_painter(egui::LayerId::new(
        egui::Order::Foreground,
        "view-labels".into(),
    ));
    let painter = painter.with_clip_rect(view);
    let font = egui::FontId::proportional(15.0);
    let mut placed: Vec<egui::Rect> = Vec::new();
    // Every labelled point's marker, which no other label may cover (a support's
    // label over the origin's axes hides O).
    let markers: Vec<egui::Rect> = labels
        .0
        .iter()
        .filter_map(|(world, _, _)| camera.world_to_viewport(transform, *world).ok())
        .map(|p| egui::Rect::from_center_size(egui::pos2(p.x, p.y) / zoom, egui::vec2(9.0, 9.0)))
        .collect();
    for (world, text, color) in &labels.0 {
        let Ok(p) = camera.world_to_viewport(transform, *world) else {
            outside.push(text.clone());
            continue;
        };
        // Logical window pixels (the viewport offset included); egui points are / zoom.
        let point = egui::pos2(p.x, p.y) / zoom;
        let at = point + egui::vec2(6.0, -6.0);
        // The layer's colour, darkened: light tints (the simplex's pink) read as text
        // on the pale backing only when darker than the lines drawn in them.
        let c = color.to_srgba();
        let shade = |v: f32| (v * LABEL_SHADE * 255.0) as u8;
        let color = egui::Color32::from_rgb(shade(c.red), shade(c.green), shade(c.blue));
        let galley = painter.layout_no_wrap(text.clone(), font.clone(), color);
        // A label whose point is in the view but whose text would run past its edge (a
        // ghost contact's name near the right panel) is slid back inside.
        let at = if view.contains(at) {
            slid_inside(at, galley.size(), view)
        } else {
            at
        };
        // Labels at one place (x1, w1 and O at the origin) are stacked, never overlaid;
        // the earlier label keeps its place.
        let others = markers.iter().filter(|m| !m.contains(point));
        let obstacles: Vec<egui::Rect> = placed.iter().copied().chain(others.copied()).collect();
        let rect = free_spot(at, galley.size(), &obstacles, view);
        placed.push(rect);
        if !view.contains_rect(rect) {
            outside.push(text.clone());
        } else {
            drawn.push(PlacedLabel {
                text: text.clone(),
                world: *world,
                point,
                rect,
            });
        }
        // A pale backing, so a label reads over a face of its own colour (a pink w on
        // the pink region) as well as over the light background.
        painter.rect_filled(rect.expand(1.5), 3.0, LABEL_BACKING);
        painter.galley(rect.min, galley, color);
    }
    LabelLayout {
        view: Some(view),
        placed: drawn,
        outside,
    }
}

/// The bottom-left anchor of a label of `size` moved so that the label lies inside
/// `view` (as far as it fits): left from the right edge, down from the top edge.
fn slid_inside(anchor: egui::Pos2, size: egui::Vec2, view: egui::Rect) -> egui::Pos2 {
    let x = anchor.x.min(view.right() - size.x).max(view.left());
    let y = anchor.y.max(view.top() + size.y).min(view.bottom());
    egui::pos2(x, y)
}

/// Where a label of `size` anchored at its bottom-left `anchor` goes: the anchor's own
/// place if free, else the free place nearest the point it names (`anchor` is 6 px right
/// of and above it): stacked a line or more above or below, on the point's right or on
/// its left, so that no two labels overlap and none drifts far from its point.
fn free_spot(
    anchor: egui::Pos2,
    size: egui::Vec2,
    placed: &[egui::Rect],
    view: egui::Rect,
) -> egui::Rect {
    let point = anchor + egui::vec2(-6.0, 6.0);
    // Every candidate slid inside the view (as far as it fits), so that moving a label
    // off its neighbours never pushes it past the view's edge.
    let at = |dx: f32, dy: f32| {
        let min = anchor + egui::vec2(dx, dy - size.y);
        if !view.contains(anchor) {
            return egui::Rect::from_min_size(min, size);
        }
        let inside = slid_inside(min + egui::vec2(0.0, size.y), size, view);
        egui::Rect::from_min_size(inside - egui::vec2(0.0, size.y), size)
    };
    let free = |r: &egui::Rect| !placed.iter().any(|p| p.intersects(r.shrink(0.5)));
    let own = at(0.0, 0.0);
    if free(&own) {
        return own;
    }
    let step = size.y.max(1.0);
    let left = -(size.x + 12.0);
    let mut candidates: Vec<egui::Rect> = (-12..=12)
        .flat_map(|k| [at(0.0, step * k as f32), at(left, step * k as f32)])
        .collect();
    candidates.sort_by(|a, b| {
        a.distance_to_pos(point)
            .total_cmp(&b.distance_to_pos(point))
    });
    candidates.into_iter().find(free).unwrap_or(own)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::app::command::ViewerCommand;
    use crate::app::model::{Side, ViewerModel};
    use crate::scene::Scene;

    /// A label near the view's right or top edge is slid back inside it; one that fits
    /// keeps its place.
    #[test]
    fn labels_near_an_edge_slide_inside_the_view() {
        let view = egui::Rect::from_min_max(egui::pos2(100.0, 50.0), egui::pos2(500.0, 400.0));
        let size = egui::vec2(120.0, 16.0);
        let near_right = slid_inside(egui::pos2(450.0, 200.0), size, view);
        assert_eq!(near_right, egui::pos2(380.0, 200.0));
        let near_top = slid_inside(egui::pos2(200.0, 55.0), size, view);
        assert_eq!(near_top, egui::pos2(200.0, 66.0));
        let fits = slid_inside(egui::pos2(200.0, 200.0), size, view);
        assert_eq!(fits, egui::pos2(200.0, 200.0));
        let rect = egui::Rect::from_min_size(near_right - egui::vec2(0.0, size.y), size);
        assert!(view.contains_rect(rect));
    }

    /// A view wide enough for the label tests' points.
    const VIEW: egui::Rect = egui::Rect {
        min: egui::pos2(0.0, 0.0),
        max: egui::pos2(1000.0, 800.0),
    };

    /// A label moved off its neighbours near the view's edge stays inside the view.
    #[test]
    fn a_moved_label_stays_inside_the_view() {
        let size = egui::vec2(200.0, 16.0);
        let first = free_spot(egui::pos2(700.0, 400.0), size, &[], VIEW);
        let second = free_spot(egui::pos2(700.0, 400.0), size, &[first], VIEW);
        assert!(!first.intersects(second.shrink(0.5)));
        assert!(VIEW.contains_rect(second), "{second:?}");
        let right = free_spot(egui::pos2(950.0, 400.0), size, &[], VIEW);
        assert!(VIEW.contains_rect(right), "{right:?}");
    }

    /// Labels at one point (x1, w1 and O at the origin) are stacked apart, none overlaid.
    #[test]
    fn labels_at_one_place_never_overlap() {
        let size = egui::vec2(24.0, 16.0);
        let mut placed = Vec::new();
        let point = egui::pos2(94.0, 106.0);
        for _ in 0..6 {
            let r = free_spot(egui::pos2(100.0, 100.0), size, &placed, VIEW);
            assert!(placed
                .iter()
                .all(|p: &egui::Rect| !p.intersects(r.shrink(0.5))));
            // Six labels at one point all stay within reach of it (the legibility check).
            let reach = crate::app::lesson::LABEL_REACH * size.y;
            assert!(r.distance_to_pos(point) <= reach, "{r:?}");
            placed.push(r);
        }
        // The first keeps its own place.
        assert_eq!(placed[0].left_bottom(), egui::pos2(100.0, 100.0));
        // A label elsewhere is not moved.
        let far = free_spot(egui::pos2(300.0, 300.0), size, &placed, VIEW);
        assert_eq!(far.left_bottom(), egui::pos2(300.0, 300.0));
    }

    fn model() -> ViewerModel {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("scenes/cubes_frank_wolfe_zigzag.ron");
        ViewerModel::new(Scene::load(&path).unwrap())
    }

    /// Runs panel functions in a headless egui context for a few frames.
    fn frames(model: &mut ViewerModel, mut panel: impl FnMut(&mut egui::Ui, &mut ViewerModel)) {
        let ctx = egui::Context::default();
        for _ in 0..3 {
            let input = egui::RawInput {
                screen_rect: Some(egui::Rect::from_min_size(
                    egui::Pos2::ZERO,
                    egui::vec2(1400.0, 900.0),
                )),
                ..Default::default()
            };
            let _ = ctx.run_ui(input, |ui| panel(ui, model));
        }
    }

    #[test]
    fn panels_render_every_shape_kind_and_every_run() {
        let mut m = model();
        for method in crate::solver::Method::all() {
            m.set_enabled(method, true);
        }
        let mut drafts = ShapeDrafts::default();
        let mut commands = PendingCommands::default();
        for kind in shape_panel::KINDS {
            let a = m.side(Side::A);
            m.set_shape(a, shape_panel::default_spec(kind)).unwrap();
            m.solve();
            for method in crate::solver::Method::all() {
                m.set_focus(method);
                frames(&mut m, |ui, m| {
                    shape_panel::scene_panel_ui(ui, m, &mut drafts, &mut commands);
                    algorithms_panel::algorithms_panel_ui(ui, m, Theme::default(), &mut commands);
                    companion::methods_sections_ui(ui, m, 3);
                    let state = CompanionState::default();
                    plots::plots_ui(ui, m, Theme::default(), &state, 3, &mut true);
                    let projector = Theme { projector: true };
                    plots::plots_ui(ui, m, projector, &state, 3, &mut false);
                });
            }
            // Untouched panels ask for nothing.
            assert!(commands.0.is_empty(), "{kind}: {:?}", commands.0);
        }
        // A command from a panel changes the model only when applied.
        let b = m.side(Side::B);
        let mut pose = m.body(b).pose;
        pose.translation.x += 0.5;
        let before = m.revision;
        ViewerCommand::SetPose(b, pose).apply(&mut m).unwrap();
        assert!(m.is_stale() && m.revision > before);
    }
}
