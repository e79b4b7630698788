//! Every verdict is a proof: symmetric and mirrored poses, where the origin
//! lands on a face, an edge or a vertex of the first simplex, run through every method
//! on every shape kind it takes, each verdict checked against an independent oracle.
//!
//! Oracles: for polytopes and boxes the exact hull of the vertex differences (distance
//! to its boundary triangles, depth to its face planes); for parry's native kinds
//! parry3d-f64's own distance and contact queries; for the others parry's GJK and EPA on
//! our support maps.

mod common;

use collidescope::parry_bridge::{parry_gjk_distance, parry_native_distance, parry_penetration};
use collidescope::pose::RelativePose;
use collidescope::shape::{Cuboid, Polytope, Shape, SupportMap};
use collidescope::solver::{Method, Outcome, SolverSettings};
use collidescope::{DMat3, DVec3};
use common::{random_primitive, Rng, PRIMITIVE_KINDS};

/// The truth about a pair: signed distance (−depth when overlapping), give or take
/// `uncertainty`, and whether the depth is exact enough to check a method's depth.
struct Truth {
    signed: f64,
    uncertainty: f64,
    depth_exact: bool,
}

/// Closest point of triangle `abc` to the origin (Ericson, "Real-Time Collision
/// Detection", §5.1.5).
fn triangle_distance(a: DVec3, b: DVec3, c: DVec3) -> f64 {
    let p = DVec3::ZERO;
    let (ab, ac, ap) = (b - a, c - a, p - a);
    let (d1, d2) = (ab.dot(ap), ac.dot(ap));
    if d1 <= 0.0 && d2 <= 0.0 {
        return a.length();
    }
    let bp = p - b;
    let (d3, d4) = (ab.dot(bp), ac.dot(bp));
    if d3 >= 0.0 && d4 <= d3 {
        return b.length();
    }
    let vc = d1 * d4 - d3 * d2;
    if vc <= 0.0 && d1 >= 0.0 && d3 <= 0.0 {
        return (a + ab * (d1 / (d1 - d3))).length();
    }
    let cp = p - c;
    let (d5, d6) = (ab.dot(cp), ac.dot(cp));
    if d6 >= 0.0 && d5 <= d6 {
        return c.length();
    }
    let vb = d5 * d2 - d1 * d6;
    if vb <= 0.0 && d2 >= 0.0 && d6 <= 0.0 {
        return (a + ac * (d2 / (d2 - d6))).length();
    }
    let va = d3 * d6 - d5 * d4;
    if va <= 0.0 && (d4 - d3) >= 0.0 && (d5 - d6) >= 0.0 {
        return (b + (c - b) * ((d4 - d3) / ((d4 - d3) + (d5 - d6)))).length();
    }
    let denom = 1.0 / (va + vb + vc);
    (a + ab * (vb * denom) + ac * (vc * denom)).length()
}

/// The points whose hull is the shape (polytopes, boxes, a capsule's segment, a point),
/// in its own frame.
fn corner_points(shape: &Shape) -> Option<Vec<DVec3>> {
    match shape {
        Shape::Point(_) => Some(vec![DVec3::ZERO]),
        Shape::Capsule(c) if c.radius() == 0.0 => {
            let h = DVec3::Y * c.half_height();
            Some(vec![h, -h])
        }
        Shape::Polytope(p) => Some(p.vertices().to_vec()),
        Shape::Cuboid(c) => {
            let h = c.half_extents();
            Some(
                (0..8)
                    .map(|k| {
                        DVec3::new(
                            if k & 1 == 0 { h.x } else { -h.x },
                            if k & 2 == 0 { h.y } else { -h.y },
                            if k & 4 == 0 { h.z } else { -h.z },
                        )
                    })
                    .collect(),
            )
        }
        _ => None,
    }
}

