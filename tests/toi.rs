//! Time of impact: the four methods against closed forms, against each other
//! and parry3d-f64's `cast_shapes`, on tunnelling, grazing and touching cases, and on
//! `../shared/data/problems/toi_sample.json`.

mod common;

use collidescope::bench::problems::ProblemFile;
use collidescope::parry_bridge::parry_time_of_impact;
use collidescope::pose::RelativePose;
use collidescope::shape::{Capsule, Cuboid, Shape, Sphere};
use collidescope::solver::toi::{time_of_impact, ToiEvent, ToiRule, ToiSettings};
use collidescope::solver::Outcome;
use collidescope::{DMat3, DQuat, DVec3};
use common::{shared_data, Rng};

const RULES: [ToiRule; 4] = [
    ToiRule::RayCast,
    ToiRule::Advancement,
    ToiRule::Halving,
    ToiRule::Brent,
];

/// The method's own steps (closed forms off), held to the default run (two spheres and
/// two boxes in closed form, the rest the same steps): the same answer.
fn toi(a: &Shape, b: &Shape, rel: RelativePose, v: DVec3, rule: ToiRule) -> Outcome {
    let stepped = ToiSettings {
        closed_forms: false,
        ..ToiSettings::default()
    };
    let by_steps = time_of_impact(a, b, rel, v, rule, stepped, None)
        .summary
        .outcome;
    let default = time_of_impact(a, b, rel, v, rule, ToiSettings::default(), None);
    let label = format!("{} vs {} {rule:?}", a.kind_name(), b.kind_name());
    match (&by_steps, &default.summary.outcome) {
        (
            Outcome::Impact {
                time: t1,
                normal: n1,
            },
            Outcome::Impact {
                time: t2,
                normal: n2,
            },
        ) => {
            assert!((t1 - t2).abs() <= 2e-7, "{label}: steps {t1}, default {t2}");
            assert!(n1.dot(*n2) > 0.99, "{label}: normals {n1} and {n2}");
        }
        (
            Outcome::NoImpact {
                closest_distance: d1,
            },
            Outcome::NoImpact {
                closest_distance: d2,
            },
        ) => {
            assert!(
                (d1 - d2).abs() <= 1e-6 * d1.max(1.0),
                "{label}: closest {d1} vs {d2}"
            );
        }
        (x, y) => assert_eq!(x.status_name(), y.status_name(), "{label}: {x} vs {y}"),
    }
    by_steps
}

fn impact_time(outcome: &Outcome, label: &str) -> f64 {
    match outcome {
        Outcome::Impact { time, normal } => {
            assert!(normal.is_finite(), "{label}: normal {normal}");
            *time
        }
        other => panic!("{label}: expected an impact, got {other}"),
    }
}

fn at(t: DVec3) -> RelativePose {
    RelativePose::from_matrix(DMat3::IDENTITY, t)
}

#[test]
fn spheres_meet_at_the_smaller_root_of_the_quadratic() {
    let mut rng = Rng::new(5);
    let mut checked = 0;
    while checked < 60 {
        let (ra, rb) = (rng.range(0.1, 1.0), rng.range(0.1, 1.0));
        let c = rng.unit_vector() * rng.range(1.2, 3.0) * (ra + rb);
        let v = -c * rng.range(0.5, 1.5) + rng.vector(0.3);
        // |c + t v| = r: t² v·v + 2t c·v + c·c − r² = 0.
        let r = ra + rb;
        let (qa, qb, qc) = (v.dot(v), 2.0 * c.dot(v), c.dot(c) - r * r);
        let disc = qb * qb - 4.0 * qa * qc;
        if disc <= 0.0 {
            continue;
        }
        let t = (-qb - disc.sqrt()) / (2.0 * qa);
        if !(0.0..=1.0).contains(&t) || disc < 1e-3 {
            continue;
        }
        checked += 1;
        let (a, b) = (
            Shape::Sphere(Sphere::new(ra).unwrap()),
            Shape::Sphere(Sphere::new(rb).unwrap()),
        );
        let rel = RelativePose::from_matrix(DMat3::from_quat(rng.rotation()), c);
        for rule in RULES {
            let got = impact_time(&toi(&a, &b, rel, v, rule), &format!("{rule:?}"));
            assert!((got - t).abs() <= 1e-7, "{rule:?}: {got} vs {t}");
        }
    }
}

