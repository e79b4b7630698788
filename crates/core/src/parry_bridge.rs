//! Where we ask parry3d-f64 for answers: reference distances, depths and times of impact
//! for tests, benchmarks and the cross-check. The conversions between our glam 0.32
//! types and parry's glam 0.33 (`glamx`) types, and parry's shapes for ours, are
//! `shape::parry_native` (the contact family's parry rule uses them too).

use glam::DVec3;
use parry3d_f64::math::{Pose as ParryPose, Vector as ParryVector};
use parry3d_f64::shape::SupportMap as ParrySupportMap;

use crate::pose::Motion;
use crate::pose::RelativePose;
pub use crate::shape::parry_native::{
    from_parry, native, parry_convex_polyhedron, parry_pose, to_parry,
};
use crate::shape::{Shape, SupportMap};

/// Our shape seen through parry's `SupportMap` trait, so parry's GJK can run on it.
pub struct AsParry<'s>(pub &'s Shape);

impl ParrySupportMap for AsParry<'_> {
    fn local_support_point(&self, dir: ParryVector) -> ParryVector {
        to_parry(self.0.local_support(from_parry(dir)))
    }
}

/// Distance between A (at the identity) and B (at `b_in_a`) computed by parry's GJK on
/// our support maps: the peer we time against, and a reference for curved shapes.
pub fn parry_gjk_distance(a: &Shape, b: &Shape, b_in_a: &RelativePose) -> f64 {
    let pos12 = parry_pose(b_in_a);
    parry3d_f64::query::details::distance_support_map_support_map(&pos12, &AsParry(a), &AsParry(b))
}

/// Parry's closest points by its GJK, with the distance, or `None` when parry reports
/// intersection or gives up.
pub fn parry_gjk_closest_points(
    a: &Shape,
    b: &Shape,
    b_in_a: &RelativePose,
) -> Option<(f64, DVec3, DVec3)> {
    use parry3d_f64::query::gjk::{self, CsoPoint, GJKResult, VoronoiSimplex};
    let pos12 = parry_pose(b_in_a);
    let (ga, gb) = (AsParry(a), AsParry(b));
    let dir = -pos12.translation;
    let dir = if dir.length() > 1e-12 {
        dir.normalize()
    } else {
        ParryVector::X
    };
    let mut simplex = VoronoiSimplex::new();
    simplex.reset(CsoPoint::from_shapes(&pos12, &ga, &gb, dir));
    match gjk::closest_points(&pos12, &ga, &gb, f64::MAX, true, &mut simplex) {
        GJKResult::ClosestPoints(p1, p2, _) => {
            let (p1, p2) = (from_parry(p1), from_parry(p2));
            Some(((p1 - p2).length(), p1, p2))
        }
        _ => None,
    }
}

/// Parry's own exact query on its native shapes where one exists (ball, cuboid, capsule,
/// cylinder, cone, convex polyhedron); `None` for kinds parry has no shape for.
pub fn parry_native_distance(a: &Shape, b: &Shape, b_in_a: &RelativePose) -> Option<f64> {
    let sa = native(a)?;
    let sb = native(b)?;
    let pos12 = parry_pose(b_in_a);
    parry3d_f64::query::distance(&ParryPose::IDENTITY, sa.as_ref(), &pos12, sb.as_ref())
        .ok()
        .map(|d| d.distance)
}

/// parry3d-f64's penetration query on the same pair: depth and normal (A's frame, the
/// direction to move B out), or `None` when parry finds no contact or its EPA fails.
/// Its own dispatcher on its native shapes (special cases such as ball–ball included,
/// as a parry user gets them); its GJK + EPA on our supports for kinds it lacks.
pub fn parry_penetration(a: &Shape, b: &Shape, b_in_a: &RelativePose) -> Option<(f64, DVec3)> {
    let pos12 = parry_pose(b_in_a);
    let contact = match (native(a), native(b)) {
        (Some(na), Some(nb)) => {
            parry3d_f64::query::contact(&ParryPose::IDENTITY, na.as_ref(), &pos12, nb.as_ref(), 0.0)
                .ok()
                .flatten()?
        }
        _ => parry3d_f64::query::details::contact_support_map_support_map(
            &pos12,
            &AsParry(a),
            &AsParry(b),
            0.0,
        )?,
    };
    (contact.dist <= 0.0).then(|| (-contact.dist, from_parry(contact.normal1)))
}

/// parry3d-f64's time of impact (`cast_shapes`) of B moving by `t·velocity` (A's
/// frame), t ∈ [0, 1], against A still: `Some(Some(t))` on impact, `Some(None)` when
/// parry finds none, `None` for kinds parry has no native shape for.
pub fn parry_time_of_impact(
    a: &Shape,
    b: &Shape,
    b_in_a: &RelativePose,
    velocity: DVec3,
) -> Option<Option<f64>> {
    let motion = Motion {
        velocity,
        spin: DVec3::ZERO,
    };
    parry_time_of_impact_moving(a, b, b_in_a, motion).map(|hit| hit.map(|h| h.time))
}

