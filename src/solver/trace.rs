//! Records of runs, one type per family (ALGORITHMS.md §6). [`Trace`] holds one run's
//! records with one variant per family, so that everything which shows records (CLI,
//! export, narration, drawing, plots) matches on it exhaustively and a new family cannot
//! be forgotten. It sits above the families and only aggregates: what every family's
//! records share ([`Record`], [`PlotValues`]) is the leaf module `record`, which the
//! families import.

use serde::Serialize;

use super::catalog::Family;
use super::distance_step::{DistanceStep, CSV_HEADER};
pub use super::epa::EpaTrace;
use super::epa::{EpaRecord, EPA_CSV_HEADER};
use super::frank_wolfe::FrankWolfeRecord;
use super::gjk::GjkRecord;
use super::interior_point::{IpRecord, IP_CSV_HEADER};
use super::lp::{LpRecord, LP_CSV_HEADER};
pub use super::record::{PlotValues, Record};
use super::toi::{ToiRecord, TOI_CSV_HEADER};

/// One run's records.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(untagged)]
pub enum Trace {
    Gjk(Vec<GjkRecord>),
    FrankWolfe(Vec<FrankWolfeRecord>),
    Epa(EpaTrace),
    TimeOfImpact(Vec<ToiRecord>),
    Lp(Vec<LpRecord>),
    InteriorPoint(Vec<IpRecord>),
}

impl Trace {
    /// An empty trace of `family`'s record type.
    pub fn new(family: Family) -> Self {
        match family {
            Family::Gjk => Trace::Gjk(Vec::new()),
            Family::FrankWolfe => Trace::FrankWolfe(Vec::new()),
            Family::Epa => Trace::Epa(EpaTrace::default()),
            Family::TimeOfImpact => Trace::TimeOfImpact(Vec::new()),
            Family::Lp => Trace::Lp(Vec::new()),
            Family::InteriorPoint => Trace::InteriorPoint(Vec::new()),
        }
    }

    pub fn family(&self) -> Family {
        match self {
            Trace::Gjk(_) => Family::Gjk,
            Trace::FrankWolfe(_) => Family::FrankWolfe,
            Trace::Epa(_) => Family::Epa,
            Trace::TimeOfImpact(_) => Family::TimeOfImpact,
            Trace::Lp(_) => Family::Lp,
            Trace::InteriorPoint(_) => Family::InteriorPoint,
        }
    }

    pub fn len(&self) -> usize {
        match self {
            Trace::Gjk(r) => r.len(),
            Trace::FrankWolfe(r) => r.len(),
            Trace::Epa(t) => t.records.len(),
            Trace::TimeOfImpact(r) => r.len(),
            Trace::Lp(r) => r.len(),
            Trace::InteriorPoint(r) => r.len(),
        }
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Record `i` as what all records share.
    pub fn record(&self, i: usize) -> Option<&dyn Record> {
        match self {
            Trace::Gjk(r) => r.get(i).map(|r| r as &dyn Record),
            Trace::FrankWolfe(r) => r.get(i).map(|r| r as &dyn Record),
            Trace::Epa(t) => t.records.get(i).map(|r| r as &dyn Record),
            Trace::TimeOfImpact(r) => r.get(i).map(|r| r as &dyn Record),
            Trace::Lp(r) => r.get(i).map(|r| r as &dyn Record),
            Trace::InteriorPoint(r) => r.get(i).map(|r| r as &dyn Record),
        }
    }

    /// Every record, in order.
    pub fn records(&self) -> impl Iterator<Item = &dyn Record> + '_ {
        (0..self.len()).filter_map(|i| self.record(i))
    }

    /// Every vector of the distance families' steps through `f` (see
    /// [`crate::solver::distance_step::DistanceStep::map_vectors`]); other families'
    /// records are left as they are.
    pub fn map_distance_vectors(&mut self, f: impl Fn(glam::DVec3) -> glam::DVec3 + Copy) {
        match self {
            Trace::Gjk(records) => records.iter_mut().for_each(|r| r.step.map_vectors(f)),
            Trace::FrankWolfe(records) => records.iter_mut().for_each(|r| r.step.map_vectors(f)),
            _ => {}
        }
    }

    /// GJK's records, when this is a GJK run.
    pub fn as_gjk(&self) -> Option<&[GjkRecord]> {
        match self {
            Trace::Gjk(r) => Some(r),
            _ => None,
        }
    }

