//! GJK ray cast (van den Bergen, "Ray casting against general convex objects"; Box2D 3.0's
//! `b2ShapeCast`): B at `t·v` touches A when `t·v ∈ A ⊖ B` (B at t = 0). So cast the
//! ray `λ·v` into `C = A ⊖ B`: keep a simplex of C's support points; `gap` runs from the
//! simplex's point nearest the ray's point `x = λ·v` to `x`. A support `p` along `gap`
//! whose plane has `x` outside moves `x` on to that plane (λ grows, never past the
//! contact); otherwise `p` joins the simplex, which is projected again. The contact is
//! reached when the gap is within the contact tolerance.

use glam::DVec3;

use super::{Query, RayState, ToiEvent, ToiRun};
use crate::minkowski::{CsoPoint, MinkowskiDifference};
use crate::solver::simplex::{face_weights, nearest_face};
use crate::solver::{Simplex, SimplexVertex};

pub(super) fn run(mut q: Query) -> ToiRun {
    let v = q.velocity;
    // On the cores (a sphere's point, a capsule's segment), the radii as a margin
    // (Box2D 3.0's b2ShapeCast): contact when the ray's point is within `radius` of the
    // cores' difference, each support plane pushed out by it. No iterations go into
    // approximating the rounded surface.
    let (core_a, core_b) = (q.core_a.clone(), q.core_b.clone());
    let (radius_a, radius_b) = (q.radius_a, q.radius_b);
    let radius = radius_a + radius_b;
    let mut md = MinkowskiDifference::new(&core_a, &core_b, q.b_in_a);
    // The simplex's points of C, by id; the projection works on x − p.
    let mut points: Vec<(u32, CsoPoint)> = Vec::with_capacity(4);
    let mut next_id = 1u32;
    let mut lambda = 0.0f64;
    let mut x = DVec3::ZERO;
    let first = md.support(-v);
    let mut gap = x - first.w;
    // The face the last projection kept: the witnesses' weights are computed on it once,
    // at the contact (the only place they are read), not at every projection.
    let mut last_face: Option<Simplex> = None;
    // The last plane the ray's point was moved onto: the contact normal (the way B
    // moves out of A: the outward normal of A ⊖ B where the ray enters it).
    let mut normal = -v.normalize_or_zero();
    let finish_stats = |q: &mut Query, md: &MinkowskiDifference| {
        let s = md.stats();
        q.stats.calls += s.calls;
        q.stats.vertex_visits_a += s.vertex_visits_a;
        q.stats.vertex_visits_b += s.vertex_visits_b;
    };
    let mut stalled = false;
    loop {
        if stalled || gap.length() <= radius + q.contact {
            finish_stats(&mut q, &md);
            q.record(
                ToiEvent::Contact,
                lambda,
                (lambda, lambda),
                gap.length() - radius,
            );
            let (mut a, mut b) = (DVec3::ZERO, DVec3::ZERO);
            let weights = match &last_face {
                Some(face) => match face_weights(face) {
                    Some(local) => face.vertices().iter().map(|v| v.id).zip(local).collect(),
                    None => {
                        return q.finish_degenerate(
                            "the ray cast's simplex has no nearest point".into(),
                        )
                    }
                },
                None => Vec::new(),
            };
            for (id, w) in &weights {
                if let Some((_, p)) = points.iter().find(|(i, _)| i == id) {
                    a += p.a * *w;
                    b += p.b * *w;
                }
            }
            // The ray stops within the contact tolerance: bracket the time itself.
            let time = q.bracketed_time(lambda);
            // The cores' points moved out by the radii along the normal; B's carried on
            // to the impact.
            let witnesses = (!weights.is_empty())
                .then_some((a + normal * radius_a, b - normal * radius_b + v * time));
            return q.finish(crate::solver::Outcome::Impact { time, normal }, witnesses);
        }
        if q.k >= q.settings.max_iterations {
            finish_stats(&mut q, &md);
            return q.finish_cap(lambda, 1.0);
        }
        q.k += 1;
        let p = md.support(gap);
        let w = x - p.w;
        let mut event = ToiEvent::RayProject;
        let beyond = gap.dot(w) - radius * gap.length();
        if beyond > 0.0 {
            let approach = gap.dot(v);
            if approach >= 0.0 {
                // The ray leaves the plane's side: no contact ahead. The swept test said
                // otherwise, so this is round-off at a grazing contact.
                finish_stats(&mut q, &md);
                return q.finish_degenerate(
                    "the ray cast found a separating plane the motion does not cross, though \
                     the swept shape overlaps"
                        .into(),
                );
            }
            lambda -= beyond / approach;
            x = v * lambda;
            normal = gap.normalize_or_zero();
            event = ToiEvent::RayAdvance;
            if lambda > 1.0 + 1e-12 {
                finish_stats(&mut q, &md);
                let why = format!(
                    "the ray cast passed t = 1 (λ = {lambda}) though the swept shape overlaps"
                );
                return q.finish_degenerate(why);
            }
        }
        // A support already in the simplex, with no advance, cannot move the gap: in
        // exact arithmetic it would have passed the plane test above.
        let known = points.iter().any(|(_, known)| known.w == p.w);
        if known && event == ToiEvent::RayProject {
            match stall(gap, radius, normal.dot(v), lambda) {
                Ok(()) => {
                    stalled = true;
                    continue;
                }
                Err(why) => {
                    finish_stats(&mut q, &md);
                    return q.finish_degenerate(why);
                }
            }
        }
        if !known {
            points.push((next_id, p));
            next_id += 1;
        }
        // The nearest point of conv{x − p_i} to the origin is the new gap. The ray's
        // point moves, so none of GJK's ordering assumptions hold: every face is tried.
        let mut simplex = Simplex::new();
        for (id, p) in points.iter().take(4) {
            simplex.push(SimplexVertex {
                id: *id,
                // x − (a − b) as a difference of parts (x + b) − a, so that the
                // projection's edges come from the shapes' own points.
                point: CsoPoint {
                    w: x - p.w,
                    a: x + p.b,
                    b: p.a,
                },
            });
        }
        let Some((face, nearest)) = nearest_face(simplex) else {
            finish_stats(&mut q, &md);
            return q.finish_degenerate("the ray cast's simplex has no nearest point".into());
        };
        let kept = face.vertices();
        last_face = Some(face);
        points.retain(|(id, _)| kept.iter().any(|v| v.id == *id));
        // With the ray's point fixed, each projection brings the gap strictly closer
        // (GJK's descent; a vertex dropped earlier may come back, with other company).
        // A gap that did not shrink is round-off.
        // (The first gap is to a support outside the simplex: nothing to compare.)
        let shrank = nearest.length() < gap.length();
        gap = nearest;
        if event == ToiEvent::RayProject && q.k > 1 && !shrank {
            match stall(gap, radius, normal.dot(v), lambda) {
                Ok(()) => stalled = true,
                Err(why) => {
                    finish_stats(&mut q, &md);
                    return q.finish_degenerate(why);
                }
            }
        }
        if q.is_traced() {
            let ray = RayState {
                point: x,
                gap,
                simplex: points.iter().map(|(_, p)| p.w).collect(),
                support: p.w,
            };
            q.record_ray(
                event,
                lambda,
                (lambda, 1.0),
                gap.length() - radius,
                Some(ray),
            );
        }
    }
}

/// No progress at the ray's point, `gap` from A ⊖ B (less the radii): a time error of
/// |gap| over the closing speed along the contact normal, accepted as the contact
/// below 1e-7 of the motion; otherwise the run says where it stalled.
fn stall(gap: DVec3, radius: f64, normal_dot_v: f64, lambda: f64) -> Result<(), String> {
    let closing = -normal_dot_v;
    if gap.length() - radius <= 1e-7 * closing.max(0.0) {
        return Ok(());
    }
    Err(format!(
        "the ray cast stalled {:e} from A ⊖ B at λ = {lambda}: round-off, no certified contact",
        gap.length()
    ))
}
