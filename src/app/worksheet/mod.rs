//! A lesson's worksheets (`collidescope lesson FILE --worksheet OUT.md [--pdf]`): a
//! student sheet (the setup in world coordinates with the rotation convention, x₀, the
//! tie rule and the stopping test; each run's first steps to compute, the first worked
//! and the rest blank; the questions with room to answer) and a separate answer key
//! (the same setup, every run step by step with its numbers, each question's answer,
//! and the lesson page by page with what the viewer says there). Markdown, and PDF
//! through the system's Chromium.

mod exercises;
pub mod pdf;
mod setup;
mod ties;

use std::fmt::Write;

use crate::lesson_markup::markdown;
use crate::scene::{Dimension, Scene};
use crate::solver::Run;

use super::lesson::replay;

pub use exercises::{blank_numbers, ASKED_STEPS};
pub use setup::number;

/// The two sheets of one lesson.
#[derive(Clone, Debug)]
pub struct Worksheets {
    pub student: String,
    pub answers: String,
}

/// Every run a lesson focuses (a method on a pair), once each, in the order the
/// lesson first shows them; and each page's text with what the viewer says there.
struct Replayed {
    runs: Vec<(String, Run, ties::TieCheck)>,
    pages: String,
}

fn replayed(scene: Scene) -> Replayed {
    let mut runs: Vec<(String, Run, ties::TieCheck)> = Vec::new();
    let mut keys: Vec<(String, (usize, usize))> = Vec::new();
    let mut pages = String::new();
    let mut number = 0;
    replay(scene, |step, model, cursor| {
        number += 1;
        let _ = writeln!(
            pages,
            "\n### Page {number}\n\n{}",
            markdown(step.text.trim())
        );
        let Some(run) = model.focused_run().map(|r| &r.run) else {
            return;
        };
        if step.narration {
            let _ = writeln!(
                pages,
                "\n> The viewer, at {} step {}: {}",
                run.method.label(),
                cursor + 1,
                run.narrate(cursor)
            );
        }
        let key = (run.method.name().to_string(), model.scene.pairs[0]);
        if keys.contains(&key) || run.trace.is_empty() {
            return;
        }
        keys.push(key);
        let title = format!("{} on {}", run.method.label(), pair_name(model));
        let ties = ties::TieCheck::new(&model.scene, model.scene.pairs[0]);
        runs.push((title, run.clone(), ties));
    });
    Replayed { runs, pages }
}

/// "A and B", or the pair's bodies by name in a scene of more.
fn pair_name(model: &super::model::ViewerModel) -> String {
    let (a, b) = model.scene.pairs[0];
    let label = |i: usize| {
        model.scene.bodies[i]
            .name
            .clone()
            .unwrap_or_else(|| setup::body_name(i))
    };
    format!("{} and {}", label(a), label(b))
}

/// Both sheets of `scene`'s lesson.
pub fn worksheets(scene: Scene) -> Worksheets {
    let planar = scene.dimension == Dimension::Planar;
    let head = |what: &str| {
        let mut out = format!("# {} · {what}\n\n", markdown(&scene.name));
        out.push_str(&markdown(&setup::setup(&scene)));
        out
    };
    let (mut student, mut answers) = (head("student sheet"), head("answer key"));
    let questions = scene.questions.clone();
    let written = scene.answers.clone();
    let Replayed { runs, pages } = replayed(scene);

    student.push_str("## To compute by hand\n\n");
    let _ = writeln!(
        student,
        "For each run: the first step is worked for you; fill in the blanks of the next \
         ones (up to {ASKED_STEPS} steps). Keep four decimals.\n"
    );
    answers.push_str("## The runs, every step\n\n");
    for (title, run, ties) in &runs {
        let count = run.trace.len();
        let _ = writeln!(
            student,
            "### {title}\n\n{}",
            exercises::student(run, planar)
        );
        let _ = writeln!(
            answers,
            "### {title} ({count} steps)\n\n{}",
            exercises::answers(run, planar, ties)
        );
    }

    if !questions.is_empty() {
        student.push_str("## Questions\n\n");
        answers.push_str("## Answers to the questions\n\n");
        for (k, q) in questions.iter().enumerate() {
            let _ = writeln!(
                student,
                "{}. {}\n\n   &nbsp;\n\n   &nbsp;\n",
                k + 1,
                markdown(q)
            );
            let answer = written
                .get(k)
                .map_or("(no answer written in the lesson file)".to_string(), |a| {
                    markdown(a)
                });
            let _ = writeln!(
                answers,
                "{}. {}\n\n   **Answer.** {answer}\n",
                k + 1,
                markdown(q)
            );
        }
    }
    answers.push_str("## The lesson, page by page\n");
    answers.push_str(&pages);
    Worksheets { student, answers }
}

/// Where the answer key goes beside the student sheet `out` (`x.md` → `x-answers.md`).
pub fn answers_path(out: &std::path::Path) -> std::path::PathBuf {
    let stem = out.file_stem().unwrap_or_default().to_string_lossy();
    let ext = out
        .extension()
        .map_or(String::new(), |e| format!(".{}", e.to_string_lossy()));
    out.with_file_name(format!("{stem}-answers{ext}"))
}
