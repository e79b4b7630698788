//! The contract every method family keeps: a [`PairQuery`] in, one run to its end that
//! writes the family's own records (one per step) into the buffer it is given, and an
//! [`Answer`] out, the [`RunSummary`] every family reports plus what only that family
//! reports. Each family's folder implements [`FamilyRun`] on the value that names its
//! variant (a direction rule, a time-of-impact rule, an LP question, ...);
//! [`super::Method::run`], above the families, dispatches to these entries, and the
//! CLI, scenes, the viewer and the benchmarks run every method through it.

use std::any::Any;
use std::ops::{Deref, DerefMut};

use glam::DVec3;
use serde::Serialize;

use super::distance::step::DistanceStep;
use super::outcome::{Outcome, RunSummary};
use super::record::Record;
use super::settings::SolverSettings;
use super::simplex::Simplex;
use crate::minkowski::SupportStats;
use crate::pose::{Motion, RelativePose};
use crate::shape::Shape;

/// One query: A at the identity, B at `b_in_a` (A's frame), moving by `motion` over
/// t ∈ [0, 1] when it moves, with every family's settings (each family reads its own).
#[derive(Clone, Copy, Debug)]
pub struct PairQuery<'q> {
    pub a: &'q Shape,
    pub b: &'q Shape,
    pub b_in_a: RelativePose,
    pub motion: Option<Motion>,
    pub settings: SolverSettings,
}

impl PairQuery<'_> {
    /// The round-off allowance of this pair's runs
    /// ([`crate::minkowski::pair_round_off`]; B's motion counts as its sweep).
    pub fn round_off(&self) -> f64 {
        let sweep = self.motion.map_or(DVec3::ZERO, |m| m.velocity);
        crate::minkowski::pair_round_off(self.a, self.b, &self.b_in_a, sweep)
    }
}

/// A finished run of any family: the summary every family reports, and the family's
/// own extras (EPA's GJK stage, the time of impact's distance at t = 0, the interior
/// point's bracket). Reads as its summary (`answer.outcome`).
#[derive(Clone, Debug, PartialEq)]
pub struct Answer<E = ()> {
    pub summary: RunSummary,
    pub extras: E,
}

impl<E> Answer<E> {
    /// A run that ended with `outcome` after `iterations` steps (no simplex to hand on:
    /// the distance solvers build their summaries themselves).
    pub fn new(
        outcome: Outcome,
        iterations: usize,
        stats: SupportStats,
        witnesses: Option<(DVec3, DVec3)>,
        extras: E,
    ) -> Self {
        Answer {
            summary: RunSummary {
                outcome,
                iterations,
                stats,
                witness_a: witnesses.map(|w| w.0),
                witness_b: witnesses.map(|w| w.1),
                momentum_stopped_at: None,
                simplex: Simplex::new(),
            },
            extras,
        }
    }
}

impl<E> Answer<E> {
    /// Both witness points, when the run has them.
    pub fn witnesses(&self) -> Option<(DVec3, DVec3)> {
        self.summary.witness_a.zip(self.summary.witness_b)
    }
}

impl<E> Deref for Answer<E> {
    type Target = RunSummary;

    fn deref(&self) -> &RunSummary {
        &self.summary
    }
}

impl<E> DerefMut for Answer<E> {
    fn deref_mut(&mut self) -> &mut RunSummary {
        &mut self.summary
    }
}

/// What a family's narration reads of a finished run: the method's name, the summary
/// every family reports and the family's own extras (the method layer's `Run` hands
/// this view down, so that no family needs the layer above it).
#[derive(Clone, Copy, Debug)]
pub struct RunView<'r> {
    /// The method's name ("gjk", "toi_conservative").
    pub method: &'r str,
    pub summary: &'r RunSummary,
    pub extras: &'r RunExtras,
}

impl RunView<'_> {
    /// The extras, when the run's family reports them as an `E`.
    pub fn extras<E: 'static>(&self) -> Option<&E> {
        self.extras.get::<E>()
    }
}

/// Every family's run entry.
pub trait FamilyRun {
    /// Where the family's records go, one per step (the viewer replays them).
    type Records;
    /// What the family reports beyond the common summary.
    type Extras;

    /// The family this variant belongs to.
    fn family(&self) -> Family;

    /// Runs `query` to its end, recording into `records` when given.
    fn run(
        &self,
        query: &PairQuery<'_>,
        records: Option<&mut Self::Records>,
    ) -> Answer<Self::Extras>;
}

