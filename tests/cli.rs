//! The headless CLI as a user runs it: shipped scenes, outputs, and clear errors.

mod common;

use std::path::{Path, PathBuf};

use common::{cli, cli_json, cli_ok, stdout_json};

fn solve_json(scene: &str) -> serde_json::Value {
    cli_json(&["solve", scene, "--json"])
}

fn run_of<'v>(json: &'v serde_json::Value, algorithm: &str) -> &'v serde_json::Value {
    json["runs"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["algorithm"] == algorithm)
        .unwrap()
}

fn iterations(json: &serde_json::Value, algorithm: &str) -> u64 {
    run_of(json, algorithm)["iterations"].as_u64().unwrap()
}

fn distance(json: &serde_json::Value, algorithm: &str) -> f64 {
    run_of(json, algorithm)["distance"].as_f64().unwrap()
}

#[test]
fn every_shipped_scene_solves_in_every_format() {
    let scenes: Vec<PathBuf> =
        std::fs::read_dir(Path::new(env!("CARGO_MANIFEST_DIR")).join("scenes"))
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|e| e == "ron"))
            .collect();
    assert!(scenes.len() >= 6);
    for scene in scenes {
        let s = scene.to_str().unwrap();
        for flags in [&[][..], &["--json"], &["--csv"]] {
            let mut args = vec!["solve", s];
            args.extend_from_slice(flags);
            let out = cli(&args);
            assert!(
                out.status.success(),
                "{s} {flags:?}: {}",
                String::from_utf8_lossy(&out.stderr)
            );
            assert!(!out.stdout.is_empty());
        }
    }
}

/// `solve` says what `nesterov_restart` does on the pair, so that a run equal to GJK's
/// (a sphere against a capsule) is explained, and a curved pair names its momentum.
#[test]
fn solve_names_the_restart_rules_plan_for_the_pair() {
    for (scene, plan) in [
        (
            "scenes/overlap_sphere_capsule.ron",
            "restart rule: plain GJK on this pair",
        ),
        ("scenes/ellipsoids_close.ron", "restart rule: curved pair"),
    ] {
        let out = cli(&["solve", scene, "-a", "nesterov_restart"]);
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(
            out.status.success() && text.contains(plan),
            "{scene}: {text}"
        );
    }
}

#[test]
fn shipped_scenes_show_what_their_names_promise() {
    let boxes = solve_json("scenes/boxes_face_to_face.ron");
    assert!((distance(&boxes, "gjk") - 1e-3).abs() < 1e-9);

    let close = solve_json("scenes/ellipsoids_close.ron");
    assert!(
        iterations(&close, "nesterov") * 2 <= iterations(&close, "gjk"),
        "Nesterov far fewer at 1e-3"
    );
    assert!((distance(&close, "nesterov") - 1e-3).abs() < 1e-4);

    let far = solve_json("scenes/ellipsoids_far.ron");
    assert!(
        iterations(&far, "nesterov") > iterations(&far, "gjk"),
        "Nesterov needs more at 2 m"
    );
    assert!((distance(&far, "gjk") - 2.0).abs() < 1e-4);

    let zigzag = solve_json("scenes/cubes_frank_wolfe_zigzag.ron");
    assert!(iterations(&zigzag, "fw_linesearch") >= 10 * iterations(&zigzag, "gjk"));

    let overlap = solve_json("scenes/overlap_sphere_capsule.ron");
    assert_eq!(run_of(&overlap, "gjk")["status"], "intersecting");

    let flat = solve_json("scenes/degenerate_flat.ron");
    assert!((distance(&flat, "gjk") - 0.5).abs() < 1e-9);

    // EPA scenes: the depth each one promises (signed distance −depth).
    for (scene, depth) in [
        ("scenes/epa_boxes_edge.ron", 0.05),
        ("scenes/epa_shallow.ron", 1e-6),
        ("scenes/epa_sphere_in_box.ron", 0.1),
    ] {
        let json = solve_json(scene);
        assert_eq!(run_of(&json, "epa")["status"], "penetrating", "{scene}");
        assert!((distance(&json, "epa") + depth).abs() < 1e-12, "{scene}");
    }
    let deep = solve_json("scenes/epa_deep_coincident.ron");
    assert!(
        run_of(&deep, "epa")["trace"]["records"]
            .as_array()
            .unwrap()
            .len()
            > 5
    );

    let needles = solve_json("scenes/needles_end_to_end.ron");
    for algorithm in ["gjk", "nesterov", "nesterov_normalized", "fw_linesearch"] {
        assert!(
            (distance(&needles, algorithm) - 1e-3).abs() < 1e-9,
            "{algorithm}"
        );
        let a = run_of(&needles, algorithm)["witness_a_world"][0]
            .as_f64()
            .unwrap();
        assert!(
            (a - 50.0).abs() < 1e-9,
            "{algorithm}: A's witness at x = {a}"
        );
    }
    assert!(needles["hull_a"].as_str().unwrap().contains("checked"));
}