#[test]
fn axis_aligned_boxes_meet_when_every_slab_overlaps() {
    let mut rng = Rng::new(9);
    let mut checked = 0;
    while checked < 60 {
        let (ha, hb) = (rng.in_range3(0.1, 1.0), rng.in_range3(0.1, 1.0));
        let c = rng.vector(3.0);
        let v = -c * rng.range(0.6, 1.4) + rng.vector(0.5);
        // Overlap on axis i while |c_i + t v_i| ≤ h_i: an interval per axis.
        let (mut enter, mut exit) = (0.0f64, 1.0f64);
        for i in 0..3 {
            let h = ha[i] + hb[i];
            if v[i] == 0.0 {
                if c[i].abs() > h {
                    exit = -1.0;
                }
                continue;
            }
            let (t1, t2) = ((-h - c[i]) / v[i], (h - c[i]) / v[i]);
            enter = enter.max(t1.min(t2));
            exit = exit.min(t1.max(t2));
        }
        let separated_at_start = (0..3).any(|i| c[i].abs() > ha[i] + hb[i] + 1e-3);
        if !separated_at_start || enter + 1e-3 > exit {
            continue;
        }
        checked += 1;
        let (a, b) = (
            Shape::Cuboid(Cuboid::new(ha).unwrap()),
            Shape::Cuboid(Cuboid::new(hb).unwrap()),
        );
        for rule in RULES {
            let got = impact_time(&toi(&a, &b, at(c), v, rule), &format!("{rule:?}"));
            assert!((got - enter).abs() <= 1e-7, "{rule:?}: {got} vs {enter}");
        }
    }
}

#[test]
fn a_sphere_falls_onto_a_box_face_at_the_plane_time() {
    let a = Shape::Cuboid(Cuboid::new(DVec3::new(2.0, 0.5, 2.0)).unwrap());
    let b = Shape::Sphere(Sphere::new(0.25).unwrap());
    for (height, speed) in [(1.0, 2.0), (3.0, 2.6), (0.8, 0.06)] {
        let c = DVec3::new(0.3, height, -0.2);
        let v = DVec3::new(0.1, -speed, 0.05);
        let t = (height - 0.75) / speed;
        for rule in RULES {
            let outcome = toi(&a, &b, at(c), v, rule);
            let got = impact_time(&outcome, &format!("{rule:?}"));
            assert!((got - t).abs() <= 1e-7, "{rule:?}: {got} vs {t}");
            let n = outcome.normal().unwrap();
            assert!((n - DVec3::Y).length() < 1e-6, "{rule:?}: normal {n}");
            // The contact points meet on A's top face, under the sphere's centre.
            let run = time_of_impact(&a, &b, at(c), v, rule, ToiSettings::default(), None);
            let (pa, pb) = (run.witness_a.unwrap(), run.witness_b.unwrap());
            assert!((pa - pb).length() < 1e-6, "{rule:?}: {pa} vs {pb}");
            let foot = c + v * t - DVec3::Y * 0.25;
            assert!((pa - foot).length() < 1e-6, "{rule:?}: {pa} vs {foot}");
        }
    }
}

