//! The check's state: a loaded robot, its configuration, the pairs checked and the last
//! answer, and what a move, a margin or a pair turned on or off changes in it.

use std::path::Path;

use bevy::prelude::*;

use crate::app::command::{PendingCommands, ViewerCommand};
use crate::app::model::BodyId;
use crate::rng::SplitMix64;
use crate::robot::kinematics::shape_poses;
use crate::robot::path::SmoothPath;
use crate::robot::scene::{robot_scene_as, shape_spec};
use crate::robot::{
    checked_pairs, CollisionMode, ConfigAnswer, DisabledPair, RobotModel, SelfCollision,
};
use crate::scene::Scene;
use crate::solver::Algorithm;

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
    pub(super) checker: SelfCollision,
    pub(super) rng: SplitMix64,
    /// Play mode: moving along a smooth random path.
    pub playing: bool,
    pub(super) path: SmoothPath,
    /// Which load this is (the viewer opens each new robot on the robot picture).
    pub generation: u64,
    /// Draw the links' visual meshes (URDF `<visual>`) rather than the collision hulls
    /// the checks use; on when the robot has visuals.
    pub show_visuals: bool,
    /// Only distances up to this margin are asked ([`SelfCollision::check_within`]):
    /// pairs proved farther apart show their bound. `None`: every pair's distance.
    pub margin: Option<f64>,
    /// Links checked as their hulls or as their meshes (MoveIt's and Pinocchio's check).
    pub collision: CollisionMode,
    /// "Where hulls and meshes disagree" at this configuration, when asked: the pairs
    /// (indices into `pairs`) whose verdict changes, with the other check's distance
    /// (0 colliding); `None` until asked, and after every move.
    pub other_verdicts: Option<Vec<(usize, bool, f64)>>,
}

/// A pair this close (a share of the largest link's diagonal) counts as near: amber in
/// the list and on the robot.
pub(super) const NEAR_SHARE: f64 = 0.02;

impl RobotState {
    /// Checks the pairs at the current configuration, within the margin when one is set.
    pub(super) fn recheck(&mut self) {
        self.answer = match self.margin {
            Some(margin) => self.checker.check_within(&self.model, &self.q, margin),
            None => self.checker.check(&self.model, &self.q),
        };
        self.other_verdicts = None;
    }

    /// The other check (hulls when checking meshes, and the reverse) at this
    /// configuration: the pairs whose verdict (colliding or apart) changes, kept in
    /// [`Self::other_verdicts`].
    pub(super) fn compare_other(&mut self) {
        let other = match self.collision {
            CollisionMode::Hull => CollisionMode::Mesh,
            CollisionMode::Mesh => CollisionMode::Hull,
        };
        let answer = SelfCollision::new(self.pairs.clone(), Algorithm::GJK)
            .with_collision(other)
            .check(&self.model, &self.q);
        let changes = answer
            .pairs
            .iter()
            .zip(&self.answer.pairs)
            .enumerate()
            .filter(|(_, (theirs, ours))| theirs.colliding != ours.colliding)
            .map(|(k, (theirs, _))| {
                let d = if theirs.colliding {
                    0.0
                } else {
                    theirs.distance
                };
                (k, theirs.colliding, d)
            })
            .collect();
        self.other_verdicts = Some(changes);
    }

