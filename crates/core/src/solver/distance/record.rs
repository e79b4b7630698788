//! What a GJK and a Frank-Wolfe record share, written once for both: each is the shared
//! step ([`DistanceStep`]) with its family's event and one column of its own
//! ([`DistanceRecord`] says which), and every such record is a [`Record`] the same way.

use serde::Serialize;

use super::step::DistanceStep;
use crate::solver::family::Family;
use crate::solver::record::{PlotValues, Record};

/// A distance family's record: what differs between GJK's and Frank-Wolfe's (the
/// event, the set size shown, momentum, when the run ends on its test, the sentence).
/// The family's kind, its trace buffer, its table, CSV and narration follow from it
/// ([`super::kind`]).
pub trait DistanceRecord:
    Serialize + Clone + PartialEq + std::fmt::Debug + Send + Sync + 'static
{
    /// The family whose records these are.
    const FAMILY: Family;
    /// The step the two families share.
    fn step(&self) -> &DistanceStep;
    fn step_mut(&mut self) -> &mut DistanceStep;
    /// A short name of what the step did (tables, CSV).
    fn event_name(&self) -> &'static str;
    /// The set the table and the CSV count: GJK's simplex, Frank-Wolfe's whole active
    /// set (before the record's truncation).
    fn set_size(&self) -> usize;
    /// Whether momentum chose the step's direction (the CSV's `momentum` column).
    fn momentum(&self) -> bool {
        false
    }
    /// Whether the step ends a run on its stopping test (the run's last sentence then
    /// says the verdict).
    fn ends_on_test(&self) -> bool;
    /// What the step (number `index` of a run of method `name`) did, in words; its
    /// direction came from the iterate named x_`from` ([`DistanceStep::iterate_number`]).
    fn sentence(&self, name: &str, index: usize, from: usize) -> String;
}

impl<R: DistanceRecord> Record for R {
    fn k(&self) -> usize {
        self.step().k
    }

    fn event_name(&self) -> &'static str {
        DistanceRecord::event_name(self)
    }

    fn plot_values(&self) -> PlotValues {
        PlotValues::distance(self.step())
    }

    fn support_calls(&self) -> u64 {
        self.step().support_calls
    }

    fn csv_fields(&self) -> String {
        self.step().csv_fields(self.set_size(), self.momentum())
    }
}
