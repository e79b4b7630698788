//! Engines' queries brought in: parry captures written by parry's own types in
//! both precisions, FCL dumps quoted in FCL's issues, and the refusals of bad files.
// The dumps' numbers are quoted with the 20 digits FCL prints.
#![allow(clippy::excessive_precision)]

mod common;

use std::path::{Path, PathBuf};

use collidescope::import::import_file;
use collidescope::parry_bridge::parry_native_distance;
use collidescope::scene::{RotationSpec, Scene, ShapeSpec};
use collidescope::solver::{Algorithm, DirectionRule};
use glam::DVec3;

fn temp_dir(tag: &str) -> common::TempDir {
    common::TempDir::new(&format!("import-{tag}"))
}

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/imports")
        .join(name)
}

/// Every convex kind parry serialises, in parry3d-f64's types.
fn f64_shapes() -> Vec<(&'static str, parry3d_f64::shape::SharedShape)> {
    use parry3d_f64::math::Vector;
    use parry3d_f64::shape::SharedShape;
    let tetra = [
        Vector::new(0.0, 0.0, 0.0),
        Vector::new(0.7, 0.1, 0.0),
        Vector::new(0.1, 0.6, 0.1),
        Vector::new(0.2, 0.1, 0.9),
    ];
    vec![
        ("Ball", SharedShape::ball(0.3)),
        ("Cuboid", SharedShape::cuboid(0.3, 0.2, 0.1)),
        ("Capsule", SharedShape::capsule_y(0.25, 0.1)),
        (
            "Capsule",
            SharedShape::capsule(Vector::new(0.1, 0.0, 0.2), Vector::new(-0.2, 0.3, 0.0), 0.1),
        ),
        ("Cylinder", SharedShape::cylinder(0.3, 0.2)),
        ("Cone", SharedShape::cone(0.3, 0.2)),
        (
            "Segment",
            SharedShape::segment(Vector::new(0.0, -0.3, 0.1), Vector::new(0.2, 0.3, 0.0)),
        ),
        (
            "Triangle",
            SharedShape::triangle(tetra[0], tetra[1], tetra[2]),
        ),
        (
            "ConvexPolyhedron",
            SharedShape::convex_hull(&tetra).unwrap(),
        ),
        (
            "RoundCuboid",
            SharedShape::round_cuboid(0.2, 0.2, 0.1, 0.05),
        ),
        ("RoundCylinder", SharedShape::round_cylinder(0.2, 0.2, 0.05)),
        ("RoundCone", SharedShape::round_cone(0.2, 0.2, 0.05)),
        (
            "RoundTriangle",
            SharedShape::round_triangle(tetra[0], tetra[1], tetra[2], 0.05),
        ),
        (
            "RoundConvexPolyhedron",
            SharedShape::round_convex_hull(&tetra, 0.05).unwrap(),
        ),
    ]
}

/// The same kinds in parry3d's f32 types (other sizes, so that f32 rounding shows).
fn f32_shapes() -> Vec<(&'static str, parry3d::shape::SharedShape)> {
    use parry3d::math::Vector;
    use parry3d::shape::SharedShape;
    let tetra = [
        Vector::new(0.0, 0.0, 0.0),
        Vector::new(0.7, 0.1, 0.0),
        Vector::new(0.1, 0.6, 0.1),
        Vector::new(0.2, 0.1, 0.9),
    ];
    vec![
        ("Ball", SharedShape::ball(0.1)),
        ("Cuboid", SharedShape::cuboid(0.3, 0.2, 0.1)),
        ("Capsule", SharedShape::capsule_y(0.25, 0.1)),
        ("Cylinder", SharedShape::cylinder(0.3, 0.2)),
        ("Cone", SharedShape::cone(0.3, 0.2)),
        (
            "Segment",
            SharedShape::segment(Vector::new(0.0, -0.3, 0.1), Vector::new(0.2, 0.3, 0.0)),
        ),
        (
            "Triangle",
            SharedShape::triangle(tetra[0], tetra[1], tetra[2]),
        ),
        (
            "ConvexPolyhedron",
            SharedShape::convex_hull(&tetra).unwrap(),
        ),
        (
            "RoundCuboid",
            SharedShape::round_cuboid(0.2, 0.2, 0.1, 0.05),
        ),
        (
            "RoundConvexPolyhedron",
            SharedShape::round_convex_hull(&tetra, 0.05).unwrap(),
        ),
    ]
}

/// Loads a capture as a scene, checks the round trip (save, load: the same specs and
/// poses to the bit), and returns our GJK distance and the scene.
fn load_and_round_trip(path: &Path) -> (f64, Scene) {
    let scene = collidescope::input::open(path).unwrap_or_else(|e| panic!("{e}"));
    let saved = path.with_extension("ron");
    scene.save(&saved).unwrap();
    let again = collidescope::input::open(&saved).unwrap();
    for (x, y) in scene.bodies.iter().zip(&again.bodies) {
        assert_eq!(x.spec, y.spec, "{}", path.display());
        assert_eq!(x.pose, y.pose, "{}", path.display());
    }
    let run = scene.run(Algorithm::Gjk(DirectionRule::Vanilla));
    (run.summary.outcome.distance().unwrap_or(0.0), scene)
}

