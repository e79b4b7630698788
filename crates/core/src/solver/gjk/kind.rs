//! What the GJK family is to everything that lists or shows families: its [`Family`],
//! the distance families' kind with GJK's records ([`DistanceFamily`]; its records
//! are distance records, `super::record`).

use crate::solver::distance::kind::DistanceFamily;
use crate::solver::family::Family;
use crate::solver::GjkRecord;

/// GJK and its accelerated variants: distance on simplices.
const GJK: DistanceFamily<GjkRecord> =
    DistanceFamily::new("gjk", "distance on simplices (GJK family)");

pub const FAMILY: Family = Family(&GJK);
