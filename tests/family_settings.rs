//! Every family's own settings: EPA, the time of impact, the
//! interior point and the LP test read theirs from the scene (`settings: Settings(epa:
//! (max_iterations: 2))`, a scene naming only what it changes), from problem files and
//! from the command line (`--set epa.tolerance=1e-12`); a scene that names none runs as
//! before and is written as before.

use std::path::Path;

use collidescope::bench::problems::{run_problems, ProblemFile};
use collidescope::scene::Scene;
use collidescope::solver::{Method, Outcome, SolverSettings, TetrahedronRule, TieRule};

fn scene_with(settings: &str, algorithms: &str, b_velocity: &str) -> Scene {
    scene_at(0.6, settings, algorithms, b_velocity)
}

/// B at `x` along x (overlapping at 0.6, apart at 2.5).
fn scene_at(x: f64, settings: &str, algorithms: &str, b_velocity: &str) -> Scene {
    let text = format!(
        "Scene(
    version: 2,
    name: \"family settings\",
    dimension: Spatial,
    bodies: [
        Body(shape: Box(half_extents: (0.5, 0.5, 0.5)), translation: (0.0, 0.0, 0.0), rotation: EulerDegrees((0.0, 0.0, 0.0))),
        Body(shape: Box(half_extents: (0.5, 0.4, 0.3)), translation: ({x:?}, 0.2, 0.1), rotation: EulerDegrees((10.0, 20.0, 30.0)){b_velocity}),
    ],
    pairs: [(0, 1)],
    algorithms: [{algorithms}],
    settings: Settings({settings}),
)"
    );
    Scene::parse(Path::new("family_settings.ron"), &text).expect("a valid scene")
}

#[test]
fn each_family_reads_its_own_settings_from_the_scene() {
    let defaults = scene_with("", "\"epa\"", "");
    let by_axes = defaults.run(Method::epa());
    let Outcome::Penetrating { depth, .. } = by_axes.summary.outcome else {
        panic!("the default EPA answers this overlap");
    };
    // Two boxes: the separating axes answer at once, unless the scene asks for EPA.
    assert_eq!(by_axes.summary.iterations, 0);
    let expanded = scene_with("epa: (closed_forms: false)", "\"epa\"", "").run(Method::epa());
    let Outcome::Penetrating { depth: by_epa, .. } = expanded.summary.outcome else {
        panic!("EPA answers this overlap");
    };
    assert!(expanded.summary.iterations > 0);
    assert!((depth - by_epa).abs() <= 1e-9, "axes {depth}, EPA {by_epa}");
    let capped = scene_with(
        "epa: (max_iterations: 2, closed_forms: false)",
        "\"epa\"",
        "",
    );
    assert_eq!(capped.settings.epa.max_iterations, 2);
    // Only what the scene names changed.
    assert_eq!(
        capped.settings.epa.tolerance,
        SolverSettings::default().epa.tolerance
    );
    let run = capped.run(Method::epa());
    assert!(
        matches!(run.summary.outcome, Outcome::IterationCap { .. }),
        "{}",
        run.summary.outcome
    );
    assert_eq!(run.summary.iterations, 2);

    let lp = scene_with("lp: (max_pivots: Some(1))", "\"lp\"", "");
    let run = lp.run("lp".parse::<Method>().unwrap());
    assert!(
        matches!(run.summary.outcome, Outcome::PivotCap { pivots: 1 }),
        "{}",
        run.summary.outcome
    );
    let bland = scene_with("lp: (pivot_rule: SmallestIndex)", "\"lp\"", "");
    assert_eq!(bland.settings.lp.pivot_rule, TieRule::SmallestIndex);
    assert_eq!(
        bland.run("lp".parse::<Method>().unwrap()).summary.outcome,
        Outcome::Intersecting
    );

    let moving = ", velocity: Some((-3.0, 0.0, 0.0))";
    let far = |settings: &str| scene_at(2.5, settings, "\"toi_halving\"", moving);
    let halving: Method = "toi_halving".parse().unwrap();
    let Outcome::Impact { .. } = far("").run(halving).summary.outcome else {
        panic!("{}", far("").run(halving).summary.outcome);
    };
    // Two boxes: the separating axes swept answer at once, unless the scene asks for
    // the method's own steps.
    assert_eq!(far("").run(halving).summary.iterations, 0);
    let run = far("toi: (max_iterations: 3, closed_forms: false)").run(halving);
    assert!(
        matches!(run.summary.outcome, Outcome::IterationCap { .. }),
        "{}",
        run.summary.outcome
    );

    let ip = scene_at(
        2.5,
        "interior_point: (max_iterations: 2)",
        "\"interior_point\"",
        "",
    );
    let run = ip.run(Method::interior_point());
    assert!(
        matches!(run.summary.outcome, Outcome::IterationCap { .. }),
        "{}",
        run.summary.outcome
    );
}

