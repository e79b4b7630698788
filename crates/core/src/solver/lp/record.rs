//! What one step of the LP test records: the pivot (entering and leaving variables and
//! why), the objective, the points the weights give on A and B, and for small problems
//! the tableau itself; for containment, each vertex's verdict.

use glam::DVec3;
use serde::{Deserialize, Serialize};

use crate::solver::record::{PlotValues, Record};

/// What a step did.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum LpEvent {
    /// A pivot: `entering` joined the basis in place of `leaving` (names such as λ3,
    /// μ2, a1); `ties` rows tied for the minimum ratio; `plain_bland` once a repeated
    /// basis has switched the tie rule from the largest pivot to the smallest index.
    Pivot {
        entering: String,
        leaving: String,
        ties: usize,
        #[serde(default)]
        plain_bland: bool,
    },
    /// Containment: A's vertex `vertex` lies in B (or not).
    Vertex { vertex: usize, inside: bool },
}

/// The tableau after a pivot (small problems only), with the pivot's place.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TableauSnapshot {
    pub rows: usize,
    pub columns: usize,
    /// Row-major, `(rows + 1) × (columns + 1)`: the constraint rows, then the reduced
    /// costs; the last column is the right-hand side.
    pub values: Vec<f64>,
    pub pivot_row: usize,
    pub pivot_column: usize,
    pub column_names: Vec<String>,
}

/// One step of an LP run.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LpRecord {
    pub k: usize,
    pub event: LpEvent,
    /// The phase-1 objective (the artificials' sum) after the step.
    pub objective: f64,
    /// `Σλ_i p_i` and `Σμ_j q_j` (A's frame).
    pub point_a: DVec3,
    pub point_b: DVec3,
    pub tableau: Option<TableauSnapshot>,
}

/// The CSV header of the LP rows.
pub const LP_CSV_HEADER: &str = "algorithm,k,event,objective,ax,ay,az,bx,by,bz";

impl Record for LpRecord {
    fn k(&self) -> usize {
        self.k
    }

    fn event_name(&self) -> &'static str {
        match self.event {
            LpEvent::Pivot { .. } => "pivot",
            LpEvent::Vertex { inside: true, .. } => "vertex_inside",
            LpEvent::Vertex { .. } => "vertex_outside",
        }
    }

    fn plot_values(&self) -> PlotValues {
        PlotValues {
            upper: self.objective,
            lower: f64::NAN,
            residual: self.objective,
        }
    }

    fn support_calls(&self) -> u64 {
        0
    }

    fn csv_fields(&self) -> String {
        let (a, b) = (self.point_a, self.point_b);
        format!(
            "{:e},{:e},{:e},{:e},{:e},{:e},{:e}",
            self.objective, a.x, a.y, a.z, b.x, b.y, b.z
        )
    }
}
