//! The shipped lessons (`scenes/lessons/`) say what the solvers do: every step's
//! iteration count and narration, computed as the viewer's lesson player shows them,
//! equal the step's `expect`. A solver change that changes a lesson fails here, and the
//! lesson is revised on purpose (`collidescope lesson FILE` prints the new values).
#![cfg(feature = "app")]

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

/// Every lesson ends with questions for the class, and its worksheet holds what a
/// student needs to redo it by hand: the shapes' coordinates, every step's text, the
/// runs narrated step by step (the support points and distances), and the questions.
#[test]
fn every_lesson_has_questions_and_a_worksheet() {
    use collidescope::app::worksheet::worksheet;
    for path in lesson_files() {
        let scene = Scene::load(&path).unwrap();
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        assert!(
            scene.questions.len() >= 3,
            "{name}: {} questions",
            scene.questions.len()
        );
        let sheet = worksheet(scene.clone());
        assert!(sheet.starts_with(&format!("# {}", scene.name)), "{name}");
        assert!(
            sheet.contains("## The shapes\n\n- A: `"),
            "{name}: no shapes"
        );
        for step in &scene.lesson {
            assert!(
                sheet.contains(step.text.trim()),
                "{name}: a step's text is missing"
            );
        }
        assert!(
            sheet.contains("## The runs, to redo by hand"),
            "{name}: no runs"
        );
        assert!(
            sheet.contains("1. Step 1:"),
            "{name}: the run's first step is not narrated"
        );
        for q in &scene.questions {
            assert!(sheet.contains(q.as_str()), "{name}: question missing: {q}");
        }
    }
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
