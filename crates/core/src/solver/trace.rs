//! One run's records (docs/architecture.md, "The family contract"), whatever its family.
//! [`Trace`] sits above the
//! families and only aggregates: it holds the running family's own buffer behind
//! [`FamilyRecords`] (what every family's records answer: count, records, CSV, JSON, a
//! table, a sentence per step), and hands it back as the family's own type to what
//! draws it ([`Trace::get`], [`Trace::steps`]). No list of families here: a new family
//! brings its records and its [`crate::solver::family::FamilyKind`] in its own folder.

use serde::Serialize;

use super::distance::DistanceStep;
use super::family::RunView;
use super::family::{Family, FamilyRecords, StepRecord};
pub use super::record::{PlotValues, Record};

/// One run's records.
#[derive(Debug)]
pub struct Trace(Box<dyn FamilyRecords>);

impl Trace {
    /// An empty trace of `family`'s record type.
    pub fn new(family: Family) -> Self {
        Trace(family.new_records())
    }

    pub fn family(&self) -> Family {
        self.0.family()
    }

    pub fn len(&self) -> usize {
        self.0.len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Record `i` as what all records share.
    pub fn record(&self, i: usize) -> Option<&dyn Record> {
        self.0.record(i)
    }

    /// Every record, in order.
    pub fn records(&self) -> impl Iterator<Item = &dyn Record> + '_ {
        (0..self.len()).filter_map(|i| self.record(i))
    }

    /// The family's own buffer, when this trace is of type `T`.
    pub fn get<T: 'static>(&self) -> Option<&T> {
        self.0.as_any().downcast_ref::<T>()
    }

    /// The steps of a family whose records are one list of `R`, when this is its run.
    pub fn steps<R: StepRecord>(&self) -> Option<&[R]> {
        self.get::<Vec<R>>().map(Vec::as_slice)
    }

    /// The family's own buffer of type `T`, making this trace one if it was another
    /// family's (a solver stepping into a trace it was handed).
    pub fn buffer<T: FamilyRecords + Default>(&mut self) -> &mut T {
        if !self.0.as_any().is::<T>() {
            self.0 = Box::new(T::default());
        }
        match self.0.as_any_mut().downcast_mut::<T>() {
            Some(buffer) => buffer,
            None => unreachable!("the buffer was just made a {}", std::any::type_name::<T>()),
        }
    }

    /// What record `index` of `run` did, in words (see [`crate::solver::narration`]).
    pub fn narrate(&self, run: RunView<'_>, index: usize) -> String {
        self.0.narrate(run, index)
    }

    /// The distance step of record `i`, for the families that have one.
    pub fn distance_step(&self, i: usize) -> Option<&DistanceStep> {
        self.0.distance_step(i)
    }

    /// Every vector of the distance families' steps through `f` (see
    /// [`crate::solver::distance::DistanceStep::map_vectors`]); other families'
    /// records are left as they are.
    pub fn map_distance_vectors(&mut self, f: impl Fn(glam::DVec3) -> glam::DVec3 + Copy) {
        self.0.map_distance_vectors(&f)
    }

    /// The records as the `solve` command prints them.
    pub fn table(&self) -> String {
        self.0.table()
    }

    /// The CSV header of this family's rows.
    pub fn csv_header(&self) -> &'static str {
        self.0.csv_header()
    }

    /// One CSV line per record, each starting `algorithm,k,event`.
    pub fn csv_rows(&self, algorithm: &str) -> String {
        self.records()
            .map(|r| {
                format!(
                    "{algorithm},{},{},{}\n",
                    r.k(),
                    r.event_name(),
                    r.csv_fields()
                )
            })
            .collect()
    }

    /// Header and rows.
    pub fn csv(&self, algorithm: &str) -> String {
        format!("{}\n{}", self.csv_header(), self.csv_rows(algorithm))
    }
}

impl Clone for Trace {
    fn clone(&self) -> Self {
        Trace(self.0.clone_box())
    }
}

impl PartialEq for Trace {
    fn eq(&self, other: &Self) -> bool {
        self.0.same(other.0.as_ref())
    }
}

/// The family's records as they are (a list of steps, or EPA's points and steps).
impl Serialize for Trace {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.0.to_json().serialize(s)
    }
}
