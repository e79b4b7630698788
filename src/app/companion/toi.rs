//! A time of impact in focus: B's path over t ∈ [0, 1] as an arrow (its velocity), the
//! region B sweeps (translucent), B as a ghost at the step's time (or the preview
//! slider's), the probes so far along the path with the bracket that still holds the
//! first contact, and at the end the contact points and normal. Beside the shapes, in
//! `A ⊖ B`'s frame: the difference swept over the motion, `(A ⊖ B) ⊕ [−v, 0]`, which
//! holds the origin exactly when the shapes touch at some t, and the ray `λ·v` from
//! the origin (they first touch where it enters `A ⊖ B`); for the ray cast, its point,
//! simplex and gap on that ray. Under the
//! playback controls, the preview slider; its plot, the signed distance over the motion
//! (sampled by EPA at 101 times, here beside the model) with the method's probes.

use crate::app::draw::common::records_at_cursor;
use crate::app::draw::sketch::{self, SketchTarget};
use bevy::prelude::*;
use bevy_egui::egui;
use egui_plot::{Line, Plot, PlotPoints};

use crate::app::plot_legend::{legend_row, Entry, Swatch};

use super::{CompanionState, PlotView};
use crate::app::drag::VelocityHandle;
use crate::app::draw::minkowski::{DifferenceFrame, COLOR_DIFFERENCE};
use crate::app::draw::shapes::{bevy_mesh, bevy_transform, placeholder_mesh, translucent, COLOR_B};
use crate::app::draw::{family_in_focus, DrawStep, StepView};
use crate::app::model::ViewerModel;
use crate::app::state::Layers;
use crate::app::state::{Model, PlaybackCursor, ViewerSet};
use crate::pose::Pose;
use crate::scene::Scene;
use crate::solver::interior_point::IpRecord;
use crate::solver::toi::{self, ToiRecord};
use crate::solver::trace::Trace;
use crate::solver::{Method, SolverSettings};
use crate::tessellate::{shape_mesh, swept_difference_mesh, swept_mesh};

/// A time chosen on the preview slider: B's ghost is drawn there instead of at the
/// step's time.
#[derive(Default, Clone, Copy, Debug)]
pub struct ToiPreview(pub Option<f64>);

/// What the time of impact keeps beside the model: the preview's time, and the signed
/// distance over B's motion its plot marks the probes on.
#[derive(Default, Clone, Debug)]
pub struct ToiState {
    pub preview: ToiPreview,
    /// `(t, signed distance)` over the motion, and the model revision it was sampled at.
    motion_curve: Vec<[f64; 2]>,
    sampled_at: Option<u64>,
}

pub const COMPANION: super::Companion = super::Companion {
    family: toi::FAMILY,
    draw: plugin,
    plot: Some(plot_ui),
    playback_section: Some(preview_ui),
    methods_section: None,
    result_lines: None,
};

#[derive(Component, Clone, Copy, PartialEq, Eq)]
enum ToiMesh {
    Swept,
    Ghost,
    /// `A ⊖ B` swept by `−v` over the motion, in the difference's frame.
    SweptDifference,
}

const COLOR_HANDLE: Color = Color::srgb(0.2, 0.2, 0.2);

fn plugin(app: &mut App) {
    app.add_systems(Startup, spawn_meshes)
        .add_systems(
            Update,
            sample_motion.in_set(ViewerSet::Draw).before(DrawStep),
        )
        .add_systems(
            Update,
            (
                update_meshes,
                place_handle,
                draw_motion.run_if(family_in_focus(toi::FAMILY)),
            )
                .in_set(DrawStep)
                .in_set(ViewerSet::Draw),
        );
}

fn spawn_meshes(
    mut commands: Commands,
    mut materials: ResMut<Assets<StandardMaterial>>,
    mut meshes: ResMut<Assets<Mesh>>,
) {
    for (which, colour, alpha) in [
        (ToiMesh::Swept, COLOR_B, 0.12),
        (ToiMesh::Ghost, COLOR_B, 0.35),
        (ToiMesh::SweptDifference, COLOR_DIFFERENCE, 0.14),
    ] {
        commands.spawn((
            which,
            Mesh3d(meshes.add(placeholder_mesh())),
            Visibility::Hidden,
            MeshMaterial3d(materials.add(translucent(colour, alpha))),
            Transform::default(),
            Pickable::IGNORE,
        ));
    }
    // The handle at the motion arrow's tip: drag it to change B's velocity.
    commands.spawn((
        VelocityHandle,
        Mesh3d(
            meshes.add(
                Sphere::new(1.0)
                    .mesh()
                    .ico(2)
                    .unwrap_or_else(|_| placeholder_mesh()),
            ),
        ),
        MeshMaterial3d(materials.add(StandardMaterial {
            base_color: COLOR_HANDLE,
            unlit: true,
            ..default()
        })),
        Transform::default(),
        Visibility::Hidden,
    ));
}

