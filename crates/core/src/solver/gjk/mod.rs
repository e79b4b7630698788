//! GJK as fully-corrective Frank-Wolfe on simplices, with the accelerated directions of
//! Montaut et al., "Collision Detection Accelerated: An Optimization Perspective"
//! (Nesterov, normalised Nesterov, Polyak). The loop (docs/algorithms.md, "GJK: the same
//! iterations as Coal")
//! reproduces Coal's iteration counts; only the direction depends on the variant
//! (`direction.rs`), and the restart rule's policy lives in `restart.rs`. This file is the
//! loop, to be read beside the paper (Montaut et al., "Collision Detection Accelerated: An
//! Optimization Perspective", Algorithm 2), and its certified ending.

use glam::DVec3;

use super::distance::criteria::{distance_guarantee, CriterionValues};
use super::distance::step::initial_direction;
use super::distance::step::{DistanceStep, WeightedVertex};
use super::outcome::{Outcome, RunSummary};
use super::settings::{QueryMode, SolverSettings};
use super::simplex::{
    barycentric, keep_positive, nearest_in_simplex, nearest_on_tetrahedron_faces, probed_enclosure,
    push_and_project, tetrahedron_contains_origin, Simplex, SimplexVertex,
};
use crate::minkowski::{CsoPoint, MinkowskiDifference};
use crate::shape::{Shape, SupportMap};

mod direction;
/// The step-by-step sentences of this family (the viewer, lessons, worksheets).
pub mod kind;
pub mod narrate;
pub use kind::FAMILY;
mod record;
mod restart;

use direction::accelerated;
pub use direction::DirectionRule;
pub use record::{GjkEvent, GjkRecord, MomentumStop};
pub use restart::restart_plan;
use restart::{Adapt, PairKind, Restart};

/// Where a step's record goes: the caller's buffer, or nowhere (no record work at all).
type Records<'r> = Option<&'r mut Vec<GjkRecord>>;

/// Runs GJK to its end without records, from `warm` (a previous query's simplex, see
/// [`Gjk::warm_simplex`]; empty for none). For the pairs that dominate distance queries
/// (two ellipsoids, two polytopes) the solver is built on the concrete kinds, so their
/// supports inline into its loop; other pairs call through [`Shape`]. Same steps, same
/// answer either way (`tests/coal_problems.rs`, `traced_and_untraced_runs_are_identical`).
pub fn run_gjk(
    md: MinkowskiDifference<'_>,
    rule: DirectionRule,
    settings: SolverSettings,
    warm: &[CsoPoint],
) -> RunSummary {
    // One function per pair of kinds, holding the whole query (setup, loop, finish):
    // compiled the same wherever `run_gjk` is called from. Left to the inliner, the
    // loop's code changed with the caller's, and its time by up to 10 %.
    #[inline(never)]
    fn run<A: SupportMap, B: SupportMap>(
        md: MinkowskiDifference<'_, A, B>,
        rule: DirectionRule,
        settings: SolverSettings,
        warm: &[CsoPoint],
    ) -> RunSummary {
        let mut gjk = Gjk::new(md, rule, settings);
        gjk.start_from(warm);
        gjk.run_into(None)
    }
    match (md.shape_a, md.shape_b) {
        (Shape::Ellipsoid(a), Shape::Ellipsoid(b)) => run(md.concrete(a, b), rule, settings, warm),
        (Shape::Polytope(a), Shape::Polytope(b)) => run(md.concrete(a, b), rule, settings, warm),
        _ => run(md, rule, settings, warm),
    }
}

