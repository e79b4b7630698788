//! One sentence per step, in words a student understands, one file per family (its
//! `narrate.rs`, beside the family's steps and records): what was added, which feature
//! is nearest the origin, what was dropped and why (GJK, Frank-Wolfe); which face is
//! nearest and what the expansion changed (EPA). Plain text: the viewer, the lessons'
//! transcripts and the worksheets all say the same.

use crate::solver::family::RunView;

/// A run with no records: how it ended.
pub fn no_steps(run: RunView<'_>) -> String {
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

/// The nearest feature of the kept simplex, as a phrase.
pub fn feature(ids: &[u32]) -> String {
    match ids.len() {
        1 => format!("origin nearest vertex {}", labels(ids)),
        2 => format!("origin nearest edge [{}]", labels(ids)),
        3 => format!("origin nearest face [{}]", labels(ids)),
        _ => format!("simplex [{}]", labels(ids)),
    }
}
