//! What applies to the whole model: the compiler's settings, the default classes, and
//! the mesh assets (files in STL, OBJ, PLY or MuJoCo's `.msh`, or inline vertices).

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use glam::DVec3;
use roxmltree::Node;

use super::{numbers, vector};

/// The compiler settings that change how numbers read.
pub(super) struct Compiler {
    /// Angles in degrees (MuJoCo's default) or radians.
    pub(super) degrees: bool,
    /// Three of x, y, z (intrinsic, rotating with the frame) or X, Y, Z (extrinsic).
    pub(super) eulerseq: [u8; 3],
    /// Where mesh and height-field files are found, relative to the model's directory:
    /// `meshdir`, else `assetdir` (MuJoCo's compiler takes `assetdir` as the mesh directory
    /// when no `meshdir` is given).
    pub(super) meshdir: Option<String>,
    /// Primitives naming a mesh fit its bounding box (`fitaabb="true"`), not its
    /// equivalent inertia box (MuJoCo's default).
    pub(super) fitaabb: bool,
}

/// Attributes by default class, inherited from the enclosing classes.
#[derive(Default)]
pub(super) struct Defaults {
    pub(super) geom: HashMap<String, HashMap<String, String>>,
    pub(super) mesh: HashMap<String, HashMap<String, String>>,
    pub(super) joint: HashMap<String, HashMap<String, String>>,
}

pub(super) fn read_compiler(compiler: &mut Compiler, node: Node) -> Result<(), String> {
    if let Some(angle) = node.attribute("angle") {
        compiler.degrees = match angle {
            "degree" => true,
            "radian" => false,
            other => return Err(format!("angle=\"{other}\": degree or radian")),
        };
    }
    if let Some(seq) = node.attribute("eulerseq") {
        let bytes = seq.as_bytes();
        if bytes.len() != 3 || !bytes.iter().all(|b| b"xyzXYZ".contains(b)) {
            return Err(format!("eulerseq=\"{seq}\": three of x, y, z, X, Y, Z"));
        }
        compiler.eulerseq = [bytes[0], bytes[1], bytes[2]];
    }
    if let Some(fit) = node.attribute("fitaabb") {
        compiler.fitaabb = match fit {
            "true" => true,
            "false" => false,
            other => return Err(format!("fitaabb=\"{other}\": true or false")),
        };
    }
    if let Some(dir) = node.attribute("meshdir").or(node.attribute("assetdir")) {
        compiler.meshdir = Some(dir.to_string());
    }
    Ok(())
}

/// Where MuJoCo finds a mesh's or a height field's `file`: under the compiler's
/// `meshdir` (its `assetdir` when no `meshdir` is given), relative to the model's
/// directory; an absolute `file` or `meshdir` stands on its own. MuJoCo compiles height
/// fields through the mesh directory too (`mjCHField::Compile`), not `texturedir`.
pub(super) fn asset_path(compiler: &Compiler, model_dir: &Path, file: &str) -> PathBuf {
    let dir = match &compiler.meshdir {
        Some(d) => model_dir.join(d),
        None => model_dir.to_path_buf(),
    };
    dir.join(file)
}

/// A `<default>` element and its nested classes: each class's geom and mesh attributes
/// over its parent's.
pub(super) fn read_defaults(
    defaults: &mut Defaults,
    node: Node,
    class: &str,
    parent_geom: &HashMap<String, String>,
    parent_mesh: &HashMap<String, String>,
    parent_joint: &HashMap<String, String>,
) -> Result<(), String> {
    let attributes = |tag: &str, parent: &HashMap<String, String>| {
        let mut merged = parent.clone();
        for child in node.children().filter(|n| n.has_tag_name(tag)) {
            for a in child.attributes() {
                merged.insert(a.name().to_string(), a.value().to_string());
            }
        }
        merged
    };
    let geom = attributes("geom", parent_geom);
    let mesh = attributes("mesh", parent_mesh);
    let joint = attributes("joint", parent_joint);
    for child in node.children().filter(|n| n.has_tag_name("default")) {
        let name = child
            .attribute("class")
            .ok_or("a nested <default> without a class")?;
        read_defaults(defaults, child, name, &geom, &mesh, &joint)?;
    }
    defaults.geom.insert(class.to_string(), geom);
    defaults.mesh.insert(class.to_string(), mesh);
    defaults.joint.insert(class.to_string(), joint);
    Ok(())
}

