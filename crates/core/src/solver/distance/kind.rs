//! What the two distance families are to everything that lists or shows families,
//! written once for both: the family kind ([`DistanceFamily`]) and the records as a
//! run's trace holds them ([`StepRecord`]), generic over the family's record
//! ([`DistanceRecord`]). GJK's and Frank-Wolfe's `kind.rs` only name theirs.

use std::marker::PhantomData;

use super::narrate::verdict;
use super::record::DistanceRecord;
use super::step::{DistanceStep, CSV_HEADER};
use crate::printed_bound::Above;
use crate::solver::family::{
    BoundNames, Family, FamilyKind, FamilyRecords, LogScale, RunView, StepRecord,
};
use crate::solver::narration::no_steps;
use crate::solver::record::Record;

/// A distance family: its id and purpose; its records are `R`s.
pub struct DistanceFamily<R> {
    id: &'static str,
    purpose: &'static str,
    records: PhantomData<fn() -> R>,
}

impl<R> DistanceFamily<R> {
    pub const fn new(id: &'static str, purpose: &'static str) -> Self {
        Self {
            id,
            purpose,
            records: PhantomData,
        }
    }
}

impl<R: DistanceRecord> FamilyKind for DistanceFamily<R> {
    fn id(&self) -> &'static str {
        self.id
    }

    fn purpose(&self) -> &'static str {
        self.purpose
    }

    fn bounds(&self) -> BoundNames {
        DISTANCE_BOUNDS
    }

    fn new_records(&self) -> Box<dyn FamilyRecords> {
        Box::new(Vec::<R>::new())
    }
}

impl<R: DistanceRecord> StepRecord for R {
    const FAMILY: Family = <R as DistanceRecord>::FAMILY;
    const CSV_HEADER: &'static str = CSV_HEADER;

    fn table(records: &[Self]) -> String {
        distance_table(records, |r| (r.step(), r.set_size()))
    }

    /// The step in words; a run that ends on its stopping test ends with its verdict.
    fn narrate(run: RunView<'_>, records: &[Self], index: usize) -> String {
        let Some(r) = records.get(index) else {
            return no_steps(run);
        };
        // The direction came from the iterate the step before left, by its name.
        let named =
            |i: usize| DistanceStep::iterate_number(i, |j| records.get(j).map(|r| r.step()));
        let from = index.checked_sub(1).map_or(0, named);
        let line = r.sentence(run.method, index, from);
        verdict(run, r.ends_on_test() && index + 1 == records.len(), line)
    }

    fn distance_step(&self) -> Option<&DistanceStep> {
        Some(self.step())
    }

    fn map_distance_vectors(&mut self, f: &dyn Fn(glam::DVec3) -> glam::DVec3) {
        self.step_mut().map_vectors(f)
    }
}

/// The `solve` command's table of a distance run: one row per step, `set_size` the
/// simplex's or the active set's size.
fn distance_table<R: Record>(records: &[R], step: impl Fn(&R) -> (&DistanceStep, usize)) -> String {
    let mut table = format!(
        "{:>5}  {:<12} {:>13} {:>11} {:>11} {:>11} {:>11} {:>4} {:>6}\n",
        "k", "event", "‖x_k‖", "FW gap", "r−α", "2⟨x,x−s⟩", "r²−α²", "|W|", "calls"
    );
    for r in records {
        let (s, set_size) = step(r);
        table += &format!(
            "{:>5}  {:<12} {:>13.6e} {:>11.3e} {:>11.3e} {:>11.3e} {:>11.3e} {:>4} {:>6}\n",
            r.k(),
            r.event_name(),
            Above(s.x_norm),
            Above(s.fw_gap),
            Above(s.criteria.van_den_bergen),
            Above(s.criteria.duality_gap),
            Above(s.criteria.hybrid),
            set_size,
            s.support_calls
        );
    }
    table
}

/// What the plots call the distance families' bounds.
const DISTANCE_BOUNDS: BoundNames = BoundNames {
    axis: "distance bounds",
    upper: "∥x_k∥ (upper bound)",
    lower: "α (lower bound)",
    log_upper: "∥x_k∥ − d*",
    log_lower: "d* − α",
    log: LogScale::GapToBest,
    log_choice: "log: ∥x_k∥ − d* and d* − α",
    residual: "the Frank-Wolfe gap",
    linear_choice: "linear: ∥x_k∥ and α",
};
