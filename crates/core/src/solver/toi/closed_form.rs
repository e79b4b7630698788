//! Pairs whose first contact has a closed form, answered without the method's steps
//! (the default; `toi: (closed_forms: false)` runs the method chosen, so that its steps
//! can be watched), as parry answers balls and boxes:
//!
//! - two spheres (point cores): `|p + t·v| = r_A + r_B`, a quadratic in t;
//! - a sphere and a box (a point core against a box core, in the box's frame): the
//!   box rounded by the radii is the union of three boxes (the box grown along one
//!   axis), twelve cylinders (its edges) and eight balls (its corners); the moving
//!   centre first touches the union when it first enters one of them (Ericson,
//!   "Real-Time Collision Detection" §5.5.7);
//! - two boxes: the separating axes swept (Ericson, "Real-Time Collision Detection"
//!   §5.5.8; Gottschalk, Lin and Manocha's 15 axes). Along each axis the boxes'
//!   projections overlap over one interval of t; they overlap when every axis does, so
//!   the first contact is where the last interval opens, if that is before the first
//!   one closes.
//!
//! Only clear answers come from here: a start in contact, a graze (the overlap never
//! deeper than the contact tolerance), a miss of boxes (whose closest approach is GJK's
//! to certify), or a contact whose time the rounding could move by the bracket go to the
//! general method. A contact found here is bracketed as the methods' are: apart up to
//! the time, overlapping within [`TIME_BRACKET`] after it.

use glam::{DMat3, DVec3};

use super::record::{ToiEvent, ToiRecord};
use super::{Query, ToiExtras, ToiRun, TIME_BRACKET};
use crate::minkowski::SupportStats;
use crate::shape::box_axes::{candidate_axes, radius, radius_unturned};
use crate::shape::Shape;
use crate::solver::epa::deepest_pair;
use crate::solver::Outcome;

/// The answer in closed form, when the pair has one and it is clear.
pub(super) fn answer(q: &mut Query) -> Option<ToiRun> {
    match (q.core_a.as_ref(), q.core_b.as_ref()) {
        (Shape::Point(_), Shape::Point(_)) => spheres(q),
        (Shape::Cuboid(a), Shape::Point(_)) => sphere_and_box(q, a.half_extents(), false),
        (Shape::Point(_), Shape::Cuboid(b)) => sphere_and_box(q, b.half_extents(), true),
        (Shape::Cuboid(a), Shape::Cuboid(b)) if q.radius_a == 0.0 && q.radius_b == 0.0 => {
            boxes(q, a.half_extents(), b.half_extents())
        }
        _ => None,
    }
}

/// Two point cores rounded by the radii (spheres): the query's own numbers.
fn spheres(q: &mut Query) -> Option<ToiRun> {
    let (p, v) = (q.b_in_a.translation, q.velocity);
    balls(
        p,
        v,
        q.radius_a + q.radius_b,
        q.radius_a,
        q.contact,
        q.records.as_deref_mut(),
    )
}