/// A steppable GJK run. `A` and `B` are the types whose supports it calls (see
/// [`MinkowskiDifference`]); [`run_gjk`] picks concrete ones for the common pairs.
pub struct Gjk<'s, A: SupportMap = Shape, B: SupportMap = Shape> {
    md: MinkowskiDifference<'s, A, B>,
    settings: SolverSettings,
    rule: DirectionRule,
    momentum_on: bool,
    /// The iterate `x_k` (initially the guess, which need not lie in `A ⊖ B`).
    x: DVec3,
    r: f64,
    /// `d_{k−1}` and `s_{k−1}`, for the momentum formulas.
    previous_direction: DVec3,
    /// `‖d_{k−1}‖`, kept from the step that computed it (normalised momentum divides by
    /// it; the same number as recomputing it, one square root less per step).
    previous_direction_norm: f64,
    previous_support: DVec3,
    simplex: Simplex,
    alpha: f64,
    k: usize,
    next_id: u32,
    momentum_stopped_at: Option<usize>,
    /// `NesterovRestart`'s state (when momentum started, the first step's planes, the
    /// pair's kind): [`Restart`].
    restart: Restart,
    /// The momentum blends normalised directions: `NesterovNormalized`, and
    /// `NesterovRestart` on polytopal pairs (Montaut et al.'s rule for meshes).
    normalized_momentum: bool,
    /// Barycentric weights of the refined final point (see `finish_separated`).
    final_weights: Option<[f64; 4]>,
    /// Set once round-off has stopped the loop early: from then on the simplex is
    /// projected from the shapes' points, every face tried.
    precise: bool,
    /// The iterate is a point of `A ⊖ B` from the start (a warm simplex's projection),
    /// so the convergence test may end the run at the first step.
    starts_in_difference: bool,
    /// Under Coal's conventions, the radii the shapes' cores leave out (0 otherwise):
    /// cores closer than this overlap as shapes ([`super::distance::coal_replay`]).
    swept_radius: f64,
    outcome: Option<Outcome>,
}

/// What a step measured before deciding, carried into its record.
struct Measured {
    direction: DVec3,
    support: Option<SimplexVertex>,
    omega: f64,
    criteria: CriterionValues,
}

impl<'s, A: SupportMap, B: SupportMap> Gjk<'s, A, B> {
    pub fn new(
        md: MinkowskiDifference<'s, A, B>,
        rule: DirectionRule,
        settings: SolverSettings,
    ) -> Self {
        let guess = initial_direction(&md, &settings);
        // Only the restart rule reads the pair's kind (plain GJK's start stays as it was).
        let pair = if rule == DirectionRule::NesterovRestart {
            PairKind::of(md.shape_a, md.shape_b)
        } else {
            PairKind::Curved
        };
        let normalized_momentum = match rule {
            DirectionRule::NesterovNormalized => true,
            DirectionRule::NesterovRestart => pair == PairKind::Flat,
            _ => false,
        };
        let (x, r) = if guess.length() < settings.tolerance || !guess.is_finite() {
            (DVec3::new(-1.0, 0.0, 0.0), 1.0)
        } else {
            (guess, guess.length())
        };
        Self {
            md,
            settings,
            rule,
            momentum_on: rule != DirectionRule::Vanilla && pair != PairKind::Plain,
            x,
            r,
            previous_direction: x,
            previous_direction_norm: r,
            previous_support: x,
            simplex: Simplex::new(),
            alpha: 0.0,
            k: 0,
            next_id: 1,
            momentum_stopped_at: None,
            restart: Restart::new(pair),
            normalized_momentum,
            final_weights: None,
            precise: false,
            starts_in_difference: false,
            swept_radius: 0.0,
            outcome: None,
        }
    }

    /// The run is on cores whose shapes are these cores dilated by `radius` in all
    /// (Coal's swept-sphere radius, [`super::distance::coal_replay`]).
    pub fn on_cores_of_radius(mut self, radius: f64) -> Self {
        self.swept_radius = radius;
        self
    }

    /// Starts from a previous query's simplex, its points re-evaluated at the new pose
    /// (Box2D's simplex cache): points of `A ⊖ B`, not supports, so the run goes on from
    /// their nearest point (exact signs, every face tried). Along a smooth path the
    /// answer is often one support away; an enclosing tetrahedron ends the run at once.
    /// An unusable simplex (empty, more than four points, not finite, degenerate) is
    /// ignored.
    pub fn warm_simplex(mut self, points: &[CsoPoint]) -> Self {
        self.start_from(points);
        self
    }