/// The exact hull of the vertex differences: distance to its boundary, depth to its
/// nearest face plane.
fn hull_truth(a: &[DVec3], b: &[DVec3], b_in_a: &RelativePose) -> Option<Truth> {
    let differences: Vec<DVec3> = a
        .iter()
        .flat_map(|p| b.iter().map(move |q| *p - b_in_a.transform_point(*q)))
        .collect();
    if differences.len() <= 4 {
        return Some(small_set_truth(&differences));
    }
    let hull = Polytope::from_points(&differences).ok()?;
    let v = hull.vertices();
    let centre = v.iter().fold(DVec3::ZERO, |s, p| s + *p) / v.len() as f64;
    let scale = v.iter().map(|p| p.length()).fold(0.0, f64::max).max(1.0);
    let mut depth = f64::INFINITY;
    let mut distance = f64::INFINITY;
    let mut solid = false;
    for f in hull.faces() {
        let [p, q, r] = f.map(|i| v[i as usize]);
        distance = distance.min(triangle_distance(p, q, r));
        let mut n = (q - p).cross(r - p);
        if n.length() == 0.0 {
            continue;
        }
        solid = true;
        n = n.normalize();
        if n.dot(p - centre) < 0.0 {
            n = -n;
        }
        depth = depth.min(n.dot(p));
    }
    if !solid {
        return None;
    }
    let signed = if depth > 0.0 { -depth } else { distance };
    Some(Truth {
        signed,
        uncertainty: 1e-9 * scale,
        depth_exact: true,
    })
}

/// The hull of at most four points (two segments' differences, a point and a segment):
/// its distance by every point, segment and triangle of them; 0 inside (a flat set has
/// no depth, and four points in general position are not met here).
fn small_set_truth(points: &[DVec3]) -> Truth {
    let n = points.len();
    let mut distance: f64 = points
        .iter()
        .map(|p| p.length())
        .fold(f64::INFINITY, f64::min);
    for i in 0..n {
        for j in i + 1..n {
            let (p, q) = (points[i], points[j]);
            let e = q - p;
            if e.length_squared() > 0.0 {
                let t = (-p.dot(e) / e.length_squared()).clamp(0.0, 1.0);
                distance = distance.min((p + e * t).length());
            }
            for r in &points[j + 1..] {
                let d = triangle_distance(p, q, *r);
                if d.is_finite() {
                    distance = distance.min(d);
                }
            }
        }
    }
    let scale = points.iter().map(|p| p.length()).fold(1.0, f64::max);
    Truth {
        signed: if distance <= 1e-12 * scale {
            0.0
        } else {
            distance
        },
        uncertainty: 1e-9 * scale,
        depth_exact: n < 4,
    }
}

/// parry's answer: its native distance where it has the kinds, else its GJK on our
/// support maps (which stops about 1e-5 short on curved shapes); its penetration depth
/// on overlap. Only the side of zero is checked against it: its depths on symmetric
/// poses are among what is under test (two capsules with parallel axes: 0.404 where
/// the closed form is 0.448).
fn parry_truth(a: &Shape, b: &Shape, b_in_a: &RelativePose) -> Truth {
    let distance =
        parry_native_distance(a, b, b_in_a).unwrap_or_else(|| parry_gjk_distance(a, b, b_in_a));
    let signed = if distance > 1e-9 {
        distance
    } else {
        parry_penetration(a, b, b_in_a).map_or(distance, |(depth, _)| -depth)
    };
    Truth {
        signed,
        uncertainty: 1e-5,
        depth_exact: false,
    }
}

/// Closed forms where the shapes are hulls of points, or such hulls rounded by a
/// radius (spheres, capsules, dilated boxes: `A ⊖ B` is the cores' difference grown by
/// the radii, so its signed distance is the cores' less the radii); parry otherwise.
fn truth(a: &Shape, b: &Shape, b_in_a: &RelativePose) -> Truth {
    let ((core_a, radius_a), (core_b, radius_b)) = (a.rounded_core(), b.rounded_core());
    match (corner_points(&core_a), corner_points(&core_b)) {
        (Some(pa), Some(pb)) => match hull_truth(&pa, &pb, b_in_a) {
            Some(core) => Truth {
                signed: core.signed - (radius_a + radius_b),
                ..core
            },
            None => Truth {
                signed: 0.0,
                uncertainty: f64::INFINITY,
                depth_exact: false,
            },
        },
        _ => parry_truth(a, b, b_in_a),
    }
}

/// What the poses of one shape are checked at: copies of it offset along axes and
/// diagonals (from coincident to apart, through the touching offset), and turned copies
/// with coincident centres.
fn symmetric_poses(shape: &Shape) -> Vec<RelativePose> {
    let directions = [
        DVec3::X,
        DVec3::Y,
        DVec3::Z,
        -DVec3::Y,
        DVec3::new(1.0, 1.0, 0.0).normalize(),
        DVec3::ONE.normalize(),
    ];
    let mut poses = Vec::new();
    for e in directions {
        let reach = shape.local_support(e).dot(e) - shape.local_support(-e).dot(e);
        for s in [0.0, 1e-4, 0.1, 0.45, 0.9, 1.0, 1.0 + 1e-9, 1.1] {
            poses.push(RelativePose::from_matrix(DMat3::IDENTITY, e * reach * s));
        }
    }
    let turns = [
        DMat3::from_rotation_z(std::f64::consts::FRAC_PI_2),
        DMat3::from_rotation_y(std::f64::consts::FRAC_PI_4),
        DMat3::from_rotation_x(std::f64::consts::PI),
        DMat3::from_euler(glam::EulerRot::XYZ, 0.35, 0.61, 0.17),
    ];
    for turn in turns {
        poses.push(RelativePose::from_matrix(turn, DVec3::ZERO));
        poses.push(RelativePose::from_matrix(turn, DVec3::new(0.0, -0.2, 0.0)));
    }
    poses
}

