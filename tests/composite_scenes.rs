//! Composite shapes in scenes (issue 45): a triangle mesh written out or read from a
//! file as a mesh, a height field and a compound load from the scene format, and every
//! family's question on them is answered through the midphase, checked against
//! parry3d-f64's own `TriMesh`, `HeightField` and `Compound` queries and against every
//! piece run by brute force.

mod common;

use std::path::Path;

use collidescope::composite::midphase::bracket;
use collidescope::scene::Scene;
use collidescope::solver::{Algorithm, Method, Outcome};
use glam::DVec3;
use parry3d_f64::math::{Pose as PPose, Vector as PVector};

const SETTINGS: &str = "settings: Settings(tolerance: 1e-10, criterion: DualityGap, kind: Absolute, max_iterations: 200, initial_guess: CentreDifference)";

fn scene(bodies: &str, algorithms: &str) -> Scene {
    let text = format!(
        "Scene(version: 2, name: \"composite\", bodies: [{bodies}], algorithms: [{algorithms}], {SETTINGS})"
    );
    Scene::parse(Path::new("composite.ron"), &text).unwrap_or_else(|e| panic!("{e}\n{text}"))
}

/// An open bowl, `n` cells a side over [-2, 2]², height (x² + y²)/4: a ball in its
/// hollow is apart from the mesh but inside its hull.
fn bowl(n: usize) -> (Vec<[f64; 3]>, Vec<[u32; 3]>) {
    let mut v = Vec::new();
    for j in 0..=n {
        for i in 0..=n {
            let x = -2.0 + 4.0 * i as f64 / n as f64;
            let y = -2.0 + 4.0 * j as f64 / n as f64;
            v.push([x, y, 0.25 * (x * x + y * y)]);
        }
    }
    let id = |i: usize, j: usize| (j * (n + 1) + i) as u32;
    let mut t = Vec::new();
    for j in 0..n {
        for i in 0..n {
            t.push([id(i, j), id(i + 1, j), id(i + 1, j + 1)]);
            t.push([id(i, j), id(i + 1, j + 1), id(i, j + 1)]);
        }
    }
    (v, t)
}

fn trimesh_spec(v: &[[f64; 3]], t: &[[u32; 3]]) -> String {
    let vs: Vec<String> = v
        .iter()
        .map(|p| format!("({:?}, {:?}, {:?})", p[0], p[1], p[2]))
        .collect();
    let ts: Vec<String> = t
        .iter()
        .map(|t| format!("({}, {}, {})", t[0], t[1], t[2]))
        .collect();
    format!(
        "TriMesh(vertices: [{}], triangles: [{}])",
        vs.join(", "),
        ts.join(", ")
    )
}

fn pv(p: [f64; 3]) -> PVector {
    PVector::new(p[0], p[1], p[2])
}

/// A ball in the bowl's hollow: the mesh answer is apart (its hull's is not), equal to
/// parry's `TriMesh` distance, the nearest triangle named, nodes and sub-pairs counted.
#[test]
fn a_ball_in_a_bowl_is_apart_from_the_mesh_as_parry_says() {
    let (v, t) = bowl(12);
    let parry_mesh =
        parry3d_f64::shape::TriMesh::new(v.iter().map(|p| pv(*p)).collect(), t.clone()).unwrap();
    for centre in [
        [0.3, 0.2, 1.0],
        [-1.0, 0.5, 2.5],
        [1.0, -1.0, 1.5],
        [0.0, 0.0, 0.4],
    ] {
        let s = scene(
            &format!(
                "Body(shape: {}), Body(shape: Sphere(radius: 0.25), translation: ({:?}, {:?}, {:?}))",
                trimesh_spec(&v, &t),
                centre[0],
                centre[1],
                centre[2]
            ),
            "\"gjk\"",
        );
        assert!(s.focus_is_composite());
        let run = s
            .run_composite(Algorithm::GJK, s.settings, false, None)
            .unwrap();
        let theirs = parry3d_f64::query::distance(
            &PPose::identity(),
            &parry_mesh,
            &PPose::from_translation(pv(centre)),
            &parry3d_f64::shape::Ball::new(0.25),
        )
        .unwrap()
        .distance;
        let (lower, upper) = (run.answer.lower, run.answer.upper);
        assert!(
            lower <= theirs + 1e-9 && theirs <= upper + 1e-9,
            "{centre:?}: [{lower}, {upper}] vs parry {theirs}"
        );
        assert!(
            matches!(run.answer.outcome, Outcome::Separated { .. }),
            "{:?}",
            run.answer.outcome
        );
        assert!(run.answer.nodes_visited > 0 && !run.answer.sub_pairs.is_empty());
        let report = s.composite_report(&run, false);
        assert!(
            report["nearest"].as_str().unwrap().starts_with("triangle "),
            "{report}"
        );
        assert_eq!(report["pieces"], 288);
        // The hull's answer differs where the ball sits in the hollow.
        if centre == [0.3, 0.2, 1.0] {
            let hull = s.run(Algorithm::GJK);
            assert_eq!(hull.summary.outcome.status_name(), "intersecting");
        }
    }
}

