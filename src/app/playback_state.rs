//! Playback of the focused run: one cursor into its records, moved by commands applied
//! in one place (rerun's time panel idea). No Bevy here, so it is tested directly.

/// What the user asked the time cursor to do.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum PlaybackCommand {
    StepForward,
    StepBack,
    TogglePlay,
    First,
    Last,
    Seek(usize),
}

/// The cursor into the focused run's records, and whether it is playing.
#[derive(Clone, Debug, PartialEq)]
pub struct Playback {
    pub cursor: usize,
    pub playing: bool,
    /// Steps per second while playing.
    pub speed: f32,
    /// Time carried over between frames while playing.
    carry: f32,
}

impl Default for Playback {
    fn default() -> Self {
        Self {
            cursor: 0,
            playing: false,
            speed: 2.0,
            carry: 0.0,
        }
    }
}

impl Playback {
    /// Applies a command to a run of `len` records.
    pub fn apply(&mut self, command: PlaybackCommand, len: usize) {
        let last = len.saturating_sub(1);
        match command {
            PlaybackCommand::StepForward => {
                self.playing = false;
                self.cursor = (self.cursor + 1).min(last);
            }
            PlaybackCommand::StepBack => {
                self.playing = false;
                self.cursor = self.cursor.saturating_sub(1);
            }
            PlaybackCommand::TogglePlay => {
                self.playing = !self.playing;
                if self.playing && self.cursor >= last {
                    self.cursor = 0; // play again from the start
                }
                self.carry = 0.0;
            }
            PlaybackCommand::First => {
                self.playing = false;
                self.cursor = 0;
            }
            PlaybackCommand::Last => {
                self.playing = false;
                self.cursor = last;
            }
            PlaybackCommand::Seek(i) => {
                self.playing = false;
                self.cursor = i.min(last);
            }
        }
    }

    /// Advances while playing; stops at the last record.
    pub fn tick(&mut self, seconds: f32, len: usize) {
        let last = len.saturating_sub(1);
        self.cursor = self.cursor.min(last);
        if !self.playing {
            return;
        }
        self.carry += seconds * self.speed.max(0.01);
        while self.carry >= 1.0 {
            self.carry -= 1.0;
            if self.cursor >= last {
                self.playing = false;
                self.carry = 0.0;
                break;
            }
            self.cursor += 1;
        }
    }

    /// Keeps the cursor valid after a re-solve changed the run's length.
    pub fn clamp(&mut self, len: usize) {
        self.cursor = self.cursor.min(len.saturating_sub(1));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn commands_move_the_cursor_within_the_run() {
        let mut p = Playback::default();
        p.apply(PlaybackCommand::StepBack, 5);
        assert_eq!(p.cursor, 0);
        for _ in 0..10 {
            p.apply(PlaybackCommand::StepForward, 5);
        }
        assert_eq!(p.cursor, 4);
        p.apply(PlaybackCommand::First, 5);
        assert_eq!(p.cursor, 0);
        p.apply(PlaybackCommand::Last, 5);
        assert_eq!(p.cursor, 4);
        p.apply(PlaybackCommand::Seek(2), 5);
        assert_eq!(p.cursor, 2);
        p.apply(PlaybackCommand::Seek(99), 5);
        assert_eq!(p.cursor, 4);
        p.clamp(3);
        assert_eq!(p.cursor, 2);
    }

    #[test]
    fn playing_advances_at_the_set_speed_and_stops_at_the_end() {
        let mut p = Playback {
            speed: 4.0,
            ..Playback::default()
        };
        p.apply(PlaybackCommand::TogglePlay, 10);
        assert!(p.playing);
        p.tick(0.5, 10);
        assert_eq!(p.cursor, 2);
        p.tick(10.0, 10);
        assert_eq!(p.cursor, 9);
        assert!(!p.playing);
        // Play at the end restarts from the first record.
        p.apply(PlaybackCommand::TogglePlay, 10);
        assert_eq!(p.cursor, 0);
        p.apply(PlaybackCommand::StepForward, 10);
        assert!(!p.playing, "stepping pauses");
    }
}
