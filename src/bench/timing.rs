//! Time per query: many repeats, the mean of the fastest 90 % (the paper's protocol),
//! and the same measurement for parry3d-f64's GJK on the same shapes in this process.

use std::time::Instant;

use parry3d_f64::shape::ConvexPolyhedron;

use crate::minkowski::MinkowskiDifference;
use crate::parry_bridge;
use crate::pose::RelativePose;
use crate::shape::Shape;
use crate::solver::{run_gjk, Algorithm, FrankWolfe, SolverSettings};

/// Samples per measurement; each sample repeats the query until it lasts ≥ 20 µs.
const SAMPLES: usize = 40;

/// Seconds per call of `query`: mean of the fastest 90 % of the samples.
pub fn seconds_per_query(mut query: impl FnMut()) -> f64 {
    for _ in 0..3 {
        query();
    }
    let start = Instant::now();
    query();
    let once = start.elapsed().as_secs_f64().max(1e-9);
    let inner = ((20e-6 / once).ceil() as usize).clamp(1, 10_000);
    let mut samples: Vec<f64> = (0..SAMPLES)
        .map(|_| {
            let start = Instant::now();
            for _ in 0..inner {
                query();
            }
            start.elapsed().as_secs_f64() / inner as f64
        })
        .collect();
    samples.sort_by(f64::total_cmp);
    let keep = (samples.len() * 9 / 10).max(1);
    samples[..keep].iter().sum::<f64>() / keep as f64
}

/// Our solver's time per query (no trace).
pub fn our_seconds(
    a: &Shape,
    b: &Shape,
    b_in_a: RelativePose,
    algorithm: Algorithm,
    settings: SolverSettings,
) -> f64 {
    // The concrete solver, as a library user would call it (no boxing, no records).
    seconds_per_query(|| {
        let md = MinkowskiDifference::new(a, b, b_in_a);
        let summary = match algorithm {
            Algorithm::Gjk(rule) => run_gjk(md, rule, settings, &[]),
            Algorithm::FrankWolfe(rule) => FrankWolfe::new(md, rule, settings).run_into(None),
        };
        std::hint::black_box(&summary);
    })
}

/// A shape as parry's GJK sees it: its own convex polyhedron for solid hulls, our
/// support function for everything else.
pub enum ParryShape<'s> {
    Hull(Box<ConvexPolyhedron>),
    SupportMap(&'s Shape),
}

impl<'s> ParryShape<'s> {
    pub fn new(shape: &'s Shape) -> Self {
        if let Shape::Polytope(p) = shape {
            if let Some(hull) = parry_bridge::parry_convex_polyhedron(p) {
                return ParryShape::Hull(Box::new(hull));
            }
        }
        ParryShape::SupportMap(shape)
    }
}

/// parry's GJK distance on prepared shapes (its silent 0.0 on failure included).
pub fn parry_distance(a: &ParryShape, b: &ParryShape, b_in_a: &RelativePose) -> f64 {
    use parry3d_f64::query::details::distance_support_map_support_map as gjk;
    let pos12 = parry_bridge::parry_pose(b_in_a);
    let (wa, wb);
    let sa: &dyn parry3d_f64::shape::SupportMap = match a {
        ParryShape::Hull(h) => h.as_ref(),
        ParryShape::SupportMap(s) => {
            wa = parry_bridge::AsParry(s);
            &wa
        }
    };
    let sb: &dyn parry3d_f64::shape::SupportMap = match b {
        ParryShape::Hull(h) => h.as_ref(),
        ParryShape::SupportMap(s) => {
            wb = parry_bridge::AsParry(s);
            &wb
        }
    };
    gjk(&pos12, sa, sb)
}

/// parry's time per query and its distance.
pub fn parry_seconds(a: &Shape, b: &Shape, b_in_a: RelativePose) -> (f64, f64) {
    let (pa, pb) = (ParryShape::new(a), ParryShape::new(b));
    let distance = parry_distance(&pa, &pb, &b_in_a);
    let seconds = seconds_per_query(|| {
        std::hint::black_box(parry_distance(&pa, &pb, &b_in_a));
    });
    (seconds, distance)
}

/// One timed query: ours and parry's on the same problem.
#[derive(Clone, Debug)]
pub struct TimingSample {
    pub target_distance: f64,
    pub algorithm: &'static str,
    pub ours: f64,
    pub parry: f64,
}

/// parry's µs per query and, per algorithm, the ratio of mean times ours / parry, per
/// target distance (ratio of means: the typical cost of a query at that distance).
pub fn ratio_table(samples: &[TimingSample]) -> String {
    use std::fmt::Write as _;
    let mut distances: Vec<f64> = samples.iter().map(|s| s.target_distance).collect();
    distances.sort_by(f64::total_cmp);
    distances.dedup();
    let mut algorithms: Vec<&str> = Vec::new();
    for s in samples {
        if !algorithms.contains(&s.algorithm) {
            algorithms.push(s.algorithm);
        }
    }
    let mean = |v: Vec<f64>| v.iter().sum::<f64>() / v.len().max(1) as f64;
    let mut out = String::new();
    let _ = write!(out, "{:<28}", "time ours / parry at distance");
    for d in &distances {
        let _ = write!(out, "{:>9}", format!("{d}"));
    }
    out.push('\n');
    let parry_at = |d: f64| {
        mean(
            samples
                .iter()
                .filter(|s| s.target_distance == d && s.algorithm == algorithms[0])
                .map(|s| s.parry)
                .collect(),
        )
    };
    let _ = write!(out, "{:<28}", "parry µs/query");
    for d in &distances {
        let _ = write!(out, "{:>9.2}", 1e6 * parry_at(*d));
    }
    out.push('\n');
    for alg in &algorithms {
        let _ = write!(out, "{:<28}", format!("{alg} ratio"));
        for d in &distances {
            let at: Vec<&TimingSample> = samples
                .iter()
                .filter(|s| s.target_distance == *d && s.algorithm == *alg)
                .collect();
            let ratio = mean(at.iter().map(|s| s.ours).collect())
                / mean(at.iter().map(|s| s.parry).collect());
            let _ = write!(out, "{ratio:>9.2}");
        }
        out.push('\n');
    }
    out
}

/// Times every GJK-family algorithm and parry on every problem of a set (one at a time,
/// so the measurements do not compete for cores).
pub fn time_set(
    set: &super::protocol::ProblemSet,
    algorithms: &[Algorithm],
    settings: SolverSettings,
) -> Vec<TimingSample> {
    let mut samples = Vec::new();
    for p in &set.problems {
        let (a, b) = (&set.shapes[p.a], &set.shapes[p.b]);
        let (parry, _) = parry_seconds(a, b, p.b_in_a);
        for alg in algorithms.iter().filter(|a| matches!(a, Algorithm::Gjk(_))) {
            samples.push(TimingSample {
                target_distance: p.target_distance,
                algorithm: alg.name(),
                ours: our_seconds(a, b, p.b_in_a, *alg, settings),
                parry,
            });
        }
    }
    samples
}
