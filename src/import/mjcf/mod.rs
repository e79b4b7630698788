//! MuJoCo models (MJCF XML): every collision geom at the model's initial configuration
//! (the poses the file writes, qpos0) as a body in the world frame, and the geom pairs
//! MuJoCo's collision filter would test, nearest first by their bounding spheres: a
//! MuJoCo user's failing contact opens as the pair in focus, with the rest of the model
//! around it.
//!
//! Read as MuJoCo compiles it: `<compiler angle eulerseq meshdir assetdir>`, `<default>`
//! classes (nested, inherited; a geom's `class`, a body's `childclass`), `<asset>` meshes
//! (files in STL, OBJ or PLY, or inline `vertex` lists; `scale`), `<body>` and `<frame>`
//! poses (`pos` with one of `quat`, `axisangle`, `euler`, `xyaxes`, `zaxis`), geoms by
//! `size` or `fromto`, top-level `<include>`, and `<contact>` `pair` and `exclude`.
//! Candidate pairs follow MuJoCo's filter: geoms of different weld bodies (a body without
//! joints is welded to its parent), not a weld body and its parent's (the world aside),
//! `contype`/`conaffinity` compatible. A plane is a half-space, which GJK cannot take:
//! a slab under every other geom whose top face is the plane stands in for it (distances
//! and depths are the half-space's). Height fields and SDF geoms are left out. The
//! scene's notes say both.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use glam::DVec3;
use roxmltree::{Document, Node};

use crate::scene::BodySpec;

mod settings;
mod walk;

use settings::{read_compiler, read_defaults, read_mesh, Compiler, Defaults};
use walk::{Frame, Pass, Walk};

/// Whether `text` is an MJCF model: its root element is `<mujoco>`.
pub fn looks_like_mjcf(text: &str) -> bool {
    let mut rest = text.trim_start();
    // Skip the XML declaration and comments before the root.
    loop {
        if let Some(after) = rest.strip_prefix("<?") {
            match after.find("?>") {
                Some(end) => rest = after[end + 2..].trim_start(),
                None => return false,
            }
        } else if let Some(after) = rest.strip_prefix("<!--") {
            match after.find("-->") {
                Some(end) => rest = after[end + 3..].trim_start(),
                None => return false,
            }
        } else {
            break;
        }
    }
    rest.strip_prefix("<mujoco")
        .is_some_and(|r| r.starts_with(|c: char| c.is_whitespace() || c == '>' || c == '/'))
}

/// One geom as imported: its name (or its index), type and body, for the notes.
#[derive(Clone, Debug)]
pub struct GeomInfo {
    pub name: String,
    pub kind: String,
    pub body: String,
}

/// A model read: one body per collision geom, the candidate pairs (nearest first), what
/// was left out and why, and what stands in for what.
#[derive(Clone, Debug)]
pub struct MjcfModel {
    pub name: String,
    pub bodies: Vec<BodySpec>,
    pub geoms: Vec<GeomInfo>,
    pub pairs: Vec<(usize, usize)>,
    pub left_out: Vec<String>,
    /// What stands in for a geom GJK cannot take as it is (a plane's slab).
    pub stand_ins: Vec<String>,
}

/// The model's files: the main one and the files it includes (top level), each with
/// the files it includes in the order they appear.
struct Sources {
    texts: Vec<(PathBuf, String)>,
    includes: Vec<Vec<usize>>,
}

impl Sources {
    fn read(path: &Path, text: &str) -> Result<Self, String> {
        let mut sources = Sources {
            texts: Vec::new(),
            includes: Vec::new(),
        };
        sources.add(path, text.to_string(), 0)?;
        Ok(sources)
    }

    /// Adds `text` and the files its top-level `<include file>` name; its index.
    fn add(&mut self, path: &Path, text: String, depth: usize) -> Result<usize, String> {
        if depth > 8 {
            return Err(format!("{}: includes nested deeper than 8", path.display()));
        }
        let files: Vec<String> = {
            let doc = Document::parse(&text).map_err(|e| xml_error(path, &e))?;
            doc.root_element()
                .children()
                .filter(|n| n.has_tag_name("include"))
                .map(|n| {
                    n.attribute("file")
                        .map(str::to_string)
                        .ok_or_else(|| located(path, &doc, n, "<include> without a file"))
                })
                .collect::<Result<_, _>>()?
        };
        let index = self.texts.len();
        self.texts.push((path.to_path_buf(), text));
        self.includes.push(Vec::new());
        let dir = path.parent().unwrap_or(Path::new("."));
        for file in files {
            let included = dir.join(&file);
            let text = std::fs::read_to_string(&included).map_err(|e| {
                format!(
                    "{}: <include file=\"{file}\">: cannot read {}: {e}",
                    path.display(),
                    included.display()
                )
            })?;
            let child = self.add(&included, text, depth + 1)?;
            self.includes[index].push(child);
        }
        Ok(index)
    }
}