    /// [`Gjk::warm_simplex`] in place (the solver is a kilobyte: not moved per query).
    fn start_from(&mut self, points: &[CsoPoint]) {
        if points.is_empty() || points.len() > 4 || points.iter().any(|p| !p.w.is_finite()) {
            return;
        }
        let mut simplex = Simplex::new();
        for (k, p) in points.iter().enumerate() {
            simplex.push(SimplexVertex {
                id: k as u32 + 1,
                point: *p,
            });
        }
        self.simplex = simplex;
        let (x, _) = self.project_precisely();
        if !x.is_finite() {
            self.simplex = Simplex::new();
            return;
        }
        self.x = x;
        self.r = x.length();
        self.next_id = points.len() as u32 + 1;
        self.previous_direction = x;
        self.previous_direction_norm = self.r;
        self.previous_support = x;
        self.starts_in_difference = true;
    }

    /// The simplex the run ended on, with each vertex's parts on A and B: EPA starts
    /// from it, and a next query can warm-start from it.
    pub fn simplex(&self) -> &Simplex {
        &self.simplex
    }

    fn accelerated_direction(&self) -> DVec3 {
        let step = self.k - self.restart.momentum_from.min(self.k);
        accelerated(
            self.rule,
            self.normalized_momentum,
            step,
            (self.x, self.previous_support),
            (self.previous_direction, self.previous_direction_norm),
        )
    }

    /// `NesterovRestart` after a projection that took the certificate gap from
    /// `previous_gap` to ‖x‖ − α: what [`Restart::adapt`] decides, done.
    fn adapt_momentum(&mut self, previous_gap: f64, momentum: bool) {
        let stopped = self.momentum_stopped_at.is_some();
        match self
            .restart
            .adapt(self.k, self.r, self.alpha, previous_gap, momentum, stopped)
        {
            Adapt::Keep => {}
            Adapt::PlainToTheEnd => {
                self.momentum_on = false;
                self.momentum_stopped_at = Some(self.k);
            }
            Adapt::PlainForNow => self.momentum_on = false,
            Adapt::Restart => self.restart_momentum(),
        }
    }

    /// Momentum from the start again: δ counts from this step, the last direction and
    /// support forgotten (the next direction is x).
    fn restart_momentum(&mut self) {
        self.momentum_on = true;
        self.restart.momentum_from = self.k;
        self.previous_direction = self.x;
        self.previous_direction_norm = self.r;
        self.previous_support = self.x;
    }

    fn stop_momentum(&mut self, out: &mut Records, cause: MomentumStop, measured: Measured) {
        self.momentum_on = false;
        self.momentum_stopped_at = Some(self.k);
        self.record(out, GjkEvent::MomentumStopped { cause }, measured, true);
    }

    fn finish(
        &mut self,
        out: &mut Records,
        outcome: Outcome,
        event: GjkEvent,
        measured: Measured,
        momentum: bool,
    ) -> Option<Outcome> {
        let outcome = outcome.allowing_round_off(self.md.round_off());
        self.outcome = Some(outcome.clone());
        self.record(out, event, measured, momentum);
        Some(outcome)
    }

