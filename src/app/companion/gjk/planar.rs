//! Planar mode's own drawing for GJK: the Voronoi regions of the simplex the step
//! projected (its vertices before reduction: the last simplex and the new support),
//! shaded by kind, the region holding the origin stronger, and the support line (the
//! line through the support point across the support direction). Why a vertex is
//! dropped is visible: the origin's region belongs to a face without it.

use bevy::prelude::*;
use glam::DVec2;

use crate::app::draw::{DrawStep, StepView, COLOR_SUPPORT};
use crate::app::state::ViewerSet;
use crate::scene::Dimension;

/// Which feature of the simplex a region belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RegionKind {
    Vertex,
    Edge,
    Interior,
}

/// The overlay meshes, one per shading.
#[derive(Component, Clone, Copy, PartialEq, Eq)]
enum Shading {
    Kind(u8),
    Origin,
}

pub(super) fn plugin(app: &mut App) {
    app.add_systems(Startup, spawn_overlays).add_systems(
        Update,
        (update_regions, draw_support_line)
            .in_set(DrawStep)
            .in_set(ViewerSet::Draw),
    );
}

const TINTS: [(Shading, Color, f32); 4] = [
    (Shading::Kind(0), Color::srgb(0.90, 0.62, 0.0), 0.24), // vertex regions
    (Shading::Kind(1), Color::srgb(0.34, 0.71, 0.91), 0.24), // edge regions
    (Shading::Kind(2), Color::srgb(0.0, 0.62, 0.45), 0.24), // interior
    (Shading::Origin, Color::srgb(0.80, 0.47, 0.65), 0.45), // the origin's region
];

fn spawn_overlays(
    mut commands: Commands,
    mut materials: ResMut<Assets<StandardMaterial>>,
    mut meshes: ResMut<Assets<Mesh>>,
) {
    for (shading, color, alpha) in TINTS {
        let mut material = crate::app::draw::shapes::translucent(color, alpha);
        material.unlit = true;
        commands.spawn((
            shading,
            Mesh3d(meshes.add(crate::app::draw::shapes::placeholder_mesh())),
            Visibility::Hidden,
            MeshMaterial3d(materials.add(material)),
            Transform::default(),
            Pickable::IGNORE,
        ));
    }
}

/// The GJK step under the cursor in a planar scene, flattened to the plane: the
/// projected simplex, the support point and the direction.
fn planar_gjk_step(view: &StepView) -> Option<(Vec<DVec2>, DVec2, DVec2)> {
    let step = super::projected_gjk_step(view, Dimension::Planar)?;
    let flat = |w: glam::DVec3| DVec2::new(w.x, w.y);
    Some((
        step.projected.into_iter().map(flat).collect(),
        flat(step.support),
        flat(step.direction),
    ))
}

fn update_regions(
    view: StepView,
    mut query: Query<(&Shading, &mut Mesh3d, &mut Visibility)>,
    mut meshes: ResMut<Assets<Mesh>>,
    mut built: Local<Option<(u64, usize, bool)>>,
) {
    let key = (view.model.revision, view.cursor.cursor, view.layers.region);
    if *built == Some(key) {
        return;
    }
    *built = Some(key);
    let step = planar_gjk_step(&view).filter(|_| view.layers.region);
    let regions = step
        .as_ref()
        .map(|(simplex, _, _)| voronoi_regions(simplex, region_box(simplex)))
        .unwrap_or_default();
    let origin = regions
        .iter()
        .position(|(_, polygon)| contains(polygon, DVec2::ZERO));
    // Drawn above everything (the view looks down −z), in A ⊖ B's place.
    let lift = Vec3::Z * (view.frame.radius.max(0.1) * 4.0);
    for (shading, mut mesh, mut visibility) in &mut query {
        let mut positions = Vec::new();
        for (k, (kind, polygon)) in regions.iter().enumerate() {
            let wanted = match shading {
                Shading::Kind(i) => *kind as u8 == *i,
                Shading::Origin => origin == Some(k),
            };
            if !wanted {
                continue;
            }
            let world = |p: DVec2| {
                (view.frame.world_point(glam::DVec3::new(p.x, p.y, 0.0)) + lift).to_array()
            };
            for i in 1..polygon.len().saturating_sub(1) {
                positions.extend([world(polygon[0]), world(polygon[i]), world(polygon[i + 1])]);
            }
        }
        if positions.is_empty() {
            *visibility = Visibility::Hidden;
        } else {
            mesh.0 = meshes.add(crate::app::draw::triangle_list(positions));
            *visibility = Visibility::Inherited;
        }
    }
}

/// The support line: where the support point's plane (normal −d) meets the xy-plane.
fn draw_support_line(view: StepView, mut gizmos: Gizmos) {
    if !view.layers.support_direction {
        return;
    }
    let Some((simplex, support, direction)) = planar_gjk_step(&view) else {
        return;
    };
    let Some(d) = direction.try_normalize() else {
        return;
    };
    let (lo, hi) = region_box(&simplex);
    let half = (hi - lo).length();
    let along = d.perp() * half;
    let at = |p: DVec2| {
        view.frame.world_point(glam::DVec3::new(p.x, p.y, 0.0))
            + Vec3::Z * view.frame.radius.max(0.1) * 4.5
    };
    gizmos.line(at(support - along), at(support + along), COLOR_SUPPORT);
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
fn contains(polygon: &[DVec2], p: DVec2) -> bool {
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
}