/// The mirror image of a shape through the plane x = 0 (a polytope's points mirrored;
/// the primitives are their own mirror images).
fn mirrored(shape: &Shape) -> Shape {
    match shape {
        Shape::Polytope(p) => {
            let points: Vec<DVec3> = p
                .vertices()
                .iter()
                .map(|v| DVec3::new(-v.x, v.y, v.z))
                .collect();
            Shape::Polytope(Polytope::from_points(&points).unwrap())
        }
        other => other.clone(),
    }
}

/// Methods a static pair is run with.
fn methods() -> Vec<Method> {
    Method::all()
        .into_iter()
        .filter(|m| {
            m.family() != collidescope::solver::toi::FAMILY
                && *m != Method::interior_point_toi()
                && *m != Method::lp_containment()
        })
        .collect()
}

#[derive(Default)]
struct Tally {
    runs: usize,
    honest_failures: usize,
    /// Honest failures by method and status, for the message.
    failures_by: std::collections::BTreeMap<String, usize>,
    wrong: Vec<String>,
}

impl Tally {
    /// Checks one verdict against the truth.
    fn check(&mut self, method: &str, what: &str, outcome: &Outcome, truth: &Truth) {
        self.runs += 1;
        // `contact` within the tolerance of a touch is the right answer, not a failure.
        let decidable = truth.signed.abs() > 1e-5;
        // (It stays among the runs: the limits below are shares of every run.)
        if matches!(outcome, Outcome::Contact { .. }) && !decidable {
            return;
        }
        if matches!(
            outcome,
            Outcome::Contact { .. }
                | Outcome::IterationCap { .. }
                | Outcome::Degenerate { .. }
                | Outcome::PivotCap { .. }
        ) {
            let key = format!("{method} {}", outcome.status_name());
            *self.failures_by.entry(key).or_default() += 1;
        }
        let u = truth.uncertainty + 1e-6;
        let sd = truth.signed;
        let mut wrong = |why: &str| {
            self.wrong
                .push(format!("{what}: {outcome} ({why}; truth {sd:.9e})"))
        };
        if let Some(d) = outcome.distance() {
            if d.is_nan() {
                wrong("NaN distance");
                return;
            }
        }
        match outcome {
            Outcome::Separated {
                distance,
                lower_bound,
            } => {
                if lower_bound.is_nan() || *lower_bound <= 0.0 {
                    wrong("separated without a positive lower bound");
                } else if sd < -u || *lower_bound > sd + u || *distance < sd - u {
                    wrong("separated, but the truth disagrees");
                }
            }
            Outcome::Stalled { lower_bound, .. } | Outcome::SeparatedEarlyStop { lower_bound } => {
                if lower_bound.is_nan() || *lower_bound <= 0.0 || *lower_bound > sd + u {
                    wrong("a lower bound above the truth");
                }
            }
            Outcome::SeparatingPlane { gap, .. } => {
                if gap.is_nan() || *gap <= 0.0 || *gap > sd + u {
                    wrong("a separating plane the truth denies");
                }
            }
            Outcome::Intersecting => {
                if sd > u {
                    wrong("intersecting, but the shapes are apart");
                }
            }
            Outcome::Touching { normal } => {
                let depth_wrong = if truth.depth_exact {
                    sd.abs() > u
                } else {
                    sd > u
                };
                if depth_wrong || !(normal.length() - 1.0).abs().lt(&1e-9) {
                    wrong("touching not at depth 0 (or no unit normal)");
                }
            }
            Outcome::Penetrating { depth, normal } => {
                let depth_off = truth.depth_exact && (depth + sd).abs() > 1e-6 * depth.max(1.0) + u;
                if sd > u || depth_off {
                    wrong("a depth the truth denies");
                } else if !(normal.length() - 1.0).abs().lt(&1e-9) {
                    wrong("no unit normal");
                }
            }
            Outcome::Contact { distance } => {
                if sd > distance + u {
                    wrong("contact, but the shapes are further apart");
                }
                self.honest_failures += 1;
            }
            Outcome::NotApplicable { .. } => self.runs -= 1,
            Outcome::IterationCap { .. }
            | Outcome::Degenerate { .. }
            | Outcome::PivotCap { .. } => self.honest_failures += 1,
            other => wrong(&format!("unexpected status {}", other.status_name())),
        }
    }
}