#[test]
fn parry_f64_captures_import_to_the_bit_and_answer_as_parry() {
    use parry3d_f64::math::{Pose, Rotation, Vector};
    let dir = temp_dir("f64");
    let pos1 = Pose::from_parts(Vector::new(0.1, -0.2, 0.05), Rotation::from_rotation_y(0.3));
    let pos2 = Pose::from_parts(
        Vector::new(0.9, 0.35, -0.1),
        Rotation::from_axis_angle(Vector::new(0.3, 0.5, 0.8).normalize(), 1.1),
    );
    for (i, (kind_a, a)) in f64_shapes().iter().enumerate() {
        for (j, (kind_b, b)) in f64_shapes().iter().enumerate() {
            let path = dir.join(format!("q{i}_{j}.json"));
            let json = serde_json::to_string(&(pos1, a, pos2, b)).unwrap();
            std::fs::write(&path, &json).unwrap();
            let (ours, scene) = load_and_round_trip(&path);
            assert!(scene.notes.contains("parry3d-f64"), "{}", scene.notes);
            // The poses are parry's to the bit.
            let t = scene.bodies[1].pose.translation;
            assert_eq!(
                t,
                DVec3::new(pos2.translation.x, pos2.translation.y, pos2.translation.z)
            );
            let q = scene.bodies[1].pose.rotation;
            assert_eq!(
                q.to_array(),
                [
                    pos2.rotation.x,
                    pos2.rotation.y,
                    pos2.rotation.z,
                    pos2.rotation.w
                ]
            );
            // parry's own distance on its own query.
            let theirs = parry3d_f64::query::distance(&pos1, &**a, &pos2, &**b)
                .unwrap()
                .distance;
            assert!(
                (ours - theirs).abs() <= 1e-5,
                "{kind_a} vs {kind_b}: ours {ours}, parry {theirs}"
            );
        }
    }
}

#[test]
fn parry_f32_captures_are_read_as_f32_and_widened_exactly() {
    use parry3d::math::{Pose, Rotation, Vector};
    let dir = temp_dir("f32");
    let pos1 = Pose::from_parts(Vector::new(0.1, -0.2, 0.05), Rotation::from_rotation_y(0.3));
    let pos2 = Pose::from_parts(
        Vector::new(0.9, 0.35, -0.1),
        Rotation::from_axis_angle(Vector::new(0.3, 0.5, 0.8).normalize(), 1.1),
    );
    for (i, (kind_a, a)) in f32_shapes().iter().enumerate() {
        for (j, (kind_b, b)) in f32_shapes().iter().enumerate() {
            let path = dir.join(format!("q{i}_{j}.json"));
            std::fs::write(&path, serde_json::to_string(&(pos1, a, pos2, b)).unwrap()).unwrap();
            let (ours, scene) = load_and_round_trip(&path);
            assert!(scene.notes.contains("parry3d (f32)"), "{}", scene.notes);
            let t = scene.bodies[0].pose.translation;
            assert_eq!(t.x, f64::from(0.1f32), "0.1 read as f32, widened: not 0.1");
            // The quaternion widened, then normalised in f64 (the rotation certified).
            let q = scene.bodies[1].pose.rotation;
            let p = pos2.rotation;
            let widened = glam::DQuat::from_array([p.x, p.y, p.z, p.w].map(f64::from));
            assert_eq!(q, collidescope::pose::normalized_quaternion(widened));
            // parry3d's own f32 answer: a sanity bound only (its f32 GJK is 2e-3 off on the
            // capsule-cylinder pair here, 1e-4 on most) ...
            let theirs = parry3d::query::distance(&pos1, &**a, &pos2, &**b)
                .unwrap()
                .distance;
            assert!(
                (ours - f64::from(theirs)).abs() <= 1e-2,
                "{kind_a} vs {kind_b}: ours {ours}, parry (f32) {theirs}"
            );
            // ... and parry3d-f64's on the widened query (the same code path reads f64
            // captures, checked against parry3d-f64 to 1e-5 above).
            let exact = parry_native_distance(&scene.a().shape, &scene.b().shape, &scene.b_in_a());
            if let Some(exact) = exact {
                assert!(
                    (ours - exact).abs() <= 1e-5,
                    "{kind_a} vs {kind_b}: ours {ours}, parry3d-f64 {exact}"
                );
            }
        }
    }
    // The radius of an f32 ball is 0.1f32 widened.
    let path = dir.join("q0_0.json");
    let scene = collidescope::input::open(&path).unwrap();
    assert_eq!(
        scene.bodies[0].spec,
        ShapeSpec::Sphere {
            radius: f64::from(0.1f32)
        }
    );
}

/// parry's `HalfSpace` (rapier's ground) against convex shapes comes in as a slab whose
/// top face is the plane: the same distance as parry's, and the same depth when the
/// shape sinks in; either argument order, any pose of the plane.
#[test]
fn parry_half_spaces_import_as_slabs_with_parrys_answers() {
    use parry3d_f64::math::{Pose, Rotation, Vector};
    use parry3d_f64::shape::SharedShape;
    let dir = temp_dir("halfspace");
    let plane = SharedShape::halfspace(Vector::new(0.2, 1.0, -0.1).normalize());
    let others = [
        ("ball", SharedShape::ball(0.4)),
        ("cuboid", SharedShape::cuboid(0.3, 0.2, 0.5)),
        ("capsule", SharedShape::capsule_y(0.4, 0.1)),
    ];
    let plane_pose = Pose::from_parts(Vector::new(0.3, -0.2, 0.1), Rotation::from_rotation_z(0.2));
    let mut compared = 0;
    for (k, (kind, other)) in others.iter().enumerate() {
        for (h, height) in [0.8, 0.35, 0.05].into_iter().enumerate() {
            let other_pose = Pose::from_parts(
                Vector::new(0.5, height, -0.3),
                Rotation::from_axis_angle(Vector::new(1.0, 0.4, 0.2).normalize(), 0.7),
            );
            let theirs = parry3d_f64::query::distance(&plane_pose, &*plane, &other_pose, &**other)
                .unwrap()
                .distance;
            for swap in [false, true] {
                let path = dir.join(format!("{k}_{h}_{swap}.json"));
                let json = if swap {
                    serde_json::to_string(&(other_pose, other, plane_pose, &plane))
                } else {
                    serde_json::to_string(&(plane_pose, &plane, other_pose, other))
                };
                std::fs::write(&path, json.unwrap()).unwrap();
                let scene = collidescope::input::open(&path).unwrap_or_else(|e| panic!("{e}"));
                assert!(scene.notes.contains("slab"), "{}", scene.notes);
                let run = scene.run(Algorithm::Gjk(DirectionRule::Vanilla));
                let ours = run.summary.outcome.distance().unwrap();
                if theirs > 1e-9 {
                    assert!(run.summary.outcome.proves_apart(), "{kind} at {height}");
                    assert!(
                        (ours - theirs).abs() <= 1e-6,
                        "{kind} at {height}: ours {ours}, parry {theirs}"
                    );
                } else {
                    let depth = match scene
                        .run("epa".parse::<collidescope::solver::Method>().unwrap())
                        .summary
                        .outcome
                    {
                        collidescope::solver::Outcome::Penetrating { depth, .. } => depth,
                        other => panic!("{kind} at {height}: {other}"),
                    };
                    let contact = parry3d_f64::query::contact(
                        &plane_pose,
                        &*plane,
                        &other_pose,
                        &**other,
                        0.0,
                    )
                    .unwrap()
                    .unwrap();
                    assert!(
                        (depth + contact.dist).abs() <= 1e-6,
                        "{kind} at {height}: depth {depth}, parry {}",
                        contact.dist
                    );
                }
                compared += 1;
            }
        }
    }
    assert_eq!(compared, 18);
}

