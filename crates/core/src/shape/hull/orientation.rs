//! The exact orientation test every hull and simplex decision rests on (Shewchuk,
//! "Adaptive Precision Floating-Point Arithmetic and Fast Robust Geometric Predicates",
//! through the `robust` crate), with its first stage inlined.

use glam::DVec3;
use robust::{orient2d, orient3d, Coord, Coord3D};

/// How far `p` lies on the outer side of the plane through `a, b, c` (counter-clockwise
/// seen from outside), as an exact sign: `> 0` outside, `0` on the plane, `< 0` inside.
/// The magnitude approximates `‖(b − a) × (c − a)‖` times the distance.
///
/// Inlined, with the predicate's first stage (Shewchuk's filter: the rounded
/// determinant, kept when it exceeds its error bound) written out here, bit for bit as
/// `robust::orient3d` computes it: the solver certifies every enclosure with four of
/// these, and as calls they were a tenth of an overlapping query. Only when the filter
/// cannot decide does the exact predicate run.
#[inline(always)]
pub fn height(a: DVec3, b: DVec3, c: DVec3, p: DVec3) -> f64 {
    /// `robust`'s `O3DERRBOUND_A`: (7 + 56ε)ε with ε = 2⁻⁵³.
    const ERROR_BOUND: f64 = (7.0 + 56.0 * f64::EPSILON / 2.0) * (f64::EPSILON / 2.0);
    let (ad, bd, cd) = (a - p, b - p, c - p);
    let (bdxcdy, cdxbdy) = (bd.x * cd.y, cd.x * bd.y);
    let (cdxady, adxcdy) = (cd.x * ad.y, ad.x * cd.y);
    let (adxbdy, bdxady) = (ad.x * bd.y, bd.x * ad.y);
    let det = ad.z * (bdxcdy - cdxbdy) + bd.z * (cdxady - adxcdy) + cd.z * (adxbdy - bdxady);
    let permanent = (bdxcdy.abs() + cdxbdy.abs()) * ad.z.abs()
        + (cdxady.abs() + adxcdy.abs()) * bd.z.abs()
        + (adxbdy.abs() + bdxady.abs()) * cd.z.abs();
    let bound = ERROR_BOUND * permanent;
    // orient3d is positive when `p` lies below the counter-clockwise plane. The filter's
    // bound is relative: products that underflowed (points within 1e-100 or so of each
    // other) carry an absolute error it does not cover, so those go to the exact path.
    if (det > bound || -det > bound) && permanent > UNDERFLOW_FREE {
        return -det;
    }
    exact_height(a, b, c, p)
}

/// Below this, the filter's products may have lost bits to underflow.
const UNDERFLOW_FREE: f64 = 1e-250;

/// The exact predicate, on the points scaled by a power of two so that its expansions'
/// products cannot underflow (Shewchuk's predicates are exact only without underflow:
/// boxes of size 1e-170 were seen to enclose the origin they did not). Scaling by 2^k is
/// exact and multiplies the determinant by 2^3k, so the sign is the points' own; the
/// magnitude is scaled back, kept nonzero when the scaled one was.
#[cold]
fn exact_height(a: DVec3, b: DVec3, c: DVec3, p: DVec3) -> f64 {
    // Two equal (finite) points span no volume: exactly 0 (negated, as the predicate's
    // zero is), where the filter always fails (EPA and the hulls ask about their own
    // vertices) and the expansions would cost most.
    let finite = || a.is_finite() && b.is_finite() && c.is_finite() && p.is_finite();
    if (p == a || p == b || p == c || a == b || b == c || c == a) && finite() {
        return -0.0;
    }
    let largest = a.abs().max(b.abs()).max(c.abs()).max(p.abs()).max_element();
    if !(largest > 0.0 && largest < 1e-60) {
        return -orient3d(coord(a), coord(b), coord(c), coord(p));
    }
    // 2^k with largest · 2^k in [1, 2): exact on every coordinate (scaling up loses no
    // bit, subnormal or not).
    let k = -(largest.log2().floor() as i32);
    let up = |q: DVec3| coord(q.map(|x| times_power_of_two(x, k)));
    let scaled = -orient3d(up(a), up(b), up(c), up(p));
    if scaled == 0.0 {
        return 0.0;
    }
    let back = times_power_of_two(scaled, -3 * k);
    if back == 0.0 {
        f64::from_bits(1).copysign(scaled)
    } else {
        back
    }
}

