//! The midphase: the distance between a triangle mesh and a convex shape, answered as
//! the nearest of its sub-pairs (one triangle and the shape), each run through a method
//! of the existing families with all its records, while the mesh's bounding-volume
//! hierarchy prunes the triangles that cannot be nearer than the best found so far.
//!
//! The answer is a proof as a convex run's is. The distance to the mesh (its surface,
//! as parry's `TriMesh` and Coal's `BVHModel` answer it) is the least distance to any
//! triangle; every triangle was either run (its run bounds its distance from below) or
//! lies in a pruned node whose box is at least the best upper bound away from the
//! shape's box. So the least of the runs' lower bounds and the best upper bound is a
//! lower bound of the whole, and the best run's upper bound an upper bound.

use std::cell::{Cell, RefCell};

use glam::DVec3;

use super::TriMesh;
use crate::minkowski::ROUND_OFF_PER_SIZE;
use crate::parry_bridge::BoxTree;
use crate::pose::RelativePose;
use crate::shape::{Aabb, Polytope, Shape, SupportMap};
use crate::solver::{Method, Outcome, Run, SolverSettings};

/// A mesh with its hierarchy of triangle boxes, built once and queried many times.
pub struct MeshTree {
    mesh: TriMesh,
    tree: BoxTree,
}

impl MeshTree {
    pub fn new(mesh: TriMesh) -> Self {
        let tree = BoxTree::new((0..mesh.triangle_count()).map(|i| mesh.triangle_aabb(i)));
        Self { mesh, tree }
    }

    pub fn mesh(&self) -> &TriMesh {
        &self.mesh
    }
}

/// One triangle of the mesh and the convex shape (or a triangle of the second mesh),
/// run through the query's method.
#[derive(Clone, Debug)]
pub struct SubPair {
    pub triangle: u32,
    /// The second mesh's triangle, in a mesh–mesh query.
    pub other: Option<u32>,
    pub run: Run,
}

/// A mesh query's answer: its outcome (a proof, as every run's), the bracket it rests
/// on, the sub-pairs that were run (in the order they were run) and the nearest of
/// them, and how much of the hierarchy was looked at.
#[derive(Clone, Debug)]
pub struct MeshAnswer {
    pub outcome: Outcome,
    /// A lower bound of the distance: the least of the runs' lower bounds and of the
    /// pruned nodes' box gaps.
    pub lower: f64,
    /// An upper bound of the distance: the nearest sub-pair's (0 when it overlaps).
    pub upper: f64,
    pub sub_pairs: Vec<SubPair>,
    /// Index into `sub_pairs` of the sub-pair that makes the answer.
    pub nearest: Option<usize>,
    /// Hierarchy nodes whose box was compared with the shape's.
    pub nodes_visited: usize,
    /// Of those, the nodes pruned (their box no nearer than the best found).
    pub nodes_pruned: usize,
}

/// The distance between `tree`'s mesh (at the identity) and the convex `b` at `b_in_a`,
/// each candidate triangle run by `method` (a distance method: GJK, its accelerated
/// variants, Frank-Wolfe) with `settings`, its records kept when `traced`.
pub fn mesh_convex_distance(
    tree: &MeshTree,
    b: &Shape,
    b_in_a: RelativePose,
    method: Method,
    settings: SolverSettings,
    traced: bool,
) -> MeshAnswer {
    let b_box = shape_box(b, &b_in_a);
    let visited = Cell::new(0usize);
    let pruned = Cell::new(0usize);
    let runs = RefCell::new(Vec::<SubPair>::new());
    let found_lower = Cell::new(f64::INFINITY);
    tree.tree.nearest_leaf(
        |node, best| {
            visited.set(visited.get() + 1);
            let gap = box_gap(&node, &b_box);
            if gap >= best {
                pruned.set(pruned.get() + 1);
            }
            gap
        },
        |leaf, _best| {
            let run = triangle_run(
                &tree.mesh,
                leaf as usize,
                b,
                b_in_a,
                method,
                settings,
                traced,
            )?;
            let (lower, upper) = bracket(&run.summary.outcome);
            found_lower.set(found_lower.get().min(lower));
            runs.borrow_mut().push(SubPair {
                triangle: leaf,
                other: None,
                run,
            });
            Some(upper)
        },
    );
    let sub_pairs = runs.into_inner();
    answer(sub_pairs, found_lower.get(), visited.get(), pruned.get())
}

