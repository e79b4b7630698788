//! The midphase: the distance between a composite shape (a triangle mesh, a height
//! field's mesh, a compound of convex parts) and a convex shape or another composite,
//! answered as the nearest of its sub-pairs (a piece and the shape, or two pieces), each
//! run through a method of the existing families with all its records, while the
//! composites' bounding-volume hierarchies prune the pieces that cannot be nearer than
//! the best found so far.
//!
//! The answer is a proof as a convex run's is. The distance to a composite (a mesh's
//! surface, as parry's `TriMesh` and Coal's `BVHModel` answer it) is the least distance
//! to any piece; every piece was either run (its run bounds its distance from below) or
//! lies in a pruned node whose box is at least the best upper bound away from the
//! other's box. So the least of the runs' lower bounds and the best upper bound is a
//! lower bound of the whole, and the best run's upper bound an upper bound.

use std::borrow::Cow;
use std::cell::{Cell, RefCell};
use std::sync::atomic::{AtomicUsize, Ordering};

use glam::DVec3;

use super::pieces::{moved_box, shape_box, Pieces};
use super::triangle_pair::{nearest_on_triangle, triangle_gap, triangles_apart};
use crate::minkowski::ROUND_OFF_PER_SIZE;
use crate::parry_bridge::BoxTree;
use crate::pose::RelativePose;
use crate::shape::{Aabb, Shape};
use crate::solver::{Method, Outcome, Run, SolverSettings};

/// A composite's pieces with the hierarchy of their boxes, built once and queried many
/// times.
pub struct CompositeTree {
    pieces: Pieces,
    tree: BoxTree,
    /// The box of every piece, kept: a composite–composite query moves it each time.
    whole_box: Aabb,
    /// A mesh's triangles as shapes, built once (a polytope of three points costs
    /// more to build than a query on it).
    triangles: Vec<Option<Shape>>,
    /// parry's own mesh of the triangles with `FIX_INTERNAL_EDGES` (the pseudo-normals
    /// its correction reads), built the first time a contact asks and kept: building
    /// it walks the whole mesh, which a viewer dragging over a large mesh cannot pay on
    /// every pose.
    parry_fixing: std::sync::OnceLock<Option<parry3d_f64::shape::TriMesh>>,
}

impl CompositeTree {
    pub fn new(pieces: Pieces) -> Self {
        let tree = BoxTree::new((0..pieces.count()).map(|i| pieces.piece_box(i)));
        let whole_box = pieces.whole_box();
        let triangles = match &pieces {
            Pieces::Triangles(_) => (0..pieces.count())
                .map(|i| pieces.piece(i).map(|(shape, _)| shape.into_owned()))
                .collect(),
            Pieces::Parts(_) => Vec::new(),
        };
        Self {
            pieces,
            tree,
            whole_box,
            triangles,
            parry_fixing: std::sync::OnceLock::new(),
        }
    }

    /// parry's mesh of the triangles with `FIX_INTERNAL_EDGES`, built once (`None` for a
    /// compound, or when parry refuses the mesh).
    pub fn parry_fixing_internal_edges(&self) -> Option<&parry3d_f64::shape::TriMesh> {
        self.parry_fixing
            .get_or_init(|| {
                self.pieces
                    .mesh()
                    .and_then(super::internal_edges::parry_mesh_fixing_internal_edges)
            })
            .as_ref()
    }

    /// Piece `i` and its pose, as [`Pieces::piece`] gives it, from the built shapes.
    pub fn piece(&self, i: usize) -> Option<(Cow<'_, Shape>, Option<RelativePose>)> {
        match &self.pieces {
            Pieces::Triangles(_) => Some((Cow::Borrowed(self.triangles.get(i)?.as_ref()?), None)),
            Pieces::Parts(_) => self.pieces.piece(i),
        }
    }

    pub fn pieces(&self) -> &Pieces {
        &self.pieces
    }

    /// The box of every piece ([`Pieces::whole_box`]), computed once.
    pub fn whole_box(&self) -> Aabb {
        self.whole_box
    }

    pub(super) fn tree(&self) -> &BoxTree {
        &self.tree
    }
}

/// One piece of the composite and the convex shape (or a piece of the second
/// composite), run through the query's method in the piece's frame.
#[derive(Clone, Debug)]
pub struct SubPair {
    /// The first composite's piece (a triangle's or a part's index).
    pub piece: u32,
    /// The second composite's piece, in a composite–composite query.
    pub other: Option<u32>,
    pub run: Run,
}

/// A composite query's answer: its outcome (a proof, as every run's), the bracket it
/// rests on, the sub-pairs that were run (in the order they were run) and the nearest of
/// them, and how much of the hierarchies was looked at.
#[derive(Clone, Debug)]
pub struct CompositeAnswer {
    pub outcome: Outcome,
    /// A lower bound of the distance: the least of the runs' lower bounds and of the
    /// pruned nodes' box gaps.
    pub lower: f64,
    /// An upper bound of the distance: the nearest sub-pair's (0 when it overlaps).
    pub upper: f64,
    pub sub_pairs: Vec<SubPair>,
    /// Index into `sub_pairs` of the sub-pair that makes the answer.
    pub nearest: Option<usize>,
    /// Hierarchy nodes whose box was compared with the other's.
    pub nodes_visited: usize,
    /// Of those, the nodes pruned (their box no nearer than the best found).
    pub nodes_pruned: usize,
    /// The lower bound the hulls' separating plane proved before the search (every
    /// vertex checked against it), when the search started from the hulls.
    pub hull_floor: Option<f64>,
}

/// A hierarchy node a query compared with the other side: its box, in the frame of the
/// composite whose hierarchy it belongs to, and whether the query pruned it there (its
/// box no nearer than the best found, or, in a search for candidates, not near enough).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct VisitedNode {
    pub aabb: Aabb,
    pub pruned: bool,
    /// Whose hierarchy: 0 the first composite's (the one the sub-pairs name first), 1
    /// the second's in a pair of two composites.
    pub tree: u8,
}

thread_local! {
    /// The nodes visited while [`recording_nodes`] runs on this thread; `None` (nothing
    /// recorded, one branch per node) otherwise.
    static NODE_LOG: RefCell<Option<Vec<VisitedNode>>> = const { RefCell::new(None) };
}

