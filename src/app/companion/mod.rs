//! One viewer companion per method family: what the viewer adds for that family beside
//! its generic panels, plots and drawings. A companion holds the family's drawing of
//! the step under the cursor (Bevy systems run while the family is in focus), its extra
//! plot, its extra panel sections, its lines in the results, and what the viewer
//! computes for it beside the runs (the time of impact's motion curve). Every companion
//! is registered in [`COMPANIONS`], the one list the generic code goes through: the
//! panels, plots and drawings outside this folder name no family, and reach a companion
//! only through this file.

pub mod contact;
pub mod epa;
pub mod frank_wolfe;
pub mod gjk;
pub mod interior_point;
pub mod lp;
mod lp_tableau;
pub mod toi;

use bevy::prelude::*;
use bevy_egui::egui;

use crate::app::model::ViewerModel;
use crate::solver::catalog::Family;
use crate::solver::Method;

/// What the viewer adds for one family. Every hook is optional.
pub struct Companion {
    pub family: Family,
    /// Registers the family's drawings (and any system keeping its viewer-side
    /// computation up to date).
    pub draw: fn(&mut App),
    /// The family's own plot in the bounds plot's place when its log choice is on;
    /// `false` when the focused run is not the family's (the generic bounds plot then).
    pub plot: Option<fn(&mut egui::Ui, &PlotView) -> bool>,
    /// Under the playback controls, while the family is in focus.
    pub playback_section: Option<fn(&mut egui::Ui, &mut CompanionState)>,
    /// Under the methods panel (it shows only when the focused run is the family's).
    pub methods_section: Option<fn(&mut egui::Ui, &ViewerModel, usize)>,
    /// Extra lines under a method's answer in the results.
    pub result_lines: Option<fn(&mut egui::Ui, &ViewerModel, Method)>,
}

/// Every family's companion, in the catalog's order (the drawings are registered in it).
pub const COMPANIONS: [Companion; 7] = [
    gjk::COMPANION,
    frank_wolfe::COMPANION,
    epa::COMPANION,
    contact::COMPANION,
    toi::COMPANION,
    lp::COMPANION,
    interior_point::COMPANION,
];

/// What the companions keep between frames beside the model (a field per family that
/// keeps anything); the generic panels hand it to the hooks without reading it.
#[derive(Resource, Default)]
pub struct CompanionState {
    pub toi: toi::ToiState,
}

/// What a companion's plot reads.
pub struct PlotView<'a> {
    pub model: &'a ViewerModel,
    pub state: &'a CompanionState,
    /// The focused method's colour.
    pub color: egui::Color32,
    /// The iteration of the step under the cursor.
    pub current_k: f64,
    /// Where the panel ends: the plot fills the height down to it.
    pub bottom: f32,
}

/// The companion of `family`.
pub fn of(family: Family) -> Option<&'static Companion> {
    COMPANIONS.iter().find(|c| c.family == family)
}

/// Every companion's drawings (part of the draw plugin, after the shared layers).
pub fn draw_plugin(app: &mut App) {
    app.init_resource::<CompanionState>();
    for companion in &COMPANIONS {
        (companion.draw)(app);
    }
}

/// The focused family's section under the playback controls.
pub fn playback_section_ui(ui: &mut egui::Ui, model: &ViewerModel, state: &mut CompanionState) {
    if let Some(section) = of(model.focused_family()).and_then(|c| c.playback_section) {
        section(ui, state);
    }
}

/// The companions' sections under the methods panel (each shows for its own runs).
pub fn methods_sections_ui(ui: &mut egui::Ui, model: &ViewerModel, cursor: usize) {
    for section in COMPANIONS.iter().filter_map(|c| c.methods_section) {
        section(ui, model, cursor);
    }
}

/// A method's extra lines in the results, from its family's companion.
pub fn result_lines_ui(ui: &mut egui::Ui, model: &ViewerModel, method: Method) {
    if let Some(lines) = of(method.family()).and_then(|c| c.result_lines) {
        lines(ui, model, method);
    }
}

/// The first companion's plot that takes the focused run; `false` when none does.
pub fn plot_ui(ui: &mut egui::Ui, view: &PlotView) -> bool {
    COMPANIONS
        .iter()
        .filter_map(|c| c.plot)
        .any(|plot| plot(ui, view))
}

/// `log10` of a positive value, floored so zero gaps stay on the plot.
pub fn log10_floor(v: f64) -> f64 {
    v.max(1e-18).log10()
}
