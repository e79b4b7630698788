//! Boxes in closed form (the default; `epa: (closed_forms: false)` hands them to EPA so
//! its expansions can be watched): a point core (a sphere) against a box core by the
//! box's nearest point or face, and a box against a box by the separating-axis theorem (Gottschalk, Lin
//! and Manocha, "OBBTree: A Hierarchical Structure for Rapid Interference Detection";
//! Ericson, "Real-Time Collision Detection" §4.4), as parry answers them.
//!
//! Two convex polytopes' penetration depth is the smallest overlap of their projections
//! over the normals of the faces of their Minkowski difference; for two boxes those are
//! among 15 axes (A's three face normals, B's three, and the nine cross products of an
//! edge of each). The overlap along any unit axis bounds the depth from above, so an
//! axis the rounding tilts a little can only overestimate, never undercut, the minimum.
//! Clear overlaps and gaps are answered here, and touching within round-off: the
//! smallest overlap over the 15 axes within the rounding of its own arithmetic bounds
//! the depth, and a point of each box as close proves the contact. Anything between (a
//! gap or an overlap above round-off but below a billionth of the scene's size) GJK and
//! EPA decide, with their certificates: a gap that small is still a separating plane.

use glam::DVec3;

use super::closed_form::CoreContact;
use super::gjk_settings_for_epa;
use crate::minkowski::MinkowskiDifference;
use crate::pose::RelativePose;
use crate::shape::{Cuboid, Shape, SupportMap};
use crate::solver::{run_gjk, DirectionRule, Outcome};

/// Overlaps below this fraction of the scene's size are left to GJK and EPA.
const CLEAR_OVERLAP: f64 = 1e-9;

/// The rounding of an overlap or a gap computed from the boxes (a few products and sums
/// of numbers up to the scene's size), as a fraction of that size: within it, touching.
const ROUNDING: f64 = 16.0 * f64::EPSILON;

/// What the closed forms answer for a box core against a point or a box core.
pub(super) enum BoxAnswer {
    /// A contact known exactly (a touch has signed distance 0; a point may be apart).
    Contact(CoreContact),
    /// Two boxes apart: `distance` between `on_a` and `on_b`, proved at least
    /// `lower_bound` by a separating axis.
    Apart {
        distance: f64,
        lower_bound: f64,
        on_a: DVec3,
        on_b: DVec3,
    },
}

/// The answer for a box core with a point or box core (A's frame), when they clearly
/// overlap, are clearly apart or touch within round-off; `None` for any other pair, or
/// in between.
pub(super) fn box_core_contact(a: &Shape, b: &Shape, b_in_a: RelativePose) -> Option<BoxAnswer> {
    match (a, b) {
        (Shape::Cuboid(ca), Shape::Point(_)) => {
            point_in_box(ca.half_extents(), b_in_a.translation).map(BoxAnswer::Contact)
        }
        (Shape::Point(_), Shape::Cuboid(cb)) => {
            // A's point in B's frame; the normal that pushes A out of B pushes B the
            // other way.
            let (r, t) = (b_in_a.rotation, b_in_a.translation);
            let c = point_in_box(cb.half_extents(), r.transpose() * -t)?;
            Some(BoxAnswer::Contact(CoreContact {
                signed_distance: c.signed_distance,
                normal: -(r * c.normal),
                on_a: DVec3::ZERO,
                on_b: r * c.on_a + t,
            }))
        }
        (Shape::Cuboid(ca), Shape::Cuboid(cb)) => box_pair(a, b, ca, cb, b_in_a),
        (Shape::Cuboid(ca), Shape::Capsule(s)) if s.radius() == 0.0 => {
            let axis = b_in_a.rotation.col(1) * s.half_height();
            let t = b_in_a.translation;
            segment_over_face(ca.half_extents(), t + axis, t - axis).map(BoxAnswer::Contact)
        }
        (Shape::Capsule(s), Shape::Cuboid(cb)) if s.radius() == 0.0 => {
            // A's segment in B's frame; as for a point, the normal flips back.
            let (r, t) = (b_in_a.rotation, b_in_a.translation);
            let axis = r.transpose() * (DVec3::Y * s.half_height());
            let centre = r.transpose() * -t;
            let c = segment_over_face(cb.half_extents(), centre + axis, centre - axis)?;
            Some(BoxAnswer::Contact(CoreContact {
                signed_distance: c.signed_distance,
                normal: -(r * c.normal),
                on_a: r * c.on_b + t,
                on_b: r * c.on_a + t,
            }))
        }
        _ => None,
    }
}

/// A point `p` against a box of half extents `h` (the box's frame): outside, its
/// distance to the box's nearest point and the direction from there; inside, the depth
/// to its nearest face (negative), that face's outward normal and the point on it.
/// On the boundary within round-off, touching (the nearest point and the point); a
/// hair further in or out (below a billionth of the size), `None` (GJK and EPA decide).
fn point_in_box(h: DVec3, p: DVec3) -> Option<CoreContact> {
    let margin = CLEAR_OVERLAP * (h.length() + p.length());
    let slack = ROUNDING * (h.length() + p.length());
    let nearest = p.clamp(-h, h);
    if nearest != p {
        let v = p - nearest;
        let d = v.length();
        if d <= slack {
            return Some(CoreContact {
                signed_distance: 0.0,
                normal: v.normalize_or(v.signum()),
                on_a: nearest,
                on_b: p,
            });
        }
        return (d > margin).then(|| CoreContact {
            signed_distance: d,
            normal: v / d,
            on_a: nearest,
            on_b: p,
        });
    }
    let depths = h - p.abs();
    let axis = if depths.x <= depths.y && depths.x <= depths.z {
        0
    } else if depths.y <= depths.z {
        1
    } else {
        2
    };
    let depth = depths[axis];
    if depth > slack && depth <= margin {
        return None;
    }
    let mut normal = DVec3::ZERO;
    normal[axis] = if p[axis] < 0.0 { -1.0 } else { 1.0 };
    let mut on_face = p;
    on_face[axis] = normal[axis] * h[axis];
    Some(CoreContact {
        // On the face within the tolerance: touching.
        signed_distance: if depth <= slack { 0.0 } else { -depth },
        normal,
        on_a: on_face,
        on_b: p,
    })
}

