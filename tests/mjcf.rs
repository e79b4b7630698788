//! MuJoCo models (MJCF) imported as MuJoCo compiles them, checked against MuJoCo itself
//! (`pip install mujoco`; skipped with a message without it): the same collision geoms
//! in MuJoCo's order, the same pairs its collision filter lets through, and on every
//! two geoms our certified distance beside `mj_geomDistance`. Bad models are refused
//! naming the file, the line and the element.

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

use std::time::{Duration, Instant};

use collidescope::import::mjcf;
use collidescope::pose::RelativePose;
use collidescope::rng::SplitMix64;
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
    // The explicit pair is among the pairs, whatever the filter says; the pairs come
    // by certified signed distance, the deepest overlap first.
    assert!(model
        .pairs
        .iter()
        .any(
            |&(i, j)| [ours[i].as_str(), ours[j].as_str()] == ["pillar", "tip"]
                || [ours[i].as_str(), ours[j].as_str()] == ["tip", "pillar"]
        ));
    assert!(model.distances.windows(2).all(|w| w[0] <= w[1]));
    let scene = collidescope::input::open(&path).unwrap();
    assert_eq!(scene.bodies.len(), ours.len());
    agrees_with_mujoco(&path, None);
}

/// At a keyframe the joints move the bodies as MuJoCo's kinematics does: a free joint,
/// a hinge about its anchor along its class's axis, a slide from its `ref`, a ball.
#[test]
fn an_mjcf_model_at_a_keyframe_is_where_mujoco_puts_it() {
    let path = fixture("features.xml");
    let rest = collidescope::input::open(&path).unwrap();
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
    let all = ours.len() * (ours.len() - 1) / 2;
    assert!(compared >= 30.min(all * 2 / 3), "{compared} of {all}");
}

/// A MuJoCo bug report's model opens as the failing pair: two boxes resting on each
/// other (the shape of mujoco #1800's test, the floor a plane), the pair in focus the
/// touching one.
#[test]
fn the_nearest_pair_is_in_focus() {
    let path = fixture("stacked_boxes.xml");
    let scene = collidescope::input::open(&path).unwrap();
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
    let dir = common::TempDir::new("mjcf-bad");
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
        // Issue 43 items 7 and 8: the place of every refusal.
        (
            "<mujoco><worldbody><geom size=\"1\"/>\n<body pos=\"1e308 0 0\"><freejoint/><geom size=\"1\"/></body></worldbody></mujoco>",
            "line 2: <body>: the unnamed body 1: its position (1e308, 0e0, 0e0) lies beyond ±1e75",
        ),
        (
            "<mujoco><worldbody><geom size=\"1\"/>\n<geom name=\"v\" type=\"blob\" contype=\"0\" conaffinity=\"0\"/></worldbody></mujoco>",
            "line 2: <geom>: type=\"blob\": not a MuJoCo geom type",
        ),
        (
            "<mujoco><worldbody><geom size=\"1\"/>\n<geom name=\"v\" size=\"1e308\" contype=\"0\" conaffinity=\"0\"/></worldbody></mujoco>",
            "line 2: <geom>: geom v: size 1e308 is beyond ±1e75",
        ),
        (
            "<mujoco><worldbody><geom name=\"a\" size=\"1\"/><body><freejoint/><geom size=\"1\"/></body></worldbody>\n<contact><pair geom1=\"a\" geom2=\"a\"/></contact></mujoco>",
            "line 2: <pair>: geom a paired with itself",
        ),
        (
            "<mujoco><worldbody><geom name=\"a\" size=\"1\"/><body><freejoint/><geom size=\"1\"/></body></worldbody>\n<contact><exclude body1=\"world\" body2=\"arm\"/></contact></mujoco>",
            "line 2: <exclude>: body2=\"arm\": no body of that name",
        ),
        (
            "<mujoco><worldbody><geom name=\"floor\" type=\"plane\" size=\"1 1 1\"/>\n<body><freejoint/><geom name=\"near\" size=\"1\"/></body>\n<body pos=\"1e75 0 0\"><freejoint/><geom name=\"far\" size=\"1\"/></body></worldbody></mujoco>",
            "geom far (",
        ),
        (
            "<mujoco><worldbody>\n<geom size=\"1\"",
            "line 2, column 15: not valid XML",
        ),
    ];
    for (k, (text, needle)) in cases.iter().enumerate() {
        let path = dir.join(format!("bad{k}.xml"));
        std::fs::write(&path, text).unwrap();
        let error = collidescope::input::open(&path)
            .expect_err("refused")
            .to_string();
        assert!(error.contains(needle), "{text}: {error}");
        // The file, named once.
        let file = format!("bad{k}.xml");
        assert_eq!(error.matches(&file).count(), 1, "{error}");
    }
}

