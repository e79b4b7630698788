//! Dragging a shape: the left button moves it on the plane through it that faces the
//! camera; with Shift held it rotates instead. Each move is a command; the Solve stage
//! re-runs the methods once per frame, however many moves the frame had.

use bevy::picking::events::{Drag, DragEnd, DragStart, Pointer};
use bevy::prelude::*;
use glam::DQuat;

use super::camera::{OrbitCamera, ShapeDragActive};
use super::command::{PendingCommands, ViewerCommand};
use super::model::Side;
use super::state::Model;

/// Marks the mesh entity of the pair's shape A or B.
#[derive(Component, Clone, Copy, Debug)]
pub struct ShapeBody(pub Side);

/// Marks the handle at the tip of B's motion arrow: dragging it sets B's velocity.
#[derive(Component, Clone, Copy, Debug)]
pub struct VelocityHandle;

pub(super) fn plugin(app: &mut App) {
    app.add_observer(start_shape_drag)
        .add_observer(drag_shape)
        .add_observer(drag_velocity_handle)
        .add_observer(end_shape_drag);
}

/// Metres per pixel at `point`'s depth (vertical field of view 45°).
fn metres_per_pixel(camera: &Transform, point: glam::DVec3, window_height: f64) -> f64 {
    let depth = (point - camera.translation.as_dvec3()).length();
    2.0 * depth * (std::f64::consts::FRAC_PI_8).tan() / window_height
}

/// Where the camera is: the orbit's, or in a planar scene straight above the focus
/// looking down z (right = x, up = y), at the orbit's distance.
fn view_of(orbit: &OrbitCamera, planar: bool) -> Transform {
    if planar {
        Transform::from_translation(orbit.focus + Vec3::Z * orbit.distance)
            .looking_at(orbit.focus, Vec3::Y)
    } else {
        orbit.transform()
    }
}

/// Dragging the velocity handle moves the motion's end on the plane facing the camera.
fn drag_velocity_handle(
    event: On<Pointer<Drag>>,
    handles: Query<(), With<VelocityHandle>>,
    orbit: Res<OrbitCamera>,
    windows: Query<&Window>,
    model: Res<Model>,
    mut commands: ResMut<PendingCommands>,
) {
    if !handles.contains(event.entity) || event.button != PointerButton::Primary {
        return;
    }
    let id = model.side(Side::B);
    let body = model.body(id);
    // Moves earlier in this frame are not applied yet: continue from the last one.
    let velocity = commands
        .0
        .iter()
        .rev()
        .find_map(|c| match c {
            ViewerCommand::SetVelocity(i, v) if *i == id => *v,
            _ => None,
        })
        .or(body.velocity)
        .unwrap_or_default();
    let planar = model.scene.dimension == crate::scene::Dimension::Planar;
    let camera = view_of(&orbit, planar);
    let (right, up) = (camera.right().as_dvec3(), camera.up().as_dvec3());
    let height = windows.iter().next().map_or(800.0, |w| w.height() as f64);
    let tip = body.pose.translation + velocity;
    let delta = event.delta.as_dvec2();
    let step = (right * delta.x - up * delta.y) * metres_per_pixel(&camera, tip, height);
    commands.push(ViewerCommand::SetVelocity(id, Some(velocity + step)));
}

/// What a left-drag moves instead of the camera: a shape or the velocity handle.
type Draggable = Or<(With<ShapeBody>, With<VelocityHandle>)>;

fn start_shape_drag(
    event: On<Pointer<DragStart>>,
    bodies: Query<(), Draggable>,
    mut active: ResMut<ShapeDragActive>,
) {
    if bodies.contains(event.entity) && event.button == PointerButton::Primary {
        active.0 = true;
    }
}

fn end_shape_drag(_event: On<Pointer<DragEnd>>, mut active: ResMut<ShapeDragActive>) {
    active.0 = false;
}

fn drag_shape(
    event: On<Pointer<Drag>>,
    bodies: Query<&ShapeBody>,
    keys: Res<ButtonInput<KeyCode>>,
    orbit: Res<OrbitCamera>,
    windows: Query<&Window>,
    model: Res<Model>,
    mut commands: ResMut<PendingCommands>,
) {
    let Ok(body) = bodies.get(event.entity) else {
        return;
    };
    if event.button != PointerButton::Primary {
        return;
    }
    let planar = model.scene.dimension == crate::scene::Dimension::Planar;
    let camera = view_of(&orbit, planar);
    let (right, up) = (camera.right().as_dvec3(), camera.up().as_dvec3());
    let delta = event.delta.as_dvec2();
    let id = model.side(body.0);
    // Moves earlier in this frame are not applied yet: continue from the last one.
    let mut pose = commands
        .0
        .iter()
        .rev()
        .find_map(|c| match c {
            ViewerCommand::SetPose(i, p) if *i == id => Some(*p),
            _ => None,
        })
        .unwrap_or(model.body(id).pose);
    let rotating = keys.pressed(KeyCode::ShiftLeft) || keys.pressed(KeyCode::ShiftRight);
    if rotating && planar {
        // A planar shape turns about z only.
        let spin = DQuat::from_rotation_z(-delta.x * 0.01);
        pose.rotation = (spin * pose.rotation).normalize();
    } else if rotating {
        let spin = DQuat::from_axis_angle(up, delta.x * 0.01)
            * DQuat::from_axis_angle(right, delta.y * 0.01);
        pose.rotation = (spin * pose.rotation).normalize();
    } else {
        // Pixels to metres at the shape's depth.
        let height = windows.iter().next().map_or(800.0, |w| w.height() as f64);
        let scale = metres_per_pixel(&camera, pose.translation, height);
        pose.translation += (right * delta.x - up * delta.y) * scale;
    }
    commands.push(ViewerCommand::SetPose(id, pose));
}
