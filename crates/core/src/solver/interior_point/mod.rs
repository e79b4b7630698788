//! Distance between implicit convex bodies by a primal-dual interior-point method
//! (Chakraborty et al., "Proximity Queries between Convex Objects: An Interior Point
//! Approach for Implicit Surfaces"; docs/algorithms.md, "Interior point for implicit
//! shapes"): `min ‖x − y‖²` over `x ∈ A`, `y ∈
//! B`, in the six variables `(x, y)` whatever the number of constraints.
//!
//! Every answer is certified. The iterates are strictly inside both bodies, so
//! `‖x − y‖` is an upper bound of the distance; the Lagrangian with the current
//! multipliers, corrected by the dual residual over the bodies' boxes, is a lower bound
//! (`d*² ≥ f₀(z) + Σ λ_k F_k(z) − Σ_i |r_i| w_i`). `separated` is reported when the two
//! are within the tolerance, `intersecting` when the midpoint of `x` and `y` is checked
//! to lie strictly inside both; otherwise `iteration_cap` with both bounds.
//! Coordinates are taken about the bodies' common centre at their common scale, so
//! tolerances are relative to the scene and bodies far from the origin lose nothing.

mod ccd;
/// The step-by-step sentences of this family (the viewer, lessons, worksheets).
pub mod kind;
pub mod narrate;
pub use kind::FAMILY;
mod record;

use glam::DVec3;

pub use super::settings::IpSettings;
use crate::minkowski::SupportStats;
use crate::shape::implicit::barrier::{self, Control, Group, Objective};
use crate::shape::implicit::{frame, pull_inside, ImplicitBody, ImplicitError};
pub use crate::shape::implicit::{interior_of, interior_point, support, support_upper_bound};
use crate::solver::family::Family;
use crate::solver::family::{Answer, FamilyRun, PairQuery};
use crate::solver::Outcome;
pub use ccd::{time_of_impact, IpToiAnswer};
pub use record::{IpRecord, IpStage, IP_CSV_HEADER};

/// Steps without the bracket narrowing by a thousandth, with μ at round-off level,
/// before a run counts as stalled.
const STALL_STEPS: usize = 6;

/// Whether a bracket still narrows. Round-off in the Newton system leaves a floor under
/// the dual residual, so the bracket can stop short of the tolerance (shapes 1e5 times
/// apart in size); then a bracket within `acceptable` is the answer and a wider one a
/// cap, rather than running on to the iteration cap.
struct StallWatch {
    best_width: f64,
    since_progress: usize,
}

impl StallWatch {
    fn new() -> Self {
        Self {
            best_width: f64::INFINITY,
            since_progress: 0,
        }
    }

    /// Records this step's bracket `width` (the answer's size `size`, barrier weight
    /// `mu`); true once it has not narrowed for [`STALL_STEPS`] steps near the end (μ at
    /// round-off level, or the bracket already narrow: earlier plateaus are the path
    /// turning a corner).
    fn stalled(&mut self, width: f64, mu: f64, size: f64) -> bool {
        if width < self.best_width * (1.0 - 1e-3) {
            (self.best_width, self.since_progress) = (width, 0);
        } else {
            self.since_progress += 1;
        }
        let near_end = mu < 1e-12 || width <= 1e-4 * size;
        self.since_progress >= STALL_STEPS && near_end
    }
}

/// A finished distance query: iterations are Newton steps (phase 1 not counted), the
/// witnesses the last iterates, points of A and of B (A's frame).
pub type IpAnswer = Answer<IpExtras>;

/// What the interior point reports beyond the common summary.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct IpExtras {
    /// The certified bracket of the distance.
    pub lower: f64,
    pub upper: f64,
}

/// Which interior-point method: the distance, or the time of impact of a translating B.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IpQuestion {
    Distance,
    TimeOfImpact,
}

/// The interior point as a family entry: both bodies in their implicit form (a shape
/// without one is `not_applicable`), the query's `interior_point` settings; a body
/// that cannot be solved for (no interior) is `degenerate` with the reason.
impl FamilyRun for IpQuestion {
    type Records = Vec<IpRecord>;
    type Extras = Option<IpExtras>;

    fn family(&self) -> Family {
        FAMILY
    }