/// `robust::orient3d` without underflow (see [`exact_height`]): the sign is exact for
/// any finite points.
pub fn orient3d_scaled(a: Coord3D<f64>, b: Coord3D<f64>, c: Coord3D<f64>, d: Coord3D<f64>) -> f64 {
    let v = |q: Coord3D<f64>| DVec3::new(q.x, q.y, q.z);
    -exact_height(v(a), v(b), v(c), v(d))
}

/// `robust::orient2d` without underflow: points within 1e-60 of the origin are scaled
/// by a power of two first (exact), the value scaled back and kept nonzero.
pub fn orient2d_scaled(a: Coord<f64>, b: Coord<f64>, c: Coord<f64>) -> f64 {
    let largest = [a.x, a.y, b.x, b.y, c.x, c.y]
        .iter()
        .fold(0.0f64, |m, v| m.max(v.abs()));
    if !(largest > 0.0 && largest < 1e-60) {
        return orient2d(a, b, c);
    }
    let k = -(largest.log2().floor() as i32);
    let up = |q: Coord<f64>| Coord {
        x: times_power_of_two(q.x, k),
        y: times_power_of_two(q.y, k),
    };
    let scaled = orient2d(up(a), up(b), up(c));
    if scaled == 0.0 {
        return 0.0;
    }
    let back = times_power_of_two(scaled, -2 * k);
    if back == 0.0 {
        f64::from_bits(1).copysign(scaled)
    } else {
        back
    }
}

/// `x · 2^k`, in steps that stay finite (2^1074 itself is not an `f64`): exact when the
/// result is a normal number or `x` is scaled up.
fn times_power_of_two(mut x: f64, mut k: i32) -> f64 {
    while k != 0 {
        let step = k.clamp(-500, 500);
        x *= 2f64.powi(step);
        k -= step;
    }
    x
}

fn coord(p: DVec3) -> Coord3D<f64> {
    Coord3D {
        x: p.x,
        y: p.y,
        z: p.z,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The inlined filter returns exactly what the exact predicate returns (value and
    /// sign), on random points and on points on or a hair off a plane, where the
    /// filter must hand over.
    #[test]
    fn height_is_the_exact_predicate_bit_for_bit() {
        let mut rng = crate::rng::SplitMix64::new(3);
        let exact = |a: DVec3, b: DVec3, c: DVec3, p: DVec3| {
            -orient3d(coord(a), coord(b), coord(c), coord(p))
        };
        let (mut decided_by_filter, mut handed_over) = (0, 0);
        for k in 0..20000 {
            let mut v = || rng.vector(10f64.powi(k % 7 - 3));
            let (a, b, c) = (v(), v(), v());
            let p = match k % 3 {
                0 => v(),
                // On the plane up to the rounding of the affine combination.
                1 => a + (b - a) * 0.37 + (c - a) * 0.21,
                _ => DVec3::ZERO,
            };
            let ours = height(a, b, c, p);
            assert_eq!(
                ours.to_bits(),
                exact(a, b, c, p).to_bits(),
                "{a} {b} {c} {p}"
            );
            let (ad, bd, cd) = (a - p, b - p, c - p);
            let rounded = -(ad.z * (bd.x * cd.y - cd.x * bd.y)
                + bd.z * (cd.x * ad.y - ad.x * cd.y)
                + cd.z * (ad.x * bd.y - bd.x * ad.y));
            if rounded.to_bits() == ours.to_bits() {
                decided_by_filter += 1;
            } else {
                handed_over += 1;
            }
        }
        // Both paths ran.
        assert!(
            decided_by_filter > 1000 && handed_over > 100,
            "{decided_by_filter} {handed_over}"
        );
    }
}
