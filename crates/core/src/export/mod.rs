//! Reproductions sent back out: a scene's pair as a standalone Coal script (Python) and
//! a standalone `#[test]` for parry3d-f64, each holding the shapes and poses to the bit,
//! the answer Collidescope certifies (a signed-distance bracket) and a check that fails
//! while the engine's answer lies outside that bracket widened by the engine's own
//! stopping guarantee, and passes once the engine is fixed. What maintainers ask for:
//! "a reproducing example in Python" (Coal), a failing test (parry).

mod coal;
mod parry;
mod text;
pub mod web;

pub use coal::coal_script;
pub use parry::parry_test;

use crate::pose::Pose;
use crate::printed_bound::{Above, Below, Outward};
use crate::scene::{Body, Scene, ShapeSpec};
use crate::solver::{Method, Outcome};

/// The certified signed distance of the scene's pair: `[lower, upper]` (negative: an
/// overlap of that depth), and how it was proved.
#[derive(Clone, Debug, PartialEq)]
pub struct Certified {
    pub lower: f64,
    pub upper: f64,
    pub proof: String,
}

impl Certified {
    /// The middle of the bracket, what the scripts print as "Collidescope".
    pub fn value(&self) -> f64 {
        0.5 * (self.lower + self.upper)
    }
}

/// Runs EPA (GJK first, to 1e-9 relative, then the expansion) on the focused pair and
/// turns its outcome into a bracket. Outcomes that prove nothing (`contact`, a cap)
/// are refused: there is no certified answer to send; so is a bracket that is not finite
/// (the scripts hold its bounds as float literals).
pub fn certify(scene: &Scene) -> Result<Certified, String> {
    let certified = bracket(scene)?;
    if !(certified.lower.is_finite() && certified.upper.is_finite()) {
        return Err(format!(
            "no certified answer to export: the bracket {} is not finite",
            Outward(certified.lower, certified.upper)
        ));
    }
    Ok(certified)
}

fn bracket(scene: &Scene) -> Result<Certified, String> {
    let epa = "epa".parse::<Method>().map_err(|e| e.to_string())?;
    if let Some(run) = scene.run_composite(epa, scene.settings, true, None) {
        return composite_bracket(scene, &run);
    }
    let run = scene.run(epa);
    match &run.summary.outcome {
        Outcome::Separated {
            distance,
            lower_bound,
        }
        | Outcome::Stalled {
            distance,
            lower_bound,
        } => Ok(Certified {
            lower: *lower_bound,
            upper: *distance,
            proof: format!(
                "separated: a separating plane proves >= {:e}, a point of A - B lies \
                 within {:e}",
                Below(*lower_bound),
                Above(*distance)
            ),
        }),
        Outcome::Penetrating { depth, .. } => {
            // The polytope inside A − B bounds the depth from below (its nearest face),
            // the supports along the faces' normals from above.
            let upper_depth =
                run.trace
                    .get::<crate::solver::epa::EpaTrace>()
                    .map_or(f64::INFINITY, |t| {
                        t.records
                            .iter()
                            .map(|r| r.support_distance)
                            .fold(f64::INFINITY, f64::min)
                    });
            let upper_depth = if upper_depth.is_finite() {
                upper_depth.max(*depth)
            } else {
                *depth
            };
            // The run's depth already allows the round-off of B's pose in A's frame
            // (it is lowered by it); its upper bound must allow it too, both ways.
            let upper_depth = upper_depth + 2.0 * round_off(scene);
            Ok(Certified {
                lower: -upper_depth,
                upper: -depth,
                proof: format!(
                    "penetrating: EPA's polytope inside A - B proves a depth >= {:e}, \
                     its supports <= {:e} (with the round-off of the relative pose)",
                    Below(*depth),
                    Above(upper_depth)
                ),
            })
        }
        Outcome::Touching { .. } => Ok(Certified {
            lower: -2.0 * round_off(scene),
            upper: 2.0 * round_off(scene),
            proof: "touching: the depth is proved zero (the support along the normal \
                    lies on the origin's plane within round-off), up to the round-off of \
                    the relative pose"
                .into(),
        }),
        other => Err(format!(
            "no certified answer to export: EPA ends {other} on this pair"
        )),
    }
}