    /// Ends a separated run with a distance the run can certify. The final simplex's
    /// nearest point is recomputed from the shapes' points ([`nearest_in_simplex`]:
    /// the loop's CSO points carry round-off that a long thin face turns into a tilt,
    /// and short segments into a shift), which makes it a point of `A ⊖ B`: an upper
    /// bound. The loop's best plane α is a lower bound (its supports are exact); when
    /// it does not close the bracket, a fresh support at the recomputed point (not
    /// counted, like the record's FW gap) gives a better separating plane. `Separated`
    /// when the run's criterion passes at the recomputed point or the bounds are as close
    /// as the criterion guarantees; otherwise `Stalled`, with both bounds. The loop itself
    /// keeps Coal's arithmetic, so iteration counts stay Coal's.
    #[inline(never)]
    fn finish_separated(
        &mut self,
        out: &mut Records,
        event: GjkEvent,
        measured: Measured,
    ) -> Option<Outcome> {
        let refined = nearest_in_simplex(&self.simplex);
        let upper = match refined {
            Some((x, weights)) => {
                self.x = x;
                self.r = x.length();
                self.final_weights = Some(weights);
                self.r
            }
            // The loop's point may lie off A ⊖ B by round-off; its vertices do not.
            None => self
                .simplex
                .vertices()
                .iter()
                .map(|v| v.point.w.length())
                .fold(f64::INFINITY, f64::min),
        };
        let guarantee = distance_guarantee(
            self.settings.criterion,
            self.settings.kind,
            self.settings.tolerance,
            upper,
        );
        // The loop's best plane (α, from exact supports) is a lower bound already; it
        // nearly always closes the bracket (and proves the shapes apart), which saves
        // the fresh support.
        if self.alpha > 0.0 && upper - self.alpha.min(upper) <= guarantee {
            let outcome = Outcome::converged(upper, self.alpha);
            return self.finish(out, outcome, event, measured, false);
        }
        let s = self.md.support_uncounted(-self.x).w;
        // Unclamped: its sign is the verdict (a plane below the origin proves nothing).
        let mut plane = self.alpha.max(self.x.dot(s) / self.r);
        if plane <= 0.0 {
            plane = plane.max(self.simplex_plane_gap());
        }
        let plane = plane.min(upper);
        let lower = plane.max(0.0);
        let settings = &self.settings;
        let criteria = CriterionValues::new(self.r, lower, 2.0 * self.x.dot(self.x - s));
        let passes = refined.is_some()
            && criteria.passes(
                settings.criterion,
                settings.kind,
                settings.tolerance,
                self.r,
            );
        if passes || upper - lower <= guarantee {
            let outcome = self.overlap_or(Outcome::converged(upper, plane));
            return self.finish(out, outcome, event, measured, false);
        }
        if !self.precise {
            // Round-off, not convergence, stopped Coal's loop: go on from the certified
            // point with the projection that cannot pick a wrong region (the only steps
            // that depart from Coal's, and only where Coal's answer is not certified).
            self.precise = true;
            self.alpha = lower;
            if let Some((_, weights)) = refined {
                keep_positive(&mut self.simplex, weights);
            }
            self.final_weights = None;
            self.record(out, GjkEvent::Refined, measured, false);
            return None;
        }
        let outcome = if lower > 0.0 {
            Outcome::Stalled {
                distance: upper,
                lower_bound: lower,
            }
        } else {
            self.overlap_or(Outcome::Contact { distance: upper })
        };
        self.finish(out, outcome, event, measured, false)
    }

    /// The gap of the plane of the final simplex's face (its normal from the shapes'
    /// edges) or of the plane across its segment (x with the segment's direction
    /// removed): where `x`'s direction carries round-off (shapes 1e6 long and 1e-3
    /// apart: a tilt of 1e-7 along a 1e6 face is 0.1), the feature's own plane still
    /// separates. `-∞` when the simplex has no such plane.
    #[cold]
    #[inline(never)]
    fn simplex_plane_gap(&mut self) -> f64 {
        let v = self.simplex.vertices();
        let side =
            |i: usize, j: usize| (v[i].point.a - v[j].point.a) - (v[i].point.b - v[j].point.b);
        let normal = match v.len() {
            3 => side(1, 0).cross(side(2, 0)),
            2 => {
                let u = side(1, 0).normalize_or_zero();
                self.x - u * self.x.dot(u)
            }
            _ => return f64::NEG_INFINITY,
        };
        let n = normal.normalize_or_zero();
        if n == DVec3::ZERO || !n.is_finite() {
            return f64::NEG_INFINITY;
        }
        // Oriented from the origin toward the simplex.
        let n = if n.dot(v[0].point.w) < 0.0 { -n } else { n };
        n.dot(self.md.support_uncounted(-n).w)
    }

    /// The end of a run whose iterate is within the tolerance of the origin: an overlap
    /// when the simplex and a few uncounted supports around it enclose the origin
    /// (exact signs), otherwise `Contact` (touching, overlapping, or that near).
    fn within_tolerance(&mut self) -> Outcome {
        if !self.settings.overlap_proof {
            return Outcome::Contact { distance: self.r };
        }
        let points: Vec<DVec3> = self.simplex.vertices().iter().map(|v| v.point.w).collect();
        let md = &mut self.md;
        match probed_enclosure(&points, |d| md.support_uncounted(d).w) {
            Some(true) => Outcome::Intersecting,
            _ => Outcome::Contact { distance: self.r },
        }
    }

