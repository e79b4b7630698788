//! What moves the robot view besides its panel: a new robot opening on the robot picture
//! with z up, a click on a link, and play mode along a random path.

use bevy::prelude::*;

use super::RobotSession;
use crate::app::command::{PendingCommands, ViewerCommand};

/// A new robot opens on the robot itself: the focused pair's A ⊖ B and step layers off
/// (the top bar's checkboxes bring them back), the camera framing the links.
pub(super) fn open_on_the_robot(
    session: Res<RobotSession>,
    mut layers: ResMut<crate::app::state::Layers>,
    mut seen: Local<u64>,
    mut camera: MessageWriter<crate::app::camera::CameraRequest>,
) {
    let Some(state) = session.0.as_ref() else {
        return;
    };
    if *seen == state.generation {
        return;
    }
    *seen = state.generation;
    layers.difference = false;
    layers.simplex = false;
    layers.support_direction = false;
    layers.support_parts = false;
    layers.iterate = false;
    layers.frank_wolfe_path = false;
    camera.write(crate::app::camera::CameraRequest::FrameAll);
}

/// Robots stand along z (URDF's up): the camera keeps z up while one is shown.
pub(super) fn z_up_for_robots(
    session: Res<RobotSession>,
    mut orbit: ResMut<crate::app::camera::OrbitCamera>,
) {
    let wanted = session.0.is_some();
    if orbit.z_up != wanted {
        orbit.z_up = wanted;
    }
}

/// A click on a link (not a drag: released within a third of a second) focuses its
/// nearest checked pair, as a click in the list does.
pub(super) fn click_link(
    event: On<bevy::picking::events::Pointer<bevy::picking::events::Click>>,
    bodies: Query<&crate::app::draw::shapes::OtherBody>,
    session: Res<RobotSession>,
    model: Res<crate::app::state::Model>,
    mut commands: ResMut<PendingCommands>,
) {
    if event.button != PointerButton::Primary || event.duration.as_secs_f32() > 0.3 {
        return;
    }
    let (Ok(body), Some(state)) = (bodies.get(event.entity), session.0.as_ref()) else {
        return;
    };
    let Some(pair) = state.nearest_pair_of(body.0) else {
        return;
    };
    if let Some(p) = model.scene.pairs.iter().position(|q| *q == pair) {
        commands.push(ViewerCommand::FocusPair(p));
    }
}

/// Play mode: a smooth path through random configurations (smoothstep between them,
/// one every two seconds).
pub(super) fn play_path(
    time: Res<Time>,
    mut session: ResMut<RobotSession>,
    mut commands: ResMut<PendingCommands>,
) {
    let Some(state) = session.0.as_mut() else {
        return;
    };
    if !state.playing {
        return;
    }
    let q = state
        .path
        .advance(&state.model, time.delta_secs_f64() / 2.0);
    state.move_to(q, &mut commands);
}
