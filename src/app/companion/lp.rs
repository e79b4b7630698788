//! The LP test in focus: the points the weights give on A and B (Σλ_i p_i, Σμ_j q_j)
//! approaching each other pivot by pivot, and at the end the common point or the
//! separating plane (a square between the shapes, its normal from A to B); for
//! containment, A's vertices coloured inside (green) or outside (red) of B. Beside the
//! methods, the tableau after the pivot under the cursor (`lp_tableau.rs`); in the
//! results, Kreuzer's estimate beside the collision test's answer.

use crate::printed_bound::Below;
use bevy::prelude::*;
use bevy_egui::egui;

use crate::app::camera::StepBounds;
use crate::app::draw::{family_in_focus, DrawStep, StepView, ViewLabels, COLOR_WITNESS};
use crate::app::model::ViewerModel;
use crate::app::state::ViewerSet;
use crate::solver::lp::{self, LpEvent, LpQuestion, LpRecord};
use crate::solver::{Method, Outcome};

const COLOR_ON_A: Color = Color::srgb(0.10, 0.30, 0.75);
const COLOR_ON_B: Color = Color::srgb(0.80, 0.35, 0.05);
const COLOR_PLANE: Color = Color::srgb(0.45, 0.1, 0.6);
const COLOR_OUTSIDE: Color = Color::srgb(0.85, 0.1, 0.1);

/// The translucent square of the separating plane.
#[derive(Component)]
struct PlaneQuad;

pub const COMPANION: super::Companion = super::Companion {
    family: lp::FAMILY,
    draw: plugin,
    plot: None,
    playback_section: None,
    methods_section: Some(super::lp_tableau::tableau_ui),
    result_lines: Some(result_lines_ui),
};

/// The collision test: Kreuzer's estimate beside the answer.
fn result_lines_ui(ui: &mut egui::Ui, model: &ViewerModel, m: Method) {
    if let Some(LpQuestion::Collision(_)) = m.entry::<LpQuestion>() {
        if let Some(estimate) = kreuzer_estimate(model) {
            ui.label(format!(
                "   Kreuzer's estimate ∥b − Ax*∥₁/√3 = {estimate:.4e} (not a bound: compare GJK's distance)"
            ));
        }
    }
}

/// Kreuzer's distance estimate on the pair in focus (shapes given by their points).
fn kreuzer_estimate(model: &ViewerModel) -> Option<f64> {
    let scene = model.pair_scene();
    let (a, b) = (&scene.a().shape, &scene.b().shape);
    crate::solver::lp::kreuzer_estimate_of_shapes(a, b, &scene.b_in_a())
}

fn plugin(app: &mut App) {
    app.add_systems(Startup, spawn_quad).add_systems(
        Update,
        (
            update_quad,
            draw_lp_step.run_if(family_in_focus(lp::FAMILY)),
        )
            .in_set(DrawStep)
            .in_set(ViewerSet::Draw),
    );
}

fn spawn_quad(
    mut commands: Commands,
    mut materials: ResMut<Assets<StandardMaterial>>,
    mut meshes: ResMut<Assets<Mesh>>,
) {
    commands.spawn((
        PlaneQuad,
        Mesh3d(meshes.add(crate::app::draw::shapes::placeholder_mesh())),
        Visibility::Hidden,
        MeshMaterial3d(materials.add(crate::app::draw::shapes::translucent(COLOR_PLANE, 0.25))),
        Transform::default(),
        Pickable::IGNORE,
    ));
}

/// The separating plane's square corners (world), when the focused LP run ended with
/// one and the cursor is on its last step.
fn plane_corners(view: &StepView) -> Option<[Vec3; 4]> {
    let model = &view.model;
    let run = &model.focused_run()?.run;
    let records = run.trace.steps::<LpRecord>()?;
    let last = records.len().checked_sub(1)?;
    if view.cursor.cursor < last {
        return None;
    }
    let Outcome::SeparatingPlane { normal, offset, .. } = run.summary.outcome else {
        return None;
    };
    let pose_a = model.pair_scene().a().pose;
    let mid = (pose_a.translation + model.pair_scene().b().pose.translation) * 0.5;
    let foot_local = pose_a.inverse().transform_point(mid);
    let on_plane = foot_local - normal * (normal.dot(foot_local) - offset);
    let c = pose_a.transform_point(on_plane).as_vec3();
    let n = (pose_a.rotation * normal).as_vec3();
    let u = n.any_orthonormal_vector();
    let v = n.cross(u);
    let half = view.frame.radius.max(0.2) * 0.5;
    Some([u + v, u - v, -u - v, -u + v].map(|d| c + d * half))
}

