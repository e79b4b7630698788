//! The exact affine span of a point set (point, line, plane or space) and the exact hulls
//! of the flat cases. Every decision uses exact orientation tests, so a set is called
//! flat only when it is flat as floating-point numbers: a plate 1e-12 thick stays a
//! solid (the 3-D hull handles it), and no thickness is ever dropped.

use glam::DVec3;
use robust::{Coord, Coord3D};

// The scaled predicates: exact signs even for points within 1e-100 of each other, where
// the plain ones' products underflow.
use super::orientation::{orient2d_scaled as orient2d, orient3d_scaled as orient3d};

/// How many dimensions distinct points span, with what the flat hulls need.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Span {
    Point,
    /// All points on one line; `axis` is the coordinate that orders them along it.
    Line {
        axis: usize,
    },
    /// All points in one plane; dropping coordinate `dropped` maps it onto a coordinate
    /// plane one to one (its normal leans on that axis most).
    Plane {
        dropped: usize,
    },
    Space,
}

/// The span of distinct, finite points (at least one).
pub fn affine_span(points: &[DVec3]) -> Span {
    let p0 = points[0];
    let distance2 = |p: &DVec3| (*p - p0).length_squared();
    let Some(i1) =
        (0..points.len()).max_by(|a, b| distance2(&points[*a]).total_cmp(&distance2(&points[*b])))
    else {
        return Span::Point;
    };
    let p1 = points[i1];
    if p1 == p0 {
        return Span::Point;
    }
    let direction = p1 - p0;
    let off_line = |p: &DVec3| direction.cross(*p - p0).length_squared();
    let best =
        (0..points.len()).max_by(|a, b| off_line(&points[*a]).total_cmp(&off_line(&points[*b])));
    // The float choice is only a preference; exactness decides.
    let i2 = best
        .filter(|&i| !collinear(p0, p1, points[i]))
        .or_else(|| (0..points.len()).find(|&i| !collinear(p0, p1, points[i])));
    let Some(i2) = i2 else {
        return Span::Line {
            axis: direction.abs().max_position(),
        };
    };
    let p2 = points[i2];
    if points
        .iter()
        .any(|q| orient3d(c3(p0), c3(p1), c3(p2), c3(*q)) != 0.0)
    {
        return Span::Space;
    }
    let normal = (p1 - p0).cross(p2 - p0);
    Span::Plane {
        dropped: normal.abs().max_position(),
    }
}

/// Exactly collinear: the cross product's components are the orientations of the three
/// coordinate-plane projections.
pub fn collinear(a: DVec3, b: DVec3, c: DVec3) -> bool {
    (0..3).all(|k| {
        let (i, j) = ((k + 1) % 3, (k + 2) % 3);
        orient2d(c2(a, i, j), c2(b, i, j), c2(c, i, j)) == 0.0
    })
}

fn c3(p: DVec3) -> Coord3D<f64> {
    Coord3D {
        x: p.x,
        y: p.y,
        z: p.z,
    }
}

fn c2(p: DVec3, i: usize, j: usize) -> Coord<f64> {
    Coord { x: p[i], y: p[j] }
}

/// The two ends of collinear points (first indices in input order), ordered along `axis`.
pub fn segment_ends(points: &[DVec3], axis: usize) -> (usize, usize) {
    let (mut lo, mut hi) = (0, 0);
    for (i, p) in points.iter().enumerate() {
        if p[axis] < points[lo][axis] {
            lo = i;
        }
        if p[axis] > points[hi][axis] {
            hi = i;
        }
    }
    (lo, hi)
}

/// Indices of the hull of coplanar points, counter-clockwise in the coordinate plane
/// left after dropping `dropped`, without collinear points: Andrew's monotone chain with
/// exact orientation tests. Never empty for non-empty input.
pub fn planar_hull_indices(points: &[DVec3], dropped: usize) -> Vec<usize> {
    let (i, j) = ((dropped + 1) % 3, (dropped + 2) % 3);
    let planar: Vec<Coord<f64>> = points.iter().map(|p| c2(*p, i, j)).collect();
    let mut order: Vec<usize> = (0..points.len()).collect();
    order.sort_by(|&a, &b| {
        planar[a]
            .x
            .total_cmp(&planar[b].x)
            .then(planar[a].y.total_cmp(&planar[b].y))
    });
    let turns_left = |o: usize, a: usize, b: usize| orient2d(planar[o], planar[a], planar[b]) > 0.0;
    let mut hull: Vec<usize> = Vec::with_capacity(points.len() + 1);
    for pass in 0..2 {
        let start = hull.len();
        let sweep: Box<dyn Iterator<Item = &usize>> = if pass == 0 {
            Box::new(order.iter())
        } else {
            Box::new(order.iter().rev())
        };
        for &k in sweep {
            while hull.len() >= start + 2
                && !turns_left(hull[hull.len() - 2], hull[hull.len() - 1], k)
            {
                hull.pop();
            }
            hull.push(k);
        }
        hull.pop();
    }
    if hull.is_empty() {
        hull.push(order[0]);
    }
    hull
}

