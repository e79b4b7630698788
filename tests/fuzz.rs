//! Seeded mutation fuzzing of the input formats: scenes (lessons are scenes),
//! OBJ, problem files, URDF with its STL and COLLADA meshes, SRDF, MuJoCo models. Each sample is mutated (truncated, a byte
//! flipped, a number replaced by NaN, ±inf, ±1e308, 0 or −1, a range dropped or
//! repeated, a multi-byte character inserted) and loaded as a user's file would be, and
//! what loads is run. Asserted: no panic, no run past a time bound, no NaN where a
//! number is promised, and every refusal names the file.

mod common;

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

use collidescope::bench::problems::{run_problems, ProblemFile};
use collidescope::mesh::import_obj_bytes;
use collidescope::robot::RobotModel;
use collidescope::scene::Scene;
use collidescope::solver::{Method, TetrahedronRule};
use common::Rng;

/// Mutations per sample.
const MUTATIONS: usize = 1000;
/// No single load and run may take longer.
const TIME_BOUND: Duration = Duration::from_secs(10);

const TOKENS: [&str; 10] = [
    "NaN", "inf", "-inf", "1e308", "-1e308", "0", "-1", "", "é", "\u{0}",
];

fn mutate(rng: &mut Rng, bytes: &[u8]) -> Vec<u8> {
    let mut out = bytes.to_vec();
    if out.is_empty() {
        return out;
    }
    let at = rng.index(out.len());
    match rng.index(6) {
        0 => out.truncate(at),
        1 => out[at] ^= 1 << rng.index(8),
        2 => {
            // A number (the run of digits around `at`) replaced by a token.
            let is_num = |b: u8| b.is_ascii_digit() || b == b'.' || b == b'e' || b == b'-';
            let (mut lo, mut hi) = (at, at);
            while lo > 0 && is_num(out[lo - 1]) {
                lo -= 1;
            }
            while hi < out.len() && is_num(out[hi]) {
                hi += 1;
            }
            let token = TOKENS[rng.index(TOKENS.len())].as_bytes().to_vec();
            out.splice(lo..hi, token);
        }
        3 => {
            let end = (at + 1 + rng.index(40)).min(out.len());
            out.drain(at..end);
        }
        4 => {
            let end = (at + 1 + rng.index(40)).min(out.len());
            let copy = out[at..end].to_vec();
            out.splice(at..at, copy);
        }
        _ => {
            let token = TOKENS[rng.index(TOKENS.len())].as_bytes().to_vec();
            out.splice(at..at, token);
        }
    }
    out
}

/// Runs `f` on every mutation of `sample` written to `path`; checks the rules above.
fn campaign(
    seed: u64,
    dir: &Path,
    name: &str,
    sample: &[u8],
    write_also: &[(&str, &[u8])],
    f: &dyn Fn(&Path) -> Result<(), String>,
) -> usize {
    let mut rng = Rng::new(seed);
    let mut refusals = 0;
    for k in 0..MUTATIONS {
        let case = dir.join(format!("{k}"));
        std::fs::create_dir_all(&case).unwrap();
        let path = case.join(name);
        let bytes = mutate(&mut rng, sample);
        std::fs::write(&path, &bytes).unwrap();
        for (other, content) in write_also {
            std::fs::write(case.join(other), content).unwrap();
        }
        let started = Instant::now();
        let outcome = catch_unwind(AssertUnwindSafe(|| f(&path)));
        let took = started.elapsed();
        let shown = String::from_utf8_lossy(&bytes)
            .chars()
            .take(400)
            .collect::<String>();
        match outcome {
            Err(_) => panic!("{name} mutation {k} panicked; input:\n{shown}"),
            Ok(Err(message)) => {
                refusals += 1;
                assert!(
                    message.contains(name) || write_also.iter().any(|(n, _)| message.contains(n)),
                    "{name} mutation {k}: a refusal that names no file: {message}"
                );
            }
            Ok(Ok(())) => {}
        }
        assert!(
            took < TIME_BOUND,
            "{name} mutation {k} took {took:?}; input:\n{shown}"
        );
    }
    eprintln!("{name}: {MUTATIONS} mutations, {refusals} refused");
    refusals
}

