//! The collision test by linear programming (Kreuzer, "On Convex Polytopes, Collision
//! Detection, and the Simplex Method"; docs/algorithms.md, "Collision test by linear
//! programming"): A and B, given by their points,
//! intersect iff some `λ, μ ≥ 0` with `Σλ = 1`, `Σμ = 1` give `Σλ_i p_i = Σμ_j q_j`. Phase
//! 1 of the simplex method (`tableau.rs`) decides it: an optimum of 0 is a common point, a
//! positive optimum has duals `(y₁, y₂, w)` with `w·p_i ≤ −y₁ < y₂ ≤ w·q_j`: a separating
//! plane. Both verdicts are certified before they are reported: the common point is
//! rebuilt from the weights and checked, the plane is checked against every point. Points
//! are taken about their centroid and scaled to unit size first, so the tolerances are
//! relative to the coordinates' scale.
//!
//! The method table's `lp` (dense tableau), `lp_revised` (revised simplex, `revised.rs`)
//! and `lp_containment` run it; `pivoting.rs` holds the rules both solvers share. The
//! certified lower bound of the distance is the separating plane's gap; Kreuzer's own
//! estimate is computed by [`kreuzer_distance_estimate`], which shows it is no bound.

/// The step-by-step sentences of this family (the viewer, lessons, worksheets).
pub mod kind;
pub mod narrate;
pub use kind::FAMILY;
pub mod pivoting;
mod record;
pub mod revised;
pub mod tableau;

use glam::DVec3;

use super::family::Family;
use super::family::{Answer, FamilyRun, PairQuery};
use crate::minkowski::SupportStats;
use crate::pose::RelativePose;
use crate::shape::Shape;
use crate::solver::settings::LpSettings;
use crate::solver::simplex::points_enclose_origin;
use crate::solver::Outcome;

use pivoting::{Phase1, Phase1Solver, TieRule};
pub use record::{LpEvent, LpRecord, TableauSnapshot, LP_CSV_HEADER};
use revised::RevisedSimplex;
use tableau::Tableau;

/// Relative tolerance on the scaled problem: the optimum at or below it is a collision
/// (points within 1e-10 of the points' spread count as touching).
pub const LP_TOLERANCE: f64 = 1e-10;

/// What the test found.
#[derive(Clone, Debug, PartialEq)]
pub enum LpVerdict {
    /// A common point `Σλ_i p_i = Σμ_j q_j` (checked).
    Intersecting { point: DVec3 },
    /// The plane `normal·x = offset` has A below and B above, `gap` apart (checked
    /// against every point); `None` for an empty set (nothing to collide with).
    Separated { plane: Option<(DVec3, f64, f64)> },
    /// Kreuzer's cap of columns × rows pivots.
    PivotCap,
    /// The certificate did not hold (round-off beyond the tolerance).
    Uncertified { reason: String },
    /// The optimum is within the tolerance, with points of A and B `distance` apart,
    /// but exact signs do not put the origin in `A ⊖ B`: touching, overlapping or that
    /// close, undecided.
    Within { distance: f64 },
}

/// Whether the LP's weights prove a common point by exact signs: `Σλ_i p_i = Σμ_j q_j`
/// puts the origin in the hull of the differences `p_i − q_j` of the points with
/// positive weight, so the origin being there (boundary included, exact orientation
/// tests) proves it; failing that, every difference is tried where there are few enough
/// (the whole `A ⊖ B` of two polytopes), since round-off may have picked the wrong face.
fn common_point_proved(a: &[DVec3], b: &[DVec3], la: &[f64], lb: &[f64]) -> bool {
    let used = |points: &[DVec3], weights: &[f64]| -> Vec<DVec3> {
        points
            .iter()
            .zip(weights)
            .filter(|(_, w)| **w > 0.0)
            .map(|(p, _)| *p)
            .collect()
    };
    let differences = |a: &[DVec3], b: &[DVec3]| -> Vec<DVec3> {
        a.iter()
            .flat_map(|p| b.iter().map(move |q| *p - *q))
            .collect()
    };
    let active = differences(&used(a, la), &used(b, lb));
    if points_enclose_origin(&active) == Some(true) {
        return true;
    }
    a.len() * b.len() <= ALL_DIFFERENCES_LIMIT
        && points_enclose_origin(&differences(a, b)) == Some(true)
}

