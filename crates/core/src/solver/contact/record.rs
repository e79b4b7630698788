//! What one step of a contact manifold's construction records: enough to draw the
//! feature or polygon it leaves (and the side plane it cut by) and to plot the depths
//! of the points so far against the certified depth.

use glam::DVec3;
use serde::Serialize;

use crate::solver::record::{PlotValues, Record};

/// What a step did.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ContactEvent {
    /// The certified normal and its point pair (EPA's on overlap, GJK's apart).
    Normal,
    /// The two support sets along the normal; the reference face chosen.
    Features,
    /// The incident feature cut by one side plane of the reference face.
    Clip,
    /// Each clipped point taken back to the reference plane: its depth; those beyond
    /// the margin dropped.
    Depths,
    /// More points than allowed: reduced, keeping the area.
    Reduce,
    /// Each kept point checked against both shapes and the certified depth.
    Certify,
}

impl ContactEvent {
    pub fn name(&self) -> &'static str {
        match self {
            ContactEvent::Normal => "normal",
            ContactEvent::Features => "features",
            ContactEvent::Clip => "clip",
            ContactEvent::Depths => "depths",
            ContactEvent::Reduce => "reduce",
            ContactEvent::Certify => "certify",
        }
    }
}

/// One step of the construction.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ContactRecord {
    pub k: usize,
    pub event: ContactEvent,
    /// What the step leaves (A's frame): the normal's point pair, the reference face,
    /// the incident feature as clipped so far, the candidates on B... the manifold's
    /// points on A.
    pub points: Vec<DVec3>,
    /// The side plane a clip cut by: a point on it and its outward normal.
    pub plane: Option<(DVec3, DVec3)>,
    /// The normal's certified depth (negative: the certified gap), and the deepest and
    /// shallowest depth among the step's points (the certified depth when it has none).
    pub certified_depth: f64,
    pub deepest: f64,
    pub shallowest: f64,
}

/// The CSV header of the contact family's rows.
pub const CONTACT_CSV_HEADER: &str =
    "algorithm,k,event,deepest,shallowest,certified_depth,points,plane_nx,plane_ny,plane_nz";

impl Record for ContactRecord {
    fn k(&self) -> usize {
        self.k
    }

    fn event_name(&self) -> &'static str {
        self.event.name()
    }

    fn plot_values(&self) -> PlotValues {
        PlotValues {
            upper: self.deepest,
            lower: self.shallowest,
            residual: self.deepest - self.shallowest,
        }
    }

    fn support_calls(&self) -> u64 {
        0
    }

    fn csv_fields(&self) -> String {
        let n = self.plane.map_or(DVec3::ZERO, |p| p.1);
        format!(
            "{:e},{:e},{:e},{},{:e},{:e},{:e}",
            self.deepest,
            self.shallowest,
            self.certified_depth,
            self.points.len(),
            n.x,
            n.y,
            n.z
        )
    }
}