/// [`planar_hull_indices`] of three points that are not collinear, without its
/// allocations (a mesh query builds a triangle per sub-pair): the lexicographically
/// least point in the projection first, then the other two counter-clockwise.
pub fn triangle_ring(points: &[DVec3; 3], dropped: usize) -> [usize; 3] {
    let (i, j) = ((dropped + 1) % 3, (dropped + 2) % 3);
    let planar = points.map(|p| c2(p, i, j));
    let mut order = [0, 1, 2];
    order.sort_by(|&a, &b| {
        planar[a]
            .x
            .total_cmp(&planar[b].x)
            .then(planar[a].y.total_cmp(&planar[b].y))
    });
    let [o0, o1, o2] = order;
    if orient2d(planar[o0], planar[o1], planar[o2]) > 0.0 {
        [o0, o1, o2]
    } else {
        [o0, o2, o1]
    }
}

/// Whether the origin lies on segment `ab` (ends included), exactly: collinear by exact
/// signs, and between the ends in every coordinate (exact comparisons; on the line
/// each coordinate moves linearly with the position).
pub fn origin_on_segment(a: DVec3, b: DVec3) -> bool {
    if a == b {
        return a == DVec3::ZERO;
    }
    collinear(a, b, DVec3::ZERO) && (0..3).all(|i| a[i].min(b[i]) <= 0.0 && 0.0 <= a[i].max(b[i]))
}

/// Whether the origin lies in triangle `abc` (boundary included), exactly: in its
/// plane by an exact sign, and inside it in each coordinate projection (no two exact
/// 2-D orientations of opposite sign; the projection along the normal's largest
/// component keeps the triangle whole). Collinear corners: `false` (ask the segments).
pub fn origin_in_triangle(a: DVec3, b: DVec3, c: DVec3) -> bool {
    let o = DVec3::ZERO;
    if collinear(a, b, c) || orient3d(c3(a), c3(b), c3(c), c3(o)) != 0.0 {
        return false;
    }
    (0..3).all(|k| {
        let (i, j) = ((k + 1) % 3, (k + 2) % 3);
        let signs = [
            orient2d(c2(a, i, j), c2(b, i, j), c2(o, i, j)),
            orient2d(c2(b, i, j), c2(c, i, j), c2(o, i, j)),
            orient2d(c2(c, i, j), c2(a, i, j), c2(o, i, j)),
        ];
        !(signs.iter().any(|s| *s > 0.0) && signs.iter().any(|s| *s < 0.0))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thin_but_not_flat_sets_are_solid() {
        let mut points = vec![
            DVec3::ZERO,
            DVec3::X * 1e6,
            DVec3::Y,
            DVec3::new(1.0, 1.0, 0.0),
        ];
        assert!(matches!(affine_span(&points), Span::Plane { dropped: 2 }));
        points.push(DVec3::new(0.5, 0.5, 1e-12));
        assert_eq!(affine_span(&points), Span::Space);
    }

    #[test]
    fn collinear_and_single_points() {
        let line: Vec<DVec3> = (0..5)
            .map(|i| DVec3::new(1.0, 2.0, 3.0) * i as f64)
            .collect();
        assert!(matches!(affine_span(&line), Span::Line { axis: 2 }));
        assert_eq!(affine_span(&[DVec3::ONE]), Span::Point);
        assert_eq!(segment_ends(&line, 2), (0, 4));
    }

    #[test]
    fn rotated_square_with_interior_points() {
        let points: Vec<DVec3> = [
            (0.0, 0.0),
            (2.0, 0.0),
            (2.0, 2.0),
            (0.0, 2.0),
            (1.0, 1.0),
            (1.0, 0.0),
        ]
        .iter()
        .map(|(u, v)| DVec3::new(*u, *v, 0.5 * u))
        .collect();
        let span = affine_span(&points);
        let Span::Plane { dropped } = span else {
            panic!("{span:?}")
        };
        let mut hull = planar_hull_indices(&points, dropped);
        hull.sort_unstable();
        assert_eq!(hull, vec![0, 1, 2, 3]);
    }
}
