//! How steady a contact rule's manifold is: the pose is nudged (B moved or turned by
//! 1e-9 to 1e-3 of the pair's size) and the whole scene is moved or turned with the
//! relative pose fixed, and each time the manifold's points (on A, world frame) are
//! compared with where they were: the Hausdorff distance between the two point sets,
//! per unit of the body's own motion. A point that moves a hundred times more than the
//! body is a jump, the jitter a resting body shows (Genesis #3245: a cylinder's patch
//! jumping 15–23 mm while the body moves 0.2 µm); a manifold that changes when the
//! whole scene moves (Genesis #3127) shows as a deviation from the rigid motion.

use glam::{DQuat, DVec3};
use serde::Serialize;

use super::{ContactRule, ContactSettings, Detail, Manifold};
use crate::pose::{Pose, RelativePose};
use crate::rng::SplitMix64;
use crate::shape::Shape;
use crate::solver::settings::EpaSettings;

/// What was moved.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Nudge {
    /// B moved (the relative pose changes).
    MoveB,
    /// B turned about its origin.
    TurnB,
    /// Both moved together (the relative pose is fixed: the manifold should follow).
    MoveScene,
    /// Both turned together about the world's origin.
    TurnScene,
}

impl Nudge {
    pub const ALL: [Nudge; 4] = [
        Nudge::MoveB,
        Nudge::TurnB,
        Nudge::MoveScene,
        Nudge::TurnScene,
    ];

    pub fn name(&self) -> &'static str {
        match self {
            Nudge::MoveB => "move B",
            Nudge::TurnB => "turn B",
            Nudge::MoveScene => "move scene",
            Nudge::TurnScene => "turn scene",
        }
    }
}

/// The sweep's plan: relative sizes of the nudges, trials of each, the seed of their
/// directions, and the ratio of point motion to body motion called a jump.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct JitterSettings {
    pub magnitudes: Vec<f64>,
    pub trials: usize,
    pub seed: u64,
    pub jump_ratio: f64,
}

impl Default for JitterSettings {
    fn default() -> Self {
        Self {
            magnitudes: (0..7).map(|k| 10f64.powi(k - 9)).collect(),
            trials: 4,
            seed: 1,
            jump_ratio: 100.0,
        }
    }
}

/// One nudge and what the manifold did.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct JitterSample {
    pub nudge: Nudge,
    /// The nudge's size relative to the pair's size.
    pub magnitude: f64,
    /// How far the body's points moved at most (for a scene nudge: the scene's).
    pub body_motion: f64,
    /// The Hausdorff distance between the manifold's points and where they should be
    /// (for B's nudges: where they were; for the scene's: the rigid motion of where
    /// they were); `None` when the nudged pose had no manifold (lost or gained).
    pub point_motion: Option<f64>,
    /// The angle between the normals (radians).
    pub normal_turn: f64,
}

impl JitterSample {
    /// Point motion per unit of body motion (0 when the nudged pose has no manifold:
    /// the shapes came apart beyond the margin, which is no jitter).
    pub fn ratio(&self) -> f64 {
        match self.point_motion {
            Some(m) if self.body_motion > 0.0 => m / self.body_motion,
            _ => 0.0,
        }
    }
}

/// A rule's sweep at one pose.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct JitterReport {
    pub rule: ContactRule,
    pub base_points: usize,
    pub samples: Vec<JitterSample>,
}

impl JitterReport {
    /// The sample whose points moved the most per unit of body motion.
    pub fn worst(&self) -> Option<&JitterSample> {
        self.samples
            .iter()
            .max_by(|x, y| x.ratio().total_cmp(&y.ratio()))
    }

    pub fn worst_ratio(&self) -> f64 {
        self.worst().map_or(0.0, |s| s.ratio())
    }

    /// How many samples jumped (ratio above `threshold`).
    pub fn jumps(&self, threshold: f64) -> usize {
        self.samples
            .iter()
            .filter(|s| s.ratio() > threshold)
            .count()
    }