/// Puts the velocity handle at the tip of B's motion (sized like the markers), shown
/// while a time of impact is in focus.
fn place_handle(
    model: Res<Model>,
    marker: Res<crate::app::camera::MarkerScale>,
    mut handle: Query<(&mut Transform, &mut Visibility), With<VelocityHandle>>,
) {
    let Ok((mut transform, mut visibility)) = handle.single_mut() else {
        return;
    };
    let shift = world_shift(&model).filter(|_| motion_in_focus(&model));
    let Some(shift) = shift else {
        *visibility = Visibility::Hidden;
        return;
    };
    let tip = model.pair_scene().b().pose.translation.as_vec3() + shift;
    *transform = Transform::from_translation(tip).with_scale(Vec3::splat(marker.0 * 1.5));
    *visibility = Visibility::Inherited;
}

/// Whether the method in focus answers about B's motion (the time-of-impact family, or
/// the interior point's time of impact): B's path, sweep and ghost are drawn.
fn motion_in_focus(model: &ViewerModel) -> bool {
    model.focused_family() == toi::FAMILY
        || model.focus() == crate::solver::Method::interior_point_toi()
}

/// B's motion in the world: its translation over t ∈ [0, 1] (A's relative motion
/// turned into the world through A's rotation).
fn world_shift(model: &ViewerModel) -> Option<Vec3> {
    let v = model.pair_scene().relative_velocity()?;
    Some((model.pair_scene().a().pose.rotation * v).as_vec3())
}

/// B's world rotation after turning for time `t` (its spin, world frame, about its own
/// origin).
fn turn(model: &ViewerModel, t: f64) -> glam::DQuat {
    let b = model.pair_scene().b();
    match b.spin.filter(|s| *s != glam::DVec3::ZERO) {
        Some(spin) => glam::DQuat::from_scaled_axis(spin * t) * b.pose.rotation,
        None => b.pose.rotation,
    }
}

/// The time B's ghost shows: the preview's, else the step's.
fn ghost_time(model: &ViewerModel, cursor: usize, preview: ToiPreview) -> Option<f64> {
    if preview.0.is_some() {
        return preview.0;
    }
    let trace = &model.focused_run()?.run.trace;
    let at = cursor.min(trace.len().checked_sub(1)?);
    let time = if let Some(records) = trace.steps::<ToiRecord>() {
        records.get(at)?.time
    } else if let Some(records) = trace.steps::<IpRecord>() {
        // The interior point's time variable at this Newton step.
        records.get(at)?.time
    } else {
        return None;
    };
    time.is_finite().then_some(time.clamp(0.0, 1.0))
}

#[allow(clippy::too_many_arguments)]
fn update_meshes(
    model: Res<Model>,
    cursor: Res<PlaybackCursor>,
    state: Res<CompanionState>,
    layers: Res<Layers>,
    frame: Res<DifferenceFrame>,
    mut query: Query<(&ToiMesh, &mut Mesh3d, &mut Transform, &mut Visibility)>,
    mut meshes: ResMut<Assets<Mesh>>,
    mut built: Local<Option<u64>>,
) {
    let shift = world_shift(&model).filter(|_| motion_in_focus(&model));
    let rebuild = *built != Some(model.revision);
    *built = Some(model.revision);
    let pose_b = model.pair_scene().b().pose;
    for (which, mut mesh, mut transform, mut visibility) in &mut query {
        let Some(shift) = shift else {
            *visibility = Visibility::Hidden;
            continue;
        };
        let spinning = model
            .pair_scene()
            .b()
            .spin
            .is_some_and(|s| s != glam::DVec3::ZERO);
        match which {
            ToiMesh::SweptDifference => {
                let v = model.pair_scene().relative_velocity();
                let (Some(v), false, true) = (v, spinning, layers.difference) else {
                    *visibility = Visibility::Hidden;
                    continue;
                };
                if rebuild {
                    mesh.0 = meshes.add(bevy_mesh(&swept_difference_mesh(model.pair_scene(), v)));
                }
                *transform =
                    Transform::from_translation(frame.anchor).with_rotation(frame.rotation);
                *visibility = Visibility::Inherited;
            }
            ToiMesh::Swept => {
                // A turning B sweeps no convex hull of its two ends: nothing drawn.
                if spinning {
                    *visibility = Visibility::Hidden;
                    continue;
                }
                if rebuild {
                    let tri = swept_mesh(&model.pair_scene().b().shape, &pose_b, shift.as_dvec3());
                    mesh.0 = meshes.add(bevy_mesh(&tri));
                }
                *visibility = Visibility::Inherited;
            }
            ToiMesh::Ghost => {
                if rebuild {
                    mesh.0 = meshes.add(bevy_mesh(&shape_mesh(&model.pair_scene().b().shape)));
                }
                let Some(t) = ghost_time(&model, cursor.cursor, state.toi.preview) else {
                    *visibility = Visibility::Hidden;
                    continue;
                };
                let moved = Pose::new(pose_b.translation + shift.as_dvec3() * t, turn(&model, t));
                *transform = bevy_transform(&moved);
                *visibility = Visibility::Inherited;
            }
        }
    }
}