#[test]
fn parry_kinds_collidescope_does_not_take_are_refused_by_name() {
    use parry3d_f64::math::{Pose, Vector};
    use parry3d_f64::shape::SharedShape;
    let dir = temp_dir("refused");
    let pose = Pose::IDENTITY;
    let ball = SharedShape::ball(1.0);
    // TriMesh, Compound and HeightField come in (tests/import_composites.rs); a
    // polyline is neither a solid nor a surface.
    let cases = [(
        "Polyline",
        SharedShape::polyline(vec![Vector::ZERO, Vector::X, Vector::Y], None),
    )];
    for (kind, shape) in cases {
        let path = dir.join(format!("{kind}.json"));
        std::fs::write(
            &path,
            serde_json::to_string(&(pose, &ball, pose, &shape)).unwrap(),
        )
        .unwrap();
        let err = import_file(&path).expect_err("refused").to_string();
        assert!(
            err.contains(kind) && err.contains("shape2") && err.contains(&format!("{kind}.json")),
            "{err}"
        );
        // The viewer's way in says the same, and nothing is built.
        let err = collidescope::input::open(&path).unwrap_err().to_string();
        assert!(err.contains(kind), "{err}");
    }
}

#[test]
fn bad_captures_and_dumps_name_the_file_and_the_place() {
    let dir = temp_dir("bad");
    let cases: [(&str, &str, &[&str]); 7] = [
        (
            "not_unit.json",
            r#"[{"rotation":[0.0,0.0,0.0,2.0],"translation":[0.0,0.0,0.0]},{"Ball":{"radius":1.0}},{"rotation":[0.0,0.0,0.0,1.0],"translation":[1.0,0.0,0.0]},{"Ball":{"radius":1.0}}]"#,
            &["not a unit quaternion", "not_unit.json"],
        ),
        (
            "broken.json",
            r#"[{"rotation":[0.0,0.0,0.0,1.0],"translation":[0.0,0.0"#,
            &["line 1", "not JSON", "broken.json"],
        ),
        (
            "unknown.json",
            r#"[{"rotation":[0.0,0.0,0.0,1.0],"translation":[0.0,0.0,0.0]},{"Blob":{"r":1.0}},{"rotation":[0.0,0.0,0.0,1.0],"translation":[1.0,0.0,0.0]},{"Ball":{"radius":1.0}}]"#,
            &["shape1", "Blob"],
        ),
        (
            "missing_pose.txt",
            "  Shape 1: Sphere(0.5)\n  X_FS1\n1 0 0 0\n0 1 0 0\n0 0 1 0\n0 0 0 1\n  Shape 2: Sphere(0.5)\n",
            &["X_FS2", "missing_pose.txt"],
        ),
        (
            "nan.txt",
            "  Shape 1: Sphere(nan)\n  X_FS1\n1 0 0 0\n0 1 0 0\n0 0 1 0\n0 0 0 1\n  Shape 2: Sphere(0.5)\n  X_FS2\n1 0 0 2\n0 1 0 0\n0 0 1 0\n0 0 0 1\n",
            &["Shape 1", "line 1", "`nan` is not a finite number", "nan.txt"],
        ),
        (
            "scaled.txt",
            "  Shape 1: Sphere(0.5)\n  X_FS1\n2 0 0 0\n0 1 0 0\n0 0 1 0\n0 0 0 1\n  Shape 2: Sphere(0.5)\n  X_FS2\n1 0 0 2\n0 1 0 0\n0 0 1 0\n0 0 0 1\n",
            &["X_FS1", "line 3", "not rigid"],
        ),
        (
            "last_row.txt",
            "  Shape 1: Sphere(0.5)\n  X_FS1\n1 0 0 0\n0 1 0 0\n0 0 1 0\n0 0 1 1\n  Shape 2: Plane(0 0 1 0)\n  X_FS2\n1 0 0 2\n0 1 0 0\n0 0 1 0\n0 0 0 1\n",
            &["X_FS1", "line 6", "0 0 0 1"],
        ),
    ];
    for (name, text, expected) in cases {
        let path = dir.join(name);
        std::fs::write(&path, text).unwrap();
        let err = collidescope::input::open(&path)
            .map(|_| ())
            .unwrap_err()
            .to_string();
        for e in expected {
            assert!(err.contains(e), "{name}: {err:?} lacks {e:?}");
        }
    }
}