#[test]
fn a_fast_bullet_through_a_thin_plate_is_caught_by_every_method() {
    // Apart at t = 0 and at t = 1: sampling the ends would miss it.
    let plate = Shape::Cuboid(Cuboid::new(DVec3::new(1.0, 1e-4, 1.0)).unwrap());
    let bullet = Shape::Sphere(Sphere::new(0.01).unwrap());
    let c = DVec3::new(0.1, 5.0, 0.0);
    let v = DVec3::new(0.0, -10.0, 0.0);
    let t = (5.0 - 0.01 - 1e-4) / 10.0;
    for rule in RULES {
        let got = impact_time(&toi(&plate, &bullet, at(c), v, rule), &format!("{rule:?}"));
        assert!((got - t).abs() <= 1e-8, "{rule:?}: {got} vs {t}");
    }
}

#[test]
fn misses_grazes_and_touches_are_told_apart() {
    let a = Shape::Sphere(Sphere::new(1.0).unwrap());
    let b = Shape::Sphere(Sphere::new(1.0).unwrap());
    let v = DVec3::new(-8.0, 0.0, 0.0);
    for rule in RULES {
        // Passing 1e-6 apart at closest approach: no impact, the closest approach said.
        let miss = toi(&a, &b, at(DVec3::new(4.0, 2.0 + 1e-6, 0.0)), v, rule);
        match miss {
            Outcome::NoImpact { closest_distance } => {
                assert!(
                    (closest_distance - 1e-6).abs() < 1e-9,
                    "{rule:?}: {closest_distance}"
                )
            }
            other => panic!("{rule:?}: a miss by 1e-6 gave {other}"),
        }
        // Within the contact tolerance without overlapping: grazing, not a silent miss.
        let graze = toi(&a, &b, at(DVec3::new(4.0, 2.0 + 1e-11, 0.0)), v, rule);
        match graze {
            Outcome::Grazing { time, distance } => {
                assert!(
                    (time - 0.5).abs() < 1e-5 && distance <= 1e-9,
                    "{rule:?}: {time} {distance}"
                )
            }
            other => panic!("{rule:?}: a graze by 1e-11 gave {other}"),
        }
        // Overlapping at the start: impact at t = 0.
        let start = toi(&a, &b, at(DVec3::new(1.5, 0.0, 0.0)), v, rule);
        assert_eq!(impact_time(&start, "overlap"), 0.0);
        // Moving apart: no impact.
        let away = toi(&a, &b, at(DVec3::new(3.0, 0.0, 0.0)), -v, rule);
        assert!(matches!(away, Outcome::NoImpact { .. }), "{rule:?}: {away}");
    }
}

#[test]
fn bracketing_records_shrink_around_the_contact() {
    let a = Shape::Capsule(Capsule::new(0.2, 0.6).unwrap());
    let b = Shape::Cuboid(Cuboid::new(DVec3::new(0.3, 0.1, 0.4)).unwrap());
    let rel = RelativePose::from_matrix(
        DMat3::from_quat(DQuat::from_euler(glam::EulerRot::XYZ, 0.3, 0.5, 0.1)),
        DVec3::new(2.0, 0.4, 0.1),
    );
    let v = DVec3::new(-2.5, -0.2, 0.0);
    let reference = impact_time(&toi(&a, &b, rel, v, ToiRule::Advancement), "advancement");
    for rule in [ToiRule::Halving, ToiRule::Brent] {
        let mut records = Vec::new();
        let run = time_of_impact(
            &a,
            &b,
            rel,
            v,
            rule,
            ToiSettings::default(),
            Some(&mut records),
        );
        let got = impact_time(&run.outcome, &format!("{rule:?}"));
        assert!(
            (got - reference).abs() < 1e-8,
            "{rule:?}: {got} vs {reference}"
        );
        let mut width = f64::INFINITY;
        for r in records
            .iter()
            .filter(|r| r.upper.is_finite() && r.event != ToiEvent::SweptTest)
        {
            assert!(
                r.lower - 1e-9 <= reference && reference <= r.upper + 1e-9,
                "{rule:?} k={}: [{}, {}] misses {reference}",
                r.k,
                r.lower,
                r.upper
            );
            if rule == ToiRule::Halving {
                assert!(r.upper - r.lower <= width, "{rule:?}: the bracket grew");
                width = r.upper - r.lower;
            }
        }
    }
}

