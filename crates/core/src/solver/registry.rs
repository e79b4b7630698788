//! The registry above the families: a catalog row's entry runs whatever family its
//! variant belongs to, with the records gathered into a run's [`Trace`] and the extras
//! into [`RunExtras`]. The families implement only the contract ([`super::family`]);
//! every [`FamilyRun`] whose records live in a trace is an entry here.

use std::any::Any;

use super::family::{Family, FamilyExtras, FamilyRecords, FamilyRun, PairQuery, RunExtras};
use super::outcome::RunSummary;
use super::trace::Trace;

/// Where a family entry's records live in a run's [`Trace`]: a family's own buffer
/// (the trace made that family's if it was another), or the whole trace (the distance
/// solvers, which pick their buffer per step).
pub trait InTrace {
    fn in_trace(trace: &mut Trace) -> &mut Self;
}

impl<T: FamilyRecords + Default> InTrace for T {
    fn in_trace(trace: &mut Trace) -> &mut T {
        trace.buffer::<T>()
    }
}

impl InTrace for Trace {
    fn in_trace(trace: &mut Trace) -> &mut Trace {
        trace
    }
}

/// What a catalog row runs: a family's variant (a direction rule, a time-of-impact
/// rule, an LP question, ...) as one entry, whatever its family. Every [`FamilyRun`]
/// whose records live in a trace and whose extras a run carries is one.
pub trait MethodEntry: Any + Sync + std::fmt::Debug {
    fn family(&self) -> Family;
    /// Runs `query`, recording into `trace` when given.
    fn run_traced(
        &self,
        query: &PairQuery<'_>,
        trace: Option<&mut Trace>,
    ) -> (RunSummary, RunExtras);
    /// Whether `other` is the same variant of the same family.
    fn same(&self, other: &dyn MethodEntry) -> bool;
    fn as_any(&self) -> &dyn Any;
}

impl<F> MethodEntry for F
where
    F: FamilyRun + PartialEq + Sync + std::fmt::Debug + 'static,
    F::Records: InTrace,
    F::Extras: FamilyExtras,
{
    fn family(&self) -> Family {
        FamilyRun::family(self)
    }

    fn run_traced(
        &self,
        query: &PairQuery<'_>,
        trace: Option<&mut Trace>,
    ) -> (RunSummary, RunExtras) {
        let answer = self.run(query, trace.map(F::Records::in_trace));
        (answer.summary, RunExtras::of(answer.extras))
    }

    fn same(&self, other: &dyn MethodEntry) -> bool {
        other.as_any().downcast_ref::<F>() == Some(self)
    }

    fn as_any(&self) -> &dyn Any {
        self
    }
}