fn scratch(name: &str) -> common::TempDir {
    common::TempDir::new(&format!("fuzz-{name}"))
}

/// A loaded scene's methods run; their numbers must be numbers.
fn run_scene(path: &Path) -> Result<(), String> {
    let scene = collidescope::input::open(path).map_err(|e| e.to_string())?;
    run_methods(&scene, path);
    Ok(())
}

/// The scene's first three methods run: no NaN where a distance is promised.
fn run_methods(scene: &Scene, path: &Path) {
    for method in scene.methods.iter().take(3) {
        let run = scene.run(*method);
        if let Some(d) = run.summary.outcome.distance() {
            assert!(!d.is_nan(), "{}: {method:?} answered NaN", path.display());
        }
    }
}

#[test]
fn mutated_scenes_never_panic_hang_or_answer_nan() {
    let dir = scratch("scenes");
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("scenes");
    for (i, name) in [
        "boxes_face_to_face.ron",
        "epa_deep_coincident.ron",
        "ip_diamond_vs_can.ron",
        "toi_box_landing.ron",
    ]
    .iter()
    .enumerate()
    {
        let sample = std::fs::read(root.join(name)).unwrap();
        campaign(
            100 + i as u64,
            &dir.join(name),
            name,
            &sample,
            &[],
            &run_scene,
        );
    }
}

const CUBE_OBJ: &str = "v 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\nv 0 0 1\nv 1 0 1\nv 1 1 1\nv 0 1 1\n\
    f 1 2 3 4\nf 5 6 7 8\nf 1 2 6 5\nf 2 3 7 6\nf 3 4 8 7\nf 4 1 5 8\n";

/// Engines' queries (parry captures of both builds and kinds, FCL dumps of both formats)
/// mutated: imported as scenes, never a panic, a refusal names the file.
#[test]
fn mutated_imports_never_panic_or_answer_nan() {
    let dir = scratch("imports");
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("scenes/gallery/sources");
    for (i, name) in [
        "fcl_319_cylinder_box.txt",
        "fcl_388_box_box.txt",
        "parry_315_touching_boxes.json",
        "parry_429_ball_cast.json",
        "parry_a1_cuboids.json",
    ]
    .iter()
    .enumerate()
    {
        let sample = std::fs::read(root.join(name)).unwrap();
        campaign(
            300 + i as u64,
            &dir.join(name),
            name,
            &sample,
            &[],
            &run_scene,
        );
    }
    let convex = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/imports/fcl_594_format_convex_sphere.txt");
    let sample = std::fs::read(convex).unwrap();
    let name = "fcl_594_format_convex_sphere.txt";
    campaign(310, &dir.join(name), name, &sample, &[], &run_scene);
}

/// MuJoCo models mutated (the feature fixture with its included assets and its STL
/// mesh beside it, and the stacked boxes): imported as scenes, never a panic, a refusal
/// names the file.
#[test]
fn mutated_mujoco_models_never_panic_or_answer_nan() {
    let dir = scratch("mjcf");
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/imports/mjcf");
    let features = std::fs::read_to_string(root.join("features.xml"))
        .unwrap()
        .replace(" meshdir=\"meshes\"", "");
    let assets = std::fs::read(root.join("features_assets.xml")).unwrap();
    let cube = std::fs::read(root.join("meshes/cube.stl")).unwrap();
    let also: [(&str, &[u8]); 2] = [("features_assets.xml", &assets), ("cube.stl", &cube)];
    campaign(
        320,
        &dir.join("features"),
        "features.xml",
        features.as_bytes(),
        &also,
        &run_scene,
    );
    let stacked = std::fs::read(root.join("stacked_boxes.xml")).unwrap();
    let name = "stacked_boxes.xml";
    campaign(321, &dir.join(name), name, &stacked, &[], &run_scene);
}