/// Every family on a mesh: EPA measures the deepest triangle (as parry's per-triangle
/// contact does), the LP test answers the Boolean, the time of impact finds the first
/// triangle a falling box meets.
#[test]
fn every_family_answers_on_a_mesh() {
    let (v, t) = bowl(8);
    let mesh = trimesh_spec(&v, &t);
    // A box sunk into the bowl's bottom.
    let s = scene(
        &format!("Body(shape: {mesh}), Body(shape: Box(half_extents: (0.3, 0.3, 0.3)), translation: (0.1, 0.0, 0.2))"),
        "\"gjk\", \"epa\", \"lp\"",
    );
    let epa = s
        .run_composite(Method::epa(), s.settings, true, None)
        .unwrap();
    let Outcome::Penetrating { depth, .. } = epa.answer.outcome else {
        panic!("{:?}", epa.answer.outcome)
    };
    // Brute force: the deepest of every triangle's own EPA depth.
    let composite = s.a().composite.clone().unwrap();
    let mut deepest: f64 = 0.0;
    for i in 0..composite.pieces().count() {
        let (piece, _) = composite.tree().piece(i).unwrap();
        let run = Method::epa().run(&piece, &s.b().shape, s.b_in_a(), None, s.settings, false);
        if let Outcome::Penetrating { depth, .. } = run.summary.outcome {
            deepest = deepest.max(depth);
        }
    }
    assert!(
        (depth - deepest).abs() < 1e-9,
        "{depth} vs brute force {deepest}"
    );
    assert!(!epa.nearest().unwrap().run.trace.is_empty());
    let lp = s
        .run_composite("lp".parse::<Method>().unwrap(), s.settings, false, None)
        .unwrap();
    assert_eq!(lp.answer.outcome.status_name(), "intersecting");
    // Lifted clear of the bowl's rim: apart, with a positive proved gap.
    let apart = scene(
        &format!("Body(shape: {mesh}), Body(shape: Box(half_extents: (0.3, 0.3, 0.3)), translation: (0.0, 0.0, 3.0))"),
        "\"lp\"",
    );
    let lp = apart
        .run_composite("lp".parse::<Method>().unwrap(), apart.settings, false, None)
        .unwrap();
    match lp.answer.outcome {
        Outcome::SeparatedEarlyStop { lower_bound } => assert!(lower_bound > 0.0),
        ref other => panic!("{other:?}"),
    }
    // Falling from above onto the bowl's bottom: the bottom (z = 0) is met when the
    // box's underside (z = 3 − 0.3 − 4t) reaches about 0: t ≈ 0.675.
    let falling = scene(
        &format!("Body(shape: {mesh}), Body(shape: Box(half_extents: (0.3, 0.3, 0.3)), translation: (0.0, 0.0, 3.0), velocity: Some((0.0, 0.0, -4.0)))"),
        "\"toi_advancement\"",
    );
    let method: Method = "toi_advancement".parse().unwrap();
    let toi = falling
        .run_composite(method, falling.settings, false, None)
        .unwrap();
    let Outcome::Impact { time, .. } = toi.answer.outcome else {
        panic!("{:?}", toi.answer.outcome)
    };
    // The bowl (flat triangles of a paraboloid, 0.5 a cell) rises under the footprint
    // to at most 0.125 (the first ring of vertices).
    let (first, last) = ((3.0 - 0.3 - 0.125) / 4.0, (3.0 - 0.3) / 4.0);
    assert!(time >= first - 1e-6 && time <= last + 1e-6, "{time}");
    assert!(toi.answer.sub_pairs.len() < composite.pieces().count());
}

