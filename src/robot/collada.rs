//! COLLADA (`.dae`) collision meshes: the points of every instanced geometry, placed by
//! its node's transforms (parent first: `<matrix>`, `<translate>`, `<rotate>`,
//! `<scale>` in document order) and scaled by the asset's `<unit meter>`, in f64. The
//! document's `up_axis` is ignored, as ROS's mesh loaders do. A convex hull needs only
//! the points (every point of a geometry's POSITION source is one of its vertices); a
//! robot's visual mesh also reads the primitives' index lists into triangles.
//!
//! Written here rather than taken from `mesh-loader`, whose 0.1 line composes nested
//! node transforms child-first (a child's translation is not rotated by its parent's
//! rotation, nor scaled by the unit), and reads coordinates as f32.

use std::collections::HashMap;
use std::path::Path;

use glam::{DMat4, DQuat, DVec3};
use roxmltree::{Document, Node};

/// The points of a COLLADA file, in metres.
pub fn read_collada_points(path: &Path) -> Result<Vec<DVec3>, String> {
    Ok(read_collada_mesh(path)?.0)
}

/// The triangles of a COLLADA file (its `<triangles>`, `<polylist>` and `<polygons>`,
/// polygons as fans), in metres: what a visual mesh draws.
pub fn read_collada_triangles(path: &Path) -> Result<Vec<[DVec3; 3]>, String> {
    let (points, triangles) = read_collada_mesh(path)?;
    Ok(triangles
        .into_iter()
        .filter_map(|[a, b, c]| Some([*points.get(a)?, *points.get(b)?, *points.get(c)?]))
        .collect())
}

/// The placed points of every instanced geometry and its triangles (indices into them).
fn read_collada_mesh(path: &Path) -> Result<(Vec<DVec3>, Vec<[usize; 3]>), String> {
    let name = path.display();
    let text = std::fs::read_to_string(path).map_err(|e| format!("{name}: cannot read: {e}"))?;
    let doc =
        Document::parse(&text).map_err(|e| format!("{name}: not a readable COLLADA file: {e}"))?;
    let (points, triangles) = document_mesh(&doc).map_err(|e| format!("{name}: {e}"))?;
    if points.is_empty() {
        return Err(format!("{name}: the mesh has no vertices"));
    }
    if let Some(bad) = points.iter().find(|p| !p.is_finite()) {
        return Err(format!("{name}: a vertex is not finite ({bad})"));
    }
    Ok((points, triangles))
}

/// A geometry's points and its triangles over them.
type GeometryMesh = (Vec<DVec3>, Vec<[usize; 3]>);

fn document_mesh(doc: &Document<'_>) -> Result<GeometryMesh, String> {
    let root = doc.root_element();
    if !root.has_tag_name("COLLADA") {
        return Err("not a COLLADA document (its root is not <COLLADA>)".into());
    }
    let unit = child(root, "asset")
        .and_then(|a| child(a, "unit"))
        .and_then(|u| u.attribute("meter"))
        .map(|m| m.trim().parse::<f64>())
        .transpose()
        .map_err(|e| format!("<unit meter> is not a number: {e}"))?
        .unwrap_or(1.0);
    let mut geometries = HashMap::new();
    for geometry in root.descendants().filter(|n| n.has_tag_name("geometry")) {
        if let Some(id) = geometry.attribute("id") {
            let points = geometry_points(geometry)?;
            let triangles = geometry_triangles(geometry, points.len());
            geometries.insert(id, (points, triangles));
        }
    }
    let scene = child(root, "scene")
        .and_then(|s| child(s, "instance_visual_scene"))
        .and_then(|i| i.attribute("url"))
        .and_then(|url| by_id(doc, url));
    let mut out = (Vec::new(), Vec::new());
    match scene {
        Some(scene) => {
            for node in scene.children().filter(|n| n.has_tag_name("node")) {
                place_node(doc, node, DMat4::IDENTITY, &geometries, &mut out, 0)?;
            }
        }
        // No scene: the geometries as they are.
        None => {
            for (points, triangles) in geometries.values() {
                append(&mut out, points.iter().copied(), triangles);
            }
        }
    }
    let (points, triangles) = out;
    Ok((points.into_iter().map(|p| p * unit).collect(), triangles))
}

/// Adds a placed geometry to `out`, its triangles' indices shifted past what is there.
fn append(out: &mut GeometryMesh, points: impl Iterator<Item = DVec3>, triangles: &[[usize; 3]]) {
    let base = out.0.len();
    out.0.extend(points);
    out.1.extend(
        triangles
            .iter()
            .map(|t| [t[0] + base, t[1] + base, t[2] + base]),
    );
}

