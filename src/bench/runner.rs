//! Runs every algorithm on a problem set (all cores), in distance and Boolean mode, and
//! summarises iterations per signed distance.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::Path;

use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use super::protocol::ProblemSet;
use crate::minkowski::MinkowskiDifference;
use crate::solver::{solve, Algorithm, QueryMode, SolverSettings};

/// Distance query or Boolean (collision only) query.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum QueryKind {
    Distance,
    Boolean,
}

impl QueryKind {
    pub fn name(self) -> &'static str {
        match self {
            QueryKind::Distance => "distance",
            QueryKind::Boolean => "boolean",
        }
    }

    fn mode(self) -> QueryMode {
        match self {
            QueryKind::Distance => QueryMode::Distance,
            QueryKind::Boolean => QueryMode::Boolean { bound: 0.0 },
        }
    }
}

/// One run of one algorithm on one problem.
#[derive(Clone, Debug, Serialize)]
pub struct RunRow {
    pub problem: usize,
    pub target_distance: f64,
    pub algorithm: &'static str,
    pub query: QueryKind,
    pub iterations: usize,
    pub support_calls: u64,
    pub status: &'static str,
    pub distance: Option<f64>,
}

/// Runs every problem with every algorithm in both query kinds; `tick` is called once
/// per finished problem (progress bars).
pub fn run_set(
    set: &ProblemSet,
    algorithms: &[Algorithm],
    settings: SolverSettings,
    tick: &(dyn Fn() + Sync),
) -> Vec<RunRow> {
    run_set_in(set, 0..set.problems.len(), algorithms, settings, tick)
}

/// [`run_set`] on the problems in `range` alone (a chunk), each row keeping its
/// problem's index in the whole set.
pub fn run_set_in(
    set: &ProblemSet,
    range: std::ops::Range<usize>,
    algorithms: &[Algorithm],
    settings: SolverSettings,
    tick: &(dyn Fn() + Sync),
) -> Vec<RunRow> {
    let first = range.start;
    let mut rows: Vec<RunRow> = set.problems[range]
        .par_iter()
        .enumerate()
        .map(|(offset, p)| (first + offset, p))
        .flat_map_iter(|(index, p)| {
            let mut rows = Vec::with_capacity(algorithms.len() * 2);
            for query in [QueryKind::Distance, QueryKind::Boolean] {
                for algorithm in algorithms {
                    let md = MinkowskiDifference::new(&set.shapes[p.a], &set.shapes[p.b], p.b_in_a);
                    let run = solve(
                        *algorithm,
                        md,
                        SolverSettings {
                            mode: query.mode(),
                            ..settings
                        },
                    );
                    rows.push(RunRow {
                        problem: index,
                        target_distance: p.target_distance,
                        algorithm: algorithm.name(),
                        query,
                        iterations: run.iterations,
                        support_calls: run.stats.calls,
                        status: run.outcome.status_name(),
                        distance: run.outcome.distance(),
                    });
                }
            }
            tick();
            rows
        })
        .collect();
    rows.sort_by_key(|r| (r.problem, r.query));
    rows
}

/// A [`RunRow`] as a chunk file holds it (floats by their bits: read back exactly).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RowItem {
    pub problem: usize,
    pub target_distance_bits: u64,
    pub algorithm: String,
    pub query: QueryKind,
    pub iterations: usize,
    pub support_calls: u64,
    pub status: String,
    pub distance_bits: Option<u64>,
}

impl From<&RunRow> for RowItem {
    fn from(r: &RunRow) -> Self {
        RowItem {
            problem: r.problem,
            target_distance_bits: r.target_distance.to_bits(),
            algorithm: r.algorithm.to_string(),
            query: r.query,
            iterations: r.iterations,
            support_calls: r.support_calls,
            status: r.status.to_string(),
            distance_bits: r.distance.map(f64::to_bits),
        }
    }
}

impl RowItem {
    /// The row again, its names those of `algorithms` and the outcomes'.
    pub fn row(&self, algorithms: &[Algorithm]) -> Result<RunRow, String> {
        Ok(RunRow {
            problem: self.problem,
            target_distance: f64::from_bits(self.target_distance_bits),
            algorithm: super::chunks::algorithm_named(algorithms, &self.algorithm)?.name(),
            query: self.query,
            iterations: self.iterations,
            support_calls: self.support_calls,
            status: super::chunks::status_name(&self.status)?,
            distance: self.distance_bits.map(f64::from_bits),
        })
    }
}