/// A height field in parry's layout answers as parry's `HeightField` (through its
/// triangles, which parry's distance does not take: its per-triangle loop is the oracle).
#[test]
fn a_height_field_is_parrys_surface_with_parrys_triangle_numbers() {
    let heights: Vec<Vec<f64>> = (0..6)
        .map(|i| {
            (0..7)
                .map(|j| ((i * 7 + j) as f64 * 0.7).sin() * 0.3)
                .collect()
        })
        .collect();
    let rows: Vec<String> = heights
        .iter()
        .map(|r| {
            format!(
                "[{}]",
                r.iter()
                    .map(|h| format!("{h:?}"))
                    .collect::<Vec<_>>()
                    .join(", ")
            )
        })
        .collect();
    let s = scene(
        &format!(
            "Body(shape: HeightField(heights: [{}], scale: (4.0, 1.0, 3.0))), Body(shape: Sphere(radius: 0.2), translation: (0.3, 0.6, -0.4))",
            rows.join(", ")
        ),
        "\"gjk\"",
    );
    let run = s
        .run_composite(Algorithm::GJK, s.settings, false, None)
        .unwrap();
    // parry's height field, heights as a matrix with rows along z.
    let matrix = parry3d_f64::utils::Array2::from_fn(6, 7, |i, j| heights[i][j]);
    let field = parry3d_f64::shape::HeightField::new(matrix, PVector::new(4.0, 1.0, 3.0));
    let ball = parry3d_f64::shape::Ball::new(0.2);
    let centre = PPose::from_translation(PVector::new(0.3, 0.6, -0.4));
    let mut best = (f64::INFINITY, 0);
    let cells = 5 * 6;
    for i in 0..5 {
        for j in 0..6 {
            let (left, right) = field.triangles_at(i, j);
            for (k, tri) in [left, right].into_iter().enumerate() {
                let Some(tri) = tri else { continue };
                let d = parry3d_f64::query::distance(&PPose::identity(), &tri, &centre, &ball)
                    .unwrap()
                    .distance;
                if d < best.0 {
                    // parry's triangle number: column-major cells, right ones after.
                    best = (d, j * 5 + i + if k == 0 { 0 } else { cells });
                }
            }
        }
    }
    assert!(
        run.answer.lower <= best.0 + 1e-9 && best.0 <= run.answer.upper + 1e-9,
        "{:?} vs {best:?}",
        run.answer
    );
    let nearest = run.nearest().unwrap();
    let composite = s.a().composite.clone().unwrap();
    assert_eq!(composite.engine_id(nearest.piece) as usize, best.1);
}

