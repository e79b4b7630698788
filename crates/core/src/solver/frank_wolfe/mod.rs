//! Frank-Wolfe on `min ‖x‖²` over `A ⊖ B` (Frank and Wolfe, "An algorithm for quadratic
//! programming"; the away step after Lacoste-Julien and Jaggi, "On the Global Linear
//! Convergence of Frank-Wolfe Optimization Variants"), with the four step rules.
//! The active set is tracked for every rule so the viewer can draw it; the
//! fully-corrective rule re-optimises over it with the GJK projection, which is the
//! paper's point: GJK is fully-corrective Frank-Wolfe.

use std::collections::HashMap;

use glam::DVec3;
use serde::{Deserialize, Serialize};

use super::distance::criteria::{distance_guarantee, CriterionValues};
use super::distance::step::{initial_direction, witness_points};
use super::distance::step::{DistanceStep, WeightedVertex};
use super::outcome::{Outcome, RunSummary};
use super::settings::{QueryMode, SolverSettings};
use super::simplex::{
    barycentric, face_weights, nearest_face, nearest_in_simplex, probed_enclosure, project_origin,
    Simplex, SimplexVertex, ENCLOSURE_PROBES,
};
use super::{run_gjk, DirectionRule};
use crate::minkowski::MinkowskiDifference;
use crate::pose::RelativePose;
use crate::shape::{PointShape, Polytope, Shape};

/// The step-by-step sentences of this family (the viewer, lessons, worksheets).
pub mod kind;
pub mod narrate;
pub use kind::FAMILY;
mod record;

pub use record::{FrankWolfeEvent, FrankWolfeRecord};

/// Where a step's record goes: the caller's buffer, or nowhere (no record work at all).
type Records<'r> = Option<&'r mut Vec<FrankWolfeRecord>>;

/// The step rule of a Frank-Wolfe run.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum StepRule {
    /// `γ_k = 2/(k+2)`.
    Fixed,
    /// Exact line search for `‖x‖²`.
    #[default]
    LineSearch,
    /// Away steps: move away from the worst active vertex when that is steeper.
    AwayStep,
    /// Re-optimise over the whole active set each step (GJK's projection).
    FullyCorrective,
}

/// At most this many active vertices (largest weights) go into a record.
const RECORDED_ACTIVE_SET: usize = 32;

/// A steppable Frank-Wolfe run.
pub struct FrankWolfe<'s> {
    md: MinkowskiDifference<'s>,
    settings: SolverSettings,
    rule: StepRule,
    guess: DVec3,
    /// `x_k` and the active set with the weights that reproduce it: each vertex's
    /// weight is its stored number times `scale`, so that a step, which scales every
    /// weight by 1 − γ, costs the same however large the set has grown (line search on
    /// curved shapes adds a vertex every step: scaling each one made 100 000 steps take
    /// 17 s, quadratic in the count).
    x: DVec3,
    active: Vec<(SimplexVertex, f64)>,
    scale: f64,
    /// Where each active point is in `active` (by its coordinates' bits), for merging
    /// a support with an identical point in constant time.
    position: HashMap<[u64; 3], usize>,
    started: bool,
    alpha: f64,
    k: usize,
    next_id: u32,
    /// The last step's support: beyond the origin when the shapes overlap, so an
    /// overlap proof tries it with the active set.
    last_support: Option<DVec3>,
    /// Fully corrective, once round-off ended a run that was not converged: from then
    /// on the active set is projected from the shapes' points, every face tried (as
    /// GJK's precise mode).
    precise: bool,
    outcome: Option<Outcome>,
}

/// How a fully-corrective run that passed its test ends, once checked from the shapes'
/// points.
enum CorrectiveEnd {
    Certified(Outcome),
    /// Round-off passed the test (the point had left `A ⊖ B`): go on, precisely.
    Refine,
}

impl<'s> FrankWolfe<'s> {
    pub fn new(md: MinkowskiDifference<'s>, rule: StepRule, settings: SolverSettings) -> Self {
        let guess = initial_direction(&md, &settings);
        let guess = if guess.length() < settings.tolerance || !guess.is_finite() {
            DVec3::new(-1.0, 0.0, 0.0)
        } else {
            guess
        };
        Self {
            md,
            settings,
            rule,
            guess,
            x: guess,
            active: Vec::new(),
            scale: 1.0,
            position: HashMap::new(),
            started: false,
            alpha: 0.0,
            k: 0,
            next_id: 1,
            last_support: None,
            precise: false,
            outcome: None,
        }
    }

