//! PLY meshes (ASCII and both binary encodings, through `ply-rs-bw`): the `vertex`
//! element's points, its faces checked, and where things are in the file for the
//! refusals (a line of an ASCII file, a byte of a binary one).

use std::path::Path;

use glam::DVec3;

use super::MeshError;

/// A PLY file's hull, each refusal placed by the header (a vertex's line or byte).
pub(super) fn load(path: &Path) -> Result<super::ImportedMesh, MeshError> {
    let (points, layout, polygons) = read_ply_points(path)?;
    let faces = polygons.iter().map(|f| f.len().saturating_sub(2)).sum();
    super::mesh_of_points(path, &points, faces, |k| layout.vertex_place(k))
}

/// A PLY file's faces as triangles (each polygon a fan from its first corner).
pub(super) fn triangles(path: &Path) -> Result<Vec<[DVec3; 3]>, MeshError> {
    let (points, _, polygons) = read_ply_points(path)?;
    let at = |i: u32| points[i as usize];
    Ok(polygons
        .iter()
        .flat_map(|f| (1..f.len().saturating_sub(1)).map(move |k| [f[0], f[k], f[k + 1]]))
        .map(|t| t.map(at))
        .collect())
}

/// Where things are in a PLY file, from its header: the encoding, the header's length
/// in lines and bytes, and each element's name, count, header line and record size in
/// bytes (`None` when it holds a list).
struct PlyLayout {
    ascii: bool,
    header_lines: usize,
    header_bytes: usize,
    elements: Vec<(String, usize, usize, Option<usize>)>,
}

impl PlyLayout {
    /// The header of `bytes`, when it ends with `end_header`.
    fn of(bytes: &[u8]) -> Option<PlyLayout> {
        let mut layout = PlyLayout {
            ascii: false,
            header_lines: 0,
            header_bytes: 0,
            elements: Vec::new(),
        };
        let mut at = 0;
        for (n, raw) in bytes.split(|b| *b == b'\n').enumerate() {
            at += raw.len() + 1;
            let line = String::from_utf8_lossy(raw);
            let words: Vec<&str> = line.split_whitespace().collect();
            match words.as_slice() {
                ["format", format, ..] => layout.ascii = *format == "ascii",
                ["element", name, count] => {
                    let count = count.parse().ok()?;
                    layout
                        .elements
                        .push((name.to_string(), count, n + 1, Some(0)));
                }
                ["property", "list", ..] => {
                    if let Some(element) = layout.elements.last_mut() {
                        element.3 = None;
                    }
                }
                ["property", kind, _] => {
                    let size = match *kind {
                        "char" | "uchar" | "int8" | "uint8" => 1,
                        "short" | "ushort" | "int16" | "uint16" => 2,
                        "int" | "uint" | "float" | "int32" | "uint32" | "float32" => 4,
                        "double" | "float64" => 8,
                        _ => return None,
                    };
                    if let Some(element) = layout.elements.last_mut() {
                        element.3 = element.3.map(|s| s + size);
                    }
                }
                ["end_header"] => {
                    layout.header_lines = n + 1;
                    layout.header_bytes = at.min(bytes.len());
                    return Some(layout);
                }
                _ => {}
            }
        }
        None
    }

    /// Where record `k` of `element` is: its line (ASCII), else its index.
    fn element_place(&self, element: &str, k: usize) -> String {
        match self.elements.iter().position(|e| e.0 == element) {
            Some(e) if self.ascii => {
                let rows: usize = self.elements[..e].iter().map(|e| e.1).sum();
                format!("line {} ({element} {k})", self.header_lines + rows + k + 1)
            }
            _ => format!("{element} {k} of the binary payload"),
        }
    }

    /// Where vertex `k` is: its line (ASCII), its byte (binary, when every record
    /// before it has a fixed size), or its index in the payload.
    fn vertex_place(&self, k: usize) -> String {
        let Some(e) = self.elements.iter().position(|e| e.0 == "vertex") else {
            return format!("vertex {k}");
        };
        let before = &self.elements[..e];
        if self.ascii {
            let rows: usize = before.iter().map(|e| e.1).sum();
            return format!("line {} (vertex {k})", self.header_lines + rows + k + 1);
        }
        let sizes: Option<usize> = before.iter().map(|e| e.3.map(|s| s * e.1)).sum();
        match (sizes, self.elements[e].3) {
            (Some(skip), Some(size)) => {
                format!("byte {} (vertex {k})", self.header_bytes + skip + k * size)
            }
            _ => format!(
                "vertex {k} of the binary payload (which starts at byte {})",
                self.header_bytes
            ),
        }
    }

    /// Where a payload that ply-rs refused without a line goes wrong, as far as the
    /// header tells: the payload's first line or byte, and the bytes it needs.
    fn payload_place(&self, length: usize) -> String {
        if self.ascii {
            return format!(
                "in the payload from line {} (after the header)",
                self.header_lines + 1
            );
        }
        let needed: Option<usize> = self.elements.iter().map(|e| e.3.map(|s| s * e.1)).sum();
        match needed {
            Some(needed) => format!(
                "the binary payload starts at byte {} and needs {needed} bytes; the file ends at byte {length}",
                self.header_bytes
            ),
            None => format!(
                "the binary payload starts at byte {}; the file ends at byte {length}",
                self.header_bytes
            ),
        }
    }

    /// The header line of element `name`.
    fn element_line(&self, name: &str) -> Option<usize> {
        self.elements.iter().find(|e| e.0 == name).map(|e| e.2)
    }
}

/// The vertices of a PLY file (`ply-rs-bw`): the `vertex` element's `x`, `y`, `z`; and
/// where things are in it, for the refusals.
/// The points, the header's layout and the faces (each a polygon of vertex indices,
/// every index checked) of a PLY file.
type PlyContents = (Vec<DVec3>, PlyLayout, Vec<Vec<u32>>);

