//! MuJoCo models (MJCF XML): every collision geom at the model's initial configuration
//! (the poses the file writes, qpos0) as a body in the world frame, and the geom pairs
//! MuJoCo's collision filter would test, ordered by their certified signed distance (the
//! deepest overlap first, then the nearest): a MuJoCo user's failing contact opens as the
//! pair in focus, with the rest of the model around it. The pairs are counted before they
//! are listed, and a model passing more than [`MAX_PAIRS`] is refused with the count.
//!
//! Read as MuJoCo compiles it: `<compiler angle eulerseq meshdir assetdir fitaabb>`
//! (a primitive naming a mesh is fitted to it, `fit.rs`), `<default>`
//! classes (nested, inherited; a geom's `class`, a body's `childclass`), `<asset>` meshes
//! (files in STL, OBJ or PLY, or inline `vertex` lists; `scale`), `<body>` and `<frame>`
//! poses (`pos` with one of `quat`, `axisangle`, `euler`, `xyaxes`, `zaxis`), geoms by
//! `size` or `fromto`, top-level `<include>`, and `<contact>` `pair` and `exclude`.
//! Candidate pairs follow MuJoCo's filter: geoms of different weld bodies (a body without
//! joints is welded to its parent), not a weld body and its parent's (the world aside),
//! `contype`/`conaffinity` compatible. A plane is a half-space, which GJK cannot take:
//! a slab under every other geom whose top face is the plane stands in for it (distances
//! and depths are the half-space's). A height field (`<hfield>` with inline `elevation`,
//! `nrow` and `ncol`, or a `file`: a PNG image or MuJoCo's binary format, found through
//! `meshdir`/`assetdir` as MuJoCo finds it; `size`) is the scene's `HeightField` with
//! MuJoCo's compiled elevations (`hfield.rs`), placed as MuJoCo places it; a mesh geom
//! stays its convex hull, as MuJoCo collides it. SDF geoms are left out. The scene's
//! notes say so.

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};

use glam::DVec3;
use roxmltree::{Document, Node};

use crate::scene::{BodySpec, RotationSpec};

mod fit;
mod hfield;
mod pairs;
mod settings;
mod walk;

use hfield::read_hfield;
pub use pairs::MAX_PAIRS;
use settings::{read_compiler, read_defaults, read_mesh, Compiler, Defaults};
use walk::Walk;

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

/// A model read: one body per collision geom, the pairs MuJoCo tests ordered by their
/// certified signed distance (deepest overlap first, then nearest), what was left out
/// and why, and what stands in for what.
#[derive(Clone, Debug)]
pub struct MjcfModel {
    pub name: String,
    pub bodies: Vec<BodySpec>,
    pub geoms: Vec<GeomInfo>,
    pub pairs: Vec<(usize, usize)>,
    /// Each pair's certified signed distance (negative: the depth of an overlap).
    pub distances: Vec<f64>,
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
            let doc = parse(path, &text)?;
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

/// Not XML, said with the line and column (the end of the text when the text ended
/// too soon, where roxmltree gives no place).
fn xml_error(path: &Path, text: &str, e: &roxmltree::Error) -> String {
    use roxmltree::Error as E;
    let (row, col) = match e {
        E::UnexpectedEndOfStream | E::UnclosedRootNode => {
            let lines = text.split('\n').count();
            (
                lines as u32,
                text.rsplit('\n')
                    .next()
                    .map_or(1, |l| l.chars().count() as u32 + 1),
            )
        }
        other => (other.pos().row, other.pos().col),
    };
    format!(
        "{} line {row}, column {col}: not valid XML: {e}",
        path.display()
    )
}

/// The deepest element nesting read: roxmltree's parser recurses once per level (a few
/// hundred bytes of stack each), so the parse runs on a thread of [`PARSE_STACK`] bytes
/// and deeper text is refused before it could overflow it.
const MAX_NESTING: usize = 100_000;
const PARSE_STACK: usize = 256 << 20;

/// `text` parsed, however deep its elements nest (within [`MAX_NESTING`]): a chain of
/// bodies 5000 deep overflowed a test thread's 2 MB stack inside the parser.
fn parse<'t>(path: &Path, text: &'t str) -> Result<Document<'t>, String> {
    let depth = nesting(text);
    if depth > MAX_NESTING {
        return Err(format!(
            "{}: elements nested {depth} deep, deeper than the {MAX_NESTING} read",
            path.display()
        ));
    }
    if depth < 1000 {
        return Document::parse(text).map_err(|e| xml_error(path, text, &e));
    }
    std::thread::scope(|scope| {
        std::thread::Builder::new()
            .stack_size(PARSE_STACK)
            .spawn_scoped(scope, || Document::parse(text))
            .map_err(|e| format!("{}: cannot start the parser: {e}", path.display()))?
            .join()
            .unwrap_or_else(|p| std::panic::resume_unwind(p))
            .map_err(|e| xml_error(path, text, &e))
    })
}

