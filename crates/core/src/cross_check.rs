//! parry3d-f64's answer on the same pair and pose, beside ours: its native
//! query where parry has the shapes (what a parry user gets), its GJK on our support
//! maps otherwise, its penetration depth on overlap and its time of impact when B
//! moves; and whether the two agree within the bound our run certifies. A disagreement
//! names both numbers; parry's silent failure (contact, distance 0.0, where the shapes
//! are apart) is called what it is.

use crate::printed_bound::Below;
use std::time::Instant;

use glam::DVec3;

use crate::composite::CompositeRun;
use crate::parry_bridge::{
    parry_cast_query, parry_gjk_closest_points, parry_native_distance, parry_penetration,
    parry_time_of_impact_moving,
};
use crate::pose::Motion;
use crate::pose::RelativePose;
use crate::scene::{Body, Scene, ShapeSpec};
use crate::shape::Shape;
use crate::solver::distance::distance_guarantee;
use crate::solver::toi::{contact_distance, ToiSettings};
use crate::solver::{Outcome, RunSummary, SolverSettings};

/// Why parry3d-f64's answer is not about these shapes, when it is not: parry has no
/// implicit bodies (superquadrics with unequal exponents, hyperquadrics, intersections,
/// half-spaces), and its GJK on their numerical supports answers for a stand-in.
pub fn parry_cannot_compare(a: &Shape, b: &Shape) -> Option<String> {
    [a, b].iter().find_map(|s| match s {
        Shape::Implicit(i) => Some(format!(
            "parry has no implicit shapes ({}): its answer would be about a stand-in",
            i.what()
        )),
        _ => None,
    })
}

/// What parry3d-f64 answers on the pair.
#[derive(Clone, Debug, PartialEq)]
pub struct ParryAnswer {
    /// Why its answer is not about these shapes, when it is not (then nothing is
    /// compared).
    pub not_comparable: Option<String>,
    /// Its distance (0 when it reports contact).
    pub distance: f64,
    /// Its penetration depth when it reports contact and its contact query gives one.
    pub depth: Option<f64>,
    /// Its witness points (A's frame), when its GJK gives them.
    pub witnesses: Option<(DVec3, DVec3)>,
    /// Which of parry's queries answered.
    pub via: &'static str,
    pub seconds: f64,
    /// Its time of impact when B moves (and parry has both shapes).
    pub impact: Option<ParryImpact>,
}

/// parry's time of impact on the scene's motion, with what our times are held to.
#[derive(Clone, Debug, PartialEq)]
pub struct ParryImpact {
    /// Its first contact over t ∈ [0, 1]; `None`: it finds none.
    pub time: Option<f64>,
    /// How its cast ended ("converged", "failed", ...), when it gave a time.
    pub status: Option<&'static str>,
    /// `cast_shapes` (a translation) or `cast_shapes_nonlinear` (B turns).
    pub via: &'static str,
    pub motion: Motion,
    /// B's origin at t = 0 (A's frame): a contact point's speed needs its lever arm.
    pub b_start: DVec3,
    /// Our contact distance on this scene: shapes this close count as touching.
    pub contact: f64,
}

impl ParryImpact {
    /// "t = … (converged)" or "none over t ∈ [0, 1]".
    pub fn describe(&self) -> String {
        match (self.time, self.status) {
            (Some(t), Some(status)) => format!("t = {t:.9e} ({status})"),
            (Some(t), None) => format!("t = {t:.9e}"),
            (None, _) => "none over t ∈ [0, 1]".into(),
        }
    }

    /// How far a time of ours may lie from the true first contact: the bracketing
    /// methods' time tolerance, plus the contact distance over the speed at which the
    /// contact point closes along the normal (a run stops within that distance).
    fn time_bound(&self, time: f64, normal: DVec3, witness_b: Option<DVec3>) -> f64 {
        let lever = witness_b.map_or(DVec3::ZERO, |w| {
            w - (self.b_start + self.motion.velocity * time)
        });
        let closing = (self.motion.velocity + self.motion.spin.cross(lever))
            .dot(normal)
            .abs();
        let slack = if closing > 0.0 {
            self.contact / closing
        } else {
            f64::INFINITY
        };
        ToiSettings::default().time_tolerance + slack + 1e-12
    }
}