/// A composite pair's bracket: the midphase's when apart (every sub-pair run or pruned),
/// the deepest sub-pair's EPA bracket when they overlap (the depth an engine's mesh
/// query reports: parry's `contact`, Coal's `BVHModel` distance).
fn composite_bracket(
    scene: &Scene,
    run: &crate::composite::CompositeRun,
) -> Result<Certified, String> {
    let answer = &run.answer;
    let nearest = answer
        .nearest
        .map(|k| scene.sub_pair_name(run, k))
        .unwrap_or_default();
    match &answer.outcome {
        Outcome::Separated { .. } | Outcome::Stalled { .. } => Ok(Certified {
            lower: answer.lower,
            upper: answer.upper,
            proof: format!(
                "separated: every sub-pair run or pruned by its box proves >= {:e}, the \
                 nearest ({nearest}) lies within {:e}",
                Below(answer.lower),
                Above(answer.upper)
            ),
        }),
        Outcome::Penetrating { depth, .. } => {
            let upper_depth = run
                .nearest()
                .and_then(|s| s.run.trace.get::<crate::solver::epa::EpaTrace>())
                .map_or(*depth, |t| {
                    t.records
                        .iter()
                        .map(|r| r.support_distance)
                        .fold(f64::INFINITY, f64::min)
                        .max(*depth)
                });
            let upper_depth = if upper_depth.is_finite() {
                upper_depth
            } else {
                *depth
            };
            let upper_depth = upper_depth + 2.0 * round_off(scene);
            Ok(Certified {
                lower: -upper_depth,
                upper: -depth,
                proof: format!(
                    "penetrating: the deepest sub-pair ({nearest}), EPA's polytope inside its \
                     A - B proves a depth >= {:e}, its supports <= {:e} (with the round-off \
                     of the relative pose)",
                    Below(*depth),
                    Above(upper_depth)
                ),
            })
        }
        Outcome::Touching { .. } => Ok(Certified {
            lower: -2.0 * round_off(scene),
            upper: 2.0 * round_off(scene),
            proof: format!(
                "touching: the deepest sub-pair ({nearest}) has a depth proved zero, up to \
                 the round-off of the relative pose"
            ),
        }),
        other => Err(format!(
            "no certified answer to export: the midphase's EPA ends {other} on this pair"
        )),
    }
}

/// The round-off of B's pose in A's frame and of the shapes' numbers (what a run's
/// outcome already allows on its lower side).
fn round_off(scene: &Scene) -> f64 {
    let [a, b] = pair(scene);
    crate::minkowski::pair_round_off(&a.shape, &b.shape, &scene.b_in_a(), glam::DVec3::ZERO)
}

/// A body's world pose as a row-major rotation and a translation: the exact matrix when
/// the scene gave one, else the quaternion's.
fn rows_of(pose: &Pose) -> ([[f64; 3]; 3], [f64; 3]) {
    let m = pose.rotation_matrix();
    (
        m.transpose().to_cols_array_2d(),
        pose.translation.to_array(),
    )
}

/// A float as Rust and Python both read back to the same bits (shortest round trip).
fn lit(x: f64) -> String {
    format!("{x:?}")
}

/// The focused pair's two bodies.
fn pair(scene: &Scene) -> [&Body; 2] {
    [scene.a(), scene.b()]
}

/// What a body is, for the reproduction's comments.
fn describe(spec: &ShapeSpec) -> String {
    let text = format!("{spec:?}");
    match text.find(['{', '(']) {
        Some(i) => text[..i].trim().to_string(),
        None => text,
    }
}

/// The certified contact region of the scene's pair in the world frame, for the
/// scripts' manifold check: `None` when the scene names no contact method; `Err` with
/// why when its pair has no region (apart by more than the margin, no certified normal).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct WorldRegion {
    pub normal: glam::DVec3,
    pub depth: f64,
    pub top_a: f64,
    pub bottom_b: f64,
    pub band: f64,
    pub tolerance: f64,
    pub margin: f64,
}

pub fn contact_region(scene: &Scene) -> Option<Result<WorldRegion, String>> {
    use crate::solver::contact::{certified_region, ContactRule};
    if !scene
        .methods
        .iter()
        .any(|m| m.entry::<ContactRule>().is_some())
    {
        return None;
    }
    let [a, b] = pair(scene);
    let contact = scene.settings.contact;
    let region = certified_region(
        &a.shape,
        &b.shape,
        scene.b_in_a(),
        scene.settings.epa,
        contact,
    )
    .map_err(|outcome| {
        format!(
            "the pair has no contact region to check ({outcome}; margin {:e})",
            contact.margin
        )
    });
    Some(region.map(|r| {
        let normal = a.pose.transform_vector(r.normal);
        let lift = normal.dot(a.pose.translation);
        WorldRegion {
            normal,
            depth: r.depth,
            top_a: r.top_a + lift,
            bottom_b: r.bottom_b + lift,
            band: r.band,
            tolerance: r.tolerance,
            margin: contact.margin,
        }
    }))
}