/// A segment `[p, q]` (a capsule's core) wholly over one face of a box of half extents
/// `h` (both ends beyond the face's plane, both projecting into the face): every point
/// of the segment is then nearest the face point straight below it, so the segment's
/// distance is its lower end's, in closed form ([`point_in_box`]). `None` otherwise
/// (an end over an edge or beside the box: GJK decides).
fn segment_over_face(h: DVec3, p: DVec3, q: DVec3) -> Option<CoreContact> {
    let over = (0..3).find(|&k| {
        let beyond = |x: DVec3| x[k].abs() > h[k] && (0..3).all(|i| i == k || x[i].abs() <= h[i]);
        beyond(p) && beyond(q) && (p[k] > 0.0) == (q[k] > 0.0)
    })?;
    let lower = if p[over].abs() <= q[over].abs() { p } else { q };
    let contact = point_in_box(h, lower)?;
    // The point's answer is the segment's only when it is the face's.
    (contact.normal[over] != 0.0 && contact.signed_distance >= 0.0).then_some(contact)
}

/// A box core against a core with an exact support (a cylinder, a cone, a hull, a
/// capsule's segment) that it clearly overlaps, when one face of the box decides: for
/// the box's face normal `n` under which the other core reaches deepest, that deepest
/// point `p` (its support along −n) lies inside the box and nearer to `n`'s face than
/// to any other. Then the depth is `p`'s depth below that face, exactly: A ⊖ B
/// reaches no further than it along `n` (its support there), and holds the ball of
/// that radius about the origin (A − p, a box, does). A cylinder standing on a face, a
/// hull resting on one. `None` when another face is as near, or the pair touches or
/// is apart (the other closed forms, GJK and EPA decide). Used by the contact family,
/// which asks for the normal alone; EPA's own run keeps its expansions to show.
pub(super) fn face_over_deepest_point(
    a: &Shape,
    b: &Shape,
    b_in_a: RelativePose,
) -> Option<CoreContact> {
    let exact_support = |s: &Shape| {
        matches!(
            s,
            Shape::Cylinder(_) | Shape::Cone(_) | Shape::Polytope(_) | Shape::Capsule(_)
        )
    };
    match (a, b) {
        (Shape::Cuboid(ca), other) if exact_support(other) => {
            deepest_under_a_face(ca.half_extents(), other, b_in_a)
        }
        (other, Shape::Cuboid(cb)) if exact_support(other) => {
            // In B's frame A is the other core; the normal that pushes A out of B pushes
            // B the other way.
            let (r, t) = (b_in_a.rotation, b_in_a.translation);
            let c = deepest_under_a_face(cb.half_extents(), other, b_in_a.inverse())?;
            Some(CoreContact {
                signed_distance: c.signed_distance,
                normal: -(r * c.normal),
                on_a: r * c.on_b + t,
                on_b: r * c.on_a + t,
            })
        }
        _ => None,
    }
}

/// [`face_over_deepest_point`] for a box of half extents `h` (its own frame) and
/// `other` at `pose`: over the six faces, the one the other core reaches deepest under
/// (its support point against the face's normal), answered by [`point_in_box`] when
/// that point's nearest face is the same one and it lies inside.
fn deepest_under_a_face(h: DVec3, other: &Shape, pose: RelativePose) -> Option<CoreContact> {
    let (r, t) = (pose.rotation, pose.translation);
    let mut best: Option<(f64, DVec3, DVec3)> = None;
    for axis in 0..3 {
        for sign in [1.0, -1.0] {
            let mut n = DVec3::ZERO;
            n[axis] = sign;
            let deepest = r * other.local_support(r.transpose() * -n) + t;
            let depth = h[axis] - sign * deepest[axis];
            if best.is_none_or(|(d, ..)| depth < d) {
                best = Some((depth, n, deepest));
            }
        }
    }
    let (_, n, deepest) = best?;
    let contact = point_in_box(h, deepest)?;
    (contact.signed_distance < 0.0 && contact.normal == n).then_some(contact)
}

/// The size the boxes' tolerances are relative to.
fn size(ha: DVec3, hb: DVec3, b_in_a: RelativePose) -> f64 {
    size_from(ha.length() + hb.length(), b_in_a)
}

/// [`size`] from the sum of the boxes' extents (a `Cuboid` keeps its own).
fn size_from(extents: f64, b_in_a: RelativePose) -> f64 {
    extents + b_in_a.translation.length()
}

