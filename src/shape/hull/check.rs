//! The check every 3-D hull passes before a polytope trusts it: its vertices are input
//! points, its triangles close up into one surface, no input point lies outside any of
//! its faces (beyond a tolerance relative to the set's size), and it reaches the input's
//! extreme value along each coordinate axis and each principal axis exactly.

use std::collections::HashMap;
use std::fmt;

use glam::{DMat3, DVec3};

use super::orientation::height;

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

/// Maps hull vertices (as points) back to input indices by exact bit pattern.
pub fn input_indices(
    input: &[DVec3],
    hull_points: &[DVec3],
    triangles: &[[u32; 3]],
) -> Result<Vec<[usize; 3]>, HullDefect> {
    let mut index = HashMap::with_capacity(input.len());
    for (i, p) in input.iter().enumerate() {
        index.entry(bits(*p)).or_insert(i);
    }
    let mapped: Vec<usize> = hull_points
        .iter()
        .enumerate()
        .map(|(h, p)| {
            index
                .get(&bits(*p))
                .copied()
                .ok_or(HullDefect::NotAnInputPoint { vertex: h })
        })
        .collect::<Result<_, _>>()?;
    Ok(triangles
        .iter()
        .map(|t| t.map(|v| mapped[v as usize]))
        .collect())
}

/// Bit patterns with −0 read as +0.
fn bits(p: DVec3) -> [u64; 3] {
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
    check_closed(triangles)?;
    check_extremes(points, triangles)?;
    check_contains(points, triangles)
}

fn check_closed(triangles: &[[usize; 3]]) -> Result<(), HullDefect> {
    let mut directed: HashMap<(usize, usize), u32> = HashMap::with_capacity(triangles.len() * 3);
    for t in triangles {
        for i in 0..3 {
            *directed.entry((t[i], t[(i + 1) % 3])).or_default() += 1;
        }
    }
    // The first bad edge in the triangles' order: the same message on every run.
    for t in triangles {
        for i in 0..3 {
            let (from, to) = (t[i], t[(i + 1) % 3]);
            if directed[&(from, to)] != 1 || directed.get(&(to, from)) != Some(&1) {
                return Err(HullDefect::OpenSurface { from, to });
            }
        }
    }
    Ok(())
}

/// The hull's vertices reach the same maximum as the input along ±x, ±y, ±z and ± each
/// principal axis (same products of the same numbers, so equality is exact).
fn check_extremes(points: &[DVec3], triangles: &[[usize; 3]]) -> Result<(), HullDefect> {
    let mut used = vec![false; points.len()];
    for &v in triangles.iter().flatten() {
        used[v] = true;
    }
    let axes = principal_axes(points);
    let directions = DVec3::AXES.into_iter().chain(axes);
    for axis in directions {
        for direction in [axis, -axis] {
            let input = points
                .iter()
                .map(|p| p.dot(direction))
                .fold(f64::MIN, f64::max);
            let hull = points
                .iter()
                .zip(&used)
                .filter(|(_, u)| **u)
                .map(|(p, _)| p.dot(direction))
                .fold(f64::MIN, f64::max);
            if hull != input {
                return Err(HullDefect::MissesExtreme {
                    direction,
                    input,
                    hull,
                });
            }
        }
    }
    Ok(())
}

/// No input point lies outside any face by more than [`HULL_TOLERANCE`] of the set's
/// size. The exact sign decides; a cheap float distance skips points far inside.
fn check_contains(points: &[DVec3], triangles: &[[usize; 3]]) -> Result<(), HullDefect> {
    let (lo, hi) = bounds(points);
    let size = (hi - lo).length();
    let tolerance = HULL_TOLERANCE * size;
    for (face, t) in triangles.iter().enumerate() {
        let (a, b, c) = (points[t[0]], points[t[1]], points[t[2]]);
        let n = (b - a).cross(c - a);
        let area2 = n.length();
        if area2 == 0.0 {
            continue; // a sliver of zero area bounds nothing; its neighbours do
        }
        let unit = n / area2;
        // Round-off of the float distance: the normal's direction error grows as the
        // triangle gets thinner (|ab||ac| / |n| is 1 / sin of its angle at a).
        let slack = 64.0 * f64::EPSILON * size * ((b - a).length() * (c - a).length() / area2);
        for (point, p) in points.iter().enumerate() {
            if unit.dot(*p - a) < -slack {
                continue;
            }
            let distance = height(a, b, c, *p) / area2;
            if distance > tolerance {
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
