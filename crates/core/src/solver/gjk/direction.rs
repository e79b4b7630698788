//! How GJK's support direction `d_k` is chosen (docs/algorithms.md, "Accelerated
//! GJK: Nesterov, normalised, restart"): plain GJK's `x_k`,
//! or a momentum blend of the last direction and the iterate (Nesterov's, normalised
//! Nesterov's, Polyak's heavy ball), after Montaut et al., "Collision Detection
//! Accelerated: An Optimization Perspective".

use glam::DVec3;
use serde::{Deserialize, Serialize};

/// How the support direction `d_k` is chosen (docs/algorithms.md, "Accelerated GJK:
/// Nesterov, normalised, restart").
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum DirectionRule {
    /// `d_k = x_k`.
    #[default]
    Vanilla,
    /// `δ_k = (k+1)/(k+3)`, momentum on the direction (strictly convex shapes).
    Nesterov,
    /// `δ_k = (k+2)/(k+3)` with normalised directions (meshes, flat faces).
    NesterovNormalized,
    /// Heavy ball: `δ_k = 1/(k+1)`.
    Polyak,
    /// Nesterov with adaptive restart (`nesterov_restart`; the thresholds
    /// named below are `restart.rs`'s). After the first
    /// step (a plain one) it decides from that step whether momentum can pay: a pair
    /// whose certificate gap ‖x‖ − α is already below `FAR_RELATIVE_GAP`·‖x‖ (far
    /// apart: A ⊖ B is seen under a narrow angle and plain GJK converges fast) or whose
    /// first support plane shows a deep overlap (plain GJK encloses the origin in a few
    /// steps, momentum only delays it) goes on with plain steps.
    ///
    /// - Curved shapes (both strictly convex: spheres, ellipsoids): Nesterov's momentum;
    ///   deep overlap is a first plane beyond the origin by more than
    ///   `DEEP_OVERLAP_RATIO`·‖x‖. A momentum step that keeps more than
    ///   `MOMENTUM_SLOW_RATIO` of the gap restarts the momentum (δ from the start,
    ///   O'Donoghue and Candès' scheme on the certificate gap), and a plain step that
    ///   keeps more than `PLAIN_SLOW_RATIO` switches it back on (on a curved surface
    ///   plain GJK can crawl).
    /// - Polytopal shapes (polytopes, boxes): normalised momentum, as
    ///   [`DirectionRule::NesterovNormalized`] (Montaut et al.'s advice for meshes); far
    ///   apart is `FAR_RELATIVE_GAP_FLAT`, deep overlap is the origin lying deeper
    ///   than `DEEP_OVERLAP_DEPTH_FLAT` of the way from the first plane to the
    ///   centres' difference, and either means plain GJK to the end. No restarts: on
    ///   faces a slow step is GJK walking toward its exact end, and a restart costs a
    ///   support.
    /// - Everything else is plain GJK, step for step (`PairKind`): pairs with curved
    ///   and flat parts (capsules, cylinders, cones, dilated and implicit shapes, a box
    ///   against an ellipsoid) and pairs of small polytopes (at most
    ///   `SMALL_POLYTOPE_VERTICES` vertices each: boxes, tetrahedra). Measured in
    ///   support calls, momentum saves nothing there: on the mixed pairs whatever it
    ///   gains near contact (up to 1.2× on capsules) it loses in slight overlaps (up to
    ///   1.26× GJK's calls on a cylinder against a sphere), where it slides one vertex
    ///   along the boundary toward the origin while plain GJK jumps across, and gating
    ///   it on a separating plane leaves no gain; on boxes GJK ends exactly in about four
    ///   steps, and the support a momentum stop discards costs more than momentum saves
    ///   (docs/algorithms.md, "Accelerated GJK").
    ///
    /// A momentum support that makes no progress along x (`2⟨x, x − s⟩ ≤ ε`) ends the
    /// momentum for good, as Nesterov's: restarting there spent a support call each time
    /// near the end of a run for no fewer iterations. Convergence is certified as for
    /// Nesterov: the last steps are plain ones.
    NesterovRestart,
}

/// A momentum rule's weight `(a k + b) / (k + c)` at step `k`: the first steps' quotients
/// computed at compile time (the same correctly rounded numbers), so that a step spares
/// the divider, which its critical path needs for the supports and the projection.
struct MomentumWeights {
    table: [f64; MOMENTUM_TABLE_LEN],
    a: f64,
    b: f64,
    c: f64,
}

const MOMENTUM_TABLE_LEN: usize = 256;

impl MomentumWeights {
    const fn new(a: f64, b: f64, c: f64) -> Self {
        let mut table = [0.0; MOMENTUM_TABLE_LEN];
        let mut k = 0;
        while k < MOMENTUM_TABLE_LEN {
            table[k] = (a * k as f64 + b) / (k as f64 + c);
            k += 1;
        }
        Self { table, a, b, c }
    }

    #[inline(always)]
    fn at(&self, step: usize) -> f64 {
        match self.table.get(step) {
            Some(weight) => *weight,
            None => {
                // Through i64: one conversion instruction, exact below 2⁵³.
                let k = step as i64 as f64;
                (self.a * k + self.b) / (k + self.c)
            }
        }
    }
}

/// Nesterov's `δ_k = (k+1)/(k+3)`, the normalised rule's `(k+2)/(k+3)`, Polyak's `1/(k+1)`.
static NESTEROV_WEIGHTS: MomentumWeights = MomentumWeights::new(1.0, 1.0, 3.0);
static NORMALIZED_WEIGHTS: MomentumWeights = MomentumWeights::new(1.0, 2.0, 3.0);
static POLYAK_WEIGHTS: MomentumWeights = MomentumWeights::new(0.0, 1.0, 1.0);

/// The momentum direction of `rule` at momentum step `step` (steps since momentum
/// started): from the iterate `x` and the last support `s`, and the last direction `d`
/// with its norm. `normalized` blends unit vectors (the normalised rule, and the
/// restart rule on polytopes).
#[inline(always)]
pub(super) fn accelerated(
    rule: DirectionRule,
    normalized: bool,
    step: usize,
    (x, s): (DVec3, DVec3),
    (d, d_norm): (DVec3, f64),
) -> DVec3 {
    match rule {
        DirectionRule::Vanilla => x,
        DirectionRule::Polyak => {
            let m = POLYAK_WEIGHTS.at(step);
            d * m + x * (1.0 - m)
        }
        _ if normalized => {
            let m = NORMALIZED_WEIGHTS.at(step);
            let y = x * m + s * (1.0 - m);
            d * m / d_norm + y * (1.0 - m) / y.length()
        }
        // Nesterov, and the restart rule on strictly convex shapes.
        _ => {
            let m = NESTEROV_WEIGHTS.at(step);
            let y = x * m + s * (1.0 - m);
            d * m + y * (1.0 - m)
        }
    }
}