/// The smallest overlap of the boxes' projections over the 15 axes (negative: a gap)
/// and its axis, pointing from A to B. Every axis's overlap bounds the depth above.
///
/// In the rotation's entries `R[a][b] = e_a · B_b` and their absolute values, as
/// Gottschalk, Lin and Manocha's OBB test reads them (Ericson, "Real-Time Collision
/// Detection" §4.4.1): along A's face normal `e_i`, B's half width is `Σ_b h_b |R[i][b]|`;
/// along the cross product `L = e_i × B_j`, A's half width is `a[i1] |R[i2][j]| +
/// a[i2] |R[i1][j]|`, B's `b[j1] |R[i][j2]| + b[j2] |R[i][j1]|`, and the centres' offset
/// `t[i2] R[i1][j] − t[i1] R[i2][j]`, all divided by `|L|` (the axes in
/// `candidate_axes`' order and with its rule for parallel edges; no axis built until
/// it wins).
fn overlap_over_axes(ha: DVec3, hb: DVec3, b_in_a: RelativePose) -> (f64, DVec3) {
    let (r, t) = (b_in_a.rotation, b_in_a.translation);
    let columns = [r.x_axis, r.y_axis, r.z_axis];
    let entry = |a: usize, b: usize| columns[b][a];
    let m: [[f64; 3]; 3] = std::array::from_fn(|a| std::array::from_fn(|b| entry(a, b)));
    let abs: [[f64; 3]; 3] = std::array::from_fn(|a| std::array::from_fn(|b| m[a][b].abs()));
    let mut best = (f64::INFINITY, DVec3::X);
    let keep = |best: &mut (f64, DVec3), overlap: f64, along_t: f64, axis: &dyn Fn() -> DVec3| {
        if overlap < best.0 {
            let axis = axis();
            *best = (overlap, if along_t < 0.0 { -axis } else { axis });
        }
    };
    for i in 0..3 {
        let rb = hb.x * abs[i][0] + hb.y * abs[i][1] + hb.z * abs[i][2];
        keep(&mut best, ha[i] + rb - t[i].abs(), t[i], &|| DVec3::AXES[i]);
    }
    for j in 0..3 {
        let ra = ha.x * abs[0][j] + ha.y * abs[1][j] + ha.z * abs[2][j];
        let along = columns[j].dot(t);
        keep(&mut best, ra + hb[j] - along.abs(), along, &|| columns[j]);
    }
    for i in 0..3 {
        let (i1, i2) = ((i + 1) % 3, (i + 2) % 3);
        for j in 0..3 {
            let (j1, j2) = ((j + 1) % 3, (j + 2) % 3);
            let length_squared = m[i1][j] * m[i1][j] + m[i2][j] * m[i2][j];
            if length_squared <= 1e-24 {
                continue;
            }
            let ra = ha[i1] * abs[i2][j] + ha[i2] * abs[i1][j];
            let rb = hb[j1] * abs[i][j2] + hb[j2] * abs[i][j1];
            let along = t[i2] * m[i1][j] - t[i1] * m[i2][j];
            let length = length_squared.sqrt();
            let overlap = (ra + rb - along.abs()) / length;
            keep(&mut best, overlap, along, &|| {
                DVec3::AXES[i].cross(columns[j]) / length
            });
        }
    }
    best
}

/// Two boxes touching within round-off: the smallest overlap over the axes that close
/// to 0 (the depth is at most it, and no axis separates them by more),
/// and a point of each box that close together (the distance is at most it): a vertex
/// on the other's face, the nearest points of two crossing edges, or else by projecting
/// onto each box in turn from the midpoint of the centres (von Neumann's alternating
/// projections, which reach two faces flush in a step). The touch's normal is the
/// smallest overlap's axis; `None` when either proof fails.
fn touching_boxes(
    (ha, hb): (DVec3, DVec3),
    b_in_a: RelativePose,
    (overlap, normal): (f64, DVec3),
) -> Option<CoreContact> {
    let slack = ROUNDING * size(ha, hb, b_in_a);
    if overlap.abs() > slack {
        return None;
    }
    let (r, t) = (b_in_a.rotation, b_in_a.translation);
    // Each point moved onto its box (a hair off by round-off), then measured.
    let on_boxes = |(a, b): (DVec3, DVec3)| {
        let on_a = a.clamp(-ha, ha);
        let on_b = t + r * (r.transpose() * (b - t)).clamp(-hb, hb);
        ((on_a - on_b).length() <= slack).then_some((on_a, on_b))
    };
    let alternating = || alternating_projections((ha, hb), b_in_a, slack, 4);
    let (on_a, on_b) = vertex_witnesses(ha, hb, b_in_a, overlap, normal)
        .and_then(on_boxes)
        .or_else(|| edge_witnesses(ha, hb, b_in_a, overlap, normal).and_then(on_boxes))
        .or_else(alternating)?;
    Some(CoreContact {
        signed_distance: 0.0,
        normal,
        on_a,
        on_b,
    })
}

/// Two boxes apart: the distance and its proof in closed form, when the separating
/// axis of the largest gap meets a vertex of one box on the other's face, or two edges
/// (the pair [`vertex_witnesses`] or [`edge_witnesses`] finds): the gap along that axis
/// bounds the distance below and the pair, as far apart within round-off, above. `None`
/// when no such pair realises the gap (GJK measures those).
fn separated_boxes(
    (ha, hb): (DVec3, DVec3),
    b_in_a: RelativePose,
    (overlap, normal): (f64, DVec3),
) -> Option<BoxAnswer> {
    let gap = -overlap;
    let (on_a, on_b) = vertex_witnesses(ha, hb, b_in_a, overlap, normal)
        .or_else(|| edge_witnesses(ha, hb, b_in_a, overlap, normal))?;
    let (r, t) = (b_in_a.rotation, b_in_a.translation);
    let on_a = on_a.clamp(-ha, ha);
    let on_b = t + r * (r.transpose() * (on_b - t)).clamp(-hb, hb);
    let distance = (on_a - on_b).length();
    // The pair realises the gap (a relative 1e-9: what GJK's stage certifies).
    (distance <= gap * (1.0 + 1e-9)).then_some(BoxAnswer::Apart {
        distance,
        lower_bound: gap.min(distance),
        on_a,
        on_b,
    })
}

