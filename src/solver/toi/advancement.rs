//! Conservative advancement (Box2D's `b2TimeOfImpact`, for translation): at time t the
//! shapes are `d` apart across a plane with normal `n`; B closes that gap at speed
//! `−n·v` at most, so it cannot touch before `t + d / (−n·v)`. Step there, measure again.
//! Each step stays at or before the first contact; it ends when `d` is within the
//! contact tolerance. Flat contacts end in one step, curved ones approach it.

use super::{Probe, Query, ToiEvent, ToiRun};

pub(super) fn run(mut q: Query, d0: Probe) -> ToiRun {
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
            let time = probe.time;
            q.record(ToiEvent::Contact, time, (time, time), d);
            return q.impact(time, &probe);
        }
        let closing = -n.dot(q.velocity);
        if closing <= 0.0 {
            // The swept test found overlap ahead, so this is round-off at a grazing
            // contact: nothing certified.
            let why = format!(
                "the separating plane at t = {} is not closing, though the swept shape overlaps",
                probe.time
            );
            return q.finish_degenerate(why);
        }
        if q.k >= q.settings.max_iterations {
            return q.finish_cap(probe.time, 1.0);
        }
        q.k += 1;
        let time = probe.time + d / closing;
        if time > 1.0 {
            let why = format!("advancement passed t = 1 ({time}) though the swept shape overlaps");
            return q.finish_degenerate(why);
        }
        let next = q.gjk(time, 0.0);
        q.record(
            ToiEvent::Advance,
            time,
            (time, 1.0),
            next.distance().unwrap_or(f64::NAN),
        );
        // The step may land on the contact exactly (flat faces): overlap there means
        // the previous probe is the last one apart.
        if next.distance() == Some(0.0) {
            q.record(ToiEvent::Contact, time, (probe.time, time), 0.0);
            return q.impact(time, &probe);
        }
        probe = next;
    }
}