/// Ours against parry's.
#[derive(Clone, Debug, PartialEq)]
pub enum Agreement {
    /// Within the bound our run certifies (and round-off).
    Agree { bound: f64 },
    /// Apart by more than that bound: both numbers.
    Disagree { ours: f64, parry: f64, bound: f64 },
    /// parry reports contact (distance 0.0) where our run certifies a distance.
    ParryMissedSeparation { ours: f64 },
    /// parry's distance lies below the lower bound our run certifies (a separating
    /// plane's gap).
    BelowLowerBound { lower_bound: f64, parry: f64 },
    /// Times of impact apart by more than our bound, or one side finds no impact.
    ImpactDisagrees {
        ours: Option<f64>,
        parry: Option<f64>,
        /// How parry's cast ended when it gave a time ("failed" is parry's own word).
        parry_status: Option<&'static str>,
        bound: f64,
    },
    /// Our run certified nothing to compare (cap, not applicable, degenerate).
    NotComparable(String),
}

impl Agreement {
    pub fn agrees(&self) -> bool {
        matches!(self, Agreement::Agree { .. })
    }
}

impl std::fmt::Display for Agreement {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            // Bound 0: nothing numeric to hold (no impact on either side).
            Agreement::Agree { bound } if *bound == 0.0 => write!(f, "agrees"),
            Agreement::Agree { bound } => write!(f, "agrees within {bound:.1e}"),
            Agreement::Disagree { ours, parry, bound } => write!(
                f,
                "DISAGREES: ours {ours:.9e}, parry {parry:.9e} (apart by {:.2e} > {bound:.1e})",
                (ours - parry).abs()
            ),
            Agreement::ParryMissedSeparation { ours } => write!(
                f,
                "DISAGREES: parry reports contact (distance 0.0) where ours certifies {ours:.9e}"
            ),
            Agreement::BelowLowerBound { lower_bound, parry } => write!(
                f,
                "DISAGREES: parry {parry:.9e} below our certified lower bound {:.9e}",
                Below(*lower_bound)
            ),
            Agreement::ImpactDisagrees {
                ours,
                parry,
                parry_status,
                bound,
            } => {
                let time =
                    |t: &Option<f64>| t.map_or("no impact".into(), |t| format!("t = {t:.9e}"));
                let status = parry_status.map_or(String::new(), |s| format!(" ({s})"));
                write!(
                    f,
                    "DISAGREES: ours {}, parry {}{status} (bound {bound:.1e})",
                    time(ours),
                    time(parry)
                )
            }
            Agreement::NotComparable(why) => write!(f, "not comparable ({why})"),
        }
    }
}

/// For answers known only by their distance and status (problem files): whether parry's
/// distance lies within the bound a separated (or intersecting) answer certifies;
/// `None` when the answer certifies nothing to compare.
pub fn distance_agrees(
    ours: Option<f64>,
    status: &str,
    settings: &SolverSettings,
    parry: f64,
) -> Option<bool> {
    let d = ours?;
    let bound = match status {
        "separated" => distance_guarantee(settings.criterion, settings.kind, settings.tolerance, d),
        "intersecting" | "touching" => settings.tolerance,
        _ => return None,
    } + 1e-9 * d.max(1.0);
    Some((d - parry).abs() <= bound)
}

/// parry3d-f64 on A (identity) and B (at `b_in_a`), and its time of impact when B
/// moves by `motion`. Run behind a guard: a panic inside parry (its EPA indexed out of
/// bounds on a box 1e308 wide) becomes "parry failed on this pair", never the end of
/// the program.
pub fn parry_answer(
    a: &Shape,
    b: &Shape,
    b_in_a: &RelativePose,
    motion: Option<Motion>,
) -> ParryAnswer {
    let start = Instant::now();
    guarded(|| parry_answer_unguarded(a, b, b_in_a, motion)).unwrap_or_else(|why| ParryAnswer {
        not_comparable: Some(format!("parry failed on this pair ({why})")),
        distance: f64::NAN,
        depth: None,
        witnesses: None,
        via: "parry panicked",
        seconds: start.elapsed().as_secs_f64(),
        impact: None,
    })
}

/// Runs `f`, turning a panic into its message (for calls into peer libraries).
pub fn guarded<T>(f: impl FnOnce() -> T) -> Result<T, String> {
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(f)).map_err(|payload| {
        payload
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| payload.downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "a panic".into())
    })
}