#[test]
fn symmetric_and_mirrored_poses_get_verdicts_the_oracle_confirms() {
    let mut rng = Rng::new(2811);
    let mut shapes: Vec<(String, Shape)> = Vec::new();
    for kind in 0..PRIMITIVE_KINDS {
        for _ in 0..2 {
            let s = random_primitive(&mut rng, kind);
            shapes.push((format!("kind {kind}"), s));
        }
    }
    // parry's cuboid_cuboid_EPA pair, and a cube whose faces meet the origin exactly.
    shapes.push((
        "box (2, 1, 1)".into(),
        Shape::Cuboid(Cuboid::new(DVec3::new(2.0, 1.0, 1.0)).unwrap()),
    ));
    shapes.push((
        "unit cube".into(),
        Shape::Cuboid(Cuboid::new(DVec3::splat(0.5)).unwrap()),
    ));
    let settings = SolverSettings {
        max_iterations: 1000,
        ..SolverSettings::default()
    };
    let mut tally = Tally::default();
    for (name, a) in &shapes {
        for b in [a.clone(), mirrored(a)] {
            for pose in symmetric_poses(a) {
                let truth = truth(a, &b, &pose);
                if !truth.uncertainty.is_finite() {
                    continue;
                }
                for method in methods() {
                    let run = method.run(a, &b, pose, None, settings, false);
                    let what = format!(
                        "{} on {name} ({:?}) at {:?} turned {:?}",
                        method.name(),
                        a.kind_name(),
                        pose.translation,
                        pose.rotation.to_cols_array()
                    );
                    tally.check(method.name(), &what, &run.summary.outcome, &truth);
                }
            }
        }
    }
    assert!(
        tally.wrong.is_empty(),
        "{} of {} verdicts contradict the oracle:\n{}",
        tally.wrong.len(),
        tally.runs,
        tally.wrong.join("\n")
    );
    // Honest failures (a cap, `degenerate`, `contact` where the truth is not a touch):
    // at most 1 % for the methods that converge fast; the slow rules (Frank-Wolfe's
    // line search, whose rate is sublinear, and normalised Nesterov's deep overlaps,
    // capped in Coal too) and EPA on curved shapes (linear convergence on a surface
    // with no faces) are held to what they reach today. The fixed step (2/(k+2), a
    // rate of 1/k: the slow baseline the viewer shows) reaches 1e-6 within 1000 steps
    // on few pairs; it is held to the truth of its verdicts only.
    let limits = [
        ("fw_fixed", 1.0),
        ("fw_linesearch", 0.06),
        ("fw_away", 0.03),
        ("nesterov_normalized", 0.03),
        ("epa", 0.08),
        // The contact family's normal is EPA's run: its honest failures are EPA's.
        ("contact", 0.08),
        ("contact_coal", 0.08),
        ("contact_parry", 0.08),
    ];
    let mut per_method: std::collections::BTreeMap<&str, usize> = Default::default();
    for (key, n) in &tally.failures_by {
        *per_method
            .entry(key.split(' ').next().unwrap())
            .or_default() += n;
    }
    let runs_per_method = tally.runs as f64 / methods().len() as f64;
    for (method, failures) in per_method {
        let limit = limits
            .iter()
            .find(|(m, _)| *m == method)
            .map_or(0.01, |l| l.1);
        let share = failures as f64 / runs_per_method;
        assert!(
            share <= limit,
            "{method}: honest failures {failures} of about {runs_per_method:.0} runs \
             ({:.2} %, limit {:.0} %): {:?}",
            share * 100.0,
            limit * 100.0,
            tally.failures_by
        );
    }
}

/// Case by case.
mod regressions {
    use super::*;
    use collidescope::bench::problems::{run_problems, ProblemFile};
    use collidescope::cross_check::{compare, parry_answer, Agreement};
    use collidescope::minkowski::MinkowskiDifference;
    use collidescope::shape::Sphere;
    use collidescope::solver::toi::{time_of_impact, ToiRule, ToiSettings};
    use collidescope::solver::{solve, Algorithm, TetrahedronRule};