/// Runs `query`, recording every hierarchy node the composite queries inside it compare
/// with the other side (what the viewer's BVH layer draws). Outside it nothing is
/// recorded.
pub fn recording_nodes<R>(query: impl FnOnce() -> R) -> (R, Vec<VisitedNode>) {
    /// Puts the previous log back even when the query panics.
    struct Restore(Option<Option<Vec<VisitedNode>>>);
    impl Drop for Restore {
        fn drop(&mut self) {
            if let Some(previous) = self.0.take() {
                NODE_LOG.with(|log| *log.borrow_mut() = previous);
                RECORDERS.fetch_sub(1, Ordering::Relaxed);
            }
        }
    }
    let previous = NODE_LOG.with(|log| log.borrow_mut().replace(Vec::new()));
    RECORDERS.fetch_add(1, Ordering::Relaxed);
    let restore = Restore(Some(previous));
    let answer = query();
    let nodes = NODE_LOG
        .with(|log| log.borrow_mut().take())
        .unwrap_or_default();
    drop(restore);
    (answer, nodes)
}

/// How many [`recording_nodes`] calls are running on any thread: with none, a visited
/// node costs one load instead of a thread-local lookup (a mesh query visits hundreds).
static RECORDERS: AtomicUsize = AtomicUsize::new(0);

/// Notes a visited node when [`recording_nodes`] is running.
pub(super) fn log_node(aabb: &Aabb, pruned: bool, tree: u8) {
    if RECORDERS.load(Ordering::Relaxed) == 0 {
        return;
    }
    NODE_LOG.with(|log| {
        if let Some(nodes) = log.borrow_mut().as_mut() {
            nodes.push(VisitedNode {
                aabb: *aabb,
                pruned,
                tree,
            });
        }
    });
}

/// What a search gathers: the runs, the least lower bound among them, the nodes.
#[derive(Default)]
struct Gathered {
    runs: RefCell<Vec<SubPair>>,
    lower: Cell<f64>,
    /// A lower bound of the whole distance proved before the search (the hulls').
    floor: f64,
    visited: Cell<usize>,
    pruned: Cell<usize>,
}

impl Gathered {
    fn new() -> Self {
        Self::with_floor(0.0)
    }

    fn with_floor(floor: f64) -> Self {
        Self {
            lower: Cell::new(f64::INFINITY),
            floor,
            ..Self::default()
        }
    }

    /// Whether the runs so far settle the answer with the floor: the best run's upper
    /// bound within its own bracket's width and the tolerance (relative) of the floor,
    /// so no other sub-pair can make the answer more than that nearer. A settled search
    /// ends there and its lower bound is the floor alone (the pieces not visited are
    /// bounded by nothing else).
    fn settled(&self, settings: &SolverSettings) -> bool {
        let runs = self.runs.borrow();
        runs.iter().any(|s| {
            let (lower, upper) = bracket(&s.run.summary.outcome);
            self.floor > 0.0 && upper - self.floor <= (upper - lower) + settings.tolerance * upper
        })
    }

    /// The answer of a search [`Self::settled`] ended: bounded below by the floor alone.
    fn settled_answer(self) -> CompositeAnswer {
        self.lower.set(self.floor);
        self.answer()
    }

    /// A node's gap, counted (and counted pruned when it is no nearer than `best`);
    /// `aabb` is its box in hierarchy `tree`'s frame, for [`recording_nodes`].
    fn node(&self, aabb: &Aabb, tree: u8, gap: f64, best: f64) -> f64 {
        self.visited.set(self.visited.get() + 1);
        if gap >= best {
            self.pruned.set(self.pruned.get() + 1);
        }
        log_node(aabb, gap >= best, tree);
        gap
    }

    /// A leaf not run: its gap (a lower bound of its distance) counted as a pruned
    /// node's, and kept in the lower bound when it is below the best (a tie).
    fn pruned_leaf(&self, aabb: &Aabb, tree: u8, gap: f64, best: f64) {
        self.visited.set(self.visited.get() + 1);
        self.pruned.set(self.pruned.get() + 1);
        log_node(aabb, true, tree);
        if gap < best {
            self.lower.set(self.lower.get().min(gap));
        }
    }

    /// A run kept; its upper bound is the leaf's cost.
    fn run(&self, piece: u32, other: Option<u32>, run: Run) -> f64 {
        let (lower, upper) = bracket(&run.summary.outcome);
        self.lower.set(self.lower.get().min(lower));
        self.runs.borrow_mut().push(SubPair { piece, other, run });
        upper
    }

    fn answer(self) -> CompositeAnswer {
        answer(
            self.runs.into_inner(),
            self.lower.get(),
            self.floor,
            self.visited.get(),
            self.pruned.get(),
        )
    }
}

/// The distance between `tree`'s composite (at the identity) and the convex `b` at
/// `b_in_a`, each candidate piece run by `method` (a distance method: GJK, its
/// accelerated variants, Frank-Wolfe) with `settings`, its records kept when `traced`.
pub fn composite_convex_distance(
    tree: &CompositeTree,
    b: &Shape,
    b_in_a: RelativePose,
    method: Method,
    settings: SolverSettings,
    traced: bool,
) -> CompositeAnswer {
    composite_convex_distance_from(tree, b, b_in_a, method, settings, traced, None)
}

/// Where a search may start, from the hulls of the two sides (see
/// [`super::hull_start`]): a lower bound of the whole distance already proved, and the
/// hulls' nearest points (in the first composite's frame), near which the pieces that
/// make the answer usually lie.
#[derive(Clone, Copy, Debug)]
pub struct Start {
    pub floor: f64,
    pub near_a: DVec3,
    pub near_b: DVec3,
    /// The hulls' separating direction (unit, from A towards B, in A's frame) and the
    /// lowest any point of B reaches along it: every point of B lies beyond that
    /// plane, so a box of A's lies at least as far from B as from the plane.
    pub normal: DVec3,
    pub b_low: f64,
    /// The round-off of a height along `normal` at this pair's size.
    pub round_off: f64,
}

