//! Thin, huge, tiny and far-away polytopes (issue: "the support is always the true
//! maximum"): boxes of aspect 1 … 1e6 in random rotations, thin plates, shapes at 1e5
//! and of size 1e-6 and 1e6, needles end to end, crossing and side by side. Distances
//! against closed forms, witness points on the right ends, hill climbing against the
//! scan, and parry3d-f64 where it accepts the input.

mod common;

use collidescope::minkowski::MinkowskiDifference;
use collidescope::parry_bridge::parry_native_distance;
use collidescope::pose::RelativePose;
use collidescope::shape::{HullSource, PointShape, Polytope, Shape};
use collidescope::solver::{
    solve_traced, Algorithm, Criterion, CriterionKind, DirectionRule, InitialGuess, Outcome,
    SolverSettings,
};
use collidescope::{DMat3, DQuat, DVec3};
use common::Rng;
use proptest::prelude::*;

const GJK_FAMILY: [Algorithm; 5] = [
    Algorithm::Gjk(DirectionRule::Vanilla),
    Algorithm::Gjk(DirectionRule::Nesterov),
    Algorithm::Gjk(DirectionRule::NesterovNormalized),
    Algorithm::Gjk(DirectionRule::Polyak),
    Algorithm::Gjk(DirectionRule::NesterovRestart),
];

/// Duality-gap stop for a pair `size` across at distance about `distance`: the gap's
/// own round-off is about `1e-16 · d · size`, so ε is set a little above that; its
/// guarantee `|d − d*| ≤ √ε` is then far below `d`.
fn settings(size: f64, distance: f64) -> SolverSettings {
    SolverSettings {
        tolerance: 1e-12 * size * distance,
        criterion: Criterion::DualityGap,
        kind: CriterionKind::Absolute,
        max_iterations: 1000,
        initial_guess: InitialGuess::CentreDifference,
        ..SolverSettings::default()
    }
}

/// The eight corners of a box with half extents `half`, rotated by `rotation` about
/// the origin, then centred at `centre`.
fn box_corners(half: DVec3, rotation: DQuat, centre: DVec3) -> Vec<DVec3> {
    (0..8)
        .map(|i| {
            let sign = |bit: usize| if i & bit == 0 { -1.0 } else { 1.0 };
            rotation * (half * DVec3::new(sign(1), sign(2), sign(4))) + centre
        })
        .collect()
}

fn polytope(points: &[DVec3]) -> Shape {
    Shape::Polytope(Polytope::from_points(points).unwrap())
}

/// Runs every GJK variant on A and B (both at the identity) and checks the distance
/// against `expected` within the criterion's guarantee; returns the witness points of
/// plain GJK.
fn check_distance(a: &Shape, b: &Shape, expected: f64, size: f64, label: &str) -> (DVec3, DVec3) {
    let settings = settings(size, expected);
    let guarantee = settings.tolerance.sqrt();
    let mut witnesses = None;
    for algorithm in GJK_FAMILY {
        let md = MinkowskiDifference::new(
            a,
            b,
            RelativePose::from_matrix(DMat3::IDENTITY, DVec3::ZERO),
        );
        let run = solve_traced(algorithm, md, settings);
        match run.summary.outcome {
            Outcome::Separated { distance, .. } => {
                assert!(
                    (distance - expected).abs() <= guarantee,
                    "{label} {algorithm}: distance {distance:e}, expected {expected:e} (±{guarantee:e})"
                );
                // On polytopes GJK lands on the exact face: far better than the bound.
                assert!(
                    (distance - expected).abs() <= 1e-9 * size,
                    "{label} {algorithm}: distance {distance:e}, expected {expected:e}"
                );
            }
            Outcome::Stalled {
                distance,
                lower_bound,
            } => {
                assert!(
                    lower_bound <= expected + 1e-9 * size && expected <= distance + 1e-9 * size,
                    "{label} {algorithm}: stalled with [{lower_bound:e}, {distance:e}], expected {expected:e}"
                );
                assert!((distance - expected).abs() <= 1e-9 * size);
            }
            // Momentum runs may need more than the cap on needles (an explicit "no
            // answer", never a wrong one); plain GJK and Polyak always converge.
            Outcome::IterationCap { .. } if is_nesterov(algorithm) => {}
            ref other => panic!("{label} {algorithm}: {other:?}, expected distance {expected:e}"),
        }
        if witnesses.is_none() {
            witnesses = run.summary.witness_a.zip(run.summary.witness_b);
        }
    }
    witnesses.unwrap()
}

fn is_nesterov(algorithm: Algorithm) -> bool {
    matches!(
        algorithm,
        Algorithm::Gjk(DirectionRule::Nesterov | DirectionRule::NesterovNormalized)
    )
}