    fn epa(a: &Shape, b: &Shape, pose: RelativePose) -> Outcome {
        Method::epa()
            .run(a, b, pose, None, SolverSettings::default(), false)
            .summary
            .outcome
    }

    fn depth_of(outcome: &Outcome) -> f64 {
        match outcome {
            Outcome::Penetrating { depth, .. } => *depth,
            other => panic!("expected a depth, got {other}"),
        }
    }

    /// parry's `cuboid_cuboid_EPA`: identical boxes, B moved by (0, −0.2, 0): the origin
    /// on a face of GJK's simplex; EPA said `touching` (a face of no area was nearest).
    #[test]
    fn epa_on_identical_boxes_offset_along_one_axis_finds_the_depth() {
        let a = Shape::Cuboid(Cuboid::new(DVec3::new(2.0, 1.0, 1.0)).unwrap());
        for offset in [DVec3::new(0.0, -0.2, 0.0), DVec3::new(0.0, -0.2, 1e-4)] {
            let pose = RelativePose::from_matrix(DMat3::IDENTITY, offset);
            let depth = depth_of(&epa(&a, &a, pose));
            assert!((depth - 1.8).abs() < 1e-9, "offset {offset}: depth {depth}");
        }
    }

    /// Coincident centres, B turned: the depth of the exact hull of vertex differences.
    #[test]
    fn epa_on_boxes_with_coincident_centres_matches_the_exact_hull() {
        let a = Shape::Cuboid(Cuboid::new(DVec3::new(2.0, 1.0, 1.0)).unwrap());
        let corners = corner_points(&a).unwrap();
        for turn in [
            DMat3::from_rotation_z(0.4),
            DMat3::from_rotation_y(std::f64::consts::FRAC_PI_4),
            DMat3::from_euler(glam::EulerRot::XYZ, 0.3, 0.5, 0.7),
        ] {
            let pose = RelativePose::from_matrix(turn, DVec3::ZERO);
            let truth = hull_truth(&corners, &corners, &pose).unwrap();
            let depth = depth_of(&epa(&a, &a, pose));
            assert!(
                (depth + truth.signed).abs() < 1e-9,
                "{depth} vs {}",
                -truth.signed
            );
        }
    }

    /// Overlaps of 1e-4 to 0.1 between ellipsoids and between polytopes: no method says
    /// `separated` (its lower bound would have to be above 0), none answers NaN.
    #[test]
    fn no_method_calls_overlapping_shapes_separated() {
        use collidescope::bench::protocol::{place_at_distances, random_ellipsoid};
        let mut rng = Rng::new(28);
        let settings = SolverSettings {
            max_iterations: 1000,
            ..SolverSettings::default()
        };
        let mut runs = 0;
        for pair in 0..40 {
            let (a, b) = if pair % 2 == 0 {
                (random_ellipsoid(&mut rng), random_ellipsoid(&mut rng))
            } else {
                (random_primitive(&mut rng, 8), random_primitive(&mut rng, 8))
            };
            let turn = DMat3::from_quat(rng.rotation());
            let overlaps = [-0.1, -0.01, -1e-3, -1e-4];
            for pose in place_at_distances(&a, &b, turn, &overlaps, &mut rng) {
                for algorithm in Algorithm::ALL {
                    let run = solve(algorithm, MinkowskiDifference::new(&a, &b, pose), settings);
                    runs += 1;
                    assert!(
                        !run.outcome.proves_apart(),
                        "{algorithm} on an overlap: {}",
                        run.outcome
                    );
                    assert!(run.outcome.distance().is_none_or(|d| !d.is_nan()));
                }
            }
        }
        assert!(runs > 1000);
    }

    /// parry #246's kind of pair: a triangle's vertex 4e-8 from another triangle's edge.
    /// GJK proves them apart; EPA answers with GJK's distance and its statuses.
    #[test]
    fn epa_keeps_gjks_separated_answer_on_nearly_touching_triangles() {
        let a = Shape::Polytope(
            Polytope::from_points(&[
                DVec3::new(0.0, 0.0, 0.0),
                DVec3::new(1.0, 0.0, 0.0),
                DVec3::new(0.0, 1.0, 0.0),
            ])
            .unwrap(),
        );
        let b = Shape::Polytope(
            Polytope::from_points(&[
                DVec3::new(0.5, 0.5 + 4e-8 * std::f64::consts::SQRT_2, 0.0),
                DVec3::new(1.5, 1.5, 0.3),
                DVec3::new(1.5, 1.2, -0.4),
            ])
            .unwrap(),
        );
        let pose = RelativePose::from_matrix(DMat3::IDENTITY, DVec3::ZERO);
        match epa(&a, &b, pose) {
            Outcome::Separated {
                distance,
                lower_bound,
            } => {
                assert!(lower_bound > 0.0 && lower_bound <= distance);
                assert!((distance - 4e-8).abs() < 1e-12, "{distance}");
            }
            other => panic!("expected separated, got {other}"),
        }
    }