impl Start {
    /// A lower bound of the distance from any point in `node` (a box in A's frame) to
    /// B: its gap to the plane B lies beyond (negative where it reaches past it).
    fn a_box_gap(&self, node: &Aabb) -> f64 {
        self.b_low - box_reach(node, self.normal) - self.round_off
    }

    /// A lower bound of the distance from the hull of `corners` (points of A) to B:
    /// their gap to the plane B lies beyond.
    fn corners_gap(&self, corners: &[DVec3]) -> f64 {
        let top = corners
            .iter()
            .map(|c| self.normal.dot(*c))
            .fold(f64::NEG_INFINITY, f64::max);
        self.b_low - top - self.round_off
    }

    /// A lower bound of the distance between the points `corners` of A (their hull)
    /// and any point of `node`, a box in B's frame at `b_in_a`: how far the box lies
    /// beyond the plane through the corners' furthest point along the normal.
    fn b_box_gap(&self, node: &Aabb, corners: &[DVec3], b_in_a: &RelativePose) -> f64 {
        let n_in_b = b_in_a.inverse_rotate(self.normal);
        let low_b = -box_reach(node, -n_in_b) + self.normal.dot(b_in_a.translation);
        let top_a = corners
            .iter()
            .map(|c| self.normal.dot(*c))
            .fold(f64::NEG_INFINITY, f64::max);
        low_b - top_a - self.round_off
    }
}

/// The furthest a box reaches along `n`.
fn box_reach(node: &Aabb, n: DVec3) -> f64 {
    let corner = DVec3::select(n.cmpge(DVec3::ZERO), node.max, node.min);
    n.dot(corner)
}

/// [`composite_convex_distance`] from `start`: the triangle nearest the hulls' nearest
/// point is run first, and when its run meets the floor (the answer settled to the
/// tolerance) the search ends there.
pub fn composite_convex_distance_from(
    tree: &CompositeTree,
    b: &Shape,
    b_in_a: RelativePose,
    method: Method,
    settings: SolverSettings,
    traced: bool,
    start: Option<Start>,
) -> CompositeAnswer {
    let reach = Reach::of(b, &b_in_a);
    if let (Some(mesh), true) = (tree.pieces.mesh(), is_ball(b)) {
        return ball_mesh_distance(tree, mesh, b, b_in_a, &reach, method, settings, traced);
    }
    let gathered = Gathered::with_floor(start.map_or(0.0, |s| s.floor));
    // A mesh's triangle nearest the hulls' nearest point, or else nearest the shape's
    // centre, found by a point query (a closed form per leaf), is run first: its
    // distance is near the answer, so the search below prunes almost everything. (A
    // centre deep inside a closed mesh lies in many boxes at once, and a search ordered
    // by boxes alone wanders among them.)
    let seed = tree.pieces.mesh().and_then(|mesh| {
        let near = start.map_or(reach.centre, |s| s.near_a);
        let i = nearest_triangle(tree, mesh, near)?;
        let run = piece_run(tree.piece(i as usize), b, b_in_a, method, settings, traced)?;
        Some((i, gathered.run(i, None, run)))
    });
    let (seed_piece, bound) = seed.map_or((u32::MAX, f64::INFINITY), |s| s);
    if gathered.settled(&settings) {
        return gathered.settled_answer();
    }
    tree.tree.nearest_leaf_below(
        bound,
        // A negative cost orders the search; once an overlap is found (best 0) it
        // must prune as 0 does.
        |node, best| {
            let mut gap = reach.gap(&node);
            if let Some(slab) = start.map(|s| s.a_box_gap(&node)).filter(|g| *g > 0.0) {
                // Below the plane the hulls found B beyond.
                gap = gap.max(slab);
            }
            gathered.node(
                &node,
                0,
                gap.max(if best > 0.0 { f64::NEG_INFINITY } else { 0.0 }),
                best,
            )
        },
        |i, best| {
            if i == seed_piece {
                return None;
            }
            let slab = start
                .zip(tree.pieces.mesh())
                .map(|(s, m)| s.corners_gap(&m.corners(i as usize)));
            if let Some(gap) = slab.filter(|g| *g >= best) {
                gathered.node(&tree.pieces.piece_box(i as usize), 0, gap, best);
                return None;
            }
            let ball_gap = tree
                .pieces
                .mesh()
                .map(|m| reach.triangle_gap(m.corners(i as usize)));
            if let Some(gap) = ball_gap.filter(|g| *g >= best) {
                // The ball that holds the shape is as far as the best found.
                gathered.node(&tree.pieces.piece_box(i as usize), 0, gap, best);
                return None;
            }
            if let Some(gap) = tree.pieces.plane_gap(i as usize, b, &b_in_a) {
                if gap >= best {
                    // Its plane alone keeps it as far as the best found: pruned, as a
                    // node is (its distance is at least the final upper bound).
                    gathered.node(&tree.pieces.piece_box(i as usize), 0, gap, best);
                    return None;
                }
            }
            let run = piece_run(tree.piece(i as usize), b, b_in_a, method, settings, traced)?;
            Some(gathered.run(i, None, run))
        },
    );
    gathered.answer()
}

/// Whether the shape is the ball about its origin [`Reach`] holds it in (a sphere, a
/// point): then each triangle's [`Reach::triangle_gap`] is its distance to the shape.
fn is_ball(b: &Shape) -> bool {
    matches!(b, Shape::Sphere(_) | Shape::Point(_))
}

/// A ball against a mesh: one search for the triangle nearest the ball, by the
/// distance from its centre to each node's box and each triangle (a closed form,
/// rounded down), and one run, on that triangle. Every other triangle and every pruned
/// node lies at least that triangle's rounded-down distance away, which joins the
/// proof's lower bound. (The general search would find the same triangle, then search
/// again for another as near.)
#[allow(clippy::too_many_arguments)]
fn ball_mesh_distance(
    tree: &CompositeTree,
    mesh: &super::TriMesh,
    b: &Shape,
    b_in_a: RelativePose,
    reach: &Reach,
    method: Method,
    settings: SolverSettings,
    traced: bool,
) -> CompositeAnswer {
    let gathered = Gathered::new();
    let nearest = tree.tree.nearest_leaf(
        |node, best| gathered.node(&node, 0, reach.ball_gap(&node), best),
        |i, _| Some(reach.triangle_gap(mesh.corners(i as usize))),
    );
    if let Some((i, gap)) = nearest {
        if let Some(run) = piece_run(tree.piece(i as usize), b, b_in_a, method, settings, traced) {
            gathered.run(i, None, run);
        }
        // No triangle nor pruned node is nearer than the nearest triangle's bound.
        gathered.lower.set(gathered.lower.get().min(gap.max(0.0)));
    }
    gathered.answer()
}