#[test]
fn algorithm_option_overrides_the_scene_list() {
    let out = cli(&[
        "solve",
        "scenes/boxes_face_to_face.ron",
        "--algorithm",
        "fw_away",
        "--json",
    ]);
    let json = stdout_json(&out);
    let runs = json["runs"].as_array().unwrap();
    assert_eq!(runs.len(), 1);
    assert_eq!(runs[0]["algorithm"], "fw_away");
    assert!(!runs[0]["trace"].as_array().unwrap().is_empty());
}

/// One clear line on stderr, a non-zero exit, nothing on stdout.
fn assert_clean_failure(args: &[&str], needle: &str) {
    let out = cli(args);
    assert!(!out.status.success(), "{args:?} succeeded");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains(needle), "{args:?}: {err}");
    assert!(!err.contains("panicked"), "{args:?}: {err}");
}

#[test]
fn bad_input_gives_one_clear_error() {
    let dir = common::TempDir::new("cli");
    let broken = dir.join("broken.ron");
    std::fs::write(&broken, "Scene(version: 1, name: \"x\",").unwrap();
    let empty_obj = dir.join("empty.obj");
    std::fs::write(&empty_obj, "").unwrap();
    let nan_obj = dir.join("nan.obj");
    std::fs::write(&nan_obj, "v 0 0 0\nv NaN 1 0\nv 0 0 1\nf 1 2 3\n").unwrap();
    assert_clean_failure(&["solve", "no/such/scene.ron"], "cannot read");
    assert_clean_failure(&["solve", broken.to_str().unwrap()], "broken.ron:1:");
    assert_clean_failure(
        &[
            "solve",
            "scenes/boxes_face_to_face.ron",
            "--algorithm",
            "gjkk",
        ],
        "invalid value 'gjkk'",
    );
    assert_clean_failure(&["mesh", "no/such/mesh.obj"], "the file does not exist");
    assert_clean_failure(&["mesh", empty_obj.to_str().unwrap()], "no vertices");
    assert_clean_failure(&["mesh", nan_obj.to_str().unwrap()], "non-finite");
    assert_clean_failure(
        &["bench", "--problems", "no/such/problems.json"],
        "cannot read",
    );
}

#[test]
fn mesh_reports_flat_and_solid_meshes() {
    let Some(dir) = common::shared_data("meshes") else {
        return;
    };
    let report = cli_json(&[
        "mesh",
        dir.join("alligator.obj").to_str().unwrap(),
        "--json",
    ]);
    assert_eq!(report["dimension"], "Polygon");
    let out = cli(&["mesh", dir.join("suzanne.obj").to_str().unwrap()]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("convex          no"), "{text}");
    assert!(text.contains("flat            no"), "{text}");
    assert!(
        text.contains("hull path       parry3d-f64's hull, checked"),
        "{text}"
    );
}

