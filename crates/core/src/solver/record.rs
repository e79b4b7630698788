//! What every family's records share: the leaf the families' record types implement
//! ([`crate::solver::trace::Trace`], above the families, aggregates them).

use super::distance::step::DistanceStep;

/// The numbers a step contributes to the plots; NaN where a family has none.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PlotValues {
    /// An upper bound on the method's answer (‖x_k‖ for a distance, the support along
    /// the nearest face's normal for a depth).
    pub upper: f64,
    /// A lower bound on it (the best separating plane's offset, the nearest face).
    pub lower: f64,
    /// The residual the convergence plot compares across methods (the Frank-Wolfe
    /// duality gap for distances, upper − lower for a depth).
    pub residual: f64,
}

impl PlotValues {
    /// The distance families: ‖x_k‖ above, α below, the true duality gap as residual.
    pub fn distance(step: &DistanceStep) -> Self {
        Self {
            upper: step.x_norm,
            lower: step.alpha,
            residual: step.fw_gap,
        }
    }
}

/// What every family's record provides.
pub trait Record {
    /// The iteration counter after this step.
    fn k(&self) -> usize;
    /// A short name of what the step did (tables, CSV).
    fn event_name(&self) -> &'static str;
    fn plot_values(&self) -> PlotValues;
    /// Support calls of the run so far.
    fn support_calls(&self) -> u64;
    /// The CSV columns after `algorithm,k,event` (the family's header says which).
    fn csv_fields(&self) -> String;
}