fn read_ply_points(path: &Path) -> Result<PlyContents, MeshError> {
    use ply_rs_bw::parser::Parser;
    use ply_rs_bw::ply::{DefaultElement, Property};
    let fail = |reason: String| MeshError::Parse {
        path: path.to_path_buf(),
        format: "PLY",
        reason,
    };
    let bytes = std::fs::read(path).map_err(|source| MeshError::Io {
        path: path.to_path_buf(),
        source,
    })?;
    let layout = PlyLayout::of(&bytes);
    let ply = Parser::<DefaultElement>::new()
        .read_ply(&mut std::io::Cursor::new(&bytes))
        .map_err(|e| {
            let e = e.to_string().replace("\n\t", "; ");
            // ply-rs names the line of the header and of an ASCII payload ("Line 7: ").
            let named = e.starts_with("Line ") && (layout.as_ref().is_none_or(|l| l.ascii));
            fail(match &layout {
                _ if named => e,
                None => format!(
                    "{e} (the header, lines 1 to {}, has no `end_header` line)",
                    bytes.split(|b| *b == b'\n').count()
                ),
                Some(layout) => {
                    let e = e.strip_prefix("Line ").map_or(e.clone(), |rest| {
                        rest.split_once(": ")
                            .map_or(rest.to_string(), |r| r.1.to_string())
                    });
                    format!("{e} ({})", layout.payload_place(bytes.len()))
                }
            })
        })?;
    let layout = layout.unwrap_or(PlyLayout {
        ascii: true,
        header_lines: 0,
        header_bytes: 0,
        elements: Vec::new(),
    });
    let header_place = match layout.header_lines {
        0 => "the header".to_string(),
        n => format!("the header (lines 1 to {n})"),
    };
    let vertices = ply
        .payload
        .get("vertex")
        .ok_or_else(|| fail(format!("{header_place} declares no `vertex` element")))?;
    let element = layout
        .element_line("vertex")
        .map_or(header_place.clone(), |n| format!("line {n}"));
    let number = |v: &DefaultElement, key: &str| -> Result<f64, MeshError> {
        match v.get(key) {
            Some(Property::Float(x)) => Ok(f64::from(*x)),
            Some(Property::Double(x)) => Ok(*x),
            Some(Property::Int(x)) => Ok(f64::from(*x)),
            Some(Property::UInt(x)) => Ok(f64::from(*x)),
            Some(Property::Short(x)) => Ok(f64::from(*x)),
            Some(Property::UShort(x)) => Ok(f64::from(*x)),
            Some(Property::Char(x)) => Ok(f64::from(*x)),
            Some(Property::UChar(x)) => Ok(f64::from(*x)),
            Some(_) => Err(fail(format!(
                "{element}: the vertex property `{key}` is a list, not a number"
            ))),
            None => Err(fail(format!(
                "{element}: the vertex element has no property `{key}`"
            ))),
        }
    };
    let mut points = Vec::with_capacity(vertices.len());
    for (i, v) in vertices.iter().enumerate() {
        let p = DVec3::new(number(v, "x")?, number(v, "y")?, number(v, "z")?);
        if !p.is_finite() {
            return Err(fail(format!(
                "{}: the vertex ({p}) is not finite",
                layout.vertex_place(i)
            )));
        }
        points.push(p);
    }
    // The hull needs only the points, but a face naming a vertex that is not there is a
    // broken file (as in OBJ), not one to answer silently.
    let mut faces = Vec::new();
    if let Some(list) = ply.payload.get("face") {
        for (k, face) in list.iter().enumerate() {
            let indices = face
                .get("vertex_indices")
                .or_else(|| face.get("vertex_index"))
                .and_then(list_of_indices);
            let Some(indices) = indices else {
                return Err(fail(format!(
                    "{}: the face has no `vertex_indices` list of integers",
                    layout.element_place("face", k)
                )));
            };
            if let Some(bad) = indices
                .iter()
                .find(|i| **i < 0 || **i as usize >= points.len())
            {
                return Err(fail(format!(
                    "{}: the face names vertex {bad}, and the file has {} (0 to {})",
                    layout.element_place("face", k),
                    points.len(),
                    points.len().saturating_sub(1)
                )));
            }
            faces.push(indices.iter().map(|i| *i as u32).collect());
        }
    }
    Ok((points, layout, faces))
}

/// A PLY list property's integers.
fn list_of_indices(property: &ply_rs_bw::ply::Property) -> Option<Vec<i64>> {
    use ply_rs_bw::ply::Property;
    Some(match property {
        Property::ListChar(v) => v.iter().map(|x| i64::from(*x)).collect(),
        Property::ListUChar(v) => v.iter().map(|x| i64::from(*x)).collect(),
        Property::ListShort(v) => v.iter().map(|x| i64::from(*x)).collect(),
        Property::ListUShort(v) => v.iter().map(|x| i64::from(*x)).collect(),
        Property::ListInt(v) => v.iter().map(|x| i64::from(*x)).collect(),
        Property::ListUInt(v) => v.iter().map(|x| i64::from(*x)).collect(),
        _ => return None,
    })
}

/// Where a mesh file without points says so: its header's vertex count (PLY).
pub(super) fn empty_place(path: &Path) -> String {
    let bytes = std::fs::read(path).unwrap_or_default();
    match PlyLayout::of(&bytes).and_then(|l| l.element_line("vertex")) {
        Some(line) => format!("line {line}: `element vertex` counts 0"),
        None if bytes.is_empty() => "the file is empty".to_string(),
        None => format!("bytes 0 to {}", bytes.len()),
    }
}