/// Hill climbing reaches the scan's value; the scan over the hull reaches the maximum
/// over the input points (up to the hull check's tolerance).
fn check_supports(points: &[DVec3], shape: &Shape, rng: &mut Rng, label: &str) {
    let Shape::Polytope(p) = shape else {
        unreachable!()
    };
    let size = bounding_diagonal(points);
    let mut warm = 0;
    for i in 0..400 {
        let d = if i < 6 {
            [
                DVec3::X,
                DVec3::Y,
                DVec3::Z,
                -DVec3::X,
                -DVec3::Y,
                -DVec3::Z,
            ][i]
        } else {
            rng.unit_vector()
        };
        let input_max = points.iter().map(|q| q.dot(d)).fold(f64::MIN, f64::max);
        let (brute, _) = p.support_index_brute_force(d);
        let brute_value = p.vertices()[brute].dot(d);
        assert!(
            (brute_value - input_max).abs() <= 1e-12 * size,
            "{label}: hull support {brute_value:e} but the points reach {input_max:e} along {d}"
        );
        let (climbed, _) = p.support_index_hill_climb(d, warm);
        assert_eq!(
            p.vertices()[climbed].dot(d),
            brute_value,
            "{label}: hill climbing stopped short along {d}"
        );
        warm = climbed;
    }
}

fn bounding_diagonal(points: &[DVec3]) -> f64 {
    let (lo, hi) = points.iter().fold(
        (DVec3::splat(f64::INFINITY), DVec3::splat(f64::NEG_INFINITY)),
        |(lo, hi), p| (lo.min(*p), hi.max(*p)),
    );
    (hi - lo).length()
}

const ASPECTS: [f64; 9] = [1.0, 10.0, 100.0, 1e3, 3e3, 1e4, 1e5, 1e6, 3e6];

#[test]
fn boxes_of_any_aspect_in_random_rotations_match_closed_forms() {
    let mut rng = Rng::new(8);
    let (mut parry_checked, mut parry_gave_up) = (0, 0);
    for aspect in ASPECTS {
        for round in 0..6 {
            let rotation = rng.rotation();
            let half = DVec3::new(aspect, 1.0, 1.0) * 0.5;
            let size = 2.0 * half.length();
            let axis = |v: DVec3| rotation * v;
            // (offset of B's centre in the boxes' frame, closed-form distance, which
            // coordinate the facing ends have in A's and in B's box frame)
            let gap = [1e-3, 0.25, 7.0][round % 3];
            let cases = [
                ("end to end", DVec3::new(2.0 * half.x + gap, 0.0, 0.0), gap),
                (
                    "side by side",
                    DVec3::new(0.3 * half.x, 2.0 * half.y + gap, 0.0),
                    gap,
                ),
                (
                    "diagonal",
                    DVec3::new(2.0 * half.x + gap, 2.0 * half.y + gap, 0.0),
                    gap * 2f64.sqrt(),
                ),
            ];
            for (what, offset, expected) in cases {
                let a_points = box_corners(half, rotation, DVec3::ZERO);
                let b_points = box_corners(half, rotation, axis(offset));
                let (a, b) = (polytope(&a_points), polytope(&b_points));
                let label = format!("aspect {aspect:e} {what} rotation {round}");
                for (points, shape) in [(&a_points, &a), (&b_points, &b)] {
                    let Shape::Polytope(p) = shape else {
                        unreachable!()
                    };
                    assert_eq!(p.vertices().len(), 8, "{label}: {}", p.hull_source());
                    assert_eq!(p.faces().len(), 12, "{label}");
                    check_supports(points, shape, &mut rng, &label);
                }
                let (wa, wb) = check_distance(&a, &b, expected, size, &label);
                // Witness points on the facing sides: in the box frame, A's point is at
                // A's +x end (end to end) or +y side (side by side), B's at its −x / −y.
                let local = |p: DVec3| rotation.inverse() * p;
                let (la, lb) = (local(wa), local(wb) - offset);
                let tol = 1e-9 * size;
                match what {
                    "end to end" => {
                        assert!((la.x - half.x).abs() <= tol, "{label}: A witness {la}");
                        assert!((lb.x + half.x).abs() <= tol, "{label}: B witness {lb}");
                    }
                    "side by side" => {
                        assert!((la.y - half.y).abs() <= tol, "{label}: A witness {la}");
                        assert!((lb.y + half.y).abs() <= tol, "{label}: B witness {lb}");
                    }
                    _ => {
                        assert!((la.x - half.x).abs() <= tol && (la.y - half.y).abs() <= tol);
                        assert!((lb.x + half.x).abs() <= tol && (lb.y + half.y).abs() <= tol);
                    }
                }
                assert!(
                    ((wa - wb).length() - expected).abs() <= 1e-9 * size,
                    "{label}: witnesses {wa} {wb} are {} apart",
                    (wa - wb).length()
                );
                // parry's GJK gives up silently on some of these (distance 0.0 after its
                // 100 iterations): only its positive answers are a reference.
                let identity = RelativePose::from_matrix(DMat3::IDENTITY, DVec3::ZERO);
                match parry_native_distance(&a, &b, &identity) {
                    Some(reference) if reference > 0.0 => {
                        assert!(
                            (reference - expected).abs() <= 1e-6 * expected.max(1.0),
                            "{label}: parry says {reference:e}"
                        );
                        parry_checked += 1;
                    }
                    _ => parry_gave_up += 1,
                }
            }
        }
    }
    eprintln!("parry3d-f64 agreed on {parry_checked} pairs and gave up on {parry_gave_up}");
    assert!(
        parry_checked > parry_gave_up,
        "parry answered too few pairs to compare"
    );
}

