//! The runs' bounds hold for the exact shapes, not only for their rounded supports: a
//! lower bound never exceeds the exact distance, an upper bound is never below it, and a
//! verdict is not claimed from a gap or a depth that round-off could make. Checked
//! against distances known to about 1e-30 (two spheres, centres at f64 points, computed in
//! double-double arithmetic), at scales 1e-3 to 1e3 and gaps from 1e-6 down to below
//! round-off.

use collidescope::pose::RelativePose;
use collidescope::rng::SplitMix64 as Rng;
use collidescope::shape::{Cuboid, Shape, Sphere};
use collidescope::solver::{Method, Outcome, SolverSettings};
use collidescope::{DMat3, DVec3};

/// `a + b` exactly, as (sum, error) (Knuth's TwoSum).
fn two_sum(a: f64, b: f64) -> (f64, f64) {
    let s = a + b;
    let v = s - a;
    (s, (a - (s - v)) + (b - v))
}

/// `a · b` exactly, as (product, error).
fn two_product(a: f64, b: f64) -> (f64, f64) {
    let p = a * b;
    (p, a.mul_add(b, -p))
}

/// A double-double `hi + lo`.
#[derive(Clone, Copy, Debug)]
struct Dd(f64, f64);

impl Dd {
    fn add(self, o: Dd) -> Dd {
        let (s, e) = two_sum(self.0, o.0);
        let (s, e2) = two_sum(s, e + self.1 + o.1);
        Dd(s, e2)
    }

    fn square(x: f64) -> Dd {
        let (p, e) = two_product(x, x);
        Dd(p, e)
    }

    /// √self to about 1e-30 relative: one Newton step from the f64 root.
    fn sqrt(self) -> Dd {
        let y = self.0.sqrt();
        let (y2, e) = two_product(y, y);
        let residual = (self.0 - y2) - e + self.1;
        let (s, err) = two_sum(y, residual / (2.0 * y));
        Dd(s, err)
    }

    /// `self − x` compared with `v`: the sign of (self − x) − v.
    fn minus(self, x: f64) -> Dd {
        self.add(Dd(-x, 0.0))
    }

    /// Whether `self ≤ v` (v an f64).
    fn le(self, v: f64) -> bool {
        let d = self.minus(v);
        d.0 + d.1 <= 0.0
    }

    fn ge(self, v: f64) -> bool {
        let d = self.minus(v);
        d.0 + d.1 >= 0.0
    }
}

/// The exact distance of two spheres of radii `ra`, `rb` with B's centre at `t`.
fn exact_sphere_distance(t: DVec3, ra: f64, rb: f64) -> Dd {
    let length = Dd::square(t.x)
        .add(Dd::square(t.y))
        .add(Dd::square(t.z))
        .sqrt();
    length.minus(ra).minus(rb)
}

/// Checks one run's bounds against the exact distance; returns whether it claimed a
/// separation.
fn check(outcome: &Outcome, exact: Dd, context: &str) -> bool {
    let exact_value = exact.0 + exact.1;
    if let Some(lower) = outcome.lower_bound() {
        if !matches!(outcome, Outcome::IterationCap { .. }) {
            assert!(
                exact.ge(lower),
                "{context}: lower bound {lower:e} above the exact distance {exact_value:e} ({outcome})"
            );
        }
    }
    match *outcome {
        Outcome::Separated { distance, .. }
        | Outcome::Stalled { distance, .. }
        | Outcome::Contact { distance } => assert!(
            exact.le(distance),
            "{context}: upper bound {distance:e} below the exact distance {exact_value:e} ({outcome})"
        ),
        Outcome::Intersecting | Outcome::Penetrating { .. } => assert!(
            exact_value <= 0.0,
            "{context}: {outcome} for spheres {exact_value:e} apart"
        ),
        _ => {}
    }
    outcome.proves_apart()
}

#[test]
fn bounds_hold_for_the_exact_distance_at_every_scale_and_gap() {
    let mut rng = Rng::new(0x0ff_5e7);
    let mut claimed = 0;
    let mut runs = 0;
    for case in 0..150 {
        let scale = 10f64.powf(rng.range(-3.0, 3.0));
        let (ra, rb) = (scale * rng.range(0.2, 1.0), scale * rng.range(0.2, 1.0));
        let relative_gap = [1e-6, 1e-9, 1e-12, 1e-14, 3e-16, 0.0][case % 6];
        let direction = DVec3::new(
            rng.range(-1.0, 1.0),
            rng.range(-1.0, 1.0),
            rng.range(-1.0, 1.0),
        )
        .normalize();
        let t = direction * (ra + rb + relative_gap * scale);
        let exact = exact_sphere_distance(t, ra, rb);
        let (a, b) = (
            Shape::Sphere(Sphere::new(ra).unwrap()),
            Shape::Sphere(Sphere::new(rb).unwrap()),
        );
        let turn = DMat3::from_axis_angle(direction.any_orthonormal_vector(), rng.range(0.0, 3.0));
        let pose = RelativePose::from_matrix(turn, t);
        for method in Method::all() {
            let run = method.run(&a, &b, pose, None, SolverSettings::default(), false);
            let context = format!("case {case}, {} at scale {scale:e}", method.name());
            if check(&run.summary.outcome, exact, &context) {
                claimed += 1;
            }
            runs += 1;
        }
    }
    // The check must bite: runs at gaps above the stopping tolerance claim separations
    // (the default tolerance leaves smaller gaps `contact`).
    assert!(claimed >= 150, "{claimed} separations of {runs} runs");
}

/// Two boxes 8e-11 apart face to face: a separating plane proves the gap, so EPA must not
/// call them touching (its tolerance used to be read as round-off).
#[test]
fn boxes_a_hair_apart_are_not_called_touching() {
    let a = Shape::Cuboid(Cuboid::new(DVec3::splat(0.5)).unwrap());
    let b = Shape::Cuboid(Cuboid::new(DVec3::new(0.3, 0.2, 0.1)).unwrap());
    let mut settings = SolverSettings::default();
    settings.epa.closed_forms = false;
    for gap in [8e-11, 1e-12, 5e-14] {
        let pose = RelativePose::from_matrix(DMat3::IDENTITY, DVec3::new(0.8 + gap, 0.05, -0.02));
        let run = "epa"
            .parse::<Method>()
            .unwrap()
            .run(&a, &b, pose, None, settings, false);
        let outcome = &run.summary.outcome;
        assert!(
            !matches!(
                outcome,
                Outcome::Touching { .. } | Outcome::Penetrating { .. }
            ),
            "boxes {gap:e} apart: {outcome}"
        );
        // The exact gap of the f64 numbers: 0.8 + gap rounded, minus 0.8.
        let exact = (0.8 + gap) - 0.8;
        if let Some(lower) = outcome.lower_bound() {
            assert!(lower <= exact, "boxes {gap:e} apart: {outcome}");
        }
    }
}