/// The distance between two meshes, `tree_a`'s at the identity and `tree_b`'s at
/// `b_in_a`: a best-first search over A's hierarchy whose leaves search B's, both
/// pruned by the best pair found so far, every candidate pair of triangles run by
/// `method`. Certified as [`mesh_convex_distance`] is: every pair of triangles was run or
/// lies under a pruned pair of boxes at least the best upper bound apart.
pub fn mesh_mesh_distance(
    tree_a: &MeshTree,
    tree_b: &MeshTree,
    b_in_a: RelativePose,
    method: Method,
    settings: SolverSettings,
    traced: bool,
) -> MeshAnswer {
    let margin = ROUND_OFF_PER_SIZE
        * (b_in_a.translation.length() + mesh_extent(tree_b.mesh()) + mesh_extent(tree_a.mesh()));
    let b_whole = widen(moved_box(&mesh_box(tree_b.mesh()), &b_in_a), margin);
    let b_triangles: Vec<Shape> = (0..tree_b.mesh.triangle_count())
        .map(|j| triangle_shape(tree_b.mesh(), j))
        .collect::<Option<_>>()
        .unwrap_or_default();
    let visited = Cell::new(0usize);
    let pruned = Cell::new(0usize);
    let runs = RefCell::new(Vec::<SubPair>::new());
    let found_lower = Cell::new(f64::INFINITY);
    let count = |gap: f64, best: f64| {
        visited.set(visited.get() + 1);
        if gap >= best {
            pruned.set(pruned.get() + 1);
        }
        gap
    };
    tree_a.tree.nearest_leaf(
        |node, best| count(box_gap(&node, &b_whole), best),
        |i, best_a| {
            let a_triangle = triangle_shape(tree_a.mesh(), i as usize)?;
            let a_box = widen(tree_a.mesh.triangle_aabb(i as usize), margin);
            let inverse = inverse_pose(&b_in_a);
            let a_box_in_b = widen(moved_box(&a_box, &inverse), margin);
            tree_b
                .tree
                .nearest_leaf_below(
                    best_a,
                    |node, best| count(box_gap(&node, &a_box_in_b), best),
                    |j, _| {
                        let run = method.run(
                            &a_triangle,
                            b_triangles.get(j as usize)?,
                            b_in_a,
                            None,
                            settings,
                            traced,
                        );
                        let (lower, upper) = bracket(&run.summary.outcome);
                        found_lower.set(found_lower.get().min(lower));
                        runs.borrow_mut().push(SubPair {
                            triangle: i,
                            other: Some(j),
                            run,
                        });
                        Some(upper)
                    },
                )
                .map(|(_, cost)| cost)
        },
    );
    answer(
        runs.into_inner(),
        found_lower.get(),
        visited.get(),
        pruned.get(),
    )
}

/// The same query with every triangle run, none pruned: the reference the midphase is
/// checked against, and the honest cost of a query without one.
pub fn mesh_convex_distance_every_triangle(
    mesh: &TriMesh,
    b: &Shape,
    b_in_a: RelativePose,
    method: Method,
    settings: SolverSettings,
    traced: bool,
) -> MeshAnswer {
    let mut lower = f64::INFINITY;
    let sub_pairs: Vec<SubPair> = (0..mesh.triangle_count())
        .filter_map(|i| {
            let run = triangle_run(mesh, i, b, b_in_a, method, settings, traced)?;
            lower = lower.min(bracket(&run.summary.outcome).0);
            Some(SubPair {
                triangle: i as u32,
                other: None,
                run,
            })
        })
        .collect();
    answer(sub_pairs, lower, 0, 0)
}