/// A compound of two boxes (an L) against a ball in its inner corner: parry's `Compound`
/// distance, the nearest part named; the ball inside the hull but apart from both parts.
#[test]
fn a_compound_is_answered_part_by_part_as_parrys_compound() {
    let s = scene(
        "Body(shape: Compound(parts: [Member(shape: Box(half_extents: (2.0, 0.25, 0.25))), Member(shape: Box(half_extents: (0.25, 2.0, 0.25)), translation: (-1.75, 1.75, 0.0), rotation: EulerDegrees((0.0, 0.0, 0.0)))])), Body(shape: Sphere(radius: 0.3), translation: (-0.6, 0.8, 0.0))",
        "\"gjk\"",
    );
    let run = s
        .run_composite(Algorithm::GJK, s.settings, false, None)
        .unwrap();
    let parts = vec![
        (
            PPose::identity(),
            parry3d_f64::shape::SharedShape::cuboid(2.0, 0.25, 0.25),
        ),
        (
            PPose::from_translation(PVector::new(-1.75, 1.75, 0.0)),
            parry3d_f64::shape::SharedShape::cuboid(0.25, 2.0, 0.25),
        ),
    ];
    let compound = parry3d_f64::shape::Compound::new(parts);
    let theirs = parry3d_f64::query::distance(
        &PPose::identity(),
        &compound,
        &PPose::from_translation(PVector::new(-0.6, 0.8, 0.0)),
        &parry3d_f64::shape::Ball::new(0.3),
    )
    .unwrap()
    .distance;
    assert!(run.answer.lower <= theirs + 1e-9 && theirs <= run.answer.upper + 1e-9);
    assert!((theirs - 0.25).abs() < 1e-9, "{theirs}");
    assert!(s.composite_report(&run, false)["nearest"]
        .as_str()
        .unwrap()
        .starts_with("part "));
    // The stand-in hull overlaps the ball.
    assert_eq!(
        s.run(Algorithm::GJK).summary.outcome.status_name(),
        "intersecting"
    );
    // Sub-pair in focus: a scene of the part and the ball, placed as in the whole.
    let k = run.answer.nearest.unwrap();
    let sub = s.sub_pair_scene(&run, k).unwrap();
    let d = sub.run(Algorithm::GJK).summary.outcome.distance().unwrap();
    assert!((d - bracket(&run.nearest().unwrap().run.summary.outcome).1).abs() < 1e-9);
}

/// Two meshes: the nearest triangle pair, as parry's mesh–mesh distance.
#[test]
fn two_meshes_are_answered_triangle_pair_by_triangle_pair() {
    let (v, t) = bowl(6);
    let mesh = trimesh_spec(&v, &t);
    let s = scene(
        &format!("Body(shape: {mesh}), Body(shape: {mesh}, translation: (0.4, -0.3, 1.5), rotation: EulerDegrees((180.0, 0.0, 20.0)))"),
        "\"gjk\"",
    );
    let run = s
        .run_composite(Algorithm::GJK, s.settings, false, None)
        .unwrap();
    let parry_mesh =
        parry3d_f64::shape::TriMesh::new(v.iter().map(|p| pv(*p)).collect(), t.clone()).unwrap();
    let b = s.b().pose;
    let q = b.rotation;
    let pose = PPose::from_parts(
        PVector::new(b.translation.x, b.translation.y, b.translation.z),
        parry3d_f64::math::Rotation::from_xyzw(q.x, q.y, q.z, q.w),
    );
    let theirs = parry3d_f64::query::distance(&PPose::identity(), &parry_mesh, &pose, &parry_mesh)
        .unwrap()
        .distance;
    assert!(
        run.answer.lower <= theirs + 1e-9 && theirs <= run.answer.upper + 1e-9,
        "{:?} vs parry {theirs}",
        (run.answer.lower, run.answer.upper)
    );
    let name = s.sub_pair_name(&run, run.answer.nearest.unwrap());
    assert!(name.contains(" · triangle "), "{name}");
}

