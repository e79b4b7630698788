//! Reproductions of pairs with a mesh, height field or compound (issue 45): the Coal
//! script builds them as Coal does (`BVHModelOBBRSS` by beginModel/addSubModel/endModel,
//! `HeightFieldOBBRSS` in Coal's x–y layout, a compound's parts), the parry test as parry
//! does (`TriMesh::with_flags`, `HeightField` with its cell statuses, `Compound::new`);
//! each runs and agrees with the certified answer (Coal's and parry's own queries are the
//! independent oracles), and fails once the bracket is moved off their answer.

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

use collidescope::export::{certify, coal_script, parry_test};
use collidescope::scene::Scene;

fn capture(name: &str) -> Scene {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/imports")
        .join(name);
    collidescope::input::open(&path).unwrap_or_else(|e| panic!("{e}"))
}

fn ron(name: &str, bodies: &str) -> Scene {
    let text = format!(
        "Scene(version: 2, name: \"{name}\", bodies: [{bodies}], algorithms: [\"gjk\", \"epa\"])"
    );
    Scene::parse(Path::new("composite.ron"), &text).unwrap_or_else(|e| panic!("{e}\n{text}"))
}

/// A plain height field (every cell as Coal makes its cells) and the same with zigzag
/// and removed cells, against a ball apart, a ball sunk in, a box apart.
fn scenes() -> Vec<(String, Scene)> {
    let rows = "[[0.0, 0.2, 0.1, 0.4], [0.1, 0.5, 0.3, 0.2], [0.0, 0.1, 0.6, 0.3]]";
    let field = format!("HeightField(heights: {rows}, scale: (3.0, 1.0, 2.0))");
    let zigzag =
        format!("HeightField(heights: {rows}, scale: (3.0, 1.0, 2.0), cells: [1, 0, 2, 1, 4, 0])");
    let tetra = "TriMesh(vertices: [(0.0, 0.0, 0.0), (1.0, 0.0, 0.0), (0.0, 1.0, 0.0), (0.0, 0.0, 1.0), (1.0, 1.0, 0.2)], triangles: [(0, 1, 3), (0, 3, 2), (1, 2, 3), (1, 4, 2)], flags: 144)";
    let compound = "Compound(parts: [Member(shape: Box(half_extents: (0.3, 0.2, 0.1))), Member(shape: Sphere(radius: 0.2), translation: (0.6, 0.1, 0.0)), Member(shape: Capsule(radius: 0.1, half_height: 0.3), translation: (-0.5, 0.2, 0.1), rotation: EulerDegrees((30.0, 0.0, 20.0)))])";
    let mut all = vec![
        ("bowl".to_string(), capture("parry_bowl_trimesh_f64.json")),
        (
            "compound capture".into(),
            capture("parry_compound_f64.json"),
        ),
        (
            "ground, f32".into(),
            capture("parry_trimesh_fix_internal_edges_f32.json"),
        ),
        (
            "field with statuses, f32".into(),
            capture("parry_heightfield_f32.json"),
        ),
    ];
    for (name, bodies) in [
        (
            "plain field, ball apart",
            format!("Body(shape: {field}, translation: (0.1, -0.2, 0.3), rotation: EulerDegrees((10.0, 20.0, 5.0))), Body(shape: Sphere(radius: 0.2), translation: (0.4, 0.9, 0.2))"),
        ),
        (
            "plain field, ball sunk in",
            format!("Body(shape: {field}), Body(shape: Sphere(radius: 0.3), translation: (0.2, 0.35, -0.1))"),
        ),
        (
            "zigzag field, box apart",
            format!("Body(shape: {zigzag}), Body(shape: Box(half_extents: (0.2, 0.1, 0.3)), translation: (-0.3, 0.9, 0.2), rotation: EulerDegrees((0.0, 30.0, 10.0)))"),
        ),
        (
            "mesh, ball sunk in",
            format!("Body(shape: {tetra}, translation: (0.3, 0.1, 0.0)), Body(shape: Sphere(radius: 0.25), translation: (0.6, 0.5, 0.25))"),
        ),
        (
            "ball, compound apart (the composite second)",
            format!("Body(shape: Sphere(radius: 0.25), translation: (0.2, 1.0, 0.1)), Body(shape: {compound}, translation: (0.0, 0.1, 0.0), rotation: EulerDegrees((0.0, 0.0, 15.0)))"),
        ),
    ] {
        all.push((name.to_string(), ron(name, &bodies)));
    }
    all
}

fn coal_available() -> bool {
    let ok = Command::new("python3")
        .args(["-c", "import coal, numpy"])
        .output()
        .is_ok_and(|o| o.status.success());
    if !ok {
        eprintln!("skipped: python3 cannot import coal (pip install coal)");
    }
    ok
}