/// The mesh's answer from its runs: the nearest by upper bound, and the proof the
/// bracket gives.
fn answer(sub_pairs: Vec<SubPair>, runs_lower: f64, visited: usize, pruned: usize) -> MeshAnswer {
    let nearest = sub_pairs
        .iter()
        .enumerate()
        .min_by(|(_, x), (_, y)| {
            let (ux, uy) = (
                bracket(&x.run.summary.outcome).1,
                bracket(&y.run.summary.outcome).1,
            );
            ux.total_cmp(&uy)
        })
        .map(|(i, _)| i);
    let upper = nearest.map_or(f64::INFINITY, |i| {
        bracket(&sub_pairs[i].run.summary.outcome).1
    });
    let lower = runs_lower.min(upper).max(0.0);
    let outcome = match nearest.map(|i| &sub_pairs[i].run.summary.outcome) {
        None => Outcome::Degenerate {
            reason: "no triangle of the mesh could be run against the shape".into(),
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
    MeshAnswer {
        outcome,
        lower,
        upper,
        sub_pairs,
        nearest,
        nodes_visited: visited,
        nodes_pruned: pruned,
    }
}

/// Triangle `i` (as the flat polytope of its corners) against `b`; `None` for a
/// triangle whose corners cannot make a polytope (none: the mesh checked them finite).
fn triangle_run(
    mesh: &TriMesh,
    i: usize,
    b: &Shape,
    b_in_a: RelativePose,
    method: Method,
    settings: SolverSettings,
    traced: bool,
) -> Option<Run> {
    let triangle = triangle_shape(mesh, i)?;
    Some(method.run(&triangle, b, b_in_a, None, settings, traced))
}

/// Triangle `i` as the flat polytope of its corners.
fn triangle_shape(mesh: &TriMesh, i: usize) -> Option<Shape> {
    Some(Shape::Polytope(
        Polytope::from_points(&mesh.corners(i)).ok()?,
    ))
}

/// The box of a whole mesh.
fn mesh_box(mesh: &TriMesh) -> Aabb {
    let v = mesh.vertices();
    let used = mesh.triangles().iter().flatten().map(|&i| v[i as usize]);
    let (min, max) = used.fold((DVec3::INFINITY, DVec3::NEG_INFINITY), |(lo, hi), p| {
        (lo.min(p), hi.max(p))
    });
    Aabb { min, max }
}

/// The largest distance of a mesh's vertex from its origin.
fn mesh_extent(mesh: &TriMesh) -> f64 {
    mesh.vertices()
        .iter()
        .map(|p| p.length())
        .fold(0.0, f64::max)
}

/// A box around `b` moved by `pose` (its eight corners, moved).
fn moved_box(b: &Aabb, pose: &RelativePose) -> Aabb {
    let mut min = DVec3::INFINITY;
    let mut max = DVec3::NEG_INFINITY;
    for k in 0..8 {
        let corner = DVec3::new(
            if k & 1 == 0 { b.min.x } else { b.max.x },
            if k & 2 == 0 { b.min.y } else { b.max.y },
            if k & 4 == 0 { b.min.z } else { b.max.z },
        );
        let p = pose.transform_point(corner);
        min = min.min(p);
        max = max.max(p);
    }
    Aabb { min, max }
}

fn widen(b: Aabb, margin: f64) -> Aabb {
    Aabb {
        min: b.min - DVec3::splat(margin),
        max: b.max + DVec3::splat(margin),
    }
}

/// A's pose in B's frame.
fn inverse_pose(b_in_a: &RelativePose) -> RelativePose {
    let r = b_in_a.rotation.transpose();
    RelativePose::from_matrix(r, -(r * b_in_a.translation))
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

/// A box in A's frame around `b` at `b_in_a`, from its six axis supports, widened by
/// the round-off of the supports and the pose.
fn shape_box(b: &Shape, b_in_a: &RelativePose) -> Aabb {
    let mut min = DVec3::ZERO;
    let mut max = DVec3::ZERO;
    for axis in 0..3 {
        let e = DVec3::AXES[axis];
        let high = b_in_a.transform_point(b.local_support(b_in_a.inverse_rotate(e)));
        let low = b_in_a.transform_point(b.local_support(b_in_a.inverse_rotate(-e)));
        max[axis] = high[axis];
        min[axis] = low[axis];
    }
    let margin = ROUND_OFF_PER_SIZE * (b_in_a.translation.length() + b.extent());
    Aabb {
        min: min - DVec3::splat(margin),
        max: max + DVec3::splat(margin),
    }
}

/// The distance between two boxes, rounded down: no point of one is nearer the other.
fn box_gap(a: &Aabb, b: &Aabb) -> f64 {
    let apart = (a.min - b.max).max(b.min - a.max).max(DVec3::ZERO);
    let gap = apart.length();
    // A square root and three products round by under 4 ulps in all.
    (gap * (1.0 - 4.0 * f64::EPSILON)).max(0.0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shape::Sphere;
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
        let tree = MeshTree::new(bowl(16));
        let ball = Shape::Sphere(Sphere::new(0.3).unwrap());
        let settings = SolverSettings::default();
        for centre in [
            DVec3::new(0.1, -0.2, 0.9),
            DVec3::new(1.2, 0.4, 1.1),
            DVec3::new(-1.7, 1.6, 0.4),
            DVec3::new(0.0, 0.0, -1.0),
        ] {
            let fast = mesh_convex_distance(&tree, &ball, at(centre), gjk(), settings, false);
            let every = mesh_convex_distance_every_triangle(
                tree.mesh(),
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

    /// parry3d-f64's own `TriMesh` distance is the independent oracle.
    #[test]
    fn the_distance_agrees_with_parrys_trimesh() {
        let mesh = bowl(12);
        let tree = MeshTree::new(mesh.clone());
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
            let ours = mesh_convex_distance(
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
            let nearest = ours.sub_pairs[ours.nearest.unwrap()].triangle;
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
                Polytope::from_points(&tree.mesh().corners(theirs_triangle as usize)).unwrap(),
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
        let tree = MeshTree::new(bowl(8));
        let ball = Shape::Sphere(Sphere::new(0.5).unwrap());
        let a = mesh_convex_distance(
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
        let corners = tree.mesh().corners(nearest.triangle as usize);
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
        let (tree_a, tree_b) = (MeshTree::new(a.clone()), MeshTree::new(b.clone()));
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
            let fast = mesh_mesh_distance(
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
                        triangle_shape(&a, i).unwrap(),
                        triangle_shape(&b, j).unwrap(),
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
}
