//! The check every 3-D hull passes before a polytope trusts it: its vertices are input
//! points, its triangles close up into one surface, no input point lies outside any of
//! its faces (beyond a tolerance relative to the set's size), and it reaches the input's
//! extreme value along each coordinate axis and each principal axis exactly.
//!
//! Containment is proved in near-linear time when the surface is proved convex
//! ([`super::certificate`]): each point is then tested against the one face whose cone
//! holds it. Points that this does not prove inside, and surfaces it cannot prove
//! convex, get the face-by-face test, which decides (and names the defect) exactly as
//! it did alone.

use std::collections::HashMap;
use std::fmt;

use glam::{DMat3, DVec3};

use super::certificate::certify_convex;
use super::orientation::height;
use super::surface::{closed_surface, Surface};

/// How far outside a face an input point may lie, relative to the diagonal of the input's
/// bounding box: a few hundred units of round-off, far below any real feature.
pub const HULL_TOLERANCE: f64 = 1e-12;

/// What is wrong with a candidate hull.
#[derive(Clone, Debug, PartialEq)]
pub enum HullDefect {
    NoFaces,
    NotAnInputPoint {
        vertex: usize,
    },
    /// An edge is not shared by exactly two faces in opposite directions.
    OpenSurface {
        from: usize,
        to: usize,
    },
    PointOutside {
        point: usize,
        face: usize,
        distance: f64,
    },
    MissesExtreme {
        direction: DVec3,
        input: f64,
        hull: f64,
    },
}

impl fmt::Display for HullDefect {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::NoFaces => write!(f, "it has no faces"),
            Self::NotAnInputPoint { vertex } => {
                write!(f, "its vertex {vertex} is not one of the input points")
            }
            Self::OpenSurface { from, to } => {
                write!(f, "edge {from}–{to} is not shared by exactly two faces")
            }
            Self::PointOutside {
                point,
                face,
                distance,
            } => write!(
                f,
                "input point {point} lies {distance:.3e} outside its face {face}"
            ),
            Self::MissesExtreme {
                direction,
                input,
                hull,
            } => write!(
                f,
                "along ({:.3}, {:.3}, {:.3}) it reaches {hull:.6e}, the points reach {input:.6e}",
                direction.x, direction.y, direction.z
            ),
        }
    }
}

/// Maps hull vertices (as points) back to input indices by exact bit pattern: the first
/// input point with each hull vertex's bits. Only the hull's points are hashed (a
/// small table the input is streamed past), with a multiplicative hash: hashing every
/// input point with the standard hasher was a fifth of checking a 50 000-point hull.
pub fn input_indices(
    input: &[DVec3],
    hull_points: &[DVec3],
    triangles: &[[u32; 3]],
) -> Result<Vec<[usize; 3]>, HullDefect> {
    let mut first: HashMap<[u64; 3], usize, BitsHash> =
        HashMap::with_capacity_and_hasher(hull_points.len(), BitsHash);
    for p in hull_points {
        first.insert(bits(*p), usize::MAX);
    }
    for (i, p) in input.iter().enumerate() {
        if let Some(slot) = first.get_mut(&bits(*p)) {
            if *slot == usize::MAX {
                *slot = i;
            }
        }
    }
    let mapped: Vec<usize> = hull_points
        .iter()
        .enumerate()
        .map(|(h, p)| match first[&bits(*p)] {
            usize::MAX => Err(HullDefect::NotAnInputPoint { vertex: h }),
            i => Ok(i),
        })
        .collect::<Result<_, _>>()?;
    Ok(triangles
        .iter()
        .map(|t| t.map(|v| mapped[v as usize]))
        .collect())
}

/// A multiplicative hash of a point's bits (Knuth's golden-ratio multiplier, folded):
/// table keys here are distinct points, not adversarial input.
#[derive(Clone, Copy, Default)]
pub(crate) struct BitsHash;

impl std::hash::BuildHasher for BitsHash {
    type Hasher = BitsHasher;
    fn build_hasher(&self) -> BitsHasher {
        BitsHasher(0)
    }
}

pub(crate) struct BitsHasher(u64);

impl std::hash::Hasher for BitsHasher {
    fn write(&mut self, bytes: &[u8]) {
        for chunk in bytes.chunks(8) {
            let mut word = [0u8; 8];
            word[..chunk.len()].copy_from_slice(chunk);
            self.write_u64(u64::from_le_bytes(word));
        }
    }

    fn write_u64(&mut self, word: u64) {
        self.0 = (self.0.rotate_left(26) ^ word).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    }

    fn write_usize(&mut self, _length: usize) {} // the array's length: always 3

    fn finish(&self) -> u64 {
        self.0 ^ (self.0 >> 29)
    }
}