/// What parry's cast reports: its time and how it ended (parry returns a time with
/// "failed" or "out of iterations" too, as a "conservative approximation").
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ParryCast {
    pub time: f64,
    pub status: &'static str,
}

/// Which of parry's casts [`parry_time_of_impact_moving`] uses for `motion`.
pub fn parry_cast_query(motion: &Motion) -> &'static str {
    if motion.spin == DVec3::ZERO {
        "cast_shapes"
    } else {
        "cast_shapes_nonlinear"
    }
}

/// The same for a motion that may turn B about its own origin: parry's
/// `cast_shapes_nonlinear` then (its `NonlinearRigidMotion` with the local centre at
/// B's origin moves B exactly as [`Motion::pose_at`] does).
pub fn parry_time_of_impact_moving(
    a: &Shape,
    b: &Shape,
    b_in_a: &RelativePose,
    motion: Motion,
) -> Option<Option<ParryCast>> {
    use parry3d_f64::query::ShapeCastStatus;
    let (na, nb) = (native(a)?, native(b)?);
    let hit = if parry_cast_query(&motion) == "cast_shapes" {
        let options = parry3d_f64::query::ShapeCastOptions {
            max_time_of_impact: 1.0,
            target_distance: 0.0,
            stop_at_penetration: true,
            compute_impact_geometry_on_penetration: true,
        };
        parry3d_f64::query::cast_shapes(
            &ParryPose::IDENTITY,
            to_parry(DVec3::ZERO),
            na.as_ref(),
            &parry_pose(b_in_a),
            to_parry(motion.velocity),
            nb.as_ref(),
            options,
        )
    } else {
        use parry3d_f64::query::NonlinearRigidMotion;
        let still = NonlinearRigidMotion::constant_position(ParryPose::IDENTITY);
        let moving = NonlinearRigidMotion::new(
            parry_pose(b_in_a),
            to_parry(DVec3::ZERO),
            to_parry(motion.velocity),
            to_parry(motion.spin),
        );
        parry3d_f64::query::cast_shapes_nonlinear(
            &still,
            na.as_ref(),
            &moving,
            nb.as_ref(),
            0.0,
            1.0,
            true,
        )
    }
    .ok()?;
    Some(hit.map(|h| ParryCast {
        time: h.time_of_impact,
        status: match h.status {
            ShapeCastStatus::Converged => "converged",
            ShapeCastStatus::OutOfIterations => "out of iterations",
            ShapeCastStatus::Failed => "failed",
            ShapeCastStatus::PenetratingOrWithinTargetDist => "touching at the start",
        },
    }))
}

/// A bounding-volume hierarchy over boxes (parry3d-f64's `Bvh`, binned SAH build): the
/// midphase of meshes. Leaves are numbered as the boxes were given.
pub struct BoxTree(parry3d_f64::partitioning::Bvh);

impl BoxTree {
    pub fn new(boxes: impl IntoIterator<Item = crate::shape::Aabb>) -> Self {
        use parry3d_f64::bounding_volume::Aabb as ParryAabb;
        let leaves: Vec<ParryAabb> = boxes
            .into_iter()
            .map(|b| ParryAabb::new(to_parry(b.min), to_parry(b.max)))
            .collect();
        Self(parry3d_f64::partitioning::Bvh::from_leaves(
            parry3d_f64::partitioning::BvhBuildStrategy::Binned,
            &leaves,
        ))
    }

    /// The leaf of least cost, children visited nearest first: `node_cost` gives a node's
    /// box a cost no leaf inside it can beat (a node whose cost is not below the best
    /// found so far is pruned), `leaf_cost` a leaf's own cost (`None`: no candidate).
    pub fn nearest_leaf(
        &self,
        node_cost: impl Fn(crate::shape::Aabb, f64) -> f64,
        leaf_cost: impl Fn(u32, f64) -> Option<f64>,
    ) -> Option<(u32, f64)> {
        self.nearest_leaf_below(f64::INFINITY, node_cost, leaf_cost)
    }

    /// [`Self::nearest_leaf`] among leaves of cost below `bound` (nodes whose cost is not
    /// below it are pruned from the start).
    pub fn nearest_leaf_below(
        &self,
        bound: f64,
        node_cost: impl Fn(crate::shape::Aabb, f64) -> f64,
        leaf_cost: impl Fn(u32, f64) -> Option<f64>,
    ) -> Option<(u32, f64)> {
        self.0.find_best(
            bound,
            |node, best| {
                node_cost(
                    crate::shape::Aabb {
                        min: from_parry(node.mins()),
                        max: from_parry(node.maxs()),
                    },
                    best,
                )
            },
            leaf_cost,
        )
    }
}

impl BoxTree {
    /// Every leaf whose box, and whose ancestors' boxes, `keep` accepts.
    pub fn leaves_where(&self, keep: impl Fn(crate::shape::Aabb) -> bool) -> Vec<u32> {
        self.0
            .leaves(|node| {
                keep(crate::shape::Aabb {
                    min: from_parry(node.mins()),
                    max: from_parry(node.maxs()),
                })
            })
            .collect()
    }
}