fn parry_answer_unguarded(
    a: &Shape,
    b: &Shape,
    b_in_a: &RelativePose,
    motion: Option<Motion>,
) -> ParryAnswer {
    let start = Instant::now();
    let witnesses = parry_gjk_closest_points(a, b, b_in_a).map(|(_, pa, pb)| (pa, pb));
    let (distance, via) = match parry_native_distance(a, b, b_in_a) {
        Some(d) => (d, "parry's own query on its shapes"),
        None => (
            witnesses.map_or(0.0, |(pa, pb)| (pa - pb).length()),
            "parry's GJK on our support maps",
        ),
    };
    let depth = (distance == 0.0)
        .then(|| parry_penetration(a, b, b_in_a).map(|(d, _)| d))
        .flatten();
    let impact = motion.and_then(|motion| {
        let cast = parry_time_of_impact_moving(a, b, b_in_a, motion)?;
        Some(ParryImpact {
            time: cast.map(|c| c.time),
            status: cast.map(|c| c.status),
            via: parry_cast_query(&motion),
            motion,
            b_start: b_in_a.translation,
            contact: contact_distance(a, b, motion.velocity, ToiSettings::default()),
        })
    });
    ParryAnswer {
        not_comparable: parry_cannot_compare(a, b),
        distance,
        depth,
        witnesses,
        via,
        seconds: start.elapsed().as_secs_f64(),
        impact,
    }
}

/// Whether parry's answer lies within what our run certifies.
pub fn compare(run: &RunSummary, settings: &SolverSettings, parry: &ParryAnswer) -> Agreement {
    if let Some(why) = &parry.not_comparable {
        return Agreement::NotComparable(why.clone());
    }
    match (&run.outcome, &parry.impact) {
        (Outcome::Impact { .. } | Outcome::NoImpact { .. } | Outcome::Grazing { .. }, None) => {
            Agreement::NotComparable("parry has no time of impact for these shapes".into())
        }
        (outcome, Some(impact)) if is_impact(outcome) => compare_impact(run, impact),
        (outcome, _) => compare_static(outcome, settings, parry),
    }
}

fn is_impact(outcome: &Outcome) -> bool {
    matches!(
        outcome,
        Outcome::Impact { .. } | Outcome::NoImpact { .. } | Outcome::Grazing { .. }
    )
}

/// A time-of-impact run against parry's cast: an impact within our time bound of
/// parry's, no impact where parry finds none; a graze (a touch by tolerance only)
/// agrees with either, but a time parry gives must lie within the bound.
fn compare_impact(run: &RunSummary, parry: &ParryImpact) -> Agreement {
    let (ours, bound) = match run.outcome {
        Outcome::Impact { time, normal } => {
            (Some(time), parry.time_bound(time, normal, run.witness_b))
        }
        Outcome::Grazing { time, .. } => {
            if parry.time.is_none() {
                return Agreement::Agree { bound: 0.0 };
            }
            // No normal at a graze: the closing speed along the witnesses' gap.
            let bound = match (run.witness_a, run.witness_b) {
                (Some(a), Some(b)) if a != b => {
                    parry.time_bound(time, (b - a).normalize(), Some(b))
                }
                _ => f64::INFINITY,
            };
            (Some(time), bound)
        }
        _ => (None, 0.0),
    };
    let agrees = match (ours, parry.time) {
        (Some(t), Some(p)) => (t - p).abs() <= bound,
        (None, None) => true,
        _ => false,
    };
    if agrees {
        Agreement::Agree { bound }
    } else {
        Agreement::ImpactDisagrees {
            ours,
            parry: parry.time,
            parry_status: parry.status,
            bound,
        }
    }
}

