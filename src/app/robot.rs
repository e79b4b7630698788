//! Robot mode: a URDF loaded as a scene of its link shapes (`robot::scene`), joint
//! sliders within the limits, a random configuration, and every checked pair's distance
//! sorted nearest first (colliding red, near amber); a pair clicked is put in focus,
//! which opens it in the two-shape debugger (Minkowski difference, steps, plots).

use std::path::Path;

use bevy::prelude::*;
use bevy_egui::egui;

use super::command::{PendingCommands, ViewerCommand};
use super::model::{BodyId, ViewerModel};
use crate::printed_bound::{Above, Below};
use crate::rng::SplitMix64;
use crate::robot::acm::{default_configuration, random_configuration};
use crate::robot::kinematics::shape_poses;
use crate::robot::order::by_signed_distance;
use crate::robot::path::SmoothPath;
use crate::robot::scene::robot_scene;
use crate::robot::{
    checked_pairs, disabled_pairs_for, ConfigAnswer, DisabledPair, JointKind, RobotModel,
    SelfCollision,
};
use crate::scene::Scene;
use crate::solver::Algorithm;

/// Random configurations the allowed-collision matrix samples when there is no SRDF,
/// and the share of them a pair must collide in to be disabled ("always").
const ACM_TRIALS: usize = 1000;
const ACM_ALWAYS: f64 = 0.95;

/// The robot being shown, when the viewer opened a URDF.
#[derive(Resource, Default)]
pub struct RobotSession(pub Option<RobotState>);

/// A loaded robot, its configuration and the last check.
pub struct RobotState {
    pub model: RobotModel,
    pub disabled: Vec<DisabledPair>,
    /// Where `disabled` comes from: the SRDF's name, or the matrix computed without one.
    pub disabled_by: String,
    /// Which disabled pairs the user turned back on.
    pub enabled_anyway: Vec<bool>,
    pub pairs: Vec<(usize, usize)>,
    pub q: Vec<f64>,
    pub answer: ConfigAnswer,
    /// Kept between moves: along a path each pair starts from its last query.
    checker: SelfCollision,
    rng: SplitMix64,
    /// Play mode: moving along a smooth random path.
    pub playing: bool,
    path: SmoothPath,
    /// Which load this is (the viewer opens each new robot on the robot picture).
    pub generation: u64,
    /// Draw the links' visual meshes (URDF `<visual>`) rather than the collision hulls
    /// the checks use; on when the robot has visuals.
    pub show_visuals: bool,
    /// Only distances up to this margin are asked ([`SelfCollision::check_within`]):
    /// pairs proved farther apart show their bound. `None`: every pair's distance.
    pub margin: Option<f64>,
}

/// Loads so far, for [`RobotState::generation`].
static LOADS: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);

/// A pair this close (a share of the largest link's diagonal) counts as near: amber in
/// the list and on the robot.
const NEAR_SHARE: f64 = 0.02;

impl RobotState {
    /// Loads the URDF (and SRDF) and checks the zero configuration.
    pub fn load(urdf: &Path, srdf: Option<&Path>) -> Result<Self, String> {
        let model = RobotModel::load(urdf, None)?;
        let model_has_no_visuals = model.visuals.parts.is_empty();
        // Without an SRDF, the allowed-collision matrix is computed by the rules of
        // `robot --write-srdf` (MoveIt's setup assistant): adjacent links, pairs colliding
        // at the default configuration or in nearly all random ones.
        let (disabled, disabled_by) = match srdf {
            Some(path) => (
                disabled_pairs_for(&model, path)?.0,
                format!(
                    "the SRDF {}",
                    path.file_name()
                        .map_or(String::new(), |n| n.to_string_lossy().into_owned())
                ),
            ),
            None => (
                crate::robot::compute_acm(&model, ACM_TRIALS, ACM_ALWAYS, 1)
                    .into_iter()
                    .map(|(pair, _)| pair)
                    .collect(),
                format!(
                    "the computed allowed-collision matrix (no SRDF found: adjacent links, pairs \
                     colliding at the default configuration or in {:.0} % of {ACM_TRIALS} \
                     random ones)",
                    ACM_ALWAYS * 100.0
                ),
            ),
        };
        let pairs = checked_pairs(&model, &disabled);
        // Every joint at 0, clamped into its limits (the Panda's joint 4 excludes 0).
        let q = default_configuration(&model);
        let mut checker = SelfCollision::new(pairs.clone(), Algorithm::GJK);
        let answer = checker.check(&model, &q);
        Ok(Self {
            enabled_anyway: vec![false; disabled.len()],
            path: SmoothPath::new(&model, q.clone(), 2),
            model,
            disabled,
            disabled_by,
            pairs,
            q,
            answer,
            checker,
            rng: SplitMix64::new(1),
            playing: false,
            generation: LOADS.fetch_add(1, std::sync::atomic::Ordering::Relaxed) + 1,
            show_visuals: !model_has_no_visuals,
            margin: None,
        })
    }