/// The top-level elements of document `k` in MuJoCo's order: each `<include>` replaced
/// by the included file's elements, where it stands.
fn expanded<'d, 'i>(
    docs: &'d [(PathBuf, Document<'i>)],
    includes: &[Vec<usize>],
    k: usize,
    out: &mut Vec<(usize, Node<'d, 'i>)>,
) {
    let mut next = includes[k].iter();
    for node in docs[k].1.root_element().children().filter(Node::is_element) {
        if node.has_tag_name("include") {
            if let Some(&child) = next.next() {
                expanded(docs, includes, child, out);
            }
        } else {
            out.push((k, node));
        }
    }
}

fn xml_error(path: &Path, e: &roxmltree::Error) -> String {
    format!("{}: not valid XML: {e}", path.display())
}

/// A message naming the file, the line and the element.
pub(super) fn located(path: &Path, doc: &Document, node: Node, message: &str) -> String {
    let pos = doc.text_pos_at(node.range().start);
    format!(
        "{} line {}: <{}>: {message}",
        path.display(),
        pos.row,
        node.tag_name().name()
    )
}

/// Reads the model at `path` (its text already read), at the file's configuration.
pub fn read(path: &Path, text: &str) -> Result<MjcfModel, String> {
    read_at(path, text, None)
}

/// [`read`] at a keyframe (`<keyframe><key name qpos>`, by name or index) instead of the
/// file's configuration: the joints placed at the key's `qpos` as MuJoCo's kinematics
/// places them (hinge and slide from their `ref`, ball and free quaternions).
pub fn read_at(path: &Path, text: &str, key: Option<&str>) -> Result<MjcfModel, String> {
    let sources = Sources::read(path, text)?;
    let docs: Vec<(PathBuf, Document)> = sources
        .texts
        .iter()
        .map(|(p, t)| {
            Document::parse(t)
                .map(|d| (p.clone(), d))
                .map_err(|e| xml_error(p, &e))
        })
        .collect::<Result<_, _>>()?;
    let mut top = Vec::new();
    expanded(&docs, &sources.includes, 0, &mut top);
    let sections = |tag: &'static str| {
        top.iter()
            .filter(move |(_, n)| n.has_tag_name(tag))
            .map(|&(k, n)| (docs[k].0.as_path(), &docs[k].1, n))
    };
    let mut compiler = Compiler {
        degrees: true,
        eulerseq: *b"xyz",
        meshdir: None,
    };
    for (p, d, node) in sections("compiler") {
        read_compiler(&mut compiler, node).map_err(|e| located(p, d, node, &e))?;
    }
    let mut defaults = Defaults::default();
    for (p, d, node) in sections("default") {
        read_defaults(
            &mut defaults,
            node,
            "main",
            &HashMap::new(),
            &HashMap::new(),
            &HashMap::new(),
        )
        .map_err(|e| located(p, d, node, &e))?;
    }
    let model_dir = path.parent().unwrap_or(Path::new(".")).to_path_buf();
    let mut meshes = HashMap::new();
    for (p, d, asset) in sections("asset") {
        for node in asset.children().filter(|n| n.has_tag_name("mesh")) {
            let (name, points) = read_mesh(node, &defaults, &compiler, &model_dir)
                .map_err(|e| located(p, d, node, &e))?;
            meshes.insert(name, points);
        }
    }
    let qpos = match key {
        Some(key) => Some(keyframe_qpos(
            &sections("keyframe").collect::<Vec<_>>(),
            key,
        )?),
        None => None,
    };
    let mut walk = Walk {
        qpos,
        qpos_at: 0,
        compiler: &compiler,
        defaults: &defaults,
        meshes: &meshes,
        model: MjcfModel {
            name: docs[0]
                .1
                .root_element()
                .attribute("model")
                .unwrap_or("MuJoCo model")
                .to_string(),
            bodies: Vec::new(),
            geoms: Vec::new(),
            pairs: Vec::new(),
            left_out: Vec::new(),
            stand_ins: Vec::new(),
        },
        body_names: vec!["world".into()],
        body_parent: vec![0],
        body_has_joint: vec![true],
        geom_body: Vec::new(),
        geom_filter: Vec::new(),
        geom_names: HashMap::new(),
        geom_count: 0,
        bounds: Vec::new(),
        planes: Vec::new(),
    };
    // Every <worldbody> (the included files' too) is one world body: its geoms first,
    // then the bodies, as MuJoCo numbers them.
    for (p, d, world) in sections("worldbody") {
        walk.walk(Pass::Geoms, p, d, world, Frame::IDENTITY, 0, "main")?;
    }
    for (p, d, world) in sections("worldbody") {
        walk.walk(Pass::Bodies, p, d, world, Frame::IDENTITY, 0, "main")?;
    }
    let mut excluded = Vec::new();
    let mut explicit = Vec::new();
    for (p, d, contact) in sections("contact") {
        for node in contact.children().filter(Node::is_element) {
            let named = |attr: &str| {
                node.attribute(attr)
                    .map(str::to_string)
                    .ok_or_else(|| located(p, d, node, &format!("no {attr}")))
            };
            match node.tag_name().name() {
                "exclude" => excluded.push((named("body1")?, named("body2")?)),
                "pair" => {
                    let (g1, g2) = (named("geom1")?, named("geom2")?);
                    let find = |g: &str| {
                        walk.geom_names.get(g).copied().ok_or_else(|| {
                            located(p, d, node, &format!("no collision geom named {g}"))
                        })
                    };
                    explicit.push((find(&g1)?, find(&g2)?));
                }
                _ => {}
            }
        }
    }
    if let Some(qpos) = &walk.qpos {
        if walk.qpos_at != qpos.len() {
            return Err(format!(
                "{}: the key's qpos has {} numbers, the model's joints {}",
                path.display(),
                qpos.len(),
                walk.qpos_at
            ));
        }
    }
    walk.place_planes();
    walk.model.pairs = walk.candidate_pairs(&excluded, &explicit);
    Ok(walk.model)
}

