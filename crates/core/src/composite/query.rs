//! Any method on a pair where one body or both are composites: the one entry a scene,
//! the CLI and the Python package call. Each family's question is asked of the
//! sub-pairs the hierarchy keeps and its answers combined into a proof about the whole:
//!
//! - a distance (the GJK family, Frank-Wolfe, the interior point): the nearest sub-pair,
//!   every other run or pruned by its box ([`super::midphase`]);
//! - a penetration (EPA): EPA on every sub-pair whose run found it overlapping, the
//!   deepest named; apart, the distance search's answer;
//! - the time of impact: the method on every sub-pair whose boxes meet over the motion
//!   (B's swept box), the earliest impact named; a pruned piece's box never meets the
//!   swept box, so it cannot touch;
//! - the LP test (a Boolean): the test on every sub-pair whose boxes meet; overlapping
//!   when one sub-pair overlaps, apart when every run and every pruned box proves it.

use glam::DVec3;

use super::contacts::{composite_composite_contacts, composite_contacts, Contact};
use super::midphase::{
    box_gap, bracket, composite_composite_distance_from, composite_convex_distance_from, log_node,
    piece_run, CompositeAnswer, SubPair,
};
use super::pieces::{moved_box, shape_box};
use super::shape::Composite;
use crate::pose::{Motion, RelativePose};
use crate::shape::{Aabb, Shape, SupportMap};
use crate::solver::{Algorithm, Method, Outcome, Run, SolverSettings};

