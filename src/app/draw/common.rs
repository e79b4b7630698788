//! What every family's step drawing starts from: the focused run's records at the
//! playback cursor. The distance families' pictures themselves are built in the core
//! (`crate::sketch`) and drawn by `super::sketch`.

use crate::app::model::ViewerModel;
use crate::solver::trace::Trace;
use crate::solver::Run;

/// The focused run's records of one family with the playback cursor clamped to them:
/// what every family's drawing starts from.
pub struct AtCursor<'m, R> {
    pub run: &'m Run,
    pub records: &'m [R],
    /// The cursor, clamped to the records.
    pub index: usize,
}

/// The focused run's records, when they are the family `records` picks
/// (`Trace::steps::<GjkRecord>`, ...) and there is at least one.
pub fn records_at_cursor<'m, R>(
    model: &'m ViewerModel,
    cursor: usize,
    records: impl Fn(&'m Trace) -> Option<&'m [R]>,
) -> Option<AtCursor<'m, R>> {
    let run = &model.focused_run()?.run;
    let records = records(&run.trace)?;
    let last = records.len().checked_sub(1)?;
    Some(AtCursor {
        run,
        records,
        index: cursor.min(last),
    })
}
