//! MuJoCo models (MJCF) imported as MuJoCo compiles them, checked against MuJoCo itself
//! (`pip install mujoco`; skipped with a message without it): the same collision geoms
//! in MuJoCo's order, the same pairs its collision filter lets through, and on every
//! two geoms our certified distance beside `mj_geomDistance`. Bad models are refused
//! naming the file, the line and the element.

use std::path::{Path, PathBuf};
use std::process::Command;

use collidescope::import::mjcf;
use collidescope::pose::RelativePose;
use collidescope::scene::Scene;
use collidescope::solver::{Method, SolverSettings};

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/imports/mjcf")
        .join(name)
}

/// MuJoCo's view of the model (tests/mjcf_oracle.py), at keyframe `key` when given, or
/// `None` (said) without MuJoCo.
fn mujoco_oracle(model: &Path, key: Option<&str>) -> Option<serde_json::Value> {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/mjcf_oracle.py");
    let has_mujoco = Command::new("python3")
        .args(["-c", "import mujoco"])
        .output()
        .is_ok_and(|o| o.status.success());
    if !has_mujoco {
        eprintln!("skipped: python3 cannot import mujoco (pip install mujoco)");
        return None;
    }
    let out = Command::new("python3")
        .arg(script)
        .arg(model)
        .args(key)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    Some(serde_json::from_slice(&out.stdout).unwrap())
}

fn names(value: &serde_json::Value) -> Vec<String> {
    value
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap().to_string())
        .collect()
}

/// Our distance of bodies `i` and `j` of the imported scene: GJK's, certified.
fn our_distance(scene: &Scene, i: usize, j: usize) -> (f64, bool) {
    let (a, b) = (&scene.bodies[i], &scene.bodies[j]);
    let gjk: Method = "gjk".parse().unwrap();
    let run = gjk.run(
        &a.shape,
        &b.shape,
        RelativePose::between(&a.pose, &b.pose),
        None,
        SolverSettings {
            tolerance: 1e-9,
            ..SolverSettings::default()
        },
        false,
    );
    let outcome = &run.summary.outcome;
    let overlapping = matches!(outcome, collidescope::solver::Outcome::Intersecting);
    (
        outcome.distance().unwrap_or(0.0),
        overlapping && !outcome.proves_apart(),
    )
}

#[test]
fn an_mjcf_model_imports_as_mujoco_compiles_it() {
    let path = fixture("features.xml");
    let text = std::fs::read_to_string(&path).unwrap();
    let model = mjcf::read(&path, &text).unwrap();
    // What MuJoCo leaves out of collisions, we leave out too (the visual class:
    // contype = conaffinity = 0); the plane is a slab, and the notes say so.
    let ours: Vec<String> = model.geoms.iter().map(|g| g.name.clone()).collect();
    assert!(!ours.contains(&"chest_visual".to_string()));
    assert!(ours.contains(&"floor".to_string()));
    assert!(model.stand_ins.iter().any(|l| l.contains("plane")));
    // The explicit pair comes first, whatever the filter says.
    let first = model.pairs[0];
    assert_eq!(
        (ours[first.0].as_str(), ours[first.1].as_str()),
        ("pillar", "tip")
    );
    let scene = Scene::load(&path).unwrap();
    assert_eq!(scene.bodies.len(), ours.len());
    agrees_with_mujoco(&path, None);
}

/// At a keyframe the joints move the bodies as MuJoCo's kinematics does: a free joint,
/// a hinge about its anchor along its class's axis, a slide from its `ref`, a ball.
#[test]
fn an_mjcf_model_at_a_keyframe_is_where_mujoco_puts_it() {
    let path = fixture("features.xml");
    let rest = Scene::load(&path).unwrap();
    let file = collidescope::import::import_file_at(&path, Some("bent")).unwrap();
    let bent = Scene::from_scene_file(file, &path).unwrap();
    assert!(bent.notes.contains("keyframe \"bent\""), "{}", bent.notes);
    // Every jointed body moved.
    for name in ["chest", "upper", "tip", "ball", "post"] {
        let k = rest
            .bodies
            .iter()
            .position(|b| b.name.as_deref() == Some(name))
            .unwrap();
        let (a, b) = (&rest.bodies[k].pose, &bent.bodies[k].pose);
        let moved = (a.translation - b.translation).length() > 1e-3
            || a.rotation.angle_between(b.rotation) > 1e-3;
        assert!(moved, "{name}");
    }
    agrees_with_mujoco(&path, Some("bent"));
    let err = collidescope::import::import_file_at(&path, Some("nope"))
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("no keyframe \"nope\"") && err.contains("bent"),
        "{err}"
    );
}