/// One side of a pair: a convex shape or a composite.
#[derive(Clone, Copy, Debug)]
pub enum Side<'a> {
    Convex(&'a Shape),
    Composite(&'a Composite),
}

/// A method's answer on a pair with a composite: the combined answer (its outcome a
/// proof), the sub-pairs run, and the contacts with their internal-edge reports.
#[derive(Clone, Debug)]
pub struct CompositeRun {
    pub method: Method,
    pub answer: CompositeAnswer,
    /// The pieces are B's (only B is a composite): sub-pairs ran in B's frame with B
    /// first, and the answer's normals are turned back into A's frame.
    pub swapped: bool,
    /// The contacts on a mesh within the margin asked for (nearest first), each with the
    /// feature that holds it, its cone, and parry's and Jolt's view (composite–convex
    /// pairs).
    pub contacts: Vec<Contact>,
}

impl CompositeRun {
    /// The sub-pair that makes the answer.
    pub fn nearest(&self) -> Option<&SubPair> {
        self.answer.nearest.map(|i| &self.answer.sub_pairs[i])
    }

    /// The sub-pairs, the answer's first, then by their upper bound (the distance, the
    /// time of impact, minus the depth), as the viewer and `solve` list them.
    pub fn ranked(&self) -> Vec<usize> {
        let mut order: Vec<usize> = (0..self.answer.sub_pairs.len()).collect();
        let key = |i: usize| rank_key(&self.answer.sub_pairs[i].run.summary.outcome);
        order.sort_by(|&x, &y| {
            let first = |i| Some(i) != self.answer.nearest;
            first(x)
                .cmp(&first(y))
                .then(key(x).total_cmp(&key(y)))
                .then(x.cmp(&y))
        });
        order
    }
}

/// How near a sub-pair's run came: minus its depth, its distance, its time of impact.
pub fn rank_key(outcome: &Outcome) -> f64 {
    match *outcome {
        Outcome::Penetrating { depth, .. } => -depth,
        Outcome::Impact { time, .. } | Outcome::Grazing { time, .. } => time,
        Outcome::NoImpact { closest_distance } => 1.0 + closest_distance,
        ref other => bracket(other).1,
    }
}

/// What each sub-pair is asked: the method, its settings, whether records are kept.
#[derive(Clone, Copy)]
pub(super) struct Ask {
    pub(super) method: Method,
    pub(super) settings: SolverSettings,
    pub(super) traced: bool,
}

impl Ask {
    pub(super) fn new(method: Method, settings: SolverSettings, traced: bool) -> Self {
        Self {
            method,
            settings,
            traced,
        }
    }
}

/// Runs `method` on A (at the identity) and B (at `b_in_a`, moving by `motion` when it
/// moves), one of them or both composites; contacts within `contact_margin` are
/// gathered with their internal-edge reports when it is given (composite–convex).
#[allow(clippy::too_many_arguments)] // the pair, its motion, and what to ask: as `Method::run` plus the margin
pub fn run_composite(
    a: Side<'_>,
    b: Side<'_>,
    b_in_a: RelativePose,
    motion: Option<Motion>,
    method: Method,
    settings: SolverSettings,
    traced: bool,
    contact_margin: Option<f64>,
) -> CompositeRun {
    if let Some(outcome) = crate::solver::offset_beyond_cap(&b_in_a, motion) {
        let mut run = not_applicable(method, false, String::new());
        run.answer.outcome = outcome;
        return run;
    }
    // The composite goes first: with only B composite, the pair is asked in B's frame.
    let (first, second, pose, swapped) = match (a, b) {
        (Side::Convex(_), Side::Composite(_)) => (b, a, b_in_a.inverse(), true),
        _ => (a, b, b_in_a, false),
    };
    let motion = match (motion, swapped) {
        (Some(m), true) => {
            if m.spin != DVec3::ZERO {
                return not_applicable(
                    method,
                    swapped,
                    "B turns about its own origin and only B is a composite: give the \
                     turn to the convex body, or make A the composite"
                        .into(),
                );
            }
            // A moves by −v in B's frame.
            Some(Motion::from(-(b_in_a.inverse_rotate(m.velocity))))
        }
        (m, _) => m,
    };
    let Side::Composite(composite) = first else {
        return not_applicable(method, false, "neither body is a composite".into());
    };
    let family = method.family();
    let mut answer = if family == crate::solver::toi::FAMILY {
        match motion {
            Some(motion) => {
                time_of_impact(composite, second, pose, motion, method, settings, traced)
            }
            None => {
                return not_applicable(
                    method,
                    swapped,
                    "nothing moves: the time of impact needs a velocity or a spin".into(),
                )
            }
        }
    } else if family == crate::solver::epa::FAMILY {
        penetration(composite, second, pose, method, settings, traced)
    } else if family == crate::solver::contact::kind::FAMILY {
        manifolds(composite, second, pose, method, settings, traced)
    } else if family == crate::solver::lp::FAMILY {
        boolean(composite, second, pose, method, settings, traced)
    } else {
        distance(composite, second, pose, method, settings, traced)
    };
    if swapped {
        answer.outcome = turned_back(answer.outcome, &b_in_a);
    }
    let contacts = match (contact_margin, second) {
        (Some(margin), Side::Convex(shape)) => composite_contacts(
            composite.tree(),
            shape,
            pose,
            margin,
            Method::of(Algorithm::GJK),
            settings,
            false,
        ),
        (Some(margin), Side::Composite(other)) => composite_composite_contacts(
            composite.tree(),
            other.tree(),
            pose,
            margin,
            Method::of(Algorithm::GJK),
            settings,
            false,
        ),
        _ => Vec::new(),
    };
    CompositeRun {
        method,
        answer,
        swapped,
        contacts,
    }
}

fn not_applicable(method: Method, swapped: bool, why: String) -> CompositeRun {
    let run = Run::not_applicable(method, why.clone());
    CompositeRun {
        method,
        answer: CompositeAnswer {
            outcome: run.summary.outcome,
            lower: 0.0,
            upper: f64::INFINITY,
            sub_pairs: Vec::new(),
            nearest: None,
            nodes_visited: 0,
            nodes_pruned: 0,
            hull_floor: None,
        },
        swapped,
        contacts: Vec::new(),
    }
}

/// An outcome of the swapped pair (the composite B first, in B's frame) as A's: its
/// normals point from A towards B in A's frame.
fn turned_back(outcome: Outcome, b_in_a: &RelativePose) -> Outcome {
    let back = |n: DVec3| -(b_in_a.rotation * n);
    match outcome {
        Outcome::Penetrating { depth, normal } => Outcome::Penetrating {
            depth,
            normal: back(normal),
        },
        Outcome::Touching { normal } => Outcome::Touching {
            normal: back(normal),
        },
        Outcome::Impact { time, normal } => Outcome::Impact {
            time,
            normal: back(normal),
        },
        other => other,
    }
}

fn distance(
    composite: &Composite,
    second: Side<'_>,
    pose: RelativePose,
    method: Method,
    settings: SolverSettings,
    traced: bool,
) -> CompositeAnswer {
    let start = super::hull_start::hull_start(composite, second, pose, settings);
    match second {
        Side::Convex(shape) => composite_convex_distance_from(
            composite.tree(),
            shape,
            pose,
            method,
            settings,
            traced,
            start,
        ),
        Side::Composite(other) => composite_composite_distance_from(
            composite.tree(),
            other.tree(),
            pose,
            method,
            settings,
            traced,
            start,
        ),
    }
}

/// The candidate sub-pairs whose boxes come within `margin` of each other (in the first
/// composite's frame), B's box swept over `motion` when it moves.
fn candidates(
    composite: &Composite,
    second: Side<'_>,
    pose: RelativePose,
    motion: Option<Motion>,
    margin: f64,
) -> (Vec<(u32, Option<u32>)>, usize) {
    let visited = std::cell::Cell::new(0usize);
    // `x` is a node of hierarchy `tree` (in its frame, as recorded), `moved` that box
    // where it is compared with `y`.
    let near = |tree: u8, x: &Aabb, moved: &Aabb, y: &Aabb| {
        visited.set(visited.get() + 1);
        let near = box_gap(moved, y) <= margin;
        log_node(x, !near, tree);
        near
    };
    match second {
        Side::Convex(shape) => {
            let swept = swept_shape_box(shape, pose, motion);
            let leaves = composite
                .tree()
                .tree()
                .leaves_where(|node| near(0, &node, &node, &swept));
            (
                leaves.into_iter().map(|i| (i, None)).collect(),
                visited.get(),
            )
        }
        Side::Composite(other) => {
            let whole_box = other.tree().whole_box();
            let whole = swept_box(&whole_box, extent_of(&whole_box), pose, motion);
            let firsts = composite
                .tree()
                .tree()
                .leaves_where(|node| near(0, &node, &node, &whole));
            let mut pairs = Vec::new();
            let a_in_b = pose.inverse();
            for i in firsts {
                let piece_box = composite.pieces().piece_box(i as usize);
                let seconds = match motion {
                    // At rest A's piece's box is moved into B's frame once, not each of
                    // B's boxes into A's.
                    None => {
                        let piece_in_b = moved_box(&piece_box, &a_in_b);
                        other
                            .tree()
                            .tree()
                            .leaves_where(|node| near(1, &node, &node, &piece_in_b))
                    }
                    Some(_) => other.tree().tree().leaves_where(|node| {
                        near(
                            1,
                            &node,
                            &swept_box(&node, extent_of(&node), pose, motion),
                            &piece_box,
                        )
                    }),
                };
                pairs.extend(seconds.into_iter().map(|j| (i, Some(j))));
            }
            (pairs, visited.get())
        }
    }
}

/// The furthest a point of `b` lies from its frame's origin, bounded by its corners.
fn extent_of(b: &Aabb) -> f64 {
    b.min.abs().max(b.max.abs()).length()
}

/// The convex `shape`'s box at `pose`, swept over `motion` as [`swept_box`] sweeps one.
fn swept_shape_box(shape: &Shape, pose: RelativePose, motion: Option<Motion>) -> Aabb {
    swept(pose, motion, shape.extent(), |p| shape_box(shape, p))
}

/// A box (in B's frame) placed at `pose` and swept over `motion`.
fn swept_box(b: &Aabb, extent: f64, pose: RelativePose, motion: Option<Motion>) -> Aabb {
    swept(pose, motion, extent, |p| moved_box(b, p))
}

/// The box `box_at` gives at `pose`, swept over `motion`: its boxes at t = 0 and t = 1,
/// joined, widened by how far a turn of `|spin|` moves a point within `extent` of B's
/// origin off the chord (at most `|spin| · extent`).
fn swept(
    pose: RelativePose,
    motion: Option<Motion>,
    extent: f64,
    box_at: impl Fn(&RelativePose) -> Aabb,
) -> Aabb {
    let start = box_at(&pose);
    let Some(motion) = motion else {
        return start;
    };
    let end = box_at(&motion.pose_at(pose, 1.0));
    Aabb {
        min: start.min.min(end.min),
        max: start.max.max(end.max),
    }
    .widened(motion.spin.length() * extent)
}

/// Runs `method` on candidate `(i, j)`: piece `i` of the composite against the second
/// side (its piece `j` when it is a composite), in piece `i`'s frame.
fn run_candidate(
    composite: &Composite,
    second: Side<'_>,
    (i, j): (u32, Option<u32>),
    pose: RelativePose,
    motion: Option<Motion>,
    ask: Ask,
) -> Option<Run> {
    let Ask {
        method,
        settings,
        traced,
    } = ask;
    let tree = composite.tree();
    match (second, j) {
        (Side::Convex(shape), _) if motion.is_none() => piece_run(
            tree.piece(i as usize),
            shape,
            pose,
            method,
            settings,
            traced,
        ),
        _ => {
            let (piece, piece_pose) = tree.piece(i as usize)?;
            let (other, other_pose) = match (second, j) {
                (Side::Composite(c), Some(j)) => {
                    let (shape, p) = c.tree().piece(j as usize)?;
                    (shape, p)
                }
                (Side::Convex(shape), _) => (std::borrow::Cow::Borrowed(shape), None),
                _ => return None,
            };
            let mut b_in_piece = pose;
            if let Some(p) = other_pose {
                b_in_piece = b_in_piece.then(&p);
            }
            let mut motion = motion;
            if let Some(p) = piece_pose {
                let inverse = p.inverse();
                b_in_piece = inverse.then(&b_in_piece);
                motion = motion.map(|m| Motion {
                    velocity: inverse.rotation * m.velocity,
                    spin: inverse.rotation * m.spin,
                });
            }
            if other_pose.is_some_and(|p| p.translation != DVec3::ZERO)
                && motion.is_some_and(|m| m.spin != DVec3::ZERO)
            {
                // A part off B's origin turns about B's origin, not its own.
                return Some(Run::not_applicable(
                    method,
                    "a compound B's parts turn about B's origin, not their own: the \
                     time of impact of a turning compound part is not asked"
                        .into(),
                ));
            }
            if motion.is_none() && !traced {
                return Some(method.run_untraced(&piece, &other, b_in_piece, settings));
            }
            Some(method.run(&piece, &other, b_in_piece, motion, settings, traced))
        }
    }
}

/// Runs every candidate, gathering the sub-pairs; the pieces no candidate names were
/// pruned by their boxes.
fn run_candidates(
    composite: &Composite,
    second: Side<'_>,
    pose: RelativePose,
    motion: Option<Motion>,
    margin: f64,
    ask: Ask,
) -> (Vec<SubPair>, usize) {
    let (pairs, visited) = candidates(composite, second, pose, motion, margin);
    let runs = pairs
        .into_iter()
        .filter_map(|(i, j)| {
            let run = run_candidate(composite, second, (i, j), pose, motion, ask)?;
            Some(SubPair {
                piece: i,
                other: j,
                run,
            })
        })
        .collect();
    (runs, visited)
}

/// [`run_candidates`] at rest and without a margin: every sub-pair whose boxes meet.
fn run_meeting(
    composite: &Composite,
    second: Side<'_>,
    pose: RelativePose,
    method: Method,
    settings: SolverSettings,
    traced: bool,
) -> (Vec<SubPair>, usize) {
    let ask = Ask::new(method, settings, traced);
    run_candidates(composite, second, pose, None, 0.0, ask)
}

/// The contact family on a composite pair: each sub-pair whose boxes come within the
/// contact margin gets its own manifold (engines build one per pair of sub-shapes:
/// Jolt's, Coal's and parry's composite contacts), the deepest makes the answer and is
/// the one in focus. Apart by more than the margin, the distance search's answer stands.
fn manifolds(
    composite: &Composite,
    second: Side<'_>,
    pose: RelativePose,
    method: Method,
    settings: SolverSettings,
    traced: bool,
) -> CompositeAnswer {
    use crate::solver::contact::{certified_depth, ContactExtras};
    let apart = distance(
        composite,
        second,
        pose,
        Method::of(Algorithm::GJK),
        settings,
        false,
    );
    let margin = settings.contact.margin;
    if apart.lower > margin {
        return apart;
    }
    let ask = Ask::new(method, settings, traced);
    let (all, visited) = run_candidates(composite, second, pose, None, margin, ask);
    let tried = all.len();
    let depth_of = |sub: &SubPair| {
        sub.run
            .extras
            .get::<ContactExtras>()
            .and_then(|e| e.manifold.as_ref())
            .map(|m| certified_depth(&m.outcome).unwrap_or(0.0))
    };
    let runs: Vec<SubPair> = all.into_iter().filter(|s| depth_of(s).is_some()).collect();
    let deepest = (0..runs.len()).max_by(|x, y| {
        depth_of(&runs[*x])
            .unwrap_or(f64::NEG_INFINITY)
            .total_cmp(&depth_of(&runs[*y]).unwrap_or(f64::NEG_INFINITY))
    });
    let outcome = deepest.map_or(apart.outcome.clone(), |k| {
        runs[k].run.summary.outcome.clone()
    });
    CompositeAnswer {
        outcome,
        lower: apart.lower,
        upper: apart.upper,
        nodes_pruned: tried - runs.len(),
        sub_pairs: runs,
        nearest: deepest,
        nodes_visited: visited,
        hull_floor: None,
    }
}

/// EPA on each sub-pair the distance search found overlapping: the deepest makes the
/// answer. Apart, the distance search's answer stands (its runs are GJK's).
fn penetration(
    composite: &Composite,
    second: Side<'_>,
    pose: RelativePose,
    method: Method,
    settings: SolverSettings,
    traced: bool,
) -> CompositeAnswer {
    let apart = distance(
        composite,
        second,
        pose,
        Method::of(Algorithm::GJK),
        settings,
        false,
    );
    if apart.upper > 0.0 {
        return apart;
    }
    // Only sub-pairs that may overlap can be the deepest: those a closed form proves
    // apart (two triangles, or a triangle's plane with the shape on one side) are not
    // run. The overlapping sub-pair the search found runs first; after it, a sub-pair
    // whose overlap along the deepest run's normal is no more than that depth (its own
    // depth can be no more: moving B that far along the normal parts them) is not run.
    let (mut pairs, visited) = candidates(composite, second, pose, None, 0.0);
    if let Some(found) = apart
        .nearest
        .map(|k| (apart.sub_pairs[k].piece, apart.sub_pairs[k].other))
    {
        if let Some(k) = pairs.iter().position(|p| *p == found) {
            pairs[..=k].rotate_right(1);
        }
    }
    let ask = Ask::new(method, settings, traced);
    let mut runs: Vec<SubPair> = Vec::new();
    let mut deepest: Option<(usize, f64, DVec3)> = None;
    let mut pruned = 0;
    for (i, j) in pairs {
        if let Some((_, depth, normal)) = deepest {
            let tie = 1e-3 * settings.tolerance * depth.max(1.0);
            // Along the deepest normal, and along the triangles' own normals, both ways
            // (a sub-pair's depth is its least overlap over every direction).
            let faces = [
                composite.mesh().and_then(|m| m.normal(i as usize)),
                match (second, j) {
                    (Side::Composite(other), Some(j)) => other
                        .mesh()
                        .and_then(|m| m.normal(j as usize))
                        .map(|n| pose.rotation * n),
                    _ => None,
                },
            ];
            let triangles = match (composite.mesh(), second, j) {
                (Some(mesh), Side::Composite(other), Some(j)) => other.mesh().map(|other| {
                    (
                        mesh.corners(i as usize),
                        other.corners(j as usize).map(|c| pose.transform_point(c)),
                    )
                }),
                _ => None,
            };
            let shallow = std::iter::once(normal)
                .chain(faces.into_iter().flatten())
                .flat_map(|n| [n, -n])
                .any(|n| {
                    let overlap = match triangles {
                        Some((a, b)) => Some(triangles_overlap_along(&a, &b, n, &pose)),
                        None => overlap_along(composite, second, &pose, (i, j), n),
                    };
                    overlap.is_some_and(|overlap| overlap <= depth + tie)
                });
            if shallow {
                pruned += 1;
                continue;
            }
        }
        if proved_apart(composite, second, &pose, i, j) {
            pruned += 1;
            continue;
        }
        let Some(run) = run_candidate(composite, second, (i, j), pose, None, ask) else {
            continue;
        };
        let measured = match run.summary.outcome {
            Outcome::Penetrating { depth, normal } => Some((depth, normal)),
            Outcome::Touching { normal } => Some((0.0, normal)),
            _ => None,
        };
        if let Some((depth, normal)) = measured {
            if deepest.is_none_or(|(_, d, _)| depth > d) {
                let turn = composite.tree().piece(i as usize).and_then(|(_, p)| p);
                let normal = turn.map_or(normal, |p| p.rotation * normal);
                deepest = Some((runs.len(), depth, normal));
            }
        }
        runs.push(SubPair {
            piece: i,
            other: j,
            run,
        });
    }
    let deepest = deepest.map(|(k, _, _)| k);
    let outcome = match deepest {
        Some(k) => runs[k].run.summary.outcome.clone(),
        // The search proved an overlap that no EPA run could measure: say so.
        None => Outcome::Degenerate {
            reason: "the distance search found an overlapping sub-pair, but EPA measured \
                     no depth on any candidate"
                .into(),
        },
    };
    CompositeAnswer {
        outcome,
        lower: 0.0,
        upper: 0.0,
        sub_pairs: runs,
        nearest: deepest,
        nodes_visited: visited,
        nodes_pruned: pruned,
        hull_floor: None,
    }
}

/// [`overlap_along`] for two triangles, their corners in the composite's frame (B's
/// moved by `pose`, whose round-off the bound includes).
fn triangles_overlap_along(a: &[DVec3; 3], b: &[DVec3; 3], n: DVec3, pose: &RelativePose) -> f64 {
    let top = a
        .iter()
        .map(|x| n.dot(*x))
        .fold(f64::NEG_INFINITY, f64::max);
    let low = b.iter().map(|x| n.dot(*x)).fold(f64::INFINITY, f64::min);
    let size = super::triangle_pair::size_of(a, b).max(pose.translation.length());
    top - low + 4.0 * crate::minkowski::ROUND_OFF_PER_SIZE * size
}

/// How far sub-pair `(i, j)` overlaps along `n` (in the composite's frame): the most
/// piece `i` reaches along it less the least the other side does, rounded up. B moved
/// that far along `n` clears A, so no sub-pair is deeper than its overlap along any `n`.
fn overlap_along(
    composite: &Composite,
    second: Side<'_>,
    pose: &RelativePose,
    (i, j): (u32, Option<u32>),
    n: DVec3,
) -> Option<f64> {
    let reach = |shape: &Shape, at: &RelativePose, along: DVec3| {
        along.dot(at.transform_point(shape.local_support(at.inverse_rotate(along))))
    };
    let identity = RelativePose::from_matrix(glam::DMat3::IDENTITY, DVec3::ZERO);
    let (piece, piece_pose) = composite.tree().piece(i as usize)?;
    let piece_pose = piece_pose.unwrap_or(identity);
    let top = reach(&piece, &piece_pose, n);
    let (low, size) = match (second, j) {
        (Side::Composite(other), Some(j)) => {
            let (shape, p) = other.tree().piece(j as usize)?;
            let at = p.map_or(*pose, |p| pose.then(&p));
            (
                -reach(&shape, &at, -n),
                shape.extent() + at.translation.length(),
            )
        }
        (Side::Convex(shape), _) => (
            -reach(shape, pose, -n),
            shape.extent() + pose.translation.length(),
        ),
        _ => return None,
    };
    let size = size + piece.extent() + piece_pose.translation.length();
    let overlap = top - low + 4.0 * crate::minkowski::ROUND_OFF_PER_SIZE * size;
    overlap.is_finite().then_some(overlap)
}

/// Whether a closed form proves sub-pair `(i, j)` apart without a run: two triangles
/// ([`triangles_apart`](super::triangle_pair::triangles_apart)), or a triangle's plane
/// with the convex shape wholly on one side.
fn proved_apart(
    composite: &Composite,
    second: Side<'_>,
    pose: &RelativePose,
    i: u32,
    j: Option<u32>,
) -> bool {
    match (second, j) {
        (Side::Composite(other), Some(j)) => {
            super::midphase::mesh_pair_apart(composite.tree(), other.tree(), pose, i, j)
        }
        (Side::Convex(shape), _) => composite
            .pieces()
            .plane_gap(i as usize, shape, pose)
            .is_some_and(|gap| gap > 0.0),
        _ => false,
    }
}

/// The LP test on every sub-pair whose boxes meet: any overlap answers; apart when
/// every run proved it, the least proved gap (and no pruned box nearer) its bound.
fn boolean(
    composite: &Composite,
    second: Side<'_>,
    pose: RelativePose,
    method: Method,
    settings: SolverSettings,
    traced: bool,
) -> CompositeAnswer {
    let (runs, visited) = run_meeting(composite, second, pose, method, settings, traced);
    let overlap = runs.iter().position(|s| {
        matches!(
            s.run.summary.outcome,
            Outcome::Intersecting | Outcome::Penetrating { .. } | Outcome::Touching { .. }
        )
    });
    let gap_of = |o: &Outcome| match *o {
        Outcome::SeparatingPlane { gap, .. } => Some(gap),
        Outcome::SeparatedEarlyStop { lower_bound } => Some(lower_bound),
        Outcome::Separated { lower_bound, .. } => Some(lower_bound),
        _ => None,
    };
    let (outcome, nearest) = if let Some(k) = overlap {
        (runs[k].run.summary.outcome.clone(), Some(k))
    } else if let Some(k) = runs
        .iter()
        .position(|s| gap_of(&s.run.summary.outcome).is_none())
    {
        (runs[k].run.summary.outcome.clone(), Some(k))
    } else {
        let least = runs
            .iter()
            .enumerate()
            .map(|(k, s)| (k, gap_of(&s.run.summary.outcome).unwrap_or(0.0)))
            .min_by(|x, y| x.1.total_cmp(&y.1));
        // Pruned pieces' boxes do not meet: a gap of at least the smallest box gap, which
        // is positive; the proof is the runs' least gap and that.
        let pruned_gap = box_floor(composite, second, pose);
        let lower = least.map_or(pruned_gap, |(_, g)| g.min(pruned_gap));
        (
            Outcome::SeparatedEarlyStop { lower_bound: lower },
            least.map(|(k, _)| k),
        )
    };
    let lower = match outcome {
        Outcome::SeparatedEarlyStop { lower_bound } => lower_bound,
        _ => 0.0,
    };
    CompositeAnswer {
        outcome,
        lower,
        upper: if lower > 0.0 { f64::INFINITY } else { 0.0 },
        sub_pairs: runs,
        nearest,
        nodes_visited: visited,
        nodes_pruned: 0,
        hull_floor: None,
    }
}

/// A lower bound of the distance from any piece to the second side from boxes alone
/// (positive when no box meets): the least leaf-box gap.
fn box_floor(composite: &Composite, second: Side<'_>, pose: RelativePose) -> f64 {
    let other = match second {
        Side::Convex(shape) => shape_box(shape, &pose),
        Side::Composite(c) => moved_box(&c.tree().whole_box(), &pose),
    };
    composite
        .tree()
        .tree()
        .nearest_leaf(
            |node, _| box_gap(&node, &other),
            |i, _| Some(box_gap(&composite.pieces().piece_box(i as usize), &other)),
        )
        .map_or(0.0, |(_, gap)| gap)
}

/// The time-of-impact rule on every sub-pair whose boxes meet over the motion: the
/// earliest event (an impact, a graze, a run that could not answer) is the answer; a
/// piece whose box never meets B's swept box cannot touch it.
fn time_of_impact(
    composite: &Composite,
    second: Side<'_>,
    pose: RelativePose,
    motion: Motion,
    method: Method,
    settings: SolverSettings,
    traced: bool,
) -> CompositeAnswer {
    let (runs, visited) = run_candidates(
        composite,
        second,
        pose,
        Some(motion),
        0.0,
        Ask::new(method, settings, traced),
    );
    // When each run's event happens; a run with no answer counts from t = 0 (it
    // cannot rule out an impact at any time).
    let event_time = |o: &Outcome| match *o {
        Outcome::Impact { time, .. } | Outcome::Grazing { time, .. } => Some(time),
        Outcome::NoImpact { .. } => None,
        _ => Some(0.0),
    };
    let earliest = runs
        .iter()
        .enumerate()
        .filter_map(|(k, s)| event_time(&s.run.summary.outcome).map(|t| (k, t)))
        .min_by(|x, y| x.1.total_cmp(&y.1).then(x.0.cmp(&y.0)))
        .map(|(k, _)| k);
    let (outcome, nearest) = match earliest {
        Some(k) => (runs[k].run.summary.outcome.clone(), Some(k)),
        None => {
            let closest = runs
                .iter()
                .enumerate()
                .filter_map(|(k, s)| match s.run.summary.outcome {
                    Outcome::NoImpact { closest_distance } => Some((k, closest_distance)),
                    _ => None,
                })
                .min_by(|x, y| x.1.total_cmp(&y.1));
            match closest {
                Some((k, d)) => (
                    Outcome::NoImpact {
                        closest_distance: d,
                    },
                    Some(k),
                ),
                // No piece's box meets the swept box: the least box gap bounds the
                // closest approach from below.
                None => (
                    Outcome::NoImpact {
                        closest_distance: swept_floor(composite, second, pose, motion),
                    },
                    None,
                ),
            }
        }
    };
    CompositeAnswer {
        outcome,
        lower: 0.0,
        upper: f64::INFINITY,
        sub_pairs: runs,
        nearest,
        nodes_visited: visited,
        nodes_pruned: 0,
        hull_floor: None,
    }
}

/// The least gap between a piece's box and the second side's swept box.
fn swept_floor(composite: &Composite, second: Side<'_>, pose: RelativePose, motion: Motion) -> f64 {
    let swept = match second {
        Side::Convex(shape) => swept_shape_box(shape, pose, Some(motion)),
        Side::Composite(c) => {
            let whole = c.tree().whole_box();
            swept_box(&whole, extent_of(&whole), pose, Some(motion))
        }
    };
    composite
        .tree()
        .tree()
        .nearest_leaf(
            |node, _| box_gap(&node, &swept),
            |i, _| Some(box_gap(&composite.pieces().piece_box(i as usize), &swept)),
        )
        .map_or(0.0, |(_, gap)| gap)
}
