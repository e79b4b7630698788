//! Animations for slides: every step of the focused run (or every step of a lesson)
//! captured with Bevy's screenshot API and written as an animated GIF, or as numbered
//! PNGs when the output ends in `.png` (`run.png` → `run_000.png`, `run_001.png`, …).
//! The viewer starts one from the Files panel (with a progress bar); `collidescope
//! animate` runs the viewer for it alone and exits (with a progress bar on the terminal).

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use bevy::prelude::*;
use bevy::render::view::screenshot::{Screenshot, ScreenshotCaptured};

use super::lesson::LessonPlayer;
use super::state::{Model, PlaybackCursor, StatusLine};

/// Frames to let the scene settle before the first capture.
const SETTLE_FRAMES: u32 = 12;
/// Frames after moving the cursor (a lesson step may re-solve and re-frame first).
const STEP_FRAMES: u32 = 6;
/// Frames to wait for a capture before giving up.
const GIVE_UP_FRAMES: u32 = 600;

/// What the animation walks through.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Walk {
    /// Every record of the focused run.
    Steps,
    /// Every step of the scene's lesson.
    Lesson,
}

/// An animation being captured.
#[derive(Resource)]
pub struct AnimationJob {
    out: PathBuf,
    walk: Walk,
    total: usize,
    next: usize,
    wait: u32,
    waited: u32,
    captured: Arc<Mutex<Vec<image::RgbaImage>>>,
    requested: bool,
    exit_when_done: bool,
    /// Shown on the terminal when run from the command line.
    bar: Option<indicatif::ProgressBar>,
}

impl AnimationJob {
    pub fn new(out: PathBuf, walk: Walk, exit_when_done: bool) -> Self {
        Self {
            out,
            walk,
            total: 0,
            next: 0,
            wait: SETTLE_FRAMES,
            waited: 0,
            captured: Arc::default(),
            requested: false,
            exit_when_done,
            bar: None,
        }
    }

    /// Frames captured and to capture, for a progress bar.
    pub fn progress(&self) -> (usize, usize) {
        (self.next, self.total)
    }
}

pub(super) fn plugin(app: &mut App) {
    app.add_systems(Last, capture_frames.run_if(resource_exists::<AnimationJob>));
}

#[allow(clippy::too_many_arguments)]
fn capture_frames(
    mut job: ResMut<AnimationJob>,
    model: Res<Model>,
    mut cursor: ResMut<PlaybackCursor>,
    mut lesson: ResMut<LessonPlayer>,
    mut status: ResMut<StatusLine>,
    mut commands: Commands,
    mut exit: MessageWriter<AppExit>,
) {
    if job.total == 0 {
        job.total = match job.walk {
            Walk::Steps => model.step_count().max(1),
            Walk::Lesson => model.scene.lesson.len().max(1),
        };
        if job.exit_when_done {
            let bar = indicatif::ProgressBar::new(job.total as u64).with_style(
                indicatif::ProgressStyle::with_template("{msg} [{bar:40}] {pos}/{len} frames")
                    .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
            );
            bar.set_message(format!("animating {}", job.out.display()));
            job.bar = Some(bar);
        }
        show(&mut job, &mut cursor, &mut lesson, 0);
    }
    job.waited += 1;
    if job.waited > GIVE_UP_FRAMES {
        let message = "no image arrived: could not render".into();
        fail(&job, &mut status, &mut exit, message);
        commands.remove_resource::<AnimationJob>();
        return;
    }
    let captured = job.captured.lock().map_or(0, |c| c.len());
    if job.requested {
        if captured <= job.next {
            return;
        }
        // This frame is in: on to the next step, or write the file.
        job.requested = false;
        job.next += 1;
        if let Some(bar) = &job.bar {
            bar.set_position(job.next as u64);
        }
        if job.next < job.total {
            let next = job.next;
            show(&mut job, &mut cursor, &mut lesson, next);
            return;
        }
        let frames = std::mem::take(&mut *job.captured.lock().unwrap_or_else(|e| e.into_inner()));
        let delay = match job.walk {
            Walk::Steps => 100,
            Walk::Lesson => 400,
        };
        match write_animation(&job.out, &frames, delay) {
            Ok(message) => {
                if let Some(bar) = &job.bar {
                    bar.finish_and_clear();
                }
                info!("{message}");
                status.info(message);
                if job.exit_when_done {
                    exit.write(AppExit::Success);
                }
                commands.remove_resource::<AnimationJob>();
            }
            Err(e) => {
                fail(&job, &mut status, &mut exit, e);
                commands.remove_resource::<AnimationJob>();
            }
        }
        return;
    }
    if job.waited >= job.wait {
        job.requested = true;
        let store = job.captured.clone();
        commands.spawn(Screenshot::primary_window()).observe(
            move |captured: On<ScreenshotCaptured>| {
                if let Ok(image) = captured.image.clone().try_into_dynamic() {
                    if let Ok(mut frames) = store.lock() {
                        frames.push(image.to_rgba8());
                    }
                }
            },
        );
    }
}