    /// `outcome`, or `Intersecting` where it is `Contact` and the simplex, the support
    /// along −x and a few uncounted supports around them enclose the origin. An
    /// absolute stopping test passes once ‖x‖ is small, whatever side of the boundary
    /// the origin is on (overlaps of 1e-4 stopped at ‖x‖ = 1e-5): the support along −x,
    /// beyond the origin, usually closes the enclosure.
    #[cold]
    #[inline(never)]
    fn overlap_or(&mut self, outcome: Outcome) -> Outcome {
        if !matches!(outcome, Outcome::Contact { .. }) || !self.settings.overlap_proof {
            return outcome;
        }
        let mut points: Vec<DVec3> = self.simplex.vertices().iter().map(|v| v.point.w).collect();
        points.push(self.md.support_uncounted(-self.x).w);
        let md = &mut self.md;
        match probed_enclosure(&points, |d| md.support_uncounted(d).w) {
            Some(true) => Outcome::Intersecting,
            _ => outcome,
        }
    }

    /// The projection of the precise mode: nearest point of the simplex from the
    /// shapes' points, every face tried; "inside" by exact signs.
    fn project_precisely(&mut self) -> (DVec3, bool) {
        if self.simplex.len() == 4 {
            if tetrahedron_contains_origin(&self.simplex) {
                return (DVec3::ZERO, true);
            }
            return match nearest_on_tetrahedron_faces(&self.simplex) {
                Some((face, x)) => {
                    self.simplex = face;
                    (x, false)
                }
                None => (DVec3::NAN, false),
            };
        }
        match nearest_in_simplex(&self.simplex) {
            Some((x, weights)) => {
                keep_positive(&mut self.simplex, weights);
                (x, x == DVec3::ZERO)
            }
            None => (DVec3::NAN, false),
        }
    }

    /// Pushes this step's record when the run is traced. Inlined so that an untraced
    /// run does not even assemble the record's inputs.
    #[inline(always)]
    fn record(&mut self, out: &mut Records, event: GjkEvent, m: Measured, momentum: bool) {
        if let Some(out) = out {
            self.push_record(out, event, m, momentum);
        }
    }

