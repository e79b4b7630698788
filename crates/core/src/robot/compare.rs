//! Hulls against meshes: every checked pair at each configuration checked both ways
//! (the links' convex hulls, and the meshes MoveIt and Pinocchio check), and the pairs
//! whose verdict changes (colliding as hulls but apart as meshes; the other way only
//! through round-off, since a mesh lies inside its hull), with both distances.

use super::check::{ConfigAnswer, PairAnswer, SelfCollision};
use super::model::{CollisionMode, RobotModel};
use crate::solver::Algorithm;

/// One pair at one configuration where hulls and meshes disagree.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct VerdictChange {
    /// Index into the configurations.
    pub config: usize,
    /// Index into the checked pairs.
    pub pair: usize,
    pub hull: f64,
    pub hull_colliding: bool,
    pub mesh: f64,
    pub mesh_colliding: bool,
}

/// Both checks of every pair at every configuration, and where they disagree.
pub struct HullMeshComparison {
    pub hull: Vec<ConfigAnswer>,
    pub mesh: Vec<ConfigAnswer>,
    /// The pairs whose verdict (colliding or apart) changes, by configuration then pair.
    pub changes: Vec<VerdictChange>,
    /// Pair configurations compared (pairs × configurations).
    pub compared: usize,
    /// The largest |mesh − hull| distance over every pair configuration (a colliding
    /// pair counts 0), and where: `(difference, config, pair)`.
    pub largest_difference: Option<(f64, usize, usize)>,
}

impl HullMeshComparison {
    /// Checks `pairs` at each of `configs` as hulls and as meshes (`model` loaded with
    /// [`CollisionMode::Mesh`]; loaded as hulls, both checks are the hulls').
    pub fn run(
        model: &RobotModel,
        pairs: &[(usize, usize)],
        configs: &[Vec<f64>],
        algorithm: Algorithm,
    ) -> Self {
        let mut hulls =
            SelfCollision::new(pairs.to_vec(), algorithm).with_collision(CollisionMode::Hull);
        let mut meshes =
            SelfCollision::new(pairs.to_vec(), algorithm).with_collision(CollisionMode::Mesh);
        let hull: Vec<ConfigAnswer> = configs.iter().map(|q| hulls.check(model, q)).collect();
        let mesh: Vec<ConfigAnswer> = configs.iter().map(|q| meshes.check(model, q)).collect();
        let mut changes = Vec::new();
        let mut largest: Option<(f64, usize, usize)> = None;
        let signed = |p: &PairAnswer| if p.colliding { 0.0 } else { p.distance };
        for (c, (h, m)) in hull.iter().zip(&mesh).enumerate() {
            for (k, (hp, mp)) in h.pairs.iter().zip(&m.pairs).enumerate() {
                let difference = (signed(mp) - signed(hp)).abs();
                if largest.is_none_or(|(d, ..)| difference > d) {
                    largest = Some((difference, c, k));
                }
                if hp.colliding != mp.colliding {
                    changes.push(VerdictChange {
                        config: c,
                        pair: k,
                        hull: signed(hp),
                        hull_colliding: hp.colliding,
                        mesh: signed(mp),
                        mesh_colliding: mp.colliding,
                    });
                }
            }
        }
        Self {
            compared: configs.len() * pairs.len(),
            hull,
            mesh,
            changes,
            largest_difference: largest,
        }
    }

    /// Mean seconds per configuration of the hull check and of the mesh check.
    pub fn seconds_per_configuration(&self) -> (f64, f64) {
        let mean = |answers: &[ConfigAnswer]| {
            answers.iter().map(|a| a.seconds).sum::<f64>() / answers.len().max(1) as f64
        };
        (mean(&self.hull), mean(&self.mesh))
    }
}
