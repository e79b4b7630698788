//! What an implicit body's support map needs: a point strictly inside it (phase 1) and
//! the support itself, both by the primal-dual barrier method of Chakraborty et al.,
//! "Proximity Queries between Convex Objects: An Interior Point Approach for Implicit
//! Surfaces" ([`super::barrier`]). The interior-point solver (`solver::interior_point`)
//! uses the same engine for distances and times of impact.

use glam::DVec3;

use super::barrier::{self, Control, Group, Objective};
use super::{ImplicitBody, ImplicitError};

/// A centre and a length that put both bodies' boxes about the origin at unit size.
pub(crate) fn frame(boxes: &[(DVec3, DVec3)]) -> (DVec3, f64) {
    let (lo, hi) = boxes.iter().fold(
        (DVec3::splat(f64::INFINITY), DVec3::splat(f64::NEG_INFINITY)),
        |(a, b), (l, h)| (a.min(*l), b.max(*h)),
    );
    let centre = 0.5 * (lo + hi);
    let scale = (0.5 * (hi - lo)).max_element().max(f64::MIN_POSITIVE);
    (centre, scale)
}

/// A point strictly inside `body` (phase 1: `min t` s.t. `f_k(x) ≤ t`, from the box's
/// centre), as deep as a few Newton steps get it; `Empty` when the bound proves
/// `min max f_k > 0`.
pub fn interior_point(body: &ImplicitBody) -> Result<DVec3, ImplicitError> {
    let (centre, scale) = frame(&[body.bounds()]);
    let (lo, hi) = body.bounds();
    let start = body.max_violation(centre);
    if !start.is_finite() {
        return Err(ImplicitError::Invalid(
            "a constraint is not finite at the body's centre".into(),
        ));
    }
    let t0 = start.max(0.0) + 1.0;
    let group = Group::<4> {
        body,
        shift: centre,
        rows: [
            [scale, 0.0, 0.0, 0.0],
            [0.0, scale, 0.0, 0.0],
            [0.0, 0.0, scale, 0.0],
        ],
        extra: [0.0, 0.0, 0.0, -1.0],
    };
    let objective = Objective {
        q: [[0.0; 4]; 4],
        p: [0.0, 0.0, 0.0, 1.0],
    };
    let width = |z: &[f64; 4], i: usize| {
        let x = centre[i] + scale * z[i];
        (x - lo[i]).abs().max((hi[i] - x).abs()) / scale
    };
    let mut lower_bound = f64::NEG_INFINITY;
    let mut best: Option<([f64; 4], f64)> = None;
    barrier::run(
        &objective,
        std::slice::from_ref(&group),
        [0.0, 0.0, 0.0, t0],
        1.0,
        100,
        |s| {
            let t = s.z[3];
            let weight: f64 = s.multipliers.iter().sum();
            // t* ≥ Σ λ̂_k f_k(x) − Σ_i |v_i| w_i, v = Σ λ̂_k ∇f_k (the x part of the residual).
            let mean: f64 = s
                .multipliers
                .iter()
                .zip(s.values)
                .map(|(l, f)| l * (f + t))
                .sum::<f64>()
                / weight;
            let slack: f64 = (0..3)
                .map(|i| (s.dual_residual[i] / weight).abs() * width(&s.z, i))
                .sum();
            lower_bound = lower_bound.max(mean - slack);
            let inside = body.exact_violation(centre + scale * DVec3::new(s.z[0], s.z[1], s.z[2]));
            if inside < 0.0 && best.is_none_or(|(_, b)| inside < b) {
                best = Some((s.z, inside));
            }
            if lower_bound > 0.0 || (t < 0.0 && t - lower_bound <= 0.05 * t.abs()) {
                Control::Stop
            } else {
                Control::Continue
            }
        },
    );
    match best {
        Some((z, _)) if lower_bound <= 0.0 => Ok(centre + scale * DVec3::new(z[0], z[1], z[2])),
        _ if lower_bound > 0.0 => Err(ImplicitError::Empty(lower_bound)),
        _ => Err(ImplicitError::Invalid(
            "no interior point found in 100 Newton steps (is the body empty or flat?)".into(),
        )),
    }
}