/// Moves the cursor (or the lesson) to step `k` and waits for it to be drawn.
fn show(job: &mut AnimationJob, cursor: &mut PlaybackCursor, lesson: &mut LessonPlayer, k: usize) {
    match job.walk {
        Walk::Steps => {
            cursor.cursor = k;
            cursor.playing = false;
        }
        Walk::Lesson => lesson.go_to(k),
    }
    job.waited = 0;
    job.wait = if k == 0 { SETTLE_FRAMES } else { STEP_FRAMES };
}

/// Reports a failed capture (the caller removes the job).
fn fail(
    job: &AnimationJob,
    status: &mut StatusLine,
    exit: &mut MessageWriter<AppExit>,
    message: String,
) {
    if let Some(bar) = &job.bar {
        bar.abandon();
    }
    error!("{message}");
    status.error(message);
    if job.exit_when_done {
        exit.write(AppExit::error());
    }
}

/// Writes the frames as a GIF (`delay` in hundredths of a second per frame), or as
/// numbered PNGs when `out` ends in `.png`.
pub fn write_animation(
    out: &Path,
    frames: &[image::RgbaImage],
    delay: u16,
) -> Result<String, String> {
    let first = frames.first().ok_or("no frames were captured")?;
    let (width, height) = first.dimensions();
    let is_png = out
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("png"));
    if is_png {
        let stem = out.file_stem().and_then(|s| s.to_str()).unwrap_or("frame");
        let dir = out.parent().unwrap_or(Path::new("."));
        for (k, frame) in frames.iter().enumerate() {
            let path = dir.join(format!("{stem}_{k:03}.png"));
            frame
                .save(&path)
                .map_err(|e| format!("{}: cannot write: {e}", path.display()))?;
        }
        return Ok(format!(
            "{} PNG frames written as {}/{stem}_000.png …",
            frames.len(),
            dir.display()
        ));
    }
    let (w, h) = (
        u16::try_from(width).map_err(|_| "frames wider than 65535 pixels")?,
        u16::try_from(height).map_err(|_| "frames taller than 65535 pixels")?,
    );
    let file =
        std::fs::File::create(out).map_err(|e| format!("{}: cannot write: {e}", out.display()))?;
    let mut encoder = gif::Encoder::new(std::io::BufWriter::new(file), w, h, &[])
        .map_err(|e| format!("{}: {e}", out.display()))?;
    encoder
        .set_repeat(gif::Repeat::Infinite)
        .map_err(|e| format!("{}: {e}", out.display()))?;
    for image in frames {
        if image.dimensions() != (width, height) {
            return Err("the window changed size during the capture".into());
        }
        let mut rgba = image.as_raw().clone();
        let mut frame = gif::Frame::from_rgba_speed(w, h, &mut rgba, 10);
        frame.delay = delay;
        encoder
            .write_frame(&frame)
            .map_err(|e| format!("{}: {e}", out.display()))?;
    }
    Ok(format!(
        "{} frames written to {} ({width}×{height})",
        frames.len(),
        out.display()
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn frames_become_a_gif_or_numbered_pngs() {
        let dir = std::env::temp_dir().join(format!("collidescope-anim-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let frames: Vec<image::RgbaImage> = (0..3u8)
            .map(|k| image::RgbaImage::from_pixel(8, 6, image::Rgba([k * 80, 10, 200, 255])))
            .collect();
        let gif_path = dir.join("run.gif");
        write_animation(&gif_path, &frames, 50).unwrap();
        let mut decoder = gif::DecodeOptions::new();
        decoder.set_color_output(gif::ColorOutput::RGBA);
        let mut reader = decoder
            .read_info(std::fs::File::open(&gif_path).unwrap())
            .unwrap();
        let mut count = 0;
        while let Some(frame) = reader.read_next_frame().unwrap() {
            assert_eq!((frame.width, frame.height, frame.delay), (8, 6, 50));
            count += 1;
        }
        assert_eq!(count, 3);
        write_animation(&dir.join("run.png"), &frames, 50).unwrap();
        for k in 0..3 {
            assert!(dir.join(format!("run_{k:03}.png")).is_file());
        }
        assert!(write_animation(&dir.join("none.gif"), &[], 50).is_err());
        assert!(write_animation(Path::new("/no/such/dir/x.gif"), &frames, 50).is_err());
    }
}
