//! What one EPA expansion records: enough to draw the polytope inside `A ⊖ B` as it
//! grows, highlight the nearest face, the support along its normal and the horizon, and
//! to plot the depth's two bounds.

use glam::DVec3;
use serde::{Deserialize, Serialize};

use crate::minkowski::CsoPoint;
use crate::solver::record::{PlotValues, Record};

/// Why an expansion step ended the run, or what it did.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EpaEvent {
    /// The starting polytope (GJK's simplex, grown to a tetrahedron around the origin).
    Start,
    /// The support along the nearest face's normal gained more than the tolerance: the
    /// faces it sees were removed and new ones fanned from the horizon.
    Expanded,
    /// The gain was within the tolerance (or the support was already on the face's
    /// plane): the nearest face is certified.
    Converged,
    /// The iteration cap was reached.
    IterationCap,
    /// The iteration cap was reached with the depth's bracket (the nearest face, the
    /// smallest support plane seen) within `acceptable`: the answer, to that bracket.
    Accepted,
}

/// One EPA step.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct EpaRecord {
    pub k: usize,
    pub event: EpaEvent,
    /// The polytope's vertices are the run's first `vertex_count` points.
    pub vertex_count: usize,
    /// The polytope's faces before this step's expansion (indices into the points).
    pub faces: Vec<[usize; 3]>,
    /// The face nearest the origin, its distance (the depth's lower bound) and normal.
    pub nearest: [usize; 3],
    pub nearest_distance: f64,
    pub normal: DVec3,
    /// The support point along `normal` (index into the points when it was added).
    pub support: DVec3,
    /// `⟨normal, support⟩`: the depth's upper bound.
    pub support_distance: f64,
    /// `support_distance − nearest_distance`.
    pub gain: f64,
    /// Edges between the removed faces and the kept ones.
    pub horizon: Vec<(usize, usize)>,
    pub faces_removed: usize,
    pub faces_added: usize,
    /// Support calls so far (EPA's own, after GJK's).
    pub support_calls: u64,
}

impl EpaRecord {
    pub fn lower_bound(&self) -> f64 {
        self.nearest_distance
    }

    pub fn upper_bound(&self) -> f64 {
        self.support_distance
    }
}

impl EpaEvent {
    /// A short name for tables and CSV.
    pub fn name(&self) -> &'static str {
        match self {
            EpaEvent::Start => "start",
            EpaEvent::Expanded => "expanded",
            EpaEvent::Converged => "converged",
            EpaEvent::IterationCap => "iteration_cap",
            EpaEvent::Accepted => "accepted",
        }
    }
}

/// The CSV header of EPA's rows.
pub const EPA_CSV_HEADER: &str = "algorithm,k,event,lower_bound,upper_bound,gain,faces,horizon_edges,faces_removed,faces_added,support_calls,nx,ny,nz";

impl Record for EpaRecord {
    fn k(&self) -> usize {
        self.k
    }

    fn event_name(&self) -> &'static str {
        self.event.name()
    }

    fn plot_values(&self) -> PlotValues {
        PlotValues {
            upper: self.upper_bound(),
            lower: self.lower_bound(),
            residual: self.upper_bound() - self.lower_bound(),
        }
    }

    fn support_calls(&self) -> u64 {
        self.support_calls
    }

    fn csv_fields(&self) -> String {
        format!(
            "{:e},{:e},{:e},{},{},{},{},{},{:e},{:e},{:e}",
            self.nearest_distance,
            self.support_distance,
            self.gain,
            self.faces.len(),
            self.horizon.len(),
            self.faces_removed,
            self.faces_added,
            self.support_calls,
            self.normal.x,
            self.normal.y,
            self.normal.z
        )
    }
}

/// EPA's records with the polytope's points they index.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct EpaTrace {
    pub points: Vec<CsoPoint>,
    pub records: Vec<EpaRecord>,
}
