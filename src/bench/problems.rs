//! Problem files (`../shared/data/problems/README.md`): the same queries Coal answered,
//! run with our solvers under the file's tolerance, criterion and iteration cap.

use std::collections::BTreeMap;
use std::path::Path;

use glam::{DMat3, DVec3};
use serde::{Deserialize, Serialize};

use super::timing::{our_seconds, parry_seconds, ratio_table, seconds_per_query, TimingSample};
use crate::cross_check::{guarded, parry_cannot_compare};
use crate::minkowski::MinkowskiDifference;
use crate::parry_bridge::{parry_penetration, parry_time_of_impact};
use crate::pose::RelativePose;
use crate::scene::{HyperTermSpec, MemberSpec, RotationSpec, ShapeSpec};
use crate::shape::Shape;
use crate::solver::catalog;
use crate::solver::epa::{self, Penetration};
use crate::solver::family::{FamilyRun, PairQuery};
use crate::solver::interior_point::IpQuestion;
use crate::solver::lp::LpQuestion;
use crate::solver::toi::{ToiExtras, ToiRule};
use crate::solver::{
    solve, Algorithm, Criterion, CriterionKind, DirectionRule, InitialGuess, Method, Outcome,
    RunSummary, SolverSettings, StepRule, TetrahedronRule,
};

/// The algorithms a problem file is run with, in output order.
pub const PROBLEM_ALGORITHMS: [Algorithm; 6] = [
    Algorithm::Gjk(DirectionRule::Vanilla),
    Algorithm::Gjk(DirectionRule::Nesterov),
    Algorithm::Gjk(DirectionRule::NesterovNormalized),
    Algorithm::Gjk(DirectionRule::Polyak),
    Algorithm::Gjk(DirectionRule::NesterovRestart),
    Algorithm::FrankWolfe(StepRule::LineSearch),
];