    fn run(
        &self,
        q: &PairQuery<'_>,
        records: Option<&mut Vec<IpRecord>>,
    ) -> Answer<Option<IpExtras>> {
        let refuse =
            |outcome: Outcome| Answer::new(outcome, 0, SupportStats::default(), None, None);
        // The time of impact needs a translating B; the distance ignores motion.
        let velocity = match (self, q.motion) {
            (IpQuestion::Distance, _) => None,
            (_, None) => {
                let why = "B has no velocity: a time of impact needs one".to_string();
                return refuse(Outcome::NotApplicable { why });
            }
            (_, Some(m)) if m.spin != DVec3::ZERO => {
                let why = "the interior point's time of impact takes translating bodies only";
                return refuse(Outcome::NotApplicable {
                    why: why.to_string(),
                });
            }
            (_, Some(m)) => Some(m.velocity),
        };
        let settings = q.settings.interior_point;
        let answer = ImplicitBody::of_shape(q.a).and_then(|ia| {
            let ib = ImplicitBody::of_shape(q.b)?.moved(q.b_in_a);
            Ok(match velocity {
                None => {
                    let mut r = distance(&ia, &ib, settings, records)?;
                    r.summary.allow_round_off(q.round_off());
                    Answer {
                        summary: r.summary,
                        extras: Some(r.extras),
                    }
                }
                Some(v) => {
                    let r = time_of_impact(&ia, &ib, v, settings, records)?;
                    Answer {
                        summary: r.summary,
                        extras: None,
                    }
                }
            })
        });
        answer.unwrap_or_else(|why| {
            refuse(Outcome::Degenerate {
                reason: why.to_string(),
            })
        })
    }
}

/// The distance between `a` and `b` (both in A's frame), recording each Newton step
/// into `trace` when given.
pub fn distance(
    a: &ImplicitBody,
    b: &ImplicitBody,
    settings: IpSettings,
    trace: Option<&mut Vec<IpRecord>>,
) -> Result<IpAnswer, ImplicitError> {
    distance_from(a, b, None, settings, trace)
}

/// Warm start: the previous answer's points (A's frame, after the pose changed a
/// little), moved a tenth of the way to the bodies' interior points so that they start
/// strictly inside, with a smaller barrier parameter (Chakraborty et al.'s remark: the pose
/// changes little between time steps).
pub fn distance_warm(
    a: &ImplicitBody,
    b: &ImplicitBody,
    previous: (DVec3, DVec3),
    settings: IpSettings,
    trace: Option<&mut Vec<IpRecord>>,
) -> Result<IpAnswer, ImplicitError> {
    distance_from(a, b, Some(previous), settings, trace)
}

