//! What one Newton step of the interior point records: the points x in A and y in B,
//! μ, the residuals, the step length, the constraints that are active, and the
//! certified bracket of the distance.

use glam::DVec3;
use serde::{Deserialize, Serialize};

use super::barrier::State;

/// Which problem a step belongs to.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum IpStage {
    /// `min ‖x − y‖²`: the distance (for a moving B, its smallest over the motion);
    /// `lower`/`upper` bracket the distance.
    #[default]
    Distance,
    /// `min t` with a common point (the first contact); `lower`/`upper` bracket `t`.
    ContactTime,
}

/// One Newton step.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct IpRecord {
    pub k: usize,
    #[serde(default)]
    pub stage: IpStage,
    /// B's time along its motion at this step (0 for a static B).
    #[serde(default)]
    pub time: f64,
    pub x: DVec3,
    pub y: DVec3,
    /// The barrier parameter `Σ λ_k s_k / m`.
    pub mu: f64,
    /// `‖∇f₀ + Σ λ_k ∇F_k‖` (scaled units).
    pub dual_residual: f64,
    /// The largest constraint value (negative: the iterates stay inside; the primal
    /// residual `F + s` is zero by construction).
    pub primal_slack: f64,
    pub step: f64,
    /// Constraints (in A's then B's order) whose multiplier carries at least 1e-3 of
    /// the largest: the ones holding x and y apart.
    pub active: Vec<usize>,
    pub lower: f64,
    pub upper: f64,
}

impl IpRecord {
    pub(super) fn new<const N: usize>(
        s: &State<N>,
        x: DVec3,
        y: DVec3,
        lower: f64,
        upper: f64,
    ) -> Self {
        let largest = s.multipliers.iter().cloned().fold(0.0f64, f64::max);
        Self {
            k: s.iteration,
            stage: IpStage::Distance,
            time: 0.0,
            x,
            y,
            mu: s.mu,
            dual_residual: s.dual_residual.iter().map(|r| r * r).sum::<f64>().sqrt(),
            primal_slack: s.values.iter().cloned().fold(f64::NEG_INFINITY, f64::max),
            step: s.step,
            active: s
                .multipliers
                .iter()
                .enumerate()
                .filter(|(_, l)| **l >= 1e-3 * largest)
                .map(|(k, _)| k)
                .collect(),
            lower,
            upper,
        }
    }
}

/// The CSV columns after `algorithm,k,event`.
pub const IP_CSV_HEADER: &str =
    "algorithm,k,event,mu,dual_residual,primal_slack,step,lower,upper,x_x,x_y,x_z,y_x,y_y,y_z";

impl crate::solver::record::Record for IpRecord {
    fn k(&self) -> usize {
        self.k
    }

    fn event_name(&self) -> &'static str {
        match (self.k, self.stage) {
            (0, IpStage::Distance) => "start",
            (0, IpStage::ContactTime) => "contact_time_start",
            (_, IpStage::Distance) => "newton_step",
            (_, IpStage::ContactTime) => "contact_time_step",
        }
    }

    /// The certified bracket of the distance; the residual plotted is μ.
    fn plot_values(&self) -> crate::solver::record::PlotValues {
        crate::solver::record::PlotValues {
            upper: self.upper,
            lower: self.lower,
            residual: self.mu,
        }
    }

    fn support_calls(&self) -> u64 {
        0
    }

    fn csv_fields(&self) -> String {
        let (x, y) = (self.x, self.y);
        format!(
            "{:e},{:e},{:e},{:e},{:e},{:e},{:e},{:e},{:e},{:e},{:e},{:e}",
            self.mu,
            self.dual_residual,
            self.primal_slack,
            self.step,
            self.lower,
            self.upper,
            x.x,
            x.y,
            x.z,
            y.x,
            y.y,
            y.z
        )
    }
}