#[test]
fn mesh_reports_the_truth_about_needles_and_point_clouds() {
    let dir = temp_dir("mesh-needle");
    std::fs::create_dir_all(&dir).unwrap();
    let needle = dir.join("needle.obj");
    let mut text = String::new();
    for i in 0..8 {
        let c = |bit: usize, v: f64| if i & bit == 0 { 0.0 } else { v };
        text += &format!("v {} {} {}\n", c(1, 100.0), c(2, 0.01), c(4, 0.01));
    }
    text += "f 1 3 4 2\nf 5 6 8 7\nf 1 2 6 5\nf 3 7 8 4\nf 1 5 7 3\nf 2 4 8 6\n";
    std::fs::write(&needle, &text).unwrap();
    let out = cli(&["mesh", needle.to_str().unwrap()]);
    let report = String::from_utf8_lossy(&out.stdout);
    assert!(
        report.contains("8 vertices, 6 faces (12 triangles)"),
        "{report}"
    );
    assert!(report.contains("convex          yes"), "{report}");
    assert!(report.contains("exact Quickhull"), "{report}");
    // The same vertices without faces: a point cloud, the same hull.
    let cloud = dir.join("cloud.obj");
    let vertices: String = text
        .lines()
        .filter(|l| l.starts_with("v "))
        .map(|l| format!("{l}\n"))
        .collect();
    std::fs::write(&cloud, vertices).unwrap();
    let out = cli(&["mesh", cloud.to_str().unwrap()]);
    let report = String::from_utf8_lossy(&out.stdout);
    assert!(
        report.contains("point cloud") && report.contains("8 vertices, 6 faces"),
        "{report}"
    );
    // A point at 1e308 is refused, naming the file.
    let huge = dir.join("huge.obj");
    std::fs::write(&huge, format!("{text}v 1e308 1e308 1e308\nf 1 2 9\n")).unwrap();
    assert_clean_failure(&["mesh", huge.to_str().unwrap()], "huge.obj");
}

#[test]
fn bench_problems_writes_the_agreed_json() {
    let Some(dir) = common::shared_data("problems") else {
        return;
    };
    let out = cli_ok(&[
        "bench",
        "--problems",
        dir.join("meshes_sample.json").to_str().unwrap(),
        "--json",
    ]);
    let json = stdout_json(&out);
    let results = json["results"].as_array().unwrap();
    assert_eq!(results.len(), 96);
    for alg in [
        "gjk",
        "nesterov",
        "nesterov_normalized",
        "polyak",
        "nesterov_restart",
        "fw_linesearch",
    ] {
        let a = &results[0]["algorithms"][alg];
        assert!(
            a["iterations"].is_u64() && a["status"].is_string(),
            "{alg}: {a}"
        );
    }
    assert!(String::from_utf8_lossy(&out.stderr).contains("Coal gjk"));
}

#[test]
fn epa_runs_problem_files_and_scenes_by_the_version_2_contract() {
    let Some(dir) = common::shared_data("problems") else {
        return;
    };
    let path = dir.join("epa_sample.json");
    let json = cli_json(&[
        "bench",
        "--problems",
        path.to_str().unwrap(),
        "--algorithm",
        "epa",
        "--json",
    ]);
    let truth: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    for result in json["results"].as_array().unwrap() {
        let epa = &result["algorithms"]["epa"];
        let problem = &truth["problems"][result["index"].as_u64().unwrap() as usize];
        let expected = problem["true_distance"].as_f64().unwrap();
        let got = epa["distance"].as_f64().unwrap();
        if problem["truth"] != "touching" {
            assert!(
                (got - expected).abs() <= 1e-6 * expected.abs().max(1.0),
                "{epa} vs {expected}"
            );
        }
        if problem["truth"] == "overlap" {
            assert_eq!(epa["status"], "penetrating", "{epa}");
            assert_eq!(epa["normal"].as_array().unwrap().len(), 3);
        }
        assert!(epa["iterations"].is_u64());
    }
    // solve prints EPA's expansions and outcome.
    let out = cli(&[
        "solve",
        "scenes/overlap_sphere_capsule.ron",
        "--algorithm",
        "epa",
    ]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        // Depth 0.05 exactly, printed as its lower bound (round-off allowed for).
        text.contains("== epa ==") && text.contains("penetrating, depth 4.99999999"),
        "{text}"
    );
}

