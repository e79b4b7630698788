//! Loading a robot: its URDF, the disabled pairs (the SRDF's, or the allowed-collision
//! matrix computed without one), and the first check at the default configuration.

use std::path::Path;

use super::check::RobotState;
use crate::rng::SplitMix64;
use crate::robot::acm::default_configuration;
use crate::robot::path::SmoothPath;
use crate::robot::{checked_pairs, disabled_pairs_for, CollisionMode, RobotModel, SelfCollision};
use crate::solver::Algorithm;

/// Random configurations the allowed-collision matrix samples when there is no SRDF,
/// and the share of them a pair must collide in to be disabled ("always").
const ACM_TRIALS: usize = 1000;
const ACM_ALWAYS: f64 = 0.95;

/// Loads so far, for [`RobotState::generation`].
static LOADS: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);

impl RobotState {
    /// Loads the URDF (and SRDF) and checks the zero configuration, links as hulls (the
    /// panel's toggle checks them as meshes: both are loaded).
    pub fn load(urdf: &Path, srdf: Option<&Path>) -> Result<Self, String> {
        let model = RobotModel::load_as(urdf, None, CollisionMode::Mesh)?;
        if model.shapes.len() < 2 {
            return Err(format!(
                "{}: the robot has {} link{} with collision geometry, so no pair to check",
                urdf.display(),
                model.shapes.len(),
                if model.shapes.len() == 1 { "" } else { "s" }
            ));
        }
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
        let collision = CollisionMode::Hull;
        let mut checker =
            SelfCollision::new(pairs.clone(), Algorithm::GJK).with_collision(collision);
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
            collision,
            other_verdicts: None,
        })
    }
}