    /// An intersection whose only member is a cone (or a cylinder) is bounded by its
    /// side and base together; the file's problems all get answers.
    #[test]
    fn an_intersection_of_one_cone_is_a_body_and_the_file_is_answered() {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/data/intersection_of_a_cone.json");
        let file = ProblemFile::load(&path).unwrap();
        let results = run_problems(
            &file,
            false,
            TetrahedronRule::RegionTree,
            &[Method::interior_point()],
        )
        .unwrap();
        for (r, expected) in results.iter().zip([0.2, 0.0, 0.3]) {
            let answer = &r.algorithms["interior_point"];
            let d = answer
                .distance
                .unwrap_or_else(|| panic!("problem {}: {answer:?}", r.index));
            assert!(
                (d - expected).abs() < 1e-6,
                "problem {}: {d} vs {expected}",
                r.index
            );
        }
        // A flat triangle has no volume: that problem alone is not applicable, with why.
        let last = &results[3].algorithms["interior_point"];
        assert_eq!(last.status, "not_applicable");
        assert!(last.reason.as_deref().is_some_and(|r| !r.is_empty()));
        // A shape that cannot be built (one half-space bounds nothing): its problem says
        // why, the others are answered above.
        let unbuilt = &results[4].algorithms["interior_point"];
        assert_eq!(unbuilt.status, "not_applicable");
        let why = unbuilt.reason.as_deref().unwrap_or_default();
        assert!(
            why.contains("shape 4") && why.contains("unbounded"),
            "{why}"
        );
    }

    /// Spheres of radius 0.5 and 0.3 whose closest approach overlaps by 1e-6: the contact
    /// tolerance over a closing speed of ~1e-3 was a time error of 2e-6.
    #[test]
    fn a_grazing_approach_has_its_time_within_1e_6() {
        let (a, b) = (
            Shape::Sphere(Sphere::new(0.5).unwrap()),
            Shape::Sphere(Sphere::new(0.3).unwrap()),
        );
        for (miss, half_run) in [(1e-6, 0.3), (1e-6, 2.0), (1e-9, 0.3)] {
            let closest: f64 = 0.8 - miss;
            let start = DVec3::new(-half_run, closest, 0.0);
            let v = DVec3::new(2.0 * half_run, 0.0, 0.0);
            let truth = 0.5 - (0.64 - closest * closest).sqrt() / (2.0 * half_run);
            for rule in [
                ToiRule::RayCast,
                ToiRule::Advancement,
                ToiRule::Halving,
                ToiRule::Brent,
            ] {
                let pose = RelativePose::from_matrix(DMat3::IDENTITY, start);
                let run = time_of_impact(&a, &b, pose, v, rule, ToiSettings::default(), None);
                match run.outcome {
                    Outcome::Impact { time, .. } => assert!(
                        (time - truth).abs() <= 1e-6,
                        "{rule:?} miss {miss}: t = {time}, truth {truth}"
                    ),
                    // Within the contact tolerance of a touch: said as such.
                    Outcome::Grazing { time, .. } if miss < 1e-8 => {
                        assert!((time - 0.5).abs() < 1e-3)
                    }
                    ref other => panic!("{rule:?} miss {miss}: {other}"),
                }
            }
        }
    }

    /// parry has no implicit bodies: its answer on one is not compared.
    #[test]
    fn parry_is_not_comparable_on_implicit_bodies() {
        let text = r#"Scene(version: 1, name: "sq",
                a: Body(shape: Superquadric(radii: (1.0, 0.7, 1.5), exponents: (1.3, 1.4, 1.1))),
                b: Body(shape: Sphere(radius: 0.3), translation: (2.0, 0.0, 0.0)),
                algorithms: ["interior_point"],
                settings: Settings(tolerance: 1e-8, criterion: DualityGap, kind: Absolute,
                    max_iterations: 100, initial_guess: CentreDifference, mode: Distance))"#;
        let scene =
            collidescope::scene::Scene::parse(std::path::Path::new("implicit.ron"), text).unwrap();
        let (a, b, pose) = (&scene.a().shape, &scene.b().shape, scene.b_in_a());
        let run = Method::interior_point().run(a, b, pose, None, scene.settings, false);
        let parry = parry_answer(a, b, &pose, None);
        let agreement = compare(&run.summary, &scene.settings, &parry);
        assert!(
            matches!(agreement, Agreement::NotComparable(_)),
            "{agreement}"
        );
        assert!(agreement.to_string().starts_with("not comparable"));
    }
}