/// The model at `key` against MuJoCo itself: the same collision geoms in MuJoCo's
/// order, the same pairs its filter lets through, and on every two geoms our certified
/// distance beside `mj_geomDistance`.
fn agrees_with_mujoco(path: &Path, key: Option<&str>) {
    let Some(oracle) = mujoco_oracle(path, key) else {
        return;
    };
    let text = std::fs::read_to_string(path).unwrap();
    let model = mjcf::read_at(path, &text, key).unwrap();
    let ours: Vec<String> = model.geoms.iter().map(|g| g.name.clone()).collect();
    let file = collidescope::import::import_file_at(path, key).unwrap();
    let scene = Scene::from_scene_file(file, path).unwrap();
    assert_eq!(
        ours,
        names(&oracle["geoms"]),
        "the collision geoms, in MuJoCo's order"
    );
    let mut expected: Vec<(String, String)> = oracle["pairs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| (p[0].as_str().unwrap().into(), p[1].as_str().unwrap().into()))
        .collect();
    let mut found: Vec<(String, String)> = model
        .pairs
        .iter()
        .map(|&(i, j)| {
            let (a, b) = (ours[i].clone(), ours[j].clone());
            if i < j {
                (a, b)
            } else {
                (b, a)
            }
        })
        .collect();
    expected.sort();
    found.sort();
    assert_eq!(found, expected, "the pairs MuJoCo's collision filter tests");
    // Every two geoms (filtered or not): the same shapes at the same poses.
    let mut compared = 0;
    for i in 0..ours.len() {
        for j in i + 1..ours.len() {
            let pair = format!("{}|{}", ours[i], ours[j]);
            let theirs = oracle["distance"][&pair].as_f64().unwrap();
            let (distance, colliding) = our_distance(&scene, i, j);
            if theirs > 1e-6 {
                assert!(!colliding, "{pair}: MuJoCo {theirs}, ours overlapping");
                assert!(
                    (distance - theirs).abs() <= 1e-6 * (1.0 + theirs),
                    "{pair}: ours {distance}, MuJoCo {theirs}"
                );
                compared += 1;
            } else if theirs < -1e-6 {
                assert!(
                    colliding,
                    "{pair}: MuJoCo {theirs} (overlap), ours {distance}"
                );
                compared += 1;
            }
        }
    }
    assert!(compared >= 30, "{compared}");
}

/// A MuJoCo bug report's model opens as the failing pair: two boxes resting on each
/// other (the shape of mujoco #1800's test, the floor a plane), the pair in focus the
/// touching one.
#[test]
fn the_nearest_pair_is_in_focus() {
    let path = fixture("stacked_boxes.xml");
    let scene = Scene::load(&path).unwrap();
    assert_eq!(scene.bodies.len(), 4);
    let (i, j) = scene.pairs[0];
    let (distance, _) = our_distance(&scene, i, j);
    assert!(distance < 1e-3, "{distance}");
    if let Some(oracle) = mujoco_oracle(&path, None) {
        assert_eq!(oracle["pairs"].as_array().unwrap().len(), scene.pairs.len());
    }
}

/// Bad models are refused naming the file, the line and the element.
#[test]
fn bad_models_say_where() {
    let dir = std::env::temp_dir().join(format!("collidescope-mjcf-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let cases = [
        (
            "<mujoco><worldbody><geom type=\"box\" size=\"1 1\"/><geom size=\"1\"/></worldbody></mujoco>",
            "size needs 3 numbers",
        ),
        (
            "<mujoco><worldbody>\n<geom size=\"1\" quat=\"1 0 0 0\" euler=\"0 0 0\"/></worldbody></mujoco>",
            "line 2: <geom>: more than one orientation",
        ),
        (
            "<mujoco><worldbody><geom size=\"nan\"/><geom size=\"1\"/></worldbody></mujoco>",
            "`nan` is not a finite number",
        ),
        (
            "<mujoco><worldbody><geom type=\"mesh\" mesh=\"missing\"/><geom size=\"1\"/></worldbody></mujoco>",
            "no such mesh asset",
        ),
        (
            "<mujoco><asset><mesh file=\"nowhere.stl\"/></asset></mujoco>",
            "nowhere.stl",
        ),
        (
            "<mujoco><worldbody><geom class=\"nope\" size=\"1\"/></worldbody></mujoco>",
            "no such default class",
        ),
        (
            "<mujoco><include file=\"absent.xml\"/></mujoco>",
            "cannot read",
        ),
        (
            "<mujoco><worldbody><geom size=\"1\"/></worldbody></mujoco>",
            "no pair MuJoCo would test",
        ),
        (
            "<mujoco><asset><mesh name=\"m\" vertex=\"0 0 0 1 0 0\"/></asset></mujoco>",
            "at least four points",
        ),
        ("<mujoco><worldbody><geom size=\"1\"", "not valid XML"),
        (
            "<mujoco><worldbody><replicate count=\"3\" offset=\"1 0 0\"><geom size=\"1\"/></replicate></worldbody></mujoco>",
            "<replicate> is not expanded here",
        ),
    ];
    for (k, (text, needle)) in cases.iter().enumerate() {
        let path = dir.join(format!("bad{k}.xml"));
        std::fs::write(&path, text).unwrap();
        let error = Scene::load(&path).expect_err("refused").to_string();
        assert!(error.contains(needle), "{text}: {error}");
        assert!(error.contains(&format!("bad{k}.xml")), "{error}");
    }
}
