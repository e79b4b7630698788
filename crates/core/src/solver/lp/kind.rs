//! What the LP test is to everything that lists or shows families: its
//! [`FamilyKind`], and its records as a run's trace holds them.

use super::{LpEvent, LpRecord, LP_CSV_HEADER};
use crate::solver::family::RunView;
use crate::solver::family::{BoundNames, Family, FamilyKind, FamilyRecords, LogScale, StepRecord};

/// The collision and containment tests by linear programming (the simplex method).
pub struct LpFamily;

pub const FAMILY: Family = Family(&LpFamily);

impl FamilyKind for LpFamily {
    fn id(&self) -> &'static str {
        "lp"
    }

    fn purpose(&self) -> &'static str {
        "the simplex method on the shapes' points: collision (or containment) with a checked certificate"
    }

    fn bounds(&self) -> BoundNames {
        BoundNames {
            axis: "phase-1 objective",
            upper: "objective (artificials' sum)",
            lower: "",
            log_upper: "objective",
            log_lower: "",
            log: LogScale::Upper,
            log_choice: "log: phase-1 objective",
            residual: "the phase-1 objective",
            linear_choice: "linear: phase-1 objective",
        }
    }

    fn new_records(&self) -> Box<dyn FamilyRecords> {
        Box::new(Vec::<LpRecord>::new())
    }
}

impl StepRecord for LpRecord {
    const FAMILY: Family = FAMILY;
    const CSV_HEADER: &'static str = LP_CSV_HEADER;

    fn table(records: &[Self]) -> String {
        let mut table = format!(
            "{:>5}  {:<28} {:>13}  {:<30}  {:<30}\n",
            "k", "step", "objective", "Σλp (on A)", "Σμq (on B)"
        );
        for r in records {
            table += &row(r);
        }
        table
    }

    fn narrate(run: RunView<'_>, records: &[Self], index: usize) -> String {
        super::narrate::narrate(run, records, index)
    }
}

fn row(r: &LpRecord) -> String {
    let step = match &r.event {
        LpEvent::Pivot {
            entering,
            leaving,
            ties,
            plain_bland,
        } => format!(
            "{entering} in, {leaving} out ({ties} tied{})",
            if *plain_bland { ", plain Bland" } else { "" }
        ),
        LpEvent::Vertex { vertex, inside } => {
            format!(
                "vertex {vertex} {}",
                // Not inside: outside, or (the run's last, ending in contact) undecided.
                if *inside { "inside" } else { "not inside" }
            )
        }
    };
    let p = |v: glam::DVec3| format!("({:.6}, {:.6}, {:.6})", v.x, v.y, v.z);
    format!(
        "{:>5}  {:<28} {:>13.6e}  {:<30}  {:<30}\n",
        r.k,
        step,
        r.objective,
        p(r.point_a),
        p(r.point_b)
    )
}