    /// Checks the links as hulls or as meshes from now on: a new check, and each link
    /// with a mesh drawn and put in focus as what is checked (its hull, or its mesh).
    pub(super) fn set_collision(
        &mut self,
        collision: CollisionMode,
        commands: &mut PendingCommands,
    ) {
        self.collision = collision;
        self.checker =
            SelfCollision::new(self.pairs.clone(), Algorithm::GJK).with_collision(collision);
        self.recheck();
        for (b, s) in self.model.shapes.iter().enumerate() {
            let Some(mesh) = &s.mesh else {
                continue;
            };
            let spec = match collision {
                CollisionMode::Mesh => mesh.spec.clone(),
                CollisionMode::Hull => shape_spec(&s.shape),
            };
            commands.push(ViewerCommand::SetShape(BodyId(b), spec));
        }
        self.reorder(commands);
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
    pub(super) fn pairs_in_use(&self) -> Vec<(usize, usize)> {
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
    pub(super) fn disable_pair(
        &mut self,
        link1: String,
        link2: String,
        commands: &mut PendingCommands,
    ) {
        self.disabled.push(DisabledPair {
            link1,
            link2,
            reason: "turned off here".into(),
        });
        self.enabled_anyway.push(false);
        self.repair(commands);
    }

    /// A disabled pair turned on or off: new pairs for the check and the scene.
    pub(super) fn repair(&mut self, commands: &mut PendingCommands) {
        self.pairs = self.pairs_in_use();
        self.checker =
            SelfCollision::new(self.pairs.clone(), Algorithm::GJK).with_collision(self.collision);
        self.recheck();
        self.reorder(commands);
    }

    /// The scene's pairs as a robot opens: by certified signed distance at the
    /// configuration, as the links are checked (hulls or meshes), so the deepest overlap
    /// or the nearest pair stays in focus.
    fn reorder(&self, commands: &mut PendingCommands) {
        let ordered = robot_scene_as(
            &self.model,
            &self.pairs,
            &self.q,
            Path::new(""),
            self.collision,
        )
        .pairs;
        commands.push(ViewerCommand::SetPairs(ordered));
    }

    /// The robot at its configuration as a scene.
    pub fn scene(&self, dir: &Path) -> Scene {
        robot_scene_as(&self.model, &self.pairs, &self.q, dir, self.collision)
    }

    /// Moves to `q`: the bodies' new poses as commands, and a new check.
    pub(super) fn move_to(&mut self, q: Vec<f64>, commands: &mut PendingCommands) {
        self.q = q;
        for (b, pose) in shape_poses(&self.model, &self.q).into_iter().enumerate() {
            commands.push(ViewerCommand::SetPose(BodyId(b), pose));
        }
        self.recheck();
    }
}

const LINK_COLLIDING: Color = Color::srgb(0.86, 0.16, 0.16);
const LINK_NEAR: Color = Color::srgb(0.92, 0.6, 0.05);

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
    use crate::robot::acm::random_configuration;

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
            RobotState::load(&urdf, crate::app::files::srdf_beside(&urdf).as_deref()).unwrap();
        assert!(
            with_srdf.disabled_by.contains("panda.srdf"),
            "{}",
            with_srdf.disabled_by
        );
    }

    /// The toggle: the L-shaped link's concavity holds the block, colliding as hulls,
    /// 0.25 apart as meshes; the comparison names the pair, and the mesh link's body is
    /// sent its mesh.
    #[test]
    fn the_collision_toggle_checks_meshes_and_says_where_hulls_disagree() {
        let urdf = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/robots/ell/ell.urdf");
        let mut state = RobotState::load(&urdf, None).unwrap();
        let mut commands = PendingCommands::default();
        // Every pair of two links is adjacent: check it anyway.
        state.enabled_anyway = vec![true; state.disabled.len()];
        state.repair(&mut commands);
        state.move_to(vec![0.0], &mut commands);
        assert!(state.answer.pairs[0].colliding);
        state.compare_other();
        let changes = state.other_verdicts.clone().unwrap();
        assert_eq!(changes.len(), 1);
        assert!(!changes[0].1 && (changes[0].2 - 0.25).abs() < 1e-6);
        commands.0.clear();
        state.set_collision(CollisionMode::Mesh, &mut commands);
        assert!(!state.answer.pairs[0].colliding);
        assert!(state.other_verdicts.is_none());
        // The mesh link gets its mesh, and the pairs are ordered as meshes now.
        assert!(matches!(
            commands.0.as_slice(),
            [
                ViewerCommand::SetShape(BodyId(0), crate::scene::ShapeSpec::Mesh { .. }),
                ViewerCommand::SetPairs(_)
            ]
        ));
        let scene = state.scene(urdf.parent().unwrap());
        assert!(scene.bodies[0].composite.is_some());
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