/// An upper bound of the element nesting of `text`: `<` opens (not `</`, `<?`, `<!`),
/// `</` and `/>` close. Text inside comments may miscount, never below the truth by
/// more than the comments hold.
fn nesting(text: &str) -> usize {
    let bytes = text.as_bytes();
    let (mut depth, mut deepest) = (0usize, 0usize);
    for (k, &b) in bytes.iter().enumerate() {
        let next = bytes.get(k + 1).copied().unwrap_or(0);
        if b == b'<' && !matches!(next, b'/' | b'?' | b'!') {
            depth += 1;
            deepest = deepest.max(depth);
        } else if (b == b'<' && next == b'/') || (b == b'/' && next == b'>') {
            depth = depth.saturating_sub(1);
        }
    }
    deepest
}

/// Each line's first byte: lines found by binary search, not by counting.
fn line_starts(text: &str) -> Vec<usize> {
    std::iter::once(0)
        .chain(text.match_indices('\n').map(|(i, _)| i + 1))
        .collect()
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

/// `message` without its leading `path` (an import error names the file once): the
/// included files' names stay.
pub fn without_path(path: &Path, message: String) -> String {
    let shown = path.display().to_string();
    match message.strip_prefix(&shown) {
        Some(rest) if rest.starts_with(' ') || rest.starts_with(':') => {
            rest.trim_start_matches([':', ' ']).to_string()
        }
        _ => message,
    }
}

/// The pair in focus and its certified signed distance, for the notes.
pub fn focus_note(model: &MjcfModel) -> String {
    match (model.pairs.first(), model.distances.first()) {
        (Some(&(i, j)), Some(&d)) => format!(
            "; in focus: {} and {}, {}",
            model.geoms[i].name,
            model.geoms[j].name,
            if d < 0.0 {
                format!("overlapping by {:.6e}", -d)
            } else {
                format!("{d:.6e} apart")
            }
        ),
        _ => String::new(),
    }
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
        .map(|(p, t)| parse(p, t).map(|d| (p.clone(), d)))
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
        fitaabb: false,
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
    let mut hfields = HashMap::new();
    for (p, d, asset) in sections("asset") {
        for node in asset.children().filter(|n| n.has_tag_name("mesh")) {
            let (name, points) = read_mesh(node, &defaults, &compiler, &model_dir)
                .map_err(|e| located(p, d, node, &e))?;
            meshes.insert(name, points);
        }
        for node in asset.children().filter(|n| n.has_tag_name("hfield")) {
            let (name, field) =
                read_hfield(node, &compiler, &model_dir).map_err(|e| located(p, d, node, &e))?;
            hfields.insert(name, field);
        }
    }
    let qpos = match key {
        Some(key) => Some(keyframe_qpos(
            &sections("keyframe").collect::<Vec<_>>(),
            key,
        )?),
        None => None,
    };
    // Geoms a <pair> names collide through it whatever their contype and conaffinity
    // (MuJoCo's "explicit pairs only" pattern: contype="0" conaffinity="0" and pairs).
    let paired: HashSet<String> = sections("contact")
        .flat_map(|(_, _, contact)| {
            contact
                .children()
                .filter(|n| n.has_tag_name("pair"))
                .flat_map(|n| [n.attribute("geom1"), n.attribute("geom2")])
                .flatten()
                .map(str::to_string)
                .collect::<Vec<_>>()
        })
        .collect();
    let mut walk = Walk {
        paired,
        qpos: qpos.as_ref().map(|(q, _)| q.clone()),
        qpos_at: 0,
        compiler: &compiler,
        defaults: &defaults,
        meshes: &meshes,
        hfields: &hfields,
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
            distances: Vec::new(),
            left_out: Vec::new(),
            stand_ins: Vec::new(),
        },
        body_names: vec!["world".into()],
        body_parent: vec![0],
        body_weld: vec![0],
        geom_body: Vec::new(),
        geom_filter: Vec::new(),
        geom_names: HashMap::new(),
        geom_places: Vec::new(),
        line_starts: sources
            .texts
            .iter()
            .map(|(p, t)| (p.clone(), line_starts(t)))
            .collect(),
        geom_count: 0,
        bounds: Vec::new(),
        planes: Vec::new(),
    };
    walk.walk_worlds(&sections("worldbody").collect::<Vec<_>>())?;
    let (excluded, explicit) = read_contacts(&walk, &sections("contact").collect::<Vec<_>>())?;
    if let (Some((qpos, place)), Some(_)) = (&qpos, &walk.qpos) {
        if walk.qpos_at != qpos.len() {
            return Err(format!(
                "{place}: <key>: its qpos has {} numbers, the model's joints {}",
                qpos.len(),
                walk.qpos_at
            ));
        }
    }
    walk.place_planes()?;
    let filter = walk.filter(excluded, explicit);
    let count = filter.count();
    if count > MAX_PAIRS {
        return Err(too_many_pairs(path, count, walk.model.geoms.len()));
    }
    let pairs = filter.list();
    let mut model = walk.model;
    order_pairs(&mut model, pairs, &model_dir)?;
    Ok(model)
}