    fn new_support(&mut self, direction: DVec3) -> SimplexVertex {
        let v = SimplexVertex {
            id: self.next_id,
            point: self.md.support(-direction),
        };
        self.next_id += 1;
        v
    }

    /// Adds `weight` to `v` in the active set, merging it with an identical point.
    fn add_weight(&mut self, v: SimplexVertex, weight: f64) -> Option<u32> {
        let stored = weight / self.scale;
        if let Some(&i) = self.position.get(&point_key(v.point.w)) {
            self.active[i].1 += stored;
            None
        } else {
            self.position
                .insert(point_key(v.point.w), self.active.len());
            self.active.push((v, stored));
            Some(v.id)
        }
    }

    /// The weights as they are (`scale` applied to every stored number, then 1).
    fn settle(&mut self) {
        let scale = self.scale;
        self.active.iter_mut().for_each(|(_, w)| *w *= scale);
        self.scale = 1.0;
    }

    /// Replaces the active set (weights as they are) and its index.
    fn set_active(&mut self, active: Vec<(SimplexVertex, f64)>) {
        self.active = active;
        self.scale = 1.0;
        self.position = self
            .active
            .iter()
            .enumerate()
            .map(|(i, (v, _))| (point_key(v.point.w), i))
            .collect();
    }

    /// Drops vertices whose weight reached zero; returns their labels.
    fn prune(&mut self) -> Vec<u32> {
        self.settle();
        if self.active.iter().all(|(_, w)| *w > 0.0) {
            return Vec::new();
        }
        let dropped = self
            .active
            .iter()
            .filter(|(_, w)| *w <= 0.0)
            .map(|(v, _)| v.id)
            .collect();
        let kept = self.active.drain(..).filter(|(_, w)| *w > 0.0).collect();
        self.set_active(kept);
        dropped
    }

    /// The Frank-Wolfe move `x ← x + γ (s − x)`, with the active set's weights: every
    /// weight times 1 − γ (one multiplication of `scale`), then γ added at `s`.
    fn step_toward(&mut self, s: SimplexVertex, gamma: f64) -> FrankWolfeEvent {
        self.x += (s.point.w - self.x) * gamma;
        let mut dropped = Vec::new();
        if gamma >= 1.0 {
            // Every weight drops to 0; a vertex at `s` itself stays, with weight 1.
            let at_s = self.position.get(&point_key(s.point.w)).copied();
            let kept: Vec<(SimplexVertex, f64)> =
                at_s.map(|i| (self.active[i].0, 0.0)).into_iter().collect();
            dropped = self
                .active
                .iter()
                .enumerate()
                .filter(|(i, _)| Some(*i) != at_s)
                .map(|(_, (v, _))| v.id)
                .collect();
            self.set_active(kept);
        } else {
            self.scale *= 1.0 - gamma;
            if self.scale < 1e-150 {
                self.settle();
            }
        }
        let added = if gamma > 0.0 {
            self.add_weight(s, gamma)
        } else {
            None
        };
        FrankWolfeEvent::Step {
            added,
            gamma,
            away: false,
            dropped,
        }
    }

