//! Reproductions sent back out: the exported Coal script passes where Coal
//! is right and fails where its answer leaves the certified bracket; the exported parry
//! test of `scenes/parry_cuboid_disagreement.ron` builds and fails (parry 0.31's cuboid
//! distance is wrong there) while the one of a pair parry gets right passes.

use std::path::{Path, PathBuf};
use std::process::Command;

use collidescope::export::{certify, coal_script, parry_test};
use collidescope::scene::Scene;

fn scene(name: &str) -> Scene {
    Scene::load(
        &Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("scenes")
            .join(name),
    )
    .unwrap()
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

fn run_python(script: &str, tag: &str) -> (bool, String) {
    let path = std::env::temp_dir().join(format!("collidescope-{tag}-{}.py", std::process::id()));
    std::fs::write(&path, script).unwrap();
    let out = Command::new("python3").arg(&path).output().unwrap();
    let text =
        String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
    (out.status.success(), text)
}

#[test]
fn exported_coal_scripts_pass_where_coal_is_right_and_fail_off_the_bracket() {
    if !coal_available() {
        return;
    }
    // Separated boxes, an overlap (EPA), ellipsoids, capsule against sphere.
    for name in [
        "boxes_face_to_face.ron",
        "epa_sphere_in_box.ron",
        "ellipsoids_close.ron",
        "overlap_sphere_capsule.ron",
        "parry_cuboid_disagreement.ron",
    ] {
        let s = scene(name);
        let script = coal_script(&s, name).unwrap();
        let (ok, out) = run_python(&script, "coal");
        assert!(ok, "{name}: {out}");
        assert!(out.contains("Coal agrees"), "{name}: {out}");
        // The same script with a bracket Coal's answer is not in: exit 1, the gap said.
        let c = certify(&s).unwrap();
        let shifted = script.replace(
            &format!("lower, upper = {:?}, {:?}", c.lower, c.upper),
            &format!("lower, upper = {:?}, {:?}", c.lower + 0.01, c.upper + 0.01),
        );
        assert_ne!(shifted, script, "{name}: the bracket line");
        let (ok, out) = run_python(&shifted, "coal-off");
        assert!(
            !ok && out.contains("off the certified bracket"),
            "{name}: {out}"
        );
    }
}

/// Coal's own stopping guarantee is the script's margin: an answer 1.25e-6 off the
/// certified distance of 0.324 is within Coal's GJK tolerance · (1 + ‖x‖), not a bug to
/// report (a margin of the tolerance · max(1, |d|) said it was).
#[test]
fn exported_coal_scripts_allow_coals_own_guarantee() {
    if !coal_available() {
        return;
    }
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/export/coal_within_its_guarantee.ron");
    let s = Scene::load(&path).unwrap();
    let script = coal_script(&s, "coal_within_its_guarantee.ron").unwrap();
    let (ok, out) = run_python(&script, "coal-guarantee");
    assert!(ok && out.contains("Coal agrees"), "{out}");
}

/// The exported parry tests as a crate of their own (what a parry user or maintainer
/// does with them): built against parry3d-f64 from the registry, offline.
#[test]
fn exported_parry_tests_build_and_fail_exactly_where_parry_is_wrong() {
    let root = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("exported-parry");
    std::fs::create_dir_all(root.join("tests")).unwrap();
    std::fs::create_dir_all(root.join("src")).unwrap();
    std::fs::write(
        root.join("Cargo.toml"),
        "[package]\nname = \"collidescope-reproductions\"\nversion = \"0.0.0\"\nedition = \"2021\"\npublish = false\n\n[workspace]\n\n[dev-dependencies]\nparry3d-f64 = \"0.31\"\n",
    )
    .unwrap();
    std::fs::write(root.join("src/lib.rs"), "").unwrap();
    let cases = [
        ("parry_cuboid_disagreement.ron", "cuboid", false),
        ("boxes_face_to_face.ron", "boxes", true),
        ("epa_sphere_in_box.ron", "sphere_in_box", true),
        ("overlap_sphere_capsule.ron", "sphere_capsule", true),
    ];
    for (name, test, _) in cases {
        let s = scene(name);
        let text = parry_test(&s, name).unwrap();
        // The poses are the scene's, to the bit.
        let t = s.b().pose.translation;
        assert!(text.contains(&format!("{:?}", t.x)), "{name}");
        std::fs::write(root.join("tests").join(format!("{test}.rs")), text).unwrap();
    }
    let out = Command::new(env!("CARGO"))
        .args(["test", "--offline", "--no-fail-fast", "--quiet"])
        .current_dir(&root)
        .env("CARGO_TARGET_DIR", root.join("target"))
        .output()
        .unwrap();
    let text =
        String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
    assert!(
        !out.status.success(),
        "the cuboid reproduction must fail:\n{text}"
    );
    assert!(
        text.contains("parry3d-f64 answers 0.0166"),
        "parry's wrong answer is reported:\n{text}"
    );
    // Exactly one test binary failed: the cuboid one.
    assert!(text.contains("--test cuboid"), "{text}");
    for (_, test, passes) in cases {
        if passes {
            assert!(
                !text.contains(&format!("--test {test}`")),
                "{test} failed:\n{text}"
            );
        }
    }
}