/// A box modelled as a closed mesh resting, tilted and slightly sunk, on a triangulated
/// floor: the contacts are triangle pairs, each explained on both meshes (the floor's
/// ghosts as they are for the convex box), the same floor triangles as the convex box
/// touches, every gap within the margin and none below the answer's proof; `solve`
/// lists both sides.
#[test]
fn two_meshes_in_contact_are_explained_on_both_sides() {
    let mut floor_v = Vec::new();
    for j in 0..3 {
        for i in 0..3 {
            floor_v.push([i as f64 - 1.0, j as f64 - 1.0, 0.0]);
        }
    }
    let id = |i: u32, j: u32| j * 3 + i;
    let mut floor_t = Vec::new();
    for j in 0..2 {
        for i in 0..2 {
            floor_t.push([id(i, j), id(i + 1, j), id(i + 1, j + 1)]);
            floor_t.push([id(i, j), id(i + 1, j + 1), id(i, j + 1)]);
        }
    }
    let h = 0.3;
    let cube_v: Vec<[f64; 3]> = (0..8)
        .map(|k| {
            let bit = |b: u32| if k & (1 << b) != 0 { h } else { -h };
            [bit(0), bit(1), bit(2)]
        })
        .collect();
    // Outward faces of the cube, two triangles each.
    let cube_t = vec![
        [0, 2, 3],
        [0, 3, 1],
        [4, 5, 7],
        [4, 7, 6],
        [0, 1, 5],
        [0, 5, 4],
        [2, 6, 7],
        [2, 7, 3],
        [0, 4, 6],
        [0, 6, 2],
        [1, 3, 7],
        [1, 7, 5],
    ];
    let place = "translation: (0.05, 0.05, 0.28), rotation: EulerDegrees((12.0, -12.0, 0.0))";
    let floor = trimesh_spec(&floor_v, &floor_t);
    let meshes = scene(
        &format!(
            "Body(shape: {floor}), Body(shape: {}, {place})",
            trimesh_spec(&cube_v, &cube_t)
        ),
        "\"gjk\"",
    );
    let convex = scene(
        &format!("Body(shape: {floor}), Body(shape: Box(half_extents: ({h}, {h}, {h})), {place})"),
        "\"gjk\"",
    );
    let margin = Some(0.05);
    let run = meshes
        .run_composite(Algorithm::GJK, meshes.settings, false, margin)
        .unwrap();
    let reference = convex
        .run_composite(Algorithm::GJK, convex.settings, false, margin)
        .unwrap();
    assert!(!run.contacts.is_empty());
    for c in &run.contacts {
        let other = c.other.as_ref().expect("a triangle of the box");
        assert!(other.piece < 12);
        assert!(c.gap <= 0.05 && c.gap >= -0.1, "{}", c.gap);
        let (floor_side, box_side) = (c.edges.as_ref().unwrap(), other.edges.as_ref().unwrap());
        // Seen from the box, the contact normal points back down at the floor.
        // Seen from the box, the same normal turned into its frame and reversed.
        let back = -meshes.b_in_a().inverse_rotate(c.normal);
        assert!((box_side.contact_normal - back).length() < 1e-9, "{c:?}");
        assert!(floor_side.triangle == c.piece && box_side.triangle == other.piece);
    }
    let floor_triangles = |r: &collidescope::composite::CompositeRun| {
        let mut t: Vec<u32> = r.contacts.iter().map(|c| c.piece).collect();
        t.sort();
        t.dedup();
        t
    };
    assert_eq!(floor_triangles(&run), floor_triangles(&reference));
    // The box's bottom face on the floor's faces: the floor's normal, in its cone.
    assert!(run
        .contacts
        .iter()
        .any(|c| c.normal.z > 1.0 - 1e-9 && c.edges.as_ref().unwrap().in_cone));
    // Some contacts on the floor's internal edges are ghosts, in both runs.
    let ghosts = |r: &collidescope::composite::CompositeRun| {
        r.contacts
            .iter()
            .any(|c| !c.edges.as_ref().unwrap().in_cone)
    };
    assert!(ghosts(&run) && ghosts(&reference));
    let json = meshes.composite_report(&run, false);
    let first = &json["contacts"][0];
    assert!(first["other"]["name"]
        .as_str()
        .unwrap()
        .starts_with("triangle "));
    assert!(first["other"]["edges"]["feature"].is_string());
    // The CLI lists both meshes' sides.
    let dir = common::TempDir::new("mesh-mesh-contacts");
    let path = dir.join("box-mesh.ron");
    std::fs::write(
        &path,
        format!(
            "Scene(version: 2, name: \"box mesh\", bodies: [Body(shape: {floor}), Body(shape: {}, {place})], algorithms: [\"gjk\"], {SETTINGS})",
            trimesh_spec(&cube_v, &cube_t)
        ),
    )
    .unwrap();
    let out = common::cli_ok(&["solve", path.to_str().unwrap(), "--contact-margin", "0.05"]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains(" with triangle "), "{text}");
    assert!(
        text.lines()
            .any(|l| l.trim_start().starts_with("triangle ") && l.contains(": on its ")),
        "{text}"
    );
}