    /// The largest point motion at each magnitude for one kind of nudge.
    pub fn curve(&self, nudge: Nudge) -> Vec<(f64, Option<f64>)> {
        let mut magnitudes: Vec<f64> = self
            .samples
            .iter()
            .filter(|s| s.nudge == nudge)
            .map(|s| s.magnitude)
            .collect();
        magnitudes.dedup();
        magnitudes
            .into_iter()
            .map(|m| {
                let at = self
                    .samples
                    .iter()
                    .filter(|s| s.nudge == nudge && s.magnitude == m);
                let worst = at
                    .map(|s| s.point_motion)
                    .try_fold(0.0_f64, |a, p| Some(a.max(p?)));
                (m, worst)
            })
            .collect()
    }
}

/// The manifold's points on A, in the world, and its normal (world).
fn world_manifold(
    rule: ContactRule,
    a: &Shape,
    b: &Shape,
    pose_a: &Pose,
    pose_b: &Pose,
    epa: EpaSettings,
    contact: ContactSettings,
) -> Option<(Vec<DVec3>, DVec3)> {
    // Only the points are compared: the clipping stages are not kept.
    let m: Manifold = rule
        .manifold_with(
            Detail::Result,
            a,
            b,
            RelativePose::between(pose_a, pose_b),
            epa,
            contact,
        )
        .ok()?;
    let points = m
        .points
        .iter()
        .map(|p| pose_a.transform_point(p.on_a))
        .collect();
    Some((points, pose_a.transform_vector(m.normal)))
}

/// The symmetric Hausdorff distance between two point sets (`None` when one is empty
/// and the other not).
pub fn hausdorff(p: &[DVec3], q: &[DVec3]) -> Option<f64> {
    if p.is_empty() || q.is_empty() {
        return (p.is_empty() && q.is_empty()).then_some(0.0);
    }
    let one_way = |x: &[DVec3], y: &[DVec3]| {
        x.iter()
            .map(|u| {
                y.iter()
                    .map(|v| u.distance(*v))
                    .fold(f64::INFINITY, f64::min)
            })
            .fold(0.0, f64::max)
    };
    Some(one_way(p, q).max(one_way(q, p)))
}