/// What a family is, for everything that lists or shows families: its name, what it
/// answers (the methods panel), what its bounds are called in the plots, and a fresh
/// buffer of its records. Each family's folder has one (a unit struct, or the distance
/// families' shared kind, named by its `FAMILY` constant); catalog rows reach it
/// through their entry.
pub trait FamilyKind: Sync + 'static {
    /// A short name, unique across families ("gjk", "epa").
    fn id(&self) -> &'static str;
    /// One line on what the family's methods answer, for the methods panel.
    fn purpose(&self) -> &'static str;
    /// What the plots call the family's bounds.
    fn bounds(&self) -> BoundNames;
    /// Whether the family's answers are distances the plots measure gaps to (EPA's
    /// signed depths are not).
    fn answers_distance(&self) -> bool {
        true
    }
    /// An empty buffer of the family's records.
    fn new_records(&self) -> Box<dyn FamilyRecords>;
}

/// A family, as a handle on its [`FamilyKind`]: two handles are the same family when
/// their ids are.
#[derive(Clone, Copy)]
pub struct Family(pub &'static dyn FamilyKind);

impl Family {
    pub fn id(&self) -> &'static str {
        self.0.id()
    }
}

impl Deref for Family {
    type Target = dyn FamilyKind;

    fn deref(&self) -> &(dyn FamilyKind + 'static) {
        self.0
    }
}

impl PartialEq for Family {
    fn eq(&self, other: &Self) -> bool {
        self.id() == other.id()
    }
}

impl Eq for Family {}

impl std::hash::Hash for Family {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.id().hash(state)
    }
}

impl std::fmt::Debug for Family {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Family({})", self.id())
    }
}

/// How the bounds plot shows a family on a log scale.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LogScale {
    /// Both bounds' gaps to d*, the smallest distance any run certified.
    GapToBest,
    /// The width upper − lower.
    Width,
    /// The upper series itself (the LP's phase-1 objective).
    Upper,
}

/// The names of a family's bounds in the plots, linear and log, and the two choices
/// of the plot's toggle.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BoundNames {
    pub axis: &'static str,
    pub upper: &'static str,
    pub lower: &'static str,
    pub log_upper: &'static str,
    pub log_lower: &'static str,
    pub log: LogScale,
    /// The toggle's labels: the log view, the linear view.
    pub log_choice: &'static str,
    pub linear_choice: &'static str,
    /// What the left plot's residual is for this family (the convergence curve the
    /// methods are compared by).
    pub residual: &'static str,
}

