//! Why a run was slow, from its records: each cause with the steps that show
//! it. Only runs of at least [`SLOW_ITERATIONS`] iterations (or that hit the cap) are
//! explained, and each cause needs its own evidence, so fast runs get none.

use glam::DVec3;
use serde::Serialize;

use super::DistanceStep;
use crate::shape::Shape;
use crate::solver::{FrankWolfeRecord, GjkRecord};
use crate::solver::{Outcome, Run};

/// Runs shorter than this are not slow.
pub const SLOW_ITERATIONS: usize = 15;

/// A reason a run took long.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum CauseKind {
    /// The support alternates between two points (Frank-Wolfe between two corners of
    /// the face nearest the origin, GJK between two nearly parallel faces).
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
    /// Near contact on a finely tessellated hull: every step's support is a new point
    /// close to the last, the direction turns a little, and the gap shrinks slowly: GJK
    /// crosses the surface one small face at a time toward the closest features.
    SurfaceWalk,
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
            CauseKind::SurfaceWalk => "walk across a fine tessellation",
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

/// One cause's test on a run: what was measured, against what it needs.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Check {
    pub kind: CauseKind,
    /// The measured quantity, in words with its number.
    pub measured: String,
    /// What the cause needs, in words.
    pub needed: String,
}

impl std::fmt::Display for Check {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{}: {} (needs {})",
            self.kind.name(),
            self.measured,
            self.needed
        )
    }
}

/// A slow run's explanation: the causes found, and every test with what it measured (a
/// slow run with no cause shows why each was ruled out).
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Explanation {
    pub causes: Vec<Cause>,
    pub checks: Vec<Check>,
}

/// The causes of a slow run, strongest evidence first; empty for a fast run or a family
/// without distance steps. Without the shapes the walk across a fine tessellation is not
/// tested ([`explain_pair`] tests it).
pub fn explain(run: &Run) -> Vec<Cause> {
    explain_with_checks(run, None).causes
}

/// The causes of a slow run on the pair `(a, b)` it ran on.
pub fn explain_pair(run: &Run, a: &Shape, b: &Shape) -> Vec<Cause> {
    explain_with_checks(run, Some((a, b))).causes
}

/// Whether a shape is finely tessellated: a hull of at least [`FINE_TESSELLATION`]
/// vertices (a mesh, not a box; a curved shape's slow approach is another matter, the
/// one accelerated GJK answers).
fn finely_tessellated(shape: &Shape) -> bool {
    shape.vertex_count().is_some_and(|n| n >= FINE_TESSELLATION)
}

/// A hull this many vertices large counts as a fine tessellation.
pub const FINE_TESSELLATION: usize = 32;

/// The causes and the measured checks behind them (both empty for a fast run or a family
/// without distance steps). With the shapes, the walk across a fine tessellation is
/// tested when one of them is one.
pub fn explain_with_checks(run: &Run, shapes: Option<(&Shape, &Shape)>) -> Explanation {
    let (steps, simplices): (Vec<(&DistanceStep, bool)>, bool) =
        if let Some(records) = run.trace.steps::<GjkRecord>() {
            let steps = records.iter().map(|r| (&r.step, r.momentum)).collect();
            (steps, true)
        } else if let Some(records) = run.trace.steps::<FrankWolfeRecord>() {
            (records.iter().map(|r| (&r.step, false)).collect(), false)
        } else {
            return Explanation::default();
        };
    let capped = matches!(run.summary.outcome, Outcome::IterationCap { .. });
    if run.summary.iterations < SLOW_ITERATIONS && !capped {
        return Explanation::default();
    }
    let mut found = Explanation::default();
    if capped {
        found.causes.push(Cause {
            kind: CauseKind::IterationCap,
            steps: vec![steps.len().saturating_sub(1)],
            detail: format!(
                "the run stopped at its cap of {} iterations without certifying a distance",
                run.summary.iterations
            ),
        });
    }
    let mut tested = vec![zig_zag(&steps), momentum_overshoot(&steps), plateau(&steps)];
    if shapes.is_some_and(|(a, b)| finely_tessellated(a) || finely_tessellated(b)) {
        tested.push(surface_walk(&steps));
    }
    if simplices {
        // (Frank-Wolfe's active sets are not simplices: flat ones are normal.)
        tested.push(degenerate(&steps));
    }
    tested.extend(bad_guess(&steps, run));
    for (check, cause) in tested {
        found.checks.push(check);
        found.causes.extend(cause);
    }
    found
}

/// What a detector returns: its measurement, and the cause when the measurement is
/// enough.
type Tested = (Check, Option<Cause>);