#[test]
fn crossing_needles_meet_in_the_middle() {
    let mut rng = Rng::new(9);
    for aspect in ASPECTS {
        let rotation = rng.rotation();
        let half = DVec3::new(aspect, 1.0, 1.0) * 0.5;
        let gap = 1e-3;
        let a_points = box_corners(half, rotation, DVec3::ZERO);
        // B along y, lying across A, `gap` above it (in the boxes' frame).
        let crossing = rotation * DQuat::from_rotation_z(std::f64::consts::FRAC_PI_2);
        let b_points = box_corners(half, crossing, rotation * DVec3::new(0.0, 0.0, 1.0 + gap));
        let (a, b) = (polytope(&a_points), polytope(&b_points));
        let label = format!("crossing needles, aspect {aspect:e}");
        let (wa, wb) = check_distance(&a, &b, gap, 2.0 * half.length(), &label);
        let (la, lb) = (rotation.inverse() * wa, rotation.inverse() * wb);
        assert!((la.z - 0.5).abs() <= 1e-9 * aspect, "{label}: {la}");
        assert!((lb.z - (0.5 + gap)).abs() <= 1e-9 * aspect, "{label}: {lb}");
        assert!(la.x.abs() <= 0.5 + 1e-9 * aspect && la.y.abs() <= 0.5 + 1e-9 * aspect);
    }
}

#[test]
fn points_against_thin_boxes_match_clamping() {
    let mut rng = Rng::new(10);
    for aspect in ASPECTS {
        let rotation = rng.rotation();
        let half = DVec3::new(aspect, 1.0, 1e-3) * 0.5;
        let points = box_corners(half, rotation, DVec3::ZERO);
        let shape = polytope(&points);
        check_supports(&points, &shape, &mut rng, "point vs box");
        for _ in 0..8 {
            let local = DVec3::new(
                rng.range(-1.5, 1.5) * half.x,
                rng.range(-3.0, 3.0) * half.y,
                rng.range(-3.0, 3.0) * half.z + 2.0 * half.z,
            );
            let expected = (local - local.clamp(-half, half)).length();
            if expected < 1e-6 {
                continue;
            }
            let point = Shape::Point(PointShape);
            let rel = RelativePose::from_matrix(DMat3::IDENTITY, rotation * local);
            let settings = settings(2.0 * half.length(), expected);
            for algorithm in GJK_FAMILY {
                let md = MinkowskiDifference::new(&shape, &point, rel);
                match solve_traced(algorithm, md, settings).summary.outcome {
                    Outcome::Separated { distance, .. } => assert!(
                        (distance - expected).abs() <= settings.tolerance.sqrt(),
                        "aspect {aspect:e} {algorithm}: {distance:e} vs {expected:e} rotation {rotation:?} local {local:?}"
                    ),
                    Outcome::Stalled { distance, .. } => assert!(
                        (distance - expected).abs() <= 1e-9 * half.length(),
                        "aspect {aspect:e} {algorithm}: {distance:e} vs {expected:e} rotation {rotation:?} local {local:?}"
                    ),
                    Outcome::IterationCap { .. } if is_nesterov(algorithm) => {}
                    other => panic!("aspect {aspect:e} {algorithm}: {other:?}"),
                }
            }
        }
    }
}