/// The distance between two composites, `tree_a`'s at the identity and `tree_b`'s at
/// `b_in_a`: a best-first search over A's hierarchy whose leaves search B's, both
/// pruned by the best pair found so far, every candidate pair of pieces run by `method`.
/// Certified as [`composite_convex_distance`] is: every pair of pieces was run or lies
/// under a pair of boxes at least the best upper bound apart.
pub fn composite_composite_distance(
    tree_a: &CompositeTree,
    tree_b: &CompositeTree,
    b_in_a: RelativePose,
    method: Method,
    settings: SolverSettings,
    traced: bool,
) -> CompositeAnswer {
    composite_composite_distance_from(tree_a, tree_b, b_in_a, method, settings, traced, None)
}

/// [`composite_composite_distance`] from `start`: when both are meshes, the pair of
/// triangles nearest the hulls' nearest points is run first, and when its run meets the
/// floor the search ends there; else the search is bounded by it from the start.
pub fn composite_composite_distance_from(
    tree_a: &CompositeTree,
    tree_b: &CompositeTree,
    b_in_a: RelativePose,
    method: Method,
    settings: SolverSettings,
    traced: bool,
    start: Option<Start>,
) -> CompositeAnswer {
    let b_whole = moved_box(&tree_b.whole_box(), &b_in_a);
    let a_in_b = b_in_a.inverse();
    let gathered = Gathered::with_floor(start.map_or(0.0, |s| s.floor));
    let mesh_pair_gap = |i: u32, j: u32| mesh_pair_gap(tree_a, tree_b, &b_in_a, i, j);
    let run_pair = |i: u32, j: u32| {
        let (piece_a, pose_a) = tree_a.piece(i as usize)?;
        let (piece_b, pose_b) = tree_b.piece(j as usize)?;
        let mut pose = b_in_a;
        if let Some(p) = pose_b {
            pose = pose.then(&p);
        }
        if let Some(p) = pose_a {
            pose = p.inverse().then(&pose);
        }
        let run = if traced {
            method.run(&piece_a, &piece_b, pose, None, settings, true)
        } else {
            method.run_untraced(&piece_a, &piece_b, pose, settings)
        };
        Some(gathered.run(i, Some(j), run))
    };
    let seed = start.and_then(|s| {
        let (mesh_a, mesh_b) = (tree_a.pieces.mesh()?, tree_b.pieces.mesh()?);
        let i = nearest_triangle(tree_a, mesh_a, s.near_a)?;
        let j = nearest_triangle(tree_b, mesh_b, a_in_b.transform_point(s.near_b))?;
        Some(((i, j), run_pair(i, j)?))
    });
    let (seed_pair, bound) = seed.map_or(((u32::MAX, u32::MAX), f64::INFINITY), |s| s);
    if gathered.settled(&settings) {
        return gathered.settled_answer();
    }
    // A node's gap: to B's box, and (from the hulls) to the plane B lies beyond.
    let a_gap = |node: &Aabb| {
        let gap = box_gap(node, &b_whole);
        start.map_or(gap, |s| gap.max(s.a_box_gap(node)))
    };
    tree_a.tree.nearest_leaf_below(
        bound,
        |node, best| gathered.node(&node, 0, a_gap(&node), best),
        |i, best_a| {
            let a_box_in_b = moved_box(&tree_a.pieces.piece_box(i as usize), &a_in_b);
            let corners_a = tree_a.pieces.mesh().map(|m| m.corners(i as usize));
            if let (Some(s), Some(c)) = (start, corners_a) {
                let gap = s.corners_gap(&c);
                if gap >= best_a {
                    // The triangle lies below the plane B is beyond, as far as the best.
                    gathered.node(&tree_a.pieces.piece_box(i as usize), 0, gap, best_a);
                    return None;
                }
            }
            // B's node's gap: to A's piece's box, and beyond the plane through the
            // triangle's furthest corner along the hulls' normal.
            let b_gap = |node: &Aabb| {
                let gap = box_gap(node, &a_box_in_b);
                match (start, corners_a) {
                    (Some(s), Some(c)) => gap.max(s.b_box_gap(node, &c, &b_in_a)),
                    _ => gap,
                }
            };
            tree_b
                .tree
                .nearest_leaf_below(
                    best_a,
                    |node, best| gathered.node(&node, 1, b_gap(&node), best),
                    |j, best| {
                        if (i, j) == seed_pair {
                            return None;
                        }
                        let tie = if best.is_finite() {
                            1e-3 * settings.tolerance * best.max(1.0)
                        } else {
                            0.0
                        };
                        // A tie needs a positive gap: a pair that may meet is always run
                        // (else an overlap could hide behind a best of 1e-14).
                        let pruned = |gap: &f64| *gap >= best || (*gap > 0.0 && *gap >= best - tie);
                        if let Some(gap) = mesh_pair_gap(i, j).filter(pruned) {
                            // The closed form proves the triangles no nearer than the
                            // best pair (or a tie within a thousandth of the tolerance,
                            // as the triangles around a nearest corner are): not run,
                            // their gap joins the lower bound.
                            gathered.pruned_leaf(
                                &tree_b.pieces.piece_box(j as usize),
                                1,
                                gap,
                                best,
                            );
                            return None;
                        }
                        run_pair(i, j)
                    },
                )
                .map(|(_, cost)| cost)
        },
    );
    gathered.answer()
}

/// The triangle of `mesh` (the pieces of `tree`) nearest `point`, by a point query.
fn nearest_triangle(tree: &CompositeTree, mesh: &super::TriMesh, point: DVec3) -> Option<u32> {
    let centre_to = |node: &Aabb| {
        (node.min - point)
            .max(point - node.max)
            .max(DVec3::ZERO)
            .length()
    };
    tree.tree
        .nearest_leaf(
            |node, _| centre_to(&node),
            |i, _| Some((point - nearest_on_triangle(point, mesh.corners(i as usize))).length()),
        )
        .map(|(i, _)| i)
}

