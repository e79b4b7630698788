//! What the contact family is to everything that lists or shows families: its
//! [`FamilyKind`], its records as a run's trace holds them, and its extras (the
//! manifold) in JSON.

use super::record::{ContactRecord, CONTACT_CSV_HEADER};
use super::ContactExtras;
use crate::solver::family::{
    BoundNames, ExtrasFields, Family, FamilyKind, FamilyRecords, LogScale, RunView, StepRecord,
};

/// Contact manifolds: the points an engine hands its contact solver.
pub struct ContactFamily;

pub const FAMILY: Family = Family(&ContactFamily);

impl FamilyKind for ContactFamily {
    fn id(&self) -> &'static str {
        "contact"
    }

    fn purpose(&self) -> &'static str {
        "the contact manifold: the incident feature clipped against the reference face, each point's depth, at most four kept, every point certified"
    }

    fn bounds(&self) -> BoundNames {
        BoundNames {
            axis: "depth of the manifold's points",
            upper: "deepest point",
            lower: "shallowest point",
            log_upper: "deepest − shallowest",
            log_lower: "",
            log: LogScale::Width,
            log_choice: "log: deepest − shallowest",
            residual: "deepest − shallowest point",
            linear_choice: "linear: depths",
        }
    }

    /// Depths, not distances.
    fn answers_distance(&self) -> bool {
        false
    }

    fn new_records(&self) -> Box<dyn FamilyRecords> {
        Box::new(Vec::<ContactRecord>::new())
    }
}

impl StepRecord for ContactRecord {
    const FAMILY: Family = FAMILY;
    const CSV_HEADER: &'static str = CONTACT_CSV_HEADER;

    fn table(records: &[Self]) -> String {
        let mut table = format!(
            "{:>5}  {:<10} {:>7} {:>16} {:>16} {:>16}\n",
            "k", "step", "points", "deepest", "shallowest", "certified depth"
        );
        for r in records {
            table += &format!(
                "{:>5}  {:<10} {:>7} {:>16.9e} {:>16.9e} {:>16.9e}\n",
                r.k,
                r.event.name(),
                r.points.len(),
                r.deepest,
                r.shallowest,
                r.certified_depth
            );
        }
        table
    }

    fn narrate(run: RunView<'_>, records: &[Self], index: usize) -> String {
        super::narrate::narrate(run, records, index)
    }
}

/// In JSON: the manifold (null when the shapes were too far apart for one).
impl ExtrasFields for ContactExtras {
    fn fields(&self) -> serde_json::Map<String, serde_json::Value> {
        let mut map = serde_json::Map::new();
        let manifold = serde_json::to_value(&self.manifold).unwrap_or(serde_json::Value::Null);
        map.insert("manifold".into(), manifold);
        map
    }
}
