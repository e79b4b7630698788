//! Why a run was slow, from its records (issue 15): each cause with the steps that show
//! it. Only runs of at least [`SLOW_ITERATIONS`] iterations (or that hit the cap) are
//! explained, and each cause needs its own evidence, so fast runs get none.

use glam::DVec3;
use serde::Serialize;

use super::distance_step::DistanceStep;
use super::trace::Trace;
use super::{Outcome, Run};

/// Runs shorter than this are not slow.
pub const SLOW_ITERATIONS: usize = 15;

/// A reason a run took long.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum CauseKind {
    /// The support alternates between two points (Frank-Wolfe between parallel faces,
    /// GJK on nearly parallel ones).
    ZigZag,
    /// With momentum on, steps that overshoot (the gap rose) or lag (the true gap barely
    /// shrank).
    MomentumOvershoot,
    /// Supports tied on a face orthogonal to the direction.
    SupportPlateau,
    /// The simplex was nearly flat or had repeated points.
    DegenerateSimplex,
    /// The first direction pointed away from the answer.
    BadInitialGuess,
    /// The run ended on its iteration cap.
    IterationCap,
}

impl CauseKind {
    pub fn name(self) -> &'static str {
        match self {
            CauseKind::ZigZag => "zig-zag",
            CauseKind::MomentumOvershoot => "momentum overshoot",
            CauseKind::SupportPlateau => "support plateau",
            CauseKind::DegenerateSimplex => "degenerate simplex",
            CauseKind::BadInitialGuess => "bad initial guess",
            CauseKind::IterationCap => "iteration cap",
        }
    }
}

/// A cause with its evidence: the records that show it (indices into the trace).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Cause {
    pub kind: CauseKind,
    pub steps: Vec<usize>,
    pub detail: String,
}

impl std::fmt::Display for Cause {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.kind.name(), self.detail)
    }
}

/// The causes of a slow run, strongest evidence first; empty for a fast run or a family
/// without distance steps.
pub fn explain(run: &Run) -> Vec<Cause> {
    let (steps, simplices): (Vec<(&DistanceStep, bool)>, bool) = match &run.trace {
        Trace::Gjk(records) => (
            records.iter().map(|r| (&r.step, r.momentum)).collect(),
            true,
        ),
        Trace::FrankWolfe(records) => (records.iter().map(|r| (&r.step, false)).collect(), false),
        _ => return Vec::new(),
    };
    let capped = matches!(run.summary.outcome, Outcome::IterationCap { .. });
    if run.summary.iterations < SLOW_ITERATIONS && !capped {
        return Vec::new();
    }
    let mut causes = Vec::new();
    if capped {
        causes.push(Cause {
            kind: CauseKind::IterationCap,
            steps: vec![steps.len().saturating_sub(1)],
            detail: format!(
                "the run stopped at its cap of {} iterations without certifying a distance",
                run.summary.iterations
            ),
        });
    }
    causes.extend(zig_zag(&steps));
    causes.extend(momentum_overshoot(&steps));
    causes.extend(plateau(&steps));
    if simplices {
        // (Frank-Wolfe's active sets are not simplices: flat ones are normal.)
        causes.extend(degenerate(&steps));
    }
    causes.extend(bad_guess(&steps, run));
    causes
}

fn support(step: &DistanceStep) -> Option<DVec3> {
    step.support.map(|s| s.point.w)
}

/// Points equal to round-off of their size.
fn same(p: DVec3, q: DVec3) -> bool {
    (p - q).length() <= 1e-12 * p.length().max(q.length()).max(1.0)
}

/// The longest run of steps whose support comes back to (nearly) the one two steps back
/// after leaving it: at least 6 such steps.
fn zig_zag(steps: &[(&DistanceStep, bool)]) -> Option<Cause> {
    let s: Vec<Option<DVec3>> = steps.iter().map(|(st, _)| support(st)).collect();
    let mut best: Vec<usize> = Vec::new();
    let mut current: Vec<usize> = Vec::new();
    for k in 2..s.len() {
        // Back to (nearly) the point of two steps ago, away from the last one: on
        // curved shapes the two points drift a little from one bounce to the next.
        let alternates = match (s[k], s[k - 1], s[k - 2]) {
            (Some(a), Some(b), Some(c)) => !same(a, b) && near(a, c, a - b),
            _ => false,
        };
        if alternates {
            current.push(k);
            if current.len() > best.len() {
                best = current.clone();
            }
        } else {
            current.clear();
        }
    }
    (best.len() >= 6).then(|| Cause {
        kind: CauseKind::ZigZag,
        detail: format!(
            "the support alternates between two places for {} steps (from step {}): x bounces between two faces that are nearly parallel",
            best.len(),
            best[0] + 1
        ),
        steps: best,
    })
}

