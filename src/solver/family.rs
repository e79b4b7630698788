//! The contract every method family keeps: a [`PairQuery`] in, one run to its end that
//! writes the family's own records (one per step) into the buffer it is given, and an
//! [`Answer`] out, the [`RunSummary`] every family reports plus what only that family
//! reports. Each family's folder implements [`FamilyRun`] on the value that names its
//! variant (a direction rule, a time-of-impact rule, an LP question, ...);
//! [`super::Method::run`], above the families, dispatches to these entries, and the
//! CLI, scenes, the viewer and the benchmarks run every method through it.

use std::ops::{Deref, DerefMut};

use glam::DVec3;

use super::outcome::{Outcome, RunSummary};
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

/// Every family's run entry.
pub trait FamilyRun {
    /// Where the family's records go, one per step (the viewer replays them).
    type Records;
    /// What the family reports beyond the common summary.
    type Extras;

    /// Runs `query` to its end, recording into `records` when given.
    fn run(
        &self,
        query: &PairQuery<'_>,
        records: Option<&mut Self::Records>,
    ) -> Answer<Self::Extras>;
}