/// A run on the pose itself (distance, depth, separation) against parry's answers.
fn compare_static(outcome: &Outcome, settings: &SolverSettings, parry: &ParryAnswer) -> Agreement {
    let round_off = |d: f64| 1e-9 * d.max(1.0);
    match *outcome {
        Outcome::Separated { distance, .. } => {
            let bound = distance_guarantee(
                settings.criterion,
                settings.kind,
                settings.tolerance,
                distance,
            ) + round_off(distance);
            if parry.distance == 0.0 && distance > bound {
                Agreement::ParryMissedSeparation { ours: distance }
            } else if (distance - parry.distance).abs() <= bound {
                Agreement::Agree { bound }
            } else {
                Agreement::Disagree {
                    ours: distance,
                    parry: parry.distance,
                    bound,
                }
            }
        }
        Outcome::Stalled {
            distance,
            lower_bound,
        } => {
            let bound = (distance - lower_bound) + round_off(distance);
            if parry.distance >= lower_bound - round_off(distance)
                && parry.distance <= distance + round_off(distance)
            {
                Agreement::Agree { bound }
            } else {
                Agreement::Disagree {
                    ours: distance,
                    parry: parry.distance,
                    bound,
                }
            }
        }
        // Touching, overlapping or at most `distance` apart: parry's distance must not
        // exceed that.
        Outcome::Contact { distance } => {
            let bound = round_off(distance);
            if parry.distance <= distance + bound {
                Agreement::Agree {
                    bound: distance + bound,
                }
            } else {
                Agreement::Disagree {
                    ours: distance,
                    parry: parry.distance,
                    bound: distance + bound,
                }
            }
        }
        Outcome::Intersecting | Outcome::Touching { .. } => {
            let bound = settings.tolerance + round_off(0.0);
            if parry.distance <= bound {
                Agreement::Agree { bound }
            } else {
                Agreement::Disagree {
                    ours: 0.0,
                    parry: parry.distance,
                    bound,
                }
            }
        }
        Outcome::Penetrating { depth, .. } => {
            let bound = settings.tolerance.sqrt() + round_off(depth);
            match parry.depth {
                Some(p) if (p - depth).abs() <= bound => Agreement::Agree { bound },
                Some(p) => Agreement::Disagree {
                    ours: -depth,
                    parry: -p,
                    bound,
                },
                None if parry.distance > bound => Agreement::Disagree {
                    ours: -depth,
                    parry: parry.distance,
                    bound,
                },
                None => Agreement::NotComparable("parry gave no depth".into()),
            }
        }
        Outcome::SeparatedEarlyStop { lower_bound }
        | Outcome::SeparatingPlane {
            gap: lower_bound, ..
        } => {
            let bound = round_off(lower_bound);
            if parry.distance >= lower_bound - bound {
                Agreement::Agree { bound }
            } else if parry.distance == 0.0 {
                Agreement::ParryMissedSeparation { ours: lower_bound }
            } else {
                Agreement::BelowLowerBound {
                    lower_bound,
                    parry: parry.distance,
                }
            }
        }
        ref other => Agreement::NotComparable(other.to_string()),
    }
}

/// Which parry build answers a composite query: parry3d-f64, and parry3d (f32) beside
/// it for a scene whose numbers are all f32 values (an f32 capture's, widened), the
/// engine the user ran.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ParryBuild {
    F64,
    F32,
}

impl ParryBuild {
    pub fn crate_name(self) -> &'static str {
        match self {
            ParryBuild::F64 => "parry3d-f64",
            ParryBuild::F32 => "parry3d (f32)",
        }
    }
}

/// A parry build's answer on a pair with a composite (a `TriMesh`, `Compound` or
/// `HeightField` built from the scene's body as the engine builds it).
#[derive(Clone, Debug, PartialEq)]
pub struct CompositeParryAnswer {
    pub build: ParryBuild,
    /// Its signed distance: the distance when apart, minus its deepest contact's depth
    /// when it reports an overlap (`None` when it has no answer).
    pub signed_distance: Option<f64>,
    /// Which of parry's queries answered, or why none could.
    pub via: String,
    pub seconds: f64,
}

impl CompositeParryAnswer {
    /// "distance 1.2e-3 (query::distance on its TriMesh)".
    pub fn describe(&self) -> String {
        match self.signed_distance {
            Some(d) if d < 0.0 => format!("depth {:.9e} ({})", -d, self.via),
            Some(d) => format!("distance {d:.9e} ({})", self.via),
            None => format!("no answer ({})", self.via),
        }
    }
}

/// Whether every number that makes the focused pair (the shapes' parameters and the
/// translations) is an f32 value: the scene of an f32 capture, which parry3d (f32)
/// can be run on without rounding anything but the normalised rotations.
pub fn pair_is_f32(scene: &Scene) -> bool {
    fn exact(x: f64) -> bool {
        f64::from(x as f32) == x
    }
    fn spec_exact(spec: &ShapeSpec) -> bool {
        let all = |xs: &[f64]| xs.iter().all(|x| exact(*x));
        match spec {
            ShapeSpec::Point => true,
            ShapeSpec::Sphere { radius } => exact(*radius),
            ShapeSpec::Box { half_extents } => all(half_extents),
            ShapeSpec::Capsule {
                radius,
                half_height,
            }
            | ShapeSpec::Cylinder {
                radius,
                half_height,
            }
            | ShapeSpec::Cone {
                radius,
                half_height,
            } => exact(*radius) && exact(*half_height),
            ShapeSpec::Polytope { points, .. } => points.iter().all(|p| all(p)),
            ShapeSpec::TriMesh { vertices, .. } => vertices.iter().all(|p| all(p)),
            ShapeSpec::HeightField { heights, scale, .. } => {
                all(scale) && heights.iter().all(|r| all(r))
            }
            ShapeSpec::Compound { parts } => parts
                .iter()
                .all(|p| all(&p.translation) && spec_exact(&p.shape)),
            ShapeSpec::Dilated { shape, radius } => exact(*radius) && spec_exact(shape),
            _ => false,
        }
    }
    [scene.a(), scene.b()]
        .iter()
        .all(|b| spec_exact(&b.spec) && b.pose.translation.to_array().iter().all(|x| exact(*x)))
}