/// `Σ w_i p_i` with the weights made convex (negative ones, round-off, as 0; the rest
/// over their sum): a point of the points' hull, up to the rounding of the sum.
fn convex_combination(points: &[DVec3], weights: &[f64]) -> DVec3 {
    let total: f64 = weights.iter().map(|w| w.max(0.0)).sum();
    if total <= 0.0 {
        return points[0];
    }
    points
        .iter()
        .zip(weights)
        .fold(DVec3::ZERO, |s, (p, w)| s + *p * (w.max(0.0) / total))
}

/// The most differences [`common_point_proved`] builds the exact hull of (two
/// 64-vertex meshes).
const ALL_DIFFERENCES_LIMIT: usize = 4096;

/// A finished test.
#[derive(Clone, Debug)]
pub struct LpRun {
    pub verdict: LpVerdict,
    pub pivots: usize,
    /// The phase-1 optimum, in the scaled problem (0 for a collision).
    pub objective: f64,
}

/// Tableaux up to this many entries are recorded whole.
const SNAPSHOT_LIMIT: usize = 4000;

/// The columns' names: λ1.., μ1.., then the artificials a1..a5.
fn column_names(na: usize, nb: usize) -> Vec<String> {
    (1..=na)
        .map(|i| format!("λ{i}"))
        .chain((1..=nb).map(|j| format!("μ{j}")))
        .chain((1..=5).map(|r| format!("a{r}")))
        .collect()
}

/// The phase-1 tableau of the collision problem (Kreuzer's P2): columns
/// `λ_i = (1, 0, p_i)`, `μ_j = (0, 1, −q_j)`; rows `Σλ = 1`, `Σμ = 1` and the three
/// coordinates of `Σλp − Σμq = 0`.
pub fn collision_tableau(a: &[DVec3], b: &[DVec3]) -> Tableau {
    let (m, n) = collision_matrix(a, b);
    Tableau::new(&m, &COLLISION_RHS, n)
}

/// The same problem for the revised simplex.
pub fn collision_revised(a: &[DVec3], b: &[DVec3]) -> RevisedSimplex {
    let (m, n) = collision_matrix(a, b);
    RevisedSimplex::new(&m, &COLLISION_RHS, n)
}

const COLLISION_RHS: [f64; 5] = [1.0, 1.0, 0.0, 0.0, 0.0];

/// The collision problem's matrix, row-major `5 × n`, and `n`.
fn collision_matrix(a: &[DVec3], b: &[DVec3]) -> (Vec<f64>, usize) {
    let n = a.len() + b.len();
    let mut m = vec![0.0; 5 * n];
    let columns = a.iter().map(|p| (0, *p)).chain(b.iter().map(|q| (1, -*q)));
    for (c, (sum_row, p)) in columns.enumerate() {
        m[sum_row * n + c] = 1.0;
        for k in 0..3 {
            m[(2 + k) * n + c] = p[k];
        }
    }
    (m, n)
}

/// Which phase-1 solver runs the test.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Simplex {
    /// Kreuzer's dense tableau (every pivot updates every entry).
    #[default]
    Tableau,
    /// The revised simplex (a 5 × 5 basis inverse, columns priced from the duals).
    Revised,
}

/// Whether the convex hulls of `a` and `b` intersect, by the dense tableau.
pub fn collision(a: &[DVec3], b: &[DVec3], steps: Option<&mut Vec<LpRecord>>) -> LpRun {
    collision_by(Simplex::Tableau, a, b, steps)
}

/// Whether the convex hulls of `a` and `b` intersect, with the default pivot rule and
/// cap; every pivot into `steps` when given.
pub fn collision_by(
    simplex: Simplex,
    a: &[DVec3],
    b: &[DVec3],
    steps: Option<&mut Vec<LpRecord>>,
) -> LpRun {
    collision_with(simplex, a, b, LpSettings::default(), steps)
}