    #[cold]
    fn push_record(
        &mut self,
        out: &mut Vec<GjkRecord>,
        event: GjkEvent,
        m: Measured,
        momentum: bool,
    ) {
        let fw_gap = if self.x.is_finite() {
            let s = self.md.support_uncounted(-self.x);
            2.0 * self.x.dot(self.x - s.w)
        } else {
            f64::NAN
        };
        let simplex: Vec<WeightedVertex> = self
            .simplex
            .vertices()
            .iter()
            .zip(barycentric(&self.simplex, self.x))
            .map(|(v, w)| WeightedVertex::new(*v, w))
            .collect();
        out.push(GjkRecord {
            step: DistanceStep {
                k: self.k,
                direction: m.direction,
                support: m.support,
                simplex,
                x: self.x,
                x_norm: self.r,
                omega: m.omega,
                alpha: self.alpha,
                criteria: m.criteria,
                fw_gap,
                support_calls: self.md.stats().calls,
            },
            event,
            momentum,
        });
    }
}
impl<A: SupportMap, B: SupportMap> Gjk<'_, A, B> {
    /// One step, its record pushed to `out` when given. Inlined into [`Gjk::run_into`]'s
    /// loop, where the iterate stays in registers between steps.
    #[inline(always)]
    pub fn step_into(&mut self, mut out: Records) -> Option<Outcome> {
        if let Some(done) = &self.outcome {
            return Some(done.clone());
        }
        let eps = self.settings.tolerance;
        let idle = Measured {
            direction: self.x,
            support: None,
            omega: f64::NAN,
            criteria: CriterionValues::default(),
        };
        if self.r.is_nan() {
            return self.finish(
                &mut out,
                Outcome::Degenerate {
                    reason: "the iterate is not finite".into(),
                },
                GjkEvent::Degenerate,
                idle,
                false,
            );
        }
        // "Check A": the origin is within the tolerance of the current simplex, which
        // Coal calls a collision; it proves one only with an enclosure.
        if self.r < eps {
            let outcome = self.within_tolerance();
            return self.finish(&mut out, outcome, GjkEvent::WithinTolerance, idle, false);
        }
        let momentum = self.momentum_on;
        // The restart rule's first momentum step (and the first after a restart) is
        // along x itself: no momentum yet, so no blend (Nesterov's own first step keeps
        // Coal's blend, whose rounding its iteration counts depend on).
        let momentum_starts =
            self.rule == DirectionRule::NesterovRestart && self.k == self.restart.momentum_from;
        let direction = if momentum && !momentum_starts {
            self.accelerated_direction()
        } else {
            self.x
        };
        let along_x = !momentum || momentum_starts;
        // Plain steps search along x, whose norm is known.
        let direction_norm = if along_x { self.r } else { direction.length() };
        // A momentum direction must be finite and not zero (NaN fails both comparisons).
        let usable = along_x || (direction_norm > 0.0 && direction_norm < f64::INFINITY);
        if !usable {
            self.stop_momentum(&mut out, MomentumStop::UnusableDirection, idle);
            return None;
        }
        let s = self.md.support(-direction);
        let vertex = SimplexVertex {
            id: self.next_id,
            point: s,
        };
        self.next_id += 1;
        let omega = direction.dot(s.w) / direction_norm;
        if self.k == 0 && self.rule == DirectionRule::NesterovRestart {
            self.restart.first_plane = omega;
            // Only the polytopes' depth test reads it.
            if self.restart.pair == PairKind::Flat {
                self.restart.first_centre_offset =
                    direction.dot(self.md.centre_difference()) / direction_norm;
            }
        }
        self.previous_direction = direction;
        self.previous_direction_norm = direction_norm;
        self.previous_support = s.w;
        let gap = 2.0 * self.x.dot(self.x - s.w);
        let mut measured = Measured {
            direction,
            support: Some(vertex),
            omega,
            criteria: CriterionValues::new(self.r, self.alpha.max(omega), gap),
        };
        // "Check B": the plane of this support separates the shapes beyond the bound.
        if let QueryMode::Boolean { bound } = self.settings.mode {
            // Beyond the bound by more than round-off: a gap within it proves nothing.
            if omega > bound && omega - bound > self.md.round_off() {
                return self.finish(
                    &mut out,
                    Outcome::SeparatedEarlyStop { lower_bound: omega },
                    GjkEvent::SeparatingPlane,
                    measured,
                    momentum,
                );
            }
        }
        // Momentum stop: always the absolute gap test, whatever the criterion.
        if momentum && gap <= eps {
            measured.criteria = CriterionValues::new(self.r, self.alpha, gap);
            self.stop_momentum(&mut out, MomentumStop::GapBelowTolerance, measured);
            return None;
        }
        self.alpha = self.alpha.max(omega);
        let passed =
            measured
                .criteria
                .passes(self.settings.criterion, self.settings.kind, eps, self.r);
        if (self.k >= 1 || self.starts_in_difference) && passed {
            if momentum {
                self.stop_momentum(&mut out, MomentumStop::ConvergenceTest, measured);
                return None;
            }
            if self.r < eps {
                let outcome = self.within_tolerance();
                return self.finish(&mut out, outcome, GjkEvent::Converged, measured, momentum);
            }
            return self.finish_separated(&mut out, GjkEvent::Converged, measured);
        }
        // Plain GJK only: a support already in the simplex projects to the same point,
        // so in exact arithmetic the gap would be ≤ 0; what is left is round-off.
        if !momentum && self.simplex.has_point(s.w) {
            return self.finish_separated(&mut out, GjkEvent::Stalled, measured);
        }
        let before = out.is_some().then_some(self.simplex);
        let previous_r = self.r;
        // For the restart rule: the certificate gap before this step (α already holds
        // this step's plane).
        let previous_gap = (previous_r - self.restart.previous_alpha).max(0.0);
        self.restart.previous_alpha = self.alpha;
        let (x, contains_origin) = if self.precise {
            self.simplex.push(vertex);
            self.project_precisely()
        } else {
            let projected = push_and_project(&mut self.simplex, vertex, self.settings.tetrahedron);
            // "Inside" is certified by exact signs: a simplex the origin misses by a hair
            // (round-off in the tree's dot products) goes on from its nearest point instead.
            if projected.contains_origin && !projected.enclosure_certified {
                // Coal stops here, its projection having put the origin on the simplex;
                // on cores closer than their radii that stop is an overlap proved.
                let (x, inside) = self.project_precisely();
                (x, inside || x.length() < self.swept_radius)
            } else {
                (projected.x, projected.contains_origin)
            }
        };
        self.x = x;
        self.r = self.x.length();
        // Plain GJK shrinks ‖x‖ at every step in exact arithmetic; when round-off makes
        // it grow, the loop would only cycle.
        if !momentum && !contains_origin && self.r >= previous_r && self.k >= 1 {
            return self.finish_separated(&mut out, GjkEvent::Stalled, measured);
        }
        // x is usable when its norm is finite (NaN fails the comparison; a finite x whose
        // squared norm overflows, beyond 1e154, is no more usable than an infinite one).
        let finite = self.r < f64::INFINITY;
        if !finite {
            return self.finish(
                &mut out,
                Outcome::Degenerate {
                    reason: "the projection produced a non-finite point".into(),
                },
                GjkEvent::Degenerate,
                measured,
                momentum,
            );
        }
        if contains_origin || self.r == 0.0 {
            return self.finish(
                &mut out,
                Outcome::Intersecting,
                GjkEvent::OriginEnclosed { added: vertex.id },
                measured,
                momentum,
            );
        }
        self.k += 1;
        if self.rule == DirectionRule::NesterovRestart {
            self.adapt_momentum(previous_gap, momentum);
        }
        if self.k >= self.settings.max_iterations {
            let event = Self::projected_event(vertex.id, before, &self.simplex);
            return self.finish(
                &mut out,
                Outcome::IterationCap {
                    lower_bound: self.alpha,
                    upper_bound: self.r,
                },
                event,
                measured,
                momentum,
            );
        }
        // Untraced runs build no record (nor its event) at all.
        if out.is_some() {
            let event = Self::projected_event(vertex.id, before, &self.simplex);
            self.record(&mut out, event, measured, momentum);
        }
        None
    }

    /// The record's event for a projection: the vertex added and those that left (known
    /// only when the simplex before the step was kept, i.e. on traced runs).
    fn projected_event(added: u32, before: Option<Simplex>, kept: &Simplex) -> GjkEvent {
        let dropped = before.map_or_else(Vec::new, |before| {
            let kept = kept.vertices();
            before
                .vertices()
                .iter()
                .map(|v| v.id)
                .filter(|id| !kept.iter().any(|k| k.id == *id))
                .collect()
        });
        GjkEvent::Projected { added, dropped }
    }

    /// Steps to the end, every record pushed to `out` when given.
    #[inline(always)]
    pub fn run_into(&mut self, mut out: Records) -> RunSummary {
        loop {
            if let Some(outcome) = self.step_into(out.as_deref_mut()) {
                return self.summary_with(outcome);
            }
        }
    }

    /// The run's summary, once it has ended.
    pub fn run_summary(&self) -> Option<RunSummary> {
        Some(self.summary_with(self.outcome.clone()?))
    }

    /// The run's summary, ended with `outcome` (built in place: the summary is half a
    /// kilobyte, and the untraced query returns it as it is built).
    #[inline(always)]
    fn summary_with(&self, outcome: Outcome) -> RunSummary {
        let (witness_a, witness_b) = match &outcome {
            Outcome::Separated { .. } | Outcome::Stalled { .. } | Outcome::Contact { .. } => {
                let weights = self
                    .final_weights
                    .unwrap_or_else(|| barycentric(&self.simplex, self.x));
                let (a, b) = self.simplex.witness_points(&weights);
                (Some(a), Some(b))
            }
            _ => (None, None),
        };
        RunSummary {
            outcome,
            iterations: self.k,
            stats: self.md.stats(),
            witness_a,
            witness_b,
            momentum_stopped_at: self.momentum_stopped_at,
            simplex: self.simplex,
        }
    }
}