/// Momentum steps that overshoot (the measured gap rose) or lag (the true Frank-Wolfe
/// gap kept more than 0.8 of itself: the momentum holds the direction away from −x):
/// at least 6 of them.
fn momentum_overshoot(steps: &[(&DistanceStep, bool)]) -> Option<Cause> {
    let (mut rose, mut lagged) = (0, 0);
    let evidence: Vec<usize> = (1..steps.len())
        .filter(|&k| {
            let ((step, momentum), (before, _)) = (steps[k], steps[k - 1]);
            if !momentum {
                return false;
            }
            let rising = step.criteria.duality_gap > before.criteria.duality_gap;
            let lagging = step.fw_gap.is_finite()
                && before.fw_gap.is_finite()
                && before.fw_gap > 0.0
                && step.fw_gap > 0.8 * before.fw_gap;
            rose += usize::from(rising);
            lagged += usize::from(lagging && !rising);
            rising || lagging
        })
        .collect();
    (evidence.len() >= 6).then(|| Cause {
        kind: CauseKind::MomentumOvershoot,
        detail: format!(
            "{} momentum steps made little progress (the gap rose on {rose}, the true gap kept more than 80 % of itself on {lagged}; first at step {}): the momentum carries the direction past or away from −x",
            evidence.len(),
            evidence[0] + 1
        ),
        steps: evidence,
    })
}

/// A plateau: consecutive supports far apart (a hundredth of the shape's size or more)
/// whose values along the direction differ by less than a thousandth of that distance:
/// the support slides across a face nearly orthogonal to the direction, its vertices
/// all but tied. At least 5 such steps, zig-zag steps aside.
fn plateau(steps: &[(&DistanceStep, bool)]) -> Option<Cause> {
    let s: Vec<Option<DVec3>> = steps.iter().map(|(st, _)| support(st)).collect();
    let scale = s
        .iter()
        .flatten()
        .map(|p| p.length())
        .fold(0.0f64, f64::max)
        .max(1e-300);
    let ties: Vec<usize> = (1..steps.len())
        .filter(|&k| {
            let (Some(a), Some(b)) = (s[k], s[k - 1]) else {
                return false;
            };
            let back_again = k >= 2 && s[k - 2].is_some_and(|c| near(a, c, a - b));
            let d = steps[k].0.direction.normalize_or_zero();
            let apart = (a - b).length();
            !back_again && apart >= 1e-2 * scale && (d.dot(a) - d.dot(b)).abs() <= 1e-3 * apart
        })
        .collect();
    (ties.len() >= 5).then(|| Cause {
        kind: CauseKind::SupportPlateau,
        detail: format!(
            "on {} steps the support slid across a face nearly orthogonal to the direction, its vertices all but tied (first at step {})",
            ties.len(),
            ties[0] + 1
        ),
        steps: ties,
    })
}

/// `p` and `q` are the same point up to a twentieth of `step` (the jump between them
/// and the point between): the support came back.
fn near(p: DVec3, q: DVec3, step: DVec3) -> bool {
    (p - q).length() <= 0.05 * step.length()
}

/// Steps whose projection had to work on a degenerate simplex: the kept simplex plus the
/// new support (what the projection was given, before it dropped vertices) is flat
/// against its own longest edge (a sliver triangle, a flat tetrahedron: area or volume
/// below 1e-6 of it, scale-free) or repeats a point. At least two such steps.
fn degenerate(steps: &[(&DistanceStep, bool)]) -> Option<Cause> {
    let flat: Vec<usize> = steps
        .iter()
        .enumerate()
        .filter(|(k, (step, _))| {
            let Some(support) = step.support else {
                return false;
            };
            let mut w: Vec<DVec3> = match k.checked_sub(1) {
                Some(previous) => steps[previous]
                    .0
                    .simplex
                    .iter()
                    .map(|v| v.point.w)
                    .collect(),
                None => Vec::new(),
            };
            w.push(support.point.w);
            degenerate_points(&w)
        })
        .map(|(k, _)| k)
        .collect();
    (flat.len() >= 2).then(|| Cause {
        kind: CauseKind::DegenerateSimplex,
        detail: format!(
            "on {} steps the simplex given to the projection was flat or repeated a point (first at step {}): the projection works near round-off there",
            flat.len(),
            flat[0] + 1
        ),
        steps: flat,
    })
}

/// Points that repeat one another or span less than their count promises (three nearly
/// collinear, four nearly coplanar), relative to their longest edge.
fn degenerate_points(w: &[DVec3]) -> bool {
    let pairs = || (0..w.len()).flat_map(|i| (i + 1..w.len()).map(move |j| (i, j)));
    if pairs().any(|(i, j)| same(w[i], w[j])) {
        return true;
    }
    let longest = pairs()
        .map(|(i, j)| (w[i] - w[j]).length())
        .fold(0.0f64, f64::max)
        .max(1e-300);
    match w.len() {
        3 => (w[1] - w[0]).cross(w[2] - w[0]).length() <= 1e-6 * longest * longest,
        4 => {
            (w[1] - w[0]).cross(w[2] - w[0]).dot(w[3] - w[0]).abs()
                <= 1e-6 * longest * longest * longest
        }
        _ => false,
    }
}

/// The first direction more than 90° away from the final answer's.
fn bad_guess(steps: &[(&DistanceStep, bool)], run: &Run) -> Option<Cause> {
    let first = steps.first()?.0.direction;
    let answer = match (run.summary.witness_a, run.summary.witness_b) {
        (Some(a), Some(b)) => a - b,
        _ => return None,
    };
    let cos = first.normalize_or_zero().dot(answer.normalize_or_zero());
    (cos < 0.0).then(|| Cause {
        kind: CauseKind::BadInitialGuess,
        steps: vec![0],
        detail: format!(
            "the first direction is {:.0}° away from the answer's: the first supports are spent on the far side",
            cos.clamp(-1.0, 1.0).acos().to_degrees()
        ),
    })
}