/// Whether the convex hulls of `a` and `b` intersect, by `settings`' pivot rule and cap;
/// every pivot into `steps` when given (the weights' points renormalised where they do
/// not yet sum to 1).
pub fn collision_with(
    simplex: Simplex,
    a: &[DVec3],
    b: &[DVec3],
    settings: LpSettings,
    steps: Option<&mut Vec<LpRecord>>,
) -> LpRun {
    let finished = |verdict| LpRun {
        verdict,
        pivots: 0,
        objective: 0.0,
    };
    if a.is_empty() || b.is_empty() {
        return finished(LpVerdict::Separated { plane: None });
    }
    if a.len() == 1 && b.len() == 1 {
        return if a[0] == b[0] {
            finished(LpVerdict::Intersecting { point: a[0] })
        } else {
            let n = (b[0] - a[0]).normalize();
            let offset = n.dot(a[0] + b[0]) * 0.5;
            let gap = (b[0] - a[0]).length();
            finished(LpVerdict::Separated {
                plane: Some((n, offset, gap)),
            })
        };
    }
    let all = a.iter().chain(b);
    let centre = all.clone().fold(DVec3::ZERO, |s, p| s + *p) / (a.len() + b.len()) as f64;
    let scale = all
        .map(|p| (*p - centre).abs().max_element())
        .fold(0.0f64, f64::max)
        .max(f64::MIN_POSITIVE);
    let local = |p: &DVec3| (*p - centre) / scale;
    let (pa, pb): (Vec<DVec3>, Vec<DVec3>) =
        (a.iter().map(local).collect(), b.iter().map(local).collect());
    let scaled = Scaled {
        a,
        b,
        pa: &pa,
        pb: &pb,
        centre,
        scale,
    };
    match simplex {
        Simplex::Tableau => {
            let mut t = collision_tableau(&pa, &pb);
            (t.ties, t.max_pivots) = (settings.pivot_rule, settings.max_pivots);
            scaled.decide(t, steps)
        }
        Simplex::Revised => {
            let mut t = collision_revised(&pa, &pb);
            (t.ties, t.max_pivots) = (settings.pivot_rule, settings.max_pivots);
            scaled.decide(t, steps)
        }
    }
}

/// The points as given and about their centroid at unit size.
struct Scaled<'p> {
    a: &'p [DVec3],
    b: &'p [DVec3],
    pa: &'p [DVec3],
    pb: &'p [DVec3],
    centre: DVec3,
    scale: f64,
}

impl Scaled<'_> {
    /// Runs the solver on the scaled problem and certifies its verdict.
    fn decide<S: Phase1Solver>(&self, mut t: S, mut steps: Option<&mut Vec<LpRecord>>) -> LpRun {
        let Scaled {
            a,
            b,
            pa,
            pb,
            centre,
            scale,
        } = *self;
        let n = pa.len() + pb.len();
        let points = |t: &S| {
            let x = t.solution();
            let (la, lb) = x[..n].split_at(pa.len());
            let weighted = |w: &[f64], ps: &[DVec3], original: &[DVec3]| {
                let sum: f64 = w.iter().sum();
                if sum <= 0.0 {
                    return original[0];
                }
                let p = w.iter().zip(ps).fold(DVec3::ZERO, |s, (w, p)| s + *p * *w) / sum;
                p * scale + centre
            };
            (weighted(la, pa, a), weighted(lb, pb, b))
        };
        let names = steps.is_some().then(|| column_names(pa.len(), pb.len()));
        let (end, pivots) = t.run(&mut |t, pivot| {
            let (Some(steps), Some(names)) = (steps.as_deref_mut(), names.as_ref()) else {
                return;
            };
            let (point_a, point_b) = points(t);
            let (rows, columns) = t.shape();
            let small = (rows + 1) * (columns + 1) <= SNAPSHOT_LIMIT;
            steps.push(LpRecord {
                k: steps.len() + 1,
                event: LpEvent::Pivot {
                    entering: names[pivot.entering].clone(),
                    leaving: names[pivot.leaving].clone(),
                    ties: pivot.ties,
                    plain_bland: pivot.rule == TieRule::SmallestIndex,
                },
                objective: pivot.objective,
                point_a,
                point_b,
                tableau: small.then(|| TableauSnapshot {
                    rows,
                    columns,
                    values: t.tableau_values(),
                    pivot_row: pivot.row,
                    pivot_column: pivot.entering,
                    column_names: names.clone(),
                }),
            });
        });
        let objective = t.objective();
        let x = t.solution();
        let mut run = LpRun {
            verdict: LpVerdict::PivotCap,
            pivots,
            objective,
        };
        if end == Phase1::PivotCap {
            return run;
        }
        if objective <= LP_TOLERANCE {
            let (point_a, point_b) = points(&t);
            let weights_ok = x[..n].iter().all(|w| *w >= -LP_TOLERANCE);
            let apart = (point_a - point_b).length();
            run.verdict = if weights_ok && apart <= 1e-8 * scale {
                let (la, lb) = x[..n].split_at(pa.len());
                if common_point_proved(a, b, la, lb) {
                    LpVerdict::Intersecting {
                        point: (point_a + point_b) * 0.5,
                    }
                } else {
                    // An optimum within the tolerance is no proof: the points may be
                    // a hair apart (boxes 4.5e-10 apart at 445 passed it). The bound is
                    // the distance of two points of the shapes: the weights made a
                    // convex combination of the original points.
                    LpVerdict::Within {
                        distance: (convex_combination(a, la) - convex_combination(b, lb)).length(),
                    }
                }
            } else {
                LpVerdict::Uncertified {
                    reason: format!(
                        "the weights' points are {:e} apart (scale {scale:e})",
                        (point_a - point_b).length()
                    ),
                }
            };
            return run;
        }
        let y = t.duals();
        let w = DVec3::new(y[2], y[3], y[4]);
        run.verdict = match separating_plane(a, b, w) {
            Some(plane) => LpVerdict::Separated { plane: Some(plane) },
            None => LpVerdict::Uncertified {
                reason: "the dual's plane does not separate the points".into(),
            },
        };
        run
    }
}