#[test]
fn mutated_obj_files_never_panic() {
    let dir = scratch("obj");
    let load = |path: &Path| {
        let bytes = std::fs::read(path).unwrap();
        import_obj_bytes(path, &bytes)
            .map(|_| ())
            .map_err(|e| e.to_string())
    };
    campaign(200, &dir, "mesh.obj", CUBE_OBJ.as_bytes(), &[], &load);
}

const PROBLEMS: &str = r#"{"tolerance": 1e-8, "criterion": "duality_gap_absolute", "max_iterations": 200,
 "shapes": [{"box": [0.5, 0.4, 0.3]}, {"sphere": 0.3}, {"capsule": {"radius": 0.2, "half_height": 0.4}},
            {"convex_hull": {"vertices": [[0,0,0],[1,0,0],[0,1,0],[0,0,1]]}}, {"cone": {"radius": 0.3, "half_height": 0.4}}],
 "problems": [
  {"a": 0, "b": 1, "b_rotation": [[1,0,0],[0,1,0],[0,0,1]], "b_translation": [1.0, 0.1, 0], "target_distance": 0.2},
  {"a": 2, "b": 3, "b_rotation": [[0,-1,0],[1,0,0],[0,0,1]], "b_translation": [0.2, 0.1, 0.1], "target_distance": -0.1, "b_velocity": [1, 0, 0]},
  {"a": 4, "b": 0, "b_rotation": [[1,0,0],[0,1,0],[0,0,1]], "b_translation": [0, 1.2, 0], "target_distance": 0.1}]}"#;

#[test]
fn mutated_problem_files_never_panic_or_answer_nan() {
    let dir = scratch("problems");
    let methods: Vec<Method> = ["gjk", "fw_linesearch", "epa", "lp", "interior_point", "toi"]
        .iter()
        .map(|m| m.parse().unwrap())
        .collect();
    let run = |path: &Path| {
        let file = ProblemFile::load(path).map_err(|e| format!("{e:#}"))?;
        let results = run_problems(&file, false, TetrahedronRule::RegionTree, &methods)
            .map_err(|e| format!("{}: {e:#}", path.display()))?;
        for r in &results {
            for (name, a) in &r.algorithms {
                if let Some(d) = a.distance {
                    assert!(
                        !d.is_nan(),
                        "problem {} {name}: NaN with status {}",
                        r.index,
                        a.status
                    );
                }
            }
        }
        Ok(())
    };
    campaign(300, &dir, "problems.json", PROBLEMS.as_bytes(), &[], &run);
}

const URDF: &str = r#"<robot name="fuzz">
  <link name="base"><collision><origin xyz="0 0 0.1" rpy="0 0 0"/><geometry><box size="0.3 0.3 0.2"/></geometry></collision></link>
  <link name="upper"><collision><geometry><cylinder radius="0.05" length="0.4"/></geometry></collision></link>
  <link name="lower"><collision><geometry><mesh filename="part.stl" scale="1 1 1"/></geometry></collision></link>
  <link name="hand"><collision><geometry><mesh filename="part.dae"/></geometry></collision></link>
  <joint name="j1" type="revolute"><parent link="base"/><child link="upper"/><origin xyz="0 0 0.2" rpy="0 0 0"/><axis xyz="0 0 1"/><limit lower="-2" upper="2" effort="1" velocity="1"/></joint>
  <joint name="j2" type="revolute"><parent link="upper"/><child link="lower"/><origin xyz="0 0 0.4" rpy="0 0.5 0"/><axis xyz="0 1 0"/><limit lower="-1" upper="1" effort="1" velocity="1"/></joint>
  <joint name="j3" type="revolute"><parent link="lower"/><child link="hand"/><origin xyz="0 0 0.3"/><axis xyz="0 1 0"/><limit lower="-1" upper="1" effort="1" velocity="1"/><mimic joint="j2" multiplier="0.5" offset="0.1"/></joint>
</robot>"#;

