//! GJK's Voronoi regions, as step pictures: in the plane every region of the simplex
//! the step projected (its vertices before reduction: the last simplex and the new
//! support), shaded by kind with the region holding the origin stronger, and the
//! support line; in space the region that holds the origin (the prism over the nearest
//! face, the slab along the nearest edge, the cone of the nearest vertex, or the
//! tetrahedron itself). Why a vertex is dropped is visible: the origin's region belongs
//! to a feature without it (Muratori's argument, lesson 4).

use glam::{DVec2, DVec3};

use super::{Faces, Rgba, Sketch, SketchContext, COLOUR_SUPPORT};
use crate::solver::GjkRecord;

/// Which feature of the simplex a region belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RegionKind {
    Vertex,
    Edge,
    Interior,
}

/// The shading of the planar regions by kind (vertex, edge, interior) and of the
/// region holding the origin (also the spatial region's).
pub const REGION_TINTS: [Rgba; 3] = [
    Rgba([0.90, 0.62, 0.0, 0.24]),
    Rgba([0.34, 0.71, 0.91, 0.24]),
    Rgba([0.0, 0.62, 0.45, 0.24]),
];
pub const ORIGIN_REGION_TINT: Rgba = Rgba([0.80, 0.47, 0.65, 0.45]);
/// The spatial region's tint (lighter: a solid seen through).
pub const ORIGIN_REGION_TINT_3D: Rgba = Rgba([0.80, 0.47, 0.65, 0.30]);

/// The GJK step at `index` (clamped), as the Voronoi drawings need it: the simplex the
/// step projected (the last step's simplex and the new support), the vertices it kept,
/// the support point and the direction (all in A's frame).
pub struct ProjectedStep {
    pub projected: Vec<DVec3>,
    pub kept: Vec<DVec3>,
    pub support: DVec3,
    pub direction: DVec3,
}

pub fn projected_step(records: &[GjkRecord], index: usize) -> Option<ProjectedStep> {
    let index = index.min(records.len().checked_sub(1)?);
    let record = &records[index];
    let support = record.step.support.as_ref()?.point.w;
    let points = |k: usize| records[k].step.simplex.iter().map(|v| v.point.w);
    let mut projected: Vec<DVec3> = index
        .checked_sub(1)
        .map_or(Vec::new(), |p| points(p).collect());
    projected.push(support);
    Some(ProjectedStep {
        projected,
        kept: points(index).collect(),
        support,
        direction: record.step.direction,
    })
}

/// How far above `A ⊖ B` the planar regions are drawn (the view looks down −z): over
/// the flat shapes, the support line a little higher; little enough that a perspective
/// camera (the web page's) sees them in place.
pub fn planar_lift(context: &SketchContext) -> f64 {
    context.space.radius.max(0.1) * 0.02
}