/// Bit patterns with −0 read as +0.
pub(crate) fn bits(p: DVec3) -> [u64; 3] {
    let p = p + DVec3::ZERO;
    [p.x.to_bits(), p.y.to_bits(), p.z.to_bits()]
}

/// Checks a triangulated hull given over input indices.
pub fn check_hull(points: &[DVec3], triangles: &[[usize; 3]]) -> Result<(), HullDefect> {
    if triangles.is_empty() {
        return Err(HullDefect::NoFaces);
    }
    if let Some(&v) = triangles.iter().flatten().find(|&&v| v >= points.len()) {
        return Err(HullDefect::NotAnInputPoint { vertex: v });
    }
    let surface = closed_surface(triangles, points.len())?;
    check_extremes(points, triangles)?;
    check_contains(points, triangles, &surface)
}

/// The hull's vertices reach the same maximum as the input along ±x, ±y, ±z and ± each
/// principal axis (same products of the same numbers, so equality is exact). One pass
/// over the points for all twelve directions.
fn check_extremes(points: &[DVec3], triangles: &[[usize; 3]]) -> Result<(), HullDefect> {
    let mut used = vec![false; points.len()];
    for &v in triangles.iter().flatten() {
        used[v] = true;
    }
    let axes = principal_axes(points);
    let directions: Vec<DVec3> = DVec3::AXES
        .into_iter()
        .chain(axes)
        .flat_map(|axis| [axis, -axis])
        .collect();
    let mut input = [f64::MIN; 12];
    let mut hull = [f64::MIN; 12];
    for (p, &u) in points.iter().zip(&used) {
        for (k, direction) in directions.iter().enumerate() {
            let along = p.dot(*direction);
            input[k] = input[k].max(along);
            if u {
                hull[k] = hull[k].max(along);
            }
        }
    }
    match (0..12).find(|&k| hull[k] != input[k]) {
        Some(k) => Err(HullDefect::MissesExtreme {
            direction: directions[k],
            input: input[k],
            hull: hull[k],
        }),
        None => Ok(()),
    }
}

/// No input point lies outside any face by more than [`HULL_TOLERANCE`] of the set's
/// size. When the surface is proved convex ([`certify_convex`]), a walk per point
/// proves most points inside exactly and only the rest are tested against every face;
/// otherwise every point is. Either way the same pairs decide, so the answer (and the
/// defect named, which always comes from the full pass) is the full pass's.
fn check_contains(
    points: &[DVec3],
    triangles: &[[usize; 3]],
    surface: &Surface,
) -> Result<(), HullDefect> {
    let unproved = match certify_convex(points, triangles, surface) {
        Ok(certificate) => certificate.points_not_proved_inside(),
        Err(_) => return FaceTests::new(points, triangles).every_point(points),
    };
    if unproved.is_empty() {
        return Ok(());
    }
    let faces = FaceTests::new(points, triangles);
    for &point in &unproved {
        if (0..triangles.len()).any(|face| faces.outside(face, points[point]).is_some()) {
            return faces.every_point(points);
        }
    }
    Ok(())
}

/// Each face's float plane and the round-off slack of the float distance to it: the
/// cheap test that skips points far inside before the exact sign decides.
struct FaceTests<'a> {
    points: &'a [DVec3],
    triangles: &'a [[usize; 3]],
    planes: Vec<Option<(DVec3, f64, f64)>>,
    tolerance: f64,
}

impl<'a> FaceTests<'a> {
    fn new(points: &'a [DVec3], triangles: &'a [[usize; 3]]) -> Self {
        let (lo, hi) = bounds(points);
        let size = (hi - lo).length();
        let planes = triangles
            .iter()
            .map(|t| {
                let (a, b, c) = (points[t[0]], points[t[1]], points[t[2]]);
                let n = (b - a).cross(c - a);
                let area2 = n.length();
                // A sliver of zero area bounds nothing; its neighbours do.
                (area2 != 0.0).then(|| {
                    // Round-off of the float distance: the normal's direction error
                    // grows as the triangle gets thinner (|ab||ac| / |n| is 1 / sin of
                    // its angle at a).
                    let slack =
                        64.0 * f64::EPSILON * size * ((b - a).length() * (c - a).length() / area2);
                    (n / area2, area2, slack)
                })
            })
            .collect();
        Self {
            points,
            triangles,
            planes,
            tolerance: HULL_TOLERANCE * size,
        }
    }

    /// How far `p` lies outside `face`, when that is beyond the tolerance.
    fn outside(&self, face: usize, p: DVec3) -> Option<f64> {
        let (unit, area2, slack) = self.planes[face]?;
        let t = self.triangles[face];
        let (a, b, c) = (self.points[t[0]], self.points[t[1]], self.points[t[2]]);
        if unit.dot(p - a) < -slack {
            return None;
        }
        let distance = height(a, b, c, p) / area2;
        (distance > self.tolerance).then_some(distance)
    }

