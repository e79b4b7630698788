//! What each step of a contact manifold's construction did, in words: the viewer, the
//! CLI's transcript and the lessons share these sentences.

use super::record::{ContactEvent, ContactRecord};
use super::{ContactExtras, ContactRule, Reference};
use crate::solver::family::RunView;

pub fn narrate(run: RunView<'_>, records: &[ContactRecord], index: usize) -> String {
    match records.get(index) {
        Some(_) => format!("Step {}: {}", index + 1, sentence(run, records, index)),
        None => sentence(run, records, index),
    }
}

/// What step `index` did, without its number.
fn sentence(run: RunView<'_>, records: &[ContactRecord], index: usize) -> String {
    let Some(r) = records.get(index) else {
        return format!("{}: {}", run.method, run.summary.outcome);
    };
    let manifold = run
        .extras::<ContactExtras>()
        .and_then(|e| e.manifold.as_ref());
    let Some(m) = manifold else {
        return format!(
            "The pair is {}: farther apart than the contact margin (or without a certified \
             normal), so no manifold is built.",
            run.summary.outcome
        );
    };
    let n = m.normal;
    match r.event {
        ContactEvent::Normal => {
            let built = match m.rule {
                ContactRule::Parry if m.checked_along == n && n != m.certified_normal => {
                    let c = m.certified_normal;
                    format!(
                        " parry builds with its own normal ({:.4}, {:.4}, {:.4}), not the certified \
                         one ({:.4}, {:.4}, {:.4}); but A and B overlap along parry's by no more \
                         than the certified depth, a tie for the least overlap (two normals reach \
                         it), so its points are checked against the contact region along its own.",
                        n.x, n.y, n.z, c.x, c.y, c.z
                    )
                }
                ContactRule::Parry => {
                    let c = m.checked_along;
                    format!(
                        " parry builds with its own normal ({:.4}, {:.4}, {:.4}); the certified one, \
                         ({:.4}, {:.4}, {:.4}), is what its points are checked against.",
                        n.x, n.y, n.z, c.x, c.y, c.z
                    )
                }
                ContactRule::CoalPatch => " Coal's patch lies in the plane through the midpoint \
                                           of its point pair, square to it."
                    .to_string(),
                ContactRule::Clipping => String::new(),
            };
            format!(
                "The rule is {}. The normal ({:.4}, {:.4}, {:.4}), from A towards B, comes from \
                 the pair's certified answer ({}): moving B along it by the depth parts the \
                 shapes.{built}",
                m.rule.source(),
                m.certified_normal.x,
                m.certified_normal.y,
                m.certified_normal.z,
                // The run's outcome, with the round-off allowance taken (the
                // manifold's own is before it): the same words as EPA's run.
                run.summary.outcome
            )
        }
        ContactEvent::Features => {
            let (word_a, count_a) = (m.feature_a.word(), m.feature_a.corners().len());
            let (word_b, count_b) = (m.feature_b.word(), m.feature_b.corners().len());
            match m.rule {
                ContactRule::Clipping => {
                    let reference = match m.reference {
                        Reference::A => format!("A's {} is the reference face", m.feature_a.noun()),
                        Reference::B => format!("B's {} is the reference face", m.feature_b.noun()),
                        Reference::None => "neither is a face of three or more corners, so the \
                                            manifold is the normal's own point pair (Jolt's \
                                            fallback)"
                            .to_string(),
                    };
                    format!(
                        "Along the normal A's support set is {word_a} ({}) and B's, against \
                         it, {word_b} ({}): {reference}.",
                        corners(count_a),
                        corners(count_b)
                    )
                }
                ContactRule::CoalPatch => {
                    let clipper = match m.reference {
                        Reference::A => "A's set has at least as many points, so it clips B's",
                        Reference::B => "B's set has more points, so it clips A's",
                        Reference::None => {
                            "with a set of one point, or two segments, nothing \
                                            is clipped"
                        }
                    };
                    format!(
                        "Coal takes every point within its patch tolerance (1e-3) of each \
                         support plane, projected into the patch plane (a rim sampled at 12 \
                         points): A's is {word_a} ({count_a} points), B's {word_b} ({count_b}); \
                         {clipper}."
                    )
                }
                ContactRule::Parry => format!(
                    "parry's polygonal feature maps give, along its normal, {word_a} of A \
                     ({count_a} corners) and {word_b} of B ({count_b}); parry clips them \
                     internally, so only what it hands out is shown next."
                ),
            }
        }
        ContactEvent::Clip => {
            let cut = records[..=index]
                .iter()
                .filter(|x| x.event == ContactEvent::Clip)
                .count();
            match m.rule {
                ContactRule::CoalPatch => format!(
                    "Edge {cut} of the clipping set cuts the other set in the patch plane \
                     (Sutherland–Hodgman, Coal's main loop): {} points are left.",
                    r.points.len()
                ),
                _ => format!(
                    "Side plane {cut} of the reference face (Sutherland–Hodgman) cuts the \
                     incident feature: {} {} left.",
                    corners(r.points.len()),
                    if r.points.len() == 1 { "is" } else { "are" }
                ),
            }
        }
        ContactEvent::Depths if m.rule == ContactRule::CoalPatch => format!(
            "Every one of the patch's {} points has the contact's depth, {:.6e}: its point on A \
             lies half of it behind the patch plane, on B half in front (Coal's \
             getPointShape1/2), whatever the faces' tilt.",
            m.candidates.len(),
            r.deepest
        ),
        ContactEvent::Depths if m.rule == ContactRule::Parry => {
            let far = match m.beyond_margin.len() {
                0 => String::new(),
                k => format!(
                    "; {k} of them are farther apart than the contact margin, yet handed out"
                ),
            };
            format!(
                "parry hands out {} points with their own depths, from {:.6e} to {:.6e}{far}.",
                m.candidates.len(),
                r.shallowest,
                r.deepest
            )
        }
        ContactEvent::Depths => format!(
            "Each clipped point is taken back along the normal to the reference face's plane: \
             {} points, depths from {:.6e} to {:.6e}; {} beyond the margin are dropped.",
            m.candidates.len(),
            r.shallowest,
            r.deepest,
            m.beyond_margin.len()
        ),
        ContactEvent::Reduce => format!(
            "{} points are more than the manifold keeps: Jolt's reduction keeps the point with the \
             largest distance × depth, the furthest from it, and the furthest on either side of \
             the line through them ({} dropped).",
            m.kept.len() + m.reduced_away.len(),
            m.reduced_away.len()
        ),
        ContactEvent::Certify => {
            let verdict = match &m.uncertified {
                None => format!(
                    "All {} points are certified: each lies on both shapes (its distance to \
                     each bounded above: in closed form, through the face it came from, or by \
                     GJK from the point), in the band of each shape's support plane, with its two points \
                     over one spot of the contact region, and no deeper than the certified \
                     depth.",
                    m.points.len()
                ),
                Some(why) => format!("The manifold is not certified: {why}."),
            };
            let notes: String = m.notes.iter().map(|n| format!(" Note: {n}.")).collect();
            format!("{verdict}{notes}")
        }
    }
}

/// "1 corner", "4 corners".
fn corners(n: usize) -> String {
    if n == 1 {
        "1 corner".to_string()
    } else {
        format!("{n} corners")
    }
}