/// The `qpos` of the key named `key` (or at that index) among the `<keyframe>`s.
fn keyframe_qpos(sections: &[(&Path, &Document, Node)], key: &str) -> Result<Vec<f64>, String> {
    let keys: Vec<(&Path, Node)> = sections
        .iter()
        .flat_map(|(p, _, k)| {
            k.children()
                .filter(|n| n.has_tag_name("key"))
                .map(move |n| (*p, n))
        })
        .collect();
    let found = keys
        .iter()
        .find(|(_, n)| n.attribute("name") == Some(key))
        .or_else(|| key.parse::<usize>().ok().and_then(|i| keys.get(i)));
    let Some((path, node)) = found else {
        let names: Vec<String> = keys
            .iter()
            .enumerate()
            .map(|(i, (_, n))| n.attribute("name").map_or(i.to_string(), str::to_string))
            .collect();
        return Err(format!(
            "no keyframe {key:?} (the model has {})",
            if names.is_empty() {
                "none".to_string()
            } else {
                names.join(", ")
            }
        ));
    };
    let qpos = node
        .attribute("qpos")
        .ok_or_else(|| format!("{}: keyframe {key:?} has no qpos", path.display()))?;
    numbers(qpos, "qpos")
}

/// Whitespace-separated numbers of attribute `name`, every one finite.
pub(super) fn numbers(text: &str, name: &str) -> Result<Vec<f64>, String> {
    text.split_whitespace()
        .map(|w| match w.parse::<f64>() {
            Ok(v) if v.is_finite() => Ok(v),
            _ => Err(format!("{name}=\"{text}\": `{w}` is not a finite number")),
        })
        .collect()
}

pub(super) fn vector(text: &str, name: &str) -> Result<DVec3, String> {
    match numbers(text, name)?.as_slice() {
        [x, y, z] => Ok(DVec3::new(*x, *y, *z)),
        other => Err(format!(
            "{name}=\"{text}\": 3 numbers expected, {} given",
            other.len()
        )),
    }
}