/// Bad composite input is refused naming the element; open, flat and duplicated
/// meshes are answered.
#[test]
fn bad_composites_are_named_and_degenerate_ones_answered() {
    for (shape, why) in [
        ("TriMesh(vertices: [], triangles: [])", "no triangles"),
        ("TriMesh(vertices: [(0.0, 0.0, 0.0), (1.0, 0.0, 0.0)], triangles: [(0, 1, 2)])", "triangle 0 names vertex 2"),
        ("TriMesh(vertices: [(0.0, 0.0, 0.0), (1.0, NaN, 0.0), (0.0, 1.0, 0.0)], triangles: [(0, 1, 2)])", "vertex 1"),
        ("HeightField(heights: [[0.0, 0.0], [0.0]], scale: (1.0, 1.0, 1.0))", "row 1"),
        ("HeightField(heights: [[0.0, 0.0], [0.0, 0.0]], scale: (1.0, 1.0, 1.0), cells: [0, 0])", "cell statuses"),
        ("Compound(parts: [])", "at least one part"),
        ("Compound(parts: [Member(shape: TriMesh(vertices: [(0.0, 0.0, 0.0), (1.0, 0.0, 0.0), (0.0, 1.0, 0.0)], triangles: [(0, 1, 2)]))])", "part 0"),
    ] {
        let text = format!("Scene(version: 2, name: \"bad\", bodies: [Body(shape: {shape}), Body(shape: Sphere(radius: 1.0))], algorithms: [\"gjk\"], {SETTINGS})");
        let err = Scene::parse(Path::new("bad.ron"), &text).unwrap_err().to_string();
        assert!(err.starts_with("bad.ron") && err.contains(why), "{shape}: {err}");
    }
    // A flat open mesh with a duplicated vertex, far from the origin.
    let s = scene(
        "Body(shape: TriMesh(vertices: [(1e6, 0.0, 0.0), (1000001.0, 0.0, 0.0), (1e6, 1.0, 0.0), (1000001.0, 0.0, 0.0), (1000001.0, 1.0, 0.0)], triangles: [(0, 1, 2), (3, 4, 2)])), Body(shape: Sphere(radius: 0.1), translation: (1000000.5, 0.5, 0.6))",
        "\"gjk\"",
    );
    let run = s
        .run_composite(Algorithm::GJK, s.settings, false, None)
        .unwrap();
    assert!((run.answer.upper - 0.5).abs() < 1e-6, "{:?}", run.answer);
    assert!(run.answer.lower > 0.49);
}

/// A mesh file taken as its triangles (`as: Mesh`) or its hull (the default).
#[test]
fn a_mesh_file_is_a_mesh_or_its_hull_as_the_scene_says() {
    let dir = common::TempDir::new("composite-file");
    // A U-shaped channel: two walls and a floor, open.
    let obj = "v -1 -1 0\nv 1 -1 0\nv 1 1 0\nv -1 1 0\nv -1 -1 2\nv -1 1 2\nv 1 -1 2\nv 1 1 2\nf 1 2 3\nf 1 3 4\nf 1 4 6\nf 1 6 5\nf 2 7 8\nf 2 8 3\n";
    std::fs::write(dir.join("channel.obj"), obj).unwrap();
    let text = |as_: &str| {
        format!("Scene(version: 2, name: \"channel\", bodies: [Body(shape: Mesh(path: \"channel.obj\"{as_})), Body(shape: Sphere(radius: 0.2), translation: (0.0, 0.0, 1.0))], algorithms: [\"gjk\"], {SETTINGS})")
    };
    let path = dir.join("channel.ron");
    std::fs::write(&path, text(", as: Mesh")).unwrap();
    let mesh = Scene::load(&path).unwrap();
    let run = mesh
        .run_composite(Algorithm::GJK, mesh.settings, false, None)
        .unwrap();
    assert!((run.answer.upper - 0.8).abs() < 1e-9, "{:?}", run.answer);
    std::fs::write(&path, text("")).unwrap();
    let hull = Scene::load(&path).unwrap();
    assert!(!hull.focus_is_composite());
    // Saved and loaded again, `as: Mesh` stays.
    let saved = dir.join("saved.ron");
    mesh.save(&saved).unwrap();
    assert!(std::fs::read_to_string(&saved)
        .unwrap()
        .contains("as: Mesh"));
    assert!(Scene::load(&saved).unwrap().focus_is_composite());
    // A file of vertices only has no triangles to take.
    std::fs::write(
        dir.join("cloud.obj"),
        "v 0 0 0\nv 1 0 0\nv 0 1 0\nv 0 0 1\n",
    )
    .unwrap();
    std::fs::write(
        &path,
        text(", as: Mesh").replace("channel.obj", "cloud.obj"),
    )
    .unwrap();
    let err = Scene::load(&path).unwrap_err().to_string();
    assert!(
        err.contains("cloud.obj") && err.contains("no faces"),
        "{err}"
    );
    let _ = DVec3::ZERO;
}