    /// Checks the pairs at the current configuration, within the margin when one is set.
    fn recheck(&mut self) {
        self.answer = match self.margin {
            Some(margin) => self.checker.check_within(&self.model, &self.q, margin),
            None => self.checker.check(&self.model, &self.q),
        };
    }

    /// Below this distance a pair is near (a share of the largest link's diagonal).
    pub fn near_distance(&self) -> f64 {
        let size = self
            .model
            .shapes
            .iter()
            .map(|s| s.shape.local_aabb())
            .fold(0.0f64, |m, a| m.max((a.max - a.min).length()));
        NEAR_SHARE * size
    }

    /// Each link's colour on the robot: red when one of its pairs collides, amber when
    /// one is near, `None` otherwise.
    pub fn link_tints(&self) -> Vec<Option<Color>> {
        let near = self.near_distance();
        let mut tints = vec![None; self.model.shapes.len()];
        for (&(i, j), a) in self.pairs.iter().zip(&self.answer.pairs) {
            let tint = if a.colliding {
                Some(LINK_COLLIDING)
            } else if a.distance < near && !a.beyond_margin {
                Some(LINK_NEAR)
            } else {
                None
            };
            for k in [i, j] {
                // Red wins over amber.
                if tints[k] != Some(LINK_COLLIDING) && tint.is_some() {
                    tints[k] = tint;
                }
            }
        }
        tints
    }

    /// The checked pair with link `body` that is nearest (colliding first): what a click
    /// on that link focuses.
    pub fn nearest_pair_of(&self, body: usize) -> Option<(usize, usize)> {
        self.pairs
            .iter()
            .zip(&self.answer.pairs)
            .filter(|((i, j), _)| *i == body || *j == body)
            .min_by(|(_, a), (_, b)| {
                (!a.colliding, a.distance)
                    .partial_cmp(&(!b.colliding, b.distance))
                    .unwrap_or(std::cmp::Ordering::Equal)
            })
            .map(|(pair, _)| *pair)
    }

    /// The checked pairs: the SRDF's enabled ones and the disabled ones the user turned
    /// back on, in index order (the scene's order).
    fn pairs_in_use(&self) -> Vec<(usize, usize)> {
        let anyway: Vec<DisabledPair> = self
            .disabled
            .iter()
            .zip(&self.enabled_anyway)
            .filter(|(_, on)| !**on)
            .map(|(d, _)| d.clone())
            .collect();
        checked_pairs(&self.model, &anyway)
    }

    /// The user stops checking a pair: it joins the disabled ones (and can be ticked back
    /// on there).
    fn disable_pair(&mut self, link1: String, link2: String, commands: &mut PendingCommands) {
        self.disabled.push(DisabledPair {
            link1,
            link2,
            reason: "turned off here".into(),
        });
        self.enabled_anyway.push(false);
        self.repair(commands);
    }

    /// A disabled pair turned on or off: new pairs for the check and the scene.
    fn repair(&mut self, commands: &mut PendingCommands) {
        self.pairs = self.pairs_in_use();
        self.checker = SelfCollision::new(self.pairs.clone(), Algorithm::GJK);
        self.recheck();
        // The scene's pairs as a robot opens: by certified signed distance at the
        // configuration, so the deepest overlap or the nearest pair stays in focus.
        let poses = shape_poses(&self.model, &self.q);
        let placed: Vec<_> = self
            .model
            .shapes
            .iter()
            .map(|s| &s.shape)
            .zip(poses)
            .collect();
        let ordered = by_signed_distance(&placed, &self.pairs)
            .into_iter()
            .map(|(pair, _)| pair)
            .collect();
        commands.push(ViewerCommand::SetPairs(ordered));
    }

    /// The robot at its configuration as a scene.
    pub fn scene(&self, dir: &Path) -> Scene {
        robot_scene(&self.model, &self.pairs, &self.q, dir)
    }