#[cfg(feature = "app")]
#[test]
fn view_refuses_bad_input_before_opening_a_window() {
    assert_clean_failure(&["view", "no/such/scene.ron"], "cannot read");
    assert_clean_failure(
        &["view", "scenes/boxes_face_to_face.ron", "--size", "12x9"],
        "out of range",
    );
    assert_clean_failure(
        &["view", "scenes/boxes_face_to_face.ron", "--focus", "gjkk"],
        "possible values: gjk, nesterov",
    );
    assert_clean_failure(
        &[
            "view",
            "tests/data/imports/mjcf/features.xml",
            "--key",
            "nope",
        ],
        "no keyframe \"nope\" (the model has bent)",
    );
}

fn temp_dir(name: &str) -> common::TempDir {
    common::TempDir::new(name)
}

#[test]
fn bench_ellipsoids_writes_csv_summary_and_plots() {
    let out = temp_dir("bench-ellipsoids");
    let o = out.to_str().unwrap();
    cli_ok(&[
        "bench",
        "ellipsoids",
        "--pairs",
        "3",
        "--poses",
        "2",
        "--out",
        o,
        "--timing",
    ]);
    let ratios = std::fs::read_to_string(out.join("timing.txt")).unwrap();
    assert!(
        ratios.contains("gjk ratio") && ratios.contains("parry µs/query"),
        "{ratios}"
    );
    let csv = std::fs::read_to_string(out.join("runs.csv")).unwrap();
    // 3 pairs × 2 poses × 12 distances × 5 algorithms × 2 query kinds, plus the header.
    assert_eq!(csv.lines().count(), 1 + 3 * 2 * 12 * 5 * 2);
    assert!(std::fs::read_to_string(out.join("summary.txt"))
        .unwrap()
        .contains("nesterov_normalized"));
    for png in ["iterations_distance.png", "iterations_boolean.png"] {
        let bytes = std::fs::read(out.join(png)).unwrap();
        assert!(
            bytes.starts_with(b"\x89PNG") && bytes.len() > 10_000,
            "{png}"
        );
    }
    assert_clean_failure(&["bench"], "give --problems FILE");
    assert_clean_failure(
        &["bench", "meshes", "/no/such/folder"],
        "cannot read the mesh folder",
    );
    assert_clean_failure(
        &["bench", "ellipsoids", "--out", "/proc/collidescope"],
        "output folder",
    );
}

/// `bench primitives`: the protocol on random capsules, cylinders, cones, boxes; the
/// placed poses reach every separated target (the primitive shapes are solved exactly).
#[test]
fn bench_primitives_runs_the_protocol_on_a_kind_pair() {
    let out = temp_dir("bench-primitives");
    let o = out.to_str().unwrap();
    cli_ok(&[
        "bench",
        "primitives",
        "--a",
        "capsule",
        "--b",
        "cone",
        "--pairs",
        "3",
        "--poses",
        "2",
        "--algorithm",
        "gjk",
        "--algorithm",
        "nesterov_restart",
        "--out",
        o,
    ]);
    let summary = std::fs::read_to_string(out.join("summary.txt")).unwrap();
    assert!(
        summary.starts_with("capsule against cone: 3 pairs × 2 poses")
            && summary.contains("nesterov_restart"),
        "{summary}"
    );
    let csv = std::fs::read_to_string(out.join("runs.csv")).unwrap();
    // 3 pairs × 2 poses × 12 distances × 2 algorithms × 2 query kinds, plus the header.
    assert_eq!(csv.lines().count(), 1 + 3 * 2 * 12 * 2 * 2);
    assert_clean_failure(
        &["bench", "primitives", "--a", "torus", "--b", "box"],
        "invalid value 'torus'",
    );
}