/// `solve` on a mesh pair: the verdict, the sub-pair that makes it, the midphase's work,
/// the contacts with their ghosts (a box tilted over a triangulated floor), as a table
/// and as JSON.
#[test]
fn solve_lists_sub_pairs_and_ghost_contacts() {
    let dir = common::TempDir::new("composite-solve");
    let path = dir.join("floor.ron");
    std::fs::write(
        &path,
        format!(
            "Scene(version: 2, name: \"floor\", bodies: [Body(shape: TriMesh(vertices: [(-1.0, -1.0, 0.0), (0.0, -1.0, 0.0), (1.0, -1.0, 0.0), (-1.0, 0.0, 0.0), (0.0, 0.0, 0.0), (1.0, 0.0, 0.0), (-1.0, 1.0, 0.0), (0.0, 1.0, 0.0), (1.0, 1.0, 0.0)], triangles: [(0, 1, 4), (0, 4, 3), (1, 2, 5), (1, 5, 4), (3, 4, 7), (3, 7, 6), (4, 5, 8), (4, 8, 7)])), Body(shape: Box(half_extents: (0.3, 0.3, 0.3)), translation: (0.05, 0.05, 0.36), rotation: EulerDegrees((12.0, -12.0, 0.0)))], algorithms: [\"gjk\", \"epa\"], {SETTINGS})"
        ),
    )
    .unwrap();
    let out = common::cli_ok(&["solve", path.to_str().unwrap(), "--contact-margin", "0.05"]);
    let text = String::from_utf8_lossy(&out.stdout);
    for expected in [
        "mesh of 8 triangles (open)",
        "made by: triangle ",
        "hierarchy nodes visited",
        "GHOST",
        "parry FIX_INTERNAL_EDGES",
        "Jolt's enhanced internal edge removal drops it",
        "-- epa on triangle ",
    ] {
        assert!(text.contains(expected), "{expected}: {text}");
    }
    let json = common::cli_json(&[
        "solve",
        path.to_str().unwrap(),
        "--json",
        "-a",
        "epa",
        "--contact-margin",
        "0.05",
    ]);
    assert_eq!(json["pair"], 0);
    assert!(json["bodies"].is_array());
    let run = &json["runs"][0];
    assert_eq!(run["status"], "penetrating");
    assert!(run["nearest"].as_str().unwrap().starts_with("triangle "));
    assert!(run["nearest_run"]["trace"].is_object() || run["nearest_run"]["trace"].is_array());
    let contacts = run["contacts"].as_array().unwrap();
    assert!(contacts.iter().any(|c| c["edges"]["ghost"] == true));
    assert!(contacts.iter().any(|c| c["edges"]["ghost"] == false));
    // --cross-check: parry's own TriMesh query on the same pair, each run held to it.
    let out = common::cli_ok(&["solve", path.to_str().unwrap(), "--cross-check"]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("parry3d-f64: depth "), "{text}");
    assert!(!text.contains("parry3d (f32)"), "not an f32 scene: {text}");
    for method in ["gjk", "epa"] {
        assert!(
            text.lines()
                .any(|l| l.trim_start().starts_with(method) && l.contains("agrees within")),
            "{method}: {text}"
        );
    }
    // A scene whose numbers are all f32 values (an f32 capture's) runs parry3d (f32) too.
    let f32_path = dir.join("floor-f32.ron");
    let f32_scene = std::fs::read_to_string(&path)
        .unwrap()
        .replace("(0.05, 0.05, 0.36)", "(0.0625, 0.0625, 0.5)")
        .replace(
            "EulerDegrees((12.0, -12.0, 0.0))",
            "EulerDegrees((0.0, 0.0, 0.0))",
        )
        .replace("(0.3, 0.3, 0.3)", "(0.25, 0.25, 0.25)")
        .replace("\"gjk\", \"epa\"", "\"gjk\"");
    std::fs::write(&f32_path, f32_scene).unwrap();
    let out = common::cli_ok(&["solve", f32_path.to_str().unwrap(), "--cross-check"]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("parry3d (f32): distance 2.5"), "{text}");
    assert!(text.contains("parry3d-f64: distance 2.5"), "{text}");
    // A bad margin is refused.
    let out = common::cli(&["solve", path.to_str().unwrap(), "--contact-margin=-1"]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("--contact-margin"));
}