    /// Moves to `q`: the bodies' new poses as commands, and a new check.
    fn move_to(&mut self, q: Vec<f64>, commands: &mut PendingCommands) {
        self.q = q;
        for (b, pose) in shape_poses(&self.model, &self.q).into_iter().enumerate() {
            commands.push(ViewerCommand::SetPose(BodyId(b), pose));
        }
        self.recheck();
    }
}

const LINK_COLLIDING: Color = Color::srgb(0.86, 0.16, 0.16);
const LINK_NEAR: Color = Color::srgb(0.92, 0.6, 0.05);

pub(super) fn plugin(app: &mut App) {
    app.add_observer(click_link).add_systems(
        Update,
        (
            play_path.in_set(super::ViewerSet::Input),
            (open_on_the_robot, tint_links, z_up_for_robots).in_set(super::ViewerSet::Input),
            (sync_visuals, place_visuals)
                .chain()
                .in_set(super::ViewerSet::Draw),
            draw_nearest.in_set(super::ViewerSet::Draw),
        ),
    );
}

/// A new robot opens on the robot itself: the focused pair's A ⊖ B and step layers off
/// (the top bar's checkboxes bring them back), the camera framing the links.
fn open_on_the_robot(
    session: Res<RobotSession>,
    mut layers: ResMut<super::Layers>,
    mut seen: Local<u64>,
    mut camera: MessageWriter<super::camera::CameraRequest>,
) {
    let Some(state) = session.0.as_ref() else {
        return;
    };
    if *seen == state.generation {
        return;
    }
    *seen = state.generation;
    layers.difference = false;
    layers.simplex = false;
    layers.support_direction = false;
    layers.support_parts = false;
    layers.iterate = false;
    layers.frank_wolfe_path = false;
    camera.write(super::camera::CameraRequest::FrameAll);
}

/// One drawn `<visual>` of a link, by its index among the model's visuals.
#[derive(Component)]
struct VisualPart(usize);

const VISUAL_DEFAULT: Color = Color::srgb(0.78, 0.78, 0.8);

/// Spawns the visual meshes when a robot opens or the toggle changes (and hides the
/// links' collision hulls meanwhile); their colours follow the links' tints.
#[allow(clippy::too_many_arguments)]
fn sync_visuals(
    mut commands: Commands,
    session: Res<RobotSession>,
    tints: Res<super::draw::shapes::BodyTints>,
    mut shown: ResMut<super::draw::shapes::OtherBodiesShown>,
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
                Mesh3d(meshes.add(super::draw::shapes::separate_triangles(positions, normals))),
                MeshMaterial3d(materials.add(super::draw::shapes::translucent(colour, 0.6))),
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
fn place_visuals(session: Res<RobotSession>, mut parts: Query<(&VisualPart, &mut Transform)>) {
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
            let placed = super::draw::shapes::bevy_transform(&pose);
            if *transform != placed {
                *transform = placed;
            }
        }
    }
}

/// Robots stand along z (URDF's up): the camera keeps z up while one is shown.
fn z_up_for_robots(session: Res<RobotSession>, mut orbit: ResMut<super::camera::OrbitCamera>) {
    let wanted = session.0.is_some();
    if orbit.z_up != wanted {
        orbit.z_up = wanted;
    }
}

/// The links' colours from the last check.
fn tint_links(session: Res<RobotSession>, mut tints: ResMut<super::draw::shapes::BodyTints>) {
    let wanted = session
        .0
        .as_ref()
        .map_or_else(Vec::new, RobotState::link_tints);
    if tints.0 != wanted {
        tints.0 = wanted;
    }
}

/// A click on a link (not a drag: released within a third of a second) focuses its
/// nearest checked pair, as a click in the list does.
fn click_link(
    event: On<bevy::picking::events::Pointer<bevy::picking::events::Click>>,
    bodies: Query<&super::draw::shapes::OtherBody>,
    session: Res<RobotSession>,
    model: Res<super::Model>,
    mut commands: ResMut<PendingCommands>,
) {
    if event.button != PointerButton::Primary || event.duration.as_secs_f32() > 0.3 {
        return;
    }
    let (Ok(body), Some(state)) = (bodies.get(event.entity), session.0.as_ref()) else {
        return;
    };
    let Some(pair) = state.nearest_pair_of(body.0) else {
        return;
    };
    if let Some(p) = model.scene.pairs.iter().position(|q| *q == pair) {
        commands.push(ViewerCommand::FocusPair(p));
    }
}