/// The support point of `body` in direction `dir` (`max dir·x`), by the same barrier
/// method from the strictly interior point `inside`: within about 1e-12 of the body's
/// size of the true support value (an interior point, so never beyond it).
pub fn support(body: &ImplicitBody, inside: DVec3, dir: DVec3) -> DVec3 {
    support_with_bound(body, inside, dir).0
}

/// An upper bound of `max dir̂·x` over `body` (`dir̂` the unit direction), certified by
/// the barrier method's duality (the multipliers' gap and the dual residual over the
/// body's box): with two of them a plane separates two bodies by a certified gap.
/// Bounds the smoothed body, which contains the true one. `+∞` when `dir` is zero.
pub fn support_upper_bound(body: &ImplicitBody, inside: DVec3, dir: DVec3) -> f64 {
    support_with_bound(body, inside, dir).1
}

/// The support point (the last iterate) and the smallest certified upper bound seen.
fn support_with_bound(body: &ImplicitBody, inside: DVec3, dir: DVec3) -> (DVec3, f64) {
    let d = dir.normalize_or_zero();
    if d == DVec3::ZERO {
        return (inside, f64::INFINITY);
    }
    let (centre, scale) = frame(&[body.bounds()]);
    let (lo, hi) = body.bounds();
    let group = Group::<3> {
        body,
        shift: centre,
        rows: [[scale, 0.0, 0.0], [0.0, scale, 0.0], [0.0, 0.0, scale]],
        extra: [0.0; 3],
    };
    let objective = Objective {
        q: [[0.0; 3]; 3],
        p: [-d.x, -d.y, -d.z],
    };
    let start = (inside - centre) / scale;
    let mut best = inside;
    let mut bound = f64::INFINITY;
    barrier::run(
        &objective,
        std::slice::from_ref(&group),
        [start.x, start.y, start.z],
        1e-2,
        80,
        |s| {
            let x = centre + scale * DVec3::new(s.z[0], s.z[1], s.z[2]);
            best = x;
            // max d·x' ≤ d·x + Σ λ_k s_k + Σ_i |r_i| w_i (scaled units).
            let gap: f64 = s
                .multipliers
                .iter()
                .zip(s.values)
                .map(|(l, f)| -l * f)
                .sum::<f64>();
            let slack: f64 = (0..3)
                .map(|i| {
                    s.dual_residual[i].abs() * (x[i] - lo[i]).abs().max((hi[i] - x[i]).abs())
                        / scale
                })
                .sum();
            let certified = d.dot(x) + scale * (gap + slack);
            if certified.is_finite() && gap >= 0.0 {
                bound = bound.min(certified);
            }
            if gap + slack <= 1e-12 {
                Control::Stop
            } else {
                Control::Continue
            }
        },
    );
    (best, bound)
}

/// `x` moved towards the interior point `inside` just far enough to lie in the true
/// (unsmoothed) body: the points the smoothed problem finds may lie a relative 1e-9
/// outside it.
pub(crate) fn pull_inside(body: &ImplicitBody, x: DVec3, inside: DVec3) -> DVec3 {
    if body.exact_violation(x) <= 0.0 {
        return x;
    }
    let mut tau = 1e-13;
    while tau < 1.0 {
        let p = x + tau * (inside - x);
        if body.exact_violation(p) <= 0.0 {
            return p;
        }
        tau *= 2.0;
    }
    inside
}

/// The body's known interior point, or phase 1's.
pub fn interior_of(body: &ImplicitBody) -> Result<DVec3, ImplicitError> {
    match body.interior() {
        Some(p) => Ok(p),
        None => interior_point(body),
    }
}
