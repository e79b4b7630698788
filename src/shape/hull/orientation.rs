//! The exact orientation test every hull and simplex decision rests on (Shewchuk,
//! "Adaptive Precision Floating-Point Arithmetic and Fast Robust Geometric Predicates",
//! through the `robust` crate), with its first stage inlined.

use glam::DVec3;
use robust::{orient3d, Coord3D};

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
    // orient3d is positive when `p` lies below the counter-clockwise plane.
    if det > bound || -det > bound {
        return -det;
    }
    -orient3d(coord(a), coord(b), coord(c), coord(p))
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