#[derive(Debug, Deserialize)]
pub struct ProblemFile {
    /// The stopping criterion and its kind in one word (`duality_gap_absolute`, see
    /// [`parse_criterion`]): the problem files' own spelling of `criterion` and `kind`.
    pub criterion: String,
    /// Every other setting by its name in scenes (`tolerance`, `max_iterations`, `epa`,
    /// `toi`, ...; each optional, each family's fields too): the solver's settings type,
    /// read as scenes read it.
    #[serde(flatten)]
    pub settings: SolverSettings,
    pub shapes: Vec<ProblemShape>,
    pub problems: Vec<Problem>,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ProblemShape {
    Ellipsoid([f64; 3]),
    ConvexHull {
        #[serde(default)]
        source: String,
        vertices: Vec<[f64; 3]>,
    },
    // Version 2 primitives (local frames; capsules, cylinders and cones along y).
    Sphere(f64),
    Box([f64; 3]),
    Capsule {
        radius: f64,
        half_height: f64,
    },
    Cylinder {
        radius: f64,
        half_height: f64,
    },
    Cone {
        radius: f64,
        half_height: f64,
    },
    /// `{x : n·x ≤ d}` for each `[n1, n2, n3, d]`: bounded and non-empty.
    Halfspaces(Vec<[f64; 4]>),
    /// `Σ |x_i / a_i|^{n_i} ≤ 1`, every `n_i ≥ 1`.
    Superquadric {
        radii: [f64; 3],
        exponents: [f64; 3],
    },
    /// `Σ_i |h_i·x + c_i|^{n_i} ≤ 1`.
    Hyperquadric {
        terms: Vec<HyperTermSpec>,
    },
    /// The points inside every listed shape, each placed at its pose.
    Intersection(Vec<PlacedShape>),
}

/// A member of an intersection: a shape at a pose (rotation row-major).
#[derive(Debug, Deserialize)]
pub struct PlacedShape {
    pub shape: ProblemShape,
    pub rotation: [[f64; 3]; 3],
    pub translation: [f64; 3],
}

#[derive(Debug, Deserialize)]
pub struct Problem {
    pub a: usize,
    pub b: usize,
    /// Row-major 3×3.
    pub b_rotation: [[f64; 3]; 3],
    pub b_translation: [f64; 3],
    /// B's motion over t ∈ [0, 1] (A's frame), for the time of impact.
    #[serde(default)]
    pub b_velocity: Option<[f64; 3]>,
    pub target_distance: f64,
    #[serde(default)]
    pub coal: BTreeMap<String, CoalAnswer>,
    /// The kind of pair (`box_box`, `tunnelling`, ...), where the file names one.
    #[serde(default)]
    pub category: Option<String>,
}

#[derive(Debug, Clone, Deserialize)]
pub struct CoalAnswer {
    pub iterations: usize,
    pub status: String,
    pub distance: f64,
}

/// One algorithm's answer to one problem, as written to JSON.
#[derive(Debug, Clone, Serialize)]
pub struct AlgorithmAnswer {
    pub iterations: usize,
    /// `null` when the run certifies no distance (iteration cap, early stop).
    pub distance: Option<f64>,
    pub status: String,
    /// EPA: the unit direction (A's frame) to move B out, when it has one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub normal: Option<[f64; 3]>,
    /// Time of impact: the first t in [0, 1] with contact (`null` when none).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub time_of_impact: Option<Option<f64>>,
    /// The LP test: its pivots.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pivots: Option<usize>,
    /// The GJK family and Frank-Wolfe: support calls on A ⊖ B, which is what a query
    /// costs (a discarded momentum support is a call but not an iteration).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub support_calls: Option<u64>,
    /// With `--timing`: mean of the fastest 90 % of many repeats.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub seconds_per_query: Option<f64>,
    /// EPA with `--timing`: parry3d-f64's penetration query (its GJK and EPA) on the
    /// same pair, timed the same way, and its depth (`null` where it finds none).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub parry: Option<ParryPenetration>,
    /// A time of impact with `--timing`: parry3d-f64's `cast_shapes` on the same motion.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub parry_toi: Option<ParryToi>,
    /// Why a method answered `not_applicable` or `degenerate` (or why the problem's
    /// shape could not be built), when it did.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// `separated`: the gap of the separating plane that proves it (a lower bound of
    /// the distance).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub lower_bound: Option<f64>,
}

impl AlgorithmAnswer {
    /// A run's answer in the contract: iterations, status, the distance it certifies, why
    /// it has none, the plane's gap, and with `timing` the time of `query` (the same
    /// run again). The families fill in their own fields over it.
    fn of(run: &RunSummary, timing: Option<&dyn Fn() -> RunSummary>) -> Self {
        AlgorithmAnswer {
            iterations: run.iterations,
            distance: run.outcome.distance(),
            status: run.outcome.status_name().to_string(),
            normal: None,
            time_of_impact: None,
            pivots: None,
            support_calls: None,
            seconds_per_query: timing.map(|query| {
                seconds_per_query(|| {
                    std::hint::black_box(query());
                })
            }),
            parry: None,
            parry_toi: None,
            reason: outcome_reason(&run.outcome),
            lower_bound: proved_lower_bound(&run.outcome),
        }
    }
}

/// parry3d-f64's answer and time for a penetration query.
#[derive(Debug, Clone, Serialize)]
pub struct ParryPenetration {
    pub depth: Option<f64>,
    pub seconds_per_query: f64,
}

/// parry3d-f64's `cast_shapes` on the same motion: its time (`null`: no impact).
#[derive(Debug, Clone, Serialize)]
pub struct ParryToi {
    pub time_of_impact: Option<f64>,
    pub seconds_per_query: f64,
}

/// parry3d-f64's GJK on the same problem (with `--timing`).
#[derive(Debug, Clone, Serialize)]
pub struct ParryAnswer {
    pub distance: f64,
    /// Why parry's distance is not about these shapes (implicit bodies), when it is not.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub not_comparable: Option<String>,
    pub seconds_per_query: f64,
}

#[derive(Debug, Clone, Serialize)]
pub struct ProblemResult {
    pub index: usize,
    pub target_distance: f64,
    pub algorithms: BTreeMap<String, AlgorithmAnswer>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub parry: Option<ParryAnswer>,
}

impl ProblemFile {
    pub fn load(path: &Path) -> anyhow::Result<Self> {
        let text = std::fs::read_to_string(path)
            .map_err(|e| anyhow::anyhow!("cannot read problem file {}: {e}", path.display()))?;
        let file: ProblemFile = serde_json::from_str(&text)
            .map_err(|e| anyhow::anyhow!("{}: not a problem file: {e}", path.display()))?;
        file.settings()
            .map_err(|e| anyhow::anyhow!("{}: {e:#}", path.display()))?;
        for (i, p) in file.problems.iter().enumerate() {
            if p.a >= file.shapes.len() || p.b >= file.shapes.len() {
                anyhow::bail!(
                    "{}: problem {i} refers to a shape that does not exist",
                    path.display()
                );
            }
            p.check_pose()
                .map_err(|e| anyhow::anyhow!("{}: problem {i}: {e}", path.display()))?;
        }
        Ok(file)
    }