    /// Frank-Wolfe's records, when this is a Frank-Wolfe run.
    pub fn as_frank_wolfe(&self) -> Option<&[FrankWolfeRecord]> {
        match self {
            Trace::FrankWolfe(r) => Some(r),
            _ => None,
        }
    }

    /// EPA's records, when this is an EPA run.
    pub fn as_epa(&self) -> Option<&[EpaRecord]> {
        match self {
            Trace::Epa(t) => Some(&t.records),
            _ => None,
        }
    }

    /// The time of impact's records, when this is a time-of-impact run.
    pub fn as_toi(&self) -> Option<&[ToiRecord]> {
        match self {
            Trace::TimeOfImpact(r) => Some(r),
            _ => None,
        }
    }

    /// The LP test's records, when this is an LP run.
    pub fn as_lp(&self) -> Option<&[LpRecord]> {
        match self {
            Trace::Lp(r) => Some(r),
            _ => None,
        }
    }

    /// The interior point's records, when this is an interior-point run.
    pub fn as_interior_point(&self) -> Option<&[IpRecord]> {
        match self {
            Trace::InteriorPoint(r) => Some(r),
            _ => None,
        }
    }

    /// The distance step of record `i`, for the families that have one.
    pub fn distance_step(&self, i: usize) -> Option<&DistanceStep> {
        match self {
            Trace::Gjk(r) => r.get(i).map(|r| &r.step),
            Trace::FrankWolfe(r) => r.get(i).map(|r| &r.step),
            Trace::Epa(_) | Trace::TimeOfImpact(_) | Trace::Lp(_) | Trace::InteriorPoint(_) => None,
        }
    }

    /// The records of a GJK run, making this a GJK trace if it was another family's.
    pub fn gjk_mut(&mut self) -> &mut Vec<GjkRecord> {
        if !matches!(self, Trace::Gjk(_)) {
            *self = Trace::new(Family::Gjk);
        }
        match self {
            Trace::Gjk(r) => r,
            _ => unreachable!("just made a GJK trace"),
        }
    }

    /// As [`Trace::gjk_mut`], for Frank-Wolfe.
    pub fn frank_wolfe_mut(&mut self) -> &mut Vec<FrankWolfeRecord> {
        if !matches!(self, Trace::FrankWolfe(_)) {
            *self = Trace::new(Family::FrankWolfe);
        }
        match self {
            Trace::FrankWolfe(r) => r,
            _ => unreachable!("just made a Frank-Wolfe trace"),
        }
    }

    /// As [`Trace::gjk_mut`], for EPA.
    pub fn epa_mut(&mut self) -> &mut EpaTrace {
        if !matches!(self, Trace::Epa(_)) {
            *self = Trace::new(Family::Epa);
        }
        match self {
            Trace::Epa(t) => t,
            _ => unreachable!("just made an EPA trace"),
        }
    }

    /// As [`Trace::gjk_mut`], for the time of impact.
    pub fn toi_mut(&mut self) -> &mut Vec<ToiRecord> {
        if !matches!(self, Trace::TimeOfImpact(_)) {
            *self = Trace::new(Family::TimeOfImpact);
        }
        match self {
            Trace::TimeOfImpact(r) => r,
            _ => unreachable!("just made a time-of-impact trace"),
        }
    }

    /// As [`Trace::gjk_mut`], for the LP test.
    pub fn lp_mut(&mut self) -> &mut Vec<LpRecord> {
        if !matches!(self, Trace::Lp(_)) {
            *self = Trace::new(Family::Lp);
        }
        match self {
            Trace::Lp(r) => r,
            _ => unreachable!("just made an LP trace"),
        }
    }

    /// As [`Trace::gjk_mut`], for the interior point.
    pub fn interior_point_mut(&mut self) -> &mut Vec<IpRecord> {
        if !matches!(self, Trace::InteriorPoint(_)) {
            *self = Trace::new(Family::InteriorPoint);
        }
        match self {
            Trace::InteriorPoint(r) => r,
            _ => unreachable!("just made an interior-point trace"),
        }
    }

    /// The CSV header of this family's rows.
    pub fn csv_header(&self) -> &'static str {
        match self {
            Trace::Gjk(_) | Trace::FrankWolfe(_) => CSV_HEADER,
            Trace::Epa(_) => EPA_CSV_HEADER,
            Trace::TimeOfImpact(_) => TOI_CSV_HEADER,
            Trace::Lp(_) => LP_CSV_HEADER,
            Trace::InteriorPoint(_) => IP_CSV_HEADER,
        }
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