/// A geometry's triangles as indices into its POSITION points: each primitive's VERTEX
/// input read at its offset within the primitive's stride; polygons become fans.
/// Unreadable primitives are skipped (the points still make the hull).
fn geometry_triangles(geometry: Node<'_, '_>, count: usize) -> Vec<[usize; 3]> {
    let Some(mesh) = child(geometry, "mesh") else {
        return Vec::new();
    };
    let mut triangles = Vec::new();
    for primitive in mesh.children().filter(Node::is_element) {
        let kind = primitive.tag_name().name();
        if !matches!(kind, "triangles" | "polylist" | "polygons") {
            continue;
        }
        let inputs: Vec<Node> = primitive
            .children()
            .filter(|n| n.has_tag_name("input"))
            .collect();
        let offset_of = |n: &Node| {
            n.attribute("offset")
                .and_then(|o| o.parse::<usize>().ok())
                .unwrap_or(0)
        };
        let Some(vertex) = inputs
            .iter()
            .find(|i| i.attribute("semantic") == Some("VERTEX"))
        else {
            continue;
        };
        let offset = offset_of(vertex);
        let stride = inputs.iter().map(offset_of).max().unwrap_or(0) + 1;
        let indices = |p: Node| -> Vec<usize> {
            numbers(p)
                .unwrap_or_default()
                .chunks_exact(stride)
                .map(|c| c[offset] as usize)
                .collect()
        };
        let mut fan = |polygon: &[usize]| {
            for k in 1..polygon.len().saturating_sub(1) {
                let t = [polygon[0], polygon[k], polygon[k + 1]];
                if t.iter().all(|i| *i < count) {
                    triangles.push(t);
                }
            }
        };
        match kind {
            "triangles" => {
                for p in primitive.children().filter(|n| n.has_tag_name("p")) {
                    indices(p).chunks_exact(3).for_each(&mut fan);
                }
            }
            "polylist" => {
                let Some(p) = child(primitive, "p") else {
                    continue;
                };
                let counts = child(primitive, "vcount")
                    .map(numbers)
                    .unwrap_or(Ok(Vec::new()));
                let all = indices(p);
                let mut at = 0;
                for n in counts.unwrap_or_default() {
                    let n = n as usize;
                    if let Some(polygon) = all.get(at..at + n) {
                        fan(polygon);
                    }
                    at += n;
                }
            }
            _ => {
                for p in primitive.children().filter(|n| n.has_tag_name("p")) {
                    fan(&indices(p));
                }
            }
        }
    }
    triangles
}

/// A node's geometries under `parent · (its own transforms)`, then its children.
fn place_node(
    doc: &Document<'_>,
    node: Node<'_, '_>,
    parent: DMat4,
    geometries: &HashMap<&str, GeometryMesh>,
    out: &mut GeometryMesh,
    depth: usize,
) -> Result<(), String> {
    if depth > 64 {
        return Err("nodes nested more than 64 deep (a cycle of <instance_node>?)".into());
    }
    let mut transform = parent;
    for element in node.children().filter(Node::is_element) {
        let values = || numbers(element);
        let local = match element.tag_name().name() {
            "matrix" => {
                let m = values()?;
                let m: [f64; 16] = m
                    .try_into()
                    .map_err(|_| "<matrix> needs 16 numbers".to_string())?;
                // COLLADA writes the matrix row by row.
                DMat4::from_cols_array(&m).transpose()
            }
            "translate" => DMat4::from_translation(vector(&values()?, "translate")?),
            "scale" => DMat4::from_scale(vector(&values()?, "scale")?),
            "rotate" => {
                let v = values()?;
                let [x, y, z, degrees] = v[..] else {
                    return Err("<rotate> needs 4 numbers".into());
                };
                let axis = DVec3::new(x, y, z);
                if axis.length() == 0.0 {
                    DMat4::IDENTITY
                } else {
                    DMat4::from_quat(DQuat::from_axis_angle(
                        axis.normalize(),
                        degrees.to_radians(),
                    ))
                }
            }
            "lookat" | "skew" => {
                return Err(format!(
                    "<{}> transforms are not supported",
                    element.tag_name().name()
                ))
            }
            _ => continue,
        };
        transform *= local;
    }
    for element in node.children().filter(Node::is_element) {
        match element.tag_name().name() {
            "instance_geometry" => {
                let url = element.attribute("url").unwrap_or("");
                let (points, triangles) = geometries
                    .get(url.trim_start_matches('#'))
                    .ok_or_else(|| format!("<instance_geometry> names {url}, which is absent"))?;
                let placed = points.iter().map(|p| transform.transform_point3(*p));
                append(out, placed, triangles);
            }
            "instance_node" => {
                let url = element.attribute("url").unwrap_or("");
                let target = by_id(doc, url)
                    .ok_or_else(|| format!("<instance_node> names {url}, which is absent"))?;
                place_node(doc, target, transform, geometries, out, depth + 1)?;
            }
            "node" => place_node(doc, element, transform, geometries, out, depth + 1)?,
            _ => {}
        }
    }
    Ok(())
}