const STL_ASCII: &str = "solid part\nfacet normal 0 0 1\nouter loop\nvertex 0 0 0\nvertex 0.1 0 0\nvertex 0 0.1 0\nendloop\nendfacet\nfacet normal 0 0 1\nouter loop\nvertex 0 0 0.2\nvertex 0.1 0 0.2\nvertex 0 0.1 0.2\nendloop\nendfacet\nendsolid part\n";

const DAE: &str = r##"<COLLADA><asset><unit meter="0.01"/></asset><library_geometries><geometry id="g"><mesh>
<source id="p"><float_array count="12">0 0 0 10 0 0 0 10 0 0 0 10</float_array></source>
<vertices id="v"><input semantic="POSITION" source="#p"/></vertices></mesh></geometry></library_geometries>
<library_visual_scenes><visual_scene id="s"><node><translate>0 0 1</translate><instance_geometry url="#g"/></node></visual_scene></library_visual_scenes>
<scene><instance_visual_scene url="#s"/></scene></COLLADA>"##;

fn binary_stl() -> Vec<u8> {
    let mut out = vec![0u8; 80];
    out.extend(2u32.to_le_bytes());
    for t in [
        [[0.0f32, 0.0, 0.0], [0.1, 0.0, 0.0], [0.0, 0.1, 0.0]],
        [[0.0, 0.0, 0.2], [0.1, 0.0, 0.2], [0.0, 0.1, 0.2]],
    ] {
        out.extend([0u8; 12]);
        for v in t {
            for c in v {
                out.extend(c.to_le_bytes());
            }
        }
        out.extend([0u8; 2]);
    }
    out
}

/// A loaded robot is checked at its zero configuration: a pair without a finite
/// distance must not be reported free.
fn load_robot(path: &Path) -> Result<(), String> {
    let model = RobotModel::load(path, None)?;
    check_at_zero(&model, &[]);
    Ok(())
}

/// Every checked pair at the zero configuration: one without a finite distance must
/// not be reported free.
fn check_at_zero(model: &RobotModel, disabled: &[collidescope::robot::DisabledPair]) {
    let pairs = collidescope::robot::checked_pairs(model, disabled);
    let mut check = collidescope::robot::SelfCollision::new(pairs, "gjk".parse().unwrap());
    let q = vec![0.0; model.actuated.len()];
    for pair in &check.check(model, &q).pairs {
        assert!(
            pair.distance.is_finite() || pair.colliding,
            "a NaN pair reported free"
        );
    }
}

#[test]
fn mutated_robots_and_their_meshes_never_panic_or_call_nan_free() {
    let dir = scratch("urdf");
    let stl = binary_stl();
    let ascii: &[u8] = STL_ASCII.as_bytes();
    campaign(
        400,
        &dir.join("urdf"),
        "robot.urdf",
        URDF.as_bytes(),
        &[("part.stl", ascii), ("part.dae", DAE.as_bytes())],
        &load_robot,
    );
    // The meshes mutated under a fixed URDF.
    let urdf = URDF.as_bytes();
    // The mutated mesh sits beside the fixed URDF and the robot's other (intact) mesh.
    let with_mesh = |other: (&'static str, &'static [u8])| {
        move |path: &Path| {
            let dir = path.parent().unwrap();
            std::fs::write(dir.join("robot.urdf"), urdf).unwrap();
            std::fs::write(dir.join(other.0), other.1).unwrap();
            load_robot(&dir.join("robot.urdf"))
        }
    };
    campaign(
        401,
        &dir.join("stl_binary"),
        "part.stl",
        &stl,
        &[],
        &with_mesh(("part.dae", DAE.as_bytes())),
    );
    campaign(
        402,
        &dir.join("stl_ascii"),
        "part.stl",
        ascii,
        &[],
        &with_mesh(("part.dae", DAE.as_bytes())),
    );
    campaign(
        403,
        &dir.join("dae"),
        "part.dae",
        DAE.as_bytes(),
        &[],
        &with_mesh(("part.stl", STL_ASCII.as_bytes())),
    );
}