/// A model written to a scratch file named `name`.
fn scratch_model(name: &str, text: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("collidescope-mjcf-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path
}

/// A chain of `depth` bodies, each 1 cm above its parent with one small sphere, with a
/// hinge on every body when `hinged`, and a free ball beside it when `ball`.
fn chain(depth: usize, hinged: bool, ball: bool) -> String {
    let mut s = String::from("<mujoco model=\"chain\"><worldbody>\n");
    if ball {
        s += "<body name=\"ball\" pos=\"0.3 0 1\"><freejoint/><geom name=\"ball\" size=\"0.1\"/></body>\n";
    }
    for i in 0..depth {
        let joint = if hinged {
            "<joint type=\"hinge\"/>"
        } else {
            ""
        };
        s += &format!(
            "<body name=\"b{i}\" pos=\"0 0 0.01\">{joint}<geom name=\"g{i}\" size=\"0.004\"/>\n"
        );
    }
    s += &"</body>".repeat(depth);
    s += "\n</worldbody></mujoco>\n";
    s
}

/// Imports within `bound`, and the answer.
fn timed_load(path: &Path, bound: Duration) -> Result<Scene, String> {
    let start = Instant::now();
    let scene = collidescope::input::open(path).map_err(|e| e.to_string());
    let took = start.elapsed();
    eprintln!("{}: {took:?}", path.display());
    assert!(took < bound, "{}: {took:?}", path.display());
    scene
}

/// Issue 43: a chain 5000 deep hung (3000 deep took 50 s: every pair walked the chain
/// up to its weld body). Now the weld bodies are known as the bodies are met, the walk
/// keeps its bodies on a heap stack (no call stack 5000 deep, in a test thread's 2 MB),
/// and the import takes time linear in the model.
#[test]
fn a_chain_5000_deep_imports_in_linear_time() {
    let bound = Duration::from_secs(5);
    // Without joints every geom is welded to the world: no pair, said at once.
    let welded = scratch_model("chain_welded.xml", &chain(5000, false, false));
    let err = timed_load(&welded, bound).unwrap_err();
    assert!(
        err.contains("no pair MuJoCo would test") && err.contains("chain_welded.xml"),
        "{err}"
    );
    // A free ball beside it: 5000 pairs, the nearest in focus.
    let with_ball = scratch_model("chain_ball.xml", &chain(5000, false, true));
    let scene = timed_load(&with_ball, bound).unwrap();
    assert_eq!(scene.pairs.len(), 5000);
    let (i, j) = scene.pairs[0];
    let names = [&scene.bodies[i].name, &scene.bodies[j].name].map(|n| n.clone().unwrap());
    // The ball's centre is 1 m up beside the chain: g99 (z = 1.00) is the nearest.
    assert!(
        names.contains(&"ball".to_string()) && names.contains(&"g99".to_string()),
        "{names:?}"
    );
    // A hinge on every body: 5000 weld bodies, every two but parent and child pass:
    // 12,492,501 pairs, refused with the count and the way to narrow them.
    let hinged = scratch_model("chain_hinged.xml", &chain(5000, true, false));
    let err = timed_load(&hinged, bound).unwrap_err();
    assert!(
        err.contains("12492501 geom pairs") && err.contains("exclude"),
        "{err}"
    );
    assert!(
        err.contains("contype") && err.contains("chain_hinged.xml"),
        "{err}"
    );
}

/// Issue 43: 20,000 free bodies wrote 2·10⁸ pairs into the scene and aborted allocating
/// 6 GB. The pairs are counted by groups first (linear in the geoms) and the model is
/// refused with the count; 300 free bodies (44,850 pairs, within the limit) import, in
/// certified order, within seconds.
#[test]
fn twenty_thousand_free_bodies_are_refused_with_the_count() {
    // Spheres, boxes, capsules and hulls in turn, 0.5 apart on a grid (some overlap).
    let free = |n: usize| {
        let mut s = String::from(
            "<mujoco model=\"free\"><asset><mesh name=\"rock\" vertex=\"0 0 0  0.5 0.1 0  \
             0.1 0.4 0.1  0.1 0.1 0.4  0.4 0.3 0.2\"/></asset><worldbody>\n",
        );
        let geoms = [
            "size=\"0.3\"",
            "type=\"box\" size=\"0.2 0.25 0.3\"",
            "type=\"capsule\" size=\"0.1 0.2\" euler=\"30 40 0\"",
            "type=\"mesh\" mesh=\"rock\"",
        ];
        for k in 0..n {
            s += &format!(
                "<body pos=\"{} {} 0\"><freejoint/><geom {}/></body>\n",
                0.5 * (k % 20) as f64,
                0.5 * (k / 20) as f64,
                geoms[k % 4]
            );
        }
        s + "</worldbody></mujoco>\n"
    };
    let many = scratch_model("free20000.xml", &free(20_000));
    let err = timed_load(&many, Duration::from_secs(5)).unwrap_err();
    assert!(
        err.contains("199990000 geom pairs") && err.contains("50000"),
        "{err}"
    );
    assert!(
        err.contains("exclude") && err.contains("free20000.xml"),
        "{err}"
    );
    let some = scratch_model("free300.xml", &free(300));
    let scene = timed_load(&some, Duration::from_secs(20)).unwrap();
    assert_eq!(scene.pairs.len(), 300 * 299 / 2);
    assert!(scene.notes.contains("overlapping by"), "{}", scene.notes);
}

/// A humanoid-like model (capsules, spheres, boxes, a mesh rock, a floor plane; free,
/// ball and hinge joints) with `keys` random keyframes, every joint drawn wide enough
/// that limbs cross each other and sink into the floor.
fn walker(keys: usize, seed: u64) -> String {
    let mut rng = SplitMix64::new(seed);
    let mut s = String::from(
        r#"<mujoco model="walker">
  <asset>
    <mesh name="rock" vertex="0 0 0  0.25 0.0625 0  0.0625 0.1875 0.0625  0.0625 0.0625 0.1875
                              0.1875 0.1875 0.125  0.25 0.25 -0.0625"/>
  </asset>
  <default>
    <geom contype="1" conaffinity="1"/>
    <default class="limb"><geom type="capsule" size="0.045"/></default>
  </default>
  <worldbody>
    <geom name="floor" type="plane" size="5 5 0.1"/>
    <geom name="rock" type="mesh" mesh="rock" pos="0.3 0.2 -0.05"/>
    <geom name="table" type="box" size="0.3 0.2 0.02" pos="0.6 -0.4 0.7"/>
    <body name="torso" pos="0 0 1.2">
      <freejoint/>
      <geom name="chest" type="capsule" fromto="0 -0.08 0.1 0 0.08 0.1" size="0.08"/>
      <geom name="belly" type="capsule" fromto="0 -0.07 -0.12 0 0.07 -0.12" size="0.07"/>
      <geom name="head" type="sphere" pos="0 0 0.32" size="0.1"/>
"#,
    );
    for (side, y) in [("right", -1.0), ("left", 1.0)] {
        s += &format!(
            r#"      <body name="{side}_upper_arm" pos="0 {} 0.18">
        <joint name="{side}_shoulder" type="ball"/>
        <geom name="{side}_upper_arm" class="limb" fromto="0 0 0 0.16 {} -0.16"/>
        <body name="{side}_lower_arm" pos="0.16 {} -0.16">
          <joint name="{side}_elbow" axis="0 1 0"/>
          <geom name="{side}_lower_arm" class="limb" fromto="0.01 0 0.01 0.17 0 0.17" size="0.031"/>
          <geom name="{side}_hand" type="sphere" pos="0.18 0 0.18" size="0.04"/>
        </body>
      </body>
      <body name="{side}_thigh" pos="0 {} -0.3">
        <joint name="{side}_hip" axis="0 1 0"/>
        <joint name="{side}_hip_out" axis="1 0 0"/>
        <geom name="{side}_thigh" class="limb" fromto="0 0 0 0 0 -0.34" size="0.06"/>
        <body name="{side}_shin" pos="0 0 -0.4">
          <joint name="{side}_knee" axis="0 1 0"/>
          <geom name="{side}_shin" class="limb" fromto="0 0 0 0 0 -0.3" size="0.049"/>
          <geom name="{side}_foot" type="box" pos="0.05 0 -0.39" size="0.1 0.045 0.027"/>
        </body>
      </body>
"#,
            0.17 * y,
            0.16 * y,
            0.16 * y,
            0.1 * y
        );
    }
    s += "    </body>\n  </worldbody>\n  <keyframe>\n";
    for k in 0..keys {
        let tilt = rng.range(-0.4, 0.4);
        let mut q = vec![
            rng.range(-0.2, 0.2),
            rng.range(-0.2, 0.2),
            rng.range(0.7, 1.3),
            (tilt / 2.0).cos(),
            (tilt / 2.0).sin(),
            0.0,
            0.0,
        ];
        for _ in 0..2 {
            let axis = rng.unit_vector();
            let angle = rng.range(-1.5, 1.5);
            q.extend([
                (angle / 2.0).cos(),
                axis.x * (angle / 2.0).sin(),
                axis.y * (angle / 2.0).sin(),
                axis.z * (angle / 2.0).sin(),
            ]);
            q.push(rng.range(-2.0, 2.0));
        }
        // MuJoCo's qpos order is the bodies' order: right arm, right leg, left arm, left
        // leg; each side's ball and elbow were drawn above, its leg's three hinges here.
        let (right_arm, left_arm) = (q[7..12].to_vec(), q[12..17].to_vec());
        q.truncate(7);
        for arm in [right_arm, left_arm] {
            q.extend(arm);
            q.extend([
                rng.range(-1.6, 1.0),
                rng.range(-0.6, 0.6),
                rng.range(0.0, 2.4),
            ]);
        }
        let numbers: Vec<String> = q.iter().map(|v| format!("{v}")).collect();
        s += &format!("    <key name=\"k{k}\" qpos=\"{}\"/>\n", numbers.join(" "));
    }
    s + "  </keyframe>\n</mujoco>\n"
}

/// Issue 51: a model opens on its nearest pair or its deepest overlap, found by each
/// pair's certified signed distance, and that pair is MuJoCo's nearest by
/// `mj_geomDistance` (within ties) at every configuration: a walker at 24 random
/// keyframes and its file configuration, the feature fixture, the stacked boxes.
#[test]
fn the_focus_is_mujocos_nearest_pair() {
    let path = scratch_model("walker.xml", &walker(24, 51));
    let mut cases: Vec<(PathBuf, Option<String>)> = vec![(path.clone(), None)];
    cases.extend((0..24).map(|k| (path.clone(), Some(format!("k{k}")))));
    cases.push((fixture("features.xml"), None));
    cases.push((fixture("features.xml"), Some("bent".into())));
    cases.push((fixture("stacked_boxes.xml"), None));
    let (mut agreed, mut overlapping) = (0, 0);
    for (path, key) in &cases {
        let key = key.as_deref();
        let file = collidescope::import::import_file_at(path, key).unwrap();
        let scene = Scene::from_scene_file(file, path).unwrap();
        let text = std::fs::read_to_string(path).unwrap();
        let model = mjcf::read_at(path, &text, key).unwrap();
        assert_eq!(scene.pairs, model.pairs);
        assert!(model.distances.windows(2).all(|w| w[0] <= w[1]));
        let Some(oracle) = mujoco_oracle(path, key) else {
            return;
        };
        let name = |k: usize| model.geoms[k].name.clone();
        let theirs = |a: &str, b: &str| {
            let d = &oracle["distance"];
            d[format!("{a}|{b}")]
                .as_f64()
                .or_else(|| d[format!("{b}|{a}")].as_f64())
                .unwrap()
        };
        let (i, j) = model.pairs[0];
        let focus = theirs(&name(i), &name(j));
        let nearest = oracle["nearest"].as_array().unwrap();
        let best = theirs(nearest[0].as_str().unwrap(), nearest[1].as_str().unwrap());
        assert!(
            focus - best <= 1e-6 + 1e-4 * best.abs(),
            "{} {key:?}: our focus {}|{} is {focus} by MuJoCo, its nearest {nearest:?} {best}",
            path.display(),
            name(i),
            name(j)
        );
        // Our certified distance of the focus beside MuJoCo's.
        assert!(
            (model.distances[0] - focus).abs() <= 1e-5 * (1.0 + focus.abs()),
            "{key:?}: ours {}, MuJoCo {focus}",
            model.distances[0]
        );
        agreed += 1;
        overlapping += usize::from(best < 0.0);
    }
    eprintln!("the focus is MuJoCo's nearest pair in {agreed} of {} configurations ({overlapping} overlapping)", cases.len());
    assert!(overlapping >= 5, "{overlapping}");
}

/// Issue 43 item 5: a primitive naming a mesh (a capsule, a box, ...) is sized from the
/// mesh as MuJoCo's compiler sizes it, by the mesh's equivalent inertia box or (with
/// `fitaabb`) its bounding box, and placed at the mesh's centre of mass in its
/// principal axes: MuJoCo's compiled sizes, and its distances on every two geoms.
#[test]
fn primitives_fitted_to_a_mesh_are_sized_as_mujoco_sizes_them() {
    for name in ["fitted.xml", "fitted_aabb.xml"] {
        let path = fixture(name);
        let text = std::fs::read_to_string(&path).unwrap();
        let model = mjcf::read(&path, &text).unwrap();
        let Some(oracle) = mujoco_oracle(&path, None) else {
            return;
        };
        for (geom, body) in model.geoms.iter().zip(&model.bodies) {
            use collidescope::scene::ShapeSpec as S;
            let ours: Vec<f64> = match &body.shape {
                S::Sphere { radius } => vec![*radius],
                S::Capsule {
                    radius,
                    half_height,
                }
                | S::Cylinder {
                    radius,
                    half_height,
                } => {
                    vec![*radius, *half_height]
                }
                S::Ellipsoid { radii } => radii.to_vec(),
                S::Box { half_extents } if geom.kind == "box" => half_extents.to_vec(),
                _ => continue,
            };
            let theirs = &oracle["size"][&geom.name];
            for (k, v) in ours.iter().enumerate() {
                let t = theirs[k].as_f64().unwrap();
                assert!(
                    (v - t).abs() <= 1e-9 * (1.0 + t),
                    "{name} {}: size {k}: ours {v}, MuJoCo {t}",
                    geom.name
                );
            }
        }
        agrees_with_mujoco(&path, None);
    }
}

/// MuJoCo's "explicit pairs only" pattern: geoms with contype="0" conaffinity="0" that a
/// `<pair>` names collide through it (they were refused as visual). The geoms and pairs
/// are MuJoCo's (the oracle), the explicit pair is in focus when it overlaps, and a
/// geom no pair names stays visual.
#[test]
fn geoms_filtered_out_collide_through_an_explicit_pair() {
    let path = scratch_model(
        "explicit_only.xml",
        r#"<mujoco><worldbody>
 <body pos="0 0 0"><freejoint/><geom name="a" type="sphere" size="0.1" contype="0" conaffinity="0"/></body>
 <body pos="0.15 0 0"><freejoint/><geom name="b" type="box" size="0.1 0.05 0.08" contype="0" conaffinity="0"/></body>
 <body pos="0 0.5 0"><freejoint/><geom name="c" type="sphere" size="0.1"/></body>
 <body pos="0.5 0.5 0"><freejoint/><geom name="d" type="capsule" size="0.05 0.1"/></body>
 <body pos="0.9 0.5 0"><freejoint/><geom name="e" type="sphere" size="0.1" contype="0" conaffinity="0"/></body>
</worldbody><contact><pair geom1="a" geom2="b"/></contact></mujoco>"#,
    );
    let scene = collidescope::input::open(&path).unwrap();
    let names: Vec<String> = scene
        .bodies
        .iter()
        .map(|b| b.name.clone().unwrap_or_default())
        .collect();
    assert_eq!(names, ["a", "b", "c", "d"], "e is visual: no pair names it");
    assert_eq!(scene.pairs.len(), 2, "a-b (explicit) and c-d (the filter)");
    let (i, j) = scene.pairs[0];
    assert_eq!((names[i].as_str(), names[j].as_str()), ("a", "b"));
    agrees_with_mujoco(&path, None);
}