/// parry's answers on the focused pair of a scene with a composite: parry3d-f64's,
/// and parry3d (f32)'s beside it when the pair's numbers are all f32 values
/// ([`pair_is_f32`]). Each runs behind a guard (a panic is its answer's `via`).
pub fn parry_composite_answers(scene: &Scene) -> Vec<CompositeParryAnswer> {
    let mut builds = vec![ParryBuild::F64];
    if pair_is_f32(scene) {
        builds.push(ParryBuild::F32);
    }
    builds
        .into_iter()
        .map(|build| parry_composite_answer(scene, build))
        .collect()
}

/// One parry build's answer on the focused pair (composite or not).
pub fn parry_composite_answer(scene: &Scene, build: ParryBuild) -> CompositeParryAnswer {
    let start = Instant::now();
    let (a, b) = (scene.a(), scene.b());
    let result = guarded(|| match build {
        ParryBuild::F64 => engine_f64::signed_distance(a, b),
        ParryBuild::F32 => engine_f32::signed_distance(a, b),
    });
    let (signed_distance, via) = match result {
        Ok(Ok((d, via))) => (Some(d), via),
        Ok(Err(why)) => (None, why),
        Err(panic) => (None, format!("parry panicked: {panic}")),
    };
    CompositeParryAnswer {
        build,
        signed_distance,
        via,
        seconds: start.elapsed().as_secs_f64(),
    }
}

/// How far a parry build's answer may stray from the exact one on a pair of this scale
/// (the smaller body's reach plus the answer): its GJK's stopping tolerance
/// (parry3d-f64), or f32 rounding at the pair's own scale (parry3d). An f32 engine that
/// works in coordinates far larger than the pair (a mesh modelled in world
/// coordinates far from the origin) rounds by more: that is the failure to show.
fn engine_slack(build: ParryBuild, scale: f64) -> f64 {
    match build {
        ParryBuild::F64 => 1e-7 * (1.0 + scale),
        ParryBuild::F32 => 16.0 * f64::from(f32::EPSILON) * (1.0 + scale),
    }
}

/// A composite run (its certified answer) against one parry build's answer, held to
/// the run's bracket widened by the build's own precision at the pair's size.
pub fn compare_composite(
    run: &CompositeRun,
    settings: &SolverSettings,
    parry: &CompositeParryAnswer,
    size: f64,
) -> Agreement {
    let Some(theirs) = parry.signed_distance else {
        return Agreement::NotComparable(parry.via.clone());
    };
    let answer = &run.answer;
    let slack = engine_slack(parry.build, size + answer.upper.abs().min(size.max(1.0)));
    match answer.outcome {
        Outcome::Penetrating { depth, .. } => {
            let bound = settings.tolerance.sqrt() + slack;
            if (theirs + depth).abs() <= bound {
                Agreement::Agree { bound }
            } else {
                Agreement::Disagree {
                    ours: -depth,
                    parry: theirs,
                    bound,
                }
            }
        }
        Outcome::Intersecting | Outcome::Touching { .. } | Outcome::Contact { .. } => {
            let bound = answer.upper.max(0.0) + slack;
            if theirs <= bound {
                Agreement::Agree { bound }
            } else {
                Agreement::Disagree {
                    ours: answer.upper.max(0.0),
                    parry: theirs,
                    bound,
                }
            }
        }
        Outcome::Separated { .. } | Outcome::Stalled { .. } | Outcome::IterationCap { .. } => {
            let (lower, upper) = (answer.lower, answer.upper);
            if theirs >= lower - slack && theirs <= upper + slack {
                Agreement::Agree {
                    bound: (upper - lower) + slack,
                }
            } else if theirs <= 0.0 && lower > slack {
                Agreement::ParryMissedSeparation { ours: lower }
            } else if theirs < lower {
                Agreement::BelowLowerBound {
                    lower_bound: lower,
                    parry: theirs,
                }
            } else {
                Agreement::Disagree {
                    ours: upper,
                    parry: theirs,
                    bound: slack,
                }
            }
        }
        Outcome::SeparatedEarlyStop { lower_bound } => {
            if theirs >= lower_bound - slack {
                Agreement::Agree { bound: slack }
            } else if theirs <= 0.0 {
                Agreement::ParryMissedSeparation { ours: lower_bound }
            } else {
                Agreement::BelowLowerBound {
                    lower_bound,
                    parry: theirs,
                }
            }
        }
        ref other => Agreement::NotComparable(other.to_string()),
    }
}