/// Kreuzer's distance estimate `min ‖b − Ax‖₁ / √3` over its problem P2 (`Ax ≤ b`,
/// `x ≥ 0`, the points unscaled, as Kreuzer writes it). Kreuzer presents it as a lower
/// bound of the distance; it is not one: P2's slacks `b − Ax ≥ 0` force the coordinate
/// rows' residual to one sign, so `(y, 0, 0)` for a `y ∈ A ⊖ B` is feasible only when
/// `y ≤ 0` componentwise, and the optimum can exceed `‖y‖₁` (on lp_sample.json's
/// separated problems: 4 of 20 above the true distance, up to 1.37×; two others a
/// thousand times below it). Kept to be shown beside the true distance, not trusted.
pub fn kreuzer_distance_estimate(a: &[DVec3], b: &[DVec3]) -> f64 {
    if a.is_empty() || b.is_empty() {
        return f64::NAN;
    }
    let mut t = collision_tableau(a, b);
    t.solve(|_, _| {});
    t.objective() / 3f64.sqrt()
}

/// [`kreuzer_distance_estimate`] on two shapes given by their points, B placed by `b_in_a`
/// (A's frame): what the viewer's results panel and `collidescope solve` print beside
/// GJK's distance. `None` when a shape has no points (a sphere, an implicit shape).
pub fn kreuzer_estimate_of_shapes(a: &Shape, b: &Shape, b_in_a: &RelativePose) -> Option<f64> {
    let a = a.vertex_points()?;
    let b: Vec<DVec3> = b
        .vertex_points()?
        .iter()
        .map(|q| b_in_a.transform_point(*q))
        .collect();
    Some(kreuzer_distance_estimate(&a, &b))
}

/// The plane with normal `w` (either way round) that has every point of `a` below and
/// every point of `b` above, at the middle of the gap: `(unit normal, offset, gap)`.
fn separating_plane(a: &[DVec3], b: &[DVec3], w: DVec3) -> Option<(DVec3, f64, f64)> {
    let n = w.normalize_or_zero();
    if n == DVec3::ZERO {
        return None;
    }
    for n in [n, -n] {
        let top_a = a
            .iter()
            .map(|p| n.dot(*p))
            .fold(f64::NEG_INFINITY, f64::max);
        let bottom_b = b.iter().map(|q| n.dot(*q)).fold(f64::INFINITY, f64::min);
        if top_a < bottom_b {
            return Some((n, 0.5 * (top_a + bottom_b), bottom_b - top_a));
        }
    }
    None
}