/// Step `index`'s regions, as the layers ask: every planar region, or the spatial
/// region that holds the origin (the region layer); in the plane the support line (the
/// support direction's layer).
pub fn region_sketch(records: &[GjkRecord], index: usize, context: &SketchContext) -> Sketch {
    let mut sketch = Sketch::default();
    let Some(step) = projected_step(records, index) else {
        return sketch;
    };
    let space = &context.space;
    if !context.planar {
        if !context.layers.region {
            return sketch;
        }
        let triangles = origin_region(&step.projected, &step.kept);
        if !triangles.is_empty() {
            sketch.faces.push(Faces {
                triangles: (triangles.iter())
                    .map(|t| t.map(|p| space.world_point(p)))
                    .collect(),
                colour: ORIGIN_REGION_TINT_3D,
            });
        }
        return sketch;
    }
    let flat = |w: DVec3| DVec2::new(w.x, w.y);
    let simplex: Vec<DVec2> = step.projected.iter().map(|p| flat(*p)).collect();
    let bounds = region_box(&simplex);
    let regions = if context.layers.region {
        voronoi_regions(&simplex, bounds)
    } else {
        Vec::new()
    };
    let origin = (regions.iter()).position(|(_, polygon)| contains(polygon, DVec2::ZERO));
    let lift = DVec3::Z * planar_lift(context);
    let world = |p: DVec2| space.world_point(DVec3::new(p.x, p.y, 0.0)) + lift;
    let fan = |polygon: &[DVec2]| -> Vec<[DVec3; 3]> {
        (1..polygon.len().saturating_sub(1))
            .map(|i| [world(polygon[0]), world(polygon[i]), world(polygon[i + 1])])
            .collect()
    };
    for (kind, tint) in [RegionKind::Vertex, RegionKind::Edge, RegionKind::Interior]
        .into_iter()
        .zip(REGION_TINTS)
    {
        // The origin's region among them, and once more on its own over them.
        let triangles: Vec<[DVec3; 3]> = (regions.iter())
            .filter(|(of, _)| *of == kind)
            .flat_map(|(_, polygon)| fan(polygon))
            .collect();
        if !triangles.is_empty() {
            sketch.faces.push(Faces {
                triangles,
                colour: tint,
            });
        }
    }
    if let Some(k) = origin {
        sketch.faces.push(Faces {
            triangles: fan(&regions[k].1),
            colour: ORIGIN_REGION_TINT,
        });
    }
    // The support line: where the support point's plane (normal −d) meets the plane.
    if let (true, Some(d)) = (
        context.layers.support_direction,
        flat(step.direction).try_normalize(),
    ) {
        let (lo, hi) = bounds;
        let along = d.perp() * (hi - lo).length();
        let support = flat(step.support);
        let above = DVec3::Z * planar_lift(context) * 0.5;
        sketch.line(
            world(support - along) + above,
            world(support + along) + above,
            COLOUR_SUPPORT,
        );
    }
    sketch
}

/// The box the regions are cut to: around the simplex and the origin, half again as
/// wide.
pub fn region_box(simplex: &[DVec2]) -> (DVec2, DVec2) {
    let (lo, hi) = simplex
        .iter()
        .fold((DVec2::ZERO, DVec2::ZERO), |(lo, hi), p| {
            (lo.min(*p), hi.max(*p))
        });
    let margin = ((hi - lo).length() * 0.5).max(0.1);
    (lo - DVec2::splat(margin), hi + DVec2::splat(margin))
}

/// The Voronoi regions of a point, segment or triangle's features, each a convex
/// polygon cut to the box `(lo, hi)`. A lone point's region is the whole box.
pub fn voronoi_regions(
    simplex: &[DVec2],
    (lo, hi): (DVec2, DVec2),
) -> Vec<(RegionKind, Vec<DVec2>)> {
    let square = vec![lo, DVec2::new(hi.x, lo.y), hi, DVec2::new(lo.x, hi.y)];
    // A half-plane {p : ⟨n, p − a⟩ ≤ 0}.
    let cut = |polygon: Vec<DVec2>, halves: &[(DVec2, DVec2)]| {
        halves
            .iter()
            .fold(polygon, |poly, &(n, a)| clip(&poly, n, a))
    };
    let mut regions = Vec::new();
    match simplex {
        [] => {}
        [_] => regions.push((RegionKind::Vertex, square)),
        [a, b] => {
            let e = *b - *a;
            regions.push((RegionKind::Vertex, cut(square.clone(), &[(e, *a)])));
            regions.push((RegionKind::Vertex, cut(square.clone(), &[(-e, *b)])));
            regions.push((RegionKind::Edge, cut(square, &[(-e, *a), (e, *b)])));
        }
        [a, b, c] => {
            let v = [*a, *b, *c];
            // The triangle's outward edge normals (whatever its orientation).
            let centroid = (v[0] + v[1] + v[2]) / 3.0;
            let outward = |i: usize, j: usize| {
                let n = (v[j] - v[i]).perp();
                if n.dot(centroid - v[i]) > 0.0 {
                    -n
                } else {
                    n
                }
            };
            for i in 0..3 {
                let (j, k) = ((i + 1) % 3, (i + 2) % 3);
                regions.push((
                    RegionKind::Vertex,
                    cut(square.clone(), &[(v[j] - v[i], v[i]), (v[k] - v[i], v[i])]),
                ));
            }
            for i in 0..3 {
                let j = (i + 1) % 3;
                let e = v[j] - v[i];
                regions.push((
                    RegionKind::Edge,
                    cut(
                        square.clone(),
                        &[(-e, v[i]), (e, v[j]), (-outward(i, j), v[i])],
                    ),
                ));
            }
            let inside: Vec<(DVec2, DVec2)> =
                (0..3).map(|i| (outward(i, (i + 1) % 3), v[i])).collect();
            regions.push((RegionKind::Interior, cut(square, &inside)));
        }
        _ => {}
    }
    regions.retain(|(_, p)| p.len() >= 3);
    regions
}

