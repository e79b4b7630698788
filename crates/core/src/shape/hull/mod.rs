//! Convex hulls a polytope can trust. A hull only makes the support faster (hill
//! climbing) and gives the viewer something to draw: the support itself is the maximum
//! over the input points. So every hull is checked ([`check::check_hull`]) and, when
//! it fails, replaced: parry3d-f64's hull first (fast on small and middling sets, and
//! the one Coal comparisons were made with), then our exact Quickhull, then no hull at
//! all (support scans the points). From [`EXACT_FIRST_FROM`] distinct points on, the
//! exact Quickhull goes first: parry's hull zeroes a table as long as the input for
//! every point it adds, which makes it quadratic there (319 ms on 50 000 points on a
//! sphere, where the exact Quickhull takes 144 ms and Qhull 203 ms).
//! Which path a shape took is kept ([`HullSource`]) and shown to the user.

pub mod certificate;
pub mod check;
pub mod incremental;
pub mod orientation;
pub mod quickhull;
pub mod span;
pub mod surface;

use std::fmt;

use glam::DVec3;
use serde::{Deserialize, Serialize};

/// Where a polytope's hull came from.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum HullSource {
    /// Exactly flat (point, segment, polygon): hulled exactly in 1-D or 2-D.
    LowDimension,
    /// parry3d-f64's hull, which passed the check.
    Parry,
    /// parry's hull failed the check (or parry refused the set); our exact Quickhull's
    /// hull passed it.
    ExactQuickhull { parry_defect: String },
    /// A large set ([`EXACT_FIRST_FROM`] points or more): our exact Quickhull's hull,
    /// tried first there, passed the check.
    ExactQuickhullLarge,
    /// No hull passed the check: support scans every point, nothing is drawn as faces.
    Scan { why: String },
}

impl HullSource {
    /// A short label for the top bar and tables.
    pub fn label(&self) -> &'static str {
        match self {
            Self::LowDimension => "exact (flat)",
            Self::Parry => "parry hull, checked",
            Self::ExactQuickhull { .. } | Self::ExactQuickhullLarge => "exact quickhull, checked",
            Self::Scan { .. } => "no hull: scans points",
        }
    }
}

impl fmt::Display for HullSource {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::LowDimension => write!(f, "exact hull of a flat set (1-D or 2-D)"),
            Self::Parry => write!(f, "parry3d-f64's hull, checked"),
            Self::ExactQuickhull { parry_defect } => write!(
                f,
                "exact Quickhull, checked (parry's hull was rejected: {parry_defect})"
            ),
            Self::ExactQuickhullLarge => write!(
                f,
                "exact Quickhull, checked (first on sets of {EXACT_FIRST_FROM} points or more, \
                 where it is faster than parry's)"
            ),
            Self::Scan { why } => write!(
                f,
                "no hull passed the check ({why}); support scans every point"
            ),
        }
    }
}

/// A checked hull of a 3-D point set: triangles over input indices, outward.
#[derive(Clone, Debug)]
pub struct SolidHull {
    /// Empty when `source` is [`HullSource::Scan`].
    pub triangles: Vec<[usize; 3]>,
    pub source: HullSource,
}

/// From this many points on, the exact Quickhull is tried before parry's hull.
pub const EXACT_FIRST_FROM: usize = 20_000;

/// The hull of distinct, finite points that span three dimensions.
pub fn solid_hull(points: &[DVec3]) -> SolidHull {
    if points.len() >= EXACT_FIRST_FROM {
        if let Some(hull) = quickhull::exact_hull(points) {
            if check::check_hull(points, &hull.triangles).is_ok() {
                return SolidHull {
                    triangles: hull.triangles,
                    source: HullSource::ExactQuickhullLarge,
                };
            }
        }
    }
    let parry_defect = match parry_hull(points) {
        Ok(triangles) => {
            return SolidHull {
                triangles,
                source: HullSource::Parry,
            }
        }
        Err(defect) => defect,
    };
    match quickhull::exact_hull(points) {
        Some(hull) => match check::check_hull(points, &hull.triangles) {
            Ok(()) => SolidHull {
                triangles: hull.triangles,
                source: HullSource::ExactQuickhull { parry_defect },
            },
            Err(defect) => scan(format!("parry: {parry_defect}; exact Quickhull: {defect}")),
        },
        None => scan(format!(
            "parry: {parry_defect}; exact Quickhull: no volume or a broken horizon"
        )),
    }
}

/// parry's hull, checked, over input indices: the first input point with each vertex's
/// bits. Errors on sets it cannot hull (fewer than
/// 4 points in general position, needle-thin sets) and on hulls that fail the check.
fn parry_hull(points: &[DVec3]) -> Result<Vec<[usize; 3]>, String> {
    let input: Vec<parry3d_f64::math::Vector> = points
        .iter()
        .map(|p| parry3d_f64::math::Vector::new(p.x, p.y, p.z))
        .collect();
    let (vertices, triangles) =
        parry3d_f64::transformation::try_convex_hull(&input).map_err(|e| format!("{e:?}"))?;
    let vertices: Vec<DVec3> = vertices
        .into_iter()
        .map(|v| DVec3::new(v.x, v.y, v.z))
        .collect();
    if vertices.iter().any(|v| !v.is_finite()) || triangles.is_empty() {
        return Err("hull builder returned an unusable hull".to_string());
    }
    let triangles =
        check::input_indices(points, &vertices, &triangles).map_err(|d| d.to_string())?;
    check::check_hull(points, &triangles).map_err(|d| d.to_string())?;
    Ok(triangles)
}

/// How many planar faces a triangulated hull has: triangles sharing an edge are one
/// face when their four corners are exactly coplanar (a box: 12 triangles, 6 faces).
pub fn planar_face_count(points: &[DVec3], triangles: &[[u32; 3]]) -> usize {
    let mut parent: Vec<usize> = (0..triangles.len()).collect();
    fn root(parent: &mut [usize], mut i: usize) -> usize {
        while parent[i] != i {
            parent[i] = parent[parent[i]];
            i = parent[i];
        }
        i
    }
    let mut by_edge = std::collections::HashMap::new();
    for (t, tri) in triangles.iter().enumerate() {
        for k in 0..3 {
            let (a, b) = (tri[k], tri[(k + 1) % 3]);
            if let Some(&other) = by_edge.get(&(b, a)) {
                let other_tri: &[u32; 3] = &triangles[other];
                let apex = other_tri.iter().find(|v| **v != a && **v != b);
                let p = |v: u32| points[v as usize];
                if let Some(&apex) = apex {
                    if orientation::height(p(tri[0]), p(tri[1]), p(tri[2]), p(apex)) == 0.0 {
                        let (x, y) = (root(&mut parent, t), root(&mut parent, other));
                        parent[x] = y;
                    }
                }
            }
            by_edge.insert((a, b), t);
        }
    }
    (0..triangles.len())
        .filter(|&t| root(&mut parent, t) == t)
        .count()
}

fn scan(why: String) -> SolidHull {
    SolidHull {
        triangles: Vec::new(),
        source: HullSource::Scan { why },
    }
}
