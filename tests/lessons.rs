//! The shipped lessons (`scenes/lessons/`) say what the solvers do: every step's
//! iteration count and narration, computed as the viewer's lesson player shows them,
//! equal the step's `expect`. A solver change that changes a lesson fails here, and the
//! lesson is revised on purpose (`collidescope lesson FILE` prints the new values).
#![cfg(feature = "app")]

mod common;

use std::path::Path;

use collidescope::app::lesson::transcript;
use collidescope::scene::Scene;

fn lessons_dir() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("scenes/lessons")
}

/// Every lesson file of the folder (the course file aside).
fn lesson_files() -> Vec<std::path::PathBuf> {
    let mut files: Vec<_> = std::fs::read_dir(lessons_dir())
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "ron"))
        .filter(|p| !p.ends_with(collidescope::scene::COURSE_FILE))
        .collect();
    files.sort();
    files
}

/// The course (the lesson menu's order) names every lesson of the folder once, and
/// the lecture path is the one docs/teaching.md gives.
#[test]
fn the_course_names_every_lesson_once() {
    use collidescope::scene::Course;
    let course = Course::load(&lessons_dir()).unwrap();
    let mut named: Vec<_> = course
        .files(&lessons_dir())
        .into_iter()
        .map(|(_, p)| p)
        .collect();
    named.sort();
    assert_eq!(
        named,
        lesson_files(),
        "lessons missing from course.ron or not in the folder"
    );
    let teaching =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/teaching.md"))
            .unwrap();
    for path in &course.paths {
        let numbers: Vec<&str> = path
            .lessons
            .iter()
            .map(|stem| stem.split('_').next().unwrap().trim_start_matches('0'))
            .collect();
        let noun = if numbers.len() == 1 {
            "lesson"
        } else {
            "lessons"
        };
        let line = format!("{}: {noun} {}", path.name, numbers.join(", "));
        assert!(
            teaching.contains(&line),
            "docs/teaching.md should say \"{line}\""
        );
    }
}

#[test]
fn every_lesson_step_shows_what_it_says() {
    let files = lesson_files();
    assert!(files.len() >= 10, "{} lessons", files.len());
    for path in files {
        let scene = Scene::load(&path).unwrap();
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        assert!(!scene.lesson.is_empty(), "{name}: no steps");
        let steps = scene.lesson.clone();
        for (k, (step, shown)) in steps.iter().zip(transcript(scene)).enumerate() {
            let expect = step
                .expect
                .as_ref()
                .unwrap_or_else(|| panic!("{name} step {}: no expect written", k + 1));
            assert_eq!(
                (expect.iterations, expect.narration.as_str()),
                (shown.iterations, shown.narration.as_str()),
                "{name} step {}: the lesson says one thing, the solver another",
                k + 1
            );
        }
    }
}

/// Every lesson ends with questions for the class (each with its answer), and its two
/// worksheets hold what they promise: the student sheet the setup (world coordinates,
/// the rotation convention, the frame, x₀, the tie rule, the stopping test), steps to
/// fill in and the questions, and nothing of the answers; the answer key every run step
/// by step, each question with its answer, and every page's text.
#[test]
fn every_lesson_has_questions_answers_and_worksheets() {
    use collidescope::app::worksheet::worksheets;
    use collidescope::lesson_markup::markdown;
    for path in lesson_files() {
        let scene = Scene::load(&path).unwrap();
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        assert!(
            scene.questions.len() >= 3,
            "{name}: {} questions",
            scene.questions.len()
        );
        assert_eq!(
            scene.answers.len(),
            scene.questions.len(),
            "{name}: an answer per question"
        );
        let sheets = worksheets(scene.clone());
        let (student, key) = (&sheets.student, &sheets.answers);
        assert!(
            student.starts_with(&format!("# {}", markdown(&scene.name))),
            "{name}"
        );
        for part in [
            "## The setup",
            "- **A**: `",
            "EulerDegrees((α, β, γ))",
            "**Frame.**",
            "**First guess.**",
            "**Ties.**",
            "**Stopping test.**",
            "## To compute by hand",
            "________",
            "## Questions",
        ] {
            assert!(
                student.contains(part),
                "{name}: the student sheet has no {part:?}"
            );
        }
        for part in [
            "## The setup",
            "## The runs, every step",
            "1. Step 1:",
            "Result: ",
            "## Answers to the questions",
            "## The lesson, page by page",
        ] {
            assert!(key.contains(part), "{name}: the answer key has no {part:?}");
        }
        for step in &scene.lesson {
            assert!(
                key.contains(&markdown(step.text.trim())),
                "{name}: a page's text is missing from the key"
            );
            assert!(
                !student.contains(&markdown(step.text.trim())),
                "{name}: the student sheet gives a page's text away"
            );
        }
        for (q, a) in scene.questions.iter().zip(&scene.answers) {
            assert!(
                student.contains(&markdown(q)) && key.contains(&markdown(q)),
                "{name}: question missing: {q}"
            );
            assert!(key.contains(&markdown(a)), "{name}: answer missing: {a}");
            assert!(
                !student.contains(&markdown(a)),
                "{name}: the student sheet gives an answer away"
            );
        }
    }
}

