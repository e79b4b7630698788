//! A distance run under Coal's conventions (`supports: Coal`): the solver runs on the
//! shapes' cores with Coal's supports ([`Shape::coal_core`]), so its iterations are the
//! ones Coal's GJK takes on a query brought from Coal; the radii Coal keeps apart (its
//! swept-sphere radius: a sphere's, a capsule's, a rounded shape's) are taken off the
//! cores' answer at the end, as Coal's `GJK::evaluate` does (`distance = rl − r`).
//!
//! The verdict stays a proof. On the cores a separating plane of gap `g` is one of gap
//! `g − r` for the shapes, and two core points closer than `r` are a pair of balls that
//! overlap: the shapes intersect. Coal's supports leave the exact ones only in a 1e-12
//! dead zone and on inflated ties; a run where that happened takes its verdict, bounds
//! and witness points from an exact run of the same method (the iterations and records
//! stay Coal's).

use glam::DMat3;

use super::{Algorithm, Solver};
use crate::minkowski::{CsoPoint, MinkowskiDifference};
use crate::pose::RelativePose;
use crate::shape::{coal_from_ours, ours_from_coal, Shape};
use crate::solver::gjk::Gjk;
use crate::solver::trace::Trace;
use crate::solver::{
    InitialGuess, QueryMode, RunSummary, Simplex, SimplexVertex, SolverSettings, SupportRule,
};

use crate::solver::Outcome;

/// Runs `algorithm` on A and B (at `b_in_a`) as Coal runs it, recording into `trace`.
pub fn run_as_coal(
    algorithm: Algorithm,
    a: &Shape,
    b: &Shape,
    b_in_a: RelativePose,
    settings: SolverSettings,
    trace: Option<&mut Trace>,
) -> RunSummary {
    let (core_a, radius_a) = a.coal_core();
    let (core_b, radius_b) = b.coal_core();
    let swept = radius_a + radius_b;
    // Coal's capsules, cylinders and cones stand along z: each runs in Coal's frame of
    // it, so that every sum is Coal's (A's frame is the one the whole run works in).
    let (core_a, a_in_coal_frame) = in_coal_frame(core_a);
    let (core_b, b_in_coal_frame) = in_coal_frame(core_b);
    let core_b_in_a = coal_frames(b_in_a, a_in_coal_frame, b_in_coal_frame);
    let mut core_settings = settings;
    if let (true, InitialGuess::Direction(d)) = (a_in_coal_frame, settings.initial_guess) {
        core_settings.initial_guess = InitialGuess::Direction(coal_from_ours(d));
    }
    // Coal's early stop compares the plane with the bound plus the radii.
    if let QueryMode::Boolean { bound } = settings.mode {
        core_settings.mode = QueryMode::Boolean {
            bound: bound + swept,
        };
    }
    let md = MinkowskiDifference::new(&core_a, &core_b, core_b_in_a);
    let mut solver: Box<dyn Solver + '_> = match algorithm {
        Algorithm::Gjk(rule) => {
            Box::new(Gjk::new(md, rule, core_settings).on_cores_of_radius(swept))
        }
        Algorithm::FrankWolfe(_) => algorithm.solver(md, core_settings),
    };
    let mut summary = match trace {
        Some(trace) if a_in_coal_frame => {
            let summary = solver.run(Some(&mut *trace));
            trace.map_distance_vectors(ours_from_coal);
            summary
        }
        trace => solver.run(trace),
    };
    if a_in_coal_frame {
        summary.witness_a = summary.witness_a.map(ours_from_coal);
        summary.witness_b = summary.witness_b.map(ours_from_coal);
        let vertices: Vec<SimplexVertex> = summary
            .simplex
            .vertices()
            .iter()
            .map(|v| {
                let p = v.point;
                SimplexVertex {
                    point: CsoPoint {
                        w: ours_from_coal(p.w),
                        a: ours_from_coal(p.a),
                        b: ours_from_coal(p.b),
                    },
                    ..*v
                }
            })
            .collect();
        summary.simplex = Simplex::from_slice(&vertices);
    }
    if summary.stats.coal_departures > 0 {
        let exact_settings = SolverSettings {
            supports: SupportRule::Exact,
            ..settings
        };
        let md = MinkowskiDifference::new(a, b, b_in_a);
        let exact = algorithm.solver(md, exact_settings).run(None);
        summary.outcome = exact.outcome;
        summary.witness_a = exact.witness_a;
        summary.witness_b = exact.witness_b;
        return summary;
    }
    summary.outcome = without_radii(summary.outcome, swept);
    if swept > 0.0 {
        match (&summary.outcome, summary.witness_a, summary.witness_b) {
            (Outcome::Intersecting, _, _) => {
                summary.witness_a = None;
                summary.witness_b = None;
            }
            (_, Some(wa), Some(wb)) => {
                // From A's core point toward B's, each radius onto its own surface.
                let n = (wb - wa).normalize_or_zero();
                summary.witness_a = Some(wa + n * radius_a);
                summary.witness_b = Some(wb - n * radius_b);
            }
            _ => {}
        }
    }
    summary
}