    /// One update of `x` toward (or away from) the active set; returns the event.
    fn update(&mut self, s: SimplexVertex) -> Result<FrankWolfeEvent, Outcome> {
        let x = self.x;
        match self.rule {
            StepRule::Fixed | StepRule::LineSearch => {
                let gamma = match self.rule {
                    // 2/(t+2) with t = k − 1 updates so far (the start is iteration 1).
                    StepRule::Fixed => 2.0 / (self.k as f64 + 1.0),
                    _ => line_search(x, s.point.w - x, 1.0),
                };
                Ok(self.step_toward(s, gamma))
            }
            StepRule::AwayStep => {
                self.settle();
                let to_support = s.point.w - x;
                // The away vertex: the active vertex furthest along the gradient.
                let away_index = self
                    .active
                    .iter()
                    .enumerate()
                    .map(|(i, (v, _))| (i, x.dot(v.point.w)))
                    .fold(
                        (0, f64::NEG_INFINITY),
                        |best, c| if c.1 > best.1 { c } else { best },
                    )
                    .0;
                let away_vertex = self.active[away_index];
                let from_away = x - away_vertex.0.point.w;
                // Steeper descent wins: −∇f·d with ∇f ∝ x.
                let take_fw = -x.dot(to_support) >= x.dot(away_vertex.0.point.w) - x.dot(x)
                    || self.active.len() < 2;
                if take_fw {
                    Ok(self.step_toward(s, line_search(x, to_support, 1.0)))
                } else {
                    let lambda = away_vertex.1;
                    let gamma_max = if lambda < 1.0 {
                        lambda / (1.0 - lambda)
                    } else {
                        0.0
                    };
                    let gamma = line_search(x, from_away, gamma_max);
                    self.x = x + from_away * gamma;
                    self.active.iter_mut().for_each(|(_, w)| *w *= 1.0 + gamma);
                    self.active[away_index].1 -= gamma;
                    if gamma >= gamma_max {
                        self.active[away_index].1 = 0.0;
                    }
                    let dropped = self.prune();
                    Ok(FrankWolfeEvent::Step {
                        added: None,
                        gamma,
                        away: true,
                        dropped,
                    })
                }
            }
            StepRule::FullyCorrective => {
                let before: Vec<u32> = self.active.iter().map(|(v, _)| v.id).collect();
                let mut simplex =
                    Simplex::from_slice(&self.active.iter().map(|(v, _)| *v).collect::<Vec<_>>());
                simplex.push(s);
                if self.precise {
                    self.project_precisely(simplex)?;
                } else {
                    let projection = project_origin(&simplex, self.settings.tetrahedron);
                    let active = projection
                        .simplex
                        .vertices()
                        .iter()
                        .zip(barycentric(&projection.simplex, projection.x))
                        .map(|(v, w)| (*v, w))
                        .collect();
                    self.set_active(active);
                    self.x = projection.x;
                    if projection.contains_origin {
                        return Err(Outcome::Intersecting);
                    }
                }
                let kept: Vec<u32> = self.active.iter().map(|(v, _)| v.id).collect();
                let dropped = before.into_iter().filter(|id| !kept.contains(id)).collect();
                Ok(FrankWolfeEvent::Reoptimised {
                    added: s.id,
                    dropped,
                })
            }
        }
    }

    /// The precise projection: the nearest point of the simplex from the shapes' points,
    /// every face tried, "inside" by exact signs; the active set becomes the face that
    /// holds it, with its weights.
    fn project_precisely(&mut self, simplex: Simplex) -> Result<(), Outcome> {
        let (face, x) = nearest_face(simplex).ok_or_else(no_nearest_point)?;
        let weights = face_weights(&face).ok_or_else(no_nearest_point)?;
        self.set_active(weighted_face(&face, weights));
        self.x = x;
        if x == DVec3::ZERO {
            return Err(Outcome::Intersecting);
        }
        Ok(())
    }

    /// Fully corrective, its test passed: the active face's nearest point recomputed
    /// from the shapes' points, a point of `A ⊖ B` (the loop's, from GJK's projection of
    /// rounded differences, can leave it: a long thin face tilts). As GJK ends
    /// (`finish_separated`): certified when the best plane α, or a fresh plane at the
    /// recomputed point, brackets the distance as the criterion guarantees; otherwise
    /// the run goes on precisely once, and after that says `stalled` with both bounds.
    fn corrective_end(&mut self) -> CorrectiveEnd {
        let simplex = Simplex::from_slice(&self.active.iter().map(|(v, _)| *v).collect::<Vec<_>>());
        // A face with no nearest point (degenerate): its nearest vertex, a point too.
        let (x, active) = match nearest_in_simplex(&simplex) {
            Some((x, weights)) => (x, weighted_face(&simplex, weights)),
            None => match self.active.iter().min_by(|p, q| {
                p.0.point
                    .w
                    .length_squared()
                    .total_cmp(&q.0.point.w.length_squared())
            }) {
                Some(&(v, _)) => (v.point.w, vec![(v, 1.0)]),
                None => return CorrectiveEnd::Certified(no_nearest_point()),
            },
        };
        let upper = x.length();
        let (criterion, kind, tolerance) = (
            self.settings.criterion,
            self.settings.kind,
            self.settings.tolerance,
        );
        let guarantee = distance_guarantee(criterion, kind, tolerance, upper);
        self.set_active(active);
        self.x = x;
        if self.alpha > 0.0 && self.alpha <= upper && upper - self.alpha <= guarantee {
            return CorrectiveEnd::Certified(Outcome::converged(upper, self.alpha));
        }
        let s = self.md.support_uncounted(-x).w;
        let plane = self.alpha.max(x.dot(s) / upper).min(upper);
        let lower = plane.max(0.0);
        let passes = CriterionValues::new(upper, lower, 2.0 * x.dot(x - s))
            .passes(criterion, kind, tolerance, upper);
        if passes || upper - lower <= guarantee {
            return CorrectiveEnd::Certified(Outcome::converged(upper, plane));
        }
        if !self.precise {
            self.precise = true;
            self.alpha = lower;
            return CorrectiveEnd::Refine;
        }
        CorrectiveEnd::Certified(if lower > 0.0 {
            Outcome::Stalled {
                distance: upper,
                lower_bound: lower,
            }
        } else {
            Outcome::Contact { distance: upper }
        })
    }

