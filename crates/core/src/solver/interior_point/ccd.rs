//! Continuous collision for a translating B (Chakraborty et al., "Proximity Queries
//! between Convex Objects: An Interior Point Approach for Implicit Surfaces" §VII): the
//! time `t ∈ [0, 1]` of B's motion `t·v` becomes a variable. First `min ‖x − y‖²` over `x
//! ∈ A`, `y ∈ B + t v`, `t ∈ [0, 1]` (seven variables): a certified positive minimum is a
//! miss (`no_impact`, the closest approach); a common point (checked inside A and the
//! moved B) means contact, and a second problem, `min t` over a common point `x ∈ A ∩ (B +
//! t v)` started from it, gives the first contact time with a certified bracket. Touching
//! within the tolerance without a common point is `grazing`.

use glam::DVec3;

use super::record::{IpRecord, IpStage};
use super::{IpSettings, StallWatch};
use crate::minkowski::SupportStats;
use crate::pose::RelativePose;
use crate::shape::implicit::barrier::{self, Control, Group, Objective};
use crate::shape::implicit::{frame, interior_of, pull_inside};
use crate::shape::implicit::{ImplicitBody, ImplicitError};
use crate::shape::{Cuboid, Shape};
use crate::solver::family::Answer;
use crate::solver::Outcome;

/// A finished time-of-impact query: iterations are the Newton steps of both problems,
/// the witnesses the contact (or closest) points at the end, on A and on B at that time.
pub type IpToiAnswer = Answer<()>;

fn finished(outcome: Outcome, iterations: usize, x: DVec3, y: DVec3) -> IpToiAnswer {
    Answer::new(
        outcome,
        iterations,
        SupportStats::default(),
        Some((x, y)),
        (),
    )
}

/// The box `0 ≤ p.x ≤ 1` (with `|p.y|, |p.z| ≤ 1`, which hold at 0): `t`'s range, as a
/// body whose point is `(t, 0, 0)`.
fn unit_interval() -> ImplicitBody {
    let half = Shape::Cuboid(Cuboid::new(DVec3::new(0.5, 1.0, 1.0)).expect("a valid box"));
    ImplicitBody::of_shape(&half)
        .expect("a box has an implicit form")
        .moved(RelativePose::from_matrix(
            glam::DMat3::IDENTITY,
            DVec3::X * 0.5,
        ))
}