    /// The solver settings the file prescribes (initial guess set per problem).
    pub fn settings(&self) -> anyhow::Result<SolverSettings> {
        let (criterion, kind) = parse_criterion(&self.criterion)?;
        let settings = SolverSettings {
            criterion,
            kind,
            initial_guess: InitialGuess::OriginDifference,
            ..self.settings
        };
        settings
            .validate()
            .map_err(|e| anyhow::anyhow!("problem file settings: {e}"))?;
        Ok(settings)
    }

    /// Builds every shape of the file.
    pub fn build_shapes(&self) -> anyhow::Result<Vec<Shape>> {
        self.build_each_shape()
            .into_iter()
            .map(|s| s.map_err(anyhow::Error::msg))
            .collect()
    }

    /// Every shape, or why it could not be built ("shape 3: unbounded: ..."): a run
    /// over the file answers the problems of the shapes that could be.
    pub fn build_each_shape(&self) -> Vec<Result<Shape, String>> {
        self.shapes
            .iter()
            .enumerate()
            .map(|(i, s)| build_shape(s).map_err(|e| format!("problem file shape {i}: {e}")))
            .collect()
    }
}

impl Problem {
    /// B's pose must be rigid and finite: a rotation whose rows are orthonormal to
    /// [`crate::pose::MATRIX_TOLERANCE`], a translation (and velocity) within ±1e75. A non-rigid pose is a different
    /// query than the one the file describes; a non-finite one answers NaN.
    fn check_pose(&self) -> Result<(), String> {
        crate::pose::rigid_rotation(self.b_rotation).map_err(|e| format!("b_rotation: {e}"))?;
        for (name, v) in [
            ("b_translation", Some(self.b_translation)),
            ("b_velocity", self.b_velocity),
        ] {
            if let Some(v) = v {
                if !v
                    .iter()
                    .all(|c| c.is_finite() && c.abs() <= crate::shape::MAX_COORDINATE)
                {
                    return Err(format!("{name} {v:?} is not finite or beyond ±1e75"));
                }
            }
        }
        Ok(())
    }

