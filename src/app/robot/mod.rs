//! Robot mode: a URDF loaded as a scene of its link shapes (`robot::scene`), joint
//! sliders within the limits, a random configuration, and every checked pair's distance
//! sorted nearest first (colliding red, near amber); a pair clicked is put in focus,
//! which opens it in the two-shape debugger (Minkowski difference, steps, plots).
//!
//! One file per job: `load.rs` opens a robot, `check.rs` holds the check's state (what a
//! move or a pair turned on or off changes), `panel.rs` is its panel, `draw.rs` draws it
//! and `interact.rs` answers clicks, play mode and a robot newly opened.

mod check;
mod draw;
mod interact;
mod load;
mod panel;

use bevy::prelude::*;

use crate::app::state::ViewerSet;

pub use check::RobotState;
pub use panel::robot_panel_ui;

/// The robot being shown, when the viewer opened a URDF.
#[derive(Resource, Default)]
pub struct RobotSession(pub Option<RobotState>);

pub(super) fn plugin(app: &mut App) {
    app.add_observer(interact::click_link).add_systems(
        Update,
        (
            interact::play_path.in_set(ViewerSet::Input),
            (
                interact::open_on_the_robot,
                draw::tint_links,
                interact::z_up_for_robots,
            )
                .in_set(ViewerSet::Input),
            (draw::sync_visuals, draw::place_visuals)
                .chain()
                .in_set(ViewerSet::Draw),
            draw::draw_nearest.in_set(ViewerSet::Draw),
        ),
    );
}