/// The scale a composite pair's slack follows: the smaller body's reach about its own
/// origin (a ball's radius over a ground mesh, not the ground's size nor how far from
/// the origin either lies).
pub fn pair_size(scene: &Scene) -> f64 {
    scene.a().shape.extent().min(scene.b().shape.extent())
}

/// The scene's bodies as one parry build makes them (`$real` its scalar): a composite
/// as the engine builds it (`TriMesh::with_flags`, `HeightField` with its cell
/// statuses, `Compound::new` of its parts at their poses), a convex shape as parry's
/// own kind, and parry's signed distance between two bodies.
macro_rules! parry_engine {
    ($module:ident, $parry:ident, $real:ty) => {
        mod $module {
            use $parry::math::{Pose as P, Rotation, Vector};
            use $parry::shape::{
                Compound, HeightField, HeightFieldCellStatus, SharedShape, TriMesh, TriMeshFlags,
            };

            use glam::DVec3;

            use crate::composite::{CompositeKind, Pieces};
            use crate::pose::Pose;
            use crate::scene::{Body, ShapeSpec};
            use crate::shape::{AffineDimension, Shape};

            fn r(x: f64) -> $real {
                x as $real
            }

            fn v(p: DVec3) -> Vector {
                Vector::new(r(p.x), r(p.y), r(p.z))
            }

            pub(super) fn pose(p: &Pose) -> P {
                let q = match p.matrix {
                    Some(m) => glam::DQuat::from_mat3(&m),
                    None => p.rotation,
                };
                P::from_parts(
                    v(p.translation),
                    Rotation::from_xyzw(r(q.x), r(q.y), r(q.z), r(q.w)),
                )
            }

            /// A convex shape as parry's kind (`None`: parry has none).
            pub(super) fn convex(shape: &Shape, border: f64) -> Option<SharedShape> {
                let b = r(border);
                Some(match shape {
                    Shape::Dilated(d) if border == 0.0 => return convex(d.inner(), d.radius()),
                    Shape::Point(_) => SharedShape::ball(b),
                    Shape::Sphere(s) => SharedShape::ball(r(s.radius() + border)),
                    Shape::Capsule(c) => {
                        SharedShape::capsule_y(r(c.half_height()), r(c.radius() + border))
                    }
                    Shape::Cuboid(c) => {
                        let h = c.half_extents();
                        if border > 0.0 {
                            SharedShape::round_cuboid(r(h.x), r(h.y), r(h.z), b)
                        } else {
                            SharedShape::cuboid(r(h.x), r(h.y), r(h.z))
                        }
                    }
                    Shape::Cylinder(c) if border > 0.0 => {
                        SharedShape::round_cylinder(r(c.half_height()), r(c.radius()), b)
                    }
                    Shape::Cylinder(c) => SharedShape::cylinder(r(c.half_height()), r(c.radius())),
                    Shape::Cone(c) if border > 0.0 => {
                        SharedShape::round_cone(r(c.half_height()), r(c.radius()), b)
                    }
                    Shape::Cone(c) => SharedShape::cone(r(c.half_height()), r(c.radius())),
                    Shape::Polytope(p) => {
                        let pts: Vec<Vector> = p.vertices().iter().map(|x| v(*x)).collect();
                        match (pts.len(), p.dimension()) {
                            (1, _) => return None,
                            (2, _) => SharedShape::capsule(pts[0], pts[1], b),
                            (3, _) if border > 0.0 => {
                                SharedShape::round_triangle(pts[0], pts[1], pts[2], b)
                            }
                            (3, _) => SharedShape::triangle(pts[0], pts[1], pts[2]),
                            (_, AffineDimension::Solid) if border > 0.0 => {
                                SharedShape::round_convex_hull(&pts, b)?
                            }
                            (_, AffineDimension::Solid) => SharedShape::convex_hull(&pts)?,
                            _ => return None,
                        }
                    }
                    _ => return None,
                })
            }

            /// A body as parry builds it; `Err` names what parry has no shape for.
            pub(super) fn body_shape(body: &Body) -> Result<SharedShape, String> {
                let Some(composite) = &body.composite else {
                    return convex(&body.shape, 0.0)
                        .ok_or_else(|| format!("parry has no {}", body.shape.kind_name()));
                };
                match (composite.kind(), &body.spec) {
                    (
                        CompositeKind::HeightField(_),
                        ShapeSpec::HeightField {
                            heights,
                            scale,
                            cells,
                        },
                    ) => {
                        let (n, m) = (heights.len(), heights[0].len());
                        let grid = $parry::utils::Array2::from_fn(n, m, |i, j| r(heights[i][j]));
                        let mut field = HeightField::new(
                            grid,
                            Vector::new(r(scale[0]), r(scale[1]), r(scale[2])),
                        );
                        if !cells.is_empty() {
                            for i in 0..n - 1 {
                                for j in 0..m - 1 {
                                    field.cells_statuses_mut()[(i, j)] =
                                        HeightFieldCellStatus::from_bits_truncate(
                                            cells[i * (m - 1) + j],
                                        );
                                }
                            }
                        }
                        Ok(SharedShape::new(field))
                    }
                    (CompositeKind::Compound, _) => {
                        let Pieces::Parts(parts) = composite.pieces() else {
                            return Err("a compound without parts".into());
                        };
                        let mut shapes = Vec::with_capacity(parts.len());
                        for (k, part) in parts.iter().enumerate() {
                            let shape = convex(&part.shape, 0.0).ok_or_else(|| {
                                format!("part {k}: parry has no {}", part.shape.kind_name())
                            })?;
                            let at = Pose::from_matrix(part.pose.translation, part.pose.rotation);
                            shapes.push((pose(&at), shape));
                        }
                        Ok(SharedShape::new(Compound::new(shapes)))
                    }
                    _ => {
                        let mesh = composite.mesh().ok_or("a mesh without triangles")?;
                        let flags = match &body.spec {
                            ShapeSpec::TriMesh { flags, .. } => *flags,
                            _ => 0,
                        };
                        let vertices = mesh.vertices().iter().map(|p| v(*p)).collect();
                        let built = TriMesh::with_flags(
                            vertices,
                            mesh.triangles().to_vec(),
                            TriMeshFlags::from_bits_truncate(flags),
                        )
                        .map_err(|e| format!("parry refuses the mesh: {e}"))?;
                        Ok(SharedShape::new(built))
                    }
                }
            }

            /// parry's signed distance between the bodies, and the query that gave it.
            pub(super) fn signed_distance(a: &Body, b: &Body) -> Result<(f64, String), String> {
                let (sa, sb) = (body_shape(a)?, body_shape(b)?);
                let (pa, pb) = (pose(&a.pose), pose(&b.pose));
                let field = sa.as_heightfield().is_some() || sb.as_heightfield().is_some();
                if !field {
                    if let Ok(d) = $parry::query::distance(&pa, &*sa, &pb, &*sb).map(|d| d.distance)
                    {
                        if d > 0.0 {
                            return Ok((f64::from(d), "query::distance".into()));
                        }
                    }
                }
                // A height field answers `contact` only (and an overlap its depth): within a
                // prediction as wide as the pair, its nearest contact's signed distance.
                let reach = a.shape.extent()
                    + b.shape.extent()
                    + (b.pose.translation - a.pose.translation).length();
                let prediction = if field { r(reach) } else { 0.0 };
                match $parry::query::contact(&pa, &*sa, &pb, &*sb, prediction) {
                    Ok(Some(c)) => Ok((
                        f64::from(c.dist),
                        format!(
                            "query::contact{}",
                            if field {
                                " (prediction as wide as the pair)"
                            } else {
                                ""
                            }
                        ),
                    )),
                    Ok(None) if !field => {
                        Ok((0.0, "query::distance 0, query::contact none".into()))
                    }
                    Ok(None) => Err("query::contact found nothing within the pair's size".into()),
                    Err(_) => Err("parry does not support this pair (Unsupported)".into()),
                }
            }
        }
    };
}