    pub fn b_in_a(&self) -> RelativePose {
        let rotation = DMat3::from_cols_array_2d(&self.b_rotation).transpose();
        RelativePose::from_matrix(rotation, DVec3::from_array(self.b_translation))
    }
}

/// Parses the file's criterion name, e.g. `duality_gap_absolute`.
pub fn parse_criterion(name: &str) -> anyhow::Result<(Criterion, CriterionKind)> {
    let (criterion, kind) = name
        .rsplit_once('_')
        .ok_or_else(|| anyhow::anyhow!("unknown criterion '{name}'"))?;
    let criterion = match criterion {
        "van_den_bergen" | "default" => Criterion::VanDenBergen,
        "duality_gap" => Criterion::DualityGap,
        "hybrid" => Criterion::Hybrid,
        _ => anyhow::bail!("unknown criterion '{name}'"),
    };
    let kind = match kind {
        "absolute" => CriterionKind::Absolute,
        "relative" => CriterionKind::Relative,
        _ => anyhow::bail!("unknown criterion '{name}'"),
    };
    Ok((criterion, kind))
}

/// Runs every problem with the named methods (none: every algorithm of
/// [`PROBLEM_ALGORITHMS`]), the file's settings and the given tetrahedron projection
/// (Coal's region tree reproduces Coal's counts); with `timing`, also times each query
/// and parry's GJK on the same problem.
pub fn run_problems(
    file: &ProblemFile,
    timing: bool,
    tetrahedron: TetrahedronRule,
    methods: &[Method],
) -> anyhow::Result<Vec<ProblemResult>> {
    let methods: Vec<Method> = if methods.is_empty() {
        PROBLEM_ALGORITHMS.iter().map(|a| Method::of(*a)).collect()
    } else {
        methods.to_vec()
    };
    let shapes = file.build_each_shape();
    for refused in shapes.iter().filter_map(|s| s.as_ref().err()) {
        eprintln!("warning: {refused} (its problems are answered not_applicable)");
    }
    let base = SolverSettings {
        tetrahedron,
        ..file.settings()?
    };
    Ok(file
        .problems
        .iter()
        .enumerate()
        .map(|(index, p)| {
            let b_in_a = p.b_in_a();
            let settings = SolverSettings {
                initial_guess: InitialGuess::Direction(-b_in_a.translation),
                ..base
            };
            let (a, b) = match (&shapes[p.a], &shapes[p.b]) {
                (Ok(a), Ok(b)) => (a, b),
                (Err(why), _) | (_, Err(why)) => {
                    let algorithms = methods
                        .iter()
                        .map(|m| (m.name().to_string(), not_applicable_answer(why.clone())))
                        .collect();
                    return ProblemResult {
                        index,
                        target_distance: p.target_distance,
                        algorithms,
                        parry: None,
                    };
                }
            };
            let algorithms = methods
                .iter()
                .map(|method| {
                    let fits = catalog::info(*method).shapes.check(a, b);
                    let velocity = p.b_velocity.map(DVec3::from_array);
                    let answer = if let Err(why) = fits {
                        not_applicable_answer(why)
                    } else if let Some(alg) = method.entry::<Algorithm>() {
                        let md = MinkowskiDifference::new(a, b, b_in_a);
                        let run = solve(alg, md, settings);
                        AlgorithmAnswer {
                            seconds_per_query: timing
                                .then(|| our_seconds(a, b, b_in_a, alg, settings)),
                            support_calls: Some(run.stats.calls),
                            ..AlgorithmAnswer::of(&run, None)
                        }
                    } else if method.family() == epa::FAMILY {
                        epa_answer(a, b, b_in_a, &settings, timing)
                    } else if let Some(rule) = method.entry::<ToiRule>() {
                        toi_answer(a, b, b_in_a, velocity, rule, &settings, timing)
                    } else if let Some(question) = method.entry::<LpQuestion>() {
                        lp_answer(a, b, b_in_a, question, &settings, timing)
                    } else if method.entry::<IpQuestion>() == Some(IpQuestion::Distance) {
                        interior_point_answer(a, b, b_in_a, &settings, timing)
                    } else if method.entry::<IpQuestion>() == Some(IpQuestion::TimeOfImpact) {
                        interior_point_toi_answer(a, b, b_in_a, velocity, &settings, timing)
                    } else {
                        // A family with no comparison of its own: its run as it is.
                        let motion = velocity.map(|velocity| crate::pose::Motion {
                            velocity,
                            spin: DVec3::ZERO,
                        });
                        let query = || method.run(a, b, b_in_a, motion, settings, false).summary;
                        AlgorithmAnswer::of(&query(), timing.then_some(&query))
                    };
                    (method.name().to_string(), answer)
                })
                .collect();
            let parry = timing.then(|| match guarded(|| parry_seconds(a, b, b_in_a)) {
                Ok((seconds_per_query, distance)) => ParryAnswer {
                    distance,
                    not_comparable: parry_cannot_compare(a, b),
                    seconds_per_query,
                },
                Err(why) => ParryAnswer {
                    distance: f64::NAN,
                    not_comparable: Some(format!("parry failed on this pair ({why})")),
                    seconds_per_query: f64::NAN,
                },
            });
            ProblemResult {
                index,
                target_distance: p.target_distance,
                algorithms,
                parry,
            }
        })
        .collect())
}

/// EPA's answer in the problem-file contract: signed distance, normal, expansions.
/// Why a run answered `not_applicable` or `degenerate`, for the JSON.
fn outcome_reason(outcome: &Outcome) -> Option<String> {
    match outcome {
        Outcome::NotApplicable { why } => Some(why.clone()),
        Outcome::Degenerate { reason } => Some(reason.clone()),
        _ => None,
    }
}

/// The gap of the plane that proves the shapes apart, when the run found one.
fn proved_lower_bound(outcome: &Outcome) -> Option<f64> {
    outcome.lower_bound().filter(|_| outcome.proves_apart())
}

/// A method that does not take this pair of shapes.
fn not_applicable_answer(why: String) -> AlgorithmAnswer {
    AlgorithmAnswer {
        iterations: 0,
        distance: None,
        status: "not_applicable".into(),
        normal: None,
        time_of_impact: None,
        pivots: None,
        seconds_per_query: None,
        parry: None,
        support_calls: None,
        reason: Some(why),
        lower_bound: None,
        parry_toi: None,
    }
}

/// The interior point's distance (0 when intersecting) and its Newton steps.
fn interior_point_answer(
    a: &Shape,
    b: &Shape,
    b_in_a: RelativePose,
    settings: &SolverSettings,
    timing: bool,
) -> AlgorithmAnswer {
    let query = || {
        Method::interior_point()
            .run(a, b, b_in_a, None, *settings, false)
            .summary
    };
    AlgorithmAnswer::of(&query(), timing.then_some(&query))
}

/// The interior point's time of impact in the time-of-impact contract (its distance at
/// t = 0 from the interior point's distance query, not timed).
fn interior_point_toi_answer(
    a: &Shape,
    b: &Shape,
    b_in_a: RelativePose,
    velocity: Option<DVec3>,
    settings: &SolverSettings,
    timing: bool,
) -> AlgorithmAnswer {
    let Some(v) = velocity else {
        let mut answer = not_applicable_answer("no b_velocity: nothing moves".into());
        answer.time_of_impact = Some(None);
        return answer;
    };
    let motion = crate::pose::Motion {
        velocity: v,
        spin: DVec3::ZERO,
    };
    let query = || {
        Method::interior_point_toi()
            .run(a, b, b_in_a, Some(motion), *settings, false)
            .summary
    };
    let run = query();
    let time = match run.outcome {
        Outcome::Impact { time, .. } | Outcome::Grazing { time, .. } => Some(time),
        _ => None,
    };
    let initial = Method::interior_point()
        .run(a, b, b_in_a, None, *settings, false)
        .summary
        .outcome
        .distance();
    AlgorithmAnswer {
        iterations: run.iterations,
        distance: initial,
        status: run.outcome.status_name().to_string(),
        normal: run.outcome.normal().map(|n| n.to_array()),
        time_of_impact: Some(time),
        pivots: None,
        seconds_per_query: timing.then(|| {
            seconds_per_query(|| {
                std::hint::black_box(query());
            })
        }),
        parry: None,
        support_calls: None,
        reason: outcome_reason(&run.outcome),
        lower_bound: proved_lower_bound(&run.outcome),
        parry_toi: None,
    }
}

fn epa_answer(
    a: &Shape,
    b: &Shape,
    b_in_a: RelativePose,
    settings: &SolverSettings,
    timing: bool,
) -> AlgorithmAnswer {
    // Timed through the family's own entry, as a library user calls it (`Method::run`
    // adds the catalog's shape check and the run's trace slot, 50 ns on a 100 ns
    // query); the answer is `Method::run`'s, the same run.
    let pair = PairQuery {
        a,
        b,
        b_in_a,
        motion: None,
        settings: *settings,
    };
    let query = || Penetration.run(&pair, None).summary;
    let run = Method::epa()
        .run(a, b, b_in_a, None, *settings, false)
        .summary;
    let applicable = !matches!(run.outcome, Outcome::NotApplicable { .. });
    AlgorithmAnswer {
        distance: run.outcome.signed_distance(),
        normal: run.outcome.normal().map(|n| n.to_array()),
        // A panic inside parry is its failure on this pair: no depth, no time.
        parry: timing
            .then(|| {
                let depth = guarded(|| parry_penetration(a, b, &b_in_a)).ok()?;
                Some(ParryPenetration {
                    depth: depth.map(|(depth, _)| depth),
                    seconds_per_query: seconds_per_query(|| {
                        std::hint::black_box(parry_penetration(a, b, &b_in_a));
                    }),
                })
            })
            .flatten(),
        ..AlgorithmAnswer::of(&run, (timing && applicable).then_some(&query))
    }
}

/// A time-of-impact answer in the problem-file contract: the distance at t = 0, the
/// first time of contact (`null` when none), the method's steps; with `timing`, its
/// time per query and parry3d-f64's `cast_shapes` on the same motion.
fn toi_answer(
    a: &Shape,
    b: &Shape,
    b_in_a: RelativePose,
    velocity: Option<DVec3>,
    rule: ToiRule,
    settings: &SolverSettings,
    timing: bool,
) -> AlgorithmAnswer {
    let Some(v) = velocity else {
        return AlgorithmAnswer {
            iterations: 0,
            distance: None,
            status: "not_applicable".into(),
            normal: None,
            time_of_impact: Some(None),
            pivots: None,
            seconds_per_query: None,
            parry: None,
            support_calls: None,
            reason: None,
            lower_bound: None,
            parry_toi: None,
        };
    };
    let motion = crate::pose::Motion {
        velocity: v,
        spin: DVec3::ZERO,
    };
    // The answer through `Method::run`, the time through the family's own entry (the
    // same run without the catalog's check and the trace slot), as for EPA.
    let whole = Method::toi(rule).run(a, b, b_in_a, Some(motion), *settings, false);
    let pair = PairQuery {
        a,
        b,
        b_in_a,
        motion: Some(motion),
        settings: *settings,
    };
    let query = || rule.run(&pair, None);
    let applicable = !matches!(whole.summary.outcome, Outcome::NotApplicable { .. });
    let run = &whole.summary;
    let time = match run.outcome {
        Outcome::Impact { time, .. } | Outcome::Grazing { time, .. } => Some(time),
        _ => None,
    };
    AlgorithmAnswer {
        iterations: run.iterations,
        // The contract's distance at t = 0: the run's own, or (a closed form that did
        // not need it) GJK's, measured outside the timed query.
        distance: whole
            .extras
            .get::<ToiExtras>()
            .and_then(|e| e.initial_distance)
            .or_else(|| {
                let md = MinkowskiDifference::new(a, b, b_in_a);
                let gjk = Algorithm::Gjk(crate::solver::DirectionRule::Vanilla);
                solve(gjk, md, crate::solver::epa::gjk_settings_for_epa())
                    .outcome
                    .distance()
            }),
        status: run.outcome.status_name().to_string(),
        normal: run.outcome.normal().map(|n| n.to_array()),
        time_of_impact: Some(time),
        pivots: None,
        seconds_per_query: (timing && applicable).then(|| {
            seconds_per_query(|| {
                std::hint::black_box(query());
            })
        }),
        parry: None,
        support_calls: None,
        reason: outcome_reason(&run.outcome),
        lower_bound: proved_lower_bound(&run.outcome),
        parry_toi: timing
            .then(|| {
                let answer = guarded(|| parry_time_of_impact(a, b, &b_in_a, v)).ok()??;
                Some(ParryToi {
                    time_of_impact: answer,
                    seconds_per_query: seconds_per_query(|| {
                        std::hint::black_box(parry_time_of_impact(a, b, &b_in_a, v));
                    }),
                })
            })
            .flatten(),
    }
}

/// An LP answer in the problem-file contract: the verdict, `null` distance, the pivots.
fn lp_answer(
    a: &Shape,
    b: &Shape,
    b_in_a: RelativePose,
    question: LpQuestion,
    settings: &SolverSettings,
    timing: bool,
) -> AlgorithmAnswer {
    let method = Method::of(question);
    let query = || method.run(a, b, b_in_a, None, *settings, false).summary;
    let run = query();
    AlgorithmAnswer {
        distance: None,
        pivots: Some(run.iterations),
        ..AlgorithmAnswer::of(&run, timing.then_some(&query))
    }
}

/// EPA's time per query over parry's on the overlapping problems both answered: the
/// ratio of summed times, the median of per-problem ratios, and the number of problems.
pub fn epa_ratio(results: &[ProblemResult]) -> Option<(f64, f64, usize)> {
    let (mut ours, mut theirs, mut n) = (0.0, 0.0, 0);
    let mut ratios = Vec::new();
    for r in results {
        let Some(epa) = r.algorithms.get("epa") else {
            continue;
        };
        if let (Some(mine), Some(parry), "penetrating") =
            (epa.seconds_per_query, &epa.parry, epa.status.as_str())
        {
            if parry.depth.is_some() {
                ours += mine;
                theirs += parry.seconds_per_query;
                ratios.push(mine / parry.seconds_per_query);
                n += 1;
            }
        }
    }
    (n > 0).then(|| (ours / theirs, median(ratios), n))
}

/// The median of the finite values (the mean of the middle two for an even count; NaN
/// when there are none): a peer that could not answer leaves its problem out.
pub fn median(mut values: Vec<f64>) -> f64 {
    values.retain(|v| v.is_finite());
    values.sort_by(f64::total_cmp);
    match values.len() {
        0 => f64::NAN,
        n if n % 2 == 1 => values[n / 2],
        n => 0.5 * (values[n / 2 - 1] + values[n / 2]),
    }
}

/// Per category of the file's problems (`category`), each timed method's mean time per
/// query beside its peer's in the same process (parry3d-f64's penetration query for
/// EPA, its `cast_shapes` for a time of impact): the table the speed goals are stated
/// on. `None` when nothing was timed against a peer or the file has no categories.
pub fn category_table(file: &ProblemFile, results: &[ProblemResult]) -> Option<String> {
    let mut rows: BTreeMap<(String, String), Vec<(f64, f64)>> = BTreeMap::new();
    for r in results {
        let Some(category) = file.problems.get(r.index).and_then(|p| p.category.clone()) else {
            continue;
        };
        for (name, answer) in &r.algorithms {
            let peer = (answer.parry.as_ref().map(|p| p.seconds_per_query))
                .or(answer.parry_toi.as_ref().map(|p| p.seconds_per_query));
            if let (Some(ours), Some(peer)) = (answer.seconds_per_query, peer) {
                let key = (name.clone(), category.clone());
                rows.entry(key).or_default().push((ours, peer));
            }
        }
    }
    if rows.is_empty() {
        return None;
    }
    let mut out = format!(
        "{:<18} {:<24} {:>3} {:>10} {:>10} {:>8} {:>8}\n",
        "method", "category", "n", "ours µs", "peer µs", "ratio", "median"
    );
    for ((method, category), times) in rows {
        let n = times.len();
        let ours = times.iter().map(|t| t.0).sum::<f64>() / n as f64;
        let peer = times.iter().map(|t| t.1).sum::<f64>() / n as f64;
        let ratios: Vec<f64> = times.iter().map(|(o, p)| o / p).collect();
        out.push_str(&format!(
            "{method:<18} {category:<24} {n:>3} {:>10.3} {:>10.3} {:>8.2} {:>8.2}\n",
            ours * 1e6,
            peer * 1e6,
            ours / peer,
            median(ratios)
        ));
    }
    Some(out)
}

/// Mean iterations per target distance, per algorithm: ours and (where given) Coal's.
pub struct MeanTable {
    pub distances: Vec<f64>,
    /// `(algorithm, ours per distance, Coal's per distance if the file has them)`
    pub rows: Vec<(String, Vec<f64>, Option<Vec<f64>>)>,
}

pub fn mean_table(file: &ProblemFile, results: &[ProblemResult]) -> MeanTable {
    let mut distances: Vec<f64> = file.problems.iter().map(|p| p.target_distance).collect();
    distances.sort_by(f64::total_cmp);
    distances.dedup();
    let mean = |values: Vec<f64>| values.iter().sum::<f64>() / values.len().max(1) as f64;
    let names: Vec<String> = results
        .first()
        .map(|r| r.algorithms.keys().cloned().collect())
        .unwrap_or_default();
    let rows = names
        .iter()
        .map(|name| {
            let name = name.as_str();
            let ours = distances
                .iter()
                .map(|d| {
                    mean(
                        results
                            .iter()
                            .filter(|r| r.target_distance == *d)
                            .map(|r| r.algorithms[name].iterations as f64)
                            .collect(),
                    )
                })
                .collect();
            let has_coal = file.problems.iter().all(|p| p.coal.contains_key(name));
            let coal = has_coal.then(|| {
                distances
                    .iter()
                    .map(|d| {
                        mean(
                            file.problems
                                .iter()
                                .filter(|p| p.target_distance == *d)
                                .map(|p| p.coal[name].iterations as f64)
                                .collect(),
                        )
                    })
                    .collect()
            });
            (name.to_string(), ours, coal)
        })
        .collect();
    MeanTable { distances, rows }
}

impl std::fmt::Display for MeanTable {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{:<28}", "mean iterations at distance")?;
        for d in &self.distances {
            // Compact, so that long decimals keep their columns apart.
            write!(f, " {:>8}", format!("{d:.1e}"))?;
        }
        writeln!(f)?;
        for (name, ours, coal) in &self.rows {
            write!(f, "{:<28}", name)?;
            for v in ours {
                write!(f, "{v:>9.1}")?;
            }
            writeln!(f)?;
            if let Some(coal) = coal {
                write!(f, "{:<28}", format!("  Coal {name}"))?;
                for v in coal {
                    write!(f, "{v:>9.1}")?;
                }
                writeln!(f)?;
            }
        }
        Ok(())
    }
}