/// Reproducers of bad input that touch the answers: sizes beyond the points' limit are
/// refused by name, a peer's panic is its failure, a problem's pose must be rigid.
mod reliability {
    use collidescope::bench::problems::ProblemFile;
    use collidescope::cross_check::guarded;
    use collidescope::shape::{Cone, Cuboid};
    use collidescope::DVec3;

    #[test]
    fn sizes_beyond_1e75_are_refused_with_the_parameter_named() {
        let err = Cuboid::new(DVec3::new(1e308, 1.0, 1.0))
            .unwrap_err()
            .to_string();
        assert!(err.contains("half") || err.contains("box"), "{err}");
        assert!(err.contains("1e75"), "{err}");
        assert!(Cone::new(1e308, 1e-308).is_err());
        assert!(Cuboid::new(DVec3::splat(1e75)).is_ok());
    }

    #[test]
    fn a_panic_inside_a_peer_becomes_its_message() {
        let out: Result<(), String> = guarded(|| panic!("index out of bounds"));
        assert_eq!(out.unwrap_err(), "index out of bounds");
        assert_eq!(guarded(|| 3), Ok(3));
    }

    #[test]
    fn a_problem_with_a_non_rigid_or_huge_pose_is_refused_naming_the_problem() {
        let dir = crate::common::TempDir::new("pose");
        for (rotation, translation, expect) in [
            ("[[1e308,0,0],[0,1,0],[0,0,1]]", "[0,0,0]", "not rigid"),
            ("[[2,0,0],[0,1,0],[0,0,1]]", "[0,0,0]", "not rigid"),
            ("[[1,0,0],[0,1,0],[0,0,1]]", "[1e308,0,0]", "b_translation"),
        ] {
            let text = format!(
                r#"{{"tolerance": 1e-8, "criterion": "duality_gap_absolute", "max_iterations": 100,
                    "shapes": [{{"sphere": 1.0}}],
                    "problems": [{{"a": 0, "b": 0, "b_rotation": {rotation}, "b_translation": {translation}, "target_distance": 1.0}}]}}"#
            );
            let path = dir.join("pose.json");
            std::fs::write(&path, text).unwrap();
            let err = ProblemFile::load(&path).unwrap_err().to_string();
            assert!(err.contains("problem 0") && err.contains(expect), "{err}");
        }
    }

    /// An intersection holding a polytope of a thousand points: its box comes from the
    /// polytope (the half-spaces' vertex enumeration, cubic in its two thousand faces,
    /// took 17 s); the distance equals GJK's on the hull itself.
    #[test]
    fn an_intersection_of_a_large_polytope_answers_like_gjk_on_it() {
        use collidescope::bench::problems::run_problems;
        use collidescope::solver::{Method, TetrahedronRule};
        let mut rng = super::Rng::new(34);
        let points: Vec<String> = (0..1000)
            .map(|_| {
                let v = rng.unit_vector();
                format!("[{:?}, {:?}, {:?}]", v.x, v.y, v.z)
            })
            .collect();
        let hull = format!(
            r#"{{"convex_hull": {{"vertices": [{}]}}}}"#,
            points.join(", ")
        );
        let identity = "[[1,0,0],[0,1,0],[0,0,1]]";
        let text = format!(
            r#"{{"tolerance": 1e-8, "criterion": "duality_gap_absolute", "max_iterations": 100,
                "shapes": [{{"intersection": [{{"shape": {hull}, "rotation": {identity}, "translation": [0,0,0]}}]}}, {hull}, {{"sphere": 0.3}}],
                "problems": [
                    {{"a": 0, "b": 2, "b_rotation": {identity}, "b_translation": [2.0, 0.1, 0], "target_distance": 0.7}},
                    {{"a": 1, "b": 2, "b_rotation": {identity}, "b_translation": [2.0, 0.1, 0], "target_distance": 0.7}}]}}"#
        );
        let dir = crate::common::TempDir::new("big");
        let path = dir.join("big.json");
        std::fs::write(&path, text).unwrap();
        let file = ProblemFile::load(&path).unwrap();
        let methods = [Method::interior_point(), "gjk".parse::<Method>().unwrap()];
        let results = run_problems(&file, false, TetrahedronRule::RegionTree, &methods).unwrap();
        let ip = results[0].algorithms["interior_point"].distance.unwrap();
        let gjk = results[1].algorithms["gjk"].distance.unwrap();
        assert!((ip - gjk).abs() < 1e-6, "interior point {ip}, GJK {gjk}");
    }
}

