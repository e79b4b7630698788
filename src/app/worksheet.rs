//! A lesson's printable worksheet (`collidescope lesson FILE --worksheet OUT.md`): the
//! shapes' coordinates, each step's text and what the viewer says there, every run the
//! lesson shows narrated step by step (the numbers a student redoes by hand), and the
//! questions for the class. Markdown: print it as it is, or turn it into a PDF with any
//! Markdown tool.

use crate::printed_bound::Above;
use std::fmt::Write;

use glam::DVec3;

use crate::scene::Scene;
use crate::solver::distance::DistanceStep;

use super::lesson::{questions_text, replay};

/// The worksheet of `scene`'s lesson.
pub fn worksheet(scene: Scene) -> String {
    let mut out = format!("# {}\n\n", scene.name);
    if !scene.notes.trim().is_empty() {
        let _ = writeln!(out, "{}\n", scene.notes.trim());
    }
    out.push_str("## The shapes\n\n");
    let file = scene.to_file();
    for (k, body) in file.bodies.iter().enumerate() {
        let name = match k {
            0..26 => ((b'A' + k as u8) as char).to_string(),
            _ => format!("body {k}"),
        };
        let shape = ron::to_string(&body.shape).unwrap_or_default();
        let rotation = ron::to_string(&body.rotation).unwrap_or_default();
        let _ = write!(
            out,
            "- {name}: `{shape}`, centre at ({}, {}, {}), rotation `{rotation}`",
            body.translation[0], body.translation[1], body.translation[2]
        );
        if let Some(v) = body.velocity {
            let _ = write!(
                out,
                ", moving by ({}, {}, {}) over t ∈ [0, 1]",
                v[0], v[1], v[2]
            );
        }
        out.push('\n');
    }
    let questions = scene.questions.clone();
    let mut steps = String::new();
    let mut runs = String::new();
    // Each run the lesson focuses (a method on a pair) is narrated once, whole.
    let mut seen: Vec<(String, (usize, usize))> = Vec::new();
    let mut number = 0;
    replay(scene, |step, model, cursor| {
        number += 1;
        let _ = writeln!(steps, "\n### Page {number}\n\n{}", step.text.trim());
        let Some(run) = model.focused_run().map(|r| &r.run) else {
            return;
        };
        if step.narration {
            let label = run.method.label();
            let said = run.narrate(cursor);
            let _ = writeln!(
                steps,
                "\n> The viewer, at {label} step {}: {said}",
                cursor + 1
            );
        }
        let key = (run.method.name().to_string(), model.scene.pairs[0]);
        if seen.contains(&key) || run.trace.is_empty() {
            return;
        }
        seen.push(key);
        let (label, count) = (run.method.label(), run.trace.len());
        let _ = writeln!(runs, "\n### {label} ({count} steps)\n");
        let planar = model.scene.dimension == crate::scene::Dimension::Planar;
        for i in 0..count {
            let _ = writeln!(runs, "{}. {}", i + 1, run.narrate(i));
            if let Some(step) = run.trace.distance_step(i) {
                let _ = writeln!(runs, "{}", step_numbers(step, planar));
            }
        }
    });
    out.push_str("\n## The lesson, step by step\n");
    out.push_str(&steps);
    if !runs.is_empty() {
        out.push_str("\n## The runs, to redo by hand\n");
        out.push_str(&runs);
    }
    if !questions.is_empty() {
        let heading = "## Questions for the class\n";
        let text = questions_text(&questions).replacen("**Questions for the class**", heading, 1);
        let _ = writeln!(out, "\n{text}");
    }
    out
}

/// A distance step's numbers to check by hand: the support point and its parts on A
/// and B, the simplex kept with its weights, the iterate and its norm (2-D in the
/// planar mode).
fn step_numbers(step: &DistanceStep, planar: bool) -> String {
    let v = |p: DVec3| {
        if planar {
            format!("({:.4}, {:.4})", p.x, p.y)
        } else {
            format!("({:.4}, {:.4}, {:.4})", p.x, p.y, p.z)
        }
    };
    let mut line = String::from("   ");
    if let Some(s) = &step.support {
        let p = &s.point;
        let _ = write!(line, " w = {} = a {} − b {};", v(p.w), v(p.a), v(p.b));
    }
    let kept: Vec<String> = (step.simplex.iter())
        .map(|s| format!("{} × {:.4}", v(s.point.w), s.weight))
        .collect();
    if !kept.is_empty() {
        let _ = write!(line, " simplex {{{}}};", kept.join(", "));
    }
    let _ = write!(line, " x = {}, ∥x∥ = {:.6}", v(step.x), Above(step.x_norm));
    line
}
