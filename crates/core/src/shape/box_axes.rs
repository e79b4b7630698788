//! A box's geometry along an axis, for the separating-axis theorem (Gottschalk, Lin and
//! Manocha, "OBBTree: A Hierarchical Structure for Rapid Interference Detection";
//! Ericson, "Real-Time Collision Detection" §4.4): the 15 axes two boxes can be
//! separated along, and a box's half-width along an axis. The penetration depth's
//! closed form and the time of impact's box landing both use them.

use glam::{DMat3, DVec3};

/// A's three face normals, B's three (the rotation's columns), and the nine cross
/// products of one of each, normalised; cross products of parallel edges (no direction)
/// are left out: their faces' normals already hold the minimum. Filled in place (an
/// iterator chain over them was a third of a box query's time); inlined, so that the
/// axes are built where they are read rather than copied out.
#[inline(always)]
pub fn candidate_axes(r: DMat3) -> CandidateAxes {
    let a_axes = [DVec3::X, DVec3::Y, DVec3::Z];
    let b_axes = [r.x_axis, r.y_axis, r.z_axis];
    let mut axes = CandidateAxes {
        axes: [DVec3::ZERO; 15],
        len: 6,
    };
    axes.axes[..3].copy_from_slice(&a_axes);
    axes.axes[3..6].copy_from_slice(&b_axes);
    for u in a_axes {
        for w in b_axes {
            let c = u.cross(w);
            if c.length_squared() > 1e-24 {
                axes.axes[axes.len] = c.normalize();
                axes.len += 1;
            }
        }
    }
    axes
}

/// The axes [`candidate_axes`] found (up to 15), read as a slice.
pub struct CandidateAxes {
    axes: [DVec3; 15],
    len: usize,
}

impl std::ops::Deref for CandidateAxes {
    type Target = [DVec3];
    fn deref(&self) -> &[DVec3] {
        &self.axes[..self.len]
    }
}

/// Half the width of a box (half extents `h`, turned by `r`) along the unit `axis`.
pub fn radius(h: DVec3, r: DMat3, axis: DVec3) -> f64 {
    h.x * r.x_axis.dot(axis).abs() + h.y * r.y_axis.dot(axis).abs() + h.z * r.z_axis.dot(axis).abs()
}

/// [`radius`] of an unturned box: the same number (a finite axis's dot products with
/// the identity's columns are its coordinates), without the products by 0 and 1.
pub fn radius_unturned(h: DVec3, axis: DVec3) -> f64 {
    h.x * axis.x.abs() + h.y * axis.y.abs() + h.z * axis.z.abs()
}
