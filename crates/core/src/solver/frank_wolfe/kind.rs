//! What the Frank-Wolfe family is to everything that lists or shows families: its
//! [`FamilyKind`], and its records as a run's trace holds them.

use crate::solver::distance::step::{distance_table, DistanceStep, CSV_HEADER};
use crate::solver::family::{BoundNames, Family, FamilyKind, FamilyRecords, RunView, StepRecord};
use crate::solver::narration::{distance_verdict, no_steps};
use crate::solver::{FrankWolfeEvent, FrankWolfeRecord};

/// Frank-Wolfe with its step rules: distance on active sets.
pub struct FrankWolfeFamily;

pub const FAMILY: Family = Family(&FrankWolfeFamily);

impl FamilyKind for FrankWolfeFamily {
    fn id(&self) -> &'static str {
        "frank_wolfe"
    }

    fn purpose(&self) -> &'static str {
        "distance on active sets (Frank-Wolfe)"
    }

    fn bounds(&self) -> BoundNames {
        crate::solver::distance::step::DISTANCE_BOUNDS
    }

    fn new_records(&self) -> Box<dyn FamilyRecords> {
        Box::new(Vec::<FrankWolfeRecord>::new())
    }
}

impl StepRecord for FrankWolfeRecord {
    const FAMILY: Family = FAMILY;
    const CSV_HEADER: &'static str = CSV_HEADER;

    fn table(records: &[Self]) -> String {
        distance_table(records, |r| (&r.step, r.active_set_size))
    }

    /// The step in words; a run that ends on its stopping test ends with its verdict.
    fn narrate(run: RunView<'_>, records: &[Self], index: usize) -> String {
        let Some(r) = records.get(index) else {
            return no_steps(run);
        };
        let ends = matches!(
            r.event,
            FrankWolfeEvent::Converged | FrankWolfeEvent::WithinTolerance
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