#[test]
fn a_scene_writes_only_the_settings_it_changes() {
    let plain = scene_with("", "\"gjk\"", "").to_file().to_ron().unwrap();
    for family in ["epa:", "toi:", "interior_point:", "lp:", "supports:"] {
        assert!(
            !plain.contains(family),
            "{family} written by default:\n{plain}"
        );
    }
    let changed = scene_with(
        "epa: (tolerance: 1e-12), lp: (pivot_rule: KreuzerAsWritten)",
        "\"gjk\"",
        "",
    );
    let text = changed.to_file().to_ron().unwrap();
    let again = Scene::parse(Path::new("again.ron"), &text).unwrap();
    assert_eq!(again.settings, changed.settings);
    assert_eq!(again.settings.epa.tolerance, 1e-12);
    assert_eq!(again.settings.lp.pivot_rule, TieRule::KreuzerAsWritten);
}

#[test]
fn a_bad_family_setting_is_refused_by_name() {
    let text = |settings: &str| {
        format!(
            "Scene(version: 2, name: \"bad\", dimension: Spatial, bodies: [
        Body(shape: Sphere(radius: 1.0), translation: (0.0, 0.0, 0.0), rotation: EulerDegrees((0.0, 0.0, 0.0))),
        Body(shape: Sphere(radius: 1.0), translation: (3.0, 0.0, 0.0), rotation: EulerDegrees((0.0, 0.0, 0.0))),
    ], pairs: [(0, 1)], algorithms: [\"epa\"], settings: Settings({settings}))"
        )
    };
    let path = Path::new("bad.ron");
    let typo = Scene::parse(path, &text("epa: (tolerence: 1e-9)"))
        .unwrap_err()
        .to_string();
    assert!(
        typo.contains("tolerence") && typo.contains("bad.ron"),
        "{typo}"
    );
    let negative = Scene::parse(path, &text("toi: (time_tolerance: -1.0)"))
        .unwrap_err()
        .to_string();
    assert!(negative.contains("toi.time_tolerance"), "{negative}");
    let zero = Scene::parse(path, &text("interior_point: (max_iterations: 0)"))
        .unwrap_err()
        .to_string();
    assert!(zero.contains("interior_point.max_iterations"), "{zero}");
}

#[test]
fn the_command_lines_assignments_name_what_they_set() {
    let s = SolverSettings::default();
    let set = s.with_assignment("epa.tolerance=1e-12").unwrap();
    assert_eq!(set.epa.tolerance, 1e-12);
    assert_eq!(set.toi, s.toi);
    let rule = s.with_assignment("lp.pivot_rule=SmallestIndex").unwrap();
    assert_eq!(rule.lp.pivot_rule, TieRule::SmallestIndex);
    let cap = s.with_assignment("lp.max_pivots=40").unwrap();
    assert_eq!(cap.lp.max_pivots, Some(40));
    assert_eq!(
        s.with_assignment("criterion=DualityGap").unwrap().criterion,
        collidescope::solver::Criterion::DualityGap
    );
    let unknown = s.with_assignment("epa.tolerence=1").unwrap_err();
    assert!(
        unknown.contains("no such setting") && unknown.contains("epa.tolerance"),
        "{unknown}"
    );
    let wrong = s.with_assignment("epa.max_iterations=many").unwrap_err();
    assert!(wrong.contains("epa.max_iterations"), "{wrong}");
    let invalid = s.with_assignment("toi.contact_tolerance=0").unwrap_err();
    assert!(invalid.contains("toi.contact_tolerance"), "{invalid}");
    assert!(s.with_assignment("no equals sign").is_err());
}

#[test]
fn problem_files_set_the_families_too() {
    let text = r#"{
        "tolerance": 1e-8, "criterion": "duality_gap_absolute", "max_iterations": 1000,
        "epa": {"max_iterations": 1, "closed_forms": false},
        "shapes": [{"box": [0.5, 0.5, 0.5]}, {"box": [0.5, 0.4, 0.3]}],
        "problems": [{"a": 0, "b": 1,
            "b_rotation": [[1, 0, 0], [0, 1, 0], [0, 0, 1]],
            "b_translation": [0.6, 0.2, 0.1], "target_distance": -0.4}]
    }"#;
    let dir = std::env::temp_dir().join(format!("family-settings-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("problems.json");
    std::fs::write(&path, text).unwrap();
    let file = ProblemFile::load(&path).unwrap();
    assert_eq!(file.settings().unwrap().epa.max_iterations, 1);
    let results =
        run_problems(&file, false, TetrahedronRule::RegionTree, &[Method::epa()]).unwrap();
    assert_eq!(results[0].algorithms["epa"].status, "iteration_cap");
    std::fs::remove_dir_all(&dir).ok();
}
