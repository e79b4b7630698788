//! The shipped lessons (`scenes/lessons/`) say what the solvers do: every step's
//! iteration count and narration, computed as the viewer's lesson player shows them,
//! equal the step's `expect`. A solver change that changes a lesson fails here, and the
//! lesson is revised on purpose (`collidescope lesson FILE` prints the new values).
#![cfg(feature = "app")]

use std::path::Path;

use collidescope::app::lesson::transcript;
use collidescope::scene::Scene;

fn lesson_files() -> Vec<std::path::PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("scenes/lessons");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "ron"))
        .collect();
    files.sort();
    files
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