/// fcl #493 (Drake, 2020): two boxes of side 0.5 touching face to face, on which FCL's
/// EPA threw "The origin is outside of the polytope". Both poses are the printed
/// matrices to the bit; the boxes touch (parry agrees), and our verdict says so.
#[test]
fn fcl_493_boxes_touch() {
    let path = fixture("fcl_493_boxes.txt");
    let scene = collidescope::input::open(&path).unwrap();
    assert_eq!(
        scene.bodies[0].spec,
        ShapeSpec::Box {
            half_extents: [0.25; 3]
        }
    );
    let file = import_file(&path).unwrap();
    match file.bodies[0].rotation {
        RotationSpec::Matrix(rows) => assert_eq!(rows[0][0], 0.96193976625564348026),
        other => panic!("{other:?}"),
    }
    assert_eq!(scene.bodies[0].pose.translation.x, 2.0770063995786869349);
    let parry = parry_native_distance(&scene.a().shape, &scene.b().shape, &scene.b_in_a()).unwrap();
    assert!(parry.abs() < 1e-9, "parry: {parry}");
    let epa = scene.run("epa".parse::<collidescope::solver::Method>().unwrap());
    assert_eq!(
        epa.summary.outcome.status_name(),
        "touching",
        "{}",
        epa.summary.outcome
    );
}

/// fcl #319: a cylinder (FCL's z axis) grazing a long box; FCL's EPA hit "this should
/// not happen". The cylinder stands along FCL's z after the import's exact column swap:
/// our distance equals parry's on the same pair.
#[test]
fn fcl_319_cylinder_box_keeps_fcl_axes() {
    let scene = collidescope::input::open(&fixture("fcl_319_cylinder_box.txt")).unwrap();
    assert_eq!(
        scene.bodies[0].spec,
        ShapeSpec::Cylinder {
            radius: 0.050000000000000002776,
            half_height: 0.05999999999999999778 / 2.0
        }
    );
    // The cylinder's axis (our y) is FCL's z column of X_FS1.
    let axis = scene.bodies[0].pose.transform_vector(DVec3::Y);
    assert_eq!(
        axis,
        DVec3::new(
            6.3260669852976095481e-06,
            0.99999999997999056145,
            6.3942912945996747041e-10
        )
    );
    let ours = scene
        .run(Algorithm::Gjk(DirectionRule::Vanilla))
        .summary
        .outcome
        .distance()
        .unwrap();
    let parry = parry_native_distance(&scene.a().shape, &scene.b().shape, &scene.b_in_a()).unwrap();
    assert!((ours - parry).abs() < 1e-6, "ours {ours}, parry {parry}");
}

/// The format FCL prints since PR #594 (`Convex<double>(...)` with its vertices, poses as
/// comma-separated rows): a tetrahedron and a sphere whose distance has a closed form.
#[test]
fn fcl_594_format_reads_convex_vertices() {
    let scene = collidescope::input::open(&fixture("fcl_594_format_convex_sphere.txt")).unwrap();
    match &scene.bodies[0].spec {
        ShapeSpec::Polytope { points, .. } => assert_eq!(points.len(), 4),
        other => panic!("{other:?}"),
    }
    let d = scene
        .run(Algorithm::Gjk(DirectionRule::Vanilla))
        .summary
        .outcome
        .distance()
        .unwrap();
    let exact = (2.25 - 1.0) / 3f64.sqrt() - 0.25;
    assert!((d - exact).abs() < 1e-6, "{d} vs {exact}");
}