/// Two boxes, by one sweep over the 15 axes: clearly overlapping, the depth and normal
/// of the smallest overlap and the deepest point pair ([`deepest_pair`]); clearly apart,
/// [`separated_boxes`]; in between, [`touching_boxes`].
fn box_pair(
    a: &Shape,
    b: &Shape,
    ca: &Cuboid,
    cb: &Cuboid,
    b_in_a: RelativePose,
) -> Option<BoxAnswer> {
    let (ha, hb) = (ca.half_extents(), cb.half_extents());
    let (sweep, clear) = overlap_and_clearance(ca, cb, b_in_a);
    let (depth, normal) = sweep;
    if depth > clear {
        let (on_a, on_b) = deepest_pair(a, b, b_in_a, depth, normal)?;
        Some(BoxAnswer::Contact(CoreContact {
            signed_distance: -depth,
            normal,
            on_a,
            on_b,
        }))
    } else if depth < -clear {
        separated_boxes((ha, hb), b_in_a, sweep)
    } else {
        touching_boxes((ha, hb), b_in_a, sweep).map(BoxAnswer::Contact)
    }
}

/// Two boxes' smallest overlap over the separating axes, (depth, normal), and the
/// clearance a depth must exceed to prove them overlapping.
fn overlap_and_clearance(ca: &Cuboid, cb: &Cuboid, b_in_a: RelativePose) -> ((f64, DVec3), f64) {
    let sweep = overlap_over_axes(ca.half_extents(), cb.half_extents(), b_in_a);
    let clear = CLEAR_OVERLAP * size_from(ca.extent() + cb.extent(), b_in_a);
    (sweep, clear)
}

/// The depth and normal of two boxes that clearly overlap (the separating axis test,
/// as [`box_core_contact`] answers them), without their point pair: the contact
/// family's clipping seldom needs it, and [`deepest_pair`] gives it when it does.
pub(crate) fn clear_box_overlap(
    a: &Shape,
    b: &Shape,
    b_in_a: RelativePose,
) -> Option<(f64, DVec3)> {
    let (Shape::Cuboid(ca), Shape::Cuboid(cb)) = (a, b) else {
        return None;
    };
    let (sweep, clear) = overlap_and_clearance(ca, cb, b_in_a);
    (sweep.0 > clear).then_some(sweep)
}

/// Points of two boxes (A's frame) with `on_a − on_b = depth · normal`, for the normal
/// and depth of their smallest overlap (0: touching): a vertex laid on a face by the push
/// ([`vertex_witnesses`]), or else GJK's nearest points once B is pushed out along the
/// normal past the contact (a face's Voronoi region is the prism over it, so the pair
/// GJK finds there is the one the push brings together).
pub fn deepest_pair(
    a: &Shape,
    b: &Shape,
    b_in_a: RelativePose,
    depth: f64,
    normal: DVec3,
) -> Option<(DVec3, DVec3)> {
    let (Shape::Cuboid(ca), Shape::Cuboid(cb)) = (a, b) else {
        return None;
    };
    let (ha, hb) = (ca.half_extents(), cb.half_extents());
    let extents = ca.extent() + cb.extent();
    if let Some(pair) = vertex_witnesses(ha, hb, b_in_a, depth, normal)
        .or_else(|| edge_witnesses(ha, hb, b_in_a, depth, normal))
        .or_else(|| flush_faces_pair((ha, hb, extents), b_in_a, depth, normal))
        .or_else(|| edge_on_face_pair(ha, hb, b_in_a, depth, normal))
        .or_else(|| {
            // A's edge on B's face: the same, seen from B (A at the inverse pose, the
            // normal from B towards A).
            let inverse = b_in_a.inverse();
            let in_b = b_in_a.inverse_rotate(-normal);
            edge_on_face_pair(hb, ha, inverse, depth, in_b)
                .map(|(on_b, on_a)| (b_in_a.transform_point(on_a), b_in_a.transform_point(on_b)))
        })
    {
        return Some(pair);
    }
    let push = depth + extents;
    let pushed = RelativePose {
        translation: b_in_a.translation + normal * push,
        ..b_in_a
    };
    let settings = gjk_settings_for_epa();
    let md = MinkowskiDifference::new(a, b, pushed);
    let run = run_gjk(md, DirectionRule::Vanilla, settings, &[]);
    if !matches!(run.outcome, Outcome::Separated { .. }) {
        return None;
    }
    let (on_a, pushed_b) = run.witness_a.zip(run.witness_b)?;
    Some((on_a, pushed_b - normal * push))
}

/// The deepest point pair when the push `depth · n` lays a face of one box flush on a
/// face of the other (a box resting on another, the commonest contact of all): from
/// the midpoint of the pushed centres, project onto A's box and B's in turn (von
/// Neumann's alternating projections meet in a step or two where two parallel faces
/// overlap); the pair when they meet within round-off, `None` otherwise (GJK finds it).
fn flush_faces_pair(
    (ha, hb, extents): (DVec3, DVec3, f64),
    b_in_a: RelativePose,
    depth: f64,
    normal: DVec3,
) -> Option<(DVec3, DVec3)> {
    // B pushed out along the normal by the depth: touching.
    let pushed = RelativePose {
        translation: b_in_a.translation + normal * depth,
        ..b_in_a
    };
    let tolerance = PAIR_TOLERANCE * size_from(extents, pushed);
    let (on_a, on_b) = alternating_projections((ha, hb), pushed, tolerance, 3)?;
    let on_b = on_b - normal * depth;
    // The pair realises the push within round-off (what the others check).
    ((on_a - on_b - normal * depth).length() <= tolerance).then_some((on_a, on_b))
}

