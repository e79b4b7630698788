//! The bracketing methods: the first contact lies in `[lo, hi]`, which shrinks.
//!
//! Interval halving (Ericson, "The Gilbert-Johnson-Keerthi algorithm" §4): B swept over
//! `[lo, mid]` touches A or not: the contact is in that half or the other. Every test is
//! GJK on the swept shape, warm-started from the last test's nearest point.
//!
//! Brent's method (Ericson's alternative): on the signed distance (GJK apart, EPA's
//! depth inside), which is positive before the first contact and not positive on the
//! interval of overlap (a convex set under translation overlaps on one interval), so
//! the first contact is its only sign change in `[0, hi]` once `hi` overlaps.

use super::{Probe, Query, ToiEvent, ToiRun};

pub(super) fn halving(mut q: Query) -> ToiRun {
    let (mut lo, mut hi) = (0.0f64, 1.0f64);
    while hi - lo > q.settings.time_tolerance {
        if q.k >= q.settings.max_iterations {
            return q.finish_cap(lo, hi);
        }
        q.k += 1;
        let mid = 0.5 * (lo + hi);
        let test = q.gjk(lo, mid - lo);
        let Some(distance) = test.distance() else {
            let why = format!("the swept test over [{lo}, {mid}] had no answer");
            return q.finish_degenerate(why);
        };
        if test.overlaps() {
            hi = mid;
        } else {
            lo = mid;
        }
        q.record(ToiEvent::Halve, mid, (lo, hi), distance);
    }
    finish_bracket(q, lo, hi)
}

/// The contact in `[lo, hi]`: reported at `lo`, the bracket's end certified apart (an
/// impact time is a lower bound: at `hi` the shapes already overlap), with normal and
/// points from the distance just before `hi` (1e-7 of the motion, or at `lo` when that
/// overlaps already: the bracket may end wide when a probe lands on the contact exactly).
fn finish_bracket(mut q: Query, lo: f64, hi: f64) -> ToiRun {
    // Brent's bracket can end wide on its apart side (it stops on the distance at its
    // inside end): halved to the time tolerance, `lo` kept certified apart.
    let tolerance = q.settings.time_tolerance;
    let (lo, hi) = q.halve_swept(lo, hi, tolerance);
    let near = q.gjk((hi - 1e-7).max(lo), 0.0);
    let before = if near.distance().is_some_and(|d| d > 0.0) {
        near
    } else {
        q.gjk(lo, 0.0)
    };
    let distance = before.distance().unwrap_or(f64::NAN);
    q.record(ToiEvent::Contact, lo, (lo, hi), distance);
    q.impact(lo, &before)
}

/// Which step Brent's method took.
#[derive(Clone, Copy)]
enum BrentStep {
    Bisection,
    Secant,
    InverseQuadratic,
}

pub(super) fn brent(mut q: Query, d0: Probe) -> ToiRun {
    let f0 = d0.distance().unwrap_or(f64::NAN);
    // A time inside the overlap: the end of the motion, or (tunnelling: apart at both
    // ends) halving on the swept shape until a probe overlaps.
    let (mut lo, mut hi) = (0.0f64, 1.0f64);
    let Some(mut f_hi) = q.signed_distance(hi) else {
        return q.finish_degenerate("no signed distance at t = 1".into());
    };
    while f_hi > 0.0 {
        if q.k >= q.settings.max_iterations || hi - lo <= q.settings.time_tolerance {
            return q.finish_cap(lo, hi);
        }
        q.k += 1;
        let mid = 0.5 * (lo + hi);
        let touches = q.gjk(lo, mid - lo).overlaps();
        if touches {
            hi = mid;
            f_hi = match q.signed_distance(hi) {
                Some(f) => f,
                None => return q.finish_degenerate(format!("no signed distance at t = {hi}")),
            };
        } else {
            lo = mid;
        }
        q.record(ToiEvent::Halve, mid, (lo, hi), f_hi);
    }
    let f_lo = if lo == 0.0 {
        f0
    } else {
        match q.signed_distance(lo) {
            Some(f) => f,
            None => return q.finish_degenerate(format!("no signed distance at t = {lo}")),
        }
    };
    // Brent (as in Numerical Recipes' zbrent): b is the best estimate, [b, c] brackets
    // the root, a is the previous b.
    let (mut a, mut b, mut fa, mut fb) = (lo, hi, f_lo, f_hi);
    let (mut c, mut fc) = (a, fa);
    let (mut d, mut e) = (b - a, b - a);
    loop {
        if (fb > 0.0) == (fc > 0.0) {
            (c, fc) = (a, fa);
            (d, e) = (b - a, b - a);
        }
        if fc.abs() < fb.abs() {
            (a, b, c) = (b, c, b);
            (fa, fb, fc) = (fb, fc, fb);
        }
        let tol = 2.0 * f64::EPSILON * b.abs() + 0.5 * q.settings.time_tolerance;
        let half = 0.5 * (c - b);
        if half.abs() <= tol || fb == 0.0 {
            break;
        }
        if q.k >= q.settings.max_iterations {
            return q.finish_cap(b.min(c), b.max(c));
        }
        q.k += 1;
        let mut step = BrentStep::Bisection;
        if e.abs() >= tol && fa.abs() > fb.abs() {
            let s = fb / fa;
            let (mut p, mut r);
            if a == c {
                p = 2.0 * half * s;
                r = 1.0 - s;
                step = BrentStep::Secant;
            } else {
                let (qq, rr) = (fa / fc, fb / fc);
                p = s * (2.0 * half * qq * (qq - rr) - (b - a) * (rr - 1.0));
                r = (qq - 1.0) * (rr - 1.0) * (s - 1.0);
                step = BrentStep::InverseQuadratic;
            }
            if p > 0.0 {
                r = -r;
            }
            p = p.abs();
            if 2.0 * p < (3.0 * half * r - (tol * r).abs()).min((e * r).abs()) {
                e = d;
                d = p / r;
            } else {
                step = BrentStep::Bisection;
                (d, e) = (half, half);
            }
        } else {
            (d, e) = (half, half);
        }
        (a, fa) = (b, fb);
        b += if d.abs() > tol { d } else { tol.copysign(half) };
        fb = match q.signed_distance(b) {
            Some(f) => f,
            None => return q.finish_degenerate(format!("no signed distance at t = {b}")),
        };
        let event = match step {
            BrentStep::Bisection => ToiEvent::Bisection,
            BrentStep::Secant => ToiEvent::Secant,
            BrentStep::InverseQuadratic => ToiEvent::InverseQuadratic,
        };
        let bracket = if (fb > 0.0) == (fc > 0.0) {
            (a, b)
        } else {
            (b, c)
        };
        q.record(
            event,
            b,
            (bracket.0.min(bracket.1), bracket.0.max(bracket.1)),
            fb,
        );
    }
    // The bracket's end that is apart, and the one that is not.
    let (apart, inside) = if fb > 0.0 { (b, c) } else { (c, b) };
    let (apart, inside) = (apart.min(inside), apart.max(inside));
    finish_bracket(q, apart, inside)
}
