//! What the Frank-Wolfe family is to everything that lists or shows families: its
//! [`Family`], the distance families' kind with Frank-Wolfe's records
//! ([`DistanceFamily`]; its records are distance records, `super::record`).

use crate::solver::distance::kind::DistanceFamily;
use crate::solver::family::Family;
use crate::solver::FrankWolfeRecord;

/// Frank-Wolfe with its step rules: distance on active sets.
const FRANK_WOLFE: DistanceFamily<FrankWolfeRecord> =
    DistanceFamily::new("frank_wolfe", "distance on active sets (Frank-Wolfe)");

pub const FAMILY: Family = Family(&FRANK_WOLFE);
