//! COLLADA (`.dae`) meshes: the points of every instanced geometry, placed by
//! its node's transforms (parent first: `<matrix>`, `<translate>`, `<rotate>`,
//! `<scale>` in document order) and scaled by the asset's `<unit meter>`, in f64. The
//! document's `up_axis` is ignored, as ROS's mesh loaders do. A convex hull needs only
//! the points (every point of a geometry's POSITION source is one of its vertices); a
//! drawn mesh (a robot's visual) also reads the primitives' index lists into triangles.
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
pub(super) fn read_collada_mesh(path: &Path) -> Result<(Vec<DVec3>, Vec<[usize; 3]>), String> {
    let name = path.display();
    let bytes = std::fs::read(path).map_err(|e| format!("{name}: cannot read: {e}"))?;
    let text = String::from_utf8(bytes).map_err(|e| {
        let at = e.utf8_error().valid_up_to();
        let line = e.as_bytes()[..at].iter().filter(|b| **b == b'\n').count() + 1;
        format!("{name}: byte {at} (line {line}) is not UTF-8: not a COLLADA document")
    })?;
    let doc = Document::parse(&text).map_err(|e| {
        let at = e.pos();
        format!(
            "{name}: line {}, column {}: not a readable COLLADA file: {e}",
            at.row, at.col
        )
    })?;
    let (points, triangles) = document_mesh(&doc).map_err(|e| format!("{name}: {e}"))?;
    if points.is_empty() {
        return Err(format!(
            "{name}: line {}: the document places no geometry with points",
            line_of(doc.root_element())
        ));
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
    let unit_node = child(root, "asset").and_then(|a| child(a, "unit"));
    let unit = match unit_node.and_then(|u| u.attribute("meter").map(|m| (u, m))) {
        Some((u, m)) => match m.trim().parse::<f64>() {
            Ok(v) if v.is_finite() && v > 0.0 => v,
            _ => {
                return Err(format!(
                    "line {}: <unit meter=\"{m}\">: `{m}` is not a finite positive number",
                    line_of(u)
                ))
            }
        },
        None => 1.0,
    };
    let mut geometries = HashMap::new();
    for geometry in root.descendants().filter(|n| n.has_tag_name("geometry")) {
        if let Some(id) = geometry.attribute("id") {
            let points = geometry_points(geometry)?;
            let triangles = geometry_triangles(geometry, points.len())?;
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
    let points: Vec<DVec3> = points.into_iter().map(|p| p * unit).collect();
    if let Some(bad) = points.iter().find(|p| !p.is_finite()) {
        // Finite before the unit (checked where each geometry is placed): the unit's.
        return Err(format!(
            "line {}: <unit meter=\"{unit}\"> scales a point to ({bad}), not finite",
            unit_node.map_or(1, line_of)
        ));
    }
    Ok((points, triangles))
}

/// The 1-based line an element starts on.
fn line_of(node: Node<'_, '_>) -> u32 {
    node.document().text_pos_at(node.range().start).row
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
/// A primitive without a VERTEX input is skipped (it draws nothing); an index, offset
/// or count that is not a whole number, or an index past the points, is refused with its
/// element's line (skipped, a bad offset read another input's indices, a bad index list
/// dropped its triangles unsaid).
fn geometry_triangles(geometry: Node<'_, '_>, count: usize) -> Result<Vec<[usize; 3]>, String> {
    let Some(mesh) = child(geometry, "mesh") else {
        return Ok(Vec::new());
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
        let offset_of = |n: &Node| -> Result<usize, String> {
            whole_attribute(*n, "offset").map(|o| o.unwrap_or(0))
        };
        let Some(vertex) = inputs
            .iter()
            .find(|i| i.attribute("semantic") == Some("VERTEX"))
        else {
            continue;
        };
        let offset = offset_of(vertex)?;
        let mut stride = 0;
        for input in &inputs {
            stride = stride.max(offset_of(input)?);
        }
        let stride = stride + 1;
        let indices = |p: Node| -> Result<Vec<usize>, String> {
            let all = whole_numbers(p)?;
            let picked: Vec<usize> = all.chunks_exact(stride).map(|c| c[offset]).collect();
            if let Some(bad) = picked.iter().find(|i| **i >= count) {
                return Err(format!(
                    "line {}: <{}> holds the index {bad}, past the geometry's {count} points",
                    line_of(p),
                    p.tag_name().name()
                ));
            }
            Ok(picked)
        };
        let mut fan = |polygon: &[usize]| {
            for k in 1..polygon.len().saturating_sub(1) {
                triangles.push([polygon[0], polygon[k], polygon[k + 1]]);
            }
        };
        match kind {
            "triangles" => {
                for p in primitive.children().filter(|n| n.has_tag_name("p")) {
                    indices(p)?.chunks_exact(3).for_each(&mut fan);
                }
            }
            "polylist" => {
                let Some(p) = child(primitive, "p") else {
                    continue;
                };
                let counts = match child(primitive, "vcount") {
                    Some(v) => whole_numbers(v)?,
                    None => Vec::new(),
                };
                let all = indices(p)?;
                let mut at: usize = 0;
                for n in counts {
                    if let Some(polygon) = all.get(at..at.saturating_add(n)) {
                        fan(polygon);
                    }
                    at = at.saturating_add(n);
                }
            }
            _ => {
                for p in primitive.children().filter(|n| n.has_tag_name("p")) {
                    fan(&indices(p)?);
                }
            }
        }
    }
    Ok(triangles)
}

/// An element's whitespace-separated whole numbers (indices, counts), each refused with
/// the element's line and the word when it is not one (`1.5`, `-1`, `x`).
fn whole_numbers(node: Node<'_, '_>) -> Result<Vec<usize>, String> {
    node.text()
        .unwrap_or("")
        .split_ascii_whitespace()
        .map(|t| {
            t.parse::<usize>().map_err(|_| {
                format!(
                    "line {}: <{}> holds `{t}`, not a whole number",
                    line_of(node),
                    node.tag_name().name()
                )
            })
        })
        .collect()
}

/// A whole-number attribute (`offset`, `stride`, `count`), refused with the element's
/// line when it is there and not one.
fn whole_attribute(node: Node<'_, '_>, name: &str) -> Result<Option<usize>, String> {
    node.attribute(name)
        .map(|v| {
            v.trim().parse::<usize>().map_err(|_| {
                format!(
                    "line {}: <{} {name}=\"{v}\">: `{v}` is not a whole number",
                    line_of(node),
                    node.tag_name().name()
                )
            })
        })
        .transpose()
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
        return Err(format!(
            "line {}: nodes nested more than 64 deep (a cycle of <instance_node>?)",
            line_of(node)
        ));
    }
    let mut transform = parent;
    for element in node.children().filter(Node::is_element) {
        let values = || numbers(element);
        let local = match element.tag_name().name() {
            "matrix" => {
                let m = values()?;
                let m: [f64; 16] = m
                    .try_into()
                    .map_err(|_| format!("line {}: <matrix> needs 16 numbers", line_of(element)))?;
                // COLLADA writes the matrix row by row.
                DMat4::from_cols_array(&m).transpose()
            }
            "translate" => DMat4::from_translation(vector(&values()?, element)?),
            "scale" => DMat4::from_scale(vector(&values()?, element)?),
            "rotate" => {
                let v = values()?;
                let [x, y, z, degrees] = v[..] else {
                    return Err(format!(
                        "line {}: <rotate> needs 4 numbers",
                        line_of(element)
                    ));
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
                    "line {}: <{}> transforms are not supported",
                    line_of(element),
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
                let (points, triangles) =
                    geometries.get(url.trim_start_matches('#')).ok_or_else(|| {
                        format!(
                            "line {}: <instance_geometry> names {url}, which is absent",
                            line_of(element)
                        )
                    })?;
                let placed: Vec<DVec3> = points
                    .iter()
                    .map(|p| transform.transform_point3(*p))
                    .collect();
                if let Some(bad) = placed.iter().find(|p| !p.is_finite()) {
                    return Err(format!(
                        "line {}: <instance_geometry url=\"{url}\">: its node's transforms \
                         place a point at ({bad}), not finite",
                        line_of(element)
                    ));
                }
                append(out, placed.into_iter(), triangles);
            }
            "instance_node" => {
                let url = element.attribute("url").unwrap_or("");
                let target = by_id(doc, url).ok_or_else(|| {
                    format!(
                        "line {}: <instance_node> names {url}, which is absent",
                        line_of(element)
                    )
                })?;
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
        .ok_or_else(|| {
            format!(
                "geometry {id}: line {}: no POSITION input in <vertices>",
                line_of(mesh)
            )
        })?;
    // A local reference is "#id"; anything else (empty, no '#', another file) is not one.
    let target = position
        .strip_prefix('#')
        .filter(|t| !t.is_empty())
        .ok_or_else(|| {
            format!(
                "geometry {id}: line {}: POSITION source '{position}' is not a local reference (#id)",
                line_of(mesh)
            )
        })?;
    let source = mesh
        .children()
        .find(|s| s.has_tag_name("source") && s.attribute("id") == Some(target))
        .ok_or_else(|| {
            format!(
                "geometry {id}: line {}: its POSITION source {position} is absent",
                line_of(mesh)
            )
        })?;
    let array = child(source, "float_array").ok_or_else(|| {
        format!(
            "geometry {id}: line {}: source {position} has no <float_array>",
            line_of(source)
        )
    })?;
    let values = numbers(array).map_err(|e| format!("geometry {id}: {e}"))?;
    let accessor = child(source, "technique_common").and_then(|t| child(t, "accessor"));
    let attr = |name: &str| -> Result<Option<usize>, String> {
        match accessor {
            Some(a) => whole_attribute(a, name).map_err(|e| format!("geometry {id}: {e}")),
            None => Ok(None),
        }
    };
    let stride = attr("stride")?.unwrap_or(3).max(3);
    let offset = attr("offset")?.unwrap_or(0);
    let count = match attr("count")? {
        Some(count) => count,
        None => values.len().saturating_sub(offset) / stride,
    };
    (0..count)
        .map(|k| {
            let at = offset.saturating_add(k.saturating_mul(stride));
            values
                .get(at..at.saturating_add(3))
                .map(|c| DVec3::new(c[0], c[1], c[2]))
                .ok_or_else(|| {
                    format!(
                        "geometry {id}: line {}: its accessor (count {count}, stride {stride}, \
                         offset {offset}) reads past the array's {} numbers",
                        accessor.map_or(line_of(array), line_of),
                        values.len()
                    )
                })
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

/// An element's whitespace-separated numbers, each finite: a word that is not one
/// (`x`, and `nan`, `inf`, which Rust would read) is refused with the element's line.
fn numbers(node: Node<'_, '_>) -> Result<Vec<f64>, String> {
    node.text()
        .unwrap_or("")
        .split_ascii_whitespace()
        .map(|t| match t.parse::<f64>() {
            Ok(v) if v.is_finite() => Ok(v),
            _ => Err(format!(
                "line {}: <{}> holds `{t}`, not a finite number",
                line_of(node),
                node.tag_name().name()
            )),
        })
        .collect()
}

fn vector(values: &[f64], element: Node<'_, '_>) -> Result<DVec3, String> {
    match values {
        [x, y, z] => Ok(DVec3::new(*x, *y, *z)),
        _ => Err(format!(
            "line {}: <{}> needs 3 numbers",
            line_of(element),
            element.tag_name().name()
        )),
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

    /// Words that are not numbers were skipped or read as defaults: an `offset` that
    /// does not parse read as 0 (another input's indices), an index list with a bad word
    /// dropped unsaid, an accessor's `stride` read as 3; `nan` parsed. Each is refused
    /// with its line and word.
    #[test]
    fn words_that_are_not_numbers_are_refused_with_their_line() {
        let triangles = |offset: &str, p: &str| {
            format!(
                r##"<COLLADA><library_geometries><geometry id="g"><mesh>
<source id="p"><float_array count="9">0 0 0 1 0 0 0 1 0</float_array>
<technique_common><accessor source="#a" count="3" stride="3"/></technique_common></source>
<vertices id="v"><input semantic="POSITION" source="#p"/></vertices>
<triangles count="1"><input semantic="VERTEX" source="#v" offset="{offset}"/>
<p>{p}</p></triangles>
</mesh></geometry></library_geometries></COLLADA>"##
            )
        };
        assert_eq!(
            document_mesh(&Document::parse(&triangles("0", "0 1 2")).unwrap())
                .unwrap()
                .1,
            vec![[0, 1, 2]]
        );
        for (text, expected) in [
            (triangles("x", "0 1 2"), &["line 5", "`x`", "offset"][..]),
            (triangles("0", "0 1.5 2"), &["line 6", "`1.5`"]),
            (triangles("0", "0 -1 2"), &["line 6", "`-1`"]),
            (triangles("0", "0 1 7"), &["line 6", "index 7"]),
            (
                triangles("0", "0 1 2").replace("1 0 0 0", "1 nan 0 0"),
                &["line 2", "`nan`"],
            ),
            (
                triangles("0", "0 1 2").replace("stride=\"3\"", "stride=\"3x\""),
                &["line 3", "`3x`", "stride"],
            ),
        ] {
            let doc = Document::parse(&text).unwrap();
            let err = document_mesh(&doc).unwrap_err();
            for e in expected {
                assert!(err.contains(e), "{err:?} lacks {e:?}");
            }
        }
    }
}