/// In words, what a run under Coal's conventions works on (the viewer and the CLI say
/// it beside the run, since the points it records are the cores', not the shapes').
pub fn describe(a: &Shape, b: &Shape) -> String {
    let (core_a, radius_a) = a.coal_core();
    let (core_b, radius_b) = b.coal_core();
    let core = |shape: &Shape, core: &Shape| match (shape, core) {
        (_, Shape::Point(_)) => "its centre".to_string(),
        (_, Shape::Coal(c)) if c.is_axial() && c.is_polytopal() => "its segment".to_string(),
        (Shape::Dilated(_), core) => format!("its inner {}", core.kind_name()),
        (shape, _) => format!("the {} itself", shape.kind_name()),
    };
    let swept = radius_a + radius_b;
    let radii = if swept > 0.0 {
        format!(
            "; the radii Coal keeps apart, {radius_a:.6} + {radius_b:.6} = {swept:.6}, come off \
             the distance at the end, so the points drawn are the cores' difference"
        )
    } else {
        String::new()
    };
    format!(
        "As Coal runs it: A as {}, B as {}, with Coal's supports (direction components \
         within 1e-12 of zero count as zero){radii}.",
        core(a, &core_a),
        core(b, &core_b)
    )
}

/// The core in Coal's frame when it has an axis, and whether it does.
fn in_coal_frame(core: Shape) -> (Shape, bool) {
    match core {
        Shape::Coal(c) if c.is_axial() => (Shape::Coal(c.in_coal_frame()), true),
        other => (other, false),
    }
}

/// B's pose in A's frame with either frame replaced by Coal's (exact: the rows or the
/// columns of the rotation permuted, one negated). For B, Coal's point `p` is ours at
/// `(p.x, p.z, −p.y)`: the columns become `(R₀, −R₂, R₁)`.
fn coal_frames(b_in_a: RelativePose, a_coal: bool, b_coal: bool) -> RelativePose {
    let mut rotation = b_in_a.rotation;
    let mut translation = b_in_a.translation;
    if b_coal {
        rotation = DMat3::from_cols(rotation.x_axis, -rotation.z_axis, rotation.y_axis);
    }
    if a_coal {
        rotation = DMat3::from_cols(
            coal_from_ours(rotation.x_axis),
            coal_from_ours(rotation.y_axis),
            coal_from_ours(rotation.z_axis),
        );
        translation = coal_from_ours(translation);
    }
    RelativePose::from_matrix(rotation, translation)
}

/// The cores' outcome as the shapes' own: every distance and bound less `swept`; an
/// upper bound below zero (two core points closer than the radii) is an overlap.
pub fn without_radii(outcome: Outcome, swept: f64) -> Outcome {
    if swept == 0.0 {
        return outcome;
    }
    match outcome {
        Outcome::Separated {
            distance,
            lower_bound,
        } => {
            let (distance, lower_bound) = (distance - swept, lower_bound - swept);
            if lower_bound > 0.0 {
                Outcome::Separated {
                    distance,
                    lower_bound,
                }
            } else if distance < 0.0 {
                Outcome::Intersecting
            } else {
                Outcome::Contact { distance }
            }
        }
        Outcome::Stalled {
            distance,
            lower_bound,
        } => {
            if distance - swept < 0.0 {
                Outcome::Intersecting
            } else {
                Outcome::Stalled {
                    distance: distance - swept,
                    lower_bound: (lower_bound - swept).max(0.0),
                }
            }
        }
        Outcome::Contact { distance } if distance - swept < 0.0 => Outcome::Intersecting,
        Outcome::Contact { distance } => Outcome::Contact {
            distance: distance - swept,
        },
        Outcome::SeparatedEarlyStop { lower_bound } => Outcome::SeparatedEarlyStop {
            lower_bound: lower_bound - swept,
        },
        Outcome::IterationCap {
            lower_bound,
            upper_bound,
        } => Outcome::IterationCap {
            lower_bound: lower_bound - swept,
            upper_bound: upper_bound - swept,
        },
        other => other,
    }
}