/// The refusal of a model whose filter passes more pairs than a scene holds: the
/// count, and how to narrow it.
fn too_many_pairs(path: &Path, count: u64, geoms: usize) -> String {
    format!(
        "{}: MuJoCo's collision filter lets {count} geom pairs of the {geoms} collision geoms \
         through, more than the {MAX_PAIRS} a scene holds. Narrow them in the model: \
         <contact><exclude body1=\"...\" body2=\"...\"/> for body pairs that never \
         touch, or contype/conaffinity bits (two geoms are tested only when the contype of \
         one shares a bit with the conaffinity of the other; contype=\"0\" \
         conaffinity=\"0\" leaves a geom out), or explicit <pair>s for the contacts that \
         matter with the rest filtered away",
        path.display()
    )
}

/// The pairs ordered by their certified signed distance, so the scene opens on the
/// deepest overlap or else the nearest pair ([`crate::robot::order`]).
fn order_pairs(
    model: &mut MjcfModel,
    pairs: Vec<(usize, usize)>,
    dir: &Path,
) -> Result<(), String> {
    let mut shapes = Vec::with_capacity(model.bodies.len());
    for (spec, geom) in model.bodies.iter().zip(&model.geoms) {
        let shape = crate::scene::build_shape_spec(&spec.shape, dir)
            .map_err(|e| format!("geom {}: {e}", geom.name))?;
        let RotationSpec::Matrix(rows) = spec.rotation else {
            unreachable!("the importer writes matrices")
        };
        let rotation =
            crate::pose::rigid_rotation(rows).map_err(|e| format!("geom {}: {e}", geom.name))?;
        let pose = crate::pose::Pose::from_matrix(DVec3::from_array(spec.translation), rotation);
        shapes.push((shape, pose));
    }
    let bodies: Vec<(&crate::shape::Shape, crate::pose::Pose)> =
        shapes.iter().map(|(s, p)| (s, *p)).collect();
    let ordered = crate::robot::order::by_signed_distance(&bodies, &pairs);
    model.pairs = ordered.iter().map(|(p, _)| *p).collect();
    model.distances = ordered.iter().map(|(_, d)| *d).collect();
    Ok(())
}

