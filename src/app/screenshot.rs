//! Scripted mode: render the scene, save a PNG with Bevy's screenshot API, and exit 0;
//! exit non-zero with a message if no image arrives.

use std::path::PathBuf;

use bevy::prelude::*;
use bevy::render::view::screenshot::{save_to_disk, Screenshot};

use super::camera::{CameraRequest, OrbitCamera};
use super::diagnose::Diagnosis;
use super::state::Model;
use super::state::ViewerMode;

/// Frames to let the scene settle (meshes uploaded, camera framed) before capturing.
const SETTLE_FRAMES: u32 = 12;
/// Frames to wait for the file before giving up.
const GIVE_UP_FRAMES: u32 = 600;

pub struct ScriptedScreenshot {
    pub path: PathBuf,
    pub close_up: bool,
    /// Run a pose sweep and a heat map first, and capture the Diagnose panel's results.
    pub diagnose: bool,
    /// A lesson: fail when a point the step's text names is labelled outside the view.
    pub check_labels: bool,
}

#[derive(Resource)]
struct ScreenshotJob {
    path: PathBuf,
    close_up: bool,
    diagnose: bool,
    check_labels: bool,
    frame: u32,
    /// The frame a background job's result arrived: new text needs a few frames for
    /// its glyphs to reach egui's font atlas before the capture.
    ready_at: Option<u32>,
    requested: bool,
    /// File size seen last frame: the file is complete once it stops growing.
    last_size: u64,
}

impl Plugin for ScriptedScreenshot {
    fn build(&self, app: &mut App) {
        let _ = std::fs::remove_file(&self.path);
        app.insert_resource(ScreenshotJob {
            path: self.path.clone(),
            close_up: self.close_up,
            diagnose: self.diagnose,
            check_labels: self.check_labels,
            frame: 0,
            ready_at: None,
            requested: false,
            last_size: 0,
        })
        .add_systems(Last, capture_then_exit);
    }
}

#[allow(clippy::too_many_arguments)]
fn capture_then_exit(
    mut job: ResMut<ScreenshotJob>,
    mut commands: Commands,
    mut camera: MessageWriter<CameraRequest>,
    mut exit: MessageWriter<AppExit>,
    mut diagnosis: ResMut<Diagnosis>,
    model: Res<Model>,
    orbit: Res<OrbitCamera>,
    mut mode: ResMut<NextState<ViewerMode>>,
    lesson: Res<super::lesson::LessonPlayer>,
    label_layout: Res<super::draw::LabelLayout>,
) {
    job.frame += 1;
    if job.close_up && job.frame == 6 {
        camera.write(CameraRequest::FrameStep);
    }
    let mut ready = true;
    let contact_focus = model
        .focus()
        .entry::<crate::solver::contact::ContactRule>()
        .is_some();
    if job.diagnose && contact_focus {
        // A contact rule in focus: the jitter study (nudges, then the tilt grid).
        if job.frame == 3 {
            diagnosis.start_jitter(&model);
            mode.set(ViewerMode::Diagnose);
        }
        ready = diagnosis.jitter.is_some();
    } else if job.diagnose {
        if job.frame == 3 {
            diagnosis.start_sweep(&model);
            mode.set(ViewerMode::Diagnose);
        }
        if diagnosis.progress().is_none() && diagnosis.sweep.is_some() && diagnosis.heat.is_none() {
            let view = orbit.transform();
            diagnosis.start_heat_map(&model, view.right().as_dvec3(), view.up().as_dvec3());
        }
        ready = diagnosis.heat.is_some();
    }
    if ready && job.ready_at.is_none() {
        job.ready_at = Some(job.frame);
    }
    let settled = job
        .ready_at
        .is_some_and(|at| job.frame >= at + 6 && job.frame >= SETTLE_FRAMES);
    if ready && settled && !job.requested {
        job.requested = true;
        commands
            .spawn(Screenshot::primary_window())
            .observe(save_to_disk(job.path.clone()));
    }
    let size = std::fs::metadata(&job.path).map_or(0, |m| m.len());
    if job.requested && size > 0 && size == job.last_size {
        info!("screenshot written to {}", job.path.display());
        let problems = if job.check_labels {
            illegible(&lesson, &label_layout)
        } else {
            Vec::new()
        };
        if problems.is_empty() {
            exit.write(AppExit::Success);
        } else {
            error!("the page's picture is not legible: {}", problems.join("; "));
            exit.write(AppExit::error());
        }
    } else if job.frame > GIVE_UP_FRAMES {
        error!("no screenshot after {GIVE_UP_FRAMES} frames: could not render");
        exit.write(AppExit::error());
    }
    job.last_size = size;
}

/// What makes the lesson page on screen illegible ([`super::lesson::legibility_problems`]).
fn illegible(
    lesson: &super::lesson::LessonPlayer,
    layout: &super::draw::LabelLayout,
) -> Vec<String> {
    super::lesson::current_text(lesson)
        .map(|text| super::lesson::legibility_problems(text, layout))
        .unwrap_or_default()
}