/// Numbers a lesson's text may state without its runs printing them: each derived in
/// the text itself, a count of the scene, a version, a year or an equation number.
const STATED_NOT_RUN: &[(&str, &[&str])] = &[
    ("01_minkowski_difference", &["1.2"]), // √(1.2² + 0.2²): the centres' offset
    ("02_support_mappings", &["32"]),      // the hill-climbing threshold (Coal's)
    ("05_frank_wolfe_zigzag", &["2.03e-6"]), // g/(2∥x∥), derived in the text
    ("06_nesterov_ellipsoids", &["25"]),   // Montaut et al.'s eq. 25
    ("07_normalisation_mesh_hulls", &["300"]), // the meshes' vertex count
    ("10_ericson_worked_example", &["2004"]), // the course notes' year
    ("11_stopping_test", &["8.7e-7"]),     // ∥x∥ − α, derived in the text
    ("12_time_of_impact", &["5.048", "5.8e-11", "3.1"]), // the plate's geometry, 2^−34, Box2D 3.1
    ("13_flat_and_touching", &["4.5", "1e-17"]), // the face's place; an example of round-off
    ("14_contact_manifolds", &["0.31"]),   // parry's version
];

/// Numbers a lesson recalls from another lesson's runs: (the lesson, the number, the
/// lesson whose runs print it).
const RECALLED: &[(&str, &str, &str)] =
    &[("09_gjk_as_frank_wolfe", "175", "05_frank_wolfe_zigzag")];

/// The numbers lesson `stem`'s answer key prints: its setup, every run step by step, and
/// what the viewer says on each page.
fn printed_numbers(stem: &str) -> Vec<f64> {
    use collidescope::app::worksheet::worksheets;
    let path = lesson_files()
        .into_iter()
        .find(|p| p.file_stem().is_some_and(|s| s == stem))
        .unwrap_or_else(|| panic!("no lesson {stem}"));
    let key = worksheets(Scene::load(&path).unwrap()).answers;
    let (runs, pages) = key.split_once("## Answers to the questions").unwrap();
    let pages = pages.split_once("## The lesson, page by page").unwrap().1;
    let viewer: String = pages
        .lines()
        .filter(|l| l.starts_with("> The viewer"))
        .collect();
    numbers(&format!("{runs}{viewer}"))
        .into_iter()
        .map(|(_, v)| v)
        .collect()
}

/// Every other number a lesson's text states comes from the runs it shows: it is one of
/// the numbers its answer key prints (the setup, every run step by step, what the viewer
/// says on each page), to the digits the text gives.
#[test]
fn every_number_a_lesson_states_comes_from_its_runs() {
    use collidescope::lesson_markup::plain;
    for path in lesson_files() {
        let scene = Scene::load(&path).unwrap();
        let stem = path.file_stem().unwrap().to_string_lossy().to_string();
        let allowed = STATED_NOT_RUN
            .iter()
            .find(|(s, _)| *s == stem)
            .map_or(&[][..], |(_, a)| *a);
        let own = printed_numbers(&stem);
        for step in &scene.lesson {
            for (token, v) in numbers(&plain(&step.text)) {
                let small_count = v.fract() == 0.0 && v.abs() <= 20.0;
                if small_count || allowed.contains(&token.as_str()) {
                    continue;
                }
                let recalled = RECALLED
                    .iter()
                    .find(|(s, n, _)| *s == stem && *n == token)
                    .map(|(_, _, from)| printed_numbers(from));
                let printed = recalled.as_ref().unwrap_or(&own);
                // Within one unit of the last digit: rounded to nearest, or a bound
                // rounded the safe way.
                let tolerance = last_digit(&token) * 1.0001;
                assert!(
                    printed
                        .iter()
                        .any(|p| (p.abs() - v.abs()).abs() <= tolerance),
                    "{stem}: the text states {token}, which none of its runs prints (in {:?})",
                    step.text
                );
            }
        }
    }
}

/// The numbers of a text with their values.
fn numbers(text: &str) -> Vec<(String, f64)> {
    collidescope::lesson_markup::numbers_in(text)
        .into_iter()
        .filter_map(|(_, token)| token.parse::<f64>().ok().map(|v| (token, v)))
        .collect()
}