/// Containment: whether every point of `a` lies in the convex hull of `b` (Kreuzer,
/// one collision test per point); `Err(i)` names the first point outside, with the
/// plane that separates it from `b`.
pub fn containment(a: &[DVec3], b: &[DVec3]) -> Result<(), (usize, LpVerdict)> {
    if b.is_empty() {
        return if a.is_empty() {
            Ok(())
        } else {
            Err((0, LpVerdict::Separated { plane: None }))
        };
    }
    for (i, p) in a.iter().enumerate() {
        let run = collision_by(Simplex::Revised, std::slice::from_ref(p), b, None);
        if !matches!(run.verdict, LpVerdict::Intersecting { .. }) {
            return Err((i, run.verdict));
        }
    }
    Ok(())
}

/// A finished LP method on two shapes: the outcome, the pivots it took as its
/// iterations, and the common point (a collision's, or the vertex of A found outside B)
/// as both witnesses (A's frame). The LP test reports nothing beyond the summary.
pub type LpAnswer = Answer<()>;

fn answer(outcome: Outcome, pivots: usize, witness: Option<DVec3>) -> LpAnswer {
    let stats = SupportStats::default();
    Answer::new(outcome, pivots, stats, witness.map(|w| (w, w)), ())
}

/// The LP test as a family entry: the question names the method; the query's `lp`
/// settings choose the pivot rule and cap.
impl FamilyRun for LpQuestion {
    type Records = Vec<LpRecord>;
    type Extras = ();

    fn family(&self) -> Family {
        FAMILY
    }

    fn run(&self, q: &PairQuery<'_>, records: Option<&mut Vec<LpRecord>>) -> LpAnswer {
        let mut answer = run_on_shapes(q.a, q.b, q.b_in_a, *self, q.settings.lp, records);
        answer.summary.allow_round_off(q.round_off());
        answer
    }
}

/// What an LP run on two shapes asks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LpQuestion {
    /// Do they intersect (by this solver)?
    Collision(Simplex),
    /// Is every point of A in B (one revised-simplex test per point)?
    Containment,
}

/// The collision or containment test on two shapes given by their points, B placed by
/// `b_in_a`; records into `trace` when given.
pub fn run_on_shapes(
    a: &Shape,
    b: &Shape,
    b_in_a: RelativePose,
    question: LpQuestion,
    settings: LpSettings,
    mut trace: Option<&mut Vec<LpRecord>>,
) -> LpAnswer {
    let (Some(pa), Some(pb)) = (a.vertex_points(), b.vertex_points()) else {
        let why = "the LP test takes shapes given by their points".to_string();
        return answer(Outcome::NotApplicable { why }, 0, None);
    };
    let pb: Vec<DVec3> = pb.iter().map(|q| b_in_a.transform_point(*q)).collect();
    if let LpQuestion::Collision(simplex) = question {
        let run = collision_with(simplex, &pa, &pb, settings, trace);
        let (outcome, witness) = verdict_outcome(run.verdict, run.pivots);
        return answer(outcome, run.pivots, witness);
    }
    let mut pivots = 0;
    for (i, p) in pa.iter().enumerate() {
        let point = std::slice::from_ref(p);
        let run = collision_with(Simplex::Revised, point, &pb, settings, None);
        pivots += run.pivots;
        let inside = matches!(run.verdict, LpVerdict::Intersecting { .. });
        if let Some(records) = trace.as_deref_mut() {
            records.push(LpRecord {
                k: i + 1,
                event: LpEvent::Vertex { vertex: i, inside },
                objective: run.objective,
                point_a: *p,
                point_b: *p,
                tableau: None,
            });
        }
        match run.verdict {
            LpVerdict::Intersecting { .. } => continue,
            LpVerdict::Separated { .. } => {
                return answer(Outcome::NotContained { vertex: i }, pivots, Some(*p))
            }
            other => {
                let (outcome, _) = verdict_outcome(other, pivots);
                return answer(outcome, pivots, None);
            }
        }
    }
    answer(Outcome::Contained, pivots, None)
}