/// A `<mesh>` asset: its name (the file's stem when it has none) and its vertices,
/// scaled.
pub(super) fn read_mesh(
    node: Node,
    defaults: &Defaults,
    compiler: &Compiler,
    model_dir: &Path,
) -> Result<(String, Vec<DVec3>), String> {
    let class = node.attribute("class").unwrap_or("main");
    let attr = |name: &str| {
        node.attribute(name)
            .map(str::to_string)
            .or_else(|| defaults.mesh.get(class).and_then(|m| m.get(name).cloned()))
    };
    let scale = match attr("scale") {
        Some(s) => vector(&s, "scale")?,
        None => DVec3::ONE,
    };
    let (name, points) = if let Some(file) = node.attribute("file") {
        let path = asset_path(compiler, model_dir, file);
        let vertices = if path
            .extension()
            .is_some_and(|e| e.eq_ignore_ascii_case("msh"))
        {
            read_msh(&path)?
        } else {
            let mesh = crate::mesh::load_mesh(&path).map_err(|e| e.to_string())?;
            mesh.polytope.vertices().to_vec()
        };
        let stem = Path::new(file)
            .file_stem()
            .map_or_else(|| file.to_string(), |s| s.to_string_lossy().into_owned());
        (
            node.attribute("name").map_or(stem, str::to_string),
            vertices,
        )
    } else if let Some(vertex) = node.attribute("vertex") {
        let values = numbers(vertex, "vertex")?;
        if values.len() < 12 || values.len() % 3 != 0 {
            return Err(format!(
                "vertex: {} numbers; at least four points of three",
                values.len()
            ));
        }
        let name = node
            .attribute("name")
            .ok_or("a mesh with inline vertices needs a name")?;
        let points = values
            .chunks(3)
            .map(|c| DVec3::new(c[0], c[1], c[2]))
            .collect();
        (name.to_string(), points)
    } else {
        return Err("a mesh needs a file or a vertex list".into());
    };
    let points: Vec<DVec3> = points.into_iter().map(|p| p * scale).collect();
    // Held to the scene's cap here, where the mesh is named.
    if let Some((i, p)) = points
        .iter()
        .enumerate()
        .find(|(_, p)| !(p.is_finite() && p.abs().max_element() <= crate::shape::MAX_COORDINATE))
    {
        return Err(format!(
            "mesh {name}: vertex {i} ({:e}, {:e}, {:e}), scaled, lies beyond ±1e75",
            p.x, p.y, p.z
        ));
    }
    Ok((name, points))
}

/// The vertices of MuJoCo's legacy binary mesh (`.msh`): four counts (vertices,
/// normals, texture coordinates, faces) as little-endian `i32`, then the vertices as
/// `f32` triples, then the rest; the length must be what the counts say.
fn read_msh(path: &Path) -> Result<Vec<DVec3>, String> {
    let bytes = std::fs::read(path).map_err(|e| format!("{}: cannot read: {e}", path.display()))?;
    let bad = |why: String| format!("{}: not a MuJoCo .msh mesh: {why}", path.display());
    if bytes.len() < 16 {
        return Err(bad(format!(
            "{} bytes, shorter than its header",
            bytes.len()
        )));
    }
    let count = |k: usize| i32::from_le_bytes(bytes[4 * k..4 * k + 4].try_into().unwrap());
    let [vertices, normals, texcoords, faces] = [count(0), count(1), count(2), count(3)];
    if [vertices, normals, texcoords, faces].iter().any(|c| *c < 0) || vertices < 4 {
        return Err(bad(format!(
            "counts {vertices}, {normals}, {texcoords}, {faces} (at least 4 vertices)"
        )));
    }
    let expected = 16
        + 4 * (3 * vertices as u64 + 3 * normals as u64 + 2 * texcoords as u64 + 3 * faces as u64);
    if bytes.len() as u64 != expected {
        return Err(bad(format!(
            "{} bytes where its counts say {expected}",
            bytes.len()
        )));
    }
    let float = |k: usize| f32::from_le_bytes(bytes[16 + 4 * k..20 + 4 * k].try_into().unwrap());
    let points: Vec<DVec3> = (0..vertices as usize)
        .map(|v| {
            DVec3::new(
                float(3 * v).into(),
                float(3 * v + 1).into(),
                float(3 * v + 2).into(),
            )
        })
        .collect();
    if points.iter().any(|p| !p.is_finite()) {
        return Err(bad("a vertex is not finite".into()));
    }
    Ok(points)
}