/// A distance is a point of `A ⊖ B` and its lower bound a plane, for every distance
/// method, on long thin shapes far apart at a tight tolerance. Fully-corrective
/// Frank-Wolfe re-optimises with GJK's projection of rounded differences: on a
/// 24 × 0.5 × 8.7 ellipsoid against a capsule 106 away it stopped at 106.0212 where the
/// distance is 106.0280, with a "lower bound" equal to it; it now ends as GJK does
/// (the point recomputed from the shapes' points, the plane checked against it).
#[test]
fn distances_are_points_of_the_difference_on_long_thin_far_pairs() {
    use collidescope::shape::{Capsule, Ellipsoid};
    use collidescope::solver::{Criterion, InitialGuess};
    let settings = |criterion| SolverSettings {
        tolerance: 1e-10,
        criterion,
        max_iterations: 2000,
        initial_guess: InitialGuess::OriginDifference,
        ..SolverSettings::default()
    };
    let rows = [
        [
            0.5786338781946018,
            -0.33737687313346065,
            -0.7425359792496007,
        ],
        [
            -0.8081993831358102,
            -0.3594560669920832,
            -0.4664816105716052,
        ],
        [
            -0.10952895555226783,
            0.8700391838171839,
            -0.4806612388349589,
        ],
    ];
    let mut pairs = vec![(
        Shape::Ellipsoid(
            Ellipsoid::new(DVec3::new(
                24.393758172380764,
                0.49650972468564997,
                8.662439005718287,
            ))
            .unwrap(),
        ),
        Shape::Capsule(Capsule::new(3.119623874749279, 1.9319472036570136).unwrap()),
        RelativePose::from_matrix(
            DMat3::from_cols_array_2d(&rows).transpose(),
            DVec3::new(-20.400537135375963, -110.14871192675753, 4.304834862617877),
        ),
    )];
    let mut rng = Rng::new(41);
    for _ in 0..60 {
        let scale = 10f64.powf(rng.range(-1.0, 2.0));
        let thin = |rng: &mut Rng| {
            DVec3::new(
                rng.range(0.2, 1.0),
                rng.range(0.005, 0.05),
                rng.range(0.1, 1.0),
            ) * scale
        };
        let a = Shape::Ellipsoid(Ellipsoid::new(thin(&mut rng)).unwrap());
        let b = match rng.index(2) {
            0 => Shape::Ellipsoid(Ellipsoid::new(thin(&mut rng)).unwrap()),
            _ => Shape::Capsule(Capsule::new(0.1 * scale, 0.2 * scale).unwrap()),
        };
        let offset = rng.unit_vector() * scale * rng.range(1.5, 8.0);
        pairs.push((
            a,
            b,
            RelativePose::from_matrix(DMat3::from_quat(rng.rotation()), offset),
        ));
    }
    let mut wrong = Vec::new();
    for (i, (a, b, rel)) in pairs.iter().enumerate() {
        let truth = parry_gjk_distance(a, b, rel);
        for method in Method::all().into_iter().filter(|m| {
            m.family() == collidescope::solver::gjk::FAMILY
                || m.family() == collidescope::solver::frank_wolfe::FAMILY
        }) {
            for criterion in [Criterion::DualityGap, Criterion::VanDenBergen] {
                let run = method
                    .run(a, b, *rel, None, settings(criterion), false)
                    .summary;
                if let Outcome::Separated {
                    distance,
                    lower_bound,
                } = run.outcome
                {
                    // parry's GJK on support maps stops up to 1e-5 short on curved shapes.
                    let slack = 1e-5 * truth.max(1.0);
                    if distance < truth - slack
                        || lower_bound > truth + slack
                        || lower_bound > distance
                    {
                        wrong.push(format!(
                        "pair {i} {method} {criterion:?}: distance {distance}, lower bound {lower_bound}, parry {truth}"
                    ));
                    }
                }
            }
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}