#[test]
fn the_methods_agree_with_parry_cast_shapes_on_random_pairs() {
    let mut rng = Rng::new(77);
    let kinds = |rng: &mut Rng| -> Shape {
        match rng.index(3) {
            0 => Shape::Sphere(Sphere::new(rng.range(0.1, 0.8)).unwrap()),
            1 => Shape::Cuboid(Cuboid::new(rng.in_range3(0.1, 0.8)).unwrap()),
            _ => Shape::Capsule(Capsule::new(rng.range(0.05, 0.4), rng.range(0.1, 0.8)).unwrap()),
        }
    };
    let (mut impacts, mut misses) = (0, 0);
    for i in 0..150 {
        let (a, b) = (kinds(&mut rng), kinds(&mut rng));
        let c = rng.unit_vector() * rng.range(2.0, 4.0);
        let v = -c * rng.range(0.3, 1.6) + rng.vector(0.8);
        let rel = RelativePose::from_matrix(DMat3::from_quat(rng.rotation()), c);
        let Some(parry) = parry_time_of_impact(&a, &b, &rel, v) else {
            continue;
        };
        for rule in RULES {
            let outcome = toi(&a, &b, rel, v, rule);
            let label = format!("pair {i} ({} vs {}) {rule:?}", a.kind_name(), b.kind_name());
            match (parry, &outcome) {
                (Some(tp), Outcome::Impact { time, .. }) => {
                    assert!((time - tp).abs() <= 1e-6, "{label}: {time} vs parry {tp}")
                }
                (None, Outcome::NoImpact { .. }) => {}
                (p, o) => panic!("{label}: parry {p:?}, ours {o}"),
            }
        }
        if parry.is_some() {
            impacts += 1;
        } else {
            misses += 1;
        }
    }
    assert!(
        impacts > 30 && misses > 10,
        "{impacts} impacts, {misses} misses"
    );
}

#[test]
fn toi_sample_answers_within_its_stated_bound() {
    let Some(dir) = shared_data("problems") else {
        return;
    };
    let file = ProblemFile::load(&dir.join("toi_sample.json")).unwrap();
    let shapes = file.build_shapes().unwrap();
    let truths: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("toi_sample.json")).unwrap())
            .unwrap();
    for (i, p) in file.problems.iter().enumerate() {
        let truth = &truths["problems"][i];
        let v = DVec3::from_array(p.b_velocity.expect("b_velocity"));
        for rule in RULES {
            let outcome = toi(&shapes[p.a], &shapes[p.b], p.b_in_a(), v, rule);
            let label = format!("problem {i} ({}) {rule:?}", truth["origin"]);
            match truth["toi_truth"].as_str().unwrap() {
                "impact" => {
                    let expected = truth["true_toi"].as_f64().unwrap();
                    let got = impact_time(&outcome, &label);
                    assert!(
                        (got - expected).abs() <= 1e-6 * expected.abs().max(1.0),
                        "{label}: {got} vs {expected}"
                    );
                }
                _ => assert!(
                    matches!(outcome, Outcome::NoImpact { .. }),
                    "{label}: {outcome}"
                ),
            }
        }
    }
}