    fn record(
        &mut self,
        out: &mut Records,
        event: FrankWolfeEvent,
        direction: DVec3,
        support: Option<SimplexVertex>,
        omega: f64,
        criteria: CriterionValues,
    ) {
        let Some(out) = out else {
            return;
        };
        let s = self.md.support_uncounted(-self.x);
        let fw_gap = 2.0 * self.x.dot(self.x - s.w);
        let mut simplex: Vec<WeightedVertex> = self
            .active
            .iter()
            .map(|(v, w)| WeightedVertex::new(*v, *w * self.scale))
            .collect();
        simplex.sort_by(|a, b| b.weight.total_cmp(&a.weight));
        simplex.truncate(RECORDED_ACTIVE_SET);
        out.push(FrankWolfeRecord {
            step: DistanceStep {
                k: self.k,
                direction,
                support,
                simplex,
                x: self.x,
                x_norm: self.x.length(),
                omega,
                alpha: self.alpha,
                criteria,
                fw_gap,
                support_calls: self.md.stats().calls,
            },
            event,
            active_set_size: self.active.len(),
        });
    }

    fn finish(&mut self, outcome: Outcome) -> Option<Outcome> {
        let outcome = match outcome {
            Outcome::Contact { .. }
                if self.settings.overlap_proof && self.active_set_encloses_origin() =>
            {
                Outcome::Intersecting
            }
            other => other,
        }
        .allowing_round_off(self.md.round_off());
        self.outcome = Some(outcome.clone());
        Some(outcome)
    }
}

impl FrankWolfe<'_> {
    /// Whether the active points (points of `A ⊖ B`) enclose the origin, by exact signs:
    /// a run that stops near the origin without a separating plane proves an overlap
    /// this way, as GJK does with its simplex. A few points: every four of them; many
    /// (line search keeps every support it took): GJK on their hull, whose enclosure
    /// is certified by the same exact signs.
    fn active_set_encloses_origin(&mut self) -> bool {
        let mut points: Vec<DVec3> = self.active.iter().map(|(v, _)| v.point.w).collect();
        points.extend(self.last_support);
        let md = &mut self.md;
        if let Some(encloses) = probed_enclosure(&points, |d| md.support_uncounted(d).w) {
            return encloses;
        }
        points.extend(ENCLOSURE_PROBES.iter().map(|d| md.support_uncounted(*d).w));
        let Ok(cloud) = Polytope::from_points(&points) else {
            return false;
        };
        let (cloud, origin) = (Shape::Polytope(cloud), Shape::Point(PointShape));
        let md = MinkowskiDifference::new(
            &cloud,
            &origin,
            RelativePose::from_matrix(glam::DMat3::IDENTITY, DVec3::ZERO),
        );
        let settings = SolverSettings {
            max_iterations: 1000,
            ..SolverSettings::default()
        };
        run_gjk(md, DirectionRule::Vanilla, settings, &[]).outcome == Outcome::Intersecting
    }
}