/// A point of each box within `tolerance` of each other, by projecting onto A's box
/// and B's in turn from the midpoint of their centres (von Neumann's alternating
/// projections: where two faces lie flush they meet in a step or two); `None` when
/// `rounds` do not bring them that close.
fn alternating_projections(
    (ha, hb): (DVec3, DVec3),
    b_in_a: RelativePose,
    tolerance: f64,
    rounds: usize,
) -> Option<(DVec3, DVec3)> {
    let (r, t) = (b_in_a.rotation, b_in_a.translation);
    let mut p = t * 0.5;
    for _ in 0..rounds {
        let on_a = p.clamp(-ha, ha);
        let on_b = t + r * (r.transpose() * (on_a - t)).clamp(-hb, hb);
        if (on_a - on_b).length() <= tolerance {
            return Some((on_a, on_b));
        }
        p = on_b;
    }
    None
}

/// The deepest point pair when the normal is A's face normal and B's deepest feature
/// against it an edge (a box tipped by a hair about one of its axes, resting on an
/// edge): the part of that edge whose push `depth · n` lands on A's face (the edge
/// clipped to the face's slabs, Liang and Barsky's parametric clipping), its midpoint
/// and the pushed image. `None` when the edge misses the face or the pair does not
/// realise the push within round-off.
fn edge_on_face_pair(
    ha: DVec3,
    hb: DVec3,
    b_in_a: RelativePose,
    depth: f64,
    normal: DVec3,
) -> Option<(DVec3, DVec3)> {
    let (r, t) = (b_in_a.rotation, b_in_a.translation);
    let tolerance = pair_tolerance(ha, hb, b_in_a);
    let zero = |n: DVec3, i: usize| n[i].abs() <= 1e-9;
    // A's face: the one axis the normal is along.
    let k = only_one((0..3).filter(|&i| !zero(normal, i)))?;
    // B's edge: the one free axis of its deepest feature along −n.
    let in_b = r.transpose() * -normal;
    let j = only_one((0..3).filter(|&i| zero(in_b, i)))?;
    let mut base = in_b.signum() * hb;
    base[j] = 0.0;
    let (start, direction) = (t + r * base + normal * depth, r.col(j));
    // u in [−hb_j, hb_j] with start + u·direction inside A's slabs across the face.
    let (mut lo, mut hi) = (-hb[j], hb[j]);
    for i in (0..3).filter(|&i| i != k) {
        let (p, d) = (start[i], direction[i]);
        if d.abs() <= f64::MIN_POSITIVE {
            if p.abs() > ha[i] {
                return None;
            }
            continue;
        }
        let (u0, u1) = ((-ha[i] - p) / d, (ha[i] - p) / d);
        lo = lo.max(u0.min(u1));
        hi = hi.min(u0.max(u1));
    }
    if lo > hi {
        return None;
    }
    let u = 0.5 * (lo + hi);
    let on_b = t + r * (base + DVec3::AXES[j] * u);
    let on_a = (on_b + normal * depth).clamp(-ha, ha);
    ((on_a - on_b - normal * depth).length() <= tolerance).then_some((on_a, on_b))
}

/// How far a deepest pair may miss realising the push `depth · n` (round-off of the
/// boxes' and the pose's numbers).
fn pair_tolerance(ha: DVec3, hb: DVec3, b_in_a: RelativePose) -> f64 {
    PAIR_TOLERANCE * size(ha, hb, b_in_a)
}

/// [`pair_tolerance`] as a fraction of the pair's [`size`].
const PAIR_TOLERANCE: f64 = 1e-10;

/// The one item of `items`, `None` when there are none or several.
fn only_one(mut items: impl Iterator<Item = usize>) -> Option<usize> {
    let first = items.next()?;
    items.next().is_none().then_some(first)
}

/// The deepest point pair when one box's deepest vertex along the normal is unique
/// and the push `depth · n` lays it on the other box (a vertex against a face, the
/// commonest contact): that vertex and its pushed image. `None` otherwise (an edge or
/// face of each, or edges crossing): GJK finds the pair.
fn vertex_witnesses(
    ha: DVec3,
    hb: DVec3,
    b_in_a: RelativePose,
    depth: f64,
    normal: DVec3,
) -> Option<(DVec3, DVec3)> {
    let (r, t) = (b_in_a.rotation, b_in_a.translation);
    // Measured only when a vertex is unique (a face against a face has none).
    let tolerance = || pair_tolerance(ha, hb, b_in_a);
    let unique = |n: DVec3| n.abs().min_element() > 1e-9;
    // B's vertex deepest along −n (B's frame signs), laid on A's face.
    let in_b = r.transpose() * normal;
    if unique(in_b) {
        let on_b = t + r * (-in_b.signum() * hb);
        let on_a = on_b + normal * depth;
        if (on_a.abs() - ha).max_element() <= tolerance() {
            return Some((on_a, on_b));
        }
    }
    // A's vertex deepest along +n, laid on B's face.
    if unique(normal) {
        let on_a = normal.signum() * ha;
        let on_b = on_a - normal * depth;
        let local = r.transpose() * (on_b - t);
        if (local.abs() - hb).max_element() <= tolerance() {
            return Some((on_a, on_b));
        }
    }
    None
}