/// The value of a number's last written digit (`0.059` → 0.001, `8.7e-7` → 1e-8).
fn last_digit(token: &str) -> f64 {
    let (mantissa, exponent) = token
        .split_once('e')
        .map_or((token, 0), |(m, e)| (m, e.parse::<i32>().unwrap_or(0)));
    let decimals = mantissa.split_once('.').map_or(0, |(_, d)| d.len() as i32);
    10f64.powi(exponent - decimals)
}

/// One notation (docs/teaching.md, "Notation"): no markup reaches the reader raw (every
/// `_` and `^` outside code is a sub- or superscript the viewer renders), supports are
/// s_C(d) and points of A ⊖ B are w, never the old S(d), "A − B" or Montaut's d(k).
#[test]
fn lessons_write_one_notation() {
    use collidescope::lesson_markup::spans;
    for path in lesson_files() {
        let scene = Scene::load(&path).unwrap();
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        let texts = scene
            .lesson
            .iter()
            .map(|s| s.text.clone())
            .chain(scene.questions.clone());
        for text in texts {
            for span in spans(&text).iter().filter(|s| !s.code) {
                assert!(
                    !span.text.contains('_') && !span.text.contains('^'),
                    "{name}: raw markup in {:?} (of {text:?})",
                    span.text
                );
                for old in ["S(", "S_", "A − B", "A−B", "(k)", "(k−1)", "|y|", "|d|"] {
                    assert!(
                        !span.text.contains(old),
                        "{name}: {old:?} is not the lessons' notation (in {text:?})"
                    );
                }
            }
        }
    }
}

/// Lesson 11's warm start, as its "Try it" does: the run after a move of B, started from
/// the previous pose's final simplex. Prints what each small move costs (the lesson's
/// numbers come from here).
#[test]
fn lesson_11_warm_starts_as_its_text_says() {
    use collidescope::app::model::{Side, ViewerModel};
    let path = lessons_dir().join("11_stopping_test.ron");
    let iterations = |model: &ViewerModel| model.focused_run().unwrap().run.summary.iterations;
    let mut counts = Vec::new();
    for (axis, along) in [
        ("x", glam::DVec3::X),
        ("y", glam::DVec3::Y),
        ("z", glam::DVec3::Z),
    ] {
        for sign in [1.0, -1.0] {
            let mut model = ViewerModel::new(Scene::load(&path).unwrap());
            model.solve();
            let cold = iterations(&model);
            model.set_warm_start(true);
            let b = model.side(Side::B);
            let mut pose = model.body(b).pose;
            pose.translation += along * (sign * 1e-4);
            model.set_pose(b, pose).unwrap();
            model.solve();
            let warm = iterations(&model);
            model.set_warm_start(false);
            model.solve();
            let moved_cold = iterations(&model);
            println!(
                "B moved by {:+e} along {axis}: warm {warm}, cold {moved_cold}, first pose {cold}",
                sign * 1e-4
            );
            counts.push((axis, sign, warm, moved_cold, cold));
        }
    }
    // "B moved by 1e-4 along +x: 15 iterations instead of 25; the six moves of 1e-4
    // along an axis take 15 to 19 warm, 24 to 26 cold."
    assert_eq!((counts[0].2, counts[0].3), (15, 25), "{counts:?}");
    assert!(
        counts
            .iter()
            .all(|c| (15..=19).contains(&c.2) && (24..=26).contains(&c.3)),
        "{counts:?}"
    );
}

/// `collidescope lesson FILE --worksheet OUT.md --pdf` writes both sheets as Markdown and
/// as PDF (printed by the system's Chromium, which CI installs; skipped without it).
#[test]
fn worksheets_print_to_pdf() {
    if collidescope::app::worksheet::pdf::chromium().is_none() {
        eprintln!("skipped: no Chromium on this machine to print worksheets with");
        return;
    }
    let dir = common::TempDir::new("worksheet-pdf");
    let out = dir.join("lesson3.md");
    let lesson = lessons_dir().join("03_gjk_two_boxes.ron");
    common::cli_ok(&[
        "lesson",
        lesson.to_str().unwrap(),
        "--worksheet",
        out.to_str().unwrap(),
        "--pdf",
    ]);
    for name in [
        "lesson3.md",
        "lesson3-answers.md",
        "lesson3.pdf",
        "lesson3-answers.pdf",
    ] {
        let bytes = std::fs::read(dir.join(name)).unwrap_or_else(|e| panic!("{name}: {e}"));
        if name.ends_with(".pdf") {
            assert!(
                bytes.starts_with(b"%PDF-") && bytes.len() > 10_000,
                "{name}: {} bytes",
                bytes.len()
            );
        }
    }
}