/// The rule's jitter at the pose (A at `pose_a`, B at `pose_b`); `None` when the pose
/// itself has no manifold.
#[allow(clippy::too_many_arguments)]
pub fn jitter(
    rule: ContactRule,
    a: &Shape,
    b: &Shape,
    pose_a: &Pose,
    pose_b: &Pose,
    epa: EpaSettings,
    contact: ContactSettings,
    settings: &JitterSettings,
) -> Option<JitterReport> {
    let (base, base_normal) = world_manifold(rule, a, b, pose_a, pose_b, epa, contact)?;
    let size = a.extent() + b.extent();
    let mut rng = SplitMix64::new(settings.seed);
    let mut samples = Vec::new();
    for nudge in Nudge::ALL {
        for &magnitude in &settings.magnitudes {
            for _ in 0..settings.trials {
                let direction = rng.unit_vector();
                let sample = match nudge {
                    Nudge::MoveB | Nudge::TurnB => {
                        let (moved, body_motion) = if nudge == Nudge::MoveB {
                            let shift = direction * magnitude * size;
                            (
                                Pose::new(pose_b.translation + shift, pose_b.rotation),
                                shift.length(),
                            )
                        } else {
                            let turn = DQuat::from_axis_angle(direction, magnitude);
                            (
                                Pose::new(pose_b.translation, turn * pose_b.rotation),
                                magnitude * b.extent(),
                            )
                        };
                        let got = world_manifold(rule, a, b, pose_a, &moved, epa, contact);
                        JitterSample {
                            nudge,
                            magnitude,
                            body_motion,
                            point_motion: got.as_ref().and_then(|(p, _)| hausdorff(&base, p)),
                            normal_turn: got.map_or(0.0, |(_, n)| n.angle_between(base_normal)),
                        }
                    }
                    Nudge::MoveScene | Nudge::TurnScene => {
                        let scene = if nudge == Nudge::MoveScene {
                            Pose::new(direction * magnitude * size, DQuat::IDENTITY)
                        } else {
                            Pose::new(DVec3::ZERO, DQuat::from_axis_angle(direction, magnitude))
                        };
                        let (moved_a, moved_b) =
                            (scene.then_local(pose_a), scene.then_local(pose_b));
                        let body_motion = base
                            .iter()
                            .map(|p| scene.transform_point(*p).distance(*p))
                            .fold(0.0, f64::max);
                        let expected: Vec<DVec3> =
                            base.iter().map(|p| scene.transform_point(*p)).collect();
                        let got = world_manifold(rule, a, b, &moved_a, &moved_b, epa, contact);
                        JitterSample {
                            nudge,
                            magnitude,
                            body_motion,
                            point_motion: got.as_ref().and_then(|(p, _)| hausdorff(&expected, p)),
                            normal_turn: got.map_or(0.0, |(_, n)| {
                                n.angle_between(scene.transform_vector(base_normal))
                            }),
                        }
                    }
                };
                samples.push(sample);
            }
        }
    }
    Some(JitterReport {
        rule,
        base_points: base.len(),
        samples,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shape::{Cuboid, Cylinder};
    use glam::DMat3;

    fn slab() -> Shape {
        Shape::Cuboid(Cuboid::new(DVec3::new(2.0, 2.0, 0.5)).unwrap())
    }

    #[test]
    fn a_box_resting_flat_moves_with_the_body() {
        let b = Shape::Cuboid(Cuboid::new(DVec3::splat(0.5)).unwrap());
        let pose_a = Pose::from_translation(DVec3::ZERO);
        let pose_b = Pose::from_translation(DVec3::new(0.3, -0.2, 0.99));
        for rule in ContactRule::ALL {
            // Up to 1e-4: a turn of 1e-3 tilts the 1-wide face by more than Coal's
            // absolute patch tolerance, and Coal's patch then jumps (tested below).
            let settings = JitterSettings {
                magnitudes: vec![1e-9, 1e-7, 1e-5, 1e-4],
                ..JitterSettings::default()
            };
            let report = jitter(
                rule,
                &slab(),
                &b,
                &pose_a,
                &pose_b,
                EpaSettings::default(),
                ContactSettings::default(),
                &settings,
            )
            .unwrap();
            assert_eq!(report.base_points, 4, "{rule:?}");
            // Moving B by d moves its corners by d; turning B by θ moves them by at most
            // θ·extent. No point moves more than a few times the body.
            assert!(report.worst_ratio() < 3.0, "{rule:?}: {:?}", report.worst());
        }
    }

    #[test]
    fn a_face_at_the_edge_of_the_band_jumps_and_the_sweep_says_so() {
        // B tilted about y until its far edge leaves the feature band: near that tilt a
        // nudge of 1e-4 rad brings two corners in or out of the manifold, points moving
        // by the face's width for a body motion of 1e-4: a jump.
        let b = Shape::Cuboid(Cuboid::new(DVec3::splat(0.5)).unwrap());
        let pose_a = Pose::from_translation(DVec3::ZERO);
        let jumped = (0..60).any(|k| {
            let tilt = 2e-3 + k as f64 * 1e-4;
            let pose_b =
                Pose::from_matrix(DVec3::new(0.0, 0.0, 0.995), DMat3::from_rotation_y(tilt));
            jitter(
                ContactRule::Clipping,
                &slab(),
                &b,
                &pose_a,
                &pose_b,
                EpaSettings::default(),
                ContactSettings::default(),
                &JitterSettings::default(),
            )
            .is_some_and(|r| r.jumps(100.0) > 0)
        });
        assert!(jumped);
    }

    #[test]
    fn parrys_square_cap_turns_with_a_tilt_of_a_billionth() {
        // A cylinder standing on its cap: parry approximates the cap by a square whose
        // corners sit at the azimuth of the normal's tiny sideways part, so nudges of
        // 1e-9 turn the square; our rule samples the rim in the body's own frame, steady
        // under nudges up to 1e-6. (A real tilt of 1e-3 makes one side of the rim the
        // deepest, and Jolt's reduction rightly moves its four points there.)
        let cylinder = Shape::Cylinder(Cylinder::new(0.4, 0.5).unwrap());
        let pose_a = Pose::from_translation(DVec3::ZERO);
        let pose_b = Pose::from_matrix(DVec3::new(0.1, 0.2, 0.99), DMat3::IDENTITY);
        let pose_b = Pose::from_matrix(
            pose_b.translation,
            DMat3::from_rotation_x(std::f64::consts::FRAC_PI_2),
        );
        let run = |rule| {
            jitter(
                rule,
                &slab(),
                &cylinder,
                &pose_a,
                &pose_b,
                EpaSettings::default(),
                ContactSettings::default(),
                &JitterSettings::default(),
            )
            .unwrap()
        };
        let small = |report: &JitterReport| {
            report
                .samples
                .iter()
                .filter(|s| s.magnitude <= 1e-6 && s.ratio() > 100.0)
                .count()
        };
        let parry = run(ContactRule::Parry);
        assert!(small(&parry) > 0, "{:?}", parry.worst());
        let ours = run(ContactRule::Clipping);
        assert_eq!(small(&ours), 0, "{:?}", ours.worst());
    }

    #[test]
    fn coals_absolute_patch_tolerance_makes_a_box_turned_by_a_thousandth_jump() {
        let b = Shape::Cuboid(Cuboid::new(DVec3::splat(0.5)).unwrap());
        let pose_b = Pose::from_translation(DVec3::new(0.3, -0.2, 0.99));
        let report = jitter(
            ContactRule::CoalPatch,
            &slab(),
            &b,
            &Pose::from_translation(DVec3::ZERO),
            &pose_b,
            EpaSettings::default(),
            ContactSettings::default(),
            &JitterSettings::default(),
        )
        .unwrap();
        let worst = report.worst().unwrap();
        assert!(
            worst.ratio() > 100.0 && worst.magnitude == 1e-3,
            "{worst:?}"
        );
    }

    #[test]
    fn hausdorff_of_sets() {
        let p = [DVec3::ZERO, DVec3::X];
        let q = [DVec3::ZERO];
        assert_eq!(hausdorff(&p, &q), Some(1.0));
        assert_eq!(hausdorff(&p, &[]), None);
        assert_eq!(hausdorff(&[], &[]), Some(0.0));
    }
}

/// A square grid of B's tilts about two axes through B's origin (the tangents of the
/// contact normal, world frame): the poses a jitter heat map sweeps. Tilts are where
/// manifolds jump (a face crossing the band, a cap's approximation turning).
#[derive(Clone, Debug, PartialEq)]
pub struct TiltGrid {
    pub centre: Pose,
    pub axis_u: DVec3,
    pub axis_v: DVec3,
    pub half_angle: f64,
    pub cells: usize,
}

impl TiltGrid {
    /// The grid about B's pose, its axes the tangents of `normal` (world).
    pub fn around(centre: Pose, normal: DVec3, half_angle: f64, cells: usize) -> Self {
        let n = normal.normalize_or(DVec3::Z);
        let axis_u = n.any_orthonormal_vector();
        let axis_v = n.cross(axis_u);
        Self {
            centre,
            axis_u,
            axis_v,
            half_angle,
            cells: cells.max(2),
        }
    }

    /// The tilts (about u, about v) of cell (column, row), row 0 at the top.
    pub fn angles(&self, column: usize, row: usize) -> (f64, f64) {
        let step = 2.0 * self.half_angle / (self.cells - 1) as f64;
        (
            -self.half_angle + column as f64 * step,
            self.half_angle - row as f64 * step,
        )
    }

    /// B's world pose at cell (column, row).
    pub fn pose_at(&self, column: usize, row: usize) -> Pose {
        let (u, v) = self.angles(column, row);
        let turn = DQuat::from_axis_angle(self.axis_v, v) * DQuat::from_axis_angle(self.axis_u, u);
        Pose::new(self.centre.translation, turn * self.centre.rotation)
    }
}

/// The worst ratio of a rule's jitter at one cell of the grid (row-major from the
/// top-left); `None` where the pose has no manifold.
#[allow(clippy::too_many_arguments)]
pub fn worst_at_cell(
    rule: ContactRule,
    a: &Shape,
    b: &Shape,
    pose_a: &Pose,
    grid: &TiltGrid,
    epa: EpaSettings,
    contact: ContactSettings,
    settings: &JitterSettings,
    cell: usize,
) -> Option<f64> {
    let pose_b = grid.pose_at(cell % grid.cells, cell / grid.cells);
    jitter(rule, a, b, pose_a, &pose_b, epa, contact, settings).map(|r| r.worst_ratio())
}
