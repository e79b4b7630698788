//! The SRDF's `<disable_collisions link1=".." link2=".." reason=".."/>` pairs (MoveIt's
//! allowed-collision entries). Entries naming links the URDF lacks are skipped with a
//! warning, as MoveIt does.

use std::path::Path;

/// A disabled pair by link names, with the SRDF's reason.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DisabledPair {
    pub link1: String,
    pub link2: String,
    pub reason: String,
}

/// Reads the disabled pairs of `path`; `known` says which link names exist.
pub fn read_disabled_pairs(
    path: &Path,
    known: impl Fn(&str) -> bool,
) -> Result<(Vec<DisabledPair>, Vec<String>), String> {
    let file = path.display();
    let text = std::fs::read_to_string(path).map_err(|e| format!("{file}: cannot read: {e}"))?;
    let doc = roxmltree::Document::parse(&text).map_err(|e| format!("{file}: not XML: {e}"))?;
    let (mut pairs, mut warnings) = (Vec::new(), Vec::new());
    for node in doc
        .descendants()
        .filter(|n| n.has_tag_name("disable_collisions"))
    {
        let (Some(a), Some(b)) = (node.attribute("link1"), node.attribute("link2")) else {
            let line = doc.text_pos_at(node.range().start).row;
            return Err(format!(
                "{file}:{line}: disable_collisions needs link1 and link2"
            ));
        };
        if !known(a) || !known(b) {
            let missing = if known(a) { b } else { a };
            warnings.push(format!(
                "{file}: disable_collisions names {missing}, which the URDF does not have: ignored"
            ));
            continue;
        }
        pairs.push(DisabledPair {
            link1: a.to_string(),
            link2: b.to_string(),
            reason: node.attribute("reason").unwrap_or("").to_string(),
        });
    }
    Ok((pairs, warnings))
}

/// The disabled pairs of `path` for `model` (names checked against its links), with the
/// warnings for entries it skipped.
pub fn disabled_pairs_for(
    model: &super::RobotModel,
    path: &Path,
) -> Result<(Vec<DisabledPair>, Vec<String>), String> {
    read_disabled_pairs(path, |name| model.link_names.iter().any(|l| l == name))
}