parry_engine!(engine_f64, parry3d_f64, f64);
parry_engine!(engine_f32, parry3d, f32);

/// parry3d-f64's own shape of a scene body (a composite as the engine builds it), for
/// tests and exports that run parry on it.
pub fn parry_f64_shape(body: &Body) -> Result<parry3d_f64::shape::SharedShape, String> {
    engine_f64::body_shape(body)
}

/// parry3d (f32)'s own shape of a scene body, every number rounded to f32.
pub fn parry_f32_shape(body: &Body) -> Result<parry3d::shape::SharedShape, String> {
    engine_f32::body_shape(body)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::minkowski::MinkowskiDifference;
    use crate::shape::{Cuboid, Sphere};
    use crate::solver::{solve, Algorithm};

    fn pair(b_at: DVec3) -> (Shape, Shape, RelativePose) {
        let a = Shape::Sphere(Sphere::new(0.5).unwrap());
        let b = Shape::Cuboid(Cuboid::new(DVec3::splat(0.5)).unwrap());
        let rel = RelativePose::between(
            &crate::pose::Pose::IDENTITY,
            &crate::pose::Pose::from_translation(b_at),
        );
        (a, b, rel)
    }

    #[test]
    fn parry_agrees_on_a_plain_pair_and_a_wrong_answer_is_named() {
        let (a, b, rel) = pair(DVec3::new(2.0, 0.3, 0.0));
        let settings = SolverSettings::default();
        let run = solve(
            Algorithm::GJK,
            MinkowskiDifference::new(&a, &b, rel),
            settings,
        );
        let parry = parry_answer(&a, &b, &rel, None);
        assert!((parry.distance - 1.0).abs() < 1e-9, "{parry:?}");
        assert!(compare(&run, &settings, &parry).agrees());
        // A parry answer off by 1e-3 is a disagreement, one of 0.0 a missed separation.
        let off = ParryAnswer {
            distance: parry.distance + 1e-3,
            ..parry.clone()
        };
        assert!(matches!(
            compare(&run, &settings, &off),
            Agreement::Disagree { .. }
        ));
        let zero = ParryAnswer {
            distance: 0.0,
            ..parry
        };
        assert!(matches!(
            compare(&run, &settings, &zero),
            Agreement::ParryMissedSeparation { .. }
        ));
        // Overlapping: both say contact.
        let (a, b, rel) = pair(DVec3::new(0.8, 0.0, 0.0));
        let run = solve(
            Algorithm::GJK,
            MinkowskiDifference::new(&a, &b, rel),
            settings,
        );
        assert!(compare(&run, &settings, &parry_answer(&a, &b, &rel, None)).agrees());
    }

    #[test]
    fn a_separating_planes_lower_bound_holds_parry_below_it() {
        use crate::solver::QueryMode;
        let (a, b, rel) = pair(DVec3::new(3.0, 0.3, 0.0));
        let settings = SolverSettings {
            mode: QueryMode::Boolean { bound: 0.0 },
            ..SolverSettings::default()
        };
        let run = solve(
            Algorithm::GJK,
            MinkowskiDifference::new(&a, &b, rel),
            settings,
        );
        let Outcome::SeparatedEarlyStop { lower_bound } = run.outcome else {
            panic!("{:?}", run.outcome);
        };
        let parry = parry_answer(&a, &b, &rel, None);
        assert!(compare(&run, &settings, &parry).agrees());
        let below = ParryAnswer {
            distance: lower_bound * 0.5,
            ..parry.clone()
        };
        assert!(matches!(
            compare(&run, &settings, &below),
            Agreement::BelowLowerBound { .. }
        ));
        let zero = ParryAnswer {
            distance: 0.0,
            ..parry
        };
        assert!(matches!(
            compare(&run, &settings, &zero),
            Agreement::ParryMissedSeparation { .. }
        ));
    }

    #[test]
    fn problem_file_answers_are_compared_by_status() {
        let s = SolverSettings::default(); // van den Bergen, absolute: 1e-6
        assert_eq!(
            distance_agrees(Some(1.0), "separated", &s, 1.0 + 5e-7),
            Some(true)
        );
        assert_eq!(
            distance_agrees(Some(1.0), "separated", &s, 1.0 + 5e-6),
            Some(false)
        );
        assert_eq!(
            distance_agrees(Some(1.0), "separated", &s, 0.0),
            Some(false)
        );
        assert_eq!(
            distance_agrees(Some(0.0), "intersecting", &s, 0.0),
            Some(true)
        );
        assert_eq!(distance_agrees(None, "iteration_cap", &s, 0.3), None);
    }
}