/// Play mode: a smooth path through random configurations (smoothstep between them,
/// one every two seconds).
fn play_path(
    time: Res<Time>,
    mut session: ResMut<RobotSession>,
    mut commands: ResMut<PendingCommands>,
) {
    let Some(state) = session.0.as_mut() else {
        return;
    };
    if !state.playing {
        return;
    }
    let q = state
        .path
        .advance(&state.model, time.delta_secs_f64() / 2.0);
    state.move_to(q, &mut commands);
}

/// The nearest pair apart: its witness segment and distance, in amber.
fn draw_nearest(
    session: Res<RobotSession>,
    mut labels: ResMut<super::draw::ViewLabels>,
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

/// "Only distances up to M": the margin check, what a planner's safety margin asks
/// (0: only which pairs collide). Its default is the amber threshold, the distance the
/// picture needs.
fn margin_ui(ui: &mut egui::Ui, state: &mut RobotState) {
    let mut on = state.margin.is_some();
    let mut margin = state.margin.unwrap_or_else(|| state.near_distance());
    let mut changed = false;
    ui.horizontal(|ui| {
        changed |= ui
            .checkbox(&mut on, "only distances up to")
            .on_hover_text(
                "pairs whose bounding spheres are farther apart are not run; GJK stops at \
                 the first separating plane beyond the margin (0: only which pairs collide)",
            )
            .changed();
        ui.add_enabled_ui(on, |ui| {
            changed |= ui
                .add(
                    egui::DragValue::new(&mut margin)
                        .speed(0.001)
                        .range(0.0..=10.0)
                        .suffix(" m"),
                )
                .changed();
        });
    });
    if changed {
        state.margin = on.then_some(margin);
        state.recheck();
    }
}

const RED: egui::Color32 = egui::Color32::from_rgb(200, 40, 40);
const AMBER: egui::Color32 = egui::Color32::from_rgb(200, 130, 0);

/// The robot panel: joints, then the pairs nearest first.
pub fn robot_panel_ui(
    ui: &mut egui::Ui,
    state: &mut RobotState,
    model: &ViewerModel,
    commands: &mut PendingCommands,
) {
    ui.heading(format!("Robot {}", state.model.name));
    ui.label(format!(
        "{} links with collision geometry, {} pairs checked, {} disabled by {}",
        state.model.shapes.len(),
        state.pairs.len(),
        state.disabled.len(),
        state.disabled_by
    ));
    let mut q = state.q.clone();
    let mut changed = false;
    for (k, &j) in state.model.actuated.iter().enumerate() {
        let joint = &state.model.joints[j];
        let (lo, hi) = match (joint.kind, joint.limits) {
            (JointKind::Continuous, _) => (-std::f64::consts::PI, std::f64::consts::PI),
            (_, Some((lo, hi))) => (lo, hi),
            _ => (-1.0, 1.0),
        };
        changed |= ui
            .add(egui::Slider::new(&mut q[k], lo..=hi).text(&joint.name))
            .changed();
    }
    ui.horizontal(|ui| {
        if ui.button("random configuration").clicked() {
            q = random_configuration(&state.model, &mut state.rng);
            changed = true;
        }
        let play = if state.playing {
            "pause"
        } else {
            "play a random path"
        };
        if ui.button(play).clicked() {
            state.playing = !state.playing;
            let seed = state.rng.next_u64();
            state.path = SmoothPath::new(&state.model, state.q.clone(), seed);
        }
    });
    if changed {
        state.move_to(q, commands);
    }
    let visuals = &state.model.visuals;
    ui.horizontal(|ui| {
        ui.label("draw");
        ui.add_enabled_ui(!visuals.parts.is_empty(), |ui| {
            ui.radio_value(&mut state.show_visuals, true, "visual meshes")
                .on_hover_text("the URDF's <visual> meshes, with their colours");
        });
        ui.radio_value(&mut state.show_visuals, false, "collision hulls")
            .on_hover_text("the convex shapes the checks use");
    });
    if !visuals.missing.is_empty() {
        ui.label(format!(
            "{} visual meshes could not be read: {}",
            visuals.missing.len(),
            if visuals.parts.is_empty() {
                "the links show their collision hulls"
            } else {
                "those links show only their other visuals"
            }
        ))
        .on_hover_text(visuals.missing.join("\n"));
    }
    ui.label(
        egui::RichText::new(
            "The picture shows the robot: links red where a pair collides, amber where one is \
             near; click a link (or a row) to put its nearest pair in focus, in blue and orange. \
             Tick A ⊖ B and simplex in the top bar to step through that pair.",
        )
        .italics(),
    );
    ui.separator();
    margin_ui(ui, state);
    let seconds = state.answer.seconds * 1e6;
    let narrow = state
        .answer
        .pairs
        .iter()
        .filter(|p| !p.beyond_margin)
        .count();
    match state.margin {
        Some(m) => ui.strong(format!(
            "Pairs, nearest first ({seconds:.0} µs for all; {narrow} within {m:.4} m or not ruled out)"
        )),
        None => ui.strong(format!("Pairs, nearest first ({seconds:.0} µs for all)")),
    };
    let names: Vec<&str> = state.model.shapes.iter().map(|s| s.name.as_str()).collect();
    let mut order: Vec<usize> = (0..state.pairs.len()).collect();
    order.sort_by(|a, b| {
        state.answer.pairs[*a]
            .distance
            .total_cmp(&state.answer.pairs[*b].distance)
    });
    let near = state.near_distance();
    let focused = model.scene.pairs.first().copied();
    let mut turn_off = None;
    egui::Grid::new("robot-pairs").striped(true).show(ui, |ui| {
        ui.label("pair");
        ui.label("distance");
        ui.label("iter.");
        ui.label("µs");
        ui.label("");
        ui.end_row();
        for k in order {
            let (i, j) = state.pairs[k];
            let a = &state.answer.pairs[k];
            let colour = if a.colliding {
                RED
            } else if a.distance < near && !a.beyond_margin {
                AMBER
            } else {
                ui.visuals().text_color()
            };
            let label = format!("{} – {}", names[i], names[j]);
            let text = egui::RichText::new(label).color(colour);
            let selected = focused == Some((i, j));
            if ui.selectable_label(selected, text).clicked() {
                if let Some(p) = model.scene.pairs.iter().position(|p| *p == (i, j)) {
                    commands.push(ViewerCommand::FocusPair(p));
                }
            }
            let distance = if a.colliding {
                "colliding".to_string()
            } else if a.beyond_margin {
                format!("≥ {:.6}", Below(a.distance))
            } else {
                format!("{:.6}", Above(a.distance))
            };
            let cell = ui.label(egui::RichText::new(distance).color(colour));
            if a.beyond_margin {
                cell.on_hover_text(
                    "beyond the margin: a lower bound (the bounding spheres' gap, or GJK's \
                     first separating plane beyond the margin), not the distance",
                );
            }
            ui.label(a.iterations.to_string());
            ui.label(format!("{:.1}", a.seconds * 1e6));
            if ui
                .small_button("off")
                .on_hover_text("stop checking this pair (it joins the disabled pairs below)")
                .clicked()
            {
                turn_off = Some((names[i].to_string(), names[j].to_string()));
            }
            ui.end_row();
        }
    });
    if let Some((link1, link2)) = turn_off {
        state.disable_pair(link1, link2, commands);
    }
    if !state.disabled.is_empty() {
        egui::CollapsingHeader::new(format!("{} pairs disabled", state.disabled.len())).show(
            ui,
            |ui| {
                ui.label("Tick a pair to check it anyway.");
                let mut toggled = false;
                for (d, on) in state.disabled.iter().zip(state.enabled_anyway.iter_mut()) {
                    let text = format!("{} – {} ({})", d.link1, d.link2, d.reason);
                    toggled |= ui.checkbox(on, text).changed();
                }
                if toggled {
                    state.repair(commands);
                }
            },
        );
    }
}

impl std::fmt::Debug for RobotState {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RobotState")
            .field("robot", &self.model.name)
            .field("pairs", &self.pairs.len())
            .field("q", &self.q)
            .finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Without an SRDF the allowed-collision matrix is computed: the Panda at its home
    /// pose then shows no adjacent pair as colliding, and the panel says where the
    /// disabled pairs come from.
    #[test]
    fn a_robot_without_srdf_gets_a_computed_allowed_collision_matrix() {
        let urdf = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../shared/data/robots/panda_description/urdf/panda.urdf");
        if !urdf.exists() {
            eprintln!("skipped: {} is absent", urdf.display());
            return;
        }
        let state = RobotState::load(&urdf, None).unwrap();
        assert!(
            state.disabled_by.contains("computed"),
            "{}",
            state.disabled_by
        );
        assert!(state.disabled.iter().any(|d| d.reason == "Adjacent"));
        let colliding: Vec<_> = state.answer.pairs.iter().filter(|a| a.colliding).collect();
        assert!(
            colliding.is_empty(),
            "{} pairs collide at home",
            colliding.len()
        );
        let with_srdf =
            RobotState::load(&urdf, super::super::files::srdf_beside(&urdf).as_deref()).unwrap();
        assert!(
            with_srdf.disabled_by.contains("panda.srdf"),
            "{}",
            with_srdf.disabled_by
        );
    }

    /// The Panda with its SRDF, and its folder; `None` (said) when the data is absent.
    fn panda_with_srdf() -> Option<(std::path::PathBuf, RobotState)> {
        let dir =
            Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/data/robots/panda_description");
        if !dir.exists() {
            eprintln!("skipped: {} is absent", dir.display());
            return None;
        }
        let urdf = dir.join("urdf/panda.urdf");
        let state = RobotState::load(&urdf, Some(&dir.join("srdf/panda.srdf"))).unwrap();
        Some((dir, state))
    }

    #[test]
    fn a_urdf_becomes_a_scene_of_its_links_and_moves_with_its_joints() {
        let Some((dir, mut state)) = panda_with_srdf() else {
            return;
        };
        let scene = state.scene(&dir);
        assert_eq!((scene.bodies.len(), scene.pairs.len()), (11, 20));
        // The default configuration respects every limit.
        for (k, &j) in state.model.actuated.iter().enumerate() {
            if let Some((lo, hi)) = state.model.joints[j].limits {
                assert!(lo <= state.q[k] && state.q[k] <= hi);
            }
        }
        let mut commands = PendingCommands::default();
        let mut q = state.q.clone();
        q[0] = 0.5;
        state.move_to(q, &mut commands);
        assert_eq!(commands.0.len(), 11);
        assert_eq!(state.answer.pairs.len(), 20);
    }

    /// With the margin at the amber threshold the picture is the one every pair's
    /// distance gives (same tints), while pairs are ruled out without their distance.
    #[test]
    fn the_margin_check_paints_the_same_robot() {
        let Some((_, mut state)) = panda_with_srdf() else {
            return;
        };
        let mut commands = PendingCommands::default();
        let mut rng = SplitMix64::new(8);
        let mut beyond = 0;
        for _ in 0..100 {
            let q = random_configuration(&state.model, &mut rng);
            state.margin = None;
            state.move_to(q.clone(), &mut commands);
            let full = state.link_tints();
            state.margin = Some(state.near_distance());
            state.move_to(q, &mut commands);
            assert_eq!(state.link_tints(), full);
            beyond += state
                .answer
                .pairs
                .iter()
                .filter(|p| p.beyond_margin)
                .count();
        }
        assert!(beyond > 100, "{beyond}");
    }

    /// On the robot: both links of a colliding pair red, of a near pair amber, the rest
    /// untinted; a click on a link focuses its nearest pair (colliding first).
    #[test]
    fn links_are_tinted_by_their_pairs_and_a_click_picks_the_nearest() {
        let Some((_, mut state)) = panda_with_srdf() else {
            return;
        };
        let mut commands = PendingCommands::default();
        let mut rng = SplitMix64::new(5);
        // Random configurations until one has a colliding pair.
        let colliding = (0..500).find_map(|_| {
            let q = random_configuration(&state.model, &mut rng);
            state.move_to(q, &mut commands);
            state.answer.pairs.iter().position(|a| a.colliding)
        });
        let k = colliding.expect("a colliding configuration in 500 random ones");
        let tints = state.link_tints();
        let (i, j) = state.pairs[k];
        assert_eq!(
            (tints[i], tints[j]),
            (Some(LINK_COLLIDING), Some(LINK_COLLIDING))
        );
        let near = state.near_distance();
        for (body, tint) in tints.iter().enumerate() {
            let pairs: Vec<_> = state
                .pairs
                .iter()
                .zip(&state.answer.pairs)
                .filter(|((a, b), _)| *a == body || *b == body)
                .map(|(_, answer)| answer)
                .collect();
            let expected = if pairs.iter().any(|a| a.colliding) {
                Some(LINK_COLLIDING)
            } else if pairs.iter().any(|a| a.distance < near) {
                Some(LINK_NEAR)
            } else {
                None
            };
            assert_eq!(*tint, expected, "link {body}");
        }
        // A click on a colliding link focuses a colliding pair of it.
        let picked = state.nearest_pair_of(i).unwrap();
        assert!(picked.0 == i || picked.1 == i);
        let p = state.pairs.iter().position(|q| *q == picked).unwrap();
        assert!(state.answer.pairs[p].colliding);
    }
}