/// When B (A's frame, at `t = 0`), moving by `t·velocity`, first touches A, `t ∈ [0, 1]`.
pub fn time_of_impact(
    a: &ImplicitBody,
    b: &ImplicitBody,
    velocity: DVec3,
    settings: IpSettings,
    mut trace: Option<&mut Vec<IpRecord>>,
) -> Result<IpToiAnswer, ImplicitError> {
    let (xa, yb) = (interior_of(a)?, interior_of(b)?);
    let (lo_b, hi_b) = b.bounds();
    let swept = (lo_b.min(lo_b + velocity), hi_b.max(hi_b + velocity));
    let (centre, scale) = frame(&[a.bounds(), swept]);
    let interval = unit_interval();
    // Stage 1: z = (x', y', t), x = c + L x', y = c + L y', B's point y − t v.
    let mut q = [[0.0; 7]; 7];
    for i in 0..3 {
        q[i][i] = 2.0;
        q[i + 3][i + 3] = 2.0;
        q[i][i + 3] = -2.0;
        q[i + 3][i] = -2.0;
    }
    let objective = Objective { q, p: [0.0; 7] };
    let mut rows_a = [[0.0; 7]; 3];
    let mut rows_b = [[0.0; 7]; 3];
    let mut rows_t = [[0.0; 7]; 3];
    for i in 0..3 {
        rows_a[i][i] = scale;
        rows_b[i][i + 3] = scale;
        rows_b[i][6] = -velocity[i];
    }
    rows_t[0][6] = 1.0;
    let groups = [
        Group {
            body: a,
            shift: centre,
            rows: rows_a,
            extra: [0.0; 7],
        },
        Group {
            body: b,
            shift: centre,
            rows: rows_b,
            extra: [0.0; 7],
        },
        Group {
            body: &interval,
            shift: DVec3::ZERO,
            rows: rows_t,
            extra: [0.0; 7],
        },
    ];
    let t0 = 0.5;
    let x0 = (xa - centre) / scale;
    let y0 = (yb + velocity * t0 - centre) / scale;
    let z0 = [x0.x, x0.y, x0.z, y0.x, y0.y, y0.z, t0];
    let point = |z: &[f64], o: usize| centre + scale * DVec3::new(z[o], z[o + 1], z[o + 2]);
    // How far each variable can be from the iterate inside the boxes (scaled units; t in [0, 1]).
    let width = |z: &[f64; 7], v: usize| match v {
        6 => z[6].abs().max((1.0 - z[6]).abs()),
        _ => {
            let (lo, hi) = if v < 3 { a.bounds() } else { swept };
            let i = v % 3;
            let p = centre[i] + scale * z[v];
            (p - lo[i]).abs().max((hi[i] - p).abs()) / scale
        }
    };
    let at_time = |t: f64| {
        b.moved(RelativePose::from_matrix(
            glam::DMat3::IDENTITY,
            velocity * t,
        ))
    };
    let mut iterations = 0;
    let (mut lower, mut upper) = (0.0f64, f64::INFINITY);
    let mut ending: Option<Result<(DVec3, f64), Outcome>> = None;
    let mut last = (xa, yb + velocity * t0, t0);
    let mut watch = StallWatch::new();
    barrier::run(
        &objective,
        &groups,
        z0,
        1e-2,
        settings.max_iterations,
        |s| {
            iterations = s.iteration;
            let (x, y, t) = (point(&s.z, 0), point(&s.z, 3), s.z[6]);
            last = (x, y, t);
            let gap = DVec3::new(s.z[0] - s.z[3], s.z[1] - s.z[4], s.z[2] - s.z[5]);
            upper = upper.min(gap.length() * scale);
            let lagrangian = gap.length_squared()
                + s.multipliers
                    .iter()
                    .zip(s.values)
                    .map(|(l, f)| l * f)
                    .sum::<f64>();
            let slack: f64 = (0..7)
                .map(|v| s.dual_residual[v].abs() * width(&s.z, v))
                .sum();
            lower = lower.max((lagrangian - slack).max(0.0).sqrt() * scale);
            if let Some(records) = trace.as_deref_mut() {
                let mut r = IpRecord::new(s, x, y, lower, upper);
                r.time = t;
                records.push(r);
            }
            let middle = 0.5 * (x + y);
            if a.exact_violation(middle) < 0.0 && at_time(t).exact_violation(middle) < 0.0 {
                ending = Some(Ok((middle, t)));
                return Control::Stop;
            }
            let stalled = watch.stalled(upper - lower, s.mu, upper.max(1.0));
            if stalled && upper - lower > settings.acceptable * upper.max(1.0) {
                return Control::Stop;
            }
            // A stalled bracket within `acceptable` answers as a converged one does
            // (the smoothing's allowance: ten times the tolerance).
            let allowance = if stalled {
                settings.acceptable
            } else {
                10.0 * settings.tolerance
            };
            if stalled || upper - lower <= settings.tolerance * upper.max(1.0) {
                let moved = at_time(t);
                let certified =
                    (pull_inside(a, x, xa) - pull_inside(&moved, y, yb + velocity * t)).length();
                if certified - lower <= allowance * certified.max(1.0) {
                    let outcome = if certified <= settings.tolerance * scale {
                        Outcome::Grazing {
                            time: t,
                            distance: certified,
                        }
                    } else {
                        Outcome::NoImpact {
                            closest_distance: certified,
                        }
                    };
                    ending = Some(Err(outcome));
                    return Control::Stop;
                }
            }
            Control::Continue
        },
    );
    let (common, t_common) = match ending {
        Some(Ok(found)) => found,
        Some(Err(outcome)) => return Ok(finished(outcome, iterations, last.0, last.1)),
        None => {
            return Ok(finished(
                Outcome::IterationCap {
                    lower_bound: lower,
                    upper_bound: upper,
                },
                iterations,
                last.0,
                last.1,
            ))
        }
    };
    // Stage 2: z = (x', t), min t with x in A and in B + t v.
    let stage_one = iterations;
    let mut rows_a = [[0.0; 4]; 3];
    let mut rows_b = [[0.0; 4]; 3];
    let mut rows_t = [[0.0; 4]; 3];
    for i in 0..3 {
        rows_a[i][i] = scale;
        rows_b[i][i] = scale;
        rows_b[i][3] = -velocity[i];
    }
    rows_t[0][3] = 1.0;
    let groups = [
        Group {
            body: a,
            shift: centre,
            rows: rows_a,
            extra: [0.0; 4],
        },
        Group {
            body: b,
            shift: centre,
            rows: rows_b,
            extra: [0.0; 4],
        },
        Group {
            body: &interval,
            shift: DVec3::ZERO,
            rows: rows_t,
            extra: [0.0; 4],
        },
    ];
    let objective = Objective {
        q: [[0.0; 4]; 4],
        p: [0.0, 0.0, 0.0, 1.0],
    };
    let c0 = (common - centre) / scale;
    let width = |z: &[f64; 4], v: usize| match v {
        3 => z[3].abs().max((1.0 - z[3]).abs()),
        i => {
            let (lo, hi) = a.bounds();
            let p = centre[i] + scale * z[i];
            (p - lo[i]).abs().max((hi[i] - p).abs()) / scale
        }
    };
    let (mut t_low, mut t_high) = (0.0f64, t_common);
    let mut watch = StallWatch::new();
    let mut contact = common;
    let mut done = false;
    barrier::run(
        &objective,
        &groups,
        [c0.x, c0.y, c0.z, t_common],
        1e-2,
        settings.max_iterations,
        |s| {
            iterations = stage_one + 1 + s.iteration;
            let (x, t) = (point(&s.z, 0), s.z[3]);
            // Strictly inside both at t: contact happens by t.
            if a.exact_violation(x) <= 0.0 && at_time(t).exact_violation(x) <= 0.0 {
                t_high = t_high.min(t);
                contact = x;
            }
            let lagrangian = t + s
                .multipliers
                .iter()
                .zip(s.values)
                .map(|(l, f)| l * f)
                .sum::<f64>();
            let slack: f64 = (0..4)
                .map(|v| s.dual_residual[v].abs() * width(&s.z, v))
                .sum();
            t_low = t_low.max(lagrangian - slack).min(t_high);
            if let Some(records) = trace.as_deref_mut() {
                let mut r = IpRecord::new(s, x, x, t_low, t_high);
                r.k = stage_one + 1 + s.iteration;
                r.stage = IpStage::ContactTime;
                r.time = t;
                records.push(r);
            }
            let stalled = watch.stalled(t_high - t_low, s.mu, 1.0);
            if t_high - t_low <= settings.tolerance
                || (stalled && t_high - t_low <= settings.acceptable)
            {
                done = true;
                Control::Stop
            } else if stalled {
                Control::Stop
            } else {
                Control::Continue
            }
        },
    );
    if !done {
        return Ok(finished(
            Outcome::IterationCap {
                lower_bound: t_low,
                upper_bound: t_high,
            },
            iterations,
            contact,
            contact,
        ));
    }
    // The direction to move B out of A: A's outward normal at the contact.
    let normal = a
        .constraints()
        .iter()
        .map(|c| (c.value(contact), c.eval(contact).gradient))
        .max_by(|p, q| p.0.total_cmp(&q.0))
        .map(|(_, g)| g.normalize_or_zero())
        .unwrap_or(DVec3::ZERO);
    // The bracket's start: no contact before it (the dual bound), where at `t_high`
    // the bodies already share a point; an impact time is a lower bound.
    Ok(finished(
        Outcome::Impact {
            time: t_low,
            normal,
        },
        iterations,
        contact,
        contact,
    ))
}