/// The simplex's vertices with positive weight, weighted (storage order).
fn weighted_face(simplex: &Simplex, weights: [f64; 4]) -> Vec<(SimplexVertex, f64)> {
    simplex
        .vertices()
        .iter()
        .zip(weights)
        .filter(|(_, w)| *w > 0.0)
        .map(|(v, w)| (*v, w))
        .collect()
}

fn no_nearest_point() -> Outcome {
    Outcome::Degenerate {
        reason: "the active set has no nearest point".into(),
    }
}

/// A point's coordinates as bits (−0 read as +0), the key of the active set's index.
fn point_key(p: DVec3) -> [u64; 3] {
    let p = p + DVec3::ZERO;
    [p.x.to_bits(), p.y.to_bits(), p.z.to_bits()]
}

/// `argmin_γ ‖x + γ d‖²` on `[0, γ_max]`.
fn line_search(x: DVec3, d: DVec3, gamma_max: f64) -> f64 {
    let dd = d.length_squared();
    if dd.is_nan() || dd <= 0.0 {
        return 0.0;
    }
    (-x.dot(d) / dd).clamp(0.0, gamma_max.max(0.0))
}

impl FrankWolfe<'_> {
    /// One step, its record pushed to `out` when given.
    pub fn step_into(&mut self, mut out: Records) -> Option<Outcome> {
        if let Some(done) = &self.outcome {
            return Some(done.clone());
        }
        let eps = self.settings.tolerance;
        if !self.started {
            // x₁: the support along −x₀ (x₀ the initial direction), a point of A ⊖ B.
            // Counted as GJK counts its first support, so that step k makes x_k in
            // both and their iteration counts compare.
            self.started = true;
            self.k = 1;
            let s0 = self.new_support(self.guess);
            // What GJK's first step reads off the same support: the gap at x₀ and the
            // plane through w₁ perpendicular to x₀ (a lower bound when ω > 0).
            let (x0, r0) = (self.guess, self.guess.length());
            let (omega, criteria) = if r0 > 0.0 && r0.is_finite() {
                let omega = x0.dot(s0.point.w) / r0;
                self.alpha = self.alpha.max(omega);
                let gap = 2.0 * x0.dot(x0 - s0.point.w);
                (omega, CriterionValues::new(r0, self.alpha, gap))
            } else {
                (f64::NAN, CriterionValues::default())
            };
            self.x = s0.point.w;
            self.set_active(vec![(s0, 1.0)]);
            self.record(
                &mut out,
                FrankWolfeEvent::Started { added: s0.id },
                x0,
                Some(s0),
                omega,
                criteria,
            );
            if self.k >= self.settings.max_iterations {
                return self.finish(Outcome::IterationCap {
                    lower_bound: self.alpha,
                    upper_bound: self.x.length(),
                });
            }
            return None;
        }
        let r = self.x.length();
        if !r.is_finite() {
            self.record(
                &mut out,
                FrankWolfeEvent::Degenerate,
                self.x,
                None,
                f64::NAN,
                CriterionValues::default(),
            );
            return self.finish(Outcome::Degenerate {
                reason: "the iterate is not finite".into(),
            });
        }
        if r < eps {
            self.record(
                &mut out,
                FrankWolfeEvent::WithinTolerance,
                self.x,
                None,
                f64::NAN,
                CriterionValues::default(),
            );
            // Within the tolerance of the origin, but no active set encloses it.
            return self.finish(Outcome::Contact { distance: r });
        }
        let direction = self.x;
        let s = self.new_support(direction);
        self.last_support = Some(s.point.w);
        let gap = 2.0 * self.x.dot(self.x - s.point.w);
        let omega = self.x.dot(s.point.w) / r;
        self.alpha = self.alpha.max(omega);
        let criteria = CriterionValues::new(r, self.alpha, gap);
        if let QueryMode::Boolean { bound } = self.settings.mode {
            // Beyond the bound by more than round-off: a gap within it proves nothing.
            if omega > bound && omega - bound > self.md.round_off() {
                self.record(
                    &mut out,
                    FrankWolfeEvent::SeparatingPlane,
                    direction,
                    Some(s),
                    omega,
                    criteria,
                );
                return self.finish(Outcome::SeparatedEarlyStop { lower_bound: omega });
            }
        }
        if criteria.passes(self.settings.criterion, self.settings.kind, eps, r) {
            let outcome = if self.rule == StepRule::FullyCorrective {
                match self.corrective_end() {
                    CorrectiveEnd::Certified(outcome) => outcome,
                    CorrectiveEnd::Refine => {
                        let event = FrankWolfeEvent::Refined;
                        self.record(&mut out, event, direction, Some(s), omega, criteria);
                        return None;
                    }
                }
            } else {
                Outcome::converged(r, self.alpha)
            };
            self.record(
                &mut out,
                FrankWolfeEvent::Converged,
                direction,
                Some(s),
                omega,
                criteria,
            );
            return self.finish(outcome);
        }
        let event = match self.update(s) {
            Ok(event) => event,
            Err(outcome) => {
                self.record(
                    &mut out,
                    FrankWolfeEvent::OriginEnclosed { added: s.id },
                    direction,
                    Some(s),
                    omega,
                    criteria,
                );
                return self.finish(outcome);
            }
        };
        self.k += 1;
        self.record(&mut out, event, direction, Some(s), omega, criteria);
        if self.k >= self.settings.max_iterations {
            return self.finish(Outcome::IterationCap {
                lower_bound: self.alpha,
                upper_bound: self.x.length(),
            });
        }
        None
    }

    /// Steps to the end, every record pushed to `out` when given.
    pub fn run_into(&mut self, mut out: Records) -> RunSummary {
        loop {
            if self.step_into(out.as_deref_mut()).is_some() {
                if let Some(summary) = self.run_summary() {
                    return summary;
                }
            }
        }
    }

    /// The run's summary, once it has ended.
    pub fn run_summary(&self) -> Option<RunSummary> {
        let outcome = self.outcome.clone()?;
        let (witness_a, witness_b) = match &outcome {
            Outcome::Separated { .. } | Outcome::Contact { .. } => {
                let vertices: Vec<SimplexVertex> = self.active.iter().map(|(v, _)| *v).collect();
                let weights: Vec<f64> = self.active.iter().map(|(_, w)| *w * self.scale).collect();
                let (a, b) = witness_points(&vertices, &weights);
                (Some(a), Some(b))
            }
            _ => (None, None),
        };
        Some(RunSummary {
            outcome,
            iterations: self.k,
            stats: self.md.stats(),
            witness_a,
            witness_b,
            momentum_stopped_at: None,
            simplex: Simplex::new(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shape::{Capsule, Sphere};

    /// The active set's weights are stored against a running scale (a step costs the
    /// same however many vertices line search has gathered): after 20 000 steps on a
    /// curved pair, each a new vertex, they still sum to 1 and reproduce x, and the
    /// witness points are x's parts.
    #[test]
    fn lazily_scaled_weights_still_reproduce_the_iterate() {
        let a = Shape::Capsule(Capsule::new(0.3, 0.5).unwrap());
        let b = Shape::Sphere(Sphere::new(0.4).unwrap());
        let pose = RelativePose::from_matrix(glam::DMat3::IDENTITY, DVec3::new(0.9, 0.2, 0.1));
        let settings = SolverSettings {
            tolerance: 1e-14,
            max_iterations: 20_000,
            ..SolverSettings::default()
        };
        let md = MinkowskiDifference::new(&a, &b, pose);
        let mut fw = FrankWolfe::new(md, StepRule::LineSearch, settings);
        let summary = fw.run_into(None);
        assert_eq!(summary.iterations, 20_000, "{}", summary.outcome);
        assert!(
            fw.active.len() > 1000,
            "{} active vertices",
            fw.active.len()
        );
        let total: f64 = fw.active.iter().map(|(_, w)| *w * fw.scale).sum();
        let point = fw
            .active
            .iter()
            .fold(DVec3::ZERO, |p, (v, w)| p + v.point.w * (*w * fw.scale));
        assert!((total - 1.0).abs() < 1e-9, "weights sum to {total}");
        assert!((point - fw.x).length() < 1e-9, "{point} vs {}", fw.x);
    }

    #[test]
    fn an_iteration_cap_beyond_a_million_is_refused() {
        let settings = SolverSettings {
            max_iterations: 1 << 32,
            ..SolverSettings::default()
        };
        let err = settings.validate().unwrap_err();
        assert!(err.contains("at most"), "{err}");
    }
}
