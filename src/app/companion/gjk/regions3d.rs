//! In space, the Voronoi region that holds the origin for the GJK step under the
//! cursor, drawn as a translucent solid in `A − B`'s place: the prism over the nearest
//! face (its three side walls, out toward the origin), the slab along the nearest edge,
//! the cone of the nearest vertex (a fan of its edges' perpendicular walls), or the
//! tetrahedron itself when it holds the origin. What lies outside it is what the step
//! dropped.

use bevy::prelude::*;
use glam::DVec3;

use crate::app::draw::{DrawStep, StepView};
use crate::app::state::ViewerSet;
use crate::scene::Dimension;

#[derive(Component)]
struct OriginRegion;

pub(super) fn plugin(app: &mut App) {
    app.add_systems(Startup, spawn_region).add_systems(
        Update,
        update_region.in_set(DrawStep).in_set(ViewerSet::Draw),
    );
}

fn spawn_region(
    mut commands: Commands,
    mut materials: ResMut<Assets<StandardMaterial>>,
    mut meshes: ResMut<Assets<Mesh>>,
) {
    let mut material = crate::app::draw::shapes::translucent(Color::srgb(0.80, 0.47, 0.65), 0.30);
    material.unlit = true;
    material.cull_mode = None;
    commands.spawn((
        OriginRegion,
        Mesh3d(meshes.add(crate::app::draw::shapes::placeholder_mesh())),
        Visibility::Hidden,
        MeshMaterial3d(materials.add(material)),
        Transform::default(),
        Pickable::IGNORE,
    ));
}

fn update_region(
    view: StepView,
    mut query: Query<(&mut Mesh3d, &mut Visibility), With<OriginRegion>>,
    mut meshes: ResMut<Assets<Mesh>>,
    mut built: Local<Option<(u64, usize, bool)>>,
) {
    let key = (view.model.revision, view.cursor.cursor, view.layers.region);
    if *built == Some(key) {
        return;
    }
    *built = Some(key);
    let Ok((mut mesh, mut visibility)) = query.single_mut() else {
        return;
    };
    let triangles = super::projected_gjk_step(&view, Dimension::Spatial)
        .filter(|_| view.layers.region)
        .map(|step| origin_region(&step.projected, &step.kept))
        .unwrap_or_default();
    if triangles.is_empty() {
        *visibility = Visibility::Hidden;
        return;
    }
    let positions = triangles
        .iter()
        .flatten()
        .map(|p| view.frame.world_point(*p).to_array())
        .collect();
    mesh.0 = meshes.add(crate::app::draw::triangle_list(positions));
    *visibility = Visibility::Inherited;
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