/// The `<contact>` sections: the excluded body pairs (by body index) and the explicit
/// geom pairs (by imported geom index), each refused naming its line and the names it
/// could not find.
#[allow(clippy::type_complexity)]
fn read_contacts(
    walk: &Walk,
    sections: &[(&Path, &Document, Node)],
) -> Result<(Vec<(usize, usize)>, Vec<(usize, usize)>), String> {
    let bodies: HashMap<&str, usize> = walk
        .body_names
        .iter()
        .enumerate()
        .map(|(i, n)| (n.as_str(), i))
        .collect();
    let (mut excluded, mut explicit) = (Vec::new(), Vec::new());
    for &(p, d, contact) in sections {
        for node in contact.children().filter(Node::is_element) {
            let here = |e: &str| located(p, d, node, e);
            let named = |attr: &str| {
                node.attribute(attr)
                    .ok_or_else(|| here(&format!("no {attr}")))
            };
            match node.tag_name().name() {
                "exclude" => {
                    let body = |attr: &str| -> Result<usize, String> {
                        let name = named(attr)?;
                        bodies.get(name).copied().ok_or_else(|| {
                            here(&format!("{attr}=\"{name}\": no body of that name"))
                        })
                    };
                    excluded.push((body("body1")?, body("body2")?));
                }
                "pair" => {
                    let geom = |attr: &str| -> Result<usize, String> {
                        let name = named(attr)?;
                        if let Some(&g) = walk.geom_names.get(name) {
                            return Ok(g);
                        }
                        // A geom a pair names is a collision geom whatever its filter.
                        Err(here(&format!("{attr}=\"{name}\": no geom of that name")))
                    };
                    let (g1, g2) = (geom("geom1")?, geom("geom2")?);
                    if g1 == g2 {
                        return Err(here(&format!(
                            "geom {} paired with itself",
                            walk.model.geoms[g1].name
                        )));
                    }
                    explicit.push((g1, g2));
                }
                _ => {}
            }
        }
    }
    Ok((excluded, explicit))
}

/// The `qpos` of the key named `key` (or at that index) among the `<keyframe>`s.
/// Its numbers, and where the key is written (file and line).
fn keyframe_qpos(
    sections: &[(&Path, &Document, Node)],
    key: &str,
) -> Result<(Vec<f64>, String), String> {
    let keys: Vec<(&Path, &Document, Node)> = sections
        .iter()
        .flat_map(|(p, d, k)| {
            k.children()
                .filter(|n| n.has_tag_name("key"))
                .map(move |n| (*p, *d, n))
        })
        .collect();
    let found = keys
        .iter()
        .find(|(_, _, n)| n.attribute("name") == Some(key))
        .or_else(|| key.parse::<usize>().ok().and_then(|i| keys.get(i)));
    let Some((path, doc, node)) = found else {
        let names: Vec<String> = keys
            .iter()
            .enumerate()
            .map(|(i, (_, _, n))| n.attribute("name").map_or(i.to_string(), str::to_string))
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
    let here = |e: &str| located(path, doc, *node, e);
    let qpos = node
        .attribute("qpos")
        .ok_or_else(|| here(&format!("keyframe {key:?} has no qpos")))?;
    let values = numbers(qpos, "qpos").map_err(|e| here(&e))?;
    let place = format!(
        "{} line {}",
        path.display(),
        doc.text_pos_at(node.range().start).row
    );
    Ok((values, place))
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
