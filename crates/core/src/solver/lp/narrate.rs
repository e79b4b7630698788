//! The LP test's steps in words: which variable entered and which left (Bland's rule:
//! the first column that lowers the objective), how far the objective fell, and how far
//! apart the weights' points on A and B still are; for containment, each vertex.

use crate::printed_bound::Above;
use crate::solver::family::RunView;
use crate::solver::lp::{LpEvent, LpRecord};

/// Says what record `index` of an LP run did.
pub fn narrate(run: RunView<'_>, records: &[LpRecord], index: usize) -> String {
    let Some(r) = records.get(index) else {
        return format!("No pivot was needed. Result: {}.", run.summary.outcome);
    };
    let step = index + 1;
    let last = index + 1 == records.len();
    let end = if last {
        format!(" Result: {}.", run.summary.outcome)
    } else {
        String::new()
    };
    match &r.event {
        LpEvent::Pivot {
            entering,
            leaving,
            ties,
            plain_bland,
        } => {
            let tie = if *ties > 1 && *plain_bland {
                format!(" ({ties} rows tied for the ratio: a basis came back earlier, so plain Bland's smallest index chose, which cannot cycle)")
            } else if *ties > 1 {
                format!(" ({ties} rows tied for the ratio: the largest pivot element chose)")
            } else {
                String::new()
            };
            format!(
                "Pivot {step}: {entering} enters (Bland: the first column that lowers the objective), {leaving} leaves{tie}; objective {:.3e}, the points on A and B {:.3e} apart.{end}",
                r.objective,
                Above((r.point_a - r.point_b).length())
            )
        }
        LpEvent::Vertex { vertex, inside } => {
            // The last vertex of a run that ends in `contact` is neither: within the
            // test's tolerance of B's boundary, and no exact sign decides.
            let undecided =
                last && matches!(run.summary.outcome, crate::solver::Outcome::Contact { .. });
            let side = if *inside {
                "lies in"
            } else if undecided {
                "lies within round-off of the boundary of"
            } else {
                "lies outside"
            };
            format!("Vertex {vertex} of A {side} B.{end}")
        }
    }
}