/// Triangle `i` of `tree_a`'s mesh and triangle `j` of `tree_b`'s moved by `b_in_a`
/// into A's frame, with the round-off the move may carry; `None` unless both
/// composites are meshes.
fn mesh_pair(
    tree_a: &CompositeTree,
    tree_b: &CompositeTree,
    b_in_a: &RelativePose,
    i: u32,
    j: u32,
) -> Option<([DVec3; 3], [DVec3; 3], f64)> {
    let (mesh_a, mesh_b) = (tree_a.pieces.mesh()?, tree_b.pieces.mesh()?);
    let corners_b = mesh_b.corners(j as usize);
    let size_b = corners_b.iter().map(|c| c.length()).fold(0.0, f64::max);
    Some((
        mesh_a.corners(i as usize),
        corners_b.map(|c| b_in_a.transform_point(c)),
        ROUND_OFF_PER_SIZE * (size_b + b_in_a.translation.length()),
    ))
}

/// A lower bound of the distance between the two meshes' triangles `i` and `j`, rounded
/// down ([`triangle_gap`]); `None` unless both composites are meshes.
pub(super) fn mesh_pair_gap(
    tree_a: &CompositeTree,
    tree_b: &CompositeTree,
    b_in_a: &RelativePose,
    i: u32,
    j: u32,
) -> Option<f64> {
    mesh_pair(tree_a, tree_b, b_in_a, i, j).map(|(a, b, round_off)| triangle_gap(a, b, round_off))
}

/// Whether the two meshes' triangles `i` and `j` are proved apart ([`triangles_apart`]);
/// `false` unless both composites are meshes.
pub(super) fn mesh_pair_apart(
    tree_a: &CompositeTree,
    tree_b: &CompositeTree,
    b_in_a: &RelativePose,
    i: u32,
    j: u32,
) -> bool {
    mesh_pair(tree_a, tree_b, b_in_a, i, j)
        .is_some_and(|(a, b, round_off)| triangles_apart(a, b, round_off))
}

/// The same query as [`composite_convex_distance`] with every piece run, none pruned:
/// the reference the midphase is checked against, and the cost of a query without one.
pub fn composite_convex_distance_every_piece(
    pieces: &Pieces,
    b: &Shape,
    b_in_a: RelativePose,
    method: Method,
    settings: SolverSettings,
    traced: bool,
) -> CompositeAnswer {
    let gathered = Gathered::new();
    for i in 0..pieces.count() {
        if let Some(run) = piece_run(pieces.piece(i), b, b_in_a, method, settings, traced) {
            gathered.run(i as u32, None, run);
        }
    }
    gathered.answer()
}

/// The composite's answer from its runs: the nearest by upper bound, and the proof the
/// bracket gives.
fn answer(
    sub_pairs: Vec<SubPair>,
    runs_lower: f64,
    floor: f64,
    visited: usize,
    pruned: usize,
) -> CompositeAnswer {
    let upper_of = |s: &SubPair| bracket(&s.run.summary.outcome).1;
    let nearest = sub_pairs
        .iter()
        .enumerate()
        .min_by(|(_, x), (_, y)| upper_of(x).total_cmp(&upper_of(y)))
        .map(|(i, _)| i);
    let upper = nearest.map_or(f64::INFINITY, |i| upper_of(&sub_pairs[i]));
    let lower = runs_lower.min(upper).max(floor.min(upper)).max(0.0);
    let outcome = match nearest.map(|i| &sub_pairs[i].run.summary.outcome) {
        None => Outcome::Degenerate {
            reason: "no piece of the composite could be run against the other shape".into(),
        },
        Some(o) if upper == 0.0 => o.clone(),
        Some(_) if !upper.is_finite() => Outcome::Degenerate {
            reason: "no sub-pair's run bounded its distance from above".into(),
        },
        Some(_) if lower > 0.0 => Outcome::Separated {
            distance: upper,
            lower_bound: lower,
        },
        Some(_) => Outcome::Contact { distance: upper },
    };
    CompositeAnswer {
        outcome,
        lower,
        upper,
        sub_pairs,
        nearest,
        nodes_visited: visited,
        nodes_pruned: pruned,
        hull_floor: (floor > 0.0).then_some(floor),
    }
}