/// The step's picture from the core (`crate::sketch::toi_sketch`: the path, probes,
/// bracket, the ray in `A ⊖ B`, the contact), the preview's time shown when set; the
/// meshes (swept region, ghost, swept difference) are this companion's own.
fn draw_motion(view: StepView, state: Res<CompanionState>, mut target: SketchTarget) {
    let model = &view.model;
    let Some(mut motion) = crate::sketch::Motion::of(model.pair_scene(), false) else {
        return;
    };
    motion.preview = state.toi.preview.0;
    let Some(at) = records_at_cursor(model, view.cursor.cursor, Trace::steps::<ToiRecord>) else {
        return;
    };
    let context = sketch::context(&view);
    let picture = crate::sketch::toi_sketch(at.run, at.records, at.index, &context, &motion);
    if let Some(picture) = picture {
        target.draw(&picture, view.marker.0);
    }
}

/// With a time of impact enabled and B moving: the signed distance over the motion,
/// sampled again when the model changed (the plot the probes are marked on).
fn sample_motion(model: Res<Model>, mut state: ResMut<CompanionState>) {
    if state.toi.sampled_at == Some(model.revision) {
        return;
    }
    let toi = &mut state.toi;
    toi.sampled_at = Some(model.revision);
    toi.motion_curve = motion_curve(model.pair_scene(), model.enabled());
}

/// `(t, signed distance)` at 101 times of the motion (GJK apart, EPA inside); empty when
/// no time-of-impact method is enabled or B does not move.
pub fn motion_curve(scene: &Scene, enabled: &[Method]) -> Vec<[f64; 2]> {
    let toi_enabled = enabled.iter().any(|m| m.family() == toi::FAMILY);
    let Some(motion) = scene
        .relative_motion()
        .ok()
        .flatten()
        .filter(|_| toi_enabled)
    else {
        return Vec::new();
    };
    let (a, b) = (&scene.a().shape, &scene.b().shape);
    let start = scene.b_in_a();
    (0..=100)
        .filter_map(|i| {
            let t = i as f64 / 100.0;
            let pose = motion.pose_at(start, t);
            let settings = SolverSettings::default();
            let run = Method::epa().run(a, b, pose, None, settings, false);
            Some([t, run.summary.outcome.signed_distance()?])
        })
        .collect()
}

/// The motion plot when the focused run is a time of impact's.
fn plot_ui(ui: &mut egui::Ui, view: &PlotView) -> bool {
    let Some(focused) = view.model.focused_run() else {
        return false;
    };
    let Some(records) = focused.run.trace.steps::<ToiRecord>() else {
        return false;
    };
    let curve = &view.state.toi.motion_curve;
    motion_plot_ui(ui, curve, records, view.color, view.bottom);
    true
}

/// With a time of impact in focus: a slider that moves B's ghost along its path (off:
/// the ghost follows the step under the cursor).
fn preview_ui(ui: &mut egui::Ui, state: &mut super::CompanionState) {
    let preview = &mut state.toi.preview;
    ui.horizontal(|ui| {
        let mut on = preview.0.is_some();
        if ui
            .checkbox(&mut on, "move B along its path: t =")
            .on_hover_text("off: B's ghost shows the time of the step under the cursor")
            .changed()
        {
            preview.0 = on.then_some(preview.0.unwrap_or(0.0));
        }
        let mut t = preview.0.unwrap_or(0.0);
        if ui
            .add_enabled(on, egui::Slider::new(&mut t, 0.0..=1.0).max_decimals(6))
            .changed()
        {
            preview.0 = Some(t);
        }
    });
}

/// A time of impact in focus: the signed distance against t over B's motion, and the
/// focused method's probes on it (a probe's distance is the swept test's closest
/// approach for halving, the signed distance for Brent, the gap for the ray cast).
fn motion_plot_ui(
    ui: &mut egui::Ui,
    curve: &[[f64; 2]],
    records: &[crate::solver::toi::ToiRecord],
    color: egui::Color32,
    bottom: f32,
) {
    let probes: Vec<[f64; 2]> = records
        .iter()
        .filter(|r| r.time.is_finite() && r.distance.is_finite() && (0.0..=1.0).contains(&r.time))
        .map(|r| [r.time, r.distance])
        .collect();
    legend_row(
        ui,
        None,
        &[
            Entry::new(
                "distance at t (EPA's depth below 0)",
                egui::Color32::GRAY,
                Swatch::Solid,
            ),
            Entry::new("probes", color, Swatch::Dots),
            Entry::new("contact", egui::Color32::DARK_GRAY, Swatch::Solid),
        ],
    );
    let curve: PlotPoints = curve.iter().copied().collect();
    let probes = PlotPoints::from(probes);
    Plot::new("motion")
        .height(crate::app::ui::rest_of(ui, bottom))
        .x_axis_label("time t")
        .y_axis_label("signed distance")
        .show(ui, |plot| {
            plot.line(
                Line::new("distance at t (EPA's depth below 0)", curve)
                    .color(egui::Color32::GRAY)
                    .width(2.0),
            );
            plot.points(
                egui_plot::Points::new("probes", probes)
                    .color(color)
                    .radius(4.0),
            );
            plot.hline(egui_plot::HLine::new("contact", 0.0).color(egui::Color32::DARK_GRAY));
        });
}
