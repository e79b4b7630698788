//! Scripted mode: render the scene, save a PNG with Bevy's screenshot API, and exit 0;
//! exit non-zero with a message if no image arrives.

use std::path::PathBuf;

use bevy::prelude::*;
use bevy::render::view::screenshot::{save_to_disk, Screenshot};

use super::camera::{CameraRequest, OrbitCamera};
use super::diagnose::Diagnosis;
use super::Model;
use super::ViewerMode;

/// Frames to let the scene settle (meshes uploaded, camera framed) before capturing.
const SETTLE_FRAMES: u32 = 12;
/// Frames to wait for the file before giving up.
const GIVE_UP_FRAMES: u32 = 600;

pub struct ScriptedScreenshot {
    pub path: PathBuf,
    pub close_up: bool,
    /// Run a pose sweep and a heat map first, and capture the Diagnose panel's results.
    pub diagnose: bool,
}

#[derive(Resource)]
struct ScreenshotJob {
    path: PathBuf,
    close_up: bool,
    diagnose: bool,
    frame: u32,
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
            frame: 0,
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
) {
    job.frame += 1;
    if job.close_up && job.frame == 6 {
        camera.write(CameraRequest::FrameStep);
    }
    let mut ready = true;
    if job.diagnose {
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
    if ready && job.frame >= SETTLE_FRAMES && !job.requested {
        job.requested = true;
        commands
            .spawn(Screenshot::primary_window())
            .observe(save_to_disk(job.path.clone()));
    }
    let size = std::fs::metadata(&job.path).map_or(0, |m| m.len());
    if job.requested && size > 0 && size == job.last_size {
        info!("screenshot written to {}", job.path.display());
        exit.write(AppExit::Success);
    } else if job.frame > GIVE_UP_FRAMES {
        error!("no screenshot after {GIVE_UP_FRAMES} frames: could not render");
        exit.write(AppExit::error());
    }
    job.last_size = size;
}