fn update_quad(
    view: StepView,
    mut query: Query<(&mut Mesh3d, &mut Visibility), With<PlaneQuad>>,
    mut meshes: ResMut<Assets<Mesh>>,
    mut built: Local<Option<(u64, usize)>>,
) {
    let key = (view.model.revision, view.cursor.cursor);
    if *built == Some(key) {
        return;
    }
    *built = Some(key);
    let Ok((mut mesh, mut visibility)) = query.single_mut() else {
        return;
    };
    let corners = plane_corners(&view).filter(|_| view.model.focused_family() == lp::FAMILY);
    let Some([a, b, c, d]) = corners else {
        *visibility = Visibility::Hidden;
        return;
    };
    let positions = [a, b, c, a, c, d].map(|p| p.to_array()).to_vec();
    mesh.0 = meshes.add(crate::app::draw::triangle_list(positions));
    *visibility = Visibility::Inherited;
}

fn draw_lp_step(
    view: StepView,
    mut labels: ResMut<ViewLabels>,
    mut step_bounds: ResMut<StepBounds>,
    mut gizmos: Gizmos,
) {
    let model = &view.model;
    let Some(run) = model.focused_run().map(|r| &r.run) else {
        return;
    };
    let Some(records) = run.trace.steps::<LpRecord>() else {
        return;
    };
    let pose_a = model.pair_scene().a().pose;
    let world = |p: glam::DVec3| pose_a.transform_point(p).as_vec3();
    let size = view.marker.0;
    let last = records.len().checked_sub(1);
    let index = last.map(|l| view.cursor.cursor.min(l));
    if let Some(i) = index {
        let r = &records[i];
        match r.event {
            LpEvent::Pivot { .. } => {
                let (a, b) = (world(r.point_a), world(r.point_b));
                gizmos.sphere(Isometry3d::from_translation(a), size * 1.3, COLOR_ON_A);
                gizmos.sphere(Isometry3d::from_translation(b), size * 1.3, COLOR_ON_B);
                gizmos.line(a, b, COLOR_PLANE.with_alpha(0.6));
                labels.0.push((a, "Σλp".into(), COLOR_ON_A));
                labels.0.push((b, "Σμq".into(), COLOR_ON_B));
                *step_bounds = StepBounds::around([a, b], view.frame.radius * 0.05);
            }
            LpEvent::Vertex { .. } => {
                for r in &records[..=i] {
                    if let LpEvent::Vertex { inside, .. } = r.event {
                        let colour = if inside { COLOR_WITNESS } else { COLOR_OUTSIDE };
                        gizmos.sphere(
                            Isometry3d::from_translation(world(r.point_a)),
                            size * 1.3,
                            colour,
                        );
                    }
                }
            }
        }
    }
    if index != last {
        return;
    }
    match run.summary.outcome {
        Outcome::Intersecting => {
            if let Some(p) = run.summary.witness_a {
                let p = world(p);
                gizmos.sphere(Isometry3d::from_translation(p), size * 2.0, COLOR_WITNESS);
                labels.0.push((p, "common point".into(), COLOR_WITNESS));
            }
        }
        Outcome::SeparatingPlane {
            normal,
            offset,
            gap,
        } => {
            // A square of the plane, centred between the shapes' centres.
            let centre_a = pose_a.translation;
            let centre_b = model.pair_scene().b().pose.translation;
            let n_world = pose_a.rotation * normal;
            let mid = (centre_a + centre_b) * 0.5;
            let foot_local = pose_a.inverse().transform_point(mid);
            let on_plane = foot_local - normal * (normal.dot(foot_local) - offset);
            let c = world(on_plane);
            let n = n_world.as_vec3();
            let u = n.any_orthonormal_vector();
            let v = n.cross(u);
            let half = view.frame.radius.max(0.2) * 0.5;
            let corners = [u + v, u - v, -u - v, -u + v].map(|d| c + d * half);
            for k in 0..4 {
                gizmos.line(corners[k], corners[(k + 1) % 4], COLOR_PLANE);
            }
            gizmos.line(corners[0], corners[2], COLOR_PLANE.with_alpha(0.4));
            gizmos.line(corners[1], corners[3], COLOR_PLANE.with_alpha(0.4));
            gizmos.arrow(c, c + n * half * 0.6, COLOR_PLANE);
            labels.0.push((
                c,
                format!("separating plane, gap {:.3e}", Below(gap)),
                COLOR_PLANE,
            ));
        }
        Outcome::NotContained { vertex } => {
            if let Some(p) = run.summary.witness_a {
                labels.0.push((
                    world(p),
                    format!("vertex {vertex} outside B"),
                    COLOR_OUTSIDE,
                ));
            }
        }
        _ => {}
    }
}