/// The points of a geometry's mesh: its `<vertices>` POSITION source.
fn geometry_points(geometry: Node<'_, '_>) -> Result<Vec<DVec3>, String> {
    let id = geometry.attribute("id").unwrap_or("?");
    let Some(mesh) = child(geometry, "mesh").or_else(|| child(geometry, "convex_mesh")) else {
        return Ok(Vec::new()); // splines and the like: no mesh points
    };
    let position = child(mesh, "vertices")
        .and_then(|v| {
            v.children()
                .find(|i| i.has_tag_name("input") && i.attribute("semantic") == Some("POSITION"))
        })
        .and_then(|i| i.attribute("source"))
        .ok_or_else(|| format!("geometry {id}: no POSITION input in <vertices>"))?;
    // A local reference is "#id"; anything else (empty, no '#', another file) is not one.
    let target = position
        .strip_prefix('#')
        .filter(|t| !t.is_empty())
        .ok_or_else(|| {
            format!("geometry {id}: POSITION source '{position}' is not a local reference (#id)")
        })?;
    let source = mesh
        .children()
        .find(|s| s.has_tag_name("source") && s.attribute("id") == Some(target))
        .ok_or_else(|| format!("geometry {id}: its POSITION source {position} is absent"))?;
    let array = child(source, "float_array")
        .ok_or_else(|| format!("geometry {id}: source {position} has no <float_array>"))?;
    let values = numbers(array).map_err(|e| format!("geometry {id}: {e}"))?;
    let accessor = child(source, "technique_common").and_then(|t| child(t, "accessor"));
    let attr = |name: &str, default: usize| {
        accessor
            .and_then(|a| a.attribute(name))
            .and_then(|v| v.parse::<usize>().ok())
            .unwrap_or(default)
    };
    let stride = attr("stride", 3).max(3);
    let offset = attr("offset", 0);
    let count = attr("count", values.len().saturating_sub(offset) / stride);
    (0..count)
        .map(|k| {
            let at = offset + k * stride;
            values
                .get(at..at + 3)
                .map(|c| DVec3::new(c[0], c[1], c[2]))
                .ok_or_else(|| format!("geometry {id}: its accessor reads past the array"))
        })
        .collect()
}

fn child<'a, 'i>(node: Node<'a, 'i>, name: &str) -> Option<Node<'a, 'i>> {
    node.children().find(|n| n.has_tag_name(name))
}

fn by_id<'a, 'i>(doc: &'a Document<'i>, url: &str) -> Option<Node<'a, 'i>> {
    let id = url.strip_prefix('#')?;
    doc.descendants().find(|n| n.attribute("id") == Some(id))
}

fn numbers(node: Node<'_, '_>) -> Result<Vec<f64>, String> {
    node.text()
        .unwrap_or("")
        .split_ascii_whitespace()
        .map(|t| {
            t.parse::<f64>()
                .map_err(|_| format!("<{}> holds '{t}', not a number", node.tag_name().name()))
        })
        .collect()
}

fn vector(values: &[f64], element: &str) -> Result<DVec3, String> {
    match values {
        [x, y, z] => Ok(DVec3::new(*x, *y, *z)),
        _ => Err(format!("<{element}> needs 3 numbers")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn document(source: &str) -> String {
        format!(
            r##"<COLLADA><library_geometries><geometry id="g"><mesh>
                <source id="p"><float_array count="9">0 0 0 1 0 0 0 1 0</float_array></source>
                <vertices id="v"><input semantic="POSITION" source="{source}"/></vertices>
            </mesh></geometry></library_geometries>
            <library_visual_scenes><visual_scene id="s"><node><instance_geometry url="#g"/></node></visual_scene></library_visual_scenes>
            <scene><instance_visual_scene url="#s"/></scene></COLLADA>"##
        )
    }

    /// A POSITION source that is empty, lacks the '#', or begins with a multi-byte
    /// character is refused by name (it panicked slicing `&source[1..]`).
    #[test]
    fn a_position_source_that_is_not_a_local_reference_is_refused() {
        for source in ["", "p", "é", "#"] {
            let text = document(source);
            let doc = Document::parse(&text).unwrap();
            let err = document_mesh(&doc).unwrap_err();
            assert!(err.contains("not a local reference"), "{source:?}: {err}");
        }
        let text = document("#p");
        let doc = Document::parse(&text).unwrap();
        assert_eq!(document_mesh(&doc).unwrap().0.len(), 3);
    }
}
