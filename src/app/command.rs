//! What panels and input ask of the model. They return commands (rerun-style) instead
//! of changing the model inside the egui pass; the Solve stage applies them in order,
//! then re-runs whatever they made stale, once per frame however many there were.

use bevy::prelude::*;

use super::model::{BodyId, ViewerModel};
use super::state::{Model, StatusLine, ViewerSet};
use crate::pose::Pose;
use crate::scene::ShapeSpec;
use crate::solver::{Method, SolverSettings};

/// One edit of the model.
#[derive(Clone, Debug, PartialEq)]
pub enum ViewerCommand {
    SetPose(BodyId, Pose),
    SetShape(BodyId, ShapeSpec),
    /// A body's translation over the motion t ∈ [0, 1] (world frame); `None`: it stays.
    SetVelocity(BodyId, Option<glam::DVec3>),
    /// Puts pair `k` of the scene in focus.
    FocusPair(usize),
    /// Puts a sub-pair of a composite pair in focus (`None`: the nearest).
    FocusSubPair(Option<crate::app::composite_view::PieceChoice>),
    /// Replaces the scene's pairs (robot mode's enabled pairs), keeping the focused one
    /// first when it is still there.
    SetPairs(Vec<(usize, usize)>),
    SetEnabled(Method, bool),
    SetFocus(Method),
    SetSettings(SolverSettings),
    SetWarmStart(bool),
    /// Measure each run's time per query (on demand, never on every drag).
    TimeThisPose,
}

impl ViewerCommand {
    /// Performs the edit; an error leaves the model as it was.
    pub fn apply(self, model: &mut ViewerModel) -> Result<(), String> {
        match self {
            ViewerCommand::SetPose(id, pose) => model.set_pose(id, pose),
            ViewerCommand::SetShape(id, spec) => model.set_shape(id, spec),
            ViewerCommand::SetVelocity(id, v) => model.set_velocity(id, v),
            ViewerCommand::FocusPair(k) => {
                model.set_focus_pair(k);
                Ok(())
            }
            ViewerCommand::FocusSubPair(choice) => {
                model.set_sub_pair(choice);
                Ok(())
            }
            ViewerCommand::SetPairs(pairs) => model.set_pairs(pairs),
            ViewerCommand::SetEnabled(method, on) => {
                model.set_enabled(method, on);
                Ok(())
            }
            ViewerCommand::SetFocus(method) => {
                model.set_focus(method);
                Ok(())
            }
            ViewerCommand::SetSettings(settings) => model.set_settings(settings),
            ViewerCommand::SetWarmStart(on) => {
                model.set_warm_start(on);
                Ok(())
            }
            ViewerCommand::TimeThisPose => {
                // Time what is shown: the runs must match the scene first.
                model.solve();
                model.time_this_pose();
                Ok(())
            }
        }
    }
}

/// Commands waiting for the Solve stage.
#[derive(Resource, Default, Debug)]
pub struct PendingCommands(pub Vec<ViewerCommand>);

impl PendingCommands {
    pub fn push(&mut self, command: ViewerCommand) {
        self.0.push(command);
    }
}

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<PendingCommands>().add_systems(
        Update,
        (apply_commands, solve_stale_runs)
            .chain()
            .in_set(ViewerSet::Solve),
    );
}

/// Applies the frame's commands in order; the last error goes to the status line.
fn apply_commands(
    mut pending: ResMut<PendingCommands>,
    mut model: ResMut<Model>,
    mut status: ResMut<StatusLine>,
) {
    if pending.0.is_empty() {
        return;
    }
    for command in std::mem::take(&mut pending.0) {
        if let Err(e) = command.apply(&mut model) {
            status.error(e);
        }
    }
}

/// Re-runs the methods when an edit made their runs stale (once per frame).
fn solve_stale_runs(mut model: ResMut<Model>) {
    if model.is_stale() {
        model.solve();
    }
}