/// A piece (as [`Pieces::piece`] gives it) against `b`, in the piece's frame.
pub(super) fn piece_run(
    piece: Option<(Cow<'_, Shape>, Option<RelativePose>)>,
    b: &Shape,
    b_in_a: RelativePose,
    method: Method,
    settings: SolverSettings,
    traced: bool,
) -> Option<Run> {
    let (piece, pose) = piece?;
    let b_in_piece = match pose {
        Some(p) => p.inverse().then(&b_in_a),
        None => b_in_a,
    };
    if !traced {
        return Some(method.run_untraced(&piece, b, b_in_piece, settings));
    }
    Some(method.run(&piece, b, b_in_piece, None, settings, true))
}

/// [`bracket`] with a separating plane's gap (the LP's verdict) counted as a lower bound
/// too: the bracket a convex run's report gives (`solve --json`, the Python answers).
pub fn certified_bracket(outcome: &Outcome) -> (f64, f64) {
    let (lower, upper) = bracket(outcome);
    (
        outcome.lower_bound().map_or(lower, |gap| gap.max(lower)),
        upper,
    )
}

/// What a run proves about its pair's distance: `(lower, upper)`; overlaps are `(0, 0)`,
/// a run that bounds nothing `(0, ∞)`.
pub fn bracket(outcome: &Outcome) -> (f64, f64) {
    match *outcome {
        Outcome::Separated {
            distance,
            lower_bound,
        }
        | Outcome::Stalled {
            distance,
            lower_bound,
        } => (lower_bound, distance),
        Outcome::Contact { distance } => (0.0, distance),
        Outcome::IterationCap {
            lower_bound,
            upper_bound,
        } => (lower_bound, upper_bound),
        Outcome::SeparatedEarlyStop { lower_bound } => (lower_bound, f64::INFINITY),
        Outcome::Intersecting | Outcome::Penetrating { .. } | Outcome::Touching { .. } => {
            (0.0, 0.0)
        }
        _ => (0.0, f64::INFINITY),
    }
}

/// Where the convex shape lies, for bounding a node's distance from below: its box, and
/// the ball about its origin that holds it (centre, radius: its extent).
struct Reach {
    b_box: Aabb,
    centre: DVec3,
    radius: f64,
}

impl Reach {
    fn of(b: &Shape, b_in_a: &RelativePose) -> Self {
        Self {
            b_box: shape_box(b, b_in_a),
            centre: b_in_a.translation,
            // Rounded up, with the pose's round-off.
            radius: (ball_radius(b) + super::pieces::pose_round_off(b, b_in_a))
                * (1.0 + 4.0 * f64::EPSILON),
        }
    }

    /// A lower bound of the distance from any point in `node` to the shape: the boxes'
    /// gap, or the gap to the ball about its origin, whichever is larger. The second may
    /// be negative (the ball reaches into the node): a node nearer the shape's centre
    /// then costs less, and is searched first, so that an overlap is found at the first
    /// triangles instead of after every triangle whose box touches the shape's.
    fn gap(&self, node: &Aabb) -> f64 {
        let to_ball = self.ball_gap(node);
        let gap = box_gap(node, &self.b_box).max(to_ball);
        if gap > 0.0 {
            gap
        } else {
            to_ball
        }
    }
}

impl Reach {
    /// A lower bound of the distance from any point in `node` to the ball about the
    /// shape's origin (negative where the ball reaches into it): for a sphere or a
    /// point, the shape itself, so no box bound is tighter.
    fn ball_gap(&self, node: &Aabb) -> f64 {
        self.centre_to(node) * (1.0 - 4.0 * f64::EPSILON) - self.radius
    }

    /// The distance from the shape's centre to `node` (0 inside it).
    fn centre_to(&self, node: &Aabb) -> f64 {
        (node.min - self.centre)
            .max(self.centre - node.max)
            .max(DVec3::ZERO)
            .length()
    }
}

/// The radius of a ball about the shape's origin that holds it: exact for the round
/// kinds (a sphere's radius, a capsule's radius and half height), else its extent.
fn ball_radius(b: &Shape) -> f64 {
    match b {
        Shape::Sphere(s) => s.radius(),
        Shape::Point(_) => 0.0,
        Shape::Capsule(c) => c.radius() + c.half_height(),
        other => other.extent(),
    }
}

impl Reach {
    /// A lower bound of the distance from triangle `corners` to the shape: the distance
    /// from the ball's centre to the triangle (its nearest point, Ericson's "Real-Time
    /// Collision Detection" §5.1.5), rounded down by its round-off, less the radius.
    fn triangle_gap(&self, corners: [DVec3; 3]) -> f64 {
        let nearest = nearest_on_triangle(self.centre, corners);
        let size = self.centre.abs().max_element()
            + corners
                .iter()
                .map(|c| c.abs().max_element())
                .fold(0.0, f64::max);
        (self.centre - nearest).length() - ROUND_OFF_PER_SIZE * size - self.radius
    }
}

/// The distance between two boxes, rounded down: no point of one is nearer the other.
pub(super) fn box_gap(a: &Aabb, b: &Aabb) -> f64 {
    let apart = (a.min - b.max).max(b.min - a.max).max(DVec3::ZERO);
    // A square root and three products round by under 4 ulps in all.
    (apart.length() * (1.0 - 4.0 * f64::EPSILON)).max(0.0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::composite::TriMesh;
    use crate::shape::{Polytope, Sphere};
    use crate::solver::{Algorithm, DirectionRule};

    fn gjk() -> Method {
        Method::of(Algorithm::Gjk(DirectionRule::Vanilla))
    }

    /// A bowl: an open grid over [-2, 2]² with height x² + y², `n` cells a side.
    fn bowl(n: usize) -> TriMesh {
        let mut v = Vec::new();
        for j in 0..=n {
            for i in 0..=n {
                let x = -2.0 + 4.0 * i as f64 / n as f64;
                let y = -2.0 + 4.0 * j as f64 / n as f64;
                v.push(DVec3::new(x, y, 0.25 * (x * x + y * y)));
            }
        }
        let mut t = Vec::new();
        let id = |i: usize, j: usize| (j * (n + 1) + i) as u32;
        for j in 0..n {
            for i in 0..n {
                t.push([id(i, j), id(i + 1, j), id(i + 1, j + 1)]);
                t.push([id(i, j), id(i + 1, j + 1), id(i, j + 1)]);
            }
        }
        TriMesh::new(v, t).unwrap()
    }

    fn at(t: DVec3) -> RelativePose {
        RelativePose::from_matrix(glam::DMat3::IDENTITY, t)
    }

    /// A ball inside the bowl's hollow (where its hull would overlap it) answers the
    /// same as every triangle run, having run far fewer.
    #[test]
    fn the_midphase_answers_as_every_triangle_does_with_fewer_runs() {
        let tree = CompositeTree::new(Pieces::Triangles(bowl(16)));
        let ball = Shape::Sphere(Sphere::new(0.3).unwrap());
        let settings = SolverSettings::default();
        for centre in [
            DVec3::new(0.1, -0.2, 0.9),
            DVec3::new(1.2, 0.4, 1.1),
            DVec3::new(-1.7, 1.6, 0.4),
            DVec3::new(0.0, 0.0, -1.0),
        ] {
            let fast = composite_convex_distance(&tree, &ball, at(centre), gjk(), settings, false);
            let every = composite_convex_distance_every_piece(
                tree.pieces(),
                &ball,
                at(centre),
                gjk(),
                settings,
                false,
            );
            assert!(
                fast.lower <= every.upper && every.lower <= fast.upper,
                "{centre}: {fast:?} vs {every:?}"
            );
            assert!((fast.upper - every.upper).abs() < 1e-9, "{centre}");
            assert!(
                fast.sub_pairs.len() * 4 < every.sub_pairs.len(),
                "{centre}: {} runs",
                fast.sub_pairs.len()
            );
            assert!(fast.nodes_pruned > 0);
            let nearest = &fast.sub_pairs[fast.nearest.unwrap()];
            let every_nearest = &every.sub_pairs[every.nearest.unwrap()];
            let d = |s: &SubPair| bracket(&s.run.summary.outcome).1;
            assert!((d(nearest) - d(every_nearest)).abs() < 1e-9);
            assert!(
                matches!(fast.outcome, Outcome::Separated { .. }),
                "{:?}",
                fast.outcome
            );
        }
    }

    /// The nodes recorded are the ones counted, pruned ones flagged; outside a
    /// recording nothing is kept.
    #[test]
    fn recorded_nodes_are_the_counted_ones() {
        let tree = CompositeTree::new(Pieces::Triangles(bowl(16)));
        let ball = Shape::Sphere(Sphere::new(0.3).unwrap());
        let query = || {
            composite_convex_distance(
                &tree,
                &ball,
                at(DVec3::new(0.1, -0.2, 0.9)),
                gjk(),
                SolverSettings::default(),
                false,
            )
        };
        let (answer, nodes) = recording_nodes(query);
        assert_eq!(nodes.len(), answer.nodes_visited);
        assert_eq!(
            nodes.iter().filter(|n| n.pruned).count(),
            answer.nodes_pruned
        );
        assert!(nodes
            .iter()
            .all(|n| n.tree == 0 && n.aabb.min.cmple(n.aabb.max).all()));
        let (_, again) = recording_nodes(|| recording_nodes(query).1.len());
        assert!(again.is_empty(), "an inner recording keeps its own nodes");
        NODE_LOG.with(|log| assert!(log.borrow().is_none()));
    }

    /// parry3d-f64's own `TriMesh` distance is the independent oracle.
    #[test]
    fn the_distance_agrees_with_parrys_trimesh() {
        let mesh = bowl(12);
        let tree = CompositeTree::new(Pieces::Triangles(mesh.clone()));
        let points: Vec<parry3d_f64::math::Vector> = mesh
            .vertices()
            .iter()
            .map(|p| parry3d_f64::math::Vector::new(p.x, p.y, p.z))
            .collect();
        let parry_mesh =
            parry3d_f64::shape::TriMesh::new(points, mesh.triangles().to_vec()).unwrap();
        let ball = parry3d_f64::shape::Ball::new(0.25);
        for centre in [
            DVec3::new(0.3, 0.2, 1.0),
            DVec3::new(-1.0, 0.5, 2.5),
            DVec3::new(1.5, -1.5, 0.2),
        ] {
            let ours = composite_convex_distance(
                &tree,
                &Shape::Sphere(Sphere::new(0.25).unwrap()),
                at(centre),
                gjk(),
                SolverSettings::default(),
                false,
            );
            let theirs = parry3d_f64::query::distance(
                &parry3d_f64::math::Pose::identity(),
                &parry_mesh,
                &parry3d_f64::math::Pose::translation(centre.x, centre.y, centre.z),
                &ball,
            )
            .unwrap();
            let nearest = ours.sub_pairs[ours.nearest.unwrap()].piece;
            let theirs_triangle = theirs.subshape1;
            let theirs = theirs.distance;
            assert!(
                ours.lower <= theirs + 1e-9 && theirs <= ours.upper + 1e-9,
                "{centre}: ours [{}, {}], parry {theirs}",
                ours.lower,
                ours.upper
            );
            // The same triangle, or one as near (a tie across an edge).
            let tri = Shape::Polytope(
                Polytope::from_points(
                    &tree
                        .pieces()
                        .mesh()
                        .unwrap()
                        .corners(theirs_triangle as usize),
                )
                .unwrap(),
            );
            let theirs_run = gjk().run(
                &tri,
                &Shape::Sphere(Sphere::new(0.25).unwrap()),
                at(centre),
                None,
                SolverSettings::default(),
                false,
            );
            assert!(
                nearest == theirs_triangle
                    || (bracket(&theirs_run.summary.outcome).1 - ours.upper).abs() < 1e-9
            );
        }
    }

    #[test]
    fn a_ball_through_the_surface_is_intersecting_with_the_triangle_named() {
        let tree = CompositeTree::new(Pieces::Triangles(bowl(8)));
        let ball = Shape::Sphere(Sphere::new(0.5).unwrap());
        let a = composite_convex_distance(
            &tree,
            &ball,
            at(DVec3::new(0.0, 0.0, 0.2)),
            gjk(),
            SolverSettings::default(),
            true,
        );
        assert_eq!(a.outcome, Outcome::Intersecting);
        assert_eq!(a.upper, 0.0);
        let nearest = &a.sub_pairs[a.nearest.unwrap()];
        let corners = tree
            .pieces()
            .mesh()
            .unwrap()
            .corners(nearest.piece as usize);
        assert!(
            corners.iter().all(|c| c.truncate().length() < 1.0),
            "{corners:?}"
        );
        assert!(!nearest.run.trace.is_empty());
    }

    /// Two bowls, one turned and inside the other's hollow: the midphase's answer is
    /// every pair's, and parry's TriMesh–TriMesh distance lies in its bracket.
    #[test]
    fn two_meshes_answer_as_every_pair_and_as_parry() {
        let a = bowl(6);
        let b = bowl(5);
        let (tree_a, tree_b) = (
            CompositeTree::new(Pieces::Triangles(a.clone())),
            CompositeTree::new(Pieces::Triangles(b.clone())),
        );
        let to_parry = |m: &TriMesh| {
            let points = m
                .vertices()
                .iter()
                .map(|p| parry3d_f64::math::Vector::new(p.x, p.y, p.z))
                .collect();
            parry3d_f64::shape::TriMesh::new(points, m.triangles().to_vec()).unwrap()
        };
        let (pa, pb) = (to_parry(&a), to_parry(&b));
        let turn = glam::DMat3::from_rotation_x(0.3) * glam::DMat3::from_rotation_z(0.7);
        for t in [DVec3::new(0.2, 0.1, 1.5), DVec3::new(3.0, -2.0, 4.0)] {
            let pose = RelativePose::from_matrix(turn, t);
            let fast = composite_composite_distance(
                &tree_a,
                &tree_b,
                pose,
                gjk(),
                SolverSettings::default(),
                false,
            );
            let mut every = f64::INFINITY;
            for i in 0..a.triangle_count() {
                for j in 0..b.triangle_count() {
                    let (ti, tj) = (
                        Pieces::Triangles(a.clone())
                            .piece(i)
                            .unwrap()
                            .0
                            .into_owned(),
                        Pieces::Triangles(b.clone())
                            .piece(j)
                            .unwrap()
                            .0
                            .into_owned(),
                    );
                    let run = gjk().run(&ti, &tj, pose, None, SolverSettings::default(), false);
                    every = every.min(bracket(&run.summary.outcome).1);
                }
            }
            assert!(
                (fast.upper - every).abs() < 1e-9,
                "{t}: {} vs {every}",
                fast.upper
            );
            assert!(fast.sub_pairs.len() * 5 < a.triangle_count() * b.triangle_count());
            let q = glam::DQuat::from_mat3(&turn);
            let pose_b = parry3d_f64::math::Pose::from_parts(
                parry3d_f64::math::Vector::new(t.x, t.y, t.z),
                parry3d_f64::math::Rotation::from_xyzw(q.x, q.y, q.z, q.w),
            );
            let theirs = parry3d_f64::query::distance(
                &parry3d_f64::math::Pose::identity(),
                &pa,
                &pose_b,
                &pb,
            )
            .unwrap()
            .distance;
            assert!(
                fast.lower <= theirs + 1e-9 && theirs <= fast.upper + 1e-9,
                "{t}: [{}, {}] vs parry {theirs}",
                fast.lower,
                fast.upper
            );
            assert!(fast.sub_pairs[fast.nearest.unwrap()].other.is_some());
        }
    }

    /// An L of two turned boxes and a ball in its inner corner, where the hull of the L
    /// would hold the ball: the answer is parry's `Compound` distance, the part named.
    #[test]
    fn a_compound_answers_as_parrys_compound() {
        use crate::composite::Part;
        use crate::shape::Cuboid;
        let turn = glam::DMat3::from_rotation_z(0.2);
        let parts = vec![
            Part {
                shape: Shape::Cuboid(Cuboid::new(DVec3::new(2.0, 0.25, 0.5)).unwrap()),
                pose: RelativePose::from_matrix(turn, DVec3::new(0.0, -1.0, 0.0)),
            },
            Part {
                shape: Shape::Cuboid(Cuboid::new(DVec3::new(0.25, 2.0, 0.5)).unwrap()),
                pose: RelativePose::from_matrix(glam::DMat3::IDENTITY, DVec3::new(-2.0, 0.5, 0.0)),
            },
        ];
        let parry_parts = parts
            .iter()
            .map(|p| {
                let q = glam::DQuat::from_mat3(&p.pose.rotation);
                let t = p.pose.translation;
                let Shape::Cuboid(c) = &p.shape else {
                    unreachable!()
                };
                let h = c.half_extents();
                (
                    parry3d_f64::math::Pose::from_parts(
                        parry3d_f64::math::Vector::new(t.x, t.y, t.z),
                        parry3d_f64::math::Rotation::from_xyzw(q.x, q.y, q.z, q.w),
                    ),
                    parry3d_f64::shape::SharedShape::cuboid(h.x, h.y, h.z),
                )
            })
            .collect();
        let compound = parry3d_f64::shape::Compound::new(parry_parts);
        let tree = CompositeTree::new(Pieces::Parts(parts));
        let ball = Shape::Sphere(Sphere::new(0.3).unwrap());
        for (centre, part) in [
            (DVec3::new(-1.0, 0.2, 0.0), None),
            (DVec3::new(1.5, 0.8, 0.3), Some(0)),
            (DVec3::new(-3.0, 2.0, 0.0), Some(1)),
        ] {
            let ours = composite_convex_distance(
                &tree,
                &ball,
                at(centre),
                gjk(),
                SolverSettings::default(),
                false,
            );
            let theirs = parry3d_f64::query::distance(
                &parry3d_f64::math::Pose::identity(),
                &compound,
                &parry3d_f64::math::Pose::translation(centre.x, centre.y, centre.z),
                &parry3d_f64::shape::Ball::new(0.3),
            )
            .unwrap();
            assert!(
                ours.lower <= theirs.distance + 1e-9 && theirs.distance <= ours.upper + 1e-9,
                "{centre}: [{}, {}] vs {}",
                ours.lower,
                ours.upper,
                theirs.distance
            );
            let named = ours.sub_pairs[ours.nearest.unwrap()].piece;
            assert_eq!(named, theirs.subshape1, "{centre}");
            if let Some(p) = part {
                assert_eq!(named, p);
            }
            let every = composite_convex_distance_every_piece(
                tree.pieces(),
                &ball,
                at(centre),
                gjk(),
                SolverSettings::default(),
                false,
            );
            assert!((every.upper - ours.upper).abs() < 1e-12);
        }
    }

    /// The untraced search (the solver's own loop) answers every sub-pair as the method
    /// layer does, to the bit: the same outcome and the same nearest triangle.
    #[test]
    fn the_untraced_search_answers_as_the_method_layer() {
        let tree = CompositeTree::new(Pieces::Triangles(bowl(10)));
        let cube = Shape::Cuboid(crate::shape::Cuboid::new(DVec3::new(0.3, 0.2, 0.1)).unwrap());
        let settings = SolverSettings::default();
        for (k, centre) in [
            DVec3::new(0.4, -0.3, 0.5),
            DVec3::new(1.1, 0.9, 0.9),
            DVec3::new(0.0, 0.1, 0.05),
        ]
        .into_iter()
        .enumerate()
        {
            let turn = glam::DMat3::from_rotation_y(0.4 * k as f64);
            let pose = RelativePose::from_matrix(turn, centre);
            let fast = composite_convex_distance(&tree, &cube, pose, gjk(), settings, false);
            let traced = composite_convex_distance(&tree, &cube, pose, gjk(), settings, true);
            assert_eq!(fast.outcome, traced.outcome, "{centre}");
            assert_eq!(fast.sub_pairs.len(), traced.sub_pairs.len());
            for (f, t) in fast.sub_pairs.iter().zip(&traced.sub_pairs) {
                assert_eq!(f.piece, t.piece);
                assert_eq!(f.run.summary.outcome, t.run.summary.outcome);
            }
        }
    }
}
