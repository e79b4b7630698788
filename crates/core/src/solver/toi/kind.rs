//! What the time-of-impact family is to everything that lists or shows families: its
//! [`FamilyKind`], and its records as a run's trace holds them.

use super::{ToiExtras, ToiRecord, TOI_CSV_HEADER};
use crate::printed_bound::{Above, Below};
use crate::solver::family::RunView;
use crate::solver::family::{
    BoundNames, ExtrasFields, Family, FamilyKind, FamilyRecords, LogScale, StepRecord,
};
use crate::solver::record::Record;

/// Time of impact of B moving by `t·v`: ray cast, advancement, halving, Brent.
pub struct ToiFamily;

pub const FAMILY: Family = Family(&ToiFamily);

impl FamilyKind for ToiFamily {
    fn id(&self) -> &'static str {
        "time_of_impact"
    }

    fn purpose(&self) -> &'static str {
        "when B, moving by its velocity over t in [0, 1], first touches A"
    }

    fn bounds(&self) -> BoundNames {
        BoundNames {
            axis: "time of first contact",
            upper: "latest possible",
            lower: "earliest possible",
            log_upper: "bracket width",
            log_lower: "",
            log: LogScale::Width,
            log_choice: "distance against t, probes marked",
            residual: "the time bracket's width",
            linear_choice: "the first contact's bracket",
        }
    }

    fn new_records(&self) -> Box<dyn FamilyRecords> {
        Box::new(Vec::<ToiRecord>::new())
    }
}

impl StepRecord for ToiRecord {
    const FAMILY: Family = FAMILY;
    const CSV_HEADER: &'static str = TOI_CSV_HEADER;

    fn table(records: &[Self]) -> String {
        let mut table = format!(
            "{:>5}  {:<17} {:>15} {:>15} {:>15} {:>13} {:>6}\n",
            "k", "event", "time", "lower", "upper", "distance", "calls"
        );
        for r in records {
            table += &format!(
                "{:>5}  {:<17} {:>15.12} {:>15.12} {:>15.12} {:>13.6e} {:>6}\n",
                r.k,
                r.event_name(),
                r.time,
                Below(r.lower),
                Above(r.upper),
                Above(r.distance),
                r.support_calls
            );
        }
        table
    }

    fn narrate(run: RunView<'_>, records: &[Self], index: usize) -> String {
        super::narrate::narrate(run, records, index)
    }
}

/// In JSON: the distance at t = 0, when one was measured.
impl ExtrasFields for ToiExtras {
    fn fields(&self) -> serde_json::Map<String, serde_json::Value> {
        let mut map = serde_json::Map::new();
        if let Some(d) = self.initial_distance {
            map.insert("initial_distance".into(), d.into());
        }
        map
    }
}