/// STL (both encodings) and PLY (ASCII and binary) are taken wherever OBJ is: a scene's
/// `Mesh(path)`, `mesh`, the viewer's Open mesh. The same cube in every format gives the
/// same hull and the same distance; broken files name the file.
#[test]
fn stl_and_ply_meshes_load_like_obj() {
    let dir = temp_dir("meshes");
    let corners: Vec<[f32; 3]> = (0..8)
        .map(|i| {
            [
                if i & 1 == 0 { -0.5 } else { 0.5 },
                if i & 2 == 0 { -0.25 } else { 0.25 },
                if i & 4 == 0 { -0.125 } else { 0.125 },
            ]
        })
        .collect();
    let triangles: [[usize; 3]; 12] = [
        [0, 1, 3],
        [0, 3, 2],
        [4, 6, 7],
        [4, 7, 5],
        [0, 4, 5],
        [0, 5, 1],
        [2, 3, 7],
        [2, 7, 6],
        [0, 2, 6],
        [0, 6, 4],
        [1, 5, 7],
        [1, 7, 3],
    ];
    // OBJ, the reference.
    let mut obj = String::new();
    for c in &corners {
        obj += &format!("v {} {} {}\n", c[0], c[1], c[2]);
    }
    for t in &triangles {
        obj += &format!("f {} {} {}\n", t[0] + 1, t[1] + 1, t[2] + 1);
    }
    std::fs::write(dir.join("cube.obj"), obj).unwrap();
    // ASCII STL.
    let mut stl = String::from("solid cube\n");
    for t in &triangles {
        stl += "facet normal 0 0 0\nouter loop\n";
        for &i in t {
            stl += &format!(
                "vertex {} {} {}\n",
                corners[i][0], corners[i][1], corners[i][2]
            );
        }
        stl += "endloop\nendfacet\n";
    }
    stl += "endsolid cube\n";
    std::fs::write(dir.join("cube_ascii.stl"), stl).unwrap();
    // Binary STL.
    let mut bin = vec![0u8; 80];
    bin.extend_from_slice(&(triangles.len() as u32).to_le_bytes());
    for t in &triangles {
        bin.extend_from_slice(&[0u8; 12]);
        for &i in t {
            for c in corners[i] {
                bin.extend_from_slice(&c.to_le_bytes());
            }
        }
        bin.extend_from_slice(&[0u8; 2]);
    }
    std::fs::write(dir.join("cube_binary.stl"), bin).unwrap();
    // ASCII and binary PLY.
    let header = |format: &str| {
        format!(
            "ply\nformat {format} 1.0\nelement vertex 8\nproperty float x\nproperty float y\nproperty float z\n\
             element face 12\nproperty list uchar int vertex_indices\nend_header\n"
        )
    };
    let mut ascii = header("ascii");
    for c in &corners {
        ascii += &format!("{} {} {}\n", c[0], c[1], c[2]);
    }
    for t in &triangles {
        ascii += &format!("3 {} {} {}\n", t[0], t[1], t[2]);
    }
    std::fs::write(dir.join("cube_ascii.ply"), ascii).unwrap();
    let mut binary = header("binary_little_endian").into_bytes();
    for c in &corners {
        for v in c {
            binary.extend_from_slice(&v.to_le_bytes());
        }
    }
    for t in &triangles {
        binary.push(3);
        for &i in t {
            binary.extend_from_slice(&(i as i32).to_le_bytes());
        }
    }
    std::fs::write(dir.join("cube_binary.ply"), binary).unwrap();

    let distance_to = |mesh: &str| -> f64 {
        let scene = format!(
            "Scene(version: 2, name: \"m\", bodies: [Body(shape: Mesh(path: \"{mesh}\")), \
             Body(shape: Sphere(radius: 0.1), translation: (1.0, 0.7, 0.3))], \
             algorithms: [\"gjk\"], settings: Settings(tolerance: 1e-10, criterion: DualityGap, \
             kind: Absolute, max_iterations: 100, initial_guess: CentreDifference))"
        );
        let path = dir.join(format!("{mesh}.ron"));
        std::fs::write(&path, scene).unwrap();
        let scene = collidescope::input::open(&path).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(
            scene.bodies[0].mesh_report.as_ref().unwrap().hull_vertices,
            8,
            "{mesh}"
        );
        scene
            .run(Algorithm::Gjk(DirectionRule::Vanilla))
            .summary
            .outcome
            .distance()
            .unwrap()
    };
    let reference = distance_to("cube.obj");
    let exact = (DVec3::new(0.5, 0.45, 0.175).length()) - 0.1;
    assert!((reference - exact).abs() < 1e-8, "{reference} vs {exact}");
    for mesh in [
        "cube_ascii.stl",
        "cube_binary.stl",
        "cube_ascii.ply",
        "cube_binary.ply",
    ] {
        assert_eq!(distance_to(mesh), reference, "{mesh}");
    }
    // A PLY without a vertex element, and a truncated binary one.
    std::fs::write(dir.join("empty.ply"), "ply\nformat ascii 1.0\nelement face 0\nproperty list uchar int vertex_indices\nend_header\n").unwrap();
    let err = collidescope::mesh::load_mesh(&dir.join("empty.ply"))
        .unwrap_err()
        .to_string();
    assert!(err.contains("empty.ply") && err.contains("vertex"), "{err}");
    let bytes = std::fs::read(dir.join("cube_binary.ply")).unwrap();
    std::fs::write(dir.join("cut.ply"), &bytes[..bytes.len() - 40]).unwrap();
    let err = collidescope::mesh::load_mesh(&dir.join("cut.ply"))
        .unwrap_err()
        .to_string();
    assert!(err.contains("cut.ply"), "{err}");
}

/// A `cast_shapes` capture, `(pos1, vel1, shape1, pos2, vel2, shape2)` as parry writes
/// it, imports as a moving pair whose time of impact is parry's (f64) to 1e-6, and the
/// f32 build's velocities are read as f32.
#[test]
fn parry_cast_captures_import_as_moving_pairs() {
    use parry3d_f64::math::{Pose, Rotation, Vector};
    use parry3d_f64::query::{cast_shapes, ShapeCastOptions};
    use parry3d_f64::shape::SharedShape;
    let dir = temp_dir("cast");
    let (a, b) = (
        SharedShape::cuboid(0.3, 0.2, 0.1),
        SharedShape::capsule_y(0.2, 0.1),
    );
    let pos1 = Pose::from_parts(Vector::new(-1.0, 0.1, 0.0), Rotation::from_rotation_z(0.2));
    let pos2 = Pose::from_parts(Vector::new(1.0, -0.1, 0.05), Rotation::from_rotation_x(0.4));
    let (vel1, vel2) = (Vector::new(1.5, 0.0, 0.0), Vector::new(-0.5, 0.1, 0.0));
    let path = dir.join("cast.json");
    std::fs::write(
        &path,
        serde_json::to_string(&(pos1, vel1, &a, pos2, vel2, &b)).unwrap(),
    )
    .unwrap();
    let scene = collidescope::input::open(&path).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(scene.bodies[1].velocity, Some(DVec3::new(-0.5, 0.1, 0.0)));
    let theirs = cast_shapes(
        &pos1,
        vel1,
        &*a,
        &pos2,
        vel2,
        &*b,
        ShapeCastOptions::with_max_time_of_impact(1.0),
    )
    .unwrap()
    .expect("a hit")
    .time_of_impact;
    let ours = match scene
        .run("toi".parse::<collidescope::solver::Method>().unwrap())
        .summary
        .outcome
    {
        collidescope::solver::Outcome::Impact { time, .. } => time,
        other => panic!("{other}"),
    };
    assert!((ours - theirs).abs() < 1e-6, "ours {ours}, parry {theirs}");
    // f32: 0.1 as a velocity is 0.1f32 widened.
    let f32_capture = r#"[{"rotation":[0.0,0.0,0.0,1.0],"translation":[0.0,0.0,0.0],"padding":0},[0.1,0.0,0.0],{"Ball":{"radius":0.5}},{"rotation":[0.0,0.0,0.0,1.0],"translation":[2.0,0.0,0.0],"padding":0},[0.0,0.0,0.0],{"Ball":{"radius":0.5}}]"#;
    let path = dir.join("cast32.json");
    std::fs::write(&path, f32_capture).unwrap();
    let scene = collidescope::input::open(&path).unwrap();
    assert_eq!(
        scene.bodies[0].velocity,
        Some(DVec3::new(f64::from(0.1f32), 0.0, 0.0))
    );
}