/// The deepest point pair when the normal is across an edge of each box (the normal
/// perpendicular to one axis of each, the others' signs fixing which edges): the
/// nearest points of the two edges' lines, when they lie on the edges and the push
/// `depth · n` brings them together. `None` otherwise.
fn edge_witnesses(
    ha: DVec3,
    hb: DVec3,
    b_in_a: RelativePose,
    depth: f64,
    normal: DVec3,
) -> Option<(DVec3, DVec3)> {
    let (r, t) = (b_in_a.rotation, b_in_a.translation);
    // A's edge deepest along +n and B's along −n (B's frame): the one free axis each.
    let edge = |n: DVec3, h: DVec3| -> Option<(usize, DVec3)> {
        let axis = only_one((0..3).filter(|&i| n[i].abs() <= 1e-9))?;
        let mut base = n.signum() * h;
        base[axis] = 0.0;
        Some((axis, base))
    };
    let (i, base_a) = edge(normal, ha)?;
    let (j, base_b) = edge(r.transpose() * -normal, hb)?;
    // The nearest points of the lines base_a + s·e_i and t + R(base_b + u·e_j)
    // (Ericson, "Real-Time Collision Detection" §5.1.9).
    let (d1, d2) = (DVec3::AXES[i], r.col(j));
    let p2 = t + r * base_b;
    let offset = base_a - p2;
    let (b, c, f) = (d1.dot(d2), d1.dot(offset), d2.dot(offset));
    let denom = 1.0 - b * b;
    if denom <= 1e-12 {
        return None;
    }
    let s = (b * f - c) / denom;
    let u = b * s + f;
    let tolerance = pair_tolerance(ha, hb, b_in_a);
    if s.abs() > ha[i] + tolerance || u.abs() > hb[j] + tolerance {
        return None;
    }
    let (on_a, on_b) = (base_a + d1 * s, p2 + d2 * u);
    ((on_a - on_b - normal * depth).length() <= tolerance).then_some((on_a, on_b))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shape::PointShape;
    use glam::DMat3;

    fn at(rotation: DMat3, t: DVec3) -> RelativePose {
        RelativePose::from_matrix(rotation, t)
    }

    /// The smallest overlap of two boxes over the 15 axes and the axis (pointing from A to
    /// B), or `None` when some axis separates them or the overlap is not clear.
    fn smallest_overlap(ha: DVec3, hb: DVec3, b_in_a: RelativePose) -> Option<(f64, DVec3)> {
        let scale = size(ha, hb, b_in_a);
        Some(overlap_over_axes(ha, hb, b_in_a))
            .filter(|(overlap, _)| *overlap > CLEAR_OVERLAP * scale)
    }

    /// The contact a closed form found (a test that expects one).
    fn contact_of(answer: Option<BoxAnswer>) -> CoreContact {
        match answer {
            Some(BoxAnswer::Contact(c)) => c,
            Some(BoxAnswer::Apart { distance, .. }) => panic!("apart by {distance}"),
            None => panic!("no closed form"),
        }
    }

    #[test]
    fn a_point_inside_a_box_leaves_through_its_nearest_face() {
        let cube = Shape::Cuboid(Cuboid::new(DVec3::new(1.0, 2.0, 3.0)).unwrap());
        let point = Shape::Point(PointShape);
        let c = contact_of(box_core_contact(
            &cube,
            &point,
            at(DMat3::IDENTITY, DVec3::new(0.7, -0.5, 0.0)),
        ));
        assert_eq!(
            (c.signed_distance, c.normal),
            (-0.30000000000000004, DVec3::X)
        );
        assert_eq!(c.on_a, DVec3::new(1.0, -0.5, 0.0));
        // From B's side: the box turned a quarter about z, the point at A's origin.
        let turn = DMat3::from_rotation_z(std::f64::consts::FRAC_PI_2);
        let d = contact_of(box_core_contact(
            &point,
            &cube,
            at(turn, DVec3::new(0.0, 0.5, 0.0)),
        ));
        assert!(
            (d.signed_distance + 0.5).abs() < 1e-15,
            "{}",
            d.signed_distance
        );
        assert!((d.normal - DVec3::Y).length() < 1e-15, "{}", d.normal);
        // Outside: the distance to the nearest point; on a face: touching; a hair inside
        // (above the tolerance, below the rounding of the size): left to GJK and EPA.
        let out = contact_of(box_core_contact(
            &cube,
            &point,
            at(DMat3::IDENTITY, DVec3::new(1.5, 0.0, 3.5)),
        ));
        assert!((out.signed_distance - 0.5f64.hypot(0.5)).abs() < 1e-15);
        assert_eq!(out.on_a, DVec3::new(1.0, 0.0, 3.0));
        let on_face = box_core_contact(&cube, &point, at(DMat3::IDENTITY, DVec3::X));
        let on_face = contact_of(on_face);
        assert_eq!((on_face.signed_distance, on_face.normal), (0.0, DVec3::X));
        let hair = at(DMat3::IDENTITY, DVec3::new(1.0 - 1e-9, 0.0, 0.0));
        assert!(box_core_contact(&cube, &point, hair).is_none());
    }

    /// Over turned boxes at many offsets: where the normal crosses an edge of each, the
    /// edges' nearest points answer (no GJK), on both boxes, `depth · n` apart.
    #[test]
    fn a_capsule_over_a_face_is_answered_as_gjk_and_epa_answer_it() {
        use crate::shape::Capsule;
        use crate::solver::epa::{gjk_settings_for_epa, penetration, EpaSettings};
        let slab = Shape::Cuboid(Cuboid::new(DVec3::new(2.0, 1.5, 0.5)).unwrap());
        let capsule = Shape::Capsule(Capsule::new(0.2, 0.6).unwrap());
        let mut rng = crate::rng::SplitMix64::new(3);
        let (closed, open) = (
            EpaSettings::default(),
            EpaSettings {
                closed_forms: false,
                ..EpaSettings::default()
            },
        );
        let mut answered = 0;
        for trial in 0..400 {
            // Lying on the slab's top, tipped a little, over or beside the face.
            let turn = DMat3::from_rotation_z(rng.range(0.0, 6.3))
                * DMat3::from_rotation_x(rng.range(-0.2, 0.2))
                * DMat3::from_rotation_z(std::f64::consts::FRAC_PI_2);
            let t = DVec3::new(
                rng.range(-2.5, 2.5),
                rng.range(-2.0, 2.0),
                rng.range(0.65, 1.1),
            );
            let (pose, inverse) = (at(turn, t), at(turn, t).inverse());
            for (a, b, pose) in [(&slab, &capsule, pose), (&capsule, &slab, inverse)] {
                let (a_core, b_core) = (a.rounded_core().0, b.rounded_core().0);
                if box_core_contact(&a_core, &b_core, pose).is_some() {
                    answered += 1;
                }
                let ours = penetration(a, b, pose, gjk_settings_for_epa(), closed, None);
                let theirs = penetration(a, b, pose, gjk_settings_for_epa(), open, None);
                let signed = |o: &Outcome| match *o {
                    Outcome::Penetrating { depth, .. } => -depth,
                    Outcome::Separated { distance, .. } => distance,
                    Outcome::Touching { .. } => 0.0,
                    ref other => panic!("trial {trial}: {other}"),
                };
                let (x, y) = (
                    signed(&ours.summary.outcome),
                    signed(&theirs.summary.outcome),
                );
                assert!(
                    (x - y).abs() <= 1e-9,
                    "trial {trial}: closed {x}, GJK/EPA {y}"
                );
                let (on_a, on_b) = ours.witnesses().unwrap();
                assert!(
                    ((on_a - on_b).length() - x.abs()).abs() <= 1e-9,
                    "trial {trial}"
                );
            }
        }
        assert!(answered > 200, "{answered} answered in closed form");
    }

    /// Cylinders, cones, hulls and capsules resting on a box face (standing, tipped,
    /// over an edge, deep or a hair in), on either side of the pair: where a face
    /// decides in closed form, EPA (with its certificate) finds the same depth and
    /// normal, and the point pair is the depth apart along it.
    #[test]
    fn a_shape_resting_on_a_box_face_has_epa_s_depth_in_closed_form() {
        use crate::shape::{Capsule, Cone, Cylinder, Polytope};
        use crate::solver::epa::{
            closed_form_penetration, gjk_settings_for_epa, penetration, ClosedForms, EpaSettings,
        };
        let slab = Shape::Cuboid(Cuboid::new(DVec3::new(2.0, 1.5, 0.5)).unwrap());
        let mut rng = crate::rng::SplitMix64::new(5);
        let cloud: Vec<DVec3> = (0..14).map(|_| rng.vector(0.5)).collect();
        let others = [
            Shape::Cylinder(Cylinder::new(0.4, 0.5).unwrap()),
            Shape::Cone(Cone::new(0.4, 0.5).unwrap()),
            Shape::Polytope(Polytope::from_points(&cloud).unwrap()),
            Shape::Capsule(Capsule::new(0.2, 0.6).unwrap()),
        ];
        let open = EpaSettings {
            closed_forms: false,
            ..EpaSettings::default()
        };
        let mut answered = 0;
        for trial in 0..600 {
            let other = &others[trial % others.len()];
            let standing = DMat3::from_rotation_x(std::f64::consts::FRAC_PI_2);
            let tip = if trial % 3 == 0 {
                0.0
            } else {
                rng.range(-0.3, 0.3)
            };
            let turn = DMat3::from_rotation_z(rng.range(0.0, 6.3))
                * DMat3::from_rotation_x(tip)
                * standing;
            let lowest = -(turn * other.local_support(turn.transpose() * -DVec3::Z)).z;
            let depth = 10f64.powf(rng.range(-6.0, -1.0));
            let t = DVec3::new(
                rng.range(-2.4, 2.4),
                rng.range(-1.9, 1.9),
                0.5 + lowest - depth,
            );
            let (pose, inverse) = (at(turn, t), at(turn, t).inverse());
            for (a, b, pose) in [(&slab, other, pose), (other, &slab, inverse)] {
                let faces_only = ClosedForms {
                    boxes: false,
                    box_faces: true,
                };
                let Some((ours, (on_a, on_b))) = closed_form_penetration(a, b, pose, faces_only)
                else {
                    continue;
                };
                answered += 1;
                let theirs = penetration(a, b, pose, gjk_settings_for_epa(), open, None);
                let (
                    Outcome::Penetrating {
                        depth: x,
                        normal: n,
                    },
                    Outcome::Penetrating {
                        depth: y,
                        normal: m,
                    },
                ) = (&ours, &theirs.summary.outcome)
                else {
                    panic!(
                        "trial {trial}: closed {ours}, EPA {}",
                        theirs.summary.outcome
                    );
                };
                assert!((x - y).abs() <= 1e-9, "trial {trial}: closed {x}, EPA {y}");
                // EPA's normal may turn where the depth is nearly flat; its depth along
                // ours is what matters, and when the depths are far apart from any
                // other face's, the normals agree.
                assert!(
                    (n - m).length() <= 1e-4 || (x - y).abs() <= 1e-12,
                    "trial {trial}: normal {n} against EPA's {m}"
                );
                assert!(((on_a - on_b).dot(*n) - x).abs() <= 1e-12, "trial {trial}");
            }
        }
        assert!(answered > 450, "{answered} answered in closed form");
    }

    #[test]
    fn a_box_tipped_onto_an_edge_has_its_deepest_pair_without_gjk() {
        let slab = DVec3::new(2.0, 2.0, 0.5);
        let cube = DVec3::splat(0.5);
        let mut rng = crate::rng::SplitMix64::new(8);
        let mut found = 0;
        for trial in 0..300 {
            // Tipped about one of its own axes only: its deepest feature is an edge.
            let turn = DMat3::from_rotation_z(rng.range(0.0, 6.3))
                * DMat3::from_rotation_x(rng.range(-1e-3, 1e-3));
            let depth = 10f64.powf(rng.range(-4.0, -2.0));
            let t = DVec3::new(rng.range(-2.2, 2.2), rng.range(-2.2, 2.2), 1.0 - depth);
            let (overlap, normal) = overlap_over_axes(slab, cube, at(turn, t));
            for (pose, ha, hb, normal) in [
                (at(turn, t), slab, cube, normal),
                // The same contact seen from the cube (A's edge on B's face).
                (
                    at(turn, t).inverse(),
                    cube,
                    slab,
                    at(turn, t).inverse_rotate(-normal),
                ),
            ] {
                let Some((on_a, on_b)) =
                    edge_on_face_pair(ha, hb, pose, overlap, normal).or_else(|| {
                        let inverse = pose.inverse();
                        edge_on_face_pair(hb, ha, inverse, overlap, pose.inverse_rotate(-normal))
                            .map(|(b, a)| (pose.transform_point(a), pose.transform_point(b)))
                    })
                else {
                    continue;
                };
                found += 1;
                let tolerance = 1e-9;
                assert!(
                    (on_a - on_b - normal * overlap).length() <= tolerance,
                    "trial {trial}"
                );
                assert!(
                    (on_a.abs() - ha).max_element() <= tolerance,
                    "trial {trial}"
                );
                let local = pose.inverse().transform_point(on_b);
                assert!(
                    (local.abs() - hb).max_element() <= tolerance,
                    "trial {trial}"
                );
            }
        }
        assert!(found > 300, "{found} pairs found");
    }

    #[test]
    fn crossing_edges_give_their_nearest_points() {
        let (ha, hb) = (DVec3::new(0.5, 0.3, 0.4), DVec3::new(0.2, 0.6, 0.3));
        let on_box = |p: DVec3, h: DVec3| (p.abs() - h).max_element() <= 1e-12;
        let mut crossing = 0;
        for i in 0..400 {
            let f = i as f64;
            let turn = DMat3::from_euler(glam::EulerRot::XYZ, 0.37 * f, 0.61 * f, 0.23 * f);
            let dir = DVec3::new((1.3 * f).sin(), (0.7 * f).cos(), (2.1 * f).sin()).normalize();
            let rel = at(turn, dir * 0.7);
            let Some((depth, n)) = smallest_overlap(ha, hb, rel) else {
                continue;
            };
            let Some((on_a, on_b)) = edge_witnesses(ha, hb, rel, depth, n) else {
                continue;
            };
            crossing += 1;
            assert!((on_a - on_b - n * depth).length() < 1e-12, "case {i}");
            assert!(on_box(on_a, ha), "case {i}: {on_a}");
            assert!(
                on_box(turn.transpose() * (on_b - rel.translation), hb),
                "case {i}: {on_b}"
            );
        }
        assert!(crossing >= 10, "{crossing} crossings");
    }

    #[test]
    fn two_boxes_face_to_face_and_edge_to_edge() {
        let cube = Shape::Cuboid(Cuboid::new(DVec3::splat(0.5)).unwrap());
        let Shape::Cuboid(c) = &cube else {
            unreachable!()
        };
        // Face to face, 0.2 deep along x.
        let rel = at(DMat3::IDENTITY, DVec3::new(0.8, 0.1, 0.0));
        let contact = contact_of(box_pair(&cube, &cube, c, c, rel));
        assert!((contact.signed_distance + 0.2).abs() < 1e-15);
        assert_eq!(contact.normal, DVec3::X);
        let gap = contact.on_a - contact.on_b;
        assert!((gap - DVec3::X * 0.2).length() < 1e-12, "{gap}");
        // Edge to edge: B turned 45° about z and about x, its edge dipping into A's.
        let turn = DMat3::from_rotation_z(0.25 * std::f64::consts::PI)
            * DMat3::from_rotation_x(0.25 * std::f64::consts::PI);
        let rel = at(turn, DVec3::new(0.8, 0.8, 0.1));
        let (depth, n) = smallest_overlap(c.half_extents(), c.half_extents(), rel).unwrap();
        let contact = contact_of(box_pair(&cube, &cube, c, c, rel));
        assert_eq!(-contact.signed_distance, depth);

        assert!((contact.on_a - contact.on_b - n * depth).length() < 1e-12);
        // Apart: no answer.
        assert!(
            smallest_overlap(c.half_extents(), c.half_extents(), at(turn, DVec3::X * 3.0))
                .is_none()
        );
    }
}
