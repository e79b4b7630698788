//! What a composite shape is made of, as the midphase sees it: convex pieces, each with
//! its box in the composite's frame and its pose there. A triangle mesh's pieces are its
//! triangles (flat polytopes at the identity); a compound's are its convex parts at
//! their poses (parry's `Compound`, Coal's and MuJoCo's multi-geom bodies).

use std::borrow::Cow;

use glam::DVec3;

use super::trimesh::TriMesh;
use crate::minkowski::ROUND_OFF_PER_SIZE;
use crate::pose::RelativePose;
use crate::shape::{Aabb, Polytope, Shape, SupportMap};

/// One convex part of a compound, at its pose in the compound's frame.
#[derive(Clone, Debug, PartialEq)]
pub struct Part {
    pub shape: Shape,
    pub pose: RelativePose,
}

/// A composite's convex pieces.
#[derive(Clone, Debug, PartialEq)]
pub enum Pieces {
    Triangles(TriMesh),
    Parts(Vec<Part>),
}

impl Pieces {
    pub fn count(&self) -> usize {
        match self {
            Pieces::Triangles(mesh) => mesh.triangle_count(),
            Pieces::Parts(parts) => parts.len(),
        }
    }

    /// Piece `i` as a convex shape, and its pose in the composite's frame (`None`: the
    /// identity).
    pub fn piece(&self, i: usize) -> Option<(Cow<'_, Shape>, Option<RelativePose>)> {
        match self {
            Pieces::Triangles(mesh) => {
                let triangle = Polytope::triangle(mesh.corners(i)).ok()?;
                Some((Cow::Owned(Shape::Polytope(triangle)), None))
            }
            Pieces::Parts(parts) => {
                let part = parts.get(i)?;
                Some((Cow::Borrowed(&part.shape), Some(part.pose)))
            }
        }
    }

    /// A lower bound of the distance between triangle `i` and the convex `b` at `b_in_a`
    /// from the triangle's plane alone (how far `b` lies wholly on one side of it),
    /// rounded down; `None` for a part, or a degenerate triangle.
    pub fn plane_gap(&self, i: usize, b: &Shape, b_in_a: &RelativePose) -> Option<f64> {
        let Pieces::Triangles(mesh) = self else {
            return None;
        };
        let n = mesh.normal(i)?;
        let corners = mesh.corners(i);
        // The normal is only a direction (a sliver's is mostly round-off): the
        // triangle's own corners are measured along it, and `b` must clear their range.
        let own = corners.map(|c| n.dot(c));
        let (low, high) = (
            own.iter().copied().fold(f64::INFINITY, f64::min),
            own.iter().copied().fold(f64::NEG_INFINITY, f64::max),
        );
        let height = |dir: DVec3| {
            let x = b_in_a.transform_point(b.local_support(b_in_a.inverse_rotate(dir)));
            n.dot(x)
        };
        let below = height(-n) - high;
        let gap = if below > 0.0 {
            below
        } else {
            let above = low - height(n);
            if above > 0.0 {
                above
            } else {
                return Some(0.0);
            }
        };
        let size = corners.iter().map(|c| c.length()).fold(0.0, f64::max);
        let round_off = ROUND_OFF_PER_SIZE * (size + b_in_a.translation.length() + b.extent());
        Some((gap - round_off).max(0.0))
    }

    /// Piece `i`'s box in the composite's frame, widened by its round-off.
    pub fn piece_box(&self, i: usize) -> Aabb {
        match self {
            Pieces::Triangles(mesh) => {
                let b = mesh.triangle_aabb(i);
                let margin = ROUND_OFF_PER_SIZE * b.min.abs().max(b.max.abs()).max_element();
                b.widened(margin)
            }
            Pieces::Parts(parts) => shape_box(&parts[i].shape, &parts[i].pose),
        }
    }

    /// The box of every piece.
    pub fn whole_box(&self) -> Aabb {
        (0..self.count()).map(|i| self.piece_box(i)).fold(
            Aabb {
                min: DVec3::INFINITY,
                max: DVec3::NEG_INFINITY,
            },
            |a, b| Aabb {
                min: a.min.min(b.min),
                max: a.max.max(b.max),
            },
        )
    }

    /// The triangle mesh, when the pieces are triangles.
    pub fn mesh(&self) -> Option<&TriMesh> {
        match self {
            Pieces::Triangles(mesh) => Some(mesh),
            Pieces::Parts(_) => None,
        }
    }
}

/// A box in A's frame around the convex `b` at `b_in_a`, from its six axis supports,
/// widened by the round-off of the supports and the pose.
pub fn shape_box(b: &Shape, b_in_a: &RelativePose) -> Aabb {
    let mut min = DVec3::ZERO;
    let mut max = DVec3::ZERO;
    for axis in 0..3 {
        let e = DVec3::AXES[axis];
        let high = b_in_a.transform_point(b.local_support(b_in_a.inverse_rotate(e)));
        let low = b_in_a.transform_point(b.local_support(b_in_a.inverse_rotate(-e)));
        max[axis] = high[axis];
        min[axis] = low[axis];
    }
    Aabb { min, max }.widened(pose_round_off(b, b_in_a))
}

/// The round-off a point of `b` placed at `b_in_a` may carry (the supports' and the
/// pose's), as [`shape_box`] widens by.
pub fn pose_round_off(b: &Shape, b_in_a: &RelativePose) -> f64 {
    ROUND_OFF_PER_SIZE * (b_in_a.translation.length() + b.extent())
}

/// A box around `b` moved by `pose` (its eight corners, moved).
pub fn moved_box(b: &Aabb, pose: &RelativePose) -> Aabb {
    let mut min = DVec3::INFINITY;
    let mut max = DVec3::NEG_INFINITY;
    for k in 0..8 {
        let corner = DVec3::new(
            if k & 1 == 0 { b.min.x } else { b.max.x },
            if k & 2 == 0 { b.min.y } else { b.max.y },
            if k & 4 == 0 { b.min.z } else { b.max.z },
        );
        let p = pose.transform_point(corner);
        min = min.min(p);
        max = max.max(p);
    }
    let size = min.abs().max(max.abs()).max_element();
    Aabb { min, max }.widened(ROUND_OFF_PER_SIZE * size)
}