const SRDF: &str = r#"<robot name="fuzz">
  <disable_collisions link1="base" link2="upper" reason="Adjacent"/>
  <disable_collisions link1="upper" link2="lower" reason="Adjacent"/>
  <disable_collisions link1="lower" link2="hand" reason="Never"/>
</robot>"#;

/// The SRDF beside an intact robot: its pairs are read against the robot's links and
/// the robot is checked without them.
fn load_srdf(path: &Path) -> Result<(), String> {
    let dir = path.parent().unwrap();
    std::fs::write(dir.join("robot.urdf"), URDF).unwrap();
    std::fs::write(dir.join("part.stl"), STL_ASCII).unwrap();
    std::fs::write(dir.join("part.dae"), DAE).unwrap();
    let model = RobotModel::load(&dir.join("robot.urdf"), None)?;
    let (disabled, _warnings) = collidescope::robot::disabled_pairs_for(&model, path)?;
    check_at_zero(&model, &disabled);
    Ok(())
}

#[test]
fn mutated_srdf_files_never_panic() {
    let dir = scratch("srdf");
    campaign(500, &dir, "robot.srdf", SRDF.as_bytes(), &[], &load_srdf);
}

/// Where a MuJoCo refusal points: a line, or the geom, body, pair or key it is about,
/// or the model-wide count (issue 43: every refusal names the file and the place).
fn names_a_place(message: &str) -> bool {
    let line_column = message
        .match_indices(".xml:")
        .any(|(at, _)| message[at + 5..].starts_with(|c: char| c.is_ascii_digit()));
    let named = [
        "line ",
        "geom",
        "body",
        "pair",
        "key",
        "shape",
        "collision filter lets",
    ];
    line_column || named.iter().any(|p| message.contains(p))
}

/// MuJoCo models of the kinds issue 43 ran away on or refused wrongly, mutated: primitives
/// fitted to a mesh (both fits), a hinged chain 300 deep beside free bodies, explicit
/// pairs and excludes. Every mutation imports or is refused within the time bound, the
/// refusal naming the file and a place, never a panic.
#[test]
fn mutated_large_and_fitted_mujoco_models_stay_bounded() {
    let dir = scratch("mjcf-large");
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/imports/mjcf");
    let load = |path: &Path| {
        run_scene(path).inspect_err(|message| {
            assert!(
                names_a_place(message),
                "a refusal that names no place: {message}"
            );
        })
    };
    for (seed, name) in [(330, "fitted.xml"), (331, "fitted_aabb.xml")] {
        let sample = std::fs::read(root.join(name)).unwrap();
        campaign(seed, &dir.join(name), name, &sample, &[], &load);
    }
    let mut chain = String::from("<mujoco model=\"chain\">\n<worldbody>\n<geom name=\"floor\" type=\"plane\" size=\"3 3 0.1\"/>\n");
    for k in 0..20 {
        chain += &format!(
            "<body name=\"f{k}\" pos=\"{} {} 0.5\"><freejoint/><geom name=\"f{k}\" type=\"box\" size=\"0.05 0.04 0.03\"/></body>\n",
            0.3 * (k % 5) as f64,
            0.3 * (k / 5) as f64
        );
    }
    for k in 0..300 {
        chain += &format!("<body name=\"c{k}\" pos=\"0 0 0.01\"><joint axis=\"1 0 0\"/><geom name=\"c{k}\" type=\"capsule\" size=\"0.004 0.003\"/>\n");
    }
    chain += &"</body>".repeat(300);
    chain += "\n</worldbody>\n<contact><pair geom1=\"f0\" geom2=\"c7\"/><exclude body1=\"f1\" body2=\"f2\"/></contact>\n<keyframe><key name=\"k\" qpos=\"";
    chain += &vec!["0"; 20 * 7 + 300].join(" ");
    chain += "\"/></keyframe>\n</mujoco>\n";
    let name = "chain.xml";
    campaign(332, &dir.join(name), name, chain.as_bytes(), &[], &load);
}