#[test]
fn thin_plates_tiny_huge_and_far_shapes() {
    let mut rng = Rng::new(11);
    // (half extents, scale, where the pair sits)
    let cases = [
        (
            "plate 1×1×1e-6",
            DVec3::new(0.5, 0.5, 0.5e-6),
            1.0,
            DVec3::ZERO,
        ),
        ("unit at 1e5", DVec3::splat(0.5), 1.0, DVec3::splat(1e5)),
        (
            "needle at 1e5",
            DVec3::new(50.0, 0.005, 0.005),
            1.0,
            DVec3::new(1e5, -1e5, 3e4),
        ),
        ("size 1e-6", DVec3::splat(0.5), 1e-6, DVec3::ZERO),
        ("size 1e6", DVec3::splat(0.5), 1e6, DVec3::ZERO),
        (
            "plate of size 1e6",
            DVec3::new(0.5, 0.5, 0.5e-6),
            1e6,
            DVec3::splat(-3e5),
        ),
    ];
    for (what, half, scale, place) in cases {
        for round in 0..4 {
            let rotation = rng.rotation();
            let half = half * scale;
            let gap = 1e-3 * scale;
            let offset = [
                DVec3::new(0.0, 0.0, 2.0 * half.z + gap),
                DVec3::new(2.0 * half.x + gap, 0.0, 0.0),
            ][round % 2];
            let a_points = box_corners(half, rotation, place);
            let b_points = box_corners(half, rotation, place + rotation * offset);
            let (a, b) = (polytope(&a_points), polytope(&b_points));
            let label = format!("{what}, round {round}");
            check_supports(&a_points, &a, &mut rng, &label);
            // Coordinates at 1e5 carry round-off of ~1e-11 per vertex: the distance is
            // held to that, or to the criterion's guarantee when larger.
            let size = (2.0 * half.length()).max(place.length() * 1e-3);
            check_distance(&a, &b, gap, size, &label);
        }
    }
}

#[test]
fn the_issues_examples() {
    // Two needles 100 × 0.01 × 0.01, 0.001 apart end to end.
    let half = DVec3::new(50.0, 0.005, 0.005);
    let a = box_corners(half, DQuat::IDENTITY, DVec3::new(50.0, 0.005, 0.005));
    let b = box_corners(half, DQuat::IDENTITY, DVec3::new(150.001, 0.005, 0.005));
    let (wa, wb) = check_distance(&polytope(&a), &polytope(&b), 1e-3, 100.0, "needles");
    assert!((wa.x - 100.0).abs() < 1e-9 && (wb.x - 100.001).abs() < 1e-9);
    // A 1e4 × 1 × 1 rod 0.001 above a unit cube.
    let rod = box_corners(
        DVec3::new(5e3, 0.5, 0.5),
        DQuat::IDENTITY,
        DVec3::new(0.0, 1.001, 0.0),
    );
    let cube = box_corners(DVec3::splat(0.5), DQuat::IDENTITY, DVec3::ZERO);
    check_distance(
        &polytope(&rod),
        &polytope(&cube),
        1e-3,
        1e4,
        "rod over cube",
    );
    // A unit tetrahedron plus a point at 1e308 is refused, not called a segment.
    let far = [
        DVec3::ZERO,
        DVec3::X,
        DVec3::Y,
        DVec3::Z,
        DVec3::splat(1e308),
    ];
    let error = Polytope::from_points(&far).unwrap_err().to_string();
    assert!(
        error.contains("point 4") && error.contains("overflow"),
        "{error}"
    );
    // Thin shapes take the exact path when parry's hull fails, and say so.
    let needle = Polytope::from_points(&box_corners(
        DVec3::new(5e3, 0.5, 0.5),
        DQuat::from_rotation_y(0.3),
        DVec3::ZERO,
    ))
    .unwrap();
    assert!(
        matches!(
            needle.hull_source(),
            HullSource::Parry | HullSource::ExactQuickhull { .. }
        ),
        "{}",
        needle.hull_source()
    );
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    /// Nearly flat, nearly collinear, and spread over 1e6 in one axis and 1e-3 in the
    /// others, near the origin or far from it: the hull used contains every input point
    /// (to the hull check's tolerance: flat means exactly flat, nothing is dropped), and
    /// hill climbing over its adjacency reaches the scan's maximum.
    #[test]
    fn nearly_degenerate_point_sets_stay_inside_their_hull(
        kind in 0usize..5,
        n in 4usize..124,
        far in 0usize..3,
        seed in any::<u64>(),
    ) {
        let mut rng = Rng::new(seed);
        let rotation = rng.rotation();
        let place = rng.vector(1e3) * [0.0, 1.0, 100.0][far];
        let squash = match kind {
            0 => DVec3::new(1.0, 1.0, 1e-7),  // nearly flat
            1 => DVec3::new(1.0, 1e-7, 1e-7), // nearly collinear
            2 => DVec3::new(1e6, 1e-3, 1e-3), // spread
            3 => DVec3::new(1.0, 1.0, 1e-12), // a plate 1e-12 thick: still a solid
            _ => DVec3::new(1e3, 1.0, 1e-4),
        };
        let points: Vec<DVec3> = (0..n)
            .map(|_| rotation * (rng.vector(1.0) * squash) + place)
            .collect();
        let shape = polytope(&points);
        let Shape::Polytope(p) = &shape else {
            unreachable!()
        };
        let tolerance = 1e-12 * bounding_diagonal(&points);
        let mut warm = 0;
        for _ in 0..200 {
            let d = rng.unit_vector();
            let input = points.iter().map(|q| q.dot(d)).fold(f64::MIN, f64::max);
            let hull = p.vertices().iter().map(|q| q.dot(d)).fold(f64::MIN, f64::max);
            prop_assert!(input - hull <= tolerance, "{} outside along {}", input - hull, d);
            let (climbed, _) = p.support_index_hill_climb(d, warm);
            prop_assert_eq!(p.vertices()[climbed].dot(d), hull, "climb stopped short");
            warm = climbed;
        }
    }
}

