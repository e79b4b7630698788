//! What the interior point is to everything that lists or shows families: its
//! [`FamilyKind`], and its records as a run's trace holds them.

use super::{IpExtras, IpRecord, IP_CSV_HEADER};
use crate::printed_bound::{Above, Below};
use crate::solver::family::RunView;
use crate::solver::family::{
    BoundNames, ExtrasFields, Family, FamilyKind, FamilyRecords, LogScale, StepRecord,
};

/// Distance between implicit bodies by a primal-dual interior-point method.
pub struct InteriorPointFamily;

pub const FAMILY: Family = Family(&InteriorPointFamily);

impl FamilyKind for InteriorPointFamily {
    fn id(&self) -> &'static str {
        "interior_point"
    }

    fn purpose(&self) -> &'static str {
        "a primal-dual interior point on the shapes' implicit forms: distance with a certified bracket"
    }

    fn bounds(&self) -> BoundNames {
        BoundNames {
            axis: "distance bounds",
            upper: "|x − y| (upper bound)",
            lower: "Lagrangian (lower bound)",
            log_upper: "|x − y| − d*",
            log_lower: "d* − lower",
            log: LogScale::GapToBest,
            log_choice: "log: μ, dual residual, bracket",
            residual: "μ",
            linear_choice: "linear: the certified bracket",
        }
    }

    fn new_records(&self) -> Box<dyn FamilyRecords> {
        Box::new(Vec::<IpRecord>::new())
    }
}

impl StepRecord for IpRecord {
    const FAMILY: Family = FAMILY;
    const CSV_HEADER: &'static str = IP_CSV_HEADER;

    fn table(records: &[Self]) -> String {
        let mut table = format!(
            "{:>5}  {:>11} {:>11} {:>11} {:>8} {:>15} {:>15}  active\n",
            "k", "μ", "dual res.", "max F", "step", "lower", "upper"
        );
        for r in records {
            table += &format!(
                "{:>5}  {:>11.3e} {:>11.3e} {:>11.3e} {:>8.4} {:>15.9e} {:>15.9e}  {:?}\n",
                r.k,
                r.mu,
                r.dual_residual,
                r.primal_slack,
                r.step,
                Below(r.lower),
                Above(r.upper),
                r.active
            );
        }
        table
    }

    fn narrate(run: RunView<'_>, records: &[Self], index: usize) -> String {
        super::narrate::narrate(run, records, index)
    }
}

/// In JSON: the certified bracket of the distance, when the run has one.
impl ExtrasFields for Option<IpExtras> {
    fn fields(&self) -> serde_json::Map<String, serde_json::Value> {
        let mut map = serde_json::Map::new();
        if let Some(e) = self {
            map.insert(
                "distance_bracket".into(),
                serde_json::json!([e.lower, e.upper]),
            );
        }
        map
    }
}