/// Whether a refusal names a place inside the file: a line, column, byte or offset with
/// its number (`line 7`, `path:3:9`, `byte 96`), a record (`vertex 3`, `triangle 2`),
/// a capture's argument (`pos1`, `shape2`, `vel1`, `[0]`), or what the whole file is
/// (`the file is empty`, UTF-16).
fn names_a_place_inside(message: &str) -> bool {
    let lower = message.to_lowercase();
    let numbered = |word: &str| {
        lower
            .match_indices(word)
            .any(|(i, _)| lower[i + word.len()..].starts_with(|c: char| c.is_ascii_digit()))
    };
    // `3:87`, `path:3:9`: a line and column.
    let b = lower.as_bytes();
    let colon_numbers = (1..b.len().saturating_sub(1))
        .any(|i| b[i] == b':' && b[i - 1].is_ascii_digit() && b[i + 1].is_ascii_digit());
    [
        "line ",
        "lines ",
        "column ",
        "byte ",
        "bytes ",
        "offset ",
        "vertex ",
        "triangle ",
    ]
    .iter()
    .any(|w| numbered(w))
        || colon_numbers
        || [
            "pos1",
            "pos2",
            "shape1",
            "shape2",
            "vel1",
            "vel2",
            "[0]",
            "the file is empty",
            "utf-16",
        ]
        .iter()
        .any(|w| lower.contains(w))
}

/// FCL dump tokens a launch log or a C library puts where a number or a line goes.
const FCL_TOKENS: [&str; 12] = [
    "nan",
    "-nan",
    "inf",
    "-inf",
    "1.#INF",
    "-1.#IND",
    "nan(ind)",
    "NaN",
    "[move_group-1] ",
    "[ERROR] [1732781234.5] [move_group]: ",
    "\u{1b}[31m",
    "\u{1b}[0m",
];

/// [`campaign`] with `extra` tokens also inserted (half of the mutations, at a line's
/// start or anywhere), and every refusal held to name the file and a place inside it.
/// Returns the refusals.
fn placed_campaign(
    seed: u64,
    dir: &Path,
    name: &str,
    sample: &[u8],
    extra: &[&str],
    mutations: usize,
    f: &dyn Fn(&Path) -> Result<(), String>,
) -> usize {
    let mut rng = Rng::new(seed);
    let mut refusals = 0;
    for k in 0..mutations {
        let case = dir.join(format!("{k}"));
        std::fs::create_dir_all(&case).unwrap();
        let path = case.join(name);
        let mut bytes = mutate(&mut rng, sample);
        if !extra.is_empty() && rng.index(2) == 0 {
            let token = extra[rng.index(extra.len())].as_bytes();
            let mut at = rng.index(bytes.len() + 1);
            if rng.index(2) == 0 {
                while at > 0 && bytes[at - 1] != b'\n' {
                    at -= 1;
                }
            }
            bytes.splice(at..at, token.iter().copied());
        }
        std::fs::write(&path, &bytes).unwrap();
        let started = Instant::now();
        let outcome = catch_unwind(AssertUnwindSafe(|| f(&path)));
        let took = started.elapsed();
        let shown = String::from_utf8_lossy(&bytes)
            .chars()
            .take(600)
            .collect::<String>();
        match outcome {
            Err(_) => panic!("{name} mutation {k} panicked; input:\n{shown}"),
            Ok(Err(message)) => {
                refusals += 1;
                assert!(
                    message.contains(name) && names_a_place_inside(&message),
                    "{name} mutation {k}: a refusal without the file and a place in it: \
                     {message}\ninput:\n{shown}"
                );
            }
            Ok(Ok(())) => {}
        }
        assert!(
            took < TIME_BOUND,
            "{name} mutation {k} took {took:?}; input:\n{shown}"
        );
    }
    eprintln!("{name}: {mutations} mutations, {refusals} refused");
    refusals
}

/// An import as `collidescope import` runs it: read, built as a scene (naming the file),
/// its methods run; no NaN where a distance is promised.
fn import_and_run(path: &Path) -> Result<(), String> {
    let file = collidescope::import::import_file(path).map_err(|e| e.to_string())?;
    let scene = Scene::from_scene_file(file, path).map_err(|e| e.to_string())?;
    run_methods(&scene, path);
    Ok(())
}