#[test]
fn bench_meshes_and_sweep_on_real_meshes() {
    let Some(dir) = common::shared_data("meshes") else {
        return;
    };
    let out = temp_dir("bench-meshes");
    let run = cli_ok(&[
        "bench",
        "meshes",
        dir.to_str().unwrap(),
        "--pairs",
        "2",
        "--poses",
        "1",
        "--out",
        out.to_str().unwrap(),
    ]);
    let skipped = String::from_utf8_lossy(&run.stderr);
    assert!(skipped.contains("alligator.obj: flat"), "{skipped}");
    assert!(out.join("iterations_distance.png").exists());

    let sweep_out = temp_dir("sweep");
    let (a, b) = (dir.join("cow.obj"), dir.join("teapot.obj"));
    let run = cli_ok(&[
        "sweep",
        a.to_str().unwrap(),
        b.to_str().unwrap(),
        "--samples",
        "300",
        "--worst",
        "2",
        "--out",
        sweep_out.to_str().unwrap(),
    ]);
    let text = String::from_utf8_lossy(&run.stdout);
    let written: Vec<&str> = text.lines().filter(|l| l.contains(".ron")).collect();
    assert_eq!(written.len(), 6, "{text}");
    assert!(
        written
            .iter()
            .all(|l| l.contains("reproduced from the file")),
        "{text}"
    );
    // A written scene solves on its own through the CLI.
    let scene = sweep_out.join("slow-gjk-1.ron");
    let json = solve_json(scene.to_str().unwrap());
    assert!(iterations(&json, "gjk") > 0);
    assert_clean_failure(
        &["sweep", "no/such/a.obj", b.to_str().unwrap()],
        "a.obj: the file does not exist",
    );
    assert_clean_failure(
        &[
            "sweep",
            a.to_str().unwrap(),
            b.to_str().unwrap(),
            "--distance",
            "1..0",
        ],
        "MIN ≤ MAX",
    );
}

#[test]
fn problem_timing_adds_seconds_and_parry() {
    let Some(dir) = common::shared_data("problems") else {
        return;
    };
    let out = cli_ok(&[
        "bench",
        "--problems",
        dir.join("meshes_sample.json").to_str().unwrap(),
        "--timing",
        "--json",
    ]);
    let json = stdout_json(&out);
    for r in json["results"].as_array().unwrap() {
        assert!(
            r["algorithms"]["gjk"]["seconds_per_query"]
                .as_f64()
                .unwrap()
                > 0.0
        );
        assert!(r["parry"]["seconds_per_query"].as_f64().unwrap() > 0.0);
        let ours = r["algorithms"]["gjk"]["distance"].as_f64().unwrap_or(0.0);
        let parry = r["parry"]["distance"].as_f64().unwrap();
        // Hull pairs: parry is exact to ~1e-14, we are within √ε = 1e-4.
        assert!((ours - parry).abs() < 2e-4, "{ours} vs parry {parry}");
    }
    assert!(String::from_utf8_lossy(&out.stderr).contains("gjk ratio"));
}

#[test]
fn problem_table_lists_the_methods_named() {
    let Some(dir) = common::shared_data("problems") else {
        return;
    };
    let file = dir.join("epa_sample.json");
    let out = cli_ok(&[
        "bench",
        "--problems",
        file.to_str().unwrap(),
        "--algorithm",
        "epa",
    ]);
    let table = String::from_utf8_lossy(&out.stdout);
    let header = table.lines().next().unwrap();
    assert!(
        header.contains("epa") && !header.contains("nesterov"),
        "{header}"
    );
    assert!(table.contains("penetrating"), "{table}");
}

