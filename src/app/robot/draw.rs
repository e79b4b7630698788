//! The robot drawn: the links' visual meshes (or their collision hulls), tinted by the
//! last check, and the nearest pair's witness segment.

use bevy::prelude::*;

use super::check::{RobotState, NEAR_SHARE};
use super::RobotSession;
use crate::printed_bound::Above;

/// One drawn `<visual>` of a link, by its index among the model's visuals.
#[derive(Component)]
pub(super) struct VisualPart(usize);

const VISUAL_DEFAULT: Color = Color::srgb(0.78, 0.78, 0.8);

/// Spawns the visual meshes when a robot opens or the toggle changes (and hides the
/// links' collision hulls meanwhile); their colours follow the links' tints.
#[allow(clippy::too_many_arguments)]
pub(super) fn sync_visuals(
    mut commands: Commands,
    session: Res<RobotSession>,
    tints: Res<crate::app::draw::shapes::BodyTints>,
    mut shown: ResMut<crate::app::draw::shapes::OtherBodiesShown>,
    mut built: Local<Option<(u64, bool)>>,
    existing: Query<(Entity, &VisualPart, &MeshMaterial3d<StandardMaterial>)>,
    mut materials: ResMut<Assets<StandardMaterial>>,
    mut meshes: ResMut<Assets<Mesh>>,
) {
    let key = session.0.as_ref().map(|s| (s.generation, s.show_visuals));
    let visuals_on = key.is_some_and(|(_, on)| on);
    if shown.0 == visuals_on {
        shown.0 = !visuals_on;
    }
    let link_tint = |state: &RobotState, link: usize| {
        state
            .model
            .shapes
            .iter()
            .position(|s| s.link == link)
            .and_then(|body| tints.0.get(body).copied().flatten())
    };
    if *built != key {
        *built = key;
        for (entity, _, _) in &existing {
            commands.entity(entity).despawn();
        }
        let Some(state) = session.0.as_ref().filter(|s| s.show_visuals) else {
            return;
        };
        for (k, part) in state.model.visuals.parts.iter().enumerate() {
            let mut positions = Vec::with_capacity(part.triangles.len() * 3);
            let mut normals = Vec::with_capacity(part.triangles.len() * 3);
            for t in &part.triangles {
                let p = t.map(|v| v.as_vec3());
                let n = (p[1] - p[0]).cross(p[2] - p[0]).normalize_or_zero();
                for q in p {
                    positions.push(q.to_array());
                    normals.push(n.to_array());
                }
            }
            let base = part
                .rgba
                .map_or(VISUAL_DEFAULT, |[r, g, b, _]| Color::srgb(r, g, b));
            let colour = link_tint(state, part.link).unwrap_or(base);
            commands.spawn((
                VisualPart(k),
                Mesh3d(meshes.add(crate::app::draw::shapes::separate_triangles(
                    positions, normals,
                ))),
                MeshMaterial3d(materials.add(crate::app::draw::shapes::translucent(colour, 0.6))),
                Transform::default(),
                Pickable::IGNORE,
            ));
        }
        return;
    }
    if tints.is_changed() {
        let Some(state) = session.0.as_ref() else {
            return;
        };
        for (_, part, material) in &existing {
            let Some(p) = state.model.visuals.parts.get(part.0) else {
                continue;
            };
            let base = p
                .rgba
                .map_or(VISUAL_DEFAULT, |[r, g, b, _]| Color::srgb(r, g, b));
            if let Some(mut m) = materials.get_mut(&material.0) {
                m.base_color = link_tint(state, p.link).unwrap_or(base).with_alpha(0.6);
            }
        }
    }
}

/// The visual meshes at the links' poses for the current configuration.
pub(super) fn place_visuals(
    session: Res<RobotSession>,
    mut parts: Query<(&VisualPart, &mut Transform)>,
) {
    let Some(state) = session.0.as_ref() else {
        return;
    };
    if parts.is_empty() {
        return;
    }
    let links = crate::robot::kinematics::link_poses(&state.model, &state.q);
    for (part, mut transform) in &mut parts {
        if let Some(p) = state.model.visuals.parts.get(part.0) {
            let pose = links[p.link].then_local(&p.origin);
            let placed = crate::app::draw::shapes::bevy_transform(&pose);
            if *transform != placed {
                *transform = placed;
            }
        }
    }
}

/// The links' colours from the last check.
pub(super) fn tint_links(
    session: Res<RobotSession>,
    mut tints: ResMut<crate::app::draw::shapes::BodyTints>,
) {
    let wanted = session
        .0
        .as_ref()
        .map_or_else(Vec::new, RobotState::link_tints);
    if tints.0 != wanted {
        tints.0 = wanted;
    }
}

/// The nearest pair apart: its witness segment and distance, in amber.
pub(super) fn draw_nearest(
    session: Res<RobotSession>,
    mut labels: ResMut<crate::app::draw::ViewLabels>,
    mut gizmos: Gizmos,
) {
    let Some(state) = session.0.as_ref() else {
        return;
    };
    let nearest = state
        .answer
        .pairs
        .iter()
        .filter(|p| !p.colliding && !p.beyond_margin)
        .min_by(|a, b| a.distance.total_cmp(&b.distance));
    let Some((a, b)) = nearest.and_then(|p| p.witnesses) else {
        return;
    };
    let colour = Color::srgb(0.85, 0.55, 0.0);
    let (a, b) = (a.as_vec3(), b.as_vec3());
    gizmos.line(a, b, colour);
    // Marked at both ends, so that a short segment shows at the robot's size.
    let dot = (state.near_distance() / NEAR_SHARE * 0.006) as f32;
    gizmos.sphere(Isometry3d::from_translation(a), dot, colour);
    gizmos.sphere(Isometry3d::from_translation(b), dot, colour);
    let d = nearest.map_or(0.0, |p| p.distance);
    labels.0.push((
        (a + b) * 0.5,
        format!("nearest pair: {:.4}", Above(d)),
        colour,
    ));
}