fn run_python(dir: &Path, script: &str, tag: &str) -> (bool, String) {
    let path = dir.join(format!("{tag}.py"));
    std::fs::write(&path, script).unwrap();
    let out = Command::new("python3").arg(&path).output().unwrap();
    let text =
        String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
    (out.status.success(), text)
}

#[test]
fn composite_coal_scripts_build_coals_models_and_agree() {
    if !coal_available() {
        return;
    }
    let dir = common::TempDir::new("export-composite-coal");
    for (k, (name, scene)) in scenes().into_iter().enumerate() {
        let script =
            coal_script(&scene, &format!("{name}.ron")).unwrap_or_else(|e| panic!("{name}: {e}"));
        let field = scene.bodies.iter().any(|b| {
            matches!(&b.spec, collidescope::scene::ShapeSpec::HeightField { cells, .. } if cells.is_empty())
        });
        assert_eq!(script.contains("coal.HeightFieldOBBRSS("), field, "{name}");
        if scene
            .bodies
            .iter()
            .any(|b| matches!(b.spec, collidescope::scene::ShapeSpec::TriMesh { .. }))
        {
            assert!(script.contains("bvh(["), "{name}");
        }
        let (ok, out) = run_python(&dir, &script, &format!("coal_{k}"));
        eprintln!("{name}: {out}");
        assert!(ok && out.contains("Coal agrees"), "{name}: {out}");
        // Moved off Coal's answer, the script fails saying so.
        let c = certify(&scene).unwrap();
        let shift = 0.05 + 2.0 * c.upper.abs();
        let shifted = script.replace(
            &format!("lower, upper = {:?}, {:?}", c.lower, c.upper),
            &format!(
                "lower, upper = {:?}, {:?}",
                c.lower + shift,
                c.upper + shift
            ),
        );
        assert_ne!(shifted, script, "{name}");
        let (ok, out) = run_python(&dir, &shifted, &format!("coal_off_{k}"));
        assert!(
            !ok && out.contains("off the certified bracket"),
            "{name}: {out}"
        );
    }
}

/// The exported parry tests as a crate of their own, built against parry3d-f64 from the
/// registry (offline): every one passes, and one with its bracket moved fails.
#[test]
fn composite_parry_tests_build_parrys_shapes_and_agree() {
    let base = PathBuf::from(env!("CARGO_TARGET_TMPDIR"));
    let root = base.join("exported-parry-composites");
    let _ = std::fs::remove_dir_all(root.join("tests"));
    std::fs::create_dir_all(root.join("tests")).unwrap();
    std::fs::create_dir_all(root.join("src")).unwrap();
    std::fs::write(
        root.join("Cargo.toml"),
        "[package]\nname = \"collidescope-composite-reproductions\"\nversion = \"0.0.0\"\nedition = \"2021\"\npublish = false\n\n[workspace]\n\n[dev-dependencies]\nparry3d-f64 = \"0.31\"\n",
    )
    .unwrap();
    std::fs::write(root.join("src/lib.rs"), "").unwrap();
    let mut names = Vec::new();
    for (k, (name, scene)) in scenes().into_iter().enumerate() {
        let text =
            parry_test(&scene, &format!("{name}.ron")).unwrap_or_else(|e| panic!("{name}: {e}"));
        std::fs::write(root.join("tests").join(format!("case_{k}.rs")), &text).unwrap();
        names.push(name);
        if k == 0 {
            let c = certify(&scene).unwrap();
            let moved = text.replace(
                &format!("let (lower, upper) = ({:?}, {:?});", c.lower, c.upper),
                &format!(
                    "let (lower, upper) = ({:?}, {:?});",
                    c.lower + 0.05,
                    c.upper + 0.05
                ),
            );
            assert_ne!(moved, text);
            std::fs::write(root.join("tests/moved.rs"), moved).unwrap();
        }
    }
    let out = Command::new(env!("CARGO"))
        .args(["test", "--offline", "--no-fail-fast", "--quiet"])
        .current_dir(&root)
        .env(
            "CARGO_TARGET_DIR",
            base.join("exported-parry").join("target"),
        )
        .output()
        .unwrap();
    let text =
        String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
    assert!(
        !out.status.success(),
        "the moved bracket must fail:\n{text}"
    );
    assert!(text.contains("--test moved"), "{text}");
    for (k, name) in names.iter().enumerate() {
        assert!(
            !text.contains(&format!("--test case_{k}`")),
            "{name} (case_{k}) failed:\n{text}"
        );
    }
    assert!(!text.contains("error[E"), "{text}");
}