/// Contact manifolds on a mesh: a box resting 1e-2 deep on a floor of eight triangles gets
/// one manifold per triangle under it (Jolt's rule: the triangle the reference face, the
/// box's bottom clipped by its side planes), every point certified at the depth, and
/// between them the clipped pieces reach every corner of the box's bottom.
#[test]
fn a_box_on_a_triangulated_floor_has_a_manifold_per_triangle_under_it() {
    let mut v = Vec::new();
    for j in 0..3 {
        for i in 0..3 {
            v.push([-1.0 + i as f64, -1.0 + j as f64, 0.0]);
        }
    }
    let mut t = Vec::new();
    for j in 0..2u32 {
        for i in 0..2u32 {
            let k = j * 3 + i;
            t.push([k, k + 1, k + 4]);
            t.push([k, k + 4, k + 3]);
        }
    }
    let floor = trimesh_spec(&v, &t);
    let s = scene(
        &format!("Body(shape: {floor}), Body(shape: Box(half_extents: (0.3, 0.3, 0.3)), translation: (0.1, 0.05, 0.29))"),
        "\"contact\"",
    );
    let run = s
        .run_composite(
            "contact".parse::<Method>().unwrap(),
            s.settings,
            false,
            None,
        )
        .unwrap();
    let Outcome::Penetrating { depth, .. } = run.answer.outcome else {
        panic!("{:?}", run.answer.outcome)
    };
    assert!((depth - 0.01).abs() < 1e-9, "{depth}");
    // The box's bottom [-0.2, 0.4] x [-0.25, 0.35] lies over six triangles: both halves
    // of the squares it crosses the diagonal of, one half of the other two.
    assert_eq!(run.answer.sub_pairs.len(), 6);
    let mut corners_reached = [false; 4];
    let corners = [(-0.2, -0.25), (0.4, -0.25), (0.4, 0.35), (-0.2, 0.35)];
    for sub in &run.answer.sub_pairs {
        let m = sub
            .run
            .extras
            .get::<collidescope::solver::contact::ContactExtras>()
            .and_then(|e| e.manifold.as_ref())
            .expect("a manifold");
        assert!(m.uncertified.is_none(), "{:?}", m.uncertified);
        for p in &m.candidates {
            assert!((p.depth - 0.01).abs() < 1e-9, "{p:?}");
            for (k, c) in corners.iter().enumerate() {
                if (p.on_b.x - c.0).abs() < 1e-9 && (p.on_b.y - c.1).abs() < 1e-9 {
                    corners_reached[k] = true;
                }
            }
        }
    }
    assert_eq!(corners_reached, [true; 4]);
    // Coal's patch and parry's manifold (parry's Triangle, as its TriMesh runs) on the
    // same six triangles: every point certified too.
    for rule in ["contact_coal", "contact_parry"] {
        let run = s
            .run_composite(rule.parse::<Method>().unwrap(), s.settings, false, None)
            .unwrap();
        assert_eq!(run.answer.sub_pairs.len(), 6, "{rule}");
        for sub in &run.answer.sub_pairs {
            let m = sub
                .run
                .extras
                .get::<collidescope::solver::contact::ContactExtras>()
                .and_then(|e| e.manifold.as_ref())
                .expect("a manifold");
            assert!(m.uncertified.is_none(), "{rule}: {:?}", m.uncertified);
            assert!(m.points.len() >= 3, "{rule}: {:?}", m.points);
        }
    }
}
