//! Planar mode: a planar scene runs the 3-D solvers on shapes of the xy-plane. Held to
//! an independent 2-D computation on random polygon pairs: a 2-D GJK written here
//! (Ericson's signed-area Voronoi tests, the same first guess and stopping test) must
//! take as many iterations, and both distances must equal the closed form (the least
//! vertex-to-edge distance, or 0 when a separating-axis test finds no gap).

use std::path::Path;

use collidescope::minkowski::MinkowskiDifference;
use collidescope::rng::SplitMix64;
use collidescope::scene::Scene;
use collidescope::solver::{solve, Algorithm, DirectionRule, Outcome};
use glam::DVec2;

/// A random convex polygon: points on a jittered ellipse, in order.
fn polygon(rng: &mut SplitMix64) -> Vec<DVec2> {
    let n = 3 + rng.index(7);
    let (a, b) = (rng.range(0.2, 1.0), rng.range(0.2, 1.0));
    let start = rng.range(0.0, std::f64::consts::TAU);
    let mut angles: Vec<f64> = (0..n)
        .map(|_| rng.range(0.0, std::f64::consts::TAU))
        .collect();
    angles.sort_by(f64::total_cmp);
    angles
        .into_iter()
        .map(|t| DVec2::new(a * (t + start).cos(), b * (t + start).sin()))
        .collect()
}

fn place(points: &[DVec2], at: DVec2, turn: f64) -> Vec<DVec2> {
    points
        .iter()
        .map(|p| DVec2::from_angle(turn).rotate(*p) + at)
        .collect()
}

/// The world-frame polygon of the 2-D reference, and the scene text for the same body.
fn body(points: &[DVec2], at: DVec2, degrees: f64) -> String {
    let list: Vec<String> = points
        .iter()
        .map(|p| format!("({:?}, {:?})", p.x, p.y))
        .collect();
    format!(
        "Body(shape: Polygon(points: [{}]), translation: ({:?}, {:?}, 0.0), rotation: EulerDegrees((0.0, 0.0, {degrees:?})))",
        list.join(", "),
        at.x,
        at.y
    )
}

/// The least distance between two convex polygons, 0 when they overlap.
fn closed_form(a: &[DVec2], b: &[DVec2]) -> f64 {
    let separated = |p: &[DVec2], q: &[DVec2]| {
        (0..p.len()).any(|i| {
            let (u, v) = (p[i], p[(i + 1) % p.len()]);
            let n = (v - u).perp();
            let side = |x: DVec2| n.dot(x - u);
            let ps: Vec<f64> = p.iter().map(|x| side(*x)).collect();
            let inward = ps
                .iter()
                .copied()
                .fold(0.0f64, |m, s| if s.abs() > m.abs() { s } else { m });
            q.iter().all(|x| side(*x) * inward < 0.0)
        })
    };
    if !separated(a, b) && !separated(b, a) {
        return 0.0;
    }
    let to_segment = |p: DVec2, u: DVec2, v: DVec2| {
        let t = ((p - u).dot(v - u) / (v - u).length_squared()).clamp(0.0, 1.0);
        (u + (v - u) * t - p).length()
    };
    let one_way = |p: &[DVec2], q: &[DVec2]| {
        p.iter()
            .flat_map(|x| (0..q.len()).map(move |i| to_segment(*x, q[i], q[(i + 1) % q.len()])))
            .fold(f64::INFINITY, f64::min)
    };
    one_way(a, b).min(one_way(b, a))
}

/// The centre of a polygon's bounding box in its own frame, placed by its pose: the
/// "centre difference" first guess uses these.
fn placed_centre(local: &[DVec2], at: DVec2, turn: f64) -> DVec2 {
    let (lo, hi) = local.iter().fold(
        (DVec2::splat(f64::INFINITY), DVec2::splat(f64::NEG_INFINITY)),
        |(lo, hi), x| (lo.min(*x), hi.max(*x)),
    );
    DVec2::from_angle(turn).rotate((lo + hi) * 0.5) + at
}

/// GJK in 2-D on `A − B` (world frame): the support is a brute-force scan, the first
/// guess `x0`, the test van den Bergen's `|x| − α ≤ ε` from the second support on.
/// Returns the iterations (projections that did not end the run) and the distance
/// (0 when a triangle holds the origin).
fn reference_gjk(a: &[DVec2], b: &[DVec2], x0: DVec2, eps: f64) -> (usize, f64) {
    let support = |d: DVec2| {
        let best = |p: &[DVec2], d: DVec2| {
            *p.iter()
                .max_by(|u, v| u.dot(d).total_cmp(&v.dot(d)))
                .unwrap()
        };
        best(a, d) - best(b, -d)
    };
    let mut x = x0;
    let mut simplex: Vec<DVec2> = Vec::new();
    let mut alpha = 0.0f64;
    let mut k = 0;
    loop {
        let r = x.length();
        if r < eps {
            return (k, 0.0);
        }
        let s = support(-x);
        alpha = alpha.max(x.dot(s) / r);
        if k >= 1 && r - alpha <= eps {
            return (k, r);
        }
        if simplex.contains(&s) {
            return (k, r);
        }
        simplex.push(s);
        let (nearest, kept, inside) = nearest_on_simplex(&simplex);
        if inside {
            return (k, 0.0);
        }
        simplex = kept;
        x = nearest;
        k += 1;
    }
}

