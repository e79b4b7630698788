//! What a step of the distance families (GJK and Frank-Wolfe) shares: an iterate in
//! `A ⊖ B`, the support it took and the points that carry the iterate. Each family's
//! record wraps one of these with its own event.

use glam::DVec3;
use serde::{Deserialize, Serialize};

use super::criteria::CriterionValues;
use crate::minkowski::{CsoPoint, MinkowskiDifference};
use crate::shape::SupportMap;
use crate::solver::{InitialGuess, SimplexVertex, SolverSettings};

/// A simplex (or active-set) vertex with its barycentric weight in the iterate.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct WeightedVertex {
    pub id: u32,
    pub point: CsoPoint,
    pub weight: f64,
}

impl WeightedVertex {
    pub fn new(v: SimplexVertex, weight: f64) -> Self {
        Self {
            id: v.id,
            point: v.point,
            weight,
        }
    }
}

/// One step of a distance solver.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct DistanceStep {
    /// The iteration counter after this step (Coal's count).
    pub k: usize,
    /// The direction `d_k` whose support was taken (`s_k = S_D(−d_k)`).
    pub direction: DVec3,
    /// The support point `s_k` with its parts, when this step took one.
    pub support: Option<SimplexVertex>,
    /// The simplex (or Frank-Wolfe active set, largest weights first when truncated)
    /// after this step, with the weights of `x`.
    pub simplex: Vec<WeightedVertex>,
    /// The iterate after this step.
    pub x: DVec3,
    pub x_norm: f64,
    /// `⟨d_k, s_k⟩/‖d_k‖`: this step's lower bound on the distance.
    pub omega: f64,
    /// The best lower bound so far.
    pub alpha: f64,
    /// Stopping quantities tested in this step (at the iterate before the update).
    pub criteria: CriterionValues,
    /// The true Frank-Wolfe duality gap `2⟨x, x − S_D(−x)⟩` at `x` (display only; its
    /// support call is not counted).
    pub fw_gap: f64,
    /// Solver support calls so far.
    pub support_calls: u64,
}

impl DistanceStep {
    /// The name's number of the iterate of step `index` (from 0) of a run whose steps
    /// `step_at` gives: step k makes x_k, except a step that counts no iteration (a
    /// final test, Nesterov's momentum stop), whose x keeps the name the step before
    /// gave it (through several such steps in a row).
    pub fn iterate_number<'s>(
        index: usize,
        step_at: impl Fn(usize) -> Option<&'s DistanceStep>,
    ) -> usize {
        let mut i = index;
        while i > 0 {
            match (step_at(i), step_at(i - 1)) {
                (Some(step), Some(previous)) if step.k == previous.k => i -= 1,
                _ => break,
            }
        }
        i + 1
    }

    /// Every vector of the step (all in A's frame) through `f`: a run made in another
    /// frame of A, reported in A's own ([`super::coal_replay`]).
    pub fn map_vectors(&mut self, f: impl Fn(DVec3) -> DVec3) {
        let point = |p: &mut CsoPoint| {
            p.w = f(p.w);
            p.a = f(p.a);
            p.b = f(p.b);
        };
        self.direction = f(self.direction);
        if let Some(s) = &mut self.support {
            point(&mut s.point);
        }
        for v in &mut self.simplex {
            point(&mut v.point);
        }
        self.x = f(self.x);
    }

    /// Whether `x` is a point of `A ⊖ B` (every iterate but the bare initial guess).
    pub fn x_in_difference(&self) -> bool {
        !self.simplex.is_empty()
    }

    /// The CSV columns after `algorithm,k,event` (see [`CSV_HEADER`]), `extra` being the
    /// family's own column (momentum for GJK, the active-set size for Frank-Wolfe).
    pub fn csv_fields(&self, active_set_size: usize, momentum: bool) -> String {
        format!(
            "{:e},{:e},{:e},{:e},{:e},{:e},{:e},{},{},{},{:e},{:e},{:e}",
            self.x_norm,
            self.fw_gap,
            self.criteria.van_den_bergen,
            self.criteria.duality_gap,
            self.criteria.hybrid,
            self.omega,
            self.alpha,
            active_set_size,
            self.support_calls,
            momentum,
            self.x.x,
            self.x.y,
            self.x.z
        )
    }
}

/// The CSV header of the distance families (the CLI's `solve --csv`, the viewer's export).
pub const CSV_HEADER: &str = "algorithm,k,event,x_norm,fw_gap,van_den_bergen,duality_gap,hybrid,omega,alpha,simplex_size,support_calls,momentum,x,y,z";

/// The first direction, from the settings (Coal's guesses; Montaut et al., "Collision
/// Detection Accelerated: An Optimization Perspective").
pub(crate) fn initial_direction<A: SupportMap, B: SupportMap>(
    md: &MinkowskiDifference<'_, A, B>,
    settings: &SolverSettings,
) -> DVec3 {
    match settings.initial_guess {
        InitialGuess::CentreDifference => md.centre_difference(),
        InitialGuess::OriginDifference => md.origin_difference(),
        InitialGuess::UnitX => DVec3::X,
        InitialGuess::Direction(d) => d,
    }
}

/// Witness points `Σ λ_i a_i` and `Σ λ_i b_i` (A's frame).
pub(crate) fn witness_points(vertices: &[SimplexVertex], weights: &[f64]) -> (DVec3, DVec3) {
    vertices
        .iter()
        .zip(weights)
        .fold((DVec3::ZERO, DVec3::ZERO), |(a, b), (v, w)| {
            (a + v.point.a * *w, b + v.point.b * *w)
        })
}