/// FCL dumps of both layouts, bare and in ROS 2 launch logs, with `nan`, `inf`, MSVC's
/// `1.#INF`, launch prefixes and ANSI codes inserted: never a panic or a NaN answer,
/// every refusal names the file and a line.
#[test]
fn mutated_fcl_dumps_with_log_prefixes_and_nonfinite_words_say_where() {
    let dir = scratch("fcl-words");
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/imports");
    for (i, name) in [
        "fcl_319_cylinder_box.txt",
        "fcl_594_format_convex_sphere.txt",
        "fcl_594_format_ros2_launch.log",
        "fcl_319_ros2_launch.log",
    ]
    .iter()
    .enumerate()
    {
        let sample = std::fs::read(root.join(name)).unwrap();
        placed_campaign(
            600 + i as u64,
            &dir.join(name),
            name,
            &sample,
            &FCL_TOKENS,
            1000,
            &import_and_run,
        );
    }
}

/// parry captures (f64, f32, cast) mutated: every refusal names the file and a place
/// (the JSON's line and column, or the argument).
#[test]
fn mutated_parry_captures_say_where() {
    let dir = scratch("parry-places");
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("scenes/gallery/sources");
    for (i, name) in [
        "parry_315_touching_boxes.json",
        "parry_429_ball_cast.json",
        "parry_a1_cuboids.json",
        "ncollide_157_cylinder_cuboid.json",
    ]
    .iter()
    .enumerate()
    {
        let sample = std::fs::read(root.join(name)).unwrap();
        let extra = ["null", "[", "]", "{}", "1e400", "\"padding\": 0,"];
        placed_campaign(
            610 + i as u64,
            &dir.join(name),
            name,
            &sample,
            &extra,
            1000,
            &import_and_run,
        );
    }
}

/// OBJ, STL (ASCII, binary) and PLY (ASCII, binary little-endian) meshes mutated and read as
/// `mesh` and a scene's `Mesh(path)` read them: no panic, no NaN in the report, every
/// refusal names the file and a line or byte, and calls an STL an STL, a PLY a PLY.
#[test]
fn mutated_stl_and_ply_meshes_say_where() {
    let dir = scratch("meshes-places");
    let load = |path: &Path| -> Result<(), String> {
        match collidescope::mesh::load_mesh(path) {
            Ok(mesh) => {
                let r = &mesh.report;
                assert!(
                    r.aabb_min.is_finite() && r.aabb_max.is_finite(),
                    "{}: a NaN bounding box",
                    path.display()
                );
                Ok(())
            }
            Err(e) => {
                let e = e.to_string();
                let obj = path.extension().is_some_and(|x| x == "obj");
                assert!(obj || !e.contains("OBJ"), "{e}");
                Err(e)
            }
        }
    };
    let mut ply_ascii = String::from(
        "ply\nformat ascii 1.0\nelement vertex 4\nproperty float x\nproperty float y\nproperty float z\n\
         element face 2\nproperty list uchar int vertex_indices\nend_header\n",
    );
    ply_ascii += "0 0 0\n1 0 0\n0 1 0\n0 0 1\n3 0 1 2\n3 0 1 3\n";
    let mut ply_binary =
        b"ply\nformat binary_little_endian 1.0\nelement vertex 4\nproperty float x\n\
        property float y\nproperty float z\nend_header\n"
            .to_vec();
    for v in [
        [0.0f32, 0.0, 0.0],
        [1.0, 0.0, 0.0],
        [0.0, 1.0, 0.0],
        [0.0, 0.0, 1.0],
    ] {
        for x in v {
            ply_binary.extend_from_slice(&x.to_le_bytes());
        }
    }
    let stl = binary_stl();
    let extra = [
        "nan",
        "inf",
        "-1.#IND",
        "1e39",
        "\n",
        "vertex 0 0 0\n",
        "facet normal 0 0 1\n",
    ];
    for (seed, name, sample) in [
        (624, "mesh.obj", CUBE_OBJ.as_bytes()),
        (620, "part.stl", STL_ASCII.as_bytes()),
        (621, "binary.stl", stl.as_slice()),
        (622, "ascii.ply", ply_ascii.as_bytes()),
        (623, "binary.ply", ply_binary.as_slice()),
    ] {
        placed_campaign(seed, &dir.join(name), name, sample, &extra, 1000, &load);
    }
}