/// Two balls whose radii sum to `reach` (A's `radius_a`): B's centre at `p + t·v` (A's
/// frame, A's centre at the origin), `contact` the contact tolerance; its records (a
/// start and the closed form) into `records` when given. Called before any query is
/// built for two spheres: their answer costs less than building one.
pub(super) fn balls(
    p: DVec3,
    v: DVec3,
    reach: f64,
    radius_a: f64,
    contact: f64,
    records: Option<&mut Vec<ToiRecord>>,
) -> Option<ToiRun> {
    // Each length once: a square root's latency is most of this query's time.
    let p_len = p.length();
    let d0 = p_len - reach;
    if d0 <= contact || !(p.is_finite() && v.is_finite()) {
        return None;
    }
    let speed2 = v.length_squared();
    let closest_time = if speed2 > 0.0 {
        (-p.dot(v) / speed2).clamp(0.0, 1.0)
    } else {
        0.0
    };
    let closest = (p + v * closest_time).length() - reach;
    let scale = p_len + speed2.sqrt() + reach;
    let extras = ToiExtras {
        initial_distance: Some(d0),
        contact_tolerance: contact,
    };
    let stats = SupportStats::default();
    let record = |records: Option<&mut Vec<ToiRecord>>, time, bracket: (f64, f64), distance| {
        if let Some(records) = records {
            records.clear();
            for (event, time, (lower, upper), distance) in [
                (ToiEvent::Start, 0.0, (0.0, f64::INFINITY), d0),
                (ToiEvent::ClosedForm, time, bracket, distance),
            ] {
                records.push(ToiRecord {
                    k: 0,
                    event,
                    time,
                    lower,
                    upper,
                    distance,
                    ray: None,
                    support_calls: 0,
                });
            }
        }
    };
    if closest > contact {
        record(records, closest_time, (0.0, f64::INFINITY), closest);
        let outcome = Outcome::NoImpact {
            closest_distance: closest,
        };
        return Some(ToiRun::new(outcome, 0, stats, None, extras));
    }
    if closest >= -1e-12 * scale {
        return None; // a graze: the general method tells it from a touch
    }
    // The first root of speed2·t² + 2(p·v)·t + (|p|² − reach²) = 0, in the form that
    // does not cancel (p·v < 0: B approaches).
    let half_b = p.dot(v);
    let c = d0 * (p.length() + reach);
    let disc = half_b * half_b - speed2 * c;
    if half_b >= 0.0 || disc <= 0.0 {
        return None;
    }
    let time = c / (-half_b + disc.sqrt());
    let after = (time + TIME_BRACKET).min(1.0);
    if !(time > 0.0 && time <= 1.0) || (p + v * after).length() >= reach {
        return None;
    }
    let centre = p + v * time;
    let centre_len = centre.length();
    let normal = centre * centre_len.recip(); // `normalize`, its length reused
    record(records, time, (time, after), centre_len - reach);
    let witnesses = (normal * radius_a, centre - normal * (reach - radius_a));
    Some(ToiRun::new(
        Outcome::Impact { time, normal },
        0,
        stats,
        Some(witnesses),
        extras,
    ))
}

/// A point core against a box core of half extents `h`, rounded together by the radii.
/// `box_is_b`: B is the box (the motion is then A's centre moving by −v in B's frame).
fn sphere_and_box(q: &mut Query, h: DVec3, box_is_b: bool) -> Option<ToiRun> {
    let rounding = q.radius_a + q.radius_b;
    if rounding <= 0.0 {
        return None;
    }
    // The centre's path in the box's frame: c(t) = c0 + t·u.
    let (r, p, v) = (q.b_in_a.rotation, q.b_in_a.translation, q.velocity);
    let (c0, u) = if box_is_b {
        (r.transpose() * -p, r.transpose() * -v)
    } else {
        (p, v)
    };
    let gap = |t: f64| {
        let c = c0 + u * t;
        (c - c.clamp(-h, h)).length() - rounding
    };
    if gap(0.0) <= q.contact {
        return None;
    }
    let Some(time) = first_entry(c0, u, h, rounding).filter(|t| *t <= 1.0) else {
        return miss(q);
    };
    let scale = h.length() + c0.length() + u.length() + rounding;
    let after = (time + TIME_BRACKET).min(1.0);
    let before = (time - TIME_BRACKET).max(0.0);
    if gap(after) >= -1e-12 * scale || gap(before) < 0.0 {
        return None; // a graze, or a root the rounding moved: the general method
    }
    // The contact: the centre at `time`, the box's nearest point, the normal from the
    // box to the centre; turned into A's frame, pointing from A to B.
    let c = c0 + u * time;
    let nearest = c.clamp(-h, h);
    let out_of_box = (c - nearest).normalize();
    let (r_box, r_sphere) = if box_is_b {
        (q.radius_b, q.radius_a)
    } else {
        (q.radius_a, q.radius_b)
    };
    let on_box = nearest + out_of_box * r_box;
    let on_sphere = c - out_of_box * r_sphere;
    let (normal, witnesses) = if box_is_b {
        let pose = q.pose_at(time);
        let to_a = |x: DVec3| pose.rotation * x + pose.translation;
        (-(r * out_of_box), (to_a(on_sphere), to_a(on_box)))
    } else {
        (out_of_box, (on_box, on_sphere))
    };
    q.record(ToiEvent::ClosedForm, time, (time, after), 0.0);
    Some(q.finish(Outcome::Impact { time, normal }, Some(witnesses)))
}

