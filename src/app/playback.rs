//! Keys and the clock move the time cursor: Space plays or pauses, ←/→ step,
//! Home/End jump to the first and last record.

use bevy::prelude::*;
use bevy_egui::input::egui_wants_any_keyboard_input;

use super::playback_state::PlaybackCommand;
use super::state::{Model, PlaybackCursor, ViewerSet};

/// A playback command from the UI or the keyboard, applied in one place.
#[derive(Message, Clone, Copy, Debug)]
pub struct PlaybackRequest(pub PlaybackCommand);

pub(super) fn plugin(app: &mut App) {
    app.add_message::<PlaybackRequest>().add_systems(
        Update,
        (
            keys_to_playback.run_if(not(egui_wants_any_keyboard_input)),
            apply_playback_requests,
            advance_playback,
        )
            .chain()
            .in_set(ViewerSet::Input),
    );
}

fn keys_to_playback(keys: Res<ButtonInput<KeyCode>>, mut requests: MessageWriter<PlaybackRequest>) {
    for (key, command) in [
        (KeyCode::Space, PlaybackCommand::TogglePlay),
        (KeyCode::ArrowRight, PlaybackCommand::StepForward),
        (KeyCode::ArrowLeft, PlaybackCommand::StepBack),
        (KeyCode::Home, PlaybackCommand::First),
        (KeyCode::End, PlaybackCommand::Last),
    ] {
        if keys.just_pressed(key) {
            requests.write(PlaybackRequest(command));
        }
    }
}

fn focused_len(model: &Model) -> usize {
    model.step_count()
}

fn apply_playback_requests(
    model: Res<Model>,
    mut requests: MessageReader<PlaybackRequest>,
    mut cursor: ResMut<PlaybackCursor>,
) {
    let len = focused_len(&model);
    for PlaybackRequest(command) in requests.read() {
        cursor.apply(*command, len);
    }
}

fn advance_playback(model: Res<Model>, time: Res<Time>, mut cursor: ResMut<PlaybackCursor>) {
    let len = focused_len(&model);
    if cursor.playing || cursor.cursor >= len {
        cursor.tick(time.delta_secs(), len);
    }
}