/// A family's records, as a run's [`crate::solver::trace::Trace`] holds them: what
/// every family's records answer (their count, each as a [`Record`], CSV, JSON, a
/// table, a sentence per step), and the way back to the family's own type
/// ([`FamilyRecords::as_any`]) for what draws them.
pub trait FamilyRecords: ErasedRecords + Send + Sync + std::fmt::Debug {
    fn family(&self) -> Family;
    fn len(&self) -> usize;
    fn is_empty(&self) -> bool {
        self.len() == 0
    }
    /// Record `i` as what all records share.
    fn record(&self, i: usize) -> Option<&dyn Record>;
    /// The header of the CSV rows (starting `algorithm,k,event`).
    fn csv_header(&self) -> &'static str;
    /// The records as the `solve` command's table (header and rows).
    fn table(&self) -> String;
    /// What step `index` of `run` did, in words (or how the run ended, with no steps).
    fn narrate(&self, run: RunView<'_>, index: usize) -> String;
    /// The distance step of record `i`, for the families that have one.
    fn distance_step(&self, _i: usize) -> Option<&DistanceStep> {
        None
    }
    /// Every vector of the distance steps through `f` (a change of frame).
    fn map_distance_vectors(&mut self, _f: &dyn Fn(DVec3) -> DVec3) {}
}

/// What a family's records are as values behind `dyn FamilyRecords` (JSON, a copy, a
/// comparison, the way back to their own type): every serialisable, comparable,
/// copyable records type has it, so a family writes none of it.
pub trait ErasedRecords: Any {
    fn to_json(&self) -> serde_json::Value;
    fn clone_box(&self) -> Box<dyn FamilyRecords>;
    fn same(&self, other: &dyn FamilyRecords) -> bool;
    fn as_any(&self) -> &dyn Any;
    fn as_any_mut(&mut self) -> &mut dyn Any;
}

impl<T: FamilyRecords + Serialize + Clone + PartialEq> ErasedRecords for T {
    fn to_json(&self) -> serde_json::Value {
        serde_json::to_value(self).unwrap_or(serde_json::Value::Null)
    }
    fn clone_box(&self) -> Box<dyn FamilyRecords> {
        Box::new(self.clone())
    }
    fn same(&self, other: &dyn FamilyRecords) -> bool {
        other.as_any().downcast_ref::<T>() == Some(self)
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
    fn as_any_mut(&mut self) -> &mut dyn Any {
        self
    }
}

/// A family whose records are one list of steps: its buffer is a `Vec` of them, and
/// the list implements [`FamilyRecords`] from what the step type says here.
pub trait StepRecord:
    Record + Serialize + Clone + PartialEq + std::fmt::Debug + Send + Sync + 'static
{
    const FAMILY: Family;
    const CSV_HEADER: &'static str;
    /// The `solve` command's table.
    fn table(records: &[Self]) -> String;
    /// What step `index` of `run` did.
    fn narrate(run: RunView<'_>, records: &[Self], index: usize) -> String;
    fn distance_step(&self) -> Option<&DistanceStep> {
        None
    }
    fn map_distance_vectors(&mut self, _f: &dyn Fn(DVec3) -> DVec3) {}
}

impl<R: StepRecord> FamilyRecords for Vec<R> {
    fn family(&self) -> Family {
        R::FAMILY
    }
    fn len(&self) -> usize {
        Vec::len(self)
    }
    fn record(&self, i: usize) -> Option<&dyn Record> {
        self.get(i).map(|r| r as &dyn Record)
    }
    fn csv_header(&self) -> &'static str {
        R::CSV_HEADER
    }
    fn table(&self) -> String {
        R::table(self)
    }
    fn narrate(&self, run: RunView<'_>, index: usize) -> String {
        R::narrate(run, self, index)
    }
    fn distance_step(&self, i: usize) -> Option<&DistanceStep> {
        self.get(i).and_then(StepRecord::distance_step)
    }
    fn map_distance_vectors(&mut self, f: &dyn Fn(DVec3) -> DVec3) {
        self.iter_mut().for_each(|r| r.map_distance_vectors(f));
    }
}

/// What a family reports beyond the common summary, as a finished run carries it
/// ([`RunExtras`]): in JSON beside the summary.
pub trait FamilyExtras: Any + Send + Sync + std::fmt::Debug {
    /// The extras' fields in JSON.
    fn to_json(&self) -> serde_json::Map<String, serde_json::Value>;
    fn clone_box(&self) -> Box<dyn FamilyExtras>;
    fn same(&self, other: &dyn FamilyExtras) -> bool;
    fn as_any(&self) -> &dyn Any;
}

/// The JSON fields of a family's extras (none: an empty map); every such value is a
/// [`FamilyExtras`].
pub trait ExtrasFields {
    fn fields(&self) -> serde_json::Map<String, serde_json::Value>;
}

impl ExtrasFields for () {
    fn fields(&self) -> serde_json::Map<String, serde_json::Value> {
        serde_json::Map::new()
    }
}

impl<T> FamilyExtras for T
where
    T: ExtrasFields + Clone + PartialEq + Send + Sync + std::fmt::Debug + 'static,
{
    fn to_json(&self) -> serde_json::Map<String, serde_json::Value> {
        self.fields()
    }
    fn clone_box(&self) -> Box<dyn FamilyExtras> {
        Box::new(self.clone())
    }
    fn same(&self, other: &dyn FamilyExtras) -> bool {
        other.as_any().downcast_ref::<T>() == Some(self)
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
}

/// The running family's extras as a finished run carries them (in JSON beside the
/// summary); [`RunExtras::get`] gives them back as the family's own type.
#[derive(Debug, Default)]
pub struct RunExtras(Option<Box<dyn FamilyExtras>>);

impl RunExtras {
    pub fn of<E: FamilyExtras>(extras: E) -> Self {
        RunExtras(Some(Box::new(extras)))
    }

    /// The extras, when the run's family reports them as an `E`.
    pub fn get<E: 'static>(&self) -> Option<&E> {
        self.0.as_ref()?.as_any().downcast_ref::<E>()
    }
}

impl Clone for RunExtras {
    fn clone(&self) -> Self {
        RunExtras(self.0.as_ref().map(|e| e.clone_box()))
    }
}

impl PartialEq for RunExtras {
    fn eq(&self, other: &Self) -> bool {
        match (&self.0, &other.0) {
            (Some(a), Some(b)) => a.same(b.as_ref()),
            (a, b) => a.is_none() && b.is_none(),
        }
    }
}

/// The extras' fields, flattened into the run's JSON object.
impl Serialize for RunExtras {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let fields = self.0.as_ref().map(|e| e.to_json()).unwrap_or_default();
        s.collect_map(fields)
    }
}
