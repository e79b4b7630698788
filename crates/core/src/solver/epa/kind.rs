//! What EPA is to everything that lists or shows families: its [`FamilyKind`], and
//! its records (the polytope's points and one record per expansion) as a run's trace
//! holds them.

use super::{EpaExtras, EpaRecord, EpaTrace, EPA_CSV_HEADER};
use crate::printed_bound::{Above, Below};
use crate::solver::family::RunView;
use crate::solver::family::{
    BoundNames, ExtrasFields, Family, FamilyKind, FamilyRecords, LogScale,
};
use crate::solver::record::Record;

/// EPA: penetration depth on a polytope grown inside `A ⊖ B`.
pub struct EpaFamily;

pub const FAMILY: Family = Family(&EpaFamily);

impl FamilyKind for EpaFamily {
    fn id(&self) -> &'static str {
        "epa"
    }

    fn purpose(&self) -> &'static str {
        "GJK, then EPA's expansions when the shapes overlap: penetration depth"
    }

    fn bounds(&self) -> BoundNames {
        BoundNames {
            axis: "penetration depth bounds",
            upper: "upper: support along the normal",
            lower: "lower: nearest face",
            log_upper: "upper − lower",
            log_lower: "",
            log: LogScale::Width,
            log_choice: "log: upper − lower",
            residual: "EPA's upper − lower bound",
            linear_choice: "linear: depth bounds",
        }
    }

    /// Signed depths, not distances: the plots measure no gap to them.
    fn answers_distance(&self) -> bool {
        false
    }

    fn new_records(&self) -> Box<dyn FamilyRecords> {
        Box::new(EpaTrace::default())
    }
}

impl FamilyRecords for EpaTrace {
    fn family(&self) -> Family {
        FAMILY
    }

    fn len(&self) -> usize {
        self.records.len()
    }

    fn record(&self, i: usize) -> Option<&dyn Record> {
        self.records.get(i).map(|r| r as &dyn Record)
    }

    fn csv_header(&self) -> &'static str {
        EPA_CSV_HEADER
    }

    fn table(&self) -> String {
        let mut table = format!(
            "{:>5}  {:<13} {:>6} {:>14} {:>14} {:>11} {:>8} {:>6} {:>6}\n",
            "k",
            "event",
            "faces",
            "lower (face)",
            "upper (supp.)",
            "gain",
            "removed",
            "added",
            "calls"
        );
        for r in &self.records {
            table += &row(r);
        }
        table
    }

    fn narrate(&self, run: RunView<'_>, index: usize) -> String {
        super::narrate::narrate(run, self, index)
    }
}

fn row(r: &EpaRecord) -> String {
    format!(
        "{:>5}  {:<13} {:>6} {:>14.9e} {:>14.9e} {:>11.3e} {:>8} {:>6} {:>6}\n",
        r.k,
        r.event_name(),
        r.faces.len(),
        Below(r.nearest_distance),
        Above(r.support_distance),
        Above(r.gain),
        r.faces_removed,
        r.faces_added,
        r.support_calls
    )
}

/// In JSON: the GJK stage's summary (null when a closed form answered).
impl ExtrasFields for EpaExtras {
    fn fields(&self) -> serde_json::Map<String, serde_json::Value> {
        let mut map = serde_json::Map::new();
        let stage = serde_json::to_value(&self.gjk_stage).unwrap_or(serde_json::Value::Null);
        map.insert("gjk_stage".into(), stage);
        map
    }
}
