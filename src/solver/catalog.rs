//! The one table of methods: for each, its name on the command line and in files, its
//! label in panels and legends, its colour in plots, and its family (which decides the
//! record type, the drawing and the narration). Everything that lists methods reads it.

use super::{Algorithm, DirectionRule, Method, StepRule};

/// Families of methods: each has its own record type and its own drawing.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Family {
    /// GJK and its accelerated variants: distance on simplices.
    Gjk,
    /// Frank-Wolfe with its step rules: distance on active sets.
    FrankWolfe,
    /// EPA: penetration depth on a polytope grown inside `A ⊖ B`.
    Epa,
}

/// One row of the table.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MethodInfo {
    pub method: Method,
    pub name: &'static str,
    pub label: &'static str,
    /// sRGB, distinct across the table (matplotlib's tab10 order, then more).
    pub colour: [u8; 3],
    pub family: Family,
}

const fn gjk(
    rule: DirectionRule,
    name: &'static str,
    label: &'static str,
    colour: [u8; 3],
) -> MethodInfo {
    MethodInfo {
        method: Method::Solver(Algorithm::Gjk(rule)),
        name,
        label,
        colour,
        family: Family::Gjk,
    }
}

const fn fw(
    rule: StepRule,
    name: &'static str,
    label: &'static str,
    colour: [u8; 3],
) -> MethodInfo {
    MethodInfo {
        method: Method::Solver(Algorithm::FrankWolfe(rule)),
        name,
        label,
        colour,
        family: Family::FrankWolfe,
    }
}

/// Every method, in the order panels and help texts list them.
pub const CATALOG: [MethodInfo; 9] = [
    gjk(DirectionRule::Vanilla, "gjk", "GJK", [31, 119, 180]),
    gjk(
        DirectionRule::Nesterov,
        "nesterov",
        "Nesterov",
        [214, 39, 40],
    ),
    gjk(
        DirectionRule::NesterovNormalized,
        "nesterov_normalized",
        "Nesterov + normalisation",
        [148, 103, 189],
    ),
    gjk(DirectionRule::Polyak, "polyak", "Polyak", [44, 160, 44]),
    fw(
        StepRule::Fixed,
        "fw_fixed",
        "FW, step 2/(k+2)",
        [140, 86, 75],
    ),
    fw(
        StepRule::LineSearch,
        "fw_linesearch",
        "FW, line search",
        [255, 127, 14],
    ),
    fw(
        StepRule::AwayStep,
        "fw_away",
        "FW, away steps",
        [227, 119, 194],
    ),
    fw(
        StepRule::FullyCorrective,
        "fw_fully_corrective",
        "FW, fully corrective",
        [23, 190, 207],
    ),
    MethodInfo {
        method: Method::Epa,
        name: "epa",
        label: "EPA (penetration depth)",
        colour: [188, 189, 34],
        family: Family::Epa,
    },
];

/// The table's row for `method` (every method has one).
pub fn info(method: Method) -> &'static MethodInfo {
    CATALOG
        .iter()
        .find(|row| row.method == method)
        .unwrap_or(&CATALOG[0])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_method_has_one_row_with_a_distinct_name_and_colour() {
        for m in Method::all() {
            assert_eq!(CATALOG.iter().filter(|r| r.method == m).count(), 1, "{m:?}");
        }
        for (i, a) in CATALOG.iter().enumerate() {
            for b in &CATALOG[i + 1..] {
                assert_ne!(a.name, b.name);
                assert_ne!(a.colour, b.colour);
            }
        }
    }
}