/// The bodies of a scene, to compare two imports of one query to the bit.
fn bodies_of(path: &Path) -> Vec<(ShapeSpec, collidescope::pose::Pose)> {
    let scene = collidescope::input::open(path).unwrap_or_else(|e| panic!("{e}"));
    scene
        .bodies
        .iter()
        .map(|b| (b.spec.clone(), b.pose))
        .collect()
}

/// A dump pasted from a ROS 2 launch log (every line `[move_group-1] `, the first also
/// the ROS logger's `[ERROR] [stamp] [node]: ` in ANSI red, log lines before it) reads
/// as the bare dump, in both of FCL's layouts; the new one puts the shape on the line
/// after `Shape 1:`, which was refused "no shape name".
#[test]
fn fcl_dumps_from_launch_logs_read_as_the_bare_dumps() {
    for (log, bare) in [
        (
            "fcl_594_format_ros2_launch.log",
            "fcl_594_format_convex_sphere.txt",
        ),
        ("fcl_319_ros2_launch.log", "fcl_319_cylinder_box.txt"),
    ] {
        assert_eq!(bodies_of(&fixture(log)), bodies_of(&fixture(bare)), "{log}");
        let file = import_file(&fixture(log)).unwrap();
        assert!(
            file.notes.contains("Original error message"),
            "{}",
            file.notes
        );
        assert!(!file.notes.contains("move_group-1"), "{}", file.notes);
    }
}

/// `nan` and `inf` as Eigen prints them were skipped as words, so the numbers after
/// them shifted (a `nan` z translation read as 0, a `nan` vertex swallowing the face
/// count). Each is refused naming the file, the line (the file's own, under a launch
/// prefix too) and the word.
#[test]
fn fcl_dumps_with_nan_or_inf_are_refused_with_the_line_and_word() {
    for (name, expected) in [
        (
            "fcl_319_nan_translation.txt",
            &["X_FS2", "line 13", "`nan`"][..],
        ),
        ("fcl_594_nan_vertex.txt", &["Shape 1", "line 8", "`-nan`"]),
        (
            "fcl_594_inf_pose_ros2_launch.log",
            &["X_FS1", "line 18", "`inf`"],
        ),
    ] {
        let err = collidescope::input::open(&fixture(name))
            .map(|_| ())
            .unwrap_err()
            .to_string();
        assert!(err.contains(name), "{err}");
        for e in expected {
            assert!(err.contains(e), "{name}: {err:?} lacks {e:?}");
        }
    }
    // Every spelling of the C libraries, Eigen, MSVC and Python, anywhere a number goes.
    let dir = temp_dir("nonfinite");
    let pose = "  X_FS1\n1 0 0 0\n0 1 0 0\n0 0 1 0\n0 0 0 1\n";
    for word in [
        "nan",
        "-nan",
        "NaN",
        "+inf",
        "-inf",
        "inf",
        "Infinity",
        "-Infinity",
        "INF",
        "1.#INF",
        "-1.#IND",
        "1.#QNAN",
        "nan(ind)",
        "-nan(ind)",
        "1e999",
        "1.2.3",
    ] {
        for (shape, line) in [
            (format!("  Shape 1: Box{word} 0.5 0.5\n{pose}"), 1),
            (format!("  Shape 1: Box<double>(1, 2, 3);\n  X_FS1\n1, 0, 0, {word},\n0, 1, 0, 0,\n0, 0, 1, 0,\n0, 0, 0, 1;\n"), 3),
        ] {
            let text = format!(
                "{shape}  Shape 2: Sphere(0.5)\n  X_FS2\n1 0 0 2\n0 1 0 0\n0 0 1 0\n0 0 0 1\n"
            );
            let path = dir.join("word.txt");
            std::fs::write(&path, &text).unwrap();
            let err = import_file(&path).map(|_| ()).unwrap_err().to_string();
            assert!(
                err.contains("word.txt")
                    && err.contains(&format!("line {line}"))
                    && err.contains(&format!("`{word}`")),
                "{word}: {err}"
            );
        }
    }
}

