//! One sentence per step, in words a student understands, one file per family (its
//! `narrate.rs`, beside the family's steps and records): what was added, which feature
//! is nearest the origin, what was dropped and why (GJK, Frank-Wolfe); which face is
//! nearest and what the expansion changed (EPA). Plain text: the viewer, the lessons'
//! transcripts and the worksheets all say the same.

use super::{epa, frank_wolfe, gjk, interior_point, lp, toi};
use crate::solver::trace::Trace;
use crate::solver::{FrankWolfeEvent, GjkEvent, Run};

/// Says what record `index` of `run` did (or, with no records, how the run ended).
pub fn narrate(run: &Run, index: usize) -> String {
    let name = run.method.name();
    // A distance run that ends on its stopping test (or round-off) ends with its
    // verdict: the test alone proves neither separation nor overlap.
    let verdict = |stops_on_test: bool, line: String| {
        if stops_on_test {
            format!("{line} Verdict: {}.", run.summary.outcome)
        } else {
            line
        }
    };
    match &run.trace {
        Trace::Gjk(records) => records.get(index).map_or_else(
            || no_steps(run),
            |r| {
                let ends = matches!(
                    r.event,
                    GjkEvent::Converged | GjkEvent::WithinTolerance | GjkEvent::Stalled
                );
                verdict(
                    ends && index + 1 == records.len(),
                    gjk::narrate::narrate(name, r, index),
                )
            },
        ),
        Trace::FrankWolfe(records) => records.get(index).map_or_else(
            || no_steps(run),
            |r| {
                let ends = matches!(
                    r.event,
                    FrankWolfeEvent::Converged | FrankWolfeEvent::WithinTolerance
                );
                let line = frank_wolfe::narrate::narrate(name, r, index);
                verdict(ends && index + 1 == records.len(), line)
            },
        ),
        Trace::Epa(trace) => epa::narrate::narrate(run, trace, index),
        Trace::TimeOfImpact(records) => toi::narrate::narrate(run, records, index),
        Trace::Lp(records) => lp::narrate::narrate(run, records, index),
        Trace::InteriorPoint(records) => interior_point::narrate::narrate(run, records, index),
    }
}

fn no_steps(run: &Run) -> String {
    format!("No steps recorded. Result: {}.", run.summary.outcome)
}

pub fn subscript(n: usize) -> String {
    const DIGITS: [char; 10] = ['₀', '₁', '₂', '₃', '₄', '₅', '₆', '₇', '₈', '₉'];
    n.to_string()
        .chars()
        .map(|c| DIGITS[c.to_digit(10).unwrap_or(0) as usize])
        .collect()
}

pub fn labels(ids: &[u32]) -> String {
    ids.iter()
        .map(|i| format!("w{}", subscript(*i as usize)))
        .collect::<Vec<_>>()
        .join(" ")
}

pub fn and_list(ids: &[u32]) -> String {
    let names: Vec<String> = ids
        .iter()
        .map(|i| format!("w{}", subscript(*i as usize)))
        .collect();
    match names.len() {
        0 => String::new(),
        1 => names[0].clone(),
        n => format!("{} and {}", names[..n - 1].join(", "), names[n - 1]),
    }
}