    /// Every point against every face, faces in order: the first defect found.
    fn every_point(&self, points: &[DVec3]) -> Result<(), HullDefect> {
        for face in 0..self.triangles.len() {
            for (point, p) in points.iter().enumerate() {
                if let Some(distance) = self.outside(face, *p) {
                    return Err(HullDefect::PointOutside {
                        point,
                        face,
                        distance,
                    });
                }
            }
        }
        Ok(())
    }
}

pub fn bounds(points: &[DVec3]) -> (DVec3, DVec3) {
    points.iter().fold(
        (DVec3::splat(f64::INFINITY), DVec3::splat(f64::NEG_INFINITY)),
        |(lo, hi), p| (lo.min(*p), hi.max(*p)),
    )
}

/// Unit eigenvectors of the points' covariance (Jacobi rotations on a 3×3 matrix).
pub fn principal_axes(points: &[DVec3]) -> [DVec3; 3] {
    let n = points.len().max(1) as f64;
    let mean = points.iter().copied().sum::<DVec3>() / n;
    let mut m = [[0.0f64; 3]; 3];
    for p in points {
        let d = *p - mean;
        let d = d.to_array();
        for (i, row) in m.iter_mut().enumerate() {
            for (j, entry) in row.iter_mut().enumerate() {
                *entry += d[i] * d[j] / n;
            }
        }
    }
    let mut v = DMat3::IDENTITY.to_cols_array_2d();
    for _sweep in 0..32 {
        let off = m[0][1].abs() + m[0][2].abs() + m[1][2].abs();
        if off == 0.0 || !off.is_finite() {
            break;
        }
        for (p, q) in [(0, 1), (0, 2), (1, 2)] {
            if m[p][q] == 0.0 {
                continue;
            }
            let theta = (m[q][q] - m[p][p]) / (2.0 * m[p][q]);
            let t = theta.signum() / (theta.abs() + (theta * theta + 1.0).sqrt());
            let t = if theta == 0.0 { 1.0 } else { t };
            let (c, s) = (1.0 / (t * t + 1.0).sqrt(), t / (t * t + 1.0).sqrt());
            // m ← Jᵀ m J: columns p and q, then rows p and q.
            for row in m.iter_mut() {
                let (mkp, mkq) = (row[p], row[q]);
                row[p] = c * mkp - s * mkq;
                row[q] = s * mkp + c * mkq;
            }
            let (row_p, row_q) = (m[p], m[q]);
            for k in 0..3 {
                m[p][k] = c * row_p[k] - s * row_q[k];
                m[q][k] = s * row_p[k] + c * row_q[k];
            }
            // Columns of v are the eigenvectors.
            for row in v.iter_mut() {
                let (vp, vq) = (row[p], row[q]);
                row[p] = c * vp - s * vq;
                row[q] = s * vp + c * vq;
            }
        }
    }
    // `v` was filled row-major as [row][col]; read its columns.
    let column = |j: usize| DVec3::new(v[0][j], v[1][j], v[2][j]).normalize_or_zero();
    [column(0), column(1), column(2)]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn principal_axes_of_a_rotated_needle() {
        let axis = DVec3::new(1.0, 2.0, -0.5).normalize();
        let side = axis.any_orthonormal_vector();
        let points: Vec<DVec3> = (0..50)
            .map(|i| axis * (i as f64) + side * ((i % 3) as f64 * 0.01))
            .collect();
        let axes = principal_axes(&points);
        assert!(
            axes.iter().any(|a| a.dot(axis).abs() > 1.0 - 1e-9),
            "{axes:?}"
        );
        for (i, a) in axes.iter().enumerate() {
            for b in &axes[i + 1..] {
                assert!(a.dot(*b).abs() < 1e-9);
            }
        }
    }

    /// A box 1e4 × 1 × 1.
    fn needle_box() -> Vec<DVec3> {
        (0..8)
            .map(|i| {
                let pick = |bit: usize, v: f64| if i & bit == 0 { 0.0 } else { v };
                DVec3::new(pick(1, 1e4), pick(2, 1.0), pick(4, 1.0))
            })
            .collect()
    }

    #[test]
    fn a_collapsed_hull_is_caught() {
        // A needle box hulled as just its two end points (what parry returns).
        let points = needle_box();
        let collapsed = [[0, 1, 7], [7, 1, 0]];
        assert!(check_hull(&points, &collapsed).is_err());
    }

    #[test]
    fn an_exact_hull_passes() {
        let points = needle_box();
        let hull = super::super::quickhull::exact_hull(&points).unwrap();
        assert_eq!(check_hull(&points, &hull.triangles), Ok(()));
    }
}