/// The outcome of a collision verdict (and the common point when there is one).
fn verdict_outcome(verdict: LpVerdict, pivots: usize) -> (Outcome, Option<DVec3>) {
    match verdict {
        LpVerdict::Intersecting { point } => (Outcome::Intersecting, Some(point)),
        LpVerdict::Separated {
            plane: Some((normal, offset, gap)),
        } => (
            Outcome::SeparatingPlane {
                normal,
                offset,
                gap,
            },
            None,
        ),
        LpVerdict::Separated { plane: None } => (
            Outcome::Degenerate {
                reason: "a shape without points".into(),
            },
            None,
        ),
        LpVerdict::PivotCap => (Outcome::PivotCap { pivots }, None),
        LpVerdict::Uncertified { reason } => (Outcome::Degenerate { reason }, None),
        LpVerdict::Within { distance } => (Outcome::Contact { distance }, None),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::minkowski::MinkowskiDifference;
    use crate::pose::RelativePose;
    use crate::rng::SplitMix64 as Rng;
    use crate::shape::{Polytope, Shape};
    use crate::solver::{solve, Algorithm, DirectionRule, Outcome, SolverSettings};
    use glam::DMat3;

    fn cloud(rng: &mut Rng, n: usize, centre: DVec3, size: f64) -> Vec<DVec3> {
        (0..n)
            .map(|_| centre + rng.unit_vector() * size * rng.unit().cbrt())
            .collect()
    }

    #[test]
    fn verdicts_match_gjk_and_carry_checked_certificates() {
        let mut rng = Rng::new(3);
        let (mut hits, mut misses) = (0, 0);
        for i in 0..200 {
            let (na, nb) = (4 + rng.index(60), 4 + rng.index(60));
            let a = cloud(&mut rng, na, DVec3::ZERO, 1.0);
            let centre = rng.unit_vector() * rng.range(0.5, 2.6);
            let b = cloud(&mut rng, nb, centre, 1.0);
            let shape = |p: &[DVec3]| Shape::Polytope(Polytope::from_points(p).unwrap());
            let (sa, sb) = (shape(&a), shape(&b));
            let md = MinkowskiDifference::new(
                &sa,
                &sb,
                RelativePose::from_matrix(DMat3::IDENTITY, DVec3::ZERO),
            );
            let settings = SolverSettings {
                tolerance: 1e-12,
                max_iterations: 1000,
                ..SolverSettings::default()
            };
            let gjk = solve(Algorithm::Gjk(DirectionRule::Vanilla), md, settings).outcome;
            let distance = gjk.distance().unwrap();
            if distance > 0.0 && distance < 1e-9 {
                continue; // touching: either verdict is right
            }
            for simplex in [Simplex::Tableau, Simplex::Revised] {
                let run = collision_by(simplex, &a, &b, None);
                match (&run.verdict, &gjk) {
                    (LpVerdict::Intersecting { point }, Outcome::Intersecting) => {
                        hits += 1;
                        assert!(point.is_finite());
                    }
                    (
                        LpVerdict::Separated {
                            plane: Some((n, offset, gap)),
                        },
                        Outcome::Separated { distance, .. },
                    ) => {
                        misses += 1;
                        assert!(
                            a.iter().all(|p| n.dot(*p) < *offset)
                                && b.iter().all(|q| n.dot(*q) > *offset)
                        );
                        // The plane's gap is a lower bound of the true distance.
                        assert!(*gap <= distance + 1e-9, "{i}: gap {gap} > {distance}");
                    }
                    (v, g) => panic!("pair {i}, {simplex:?}: LP {v:?}, GJK {g}"),
                }
            }
        }
        assert!(hits > 60 && misses > 60, "{hits} / {misses}");
    }

    #[test]
    fn kreuzers_degenerate_inputs_and_containment() {
        let p = DVec3::new(1.0, 2.0, 3.0);
        assert_eq!(
            collision(&[], &[p], None).verdict,
            LpVerdict::Separated { plane: None }
        );
        assert!(matches!(
            collision(&[p], &[p], None).verdict,
            LpVerdict::Intersecting { .. }
        ));
        assert!(matches!(
            collision(&[p], &[p + DVec3::X], None).verdict,
            LpVerdict::Separated { plane: Some(_) }
        ));
        // A flat square and a segment piercing it; a collinear set beside it.
        let square = [DVec3::ZERO, DVec3::X, DVec3::Z, DVec3::new(1.0, 0.0, 1.0)];
        let pierce = [DVec3::new(0.5, -1.0, 0.5), DVec3::new(0.5, 1.0, 0.5)];
        assert!(matches!(
            collision(&square, &pierce, None).verdict,
            LpVerdict::Intersecting { .. }
        ));
        let beside = [
            DVec3::new(2.0, -1.0, 0.5),
            DVec3::new(2.0, 0.0, 0.5),
            DVec3::new(2.0, 1.0, 0.5),
        ];
        assert!(matches!(
            collision(&square, &beside, None).verdict,
            LpVerdict::Separated { plane: Some(_) }
        ));
        // Containment: a shrunken copy inside, one point pushed out is named.
        let mut rng = Rng::new(11);
        let b = cloud(&mut rng, 40, DVec3::ZERO, 1.0);
        let centre = b.iter().fold(DVec3::ZERO, |s, p| s + *p) / 40.0;
        let mut a: Vec<DVec3> = b.iter().map(|p| centre + (*p - centre) * 0.5).collect();
        assert!(containment(&a, &b).is_ok());
        a[7] = DVec3::new(5.0, 0.0, 0.0);
        let (i, verdict) = containment(&a, &b).unwrap_err();
        assert_eq!(i, 7);
        assert!(matches!(verdict, LpVerdict::Separated { plane: Some(_) }));
    }

    #[test]
    fn traced_pivots_bring_the_points_together() {
        let a = [DVec3::ZERO, DVec3::X, DVec3::Y, DVec3::Z];
        let b: Vec<DVec3> = a.iter().map(|p| *p + DVec3::splat(0.2)).collect();
        let mut steps = Vec::new();
        let run = collision(&a, &b, Some(&mut steps));
        assert!(matches!(run.verdict, LpVerdict::Intersecting { .. }));
        assert_eq!(steps.len(), run.pivots);
        let last = steps.last().unwrap();
        assert!((last.point_a - last.point_b).length() < 1e-9);
        assert!(steps
            .windows(2)
            .all(|w| w[1].objective <= w[0].objective + 1e-12));
        assert!(steps.iter().all(|s| s.tableau.is_some()));
    }

    #[test]
    fn gaps_and_overlaps_of_1e9_are_told_apart_even_far_from_the_origin() {
        let corners = |c: DVec3, h: f64| -> Vec<DVec3> {
            (0..8)
                .map(|i| {
                    c + DVec3::new(
                        if i & 1 == 0 { -h } else { h },
                        if i & 2 == 0 { -h } else { h },
                        if i & 4 == 0 { -h } else { h },
                    )
                })
                .collect()
        };
        let turn = glam::DQuat::from_rotation_y(0.3);
        for far in [0.0, 1e4] {
            let off = DVec3::splat(far);
            let a = corners(off, 1.0);
            let local: Vec<DVec3> = corners(DVec3::ZERO, 0.5)
                .iter()
                .map(|p| turn * *p)
                .collect();
            let min_x = local.iter().map(|p| p.x).fold(f64::INFINITY, f64::min);
            for gap in [1e-9, -1e-9] {
                let shift = off + DVec3::new(1.0 + gap - min_x, 0.1, 0.2);
                let b: Vec<DVec3> = local.iter().map(|p| *p + shift).collect();
                for simplex in [Simplex::Tableau, Simplex::Revised] {
                    let verdict = collision_by(simplex, &a, &b, None).verdict;
                    match verdict {
                        LpVerdict::Separated {
                            plane: Some((_, _, g)),
                        } if gap > 0.0 => {
                            assert!((g - gap).abs() < 1e-12 * far.max(1.0) * 1e3, "{far}: {g}")
                        }
                        LpVerdict::Intersecting { .. } if gap < 0.0 => {}
                        other => panic!("far {far}, gap {gap:e}: {other:?}"),
                    }
                }
            }
        }
    }

    #[test]
    fn kreuzers_estimate_is_not_a_lower_bound() {
        // Two unit segments along x, B 0.5 above A: distance 0.5.
        let a = [DVec3::ZERO, DVec3::X];
        let b = [DVec3::new(0.0, 0.5, 0.0), DVec3::new(1.0, 0.5, 0.0)];
        // Σλp − Σμq = (·, −0.5, 0) has the sign P2 allows: the estimate is ‖·‖₁/√3.
        let below = kreuzer_distance_estimate(&a, &b);
        assert!((below - 0.5 / 3f64.sqrt()).abs() < 1e-12, "{below}");
        // B below A instead: the residual has the forbidden sign; P2 must give up
        // weight, and its optimum exceeds the distance.
        let b_low: Vec<DVec3> = b.iter().map(|q| *q - DVec3::Y).collect();
        let above = kreuzer_distance_estimate(&a, &b_low);
        assert!(above > 0.5, "{above}");
    }
}