fn check(kind: CauseKind, measured: String, needed: &str) -> Check {
    Check {
        kind,
        measured,
        needed: needed.to_string(),
    }
}

/// Each step's support point, and the largest of their norms (the shapes' size as the
/// records see it).
fn supports_and_scale(steps: &[(&DistanceStep, bool)]) -> (Vec<Option<DVec3>>, f64) {
    let s: Vec<Option<DVec3>> = steps.iter().map(|(st, _)| support(st)).collect();
    let scale = s
        .iter()
        .flatten()
        .map(|p| p.length())
        .fold(0.0f64, f64::max)
        .max(1e-300);
    (s, scale)
}

/// The longest run of consecutive `k` in `range` for which `holds`.
fn longest_run(range: std::ops::Range<usize>, holds: impl Fn(usize) -> bool) -> Vec<usize> {
    let (mut best, mut current): (Vec<usize>, Vec<usize>) = (Vec::new(), Vec::new());
    for k in range {
        if holds(k) {
            current.push(k);
            if current.len() > best.len() {
                best = current.clone();
            }
        } else {
            current.clear();
        }
    }
    best
}

/// How far step `k`'s direction turned from step `k − 1`'s, in degrees.
fn turn_degrees(steps: &[(&DistanceStep, bool)], k: usize) -> f64 {
    let (d, e) = (steps[k].0.direction, steps[k - 1].0.direction);
    d.normalize_or_zero()
        .dot(e.normalize_or_zero())
        .clamp(-1.0, 1.0)
        .acos()
        .to_degrees()
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
fn zig_zag(steps: &[(&DistanceStep, bool)]) -> Tested {
    let s: Vec<Option<DVec3>> = steps.iter().map(|(st, _)| support(st)).collect();
    // Back to (nearly) the point of two steps ago, away from the last one: on curved
    // shapes the two points drift a little from one bounce to the next.
    let best = longest_run(2..s.len(), |k| match (s[k], s[k - 1], s[k - 2]) {
        (Some(a), Some(b), Some(c)) => !same(a, b) && near(a, c, a - b),
        _ => false,
    });
    let measured = format!("the support alternated for at most {} steps", best.len());
    let found = (best.len() >= 6).then(|| Cause {
        kind: CauseKind::ZigZag,
        detail: format!(
            "the support alternates between two places for {} steps (from step {}): each step moves x towards one of them, nearly across −x, so it gains little (x zig-zags between them)",
            best.len(),
            best[0] + 1
        ),
        steps: best,
    });
    (check(CauseKind::ZigZag, measured, "6 steps"), found)
}

/// Momentum steps that overshoot (the measured gap rose) or lag (the true Frank-Wolfe
/// gap kept more than 0.8 of itself: the momentum holds the direction away from −x):
/// at least 6 of them.
fn momentum_overshoot(steps: &[(&DistanceStep, bool)]) -> Tested {
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
    let measured = format!("{} momentum steps made little progress", evidence.len());
    let found = (evidence.len() >= 6).then(|| Cause {
        kind: CauseKind::MomentumOvershoot,
        detail: format!(
            "{} momentum steps made little progress (the gap rose on {rose}, the true gap kept more than 80 % of itself on {lagged}; first at step {}): the momentum carries the direction past or away from −x",
            evidence.len(),
            evidence[0] + 1
        ),
        steps: evidence,
    });
    (check(CauseKind::MomentumOvershoot, measured, "6"), found)
}

/// A plateau: consecutive supports far apart (a hundredth of the shape's size or more)
/// whose values along the direction differ by less than a thousandth of that distance:
/// the support slides across a face nearly orthogonal to the direction, its vertices
/// all but tied. At least 5 such steps, zig-zag steps aside.
fn plateau(steps: &[(&DistanceStep, bool)]) -> Tested {
    let (s, scale) = supports_and_scale(steps);
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
    let measured = format!("{} steps slid across all but tied vertices", ties.len());
    let found = (ties.len() >= 5).then(|| Cause {
        kind: CauseKind::SupportPlateau,
        detail: format!(
            "on {} steps the support slid across a face nearly orthogonal to the direction, its vertices all but tied (first at step {})",
            ties.len(),
            ties[0] + 1
        ),
        steps: ties,
    });
    (check(CauseKind::SupportPlateau, measured, "5"), found)
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
fn degenerate(steps: &[(&DistanceStep, bool)]) -> Tested {
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
    let measured = format!("{} steps projected a flat or repeated simplex", flat.len());
    let found = (flat.len() >= 2).then(|| Cause {
        kind: CauseKind::DegenerateSimplex,
        detail: format!(
            "on {} steps the simplex given to the projection was flat or repeated a point (first at step {}): the projection works near round-off there",
            flat.len(),
            flat[0] + 1
        ),
        steps: flat,
    });
    (check(CauseKind::DegenerateSimplex, measured, "2"), found)
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

/// The first direction more than 90° away from the final answer's (`None` when the run
/// has no answer's direction to compare with).
fn bad_guess(steps: &[(&DistanceStep, bool)], run: &Run) -> Option<Tested> {
    let first = steps.first()?.0.direction;
    let answer = match (run.summary.witness_a, run.summary.witness_b) {
        (Some(a), Some(b)) => a - b,
        _ => return None,
    };
    let cos = first.normalize_or_zero().dot(answer.normalize_or_zero());
    let degrees = cos.clamp(-1.0, 1.0).acos().to_degrees();
    let measured = format!("the first direction is {degrees:.0}° from the answer's");
    let found = (cos < 0.0).then(|| Cause {
        kind: CauseKind::BadInitialGuess,
        steps: vec![0],
        detail: format!(
            "the first direction is {degrees:.0}° away from the answer's: the first supports are spent on the far side"
        ),
    });
    Some((
        check(CauseKind::BadInitialGuess, measured, "more than 90°"),
        found,
    ))
}

/// Steps of a walk across a fine tessellation: the support is a point the simplex did
/// not hold, within a tenth of the shapes' size of one it held; the direction turned
/// less than [`WALK_TURN_DEGREES`]; the certificate gap kept more than a quarter of
/// itself; and the iterate is near contact (∥x∥ at most [`WALK_NEAR_CONTACT`] of the
/// size). At least [`WALK_STEPS`] in a row. Seen on real meshes near contact (a
/// bunny against a cow: 6–18 such steps among 17–20 iterations), where the closest
/// features lie on a patch of many small faces and each step moves to a neighbour.
fn surface_walk(steps: &[(&DistanceStep, bool)]) -> Tested {
    let (s, scale) = supports_and_scale(steps);
    let walks = |k: usize| -> bool {
        let Some(p) = s[k] else {
            return false;
        };
        // A point the simplex did not hold, next to one it did.
        let kept: Vec<DVec3> = steps[k - 1].0.simplex.iter().map(|v| v.point.w).collect();
        let new = !kept.iter().any(|q| same(*q, p));
        let close = kept.iter().any(|q| (p - *q).length() <= 0.1 * scale);
        let (gap, before) = (
            steps[k].0.criteria.van_den_bergen,
            steps[k - 1].0.criteria.van_den_bergen,
        );
        let slow = before > 0.0 && gap > 0.25 * before;
        let near = steps[k].0.x_norm <= WALK_NEAR_CONTACT * scale;
        new && close && turn_degrees(steps, k) < WALK_TURN_DEGREES && slow && near
    };
    let best = longest_run(1..s.len(), walks);
    let nearest = steps
        .iter()
        .map(|(st, _)| st.x_norm)
        .fold(f64::INFINITY, f64::min);
    let measured = format!(
        "the longest walk lasted {} steps (closest ∥x∥ {:.1e} of the size {:.2})",
        best.len(),
        nearest / scale,
        scale
    );
    let found = (best.len() >= WALK_STEPS).then(|| {
        let turns: Vec<f64> = best.iter().map(|&k| turn_degrees(steps, k)).collect();
        let kept: f64 = best
            .iter()
            .map(|&k| steps[k].0.criteria.van_den_bergen / steps[k - 1].0.criteria.van_den_bergen)
            .sum::<f64>()
            / best.len() as f64;
        Cause {
            kind: CauseKind::SurfaceWalk,
            detail: format!(
                "for {} steps (from step {}) each support was a new point next to the last, the direction turning {:.1}° a step on average, and the gap kept {:.0} % of itself a step: near contact (∥x∥ ≤ {:.1e} of the shapes' size) the closest features lie on a patch of small faces and GJK crosses it one face at a time",
                best.len(),
                best[0] + 1,
                turns.iter().sum::<f64>() / turns.len() as f64,
                kept * 100.0,
                WALK_NEAR_CONTACT
            ),
            steps: best,
        }
    });
    (
        check(
            CauseKind::SurfaceWalk,
            measured,
            &format!("{WALK_STEPS} steps in a row"),
        ),
        found,
    )
}

/// A walk's steps turn the direction less than this (degrees).
pub const WALK_TURN_DEGREES: f64 = 20.0;
/// A walk happens near contact: ∥x∥ at most this share of the shapes' size.
pub const WALK_NEAR_CONTACT: f64 = 0.02;
/// Steps in a row that make a walk.
pub const WALK_STEPS: usize = 5;