/// Mean and standard deviation of iterations for one algorithm, query kind and distance.
#[derive(Clone, Debug, Serialize)]
pub struct SummaryCell {
    pub algorithm: &'static str,
    pub query: QueryKind,
    pub target_distance: f64,
    pub mean: f64,
    pub std: f64,
    /// Mean support calls: what a query costs (a momentum support that is discarded is
    /// a call but not an iteration).
    pub mean_calls: f64,
    pub runs: usize,
    /// Runs that hit the iteration cap (counted in the mean at the cap).
    pub capped: usize,
}

pub fn summarise(rows: &[RunRow]) -> Vec<SummaryCell> {
    let mut groups: BTreeMap<(QueryKind, &'static str, i64), Vec<&RunRow>> = BTreeMap::new();
    for r in rows {
        // Distances are keys: compare them through their bits' order-preserving form.
        let key = (r.target_distance * 1e9).round() as i64;
        groups
            .entry((r.query, r.algorithm, key))
            .or_default()
            .push(r);
    }
    groups
        .into_values()
        .map(|g| {
            let n = g.len() as f64;
            let mean = g.iter().map(|r| r.iterations as f64).sum::<f64>() / n;
            let var = g
                .iter()
                .map(|r| (r.iterations as f64 - mean).powi(2))
                .sum::<f64>()
                / n;
            SummaryCell {
                algorithm: g[0].algorithm,
                query: g[0].query,
                target_distance: g[0].target_distance,
                mean,
                std: var.sqrt(),
                mean_calls: g.iter().map(|r| r.support_calls as f64).sum::<f64>() / n,
                runs: g.len(),
                capped: g.iter().filter(|r| r.status == "iteration_cap").count(),
            }
        })
        .collect()
}

/// The summary as a table: one row per algorithm and query kind, one column per distance.
pub fn summary_table(cells: &[SummaryCell], algorithms: &[Algorithm]) -> String {
    let mut distances: Vec<f64> = cells.iter().map(|c| c.target_distance).collect();
    distances.sort_by(f64::total_cmp);
    distances.dedup();
    let mut out = String::new();
    let tables = [
        (QueryKind::Distance, "mean iterations", false),
        (QueryKind::Distance, "mean support calls", true),
        (QueryKind::Boolean, "mean iterations", false),
    ];
    for (query, title, calls) in tables {
        let _ = write!(out, "{:<30}", format!("{title} ({})", query.name()));
        for d in &distances {
            let _ = write!(out, "{:>9}", format!("{d}"));
        }
        out.push('\n');
        for a in algorithms {
            let _ = write!(out, "{:<30}", a.name());
            for d in &distances {
                let cell = cells.iter().find(|c| {
                    c.query == query && c.algorithm == a.name() && c.target_distance == *d
                });
                let text = cell.map_or("-".to_string(), |c| {
                    let value = if calls { c.mean_calls } else { c.mean };
                    if c.capped > 0 {
                        format!("{value:.1}*")
                    } else {
                        format!("{value:.1}")
                    }
                });
                let _ = write!(out, "{text:>9}");
            }
            out.push('\n');
        }
        out.push('\n');
    }
    if cells.iter().any(|c| c.capped > 0) {
        out.push_str("* some runs hit the iteration cap (counted at the cap)\n");
    }
    out
}

/// Writes every run as CSV.
pub fn write_csv(path: &Path, set: &ProblemSet, rows: &[RunRow]) -> std::io::Result<()> {
    let mut out = String::from("problem,shape_a,shape_b,target_distance,algorithm,query,iterations,support_calls,status,distance\n");
    for r in rows {
        let p = &set.problems[r.problem];
        let _ = writeln!(
            out,
            "{},{},{},{},{},{},{},{},{},{}",
            r.problem,
            set.names[p.a],
            set.names[p.b],
            r.target_distance,
            r.algorithm,
            r.query.name(),
            r.iterations,
            r.support_calls,
            r.status,
            r.distance.map_or(String::new(), |d| format!("{d:e}"))
        );
    }
    std::fs::write(path, out)
}