fn distance_from(
    a: &ImplicitBody,
    b: &ImplicitBody,
    previous: Option<(DVec3, DVec3)>,
    settings: IpSettings,
    mut trace: Option<&mut Vec<IpRecord>>,
) -> Result<IpAnswer, ImplicitError> {
    let (xa, yb) = (interior_of(a)?, interior_of(b)?);
    // Each body in its own frame at its own size (a tiny body beside a huge one keeps
    // its constraints of order 1); the objective at the pair's common scale.
    let (centre_a, scale_a) = frame(&[a.bounds()]);
    let (centre_b, scale_b) = frame(&[b.bounds()]);
    let (_, scale) = frame(&[a.bounds(), b.bounds()]);
    // A warm start's points, pulled inside; the cold start's interior points otherwise.
    let start = |body: &ImplicitBody, p: Option<DVec3>, deep: DVec3| match p {
        Some(p) => {
            let q = p + 0.1 * (deep - p);
            if body.max_violation(q) < 0.0 {
                (q, true)
            } else {
                (deep, false)
            }
        }
        None => (deep, false),
    };
    let (xs, warm_a) = start(a, previous.map(|p| p.0), xa);
    let (ys, warm_b) = start(b, previous.map(|p| p.1), yb);
    let mu0 = if warm_a && warm_b { 1e-4 } else { 1e-2 };
    let (x0, y0) = ((xs - centre_a) / scale_a, (ys - centre_b) / scale_b);
    // (x − y) / S = e + M z with M = [L_A I, −L_B I] / S, e = (c_A − c_B) / S;
    // f₀ = ‖e + M z‖² = ½ zᵀ(2 MᵀM) z + (2 Mᵀe)·z + ‖e‖².
    let (ma, mb) = (scale_a / scale, scale_b / scale);
    let e = (centre_a - centre_b) / scale;
    let mut q = [[0.0; 6]; 6];
    let mut p = [0.0; 6];
    for i in 0..3 {
        q[i][i] = 2.0 * ma * ma;
        q[i + 3][i + 3] = 2.0 * mb * mb;
        q[i][i + 3] = -2.0 * ma * mb;
        q[i + 3][i] = -2.0 * ma * mb;
        p[i] = 2.0 * ma * e[i];
        p[i + 3] = -2.0 * mb * e[i];
    }
    let objective = Objective { q, p };
    let mut rows_a = [[0.0; 6]; 3];
    let mut rows_b = [[0.0; 6]; 3];
    for i in 0..3 {
        rows_a[i][i] = scale_a;
        rows_b[i][i + 3] = scale_b;
    }
    let groups = [
        Group {
            body: a,
            shift: centre_a,
            rows: rows_a,
            extra: [0.0; 6],
        },
        Group {
            body: b,
            shift: centre_b,
            rows: rows_b,
            extra: [0.0; 6],
        },
    ];
    // Per variable, the farthest the box lets a point be from the iterate (its units).
    let frames = [
        (a.bounds(), centre_a, scale_a),
        (b.bounds(), centre_b, scale_b),
    ];
    let width = |z: &[f64; 6], v: usize| {
        let ((lo, hi), c, l) = frames[v / 3];
        let i = v % 3;
        let p = c[i] + l * z[v];
        (p - lo[i]).abs().max((hi[i] - p).abs()) / l
    };
    let point = |z: &[f64; 6], offset: usize| {
        let (_, c, l) = frames[offset / 3];
        c + l * DVec3::new(z[offset], z[offset + 1], z[offset + 2])
    };
    let mut verdict: Option<Outcome> = None;
    let (mut lower, mut upper) = (0.0f64, f64::INFINITY);
    let mut iterations = 0;
    let mut watch = StallWatch::new();
    let mut plane_tried = false;
    let z0 = [x0.x, x0.y, x0.z, y0.x, y0.y, y0.z];
    let z = barrier::run(&objective, &groups, z0, mu0, settings.max_iterations, |s| {
        iterations = s.iteration;
        let (x, y) = (point(&s.z, 0), point(&s.z, 3));
        let gap_scaled = (x - y) / scale;
        upper = upper.min((x - y).length());
        let lagrangian = gap_scaled.length_squared()
            + s.multipliers
                .iter()
                .zip(s.values)
                .map(|(l, f)| l * f)
                .sum::<f64>();
        let slack: f64 = (0..6)
            .map(|v| s.dual_residual[v].abs() * width(&s.z, v))
            .sum();
        let bound = (lagrangian - slack).max(0.0).sqrt() * scale;
        lower = lower.max(bound);
        // A common point is only worth checking once x and y are close.
        let middle = 0.5 * (x + y);
        let common = (x - y).length() < 0.1 * scale
            && a.exact_violation(middle) < 0.0
            && b.exact_violation(middle) < 0.0;
        if let Some(records) = trace.as_deref_mut() {
            records.push(IpRecord::new(s, x, y, lower, upper));
        }
        if common {
            verdict = Some(Outcome::Intersecting);
            return Control::Stop;
        }
        let mut width = upper - lower;
        let stalled = watch.stalled(width, s.mu, upper.max(1.0));
        if stalled && !plane_tried {
            // The Lagrangian's bound stalls with the dual residual (its slack is the
            // residual times the box, against a squared distance): a plane along x − y
            // with both supports bounded by their own duality closes the bracket.
            plane_tried = true;
            lower = lower.max(plane_bound(a, b, (x, y), (xa, yb)));
            width = upper - lower;
        }
        if stalled && width <= settings.acceptable * upper.max(1.0) {
            let certified = (pull_inside(a, x, xa) - pull_inside(b, y, yb)).length();
            if certified - lower <= settings.acceptable * certified.max(1.0) {
                upper = certified;
                verdict = Some(Outcome::converged(certified, lower));
            }
            return Control::Stop;
        }
        if stalled {
            return Control::Stop;
        }
        if upper - lower <= settings.tolerance * upper.max(1.0) {
            // Certify on the true bodies: x and y lie in the smoothed ones.
            let certified = (pull_inside(a, x, xa) - pull_inside(b, y, yb)).length();
            // The smoothing moves boundaries by a relative ~1e-9: allow ten times the
            // smoothed bracket's tolerance for it.
            if certified - lower <= 10.0 * settings.tolerance * certified.max(1.0) {
                upper = certified;
                verdict = Some(Outcome::converged(certified, lower));
                return Control::Stop;
            }
        }
        Control::Continue
    });
    let (x, y) = (point(&z, 0), point(&z, 3));
    let outcome = match verdict {
        Some(v) => v,
        None => {
            // The smoothed bodies' upper bound, made one for the true bodies.
            upper = (pull_inside(a, x, xa) - pull_inside(b, y, yb)).length();
            if !plane_tried {
                lower = lower.max(plane_bound(a, b, (x, y), (xa, yb)));
            }
            if upper - lower <= settings.acceptable * upper.max(1.0) && lower > 0.0 {
                Outcome::converged(upper, lower)
            } else {
                Outcome::IterationCap {
                    lower_bound: lower,
                    upper_bound: upper,
                }
            }
        }
    };
    let extras = IpExtras { lower, upper };
    Ok(IpAnswer::new(
        outcome,
        iterations,
        SupportStats::default(),
        Some((x, y)),
        extras,
    ))
}

/// A lower bound of the distance from the plane normal to `y − x` (points of A and B):
/// `min over B − max over A` of the normal's coordinate, each support bounded above by
/// its own barrier run's duality ([`support_upper_bound`]), from the interior points
/// `inside`. Negative (no bound) when the plane does not separate.
fn plane_bound(
    a: &ImplicitBody,
    b: &ImplicitBody,
    (x, y): (DVec3, DVec3),
    (inside_a, inside_b): (DVec3, DVec3),
) -> f64 {
    let normal = (y - x).normalize_or_zero();
    if normal == DVec3::ZERO {
        return 0.0;
    }
    let reach_a = support_upper_bound(a, inside_a, normal);
    let reach_b = support_upper_bound(b, inside_b, -normal);
    let gap = -reach_b - reach_a;
    if gap.is_finite() {
        gap
    } else {
        0.0
    }
}

#[cfg(test)]
mod tests;
