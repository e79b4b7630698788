//! One run as work for the class: the student sheet asks for the first few steps with
//! blanks (the first one worked), the answer key gives every step filled in. GJK and
//! Frank-Wolfe steps are asked number by number (the support and its parts, the
//! simplex kept with its weights, the iterate, its norm, the best lower bound); the
//! other families' steps are their narration with every measured number left blank,
//! after the points they work on (EPA's polytope points).

use std::fmt::Write;

use crate::lesson_markup::{markdown, plain};
use crate::solver::distance::DistanceStep;
use crate::solver::epa::EpaTrace;
use crate::solver::Run;

use super::setup::{lower, number, point, upper};

/// How many steps the student sheet asks for (the first of them worked).
pub const ASKED_STEPS: usize = 4;

/// A blank to write in.
const BLANK: &str = "________";

/// `w₃` for id 3.
fn name(letter: &str, id: impl std::fmt::Display) -> String {
    plain(&format!("{letter}_{{{id}}}"))
}

/// The student's part for `run`: the first step worked, the next few blank.
pub fn student(run: &Run, planar: bool) -> String {
    let mut out = String::new();
    let count = run.trace.len();
    let asked = count.min(ASKED_STEPS);
    if let Some(first) = run.trace.distance_step(0) {
        let _ = writeln!(
            out,
            "x₀ = {} (−x₀ is the first direction).\n",
            point(first.direction, planar)
        );
    }
    out.push_str(&epa_points(run, planar, true));
    for i in 0..asked {
        let _ = write!(out, "{}. ", i + 1);
        match run.trace.distance_step(i) {
            Some(step) if i == 0 => out.push_str(&distance_filled(step, (1, 0), planar)),
            Some(step) => {
                let previous = run.trace.distance_step(i - 1);
                let active_set = run.method.family() == crate::solver::frank_wolfe::FAMILY;
                let names = iterate_names(run, i);
                let blank = distance_blank(step, names, previous, active_set, planar);
                out.push_str(&blank)
            }
            None if i == 0 => out.push_str(&run.narrate(i)),
            None => out.push_str(&blank_numbers(&run.narrate(i))),
        }
        out.push_str("\n\n");
    }
    if count > asked {
        let _ = writeln!(
            out,
            "The run goes on for {} steps in all; the answer key has every one.\n",
            count
        );
    }
    markdown(&out)
}

/// The answer key's part for `run`: every step, narrated and filled in.
pub fn answers(run: &Run, planar: bool, ties: &super::ties::TieCheck) -> String {
    let mut out = String::new();
    if let Some(first) = run.trace.distance_step(0) {
        let _ = writeln!(out, "x₀ = {}.\n", point(first.direction, planar));
    }
    out.push_str(&epa_points(run, planar, false));
    for i in 0..run.trace.len() {
        let _ = writeln!(out, "{}. {}", i + 1, run.narrate(i));
        if let Some(step) = run.trace.distance_step(i) {
            let names = iterate_names(run, i);
            let _ = writeln!(out, "   {}", distance_filled(step, names, planar));
            let previous = i.checked_sub(1).and_then(|p| run.trace.distance_step(p));
            let direction = match previous {
                Some(p) if p.x == step.direction => format!("−{}", name("x", names.1)),
                _ if i == 0 => format!("−{}", name("x", 0)),
                _ => "−d".to_string(),
            };
            let last = i + 1 == run.trace.len();
            if let Some(note) = ties.note(step, &direction, last, planar) {
                let _ = writeln!(out, "   {note}");
            }
        }
    }
    out.push('\n');
    out.push_str(&summary(run, planar));
    markdown(&out)
}

/// The run's end: its verdict, iterations and support calls, and the witness points
/// (the point of each shape the answer comes from, A's frame).
fn summary(run: &Run, planar: bool) -> String {
    let s = &run.summary;
    let mut out = format!(
        "Result: {}; {} iterations, {} support calls.",
        s.outcome, s.iterations, s.stats.calls
    );
    if let (Some(a), Some(b)) = (s.witness_a, s.witness_b) {
        let _ = write!(
            out,
            " Witness points: p_A = {} on A, p_B = {} on B.",
            point(a, planar),
            point(b, planar)
        );
    }
    out.push_str("\n\n");
    out
}

/// The names' numbers of step `i`'s iterate and of the iterate its direction came
/// from, as the narration names them ([`DistanceStep::iterate_number`]).
fn iterate_names(run: &Run, i: usize) -> (usize, usize) {
    let named = |j: usize| DistanceStep::iterate_number(j, |p| run.trace.distance_step(p));
    (named(i), i.checked_sub(1).map_or(0, named))
}