/// Broken STL and PLY files are refused as STL and PLY (they were "not a valid OBJ
/// file"), naming the file and the place: the line of an ASCII file, the byte of a
/// binary one.
#[test]
fn stl_and_ply_refusals_name_their_format_and_place() {
    let dir = temp_dir("mesh-refusals");
    let triangle = |c: [f32; 3]| -> Vec<u8> {
        let mut out = vec![0u8; 12];
        for v in [[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], c] {
            for x in v {
                out.extend_from_slice(&f32::to_le_bytes(x));
            }
        }
        out.extend_from_slice(&[0, 0]);
        out
    };
    let binary_stl = |last: [f32; 3]| -> Vec<u8> {
        let mut out = vec![0u8; 80];
        out.extend_from_slice(&2u32.to_le_bytes());
        out.extend(triangle([0.0, 1.0, 0.0]));
        out.extend(triangle(last));
        out
    };
    let ascii_stl = "solid t\nfacet normal 0 0 1\nouter loop\nvertex 0 0 0\nvertex 1 0 0\nvertex 0 1 0\nendloop\nendfacet\nendsolid t\n";
    let ply_header = |format: &str| {
        format!(
            "ply\nformat {format} 1.0\nelement vertex 4\nproperty float x\nproperty float y\n\
             property float z\nend_header\n"
        )
    };
    let mut nan_ply = ply_header("binary_little_endian").into_bytes();
    let header_bytes = nan_ply.len();
    for (k, v) in [
        [0.0f32, 0.0, 0.0],
        [1.0, 0.0, 0.0],
        [0.0, f32::NAN, 0.0],
        [0.0, 0.0, 1.0],
    ]
    .iter()
    .enumerate()
    {
        let _ = k;
        for x in v {
            nan_ply.extend_from_slice(&x.to_le_bytes());
        }
    }
    let cut_ply = nan_ply[..nan_ply.len() - 5].to_vec();
    let ascii_ply = format!("{}0 0 0\n1 0 0\n0 nan 0\n0 0 1\n", ply_header("ascii"));
    let cases: Vec<(&str, Vec<u8>, Vec<String>)> = vec![
        (
            "nan.stl",
            ascii_stl
                .replace("vertex 1 0 0", "vertex 1 nan 0")
                .into_bytes(),
            vec![
                "not a valid STL file".into(),
                "line 5".into(),
                "`nan`".into(),
            ],
        ),
        (
            "short_vertex.stl",
            ascii_stl.replace("vertex 1 0 0", "vertex 1 0").into_bytes(),
            vec!["STL".into(), "line 5".into()],
        ),
        (
            "nan_binary.stl",
            binary_stl([0.0, f32::NAN, 0.0]),
            vec!["STL".into(), format!("byte {}", 84 + 50 + 12 + 24)],
        ),
        (
            "cut.stl",
            binary_stl([0.0, 0.0, 1.0])[..150].to_vec(),
            vec!["STL".into(), "bytes 80-83".into(), "byte 150".into()],
        ),
        (
            "nan_binary.ply",
            nan_ply,
            vec![
                "not a valid PLY file".into(),
                format!("byte {} (vertex 2)", header_bytes + 24),
            ],
        ),
        (
            "cut.ply",
            cut_ply,
            vec!["PLY".into(), "ends at byte 158".into()],
        ),
        (
            "nan_ascii.ply",
            ascii_ply.into_bytes(),
            vec!["PLY".into(), "Line 10".into()],
        ),
    ];
    for (name, bytes, expected) in cases {
        let path = dir.join(name);
        std::fs::write(&path, bytes).unwrap();
        let err = collidescope::mesh::load_mesh(&path)
            .map(|_| ())
            .unwrap_err()
            .to_string();
        assert!(err.contains(name) && !err.contains("OBJ"), "{err}");
        for e in &expected {
            assert!(err.contains(e.as_str()), "{name}: {err:?} lacks {e:?}");
        }
    }
}

/// A file `import` takes none of is refused with where it says so: empty, UTF-16,
/// bytes that are not UTF-8, a binary file's control characters, or its first line; a
/// JSON array that is not a capture with its length or the element that is no pose.
#[test]
fn import_refusals_of_other_files_say_where() {
    let dir = temp_dir("not-a-format");
    let cases: [(&str, &[u8], &[&str]); 8] = [
        ("empty.json", b"", &["the file is empty"]),
        (
            "utf16.txt",
            b"\xFF\xFES\x00h\x00a\x00p\x00e\x00",
            &["UTF-16LE", "save it as UTF-8"],
        ),
        ("latin1.txt", b"Shape\n1: \xE9", &["byte 9 (line 2)", "not UTF-8"]),
        ("nul.bin", b"abc\x00def", &["byte 3 (line 1)", "U+0000"]),
        ("words.txt", b"\n\n  hello world\n", &["line 3", "`hello world`"]),
        ("three.json", b"[1, 2, 3]", &["3 elements", "not 4 or 6"]),
        (
            "no_pose.json",
            br#"[{"translation":[0,0,0]},{"Ball":{"radius":1}},{"rotation":[0,0,0,1],"translation":[0,0,0]},{"Ball":{"radius":1}}]"#,
            &["[0] (pos1)", "\"rotation\""],
        ),
        ("broken.json", b"[1,\n2", &["line 2", "column"]),
    ];
    for (name, bytes, expected) in cases {
        let path = dir.join(name);
        std::fs::write(&path, bytes).unwrap();
        let err = import_file(&path).map(|_| ()).unwrap_err().to_string();
        assert!(err.contains(name), "{err}");
        for e in expected {
            assert!(err.contains(e), "{name}: {err:?} lacks {e:?}");
        }
    }
}

/// urdf-rs reads a vector's numbers and skips its other words, so `xyz="0 abc 0 1"`
/// was the origin 0 0 1; it is refused with the element, line and joint or link, as is
/// a colour without four numbers. `<gazebo>` blocks, which urdf-rs does not read, are
/// left alone.
#[test]
fn urdf_vectors_with_words_are_refused_not_shifted() {
    let dir = temp_dir("urdf-words");
    let robot = |xyz: &str, rgba: &str| {
        format!(
            "<robot name=\"r\">\n<material name=\"m\"><color rgba=\"{rgba}\"/></material>\n\
             <link name=\"a\"><collision><origin xyz=\"{xyz}\"/><geometry><box size=\"1 1 1\"/></geometry></collision></link>\n\
             <link name=\"b\"><collision><geometry><sphere radius=\"0.5\"/></geometry></collision></link>\n\
             <joint name=\"j\" type=\"fixed\"><parent link=\"a\"/><child link=\"b\"/><origin xyz=\"0 0 3\"/></joint>\n\
             <gazebo reference=\"a\"><sensor><pose xyz=\"words here\"/></sensor></gazebo>\n</robot>\n"
        )
    };
    let path = dir.join("good.urdf");
    std::fs::write(&path, robot("0 0 1", "1 0 0 1")).unwrap();
    collidescope::robot::RobotModel::load(&path, None).unwrap_or_else(|e| panic!("{e}"));
    for (name, text, expected) in [
        (
            "word.urdf",
            robot("0 abc 0 1", "1 0 0 1"),
            &["line 3", "xyz=\"0 abc 0 1\"", "(in a)"][..],
        ),
        (
            "rgba.urdf",
            robot("0 0 1", "1 0 0"),
            &["line 2", "rgba", "four numbers"],
        ),
    ] {
        let path = dir.join(name);
        std::fs::write(&path, text).unwrap();
        let err = collidescope::robot::RobotModel::load(&path, None)
            .map(|_| ())
            .unwrap_err();
        assert!(err.contains(name), "{err}");
        for e in expected {
            assert!(err.contains(e), "{name}: {err:?} lacks {e:?}");
        }
    }
}