/// A robot's COLLADA mesh mutated beside a fixed URDF: every refusal names the mesh
/// file and a line in it.
#[test]
fn mutated_collada_meshes_say_where() {
    let dir = scratch("dae-places");
    let load = |path: &Path| {
        let dir = path.parent().unwrap();
        std::fs::write(dir.join("robot.urdf"), URDF).unwrap();
        std::fs::write(dir.join("part.stl"), STL_ASCII).unwrap();
        load_robot(&dir.join("robot.urdf"))
    };
    let extra = ["nan", "inf", "x", "1.5", "-1", "<p>0 1 2</p>"];
    placed_campaign(640, &dir, "part.dae", DAE.as_bytes(), &extra, 1000, &load);
}

/// Scenes mutated and exported as a user runs `collidescope export`: never a panic;
/// a refusal names the scene file; a Coal script written parses as Python (when
/// python3 is here). 50 cases: each runs the binary.
#[test]
fn mutated_scenes_export_or_refuse_naming_the_file() {
    let dir = scratch("exports");
    let python = Command::new("python3")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    let sample =
        std::fs::read(Path::new(env!("CARGO_MANIFEST_DIR")).join("scenes/boxes_face_to_face.ron"))
            .unwrap();
    let mut rng = Rng::new(630);
    let (mut refused, mut written) = (0, 0);
    for k in 0..50 {
        let case = dir.join(format!("{k}"));
        std::fs::create_dir_all(&case).unwrap();
        let scene = case.join("case.ron");
        let bytes = mutate(&mut rng, &sample);
        std::fs::write(&scene, &bytes).unwrap();
        let (coal, parry) = (case.join("case.py"), case.join("case.rs"));
        let started = Instant::now();
        let out = common::cli(&[
            "export",
            scene.to_str().unwrap(),
            "--coal",
            coal.to_str().unwrap(),
            "--parry",
            parry.to_str().unwrap(),
        ]);
        let took = started.elapsed();
        let stderr = String::from_utf8_lossy(&out.stderr);
        let shown = String::from_utf8_lossy(&bytes)
            .chars()
            .take(400)
            .collect::<String>();
        assert!(
            took < TIME_BOUND,
            "export {k} took {took:?}; input:\n{shown}"
        );
        assert!(
            !stderr.contains("panicked") && out.status.code() != Some(101),
            "export {k} panicked: {stderr}\ninput:\n{shown}"
        );
        if !out.status.success() {
            refused += 1;
            assert!(
                stderr.contains("case.ron"),
                "export {k}: a refusal that names no scene file: {stderr}"
            );
            continue;
        }
        written += 1;
        for path in [&coal, &parry] {
            let text = std::fs::read_to_string(path).unwrap_or_default();
            assert!(
                !text.trim().is_empty(),
                "export {k}: {} is empty",
                path.display()
            );
        }
        if python {
            let parsed = Command::new("python3")
                .args(["-c", "import ast,sys; ast.parse(open(sys.argv[1]).read())"])
                .arg(&coal)
                .output()
                .unwrap();
            assert!(
                parsed.status.success(),
                "export {k}: the Coal script does not parse: {}",
                String::from_utf8_lossy(&parsed.stderr)
            );
        }
    }
    eprintln!("export: 50 mutated scenes, {written} written, {refused} refused");
    // Without an option: the usage error names the scene too.
    let out = common::cli(&["export", dir.join("0/case.ron").to_str().unwrap()]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        !out.status.success() && stderr.contains("case.ron"),
        "{stderr}"
    );
}
