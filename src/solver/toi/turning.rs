//! Conservative advancement for a B that also turns (Mirtich's bound, Box2D's
//! `b2TimeOfImpact` for rotating bodies): B translates by `t·v` and turns by the angle
//! `t·|ω|` about `ω` through its own origin. A point of B at distance `r` from that
//! origin moves at most `|v·n| + |ω|·r` towards A along any unit `n`; with `r_B` the
//! largest such distance (a bound from B's bounding box), the gap `d` across the
//! separating plane cannot close before `d / (−n·v + |ω|·r_B)`. Step there, measure.
//!
//! There is no swept shape for a turning body, so no opening swept test: the answer
//! is `impact` (at the first time within the contact tolerance) or `no_impact` when the
//! steps pass t = 1, each certified contact-free; its `closest_distance` is the
//! smallest distance the probes measured, an upper bound of the closest approach (the
//! true one, between probes, may be smaller but is not zero).

use glam::{DMat3, DVec3};

use super::{Probe, Query, ToiEvent, ToiRun};
use crate::solver::Outcome;

/// The largest distance of B's points from B's origin, from its bounding box.
pub(super) fn reach(b: &crate::shape::Shape) -> f64 {
    let aabb = b.local_aabb();
    aabb.min.abs().max(aabb.max.abs()).length()
}

/// B's rotation after turning for time `t` by `spin` (A's frame), from `start`.
pub(super) fn turned(start: DMat3, spin: DVec3, t: f64) -> DMat3 {
    let angle = spin.length() * t;
    if angle == 0.0 {
        return start;
    }
    DMat3::from_axis_angle(spin / spin.length(), angle) * start
}

pub(super) fn run(mut q: Query, d0: Probe) -> ToiRun {
    let speed = q.spin.length() * reach(q.b);
    let mut probe = d0;
    let mut closest = probe.distance().unwrap_or(f64::INFINITY);
    loop {
        let (Some(d), Some(n)) = (probe.safe_distance(), probe.normal()) else {
            if probe.distance() == Some(0.0) {
                let time = probe.time;
                return q.impact(time, &probe);
            }
            let why = format!("no distance or normal at t = {}", probe.time);
            return q.finish_degenerate(why);
        };
        if d <= q.contact {
            let time = probe.time;
            q.record(ToiEvent::Contact, time, (time, time), d);
            return q.impact(time, &probe);
        }
        let bound = -n.dot(q.velocity) + speed;
        let time = if bound > 0.0 {
            probe.time + d / bound
        } else {
            f64::INFINITY
        };
        if time > 1.0 {
            q.record(ToiEvent::NoContact, 1.0, (1.0, f64::INFINITY), closest);
            return q.finish(
                Outcome::NoImpact {
                    closest_distance: closest,
                },
                None,
            );
        }
        if q.k >= q.settings.max_iterations {
            return q.finish_cap(probe.time, 1.0);
        }
        q.k += 1;
        let next = q.gjk(time, 0.0);
        let distance = next.distance().unwrap_or(f64::NAN);
        closest = closest.min(distance);
        q.record(ToiEvent::Advance, time, (time, f64::INFINITY), distance);
        if next.distance() == Some(0.0) {
            q.record(ToiEvent::Contact, time, (probe.time, time), 0.0);
            return q.impact(time, &probe);
        }
        probe = next;
    }
}