/// Sutherland–Hodgman: the part of a convex polygon with `⟨n, p − a⟩ ≤ 0`.
fn clip(polygon: &[DVec2], n: DVec2, a: DVec2) -> Vec<DVec2> {
    let side = |p: DVec2| n.dot(p - a);
    let mut out = Vec::with_capacity(polygon.len() + 1);
    for (i, &p) in polygon.iter().enumerate() {
        let q = polygon[(i + 1) % polygon.len()];
        let (sp, sq) = (side(p), side(q));
        if sp <= 0.0 {
            out.push(p);
        }
        if (sp < 0.0 && sq > 0.0) || (sp > 0.0 && sq < 0.0) {
            out.push(p + (q - p) * (sp / (sp - sq)));
        }
    }
    out
}

/// Whether a convex polygon holds `p` (its boundary included).
pub fn contains(polygon: &[DVec2], p: DVec2) -> bool {
    let mut sign = 0.0f64;
    for (i, &a) in polygon.iter().enumerate() {
        let b = polygon[(i + 1) % polygon.len()];
        let s = (b - a).perp_dot(p - a);
        if s != 0.0 {
            if sign != 0.0 && s.signum() != sign {
                return false;
            }
            sign = s.signum();
        }
    }
    true
}

/// Triangles that draw the origin's region for a projection of `projected` (2 to 4
/// points) that kept `kept`, cut at a length that reaches past the origin.
pub fn origin_region(projected: &[DVec3], kept: &[DVec3]) -> Vec<[DVec3; 3]> {
    if projected.len() < 2 || kept.is_empty() {
        return Vec::new();
    }
    let centroid = projected.iter().copied().sum::<DVec3>() / projected.len() as f64;
    let reach = projected
        .iter()
        .map(|p| p.length())
        .fold(0.0f64, f64::max)
        .max(1e-9)
        * 1.3;
    match kept {
        // The origin inside: the tetrahedron (or the flat simplex) itself.
        _ if kept.len() == projected.len() && kept.len() == 4 => {
            let v = kept;
            vec![
                [v[0], v[1], v[2]],
                [v[0], v[1], v[3]],
                [v[0], v[2], v[3]],
                [v[1], v[2], v[3]],
            ]
        }
        // A face: the prism over it, out on the origin's side.
        [a, b, c] => {
            let mut n = (*b - *a).cross(*c - *a).normalize_or_zero();
            if n.dot(-*a) < 0.0 {
                n = -n;
            }
            let up = n * reach;
            let mut walls = Vec::new();
            for (p, q) in [(a, b), (b, c), (c, a)] {
                walls.push([*p, *q, *q + up]);
                walls.push([*p, *q + up, *p + up]);
            }
            walls
        }
        // An edge: the slab between the perpendicular planes at its ends, toward the
        // origin (away from the rest of the simplex).
        [a, b] => {
            let e = (*b - *a).normalize_or_zero();
            let foot = *a + e * (-*a).dot(e);
            let mut out = (-foot).reject_from_normalized(e).normalize_or_zero();
            if out == DVec3::ZERO {
                out = (foot - centroid)
                    .reject_from_normalized(e)
                    .normalize_or_zero();
            }
            let side = e.cross(out) * reach * 0.25;
            let far = out * reach;
            vec![
                [*a, *b, *b + far],
                [*a, *b + far, *a + far],
                [*a - side, *a + side, *a + far + side],
                [*a - side, *a + far + side, *a + far - side],
                [*b - side, *b + side, *b + far + side],
                [*b - side, *b + far + side, *b + far - side],
            ]
        }
        // A vertex: the walls perpendicular to its edges, out toward the origin.
        [v] => {
            let out = (-*v).normalize_or_zero() * reach;
            projected
                .iter()
                .filter(|p| *p != v)
                .flat_map(|p| {
                    let e = (*p - *v).normalize_or_zero();
                    let across = e.cross(out).normalize_or_zero() * reach * 0.3;
                    [
                        [*v - across, *v + across, *v + out + across],
                        [*v - across, *v + out + across, *v + out - across],
                    ]
                })
                .collect()
        }
        _ => Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn area(p: &[DVec2]) -> f64 {
        (0..p.len())
            .map(|i| p[i].perp_dot(p[(i + 1) % p.len()]))
            .sum::<f64>()
            .abs()
            * 0.5
    }

    /// The seven regions of a triangle tile the box, and each point falls in the
    /// region of the feature nearest it (checked against brute force on a grid).
    #[test]
    fn triangle_regions_tile_the_box_and_hold_their_nearest_points() {
        let t = [
            DVec2::new(0.0, 0.0),
            DVec2::new(2.0, 0.2),
            DVec2::new(0.5, 1.5),
        ];
        let bounds = (DVec2::new(-3.0, -3.0), DVec2::new(5.0, 4.0));
        let regions = voronoi_regions(&t, bounds);
        assert_eq!(regions.len(), 7);
        let total: f64 = regions.iter().map(|(_, p)| area(p)).sum();
        assert!((total - 8.0 * 7.0).abs() < 1e-9, "{total}");
        let nearest_on_segment = |p: DVec2, a: DVec2, b: DVec2| {
            let t = ((p - a).dot(b - a) / (b - a).length_squared()).clamp(0.0, 1.0);
            a + (b - a) * t
        };
        for ix in 0..40 {
            for iy in 0..35 {
                // Off the regions' boundaries (a grid point on one belongs to both).
                let p = DVec2::new(-2.887 + ix as f64 * 0.2, -2.913 + iy as f64 * 0.2);
                let holders: Vec<RegionKind> = regions
                    .iter()
                    .filter(|(_, poly)| contains(poly, p))
                    .map(|(k, _)| *k)
                    .collect();
                assert!(!holders.is_empty(), "{p}");
                // Brute force: the nearest point of the triangle and its feature kind.
                let inside = contains(&t, p);
                let q = (0..3)
                    .map(|i| nearest_on_segment(p, t[i], t[(i + 1) % 3]))
                    .min_by(|a, b| (*a - p).length().total_cmp(&(*b - p).length()))
                    .unwrap();
                let kind = if inside {
                    RegionKind::Interior
                } else if t.iter().any(|v| (*v - q).length() < 1e-12) {
                    RegionKind::Vertex
                } else {
                    RegionKind::Edge
                };
                assert!(holders.contains(&kind), "{p}: {holders:?} vs {kind:?}");
            }
        }
    }

    #[test]
    fn a_segment_has_two_vertex_regions_and_a_strip() {
        let s = [DVec2::new(-1.0, 0.0), DVec2::new(1.0, 0.0)];
        let regions = voronoi_regions(&s, (DVec2::splat(-2.0), DVec2::splat(2.0)));
        let kinds: Vec<RegionKind> = regions.iter().map(|r| r.0).collect();
        assert_eq!(
            kinds,
            [RegionKind::Vertex, RegionKind::Vertex, RegionKind::Edge]
        );
        assert!((area(&regions[2].1) - 8.0).abs() < 1e-12);
        assert!(contains(&regions[2].1, DVec2::new(0.3, 1.7)));
        assert!(contains(&regions[0].1, DVec2::new(-1.5, 1.0)));
    }

    #[test]
    fn each_kept_feature_draws_its_region() {
        let t = [
            DVec3::new(1.0, 1.0, 1.0),
            DVec3::new(2.0, 1.0, 1.0),
            DVec3::new(1.0, 2.0, 1.0),
            DVec3::new(1.0, 1.0, 2.0),
        ];
        // A face kept: three walls of two triangles, reaching toward the origin.
        let face = origin_region(&t, &t[..3]);
        assert_eq!(face.len(), 6);
        assert!(face.iter().flatten().any(|p| p.z < 0.0));
        assert_eq!(origin_region(&t, &t[..2]).len(), 6);
        assert_eq!(origin_region(&t, &t[..1]).len(), 6);
        assert_eq!(origin_region(&t, &t).len(), 4);
        assert!(origin_region(&t[..1], &t[..1]).is_empty());
    }
}