/// Ericson's closest point on a point, segment or triangle to the origin, with the
/// vertices that support it and whether the triangle holds the origin.
fn nearest_on_simplex(s: &[DVec2]) -> (DVec2, Vec<DVec2>, bool) {
    let segment = |a: DVec2, b: DVec2| {
        let t = (-a).dot(b - a) / (b - a).length_squared();
        if t <= 0.0 {
            (a, vec![a])
        } else if t >= 1.0 {
            (b, vec![b])
        } else {
            (a + (b - a) * t, vec![a, b])
        }
    };
    match s {
        [a] => (*a, vec![*a], false),
        [a, b] => {
            let (p, kept) = segment(*a, *b);
            (p, kept, false)
        }
        [a, b, c] => {
            let area = (*b - *a).perp_dot(*c - *a);
            let inside = [(a, b), (b, c), (c, a)]
                .iter()
                .all(|(u, v)| ((**v - **u).perp_dot(-**u)) * area >= 0.0);
            if inside {
                return (DVec2::ZERO, s.to_vec(), true);
            }
            [(a, b), (b, c), (a, c)]
                .iter()
                .map(|(u, v)| segment(**u, **v))
                .min_by(|p, q| p.0.length().total_cmp(&q.0.length()))
                .map(|(p, kept)| (p, kept, false))
                .unwrap()
        }
        _ => unreachable!(),
    }
}

#[test]
fn planar_gjk_takes_the_2d_reference_steps_and_finds_the_closed_form_distance() {
    let mut rng = SplitMix64::new(2026);
    let eps = 1e-9;
    let (mut apart, mut overlapping) = (0, 0);
    for case in 0..400 {
        let (pa, pb) = (polygon(&mut rng), polygon(&mut rng));
        let at_a = DVec2::new(rng.range(-0.3, 0.3), rng.range(-0.3, 0.3));
        let at_b = DVec2::new(rng.range(-2.0, 2.0), rng.range(-2.0, 2.0));
        let (turn_a, turn_b) = (rng.range(-180.0, 180.0), rng.range(-180.0, 180.0));
        let text = format!(
            "Scene(version: 2, name: \"p\", dimension: Planar, bodies: [{}, {}], algorithms: [\"gjk\"],
             settings: Settings(tolerance: {eps:?}, criterion: VanDenBergen, kind: Absolute, max_iterations: 128, initial_guess: CentreDifference, mode: Distance))",
            body(&pa, at_a, turn_a),
            body(&pb, at_b, turn_b)
        );
        let scene = Scene::parse(Path::new("planar.ron"), &text).unwrap();
        let md = MinkowskiDifference::new(&scene.a().shape, &scene.b().shape, scene.b_in_a());
        let run = solve(Algorithm::Gjk(DirectionRule::Vanilla), md, scene.settings);
        let (a, b) = (
            place(&pa, at_a, turn_a.to_radians()),
            place(&pb, at_b, turn_b.to_radians()),
        );
        let exact = closed_form(&a, &b);
        let x0 = placed_centre(&pa, at_a, turn_a.to_radians())
            - placed_centre(&pb, at_b, turn_b.to_radians());
        let (iterations, reference) = reference_gjk(&a, &b, x0, eps);
        let ours = match run.outcome {
            Outcome::Intersecting => 0.0,
            Outcome::Separated { distance, .. } => distance,
            ref other => panic!("case {case}: {other:?}"),
        };
        assert!(
            (ours - exact).abs() < 1e-7,
            "case {case}: ours {ours}, exact {exact}"
        );
        assert!(
            (reference - exact).abs() < 1e-7,
            "case {case}: reference {reference}, exact {exact}"
        );
        assert_eq!(
            run.iterations, iterations,
            "case {case}: iterations, ours vs 2-D reference"
        );
        if exact > 0.0 {
            apart += 1;
        } else {
            overlapping += 1;
        }
    }
    assert!(
        apart > 100 && overlapping > 30,
        "{apart} apart, {overlapping} overlapping"
    );
}

#[test]
fn planar_scenes_refuse_what_leaves_the_plane() {
    let scene = |body: &str, algorithms: &str| {
        format!(
            "Scene(version: 2, name: \"p\", dimension: Planar, bodies: [Body(shape: Circle(radius: 1.0)), {body}], algorithms: [{algorithms}],
             settings: Settings(tolerance: 1e-6, criterion: VanDenBergen, kind: Absolute, max_iterations: 128, initial_guess: CentreDifference, mode: Distance))"
        )
    };
    for (body, algorithms, says) in [
        (
            "Body(shape: Sphere(radius: 1.0))",
            "\"gjk\"",
            "planar scene takes",
        ),
        (
            "Body(shape: Circle(radius: 1.0), translation: (3.0, 0.0, 0.5))",
            "\"gjk\"",
            "xy-plane",
        ),
        (
            "Body(shape: Circle(radius: 1.0), rotation: EulerDegrees((30.0, 0.0, 0.0)))",
            "\"gjk\"",
            "xy-plane",
        ),
        (
            "Body(shape: Circle(radius: 1.0))",
            "\"epa\"",
            "does not run in a planar scene",
        ),
    ] {
        let err = Scene::parse(Path::new("flat.ron"), &scene(body, algorithms)).unwrap_err();
        assert!(err.to_string().contains(says), "{err}");
    }
    let spatial = "Scene(version: 2, name: \"s\", bodies: [Body(shape: Circle(radius: 1.0)), Body(shape: Sphere(radius: 1.0))], algorithms: [\"gjk\"],
        settings: Settings(tolerance: 1e-6, criterion: VanDenBergen, kind: Absolute, max_iterations: 128, initial_guess: CentreDifference, mode: Distance))";
    let err = Scene::parse(Path::new("s.ron"), spatial).unwrap_err();
    assert!(err.to_string().contains("dimension: Planar"), "{err}");
}