/// Time per query of our algorithms over parry's, per target distance (with `--timing`).
pub fn timing_table(results: &[ProblemResult]) -> String {
    let mut samples = Vec::new();
    for r in results {
        let Some(parry) = &r.parry else { continue };
        for alg in PROBLEM_ALGORITHMS
            .iter()
            .filter(|a| matches!(a, Algorithm::Gjk(_)))
        {
            if let Some(ours) = r
                .algorithms
                .get(alg.name())
                .and_then(|a| a.seconds_per_query)
            {
                samples.push(TimingSample {
                    target_distance: r.target_distance,
                    algorithm: alg.name(),
                    ours,
                    parry: parry.seconds_per_query,
                });
            }
        }
    }
    ratio_table(&samples)
}

/// One shape of a problem file, built by the scenes' builder.
fn build_shape(s: &ProblemShape) -> anyhow::Result<Shape> {
    let spec = s.to_spec(true)?;
    crate::scene::build_shape_spec(&spec, Path::new(".")).map_err(|e| anyhow::anyhow!("{e}"))
}

impl ProblemShape {
    /// The same shape as a scene writes it. Half-spaces alone are the polytope of their
    /// vertices (`top_level`); inside an intersection they stay planes. Rotations of
    /// intersection members stay the matrices given.
    pub fn to_spec(&self, top_level: bool) -> anyhow::Result<ShapeSpec> {
        Ok(match self {
            ProblemShape::Ellipsoid(radii) => ShapeSpec::Ellipsoid { radii: *radii },
            ProblemShape::ConvexHull { vertices, .. } => ShapeSpec::hull_of(vertices.clone()),
            ProblemShape::Sphere(radius) => ShapeSpec::Sphere { radius: *radius },
            ProblemShape::Box(half_extents) => ShapeSpec::Box {
                half_extents: *half_extents,
            },
            ProblemShape::Capsule {
                radius,
                half_height,
            } => ShapeSpec::Capsule {
                radius: *radius,
                half_height: *half_height,
            },
            ProblemShape::Cylinder {
                radius,
                half_height,
            } => ShapeSpec::Cylinder {
                radius: *radius,
                half_height: *half_height,
            },
            ProblemShape::Cone {
                radius,
                half_height,
            } => ShapeSpec::Cone {
                radius: *radius,
                half_height: *half_height,
            },
            ProblemShape::Halfspaces(planes) if top_level => {
                let points = crate::shape::halfspace_vertices(planes)
                    .map_err(|why| anyhow::anyhow!("halfspaces: {why}"))?;
                ShapeSpec::hull_of(points.iter().map(|p| p.to_array()).collect())
            }
            ProblemShape::Halfspaces(planes) => ShapeSpec::Halfspaces {
                planes: planes.clone(),
            },
            ProblemShape::Superquadric { radii, exponents } => ShapeSpec::Superquadric {
                radii: *radii,
                exponents: *exponents,
            },
            ProblemShape::Hyperquadric { terms } => ShapeSpec::Hyperquadric {
                terms: terms.clone(),
            },
            ProblemShape::Intersection(members) => ShapeSpec::Intersection {
                members: members
                    .iter()
                    .enumerate()
                    .map(|(k, m)| {
                        Ok(MemberSpec {
                            shape: m
                                .shape
                                .to_spec(false)
                                .map_err(|e| anyhow::anyhow!("intersection member {k}: {e}"))?,
                            translation: m.translation,
                            rotation: RotationSpec::Matrix(m.rotation),
                        })
                    })
                    .collect::<anyhow::Result<_>>()?,
            },
        })
    }
}

#[cfg(test)]
mod tests {
    use glam::DVec3;

    #[test]
    fn halfspaces_give_their_vertices_or_say_why_not() {
        let cube: Vec<[f64; 4]> = vec![
            [1.0, 0.0, 0.0, 1.0],
            [-1.0, 0.0, 0.0, 1.0],
            [0.0, 1.0, 0.0, 2.0],
            [0.0, -1.0, 0.0, 2.0],
            [0.0, 0.0, 1.0, 3.0],
            [0.0, 0.0, -1.0, 3.0],
        ];
        let v = crate::shape::halfspace_vertices(&cube).unwrap();
        assert_eq!(v.len(), 8);
        assert!(v.iter().all(|p| p.abs() == DVec3::new(1.0, 2.0, 3.0)));
        assert!(crate::shape::halfspace_vertices(&cube[..5])
            .unwrap_err()
            .contains("unbounded"));
        let mut empty = cube.clone();
        empty.push([1.0, 0.0, 0.0, -2.0]);
        assert!(crate::shape::halfspace_vertices(&empty)
            .unwrap_err()
            .contains("empty"));
    }
}