/// The first `t ≥ 0` at which `c0 + t·u` enters the box of half extents `h` rounded by
/// `rounding`: the earliest entry into one of its pieces (three grown boxes, twelve
/// edge cylinders, eight corner balls). `None` if it never does.
fn first_entry(c0: DVec3, u: DVec3, h: DVec3, rounding: f64) -> Option<f64> {
    let mut first = f64::INFINITY;
    // The three boxes grown by the rounding along one axis (the faces' prisms).
    for axis in 0..3 {
        let mut grown = h;
        grown[axis] += rounding;
        if let Some(t) = slab_entry(c0, u, grown) {
            first = first.min(t);
        }
    }
    for corner in 0..8 {
        let k = DVec3::new(
            if corner & 1 == 0 { -h.x } else { h.x },
            if corner & 2 == 0 { -h.y } else { h.y },
            if corner & 4 == 0 { -h.z } else { h.z },
        );
        // The corner's ball.
        if let Some(t) = ball_entry(c0 - k, u, rounding) {
            first = first.min(t);
        }
        // The edges leaving this corner towards +axis (each edge once): the cylinder's
        // side, where the centre's foot lies on the edge.
        for axis in 0..3 {
            if corner & (1 << axis) != 0 {
                continue;
            }
            let (mut w0, mut w) = (c0 - k, u);
            w0[axis] = 0.0;
            w[axis] = 0.0;
            if let Some(t) = ball_entry(w0, w, rounding) {
                let along = c0[axis] + u[axis] * t;
                if along.abs() <= h[axis] {
                    first = first.min(t);
                }
            }
        }
    }
    first.is_finite().then_some(first)
}

/// The first `t ≥ 0` at which `w0 + t·w` comes within `radius` of the origin.
fn ball_entry(w0: DVec3, w: DVec3, radius: f64) -> Option<f64> {
    let c = w0.length_squared() - radius * radius;
    if c <= 0.0 {
        return Some(0.0);
    }
    let (a, half_b) = (w.length_squared(), w0.dot(w));
    let disc = half_b * half_b - a * c;
    if half_b >= 0.0 || disc < 0.0 {
        return None;
    }
    Some(c / (-half_b + disc.sqrt()))
}

/// The first `t ≥ 0` at which `c0 + t·u` is inside the box of half extents `h` (the
/// slabs' entries, Kay and Kajiya).
fn slab_entry(c0: DVec3, u: DVec3, h: DVec3) -> Option<f64> {
    let (mut enter, mut exit) = (0.0f64, f64::INFINITY);
    for i in 0..3 {
        if u[i] == 0.0 {
            if c0[i].abs() > h[i] {
                return None;
            }
            continue;
        }
        let (t1, t2) = ((-h[i] - c0[i]) / u[i], (h[i] - c0[i]) / u[i]);
        enter = enter.max(t1.min(t2));
        exit = exit.min(t1.max(t2));
    }
    (enter <= exit).then_some(enter)
}

/// Two boxes of half extents `ha` (A, at the identity) and `hb` (B, turned by the
/// pose's rotation, translating). The distance at t = 0 is not measured here (the
/// separating axes prove the start apart); `initial_distance` stays `None`.
fn boxes(q: &mut Query, ha: DVec3, hb: DVec3) -> Option<ToiRun> {
    let (r, p, v) = (q.b_in_a.rotation, q.b_in_a.translation, q.velocity);
    let axes = Axes::new(r, p, v, ha, hb);
    // Apart at the start by more than the contact tolerance (an axis's gap is a lower
    // bound of the distance); otherwise the general method measures the start.
    if axes.gap_at(0.0) <= q.contact {
        return None;
    }
    let Some(sweep) = axes
        .sweep()
        .filter(|s| s.enter > 0.0 && s.enter < s.exit.min(1.0))
    else {
        // No time in [0, 1] when every axis overlaps: a miss, whose closest approach
        // GJK on B swept over the motion certifies (the start needs no second test).
        return miss(q);
    };
    let (enter, exit) = (sweep.enter, sweep.exit.min(1.0));
    // Clear: the boxes overlap by more than the contact tolerance halfway through the
    // overlap, the closing speed along the last axis to open leaves the rounding of its
    // time well inside the bracket, and the bracket ends inside the overlap.
    let scale = ha.length() + hb.length() + p.length() + v.length();
    let after = (enter + TIME_BRACKET).min(1.0);
    let clear = -axes.gap_at(0.5 * (enter + exit)) > q.contact
        && 1e-15 * scale / sweep.closing_speed < 0.01 * TIME_BRACKET
        && after < sweep.exit;
    if !clear {
        return None;
    }
    let pose = q.pose_at(enter);
    let (on_a, on_b) = deepest_pair(&q.core_a, &q.core_b, pose, 0.0, sweep.normal)?;
    q.record(ToiEvent::ClosedForm, enter, (enter, after), 0.0);
    let outcome = Outcome::Impact {
        time: enter,
        normal: sweep.normal,
    };
    Some(q.finish(outcome, Some((on_a, on_b))))
}

