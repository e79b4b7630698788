//! What the GJK family is to everything that lists or shows families: its
//! [`FamilyKind`], and its records as a run's trace holds them.

use crate::solver::distance::step::{distance_table, DistanceStep, CSV_HEADER};
use crate::solver::family::{BoundNames, Family, FamilyKind, FamilyRecords, RunView, StepRecord};
use crate::solver::narration::{distance_verdict, no_steps};
use crate::solver::{GjkEvent, GjkRecord};

/// GJK and its accelerated variants: distance on simplices.
pub struct GjkFamily;

pub const FAMILY: Family = Family(&GjkFamily);

impl FamilyKind for GjkFamily {
    fn id(&self) -> &'static str {
        "gjk"
    }

    fn purpose(&self) -> &'static str {
        "distance on simplices (GJK family)"
    }

    fn bounds(&self) -> BoundNames {
        crate::solver::distance::step::DISTANCE_BOUNDS
    }

    fn new_records(&self) -> Box<dyn FamilyRecords> {
        Box::new(Vec::<GjkRecord>::new())
    }
}

impl StepRecord for GjkRecord {
    const FAMILY: Family = FAMILY;
    const CSV_HEADER: &'static str = CSV_HEADER;

    fn table(records: &[Self]) -> String {
        distance_table(records, |r| (&r.step, r.step.simplex.len()))
    }

    /// The step in words; a run that ends on its stopping test (or round-off) ends
    /// with its verdict.
    fn narrate(run: RunView<'_>, records: &[Self], index: usize) -> String {
        let Some(r) = records.get(index) else {
            return no_steps(run);
        };
        let ends = matches!(
            r.event,
            GjkEvent::Converged | GjkEvent::WithinTolerance | GjkEvent::Stalled
        );
        let line = super::narrate::narrate(run.method, r, index);
        distance_verdict(run, ends && index + 1 == records.len(), line)
    }

    fn distance_step(&self) -> Option<&DistanceStep> {
        Some(&self.step)
    }

    fn map_distance_vectors(&mut self, f: &dyn Fn(glam::DVec3) -> glam::DVec3) {
        self.step.map_vectors(f)
    }
}