/// A tiny box (1e-4 … 1e-2) just above, touching or just inside the face of a huge flat
/// box (up to 1e4 × 1e4 × 1e-3), near the origin or 1e3 … 1e5 away: GJK's separated
/// answers hold the gap, its "intersecting" only when they overlap, and EPA's signed
/// distance holds the gap or the depth. (Round-off once made GJK enclose the origin in a
/// sliver, or stop on a point outside A ⊖ B; both are now certified by exact signs.)
#[test]
fn tiny_boxes_on_huge_faces_far_away() {
    use collidescope::solver::epa::{gjk_settings_for_epa, penetration, EpaSettings};
    let mut rng = Rng::new(5);
    for case in 0..900 {
        let far = rng.vector(1.0) * [0.0, 1e3, 1e5][case % 3];
        let big = DVec3::new(
            rng.range(1.0, 1e4),
            rng.range(1.0, 1e4),
            rng.range(1e-3, 1.0),
        );
        let small = DVec3::splat(rng.range(1e-4, 1e-2));
        let rotation = rng.rotation();
        let gap = [1e-6, 1e-3, -1e-4, -small.x * 0.5][case % 4];
        let (u, v) = (rng.range(-0.9, 0.9) * big.x, rng.range(-0.9, 0.9) * big.y);
        let local = DVec3::new(u, v, big.z + small.z + gap);
        let a = polytope(&box_corners(big, rotation, far));
        let b = polytope(&box_corners(small, rotation, far + rotation * local));
        let identity = RelativePose::from_matrix(DMat3::IDENTITY, DVec3::ZERO);
        let size = big.length() + far.length();
        let label = format!("case {case}: gap {gap:e}, {far:?} away, big {big}");
        let settings = SolverSettings {
            tolerance: 1e-9,
            criterion: Criterion::DualityGap,
            kind: CriterionKind::Relative,
            max_iterations: 1000,
            ..SolverSettings::default()
        };
        for algorithm in [GJK_FAMILY[0], GJK_FAMILY[2]] {
            let run = solve_traced(
                algorithm,
                MinkowskiDifference::new(&a, &b, identity),
                settings,
            );
            match run.summary.outcome {
                Outcome::Separated { distance, .. } => assert!(
                    gap > 0.0 && (distance - gap).abs() <= 1e-9 * gap + 1e-13 * size,
                    "{label} {algorithm}: {distance:e}"
                ),
                Outcome::Stalled {
                    distance,
                    lower_bound,
                } => assert!(
                    gap > 0.0
                        && lower_bound <= gap + 1e-12 * size
                        && gap <= distance + 1e-12 * size,
                    "{label} {algorithm}: [{lower_bound:e}, {distance:e}]"
                ),
                Outcome::Intersecting => assert!(gap <= 1e-13 * size, "{label} {algorithm}"),
                Outcome::IterationCap { .. } if is_nesterov(algorithm) => {}
                ref other => panic!("{label} {algorithm}: {other:?}"),
            }
        }
        let epa = penetration(
            &a,
            &b,
            identity,
            gjk_settings_for_epa(),
            EpaSettings::default(),
            None,
        );
        let signed = epa.outcome.signed_distance();
        assert!(
            signed.is_some_and(|d| (d - gap).abs() <= 1e-9 * gap.abs().max(1e-6) + 1e-12 * size),
            "{label}: EPA {}",
            epa.outcome
        );
    }
}