#[test]
fn a_turning_rod_meets_the_floor_when_its_end_dips_to_it() {
    use collidescope::pose::Motion;
    use collidescope::solver::toi::time_of_impact_moving;
    // The floor's top at y = 0; a rod 2 long and 0.02 thick, 0.5 above it, turning by
    // `spin` about z over the motion (and drifting along x, which changes nothing):
    // contact when sin α + 0.01 cos α = 0.5.
    let floor = Shape::Cuboid(Cuboid::new(DVec3::new(5.0, 0.5, 5.0)).unwrap());
    let rod = Shape::Cuboid(Cuboid::new(DVec3::new(1.0, 0.01, 0.01)).unwrap());
    let rel = at(DVec3::new(0.0, 1.0, 0.0));
    for spin in [0.8f64, 1.5, 3.0] {
        let (mut lo, mut hi) = (0.0f64, std::f64::consts::FRAC_PI_2);
        for _ in 0..100 {
            let mid = 0.5 * (lo + hi);
            if mid.sin() + 0.01 * mid.cos() < 0.5 {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        let expected = lo / spin;
        let motion = Motion {
            velocity: DVec3::new(0.3, 0.0, 0.0),
            spin: DVec3::new(0.0, 0.0, spin),
        };
        let run = time_of_impact_moving(
            &floor,
            &rod,
            rel,
            motion,
            ToiRule::Advancement,
            ToiSettings::default(),
            None,
        );
        if expected > 1.0 {
            assert!(
                matches!(run.outcome, Outcome::NoImpact { .. }),
                "{}",
                run.outcome
            );
            continue;
        }
        let got = impact_time(&run.outcome, "turning rod");
        assert!(
            (got - expected).abs() < 1e-6,
            "spin {spin}: {got} vs {expected}"
        );
        // The other methods say they cannot take a rotation.
        let ray = time_of_impact_moving(
            &floor,
            &rod,
            rel,
            motion,
            ToiRule::RayCast,
            ToiSettings::default(),
            None,
        );
        assert_eq!(ray.outcome.status_name(), "not_applicable");
    }
}

/// A tiny box against a huge turned one a thousand away: the ray cast's GJK drops a
/// support and later takes it back with other company, which is progress, not a stall
/// (it used to end "stalled 2.8e-2 from A ⊖ B"). Then pairs of sizes 1e-3 to 1e3, far
/// from the origin or not: the ray cast's own steps agree with advancement and Brent.
#[test]
fn the_ray_cast_goes_on_when_a_dropped_support_returns() {
    let steps = ToiSettings {
        closed_forms: false,
        ..ToiSettings::default()
    };
    let small = Shape::Cuboid(
        Cuboid::new(DVec3::new(
            0.056180466021227206,
            0.036812389633903146,
            0.22355071650365557,
        ))
        .unwrap(),
    );
    let huge = Shape::Cuboid(
        Cuboid::new(DVec3::new(
            209.21730089251562,
            150.37148716270374,
            541.3836572880572,
        ))
        .unwrap(),
    );
    let rows = [
        [
            -0.12312173036400997,
            0.9867197646968957,
            -0.10594878700898647,
        ],
        [0.4024361118859361, 0.14723189918584922, 0.9035308205657728],
        [
            0.9071307597928223,
            0.06860666016234379,
            -0.41521911181816584,
        ],
    ];
    let rel = RelativePose::from_matrix(
        DMat3::from_cols_array_2d(&rows).transpose(),
        DVec3::new(-380.75665352588646, 138.6023695018611, 1252.3244016396707),
    );
    let v = DVec3::new(512.9430525979396, -219.1336208086524, -1213.9292800669796);
    let times: Vec<f64> = [ToiRule::RayCast, ToiRule::Advancement, ToiRule::Brent]
        .into_iter()
        .map(|rule| {
            let run = time_of_impact(&small, &huge, rel, v, rule, steps, None);
            impact_time(&run.summary.outcome, &format!("{rule:?}"))
        })
        .collect();
    for t in &times[1..] {
        assert!((times[0] - t).abs() <= 1e-6, "ray cast {} vs {t}", times[0]);
    }

    let mut rng = Rng::new(2026);
    let sized = |rng: &mut Rng, scale: f64| -> Shape {
        let h = rng.in_range3(0.01, 1.0);
        match rng.index(2) {
            0 => Shape::Cuboid(Cuboid::new(h * scale).unwrap()),
            _ => Shape::Capsule(Capsule::new(h.x * scale, h.y * scale).unwrap()),
        }
    };
    let mut impacts = 0;
    for i in 0..300 {
        let (sa, sb) = (
            10f64.powf(rng.range(-3.0, 3.0)),
            10f64.powf(rng.range(-3.0, 3.0)),
        );
        let (a, b) = (sized(&mut rng, sa), sized(&mut rng, sb));
        let c = rng.unit_vector() * (sa + sb) * rng.range(2.0, 1000.0);
        let v = -c * rng.range(0.5, 2.0) + rng.vector(0.3 * (sa + sb));
        let rel = RelativePose::from_matrix(DMat3::from_quat(rng.rotation()), c);
        let label = format!(
            "pair {i} ({} {sa:.0e} vs {} {sb:.0e})",
            a.kind_name(),
            b.kind_name()
        );
        let outcomes: Vec<Outcome> = [ToiRule::RayCast, ToiRule::Advancement, ToiRule::Brent]
            .into_iter()
            .map(|rule| {
                time_of_impact(&a, &b, rel, v, rule, steps, None)
                    .summary
                    .outcome
            })
            .collect();
        match &outcomes[0] {
            Outcome::Impact { time, .. } => {
                impacts += 1;
                for other in &outcomes[1..] {
                    let t = impact_time(other, &label);
                    assert!((time - t).abs() <= 1e-6, "{label}: ray cast {time} vs {t}");
                }
            }
            first => {
                for other in &outcomes[1..] {
                    assert_eq!(
                        first.status_name(),
                        other.status_name(),
                        "{label}: {first} vs {other}"
                    );
                }
            }
        }
    }
    assert!(impacts > 100, "{impacts} impacts");
}

/// An impact time is a lower bound: no method reports a time at which the shapes
/// already overlap. Boxes landing on a box along −y (the contact time exact: the gap
/// over the speed, rounding aside), through every time-of-impact method of the catalog
/// with the closed forms off; halving once reported its bracket's overlapping end.
#[test]
fn impact_times_are_never_past_the_contact() {
    use collidescope::pose::Motion;
    use collidescope::solver::{Method, SolverSettings};
    let mut rng = Rng::new(0x7013);
    let mut settings = SolverSettings::default();
    settings.toi.closed_forms = false;
    let methods: Vec<Method> = Method::all()
        .into_iter()
        .filter(|m| m.name().contains("toi"))
        .collect();
    assert!(methods.len() >= 5, "{methods:?}");
    for case in 0..40 {
        let ha = DVec3::new(
            rng.range(0.5, 1.5),
            rng.range(0.1, 0.5),
            rng.range(0.5, 1.5),
        );
        let hb = DVec3::new(
            rng.range(0.1, 0.4),
            rng.range(0.1, 0.4),
            rng.range(0.1, 0.4),
        );
        let (a, b) = (
            Shape::Cuboid(Cuboid::new(ha).unwrap()),
            Shape::Cuboid(Cuboid::new(hb).unwrap()),
        );
        let start = ha.y + hb.y + rng.range(0.1, 1.0);
        let speed = rng.range(1.5, 4.0);
        let contact = (start - (ha.y + hb.y)) / speed;
        let rel = at(DVec3::new(
            rng.range(-0.2, 0.2),
            start,
            rng.range(-0.2, 0.2),
        ));
        let motion = Motion {
            velocity: DVec3::new(0.0, -speed, 0.0),
            spin: DVec3::ZERO,
        };
        for method in &methods {
            let run = method.run(&a, &b, rel, Some(motion), settings, false);
            if let Outcome::Impact { time, .. } = run.summary.outcome {
                assert!(
                    time <= contact * (1.0 + 4.0 * f64::EPSILON),
                    "case {case}, {}: impact at {time:e}, contact at {contact:e}",
                    method.name()
                );
                assert!(
                    contact - time <= 1e-6,
                    "case {case}, {}: {time} vs {contact}",
                    method.name()
                );
            }
        }
    }
}
