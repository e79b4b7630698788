//! Conservative advancement (Mirtich; Box2D 3.1's `b2ShapeCast`, for translation): at time t the
//! shapes are `d` apart across a plane with normal `n`; B closes that gap at speed
//! `−n·v` at most, so it cannot touch before `t + d / (−n·v)`. Step there, measure again.
//! Each step stays at or before the first contact; it ends when `d` is within the
//! contact tolerance. Flat contacts end in one step, curved ones approach it.
//!
//! A turning B (Mirtich's bound) closes the gap at most at `−n·v + |ω|·r_B`
//! (`turning.rs`). There is no swept test for a turn, so passing t = 1 or a plane that
//! cannot close is then the certified `no_impact` (with the smallest distance the
//! probes saw); for a translation the swept test has already found contact ahead, and
//! either is round-off at a graze: `degenerate`.

use glam::DVec3;

use super::{Probe, Query, ToiEvent, ToiRun};
use crate::solver::Outcome;

pub(super) fn run(mut q: Query, d0: Probe) -> ToiRun {
    let turning = q.spin != DVec3::ZERO;
    let turn_speed = q.spin.length() * super::turning::reach(q.b);
    let mut closest = d0.distance().unwrap_or(f64::INFINITY);
    let mut probe = d0;
    loop {
        let (Some(d), Some(n)) = (probe.safe_distance(), probe.normal()) else {
            if probe.distance() == Some(0.0) {
                // Reached (not passed) the contact: overlap within round-off.
                let time = probe.time;
                return q.impact(time, &probe);
            }
            let why = format!("no distance or normal at t = {}", probe.time);
            return q.finish_degenerate(why);
        };
        if d <= q.contact {
            // The distance measured (the step before narrates the same number).
            let time = probe.time;
            let measured = probe.distance().unwrap_or(d);
            q.record(ToiEvent::Contact, time, (time, time), measured);
            return q.impact(time, &probe);
        }
        let closing = -n.dot(q.velocity) + turn_speed;
        let time = if closing > 0.0 {
            probe.time + d / closing
        } else {
            f64::INFINITY
        };
        if time > 1.0 {
            if turning {
                q.record(ToiEvent::NoContact, 1.0, (1.0, f64::INFINITY), closest);
                let outcome = Outcome::NoImpact {
                    closest_distance: closest,
                };
                return q.finish(outcome, None);
            }
            let why = format!(
                "advancement from t = {} cannot reach the contact the swept test found \
                 (round-off at a graze)",
                probe.time
            );
            return q.finish_degenerate(why);
        }
        if q.k >= q.settings.max_iterations {
            return q.finish_cap(probe.time, 1.0);
        }
        q.k += 1;
        let next = q.gjk(time, 0.0);
        let distance = next.distance().unwrap_or(f64::NAN);
        closest = closest.min(distance);
        let upper = if turning { f64::INFINITY } else { 1.0 };
        q.record(ToiEvent::Advance, time, (time, upper), distance);
        // The step may land on the contact exactly (flat faces): overlap there means
        // the previous probe is the last one apart.
        if next.distance() == Some(0.0) {
            q.record(ToiEvent::Contact, time, (probe.time, time), 0.0);
            return q.impact(time, &probe);
        }
        probe = next;
    }
}