/// A step with every number given; `(step_number, previous_k)` name its iterate and
/// the one its direction came from.
fn distance_filled(
    step: &DistanceStep,
    (step_number, previous_k): (usize, usize),
    planar: bool,
) -> String {
    let mut line = String::new();
    if let Some(s) = &step.support {
        let p = &s.point;
        let _ = write!(
            line,
            "{} = {} = a {} − b {}; ",
            name("w", s.id),
            point(p.w, planar),
            point(p.a, planar),
            point(p.b, planar)
        );
    }
    let kept: Vec<String> = (step.simplex.iter())
        .map(|v| format!("{} × {}", name("w", v.id), number(v.weight)))
        .collect();
    if !kept.is_empty() {
        let _ = write!(line, "kept with weights {{{}}}; ", kept.join(", "));
    }
    // The step's gap is measured at the iterate it started from, with its own support.
    let gap = step.criteria.duality_gap;
    if let (true, Some(s)) = (gap.is_finite(), &step.support) {
        let (x, w) = (name("x", previous_k), name("w", s.id));
        let _ = write!(line, "g = 2⟨{x}, {x} − {w}⟩ = {}; ", number(gap));
    }
    // ∥x∥ bounds the distance from above and α from below: printed the safe way, as
    // the narration prints them.
    let _ = write!(
        line,
        "{} = {}, ∥{}∥ = {}; α = {}",
        name("x", step_number),
        point(step.x, planar),
        name("x", step_number),
        upper(step.x_norm),
        lower(step.alpha)
    );
    line
}

/// A distance step with blanks for what the student computes. The direction is named
/// when it is the last iterate (GJK, Frank-Wolfe) and given when momentum made it.
fn distance_blank(
    step: &DistanceStep,
    (step_number, previous_k): (usize, usize),
    previous: Option<&DistanceStep>,
    active_set: bool,
    planar: bool,
) -> String {
    let k = step_number;
    // Frank-Wolfe keeps the points it moved toward (its active set), GJK a simplex.
    let kept = if active_set {
        "active points and their weights"
    } else {
        "vertices kept and their weights"
    };
    let (along, given) = match previous {
        Some(p) if p.x == step.direction => (name("x", previous_k), String::new()),
        _ => (
            "d".to_string(),
            format!("d = {}: ", point(step.direction, planar)),
        ),
    };
    let support = match &step.support {
        Some(s) => format!(
            "{given}{} = s_A(−{along}) − s_B({along}) = {BLANK} − {BLANK} = {BLANK}; ",
            name("w", s.id),
        ),
        None => given,
    };
    format!(
        "{support}{kept} {BLANK}; {} = {BLANK}, ∥{}∥ = {BLANK}; α = {BLANK}",
        name("x", k),
        name("x", k)
    )
}

/// EPA's points: the polytope's corners as the run has them (GJK's simplex and every
/// support EPA added), so a student can find the nearest face by hand. On the student
/// sheet only the starting polytope (its first four points).
fn epa_points(run: &Run, planar: bool, student: bool) -> String {
    let Some(trace) = run.trace.get::<EpaTrace>() else {
        return String::new();
    };
    let shown = if student {
        trace.points.len().min(4)
    } else {
        trace.points.len()
    };
    let mut out = String::from("The polytope's points (w = a − b):\n\n");
    for (i, p) in trace.points.iter().take(shown).enumerate() {
        let _ = writeln!(
            out,
            "- {} = {} = a {} − b {}",
            name("w", i + 1),
            point(p.w, planar),
            point(p.a, planar),
            point(p.b, planar)
        );
    }
    out.push('\n');
    out
}

/// A narration with every measured number (decimals, exponents) replaced by a blank;
/// counts, step numbers and subscripts stay.
pub fn blank_numbers(text: &str) -> String {
    let chars: Vec<char> = text.chars().collect();
    let mut out = String::new();
    let mut at = 0;
    for (range, token) in crate::lesson_markup::numbers_in(text) {
        out.extend(&chars[at..range.start]);
        if token.contains(['.', 'e']) {
            // A sign written before a measured number goes with it.
            if out.ends_with('-') {
                out.pop();
            }
            out.push_str(BLANK);
        } else {
            out.push_str(&token);
        }
        at = range.end;
    }
    out.extend(&chars[at..]);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blanks_hide_measurements_and_keep_counts() {
        let said = "Step 2: face [w₁ w₂ w₅] nearest at 0.227798; the support reaches 0.998294, a gain of 7.705e-1 > ε: expand; 2 faces removed, 4 added (8 faces now); normal (-0.5, 0.25, 1e-3).";
        let b = blank_numbers(said);
        assert!(
            b.starts_with("Step 2: face [w₁ w₂ w₅] nearest at ________;"),
            "{b}"
        );
        assert!(
            !b.contains("0.99") && !b.contains("7.705") && !b.contains("e-1"),
            "{b}"
        );
        assert!(b.contains("2 faces removed, 4 added (8 faces now)"), "{b}");
        assert!(b.contains("normal (________, ________, ________)"), "{b}");
    }
}