#[test]
fn time_of_impact_through_solve_and_the_problem_contract() {
    let json = cli_json(&["solve", "scenes/toi_bullet_through_plate.ron", "--json"]);
    for run in json["runs"].as_array().unwrap() {
        assert_eq!(run["status"], "impact", "{run}");
        let t = run["outcome"]["time"].as_f64().unwrap();
        assert!((t - 0.4848).abs() < 1e-7, "{t}");
        assert!(!run["trace"].as_array().unwrap().is_empty());
    }
    let Some(dir) = common::shared_data("problems") else {
        return;
    };
    let file = dir.join("toi_sample.json");
    let json = cli_json(&[
        "bench",
        "--problems",
        file.to_str().unwrap(),
        "--algorithm",
        "toi",
        "--json",
    ]);
    for r in json["results"].as_array().unwrap() {
        let toi = &r["algorithms"]["toi"];
        assert!(toi.get("time_of_impact").is_some(), "{toi}");
        match toi["status"].as_str().unwrap() {
            "impact" => assert!(toi["time_of_impact"].is_f64()),
            "no_impact" => assert!(toi["time_of_impact"].is_null()),
            other => panic!("{other}"),
        }
    }
}

#[test]
fn lp_through_solve_and_its_benchmark() {
    let out = cli_ok(&["solve", "scenes/lp_boxes_apart.ron", "-a", "lp"]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("separated: the plane"), "{text}");
    assert!(text.contains("Kreuzer's estimate"), "{text}");
    let dir = common::TempDir::new("lp");
    let out = cli_ok(&[
        "bench",
        "lp",
        "--pairs",
        "2",
        "--out",
        dir.to_str().unwrap(),
    ]);
    let table = String::from_utf8_lossy(&out.stdout);
    assert!(table.lines().count() >= 6, "{table}");
    assert!(dir.join("lp_crossover.png").exists());
}

/// A robot pair where parry3d-f64's `query::distance` is wrong goes back out as a
/// reproduction: `robot --timing` finds the disagreements (parry's own GJK agreeing with
/// ours on each), `--disagreement-scene` writes the worst as a two-body scene, and that
/// scene solves to the distance we printed and exports as a parry test. The fixture's
/// two boxes are where parry 0.31's cuboid–cuboid closest points (separating axes)
/// overestimate the gap.
#[test]
fn a_robot_pair_parry_gets_wrong_becomes_a_reproduction() {
    let dir = temp_dir("disagreement");
    std::fs::create_dir_all(&dir).unwrap();
    let scene = dir.join("pair.ron");
    let out = cli_ok(&[
        "robot",
        "tests/data/robots/box_pair/box_pair.urdf",
        "--random",
        "50",
        "--timing",
        "--disagreement-scene",
        scene.to_str().unwrap(),
    ]);
    let text = String::from_utf8_lossy(&out.stdout);
    let line = text
        .lines()
        .find(|l| l.contains("query::distance differs from ours"))
        .unwrap_or_else(|| panic!("no disagreement found:\n{text}"));
    // "... on N pair configurations; parry's own GJK ... agrees with ours on M of them"
    let numbers: Vec<usize> = line
        .split_whitespace()
        .filter_map(|w| w.parse().ok())
        .collect();
    assert!(
        numbers.len() == 2 && numbers[0] > 0 && numbers[0] == numbers[1],
        "{line}"
    );
    // The first listed disagreement is the scene's pair; the scene solves to our value.
    let first = text
        .lines()
        .find(|l| l.trim_start().starts_with("config ") && l.contains(" ours "))
        .unwrap();
    let ours: f64 = first
        .split("ours ")
        .nth(1)
        .and_then(|r| r.split(',').next())
        .and_then(|v| v.parse().ok())
        .unwrap();
    let json = solve_json(scene.to_str().unwrap());
    assert!((distance(&json, "gjk") - ours).abs() < 1e-8, "{first}");
    let test = dir.join("repro.rs");
    cli_ok(&[
        "export",
        scene.to_str().unwrap(),
        "--parry",
        test.to_str().unwrap(),
    ]);
    let source = std::fs::read_to_string(&test).unwrap();
    assert!(source.contains("query::distance") && source.contains("Cuboid"));
}