/// The separating axes found no contact on the way: the closest approach over the
/// motion, certified by GJK on B swept over it; a graze goes to the general method.
fn miss(q: &mut Query) -> Option<ToiRun> {
    let swept = q.gjk(0.0, 1.0);
    let closest = swept.distance()?;
    if closest <= q.contact || swept.overlaps() {
        return None;
    }
    q.record(ToiEvent::ClosedForm, 1.0, (0.0, f64::INFINITY), closest);
    let outcome = Outcome::NoImpact {
        closest_distance: closest,
    };
    Some(q.finish(outcome, None))
}

/// The 15 candidate axes of two boxes with, along each, the boxes' summed half widths,
/// B's centre offset at t = 0 and B's speed.
struct Axes {
    axes: [(DVec3, f64, f64, f64); 15],
    len: usize,
}

/// The separating axes swept over t ∈ (−∞, ∞): when the last axis's overlap opens,
/// when the first closes, the axis that opens last (pointing from A to B there) and
/// B's speed along it.
struct Sweep {
    enter: f64,
    exit: f64,
    normal: DVec3,
    closing_speed: f64,
}

impl Axes {
    fn new(r: DMat3, p: DVec3, v: DVec3, ha: DVec3, hb: DVec3) -> Self {
        let mut axes = Axes {
            axes: [(DVec3::ZERO, 0.0, 0.0, 0.0); 15],
            len: 0,
        };
        for &axis in candidate_axes(r).iter() {
            let reach = radius_unturned(ha, axis) + radius(hb, r, axis);
            axes.axes[axes.len] = (axis, reach, axis.dot(p), axis.dot(v));
            axes.len += 1;
        }
        axes
    }

    fn iter(&self) -> impl Iterator<Item = &(DVec3, f64, f64, f64)> {
        self.axes[..self.len].iter()
    }

    /// The largest gap between the projections at time `t` (negative: the smallest
    /// overlap, the boxes overlapping).
    fn gap_at(&self, t: f64) -> f64 {
        self.iter()
            .map(|&(_, reach, offset, speed)| (offset + speed * t).abs() - reach)
            .fold(f64::NEG_INFINITY, f64::max)
    }

    /// `None` when an axis B does not move along separates them for good.
    fn sweep(&self) -> Option<Sweep> {
        let mut sweep = Sweep {
            enter: f64::NEG_INFINITY,
            exit: f64::INFINITY,
            normal: DVec3::ZERO,
            closing_speed: 0.0,
        };
        for &(axis, reach, offset, speed) in self.iter() {
            if speed == 0.0 {
                if offset.abs() > reach {
                    return None;
                }
                continue;
            }
            let (t1, t2) = ((-reach - offset) / speed, (reach - offset) / speed);
            let (opens, closes) = (t1.min(t2), t1.max(t2));
            if opens > sweep.enter {
                // B comes in from the side its centre is on: the normal points there.
                let side = if speed < 0.0 { axis } else { -axis };
                sweep = Sweep {
                    enter: opens,
                    normal: side,
                    closing_speed: speed.abs(),
                    ..sweep
                };
            }
            sweep.exit = sweep.exit.min(closes);
        }
        Some(sweep)
    }
}
