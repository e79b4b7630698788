//! What each step of a contact manifold's construction did, in words: the viewer, the
//! CLI's transcript and the lessons share these sentences.

use super::record::{ContactEvent, ContactRecord};
use super::{ContactExtras, Reference};
use crate::solver::family::RunView;

pub fn narrate(run: RunView<'_>, records: &[ContactRecord], index: usize) -> String {
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
        ContactEvent::Normal => format!(
            "The normal ({:.4}, {:.4}, {:.4}), from A towards B, comes from the pair's certified \
             answer ({}): moving B along it by the depth parts the shapes.",
            n.x, n.y, n.z, m.outcome
        ),
        ContactEvent::Features => {
            let reference = match m.reference {
                Reference::A => format!("A's {} is the reference face", m.feature_a.word()),
                Reference::B => format!("B's {} is the reference face", m.feature_b.word()),
                Reference::None => "neither is a face of three or more corners, so the manifold \
                                    is the normal's own point pair (Jolt's fallback)"
                    .to_string(),
            };
            format!(
                "Along the normal A's support set is {} ({} corners) and B's, against it, {} ({} \
                 corners): {reference}.",
                m.feature_a.word(),
                m.feature_a.corners().len(),
                m.feature_b.word(),
                m.feature_b.corners().len()
            )
        }
        ContactEvent::Clip => {
            let cut = records[..=index]
                .iter()
                .filter(|x| x.event == ContactEvent::Clip)
                .count();
            format!(
                "Side plane {cut} of the reference face (Sutherland–Hodgman) cuts the incident \
                 feature: {} corners are left.",
                r.points.len()
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
        ContactEvent::Certify => match &m.uncertified {
            None => format!(
                "All {} points are certified: each lies on both shapes (GJK from the point), in \
                 the band of each shape's support plane, and no deeper than the certified depth.",
                m.points.len()
            ),
            Some(why) => format!("The manifold is not certified: {why}."),
        },
    }
}