/// Words that a number reader would skip or misread are refused with their line, in a
/// transform and in a shape: a minus sign that is not ASCII (U+2212, read as `+0.3`),
/// letters glued to a number, a word among a transform's numbers (which shifted the
/// numbers after it).
#[test]
fn fcl_dumps_with_stray_words_are_refused_with_the_line_and_word() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/imports");
    let text = std::fs::read_to_string(dir.join("fcl_319_cylinder_box.txt")).unwrap();
    let tmp = std::env::temp_dir().join(format!("stray-{}", std::process::id()));
    std::fs::create_dir_all(&tmp).unwrap();
    // X_FS2's z translation (line 11) and the box's second side (line 9).
    for (from, to, line) in [
        ("0.80000000000000004441", "\u{2212}0.3", 11),
        ("0.80000000000000004441", "0.3abc", 11),
        ("0.80000000000000004441", "nanometer", 11),
        ("0.80000000000000004441", "a0.3", 11),
        ("0.80000000000000004441", "0x1p-1", 11),
        ("0.3499999999999999778", "\u{2212}0.35", 9),
        ("0.3499999999999999778", "0.35mm", 9),
    ] {
        assert!(text.contains(from));
        let path = tmp.join("stray.txt");
        std::fs::write(&path, text.replacen(from, to, 1)).unwrap();
        let err = match collidescope::import::import_file(&path) {
            Ok(_) => panic!("{to}: read as a number"),
            Err(e) => e.to_string(),
        };
        assert!(
            err.contains("stray.txt") && err.contains(&format!("line {line}")) && err.contains(to),
            "{to}: {err}"
        );
    }
}

/// A PLY face naming a vertex the file does not have is refused with its line, as in
/// OBJ (the hull needs only the points, but the file is broken); a valid file's faces
/// are counted (a polygon of n corners as n − 2 triangles).
#[test]
fn ply_faces_out_of_range_are_refused_and_faces_counted() {
    let tmp = std::env::temp_dir().join(format!("ply-faces-{}", std::process::id()));
    std::fs::create_dir_all(&tmp).unwrap();
    let head = "ply\nformat ascii 1.0\nelement vertex 5\nproperty float x\nproperty float y\n\
                property float z\nelement face 6\nproperty list uchar int vertex_indices\n\
                end_header\n0 0 0\n1 0 0\n0 1 0\n0 0 1\n1 1 1\n3 0 1 2\n3 0 1 3\n3 0 2 3\n\
                3 1 2 3\n3 1 2 4\n";
    for (last, line, word) in [("3 0 2 99\n", 20, "99"), ("3 0 -1 2\n", 20, "-1")] {
        let path = tmp.join("bad.ply");
        std::fs::write(&path, format!("{head}{last}")).unwrap();
        let err = collidescope::mesh::load_mesh(&path)
            .map(|_| ())
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("bad.ply")
                && err.contains("PLY")
                && err.contains(&format!("line {line}"))
                && err.contains(word),
            "{err}"
        );
    }
    let path = tmp.join("good.ply");
    std::fs::write(&path, format!("{head}4 0 1 4 2\n")).unwrap();
    let mesh = collidescope::mesh::load_mesh(&path).unwrap();
    assert_eq!(mesh.report.input_faces, 7, "five triangles and a quad");
}

/// A scene's `Mesh(path)` reads COLLADA as robots do (one mesh reader per format): the
/// wedge of `meshes/wedge.dae`, in centimetres and moved by its node, is the hull of
/// its six points in metres; an extension no reader takes is refused naming the file.
#[test]
fn a_scene_reads_a_collada_mesh() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/meshes/wedge.ron");
    let scene = collidescope::input::open(&path).unwrap_or_else(|e| panic!("{e}"));
    let report = scene.bodies[0].mesh_report.as_ref().expect("a mesh report");
    assert_eq!(
        (
            report.input_vertices,
            report.input_faces,
            report.hull_vertices
        ),
        (6, 8, 6)
    );
    assert_eq!(report.convex, Some(true));
    assert!((report.aabb_min - DVec3::new(0.1, 0.0, 0.0)).length() < 1e-12);
    assert!((report.aabb_max - DVec3::new(0.14, 0.03, 0.02)).length() < 1e-12);
    let d = scene
        .run(Algorithm::Gjk(DirectionRule::Vanilla))
        .summary
        .outcome
        .distance()
        .unwrap();
    // GJK stops within its tolerance (1e-6, Coal's default).
    assert!((d - 0.05).abs() < 1e-6, "{d}");
    // The same points as a robot's collision mesh reads them.
    let dae = path.with_file_name("wedge.dae");
    assert_eq!(collidescope::mesh::points(&dae).unwrap().len(), 6);
    let other = std::env::temp_dir().join(format!("wedge-{}.xyz", std::process::id()));
    std::fs::write(&other, "v 0 0 0\n").unwrap();
    let err = collidescope::mesh::load_mesh(&other)
        .unwrap_err()
        .to_string();
    assert!(
        err.contains(&other.display().to_string()) && err.contains("only STL, OBJ, PLY"),
        "{err}"
    );
    std::fs::remove_file(&other).ok();
}
