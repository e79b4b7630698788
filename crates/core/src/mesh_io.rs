//! OBJ import: vertices (tobj) → checked hull → polytope, with a report a user can check
//! (did the file hold what I think, was it already convex, is it flat, which hull path
//! did it take?). A file of vertices without faces is a point cloud: its hull is the
//! shape, as for a mesh.

use std::path::{Path, PathBuf};

use glam::DVec3;
use serde::Serialize;
use thiserror::Error;

use crate::shape::hull::check::principal_axes;
use crate::shape::hull::orientation::height;
use crate::shape::hull::planar_face_count;
use crate::shape::{AffineDimension, HullSource, Polytope, ShapeError};

/// Why an OBJ file could not become a shape.
#[derive(Debug, Error)]
pub enum MeshError {
    #[error("{path}: cannot read: {source}")]
    Io {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("{path}: not a valid {format} file ({reason})")]
    Parse {
        path: PathBuf,
        /// "OBJ", "STL" or "PLY".
        format: &'static str,
        reason: String,
    },
    /// `place`: where the vertices should be (`lines 1 to 3 hold no v line`).
    #[error("{path}: {place}: the file holds no vertices")]
    Empty { path: PathBuf, place: String },
    #[error("{path}:{line}: a vertex needs three numbers, got `{text}`")]
    BadVertex {
        path: PathBuf,
        line: usize,
        text: String,
    },
    /// `place`: where in the file the offending point is (`line 5: `, `byte 96: `).
    #[error("{path}: {place}{source}")]
    Shape {
        path: PathBuf,
        place: String,
        #[source]
        source: ShapeError,
    },
}

/// What the importer found.
#[derive(Clone, Debug, Serialize)]
pub struct MeshReport {
    pub path: PathBuf,
    pub input_vertices: usize,
    /// `v` lines of the file that no face uses (ignored, as a mesh's hull ignores them).
    pub unused_vertices: usize,
    /// Triangles after triangulating the file's polygons (0 for a point cloud).
    pub input_faces: usize,
    pub hull_vertices: usize,
    /// Planar faces of the hull (coplanar triangles merged).
    pub hull_faces: usize,
    /// Triangles of the hull as drawn.
    pub hull_triangles: usize,
    /// Smallest width of the set over its largest extent, for solids: how thin it is.
    pub thinness: Option<f64>,
    pub dimension: AffineDimension,
    /// Every input vertex lies on the hull's boundary. `None` for a flat (or thinner)
    /// set, where the 3-D question does not apply.
    pub convex: Option<bool>,
    pub aabb_min: DVec3,
    pub aabb_max: DVec3,
    /// Which hull the shape uses (checked), or why support scans the points.
    pub hull: HullSource,
}

impl MeshReport {
    pub fn is_flat(&self) -> bool {
        self.dimension != AffineDimension::Solid
    }
}

impl std::fmt::Display for MeshReport {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        writeln!(f, "file            {}", self.path.display())?;
        if self.input_faces == 0 {
            writeln!(
                f,
                "input           {} vertices, no faces (a point cloud: the shape is its hull)",
                self.input_vertices
            )?;
        } else {
            writeln!(
                f,
                "input           {} vertices, {} faces (triangles)",
                self.input_vertices, self.input_faces
            )?;
        }
        if self.unused_vertices > 0 {
            writeln!(
                f,
                "note            {} more vertices in the file are used by no face: ignored",
                self.unused_vertices
            )?;
        }
        writeln!(
            f,
            "hull            {} vertices, {} faces ({} triangles)",
            self.hull_vertices, self.hull_faces, self.hull_triangles
        )?;
        let convex = match self.convex {
            Some(true) => "yes (every vertex is on the hull)",
            Some(false) => "no (some vertices are inside the hull)",
            None => "not applicable (flat)",
        };
        writeln!(f, "convex          {convex}")?;
        let thin;
        let flat = match self.dimension {
            AffineDimension::Solid => match self.thinness {
                Some(t) if t < 1e-3 => {
                    thin = format!("no, but thin: its smallest width is {t:.1e} of its length (kept as a solid)");
                    thin.as_str()
                }
                _ => "no",
            },
            AffineDimension::Polygon => {
                "yes: all vertices lie in one plane (the shape is a polygon)"
            }
            AffineDimension::Segment => {
                "yes: all vertices lie on one line (the shape is a segment)"
            }
            AffineDimension::Point => "yes: all vertices coincide (the shape is a point)",
        };
        writeln!(f, "flat            {flat}")?;
        writeln!(f, "hull path       {}", self.hull)?;
        let (lo, hi) = (self.aabb_min, self.aabb_max);
        write!(
            f,
            "bounding box    [{:.6}, {:.6}, {:.6}] .. [{:.6}, {:.6}, {:.6}]",
            lo.x, lo.y, lo.z, hi.x, hi.y, hi.z
        )
    }
}

/// A loaded mesh: the polytope and its report.
#[derive(Clone, Debug)]
pub struct ImportedMesh {
    pub polytope: Polytope,
    pub report: MeshReport,
}

/// Loads a mesh by its extension (OBJ, STL in either encoding, PLY in any of its three
/// encodings) and builds its convex hull: every place that takes an OBJ takes these.
pub fn load_mesh(path: &Path) -> Result<ImportedMesh, MeshError> {
    let extension = path
        .extension()
        .and_then(|e| e.to_str())
        .map(str::to_ascii_lowercase);
    let points = match extension.as_deref() {
        Some("stl") => {
            crate::robot::stl::read_stl_points(path).map_err(|reason| MeshError::Parse {
                path: path.to_path_buf(),
                format: "STL",
                reason: strip_path(path, reason),
            })?
        }
        Some("ply") => {
            let (points, layout, faces) = read_ply_points(path)?;
            return mesh_of_points(path, &points, faces, |k| layout.vertex_place(k));
        }
        _ => return load_obj(path),
    };
    // An STL's coordinates are f32 (within the points' limit) and finite (checked).
    mesh_of_points(path, &points, points.len() / 3, |k| {
        format!("triangle {} vertex {}", k / 3, k % 3)
    })
}

/// Messages of the STL reader start with the path; the error adds it again.
fn strip_path(path: &Path, reason: String) -> String {
    let prefix = format!("{}: ", path.display());
    reason
        .strip_prefix(&prefix)
        .map(str::to_string)
        .unwrap_or(reason)
}

/// A point set read from a mesh file, as a polytope with its report (`faces`: the
/// file's triangles, for the report).
fn mesh_of_points(
    path: &Path,
    points: &[DVec3],
    faces: usize,
    place: impl Fn(usize) -> String,
) -> Result<ImportedMesh, MeshError> {
    if points.is_empty() {
        return Err(MeshError::Empty {
            path: path.to_path_buf(),
            place: empty_place(path),
        });
    }
    let polytope = Polytope::from_points(points).map_err(|source| MeshError::Shape {
        path: path.to_path_buf(),
        place: match &source {
            ShapeError::NonFinitePoint { index, .. }
            | ShapeError::CoordinateTooLarge { index, .. } => format!("{}: ", place(*index)),
            _ => String::new(),
        },
        source,
    })?;
    let report = report(path, points, faces, &polytope);
    Ok(ImportedMesh { polytope, report })
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
fn read_ply_points(path: &Path) -> Result<(Vec<DVec3>, PlyLayout, usize), MeshError> {
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
    let mut faces = 0;
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
            faces += indices.len().saturating_sub(2);
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

/// Loads an OBJ file and builds its convex hull.
pub fn load_obj(path: &Path) -> Result<ImportedMesh, MeshError> {
    let bytes = std::fs::read(path).map_err(|source| MeshError::Io {
        path: path.to_path_buf(),
        source,
    })?;
    import_obj_bytes(path, &bytes)
}

/// Imports OBJ text already in memory (`path` names it in messages).
pub fn import_obj_bytes(path: &Path, bytes: &[u8]) -> Result<ImportedMesh, MeshError> {
    let (points, faces) = parse_obj(path, bytes)?;
    let polytope = Polytope::from_points(&points).map_err(|source| MeshError::Shape {
        path: path.to_path_buf(),
        place: match &source {
            ShapeError::NonFinitePoint { x, y, z, .. }
            | ShapeError::CoordinateTooLarge { x, y, z, .. } => {
                obj_vertex_line(bytes, [*x, *y, *z])
            }
            _ => String::new(),
        },
        source,
    })?;
    let mut report = report(path, &points, faces, &polytope);
    if faces > 0 {
        let vertex_lines = String::from_utf8_lossy(bytes)
            .lines()
            .filter(|l| l.trim_start().starts_with("v "))
            .count();
        report.unused_vertices = vertex_lines.saturating_sub(points.len());
    }
    Ok(ImportedMesh { polytope, report })
}

/// Where an OBJ file tobj refused goes wrong (tobj names no line): the first byte that
/// is not UTF-8, or the first line tobj refuses: a vertex without three numbers (or
/// with a `w` that is not a nonzero number, or colours that are not three), a `vt` or
/// `vn` without its numbers, a `usemtl` without a name, a face index that is not a
/// number, is 0, or lies beyond the vertices, texture coordinates or normals (1-based;
/// negative counts back from the last so far).
fn obj_fault(bytes: &[u8]) -> Option<(usize, &'static str, String)> {
    if let Err(e) = std::str::from_utf8(bytes) {
        let at = e.valid_up_to();
        let line = bytes[..at].iter().filter(|b| **b == b'\n').count() + 1;
        return Some((line, "not UTF-8", format!("byte {at}")));
    }
    let text = String::from_utf8_lossy(bytes);
    let count = |key: &str| {
        text.lines()
            .filter(|l| l.split_whitespace().next() == Some(key))
            .count() as i64
    };
    let totals = [count("v"), count("vt"), count("vn")];
    let mut seen = [0i64; 3];
    let number = |w: &str| w.parse::<f64>().is_ok();
    for (number_of_line, line) in text.lines().enumerate() {
        let at = number_of_line + 1;
        let mut words = line.split_whitespace();
        let key = words.next();
        let rest: Vec<&str> = words.collect();
        match key {
            Some("v") => {
                seen[0] += 1;
                if rest.len() < 3 || !rest[..3].iter().all(|w| number(w)) {
                    return Some((at, "a vertex needs three numbers", line.into()));
                }
                match rest.len() {
                    4 => match rest[3].parse::<f64>() {
                        Ok(0.0) => return Some((at, "a vertex's w (its scale) is 0", line.into())),
                        Ok(_) => {}
                        Err(_) => return Some((at, "a vertex's w is not a number", line.into())),
                    },
                    5 | 7.. => {
                        let what = "a vertex is x y z, x y z w or x y z r g b";
                        return Some((at, what, line.into()));
                    }
                    _ => {}
                }
            }
            Some(kind @ ("vt" | "vn")) => {
                let (slot, needs, what) = if kind == "vt" {
                    (1, 2, "a texture coordinate needs two numbers")
                } else {
                    (2, 3, "a normal needs three numbers")
                };
                seen[slot] += 1;
                if rest.len() < needs || !rest[..needs].iter().all(|w| number(w)) {
                    return Some((at, what, line.into()));
                }
            }
            Some("usemtl") if rest.is_empty() => {
                return Some((at, "`usemtl` needs a material name", line.into()));
            }
            Some(kind @ ("f" | "l")) => {
                if kind == "f" && rest.len() < 3 {
                    return Some((at, "a face needs three corners", line.into()));
                }
                for corner in rest {
                    let parts: Vec<&str> = corner.split('/').collect();
                    if parts.len() > 3 {
                        let what = "a corner is v, v/vt, v//vn or v/vt/vn";
                        return Some((at, what, line.into()));
                    }
                    for (slot, index) in parts.iter().enumerate() {
                        if index.is_empty() && slot > 0 {
                            continue;
                        }
                        let Ok(i) = index.parse::<i64>() else {
                            return Some((at, "a face index is not a number", line.into()));
                        };
                        let valid = if i > 0 {
                            i <= totals[slot]
                        } else {
                            i < 0 && -i <= seen[slot]
                        };
                        if !valid {
                            let what = [
                                "a face index is 0 or beyond the vertices",
                                "a face's texture index is 0 or beyond the texture coordinates",
                                "a face's normal index is 0 or beyond the normals",
                            ][slot];
                            return Some((at, what, line.into()));
                        }
                    }
                }
            }
            _ => {}
        }
    }
    None
}

fn parse_obj(path: &Path, bytes: &[u8]) -> Result<(Vec<DVec3>, usize), MeshError> {
    let options = tobj::LoadOptions {
        triangulate: true,
        ignore_points: true,
        ignore_lines: true,
        ..Default::default()
    };
    let mut reader = std::io::BufReader::new(bytes);
    let (models, _materials) = tobj::load_obj_buf(&mut reader, &options, |_| {
        Err(tobj::LoadError::GenericFailure)
    })
    .map_err(|e| MeshError::Parse {
        path: path.to_path_buf(),
        format: "OBJ",
        reason: match obj_fault(bytes) {
            Some((line, what, text)) => format!("{e}: line {line}: {what}: `{text}`"),
            None => format!(
                "{e}, at a line this reader cannot find (line 1 to {})",
                String::from_utf8_lossy(bytes).lines().count().max(1)
            ),
        },
    })?;
    let mut points = Vec::new();
    let mut faces = 0;
    for model in &models {
        points.extend(
            model
                .mesh
                .positions
                .chunks_exact(3)
                .map(|c| DVec3::new(c[0], c[1], c[2])),
        );
        faces += model.mesh.indices.len() / 3;
    }
    if faces == 0 {
        points = point_cloud(path, bytes)?;
    }
    if points.is_empty() {
        let lines = String::from_utf8_lossy(bytes).lines().count();
        return Err(MeshError::Empty {
            path: path.to_path_buf(),
            place: match lines {
                0 => "the file is empty".to_string(),
                n => format!("lines 1 to {n} hold no `v` line"),
            },
        });
    }
    Ok((points, faces))
}

/// Where a mesh file without points says so: its header's vertex count (PLY).
fn empty_place(path: &Path) -> String {
    let bytes = std::fs::read(path).unwrap_or_default();
    match PlyLayout::of(&bytes).and_then(|l| l.element_line("vertex")) {
        Some(line) => format!("line {line}: `element vertex` counts 0"),
        None if bytes.is_empty() => "the file is empty".to_string(),
        None => format!("bytes 0 to {}", bytes.len()),
    }
}

/// The line of the OBJ vertex whose coordinates are `p` (tobj orders a mesh's points by
/// their first use, not by their lines): `line N: `, or the first `v` line whose
/// coordinates are not finite or beyond the points' limit.
fn obj_vertex_line(bytes: &[u8], p: [f64; 3]) -> String {
    let text = String::from_utf8_lossy(bytes);
    let vertices = text.lines().enumerate().filter_map(|(n, l)| {
        let mut words = l.split_whitespace();
        (words.next() == Some("v")).then(|| {
            let c: Vec<f64> = words
                .take(3)
                .map(|w| w.parse().unwrap_or(f64::NAN))
                .collect();
            (n + 1, c)
        })
    });
    let same = |c: &[f64]| {
        c.len() == 3
            && c.iter()
                .zip(p)
                .all(|(a, b)| a.to_bits() == b.to_bits() || (a.is_nan() && b.is_nan()))
    };
    // NaN is wild too.
    let wild = |c: &[f64]| {
        c.iter()
            .any(|x| x.is_nan() || x.abs() > crate::shape::MAX_COORDINATE)
    };
    let found = vertices
        .clone()
        .find(|(_, c)| same(c))
        .or_else(|| vertices.clone().find(|(_, c)| wild(c)));
    found.map_or(String::new(), |(n, _)| format!("line {n}: "))
}

/// The `v x y z` lines of a file without faces (a point cloud, common as hull input).
fn point_cloud(path: &Path, bytes: &[u8]) -> Result<Vec<DVec3>, MeshError> {
    let text = String::from_utf8_lossy(bytes);
    let mut points = Vec::new();
    for (number, line) in text.lines().enumerate() {
        let mut words = line.split_whitespace();
        if words.next() != Some("v") {
            continue;
        }
        let values: Vec<f64> = words.take(3).filter_map(|w| w.parse().ok()).collect();
        if values.len() < 3 {
            return Err(MeshError::BadVertex {
                path: path.to_path_buf(),
                line: number + 1,
                text: line.trim().to_string(),
            });
        }
        points.push(DVec3::new(values[0], values[1], values[2]));
    }
    Ok(points)
}

fn report(path: &Path, points: &[DVec3], input_faces: usize, polytope: &Polytope) -> MeshReport {
    let (aabb_min, aabb_max) = points.iter().fold(
        (DVec3::splat(f64::INFINITY), DVec3::splat(f64::NEG_INFINITY)),
        |(lo, hi), p| (lo.min(*p), hi.max(*p)),
    );
    let convex = (polytope.dimension() == AffineDimension::Solid && !polytope.is_hull_fallback())
        .then(|| all_on_hull_boundary(points, polytope, (aabb_max - aabb_min).length()));

    MeshReport {
        path: path.to_path_buf(),
        input_vertices: points.len(),
        unused_vertices: 0,
        input_faces,
        hull_vertices: polytope.vertices().len(),
        hull_faces: match polytope.dimension() {
            AffineDimension::Solid => planar_face_count(polytope.vertices(), polytope.faces()),
            AffineDimension::Polygon => 1,
            _ => 0,
        },
        hull_triangles: polytope.faces().len(),
        thinness: (polytope.dimension() == AffineDimension::Solid).then(|| thinness(points)),
        dimension: polytope.dimension(),
        convex,
        aabb_min,
        aabb_max,
        hull: polytope.hull_source().clone(),
    }
}

/// The smallest extent along the points' principal axes over the largest.
fn thinness(points: &[DVec3]) -> f64 {
    let extents = principal_axes(points).map(|axis| {
        let (lo, hi) = points
            .iter()
            .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), p| {
                (lo.min(p.dot(axis)), hi.max(p.dot(axis)))
            });
        hi - lo
    });
    let largest = extents.iter().copied().fold(0.0, f64::max);
    let smallest = extents.iter().copied().fold(f64::INFINITY, f64::min);
    if largest > 0.0 {
        smallest / largest
    } else {
        0.0
    }
}

/// Whether every point lies on some face plane of the hull (none strictly inside), to
/// a tolerance of 1e-9 of the set's size: a mesh that is convex up to its file's
/// printed precision counts as convex.
fn all_on_hull_boundary(points: &[DVec3], polytope: &Polytope, size: f64) -> bool {
    let v = polytope.vertices();
    let faces: Vec<(DVec3, DVec3, DVec3, f64)> = polytope
        .faces()
        .iter()
        .filter_map(|f| {
            let (a, b, c) = (v[f[0] as usize], v[f[1] as usize], v[f[2] as usize]);
            let area2 = (b - a).cross(c - a).length();
            (area2 > 0.0).then_some((a, b, c, area2))
        })
        .collect();
    let tolerance = 1e-9 * size.max(f64::MIN_POSITIVE);
    points.iter().all(|p| {
        faces
            .iter()
            .any(|(a, b, c, area2)| height(*a, *b, *c, *p) / area2 >= -tolerance)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn import(text: &str) -> Result<ImportedMesh, MeshError> {
        import_obj_bytes(Path::new("test.obj"), text.as_bytes())
    }

    const CUBE: &str = "v 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\nv 0 0 1\nv 1 0 1\nv 1 1 1\nv 0 1 1\n\
        f 1 2 3 4\nf 5 6 7 8\nf 1 2 6 5\nf 2 3 7 6\nf 3 4 8 7\nf 4 1 5 8\n";

    /// tobj's "face parse error" and "face vertex index out of bounds" name no
    /// line; the refusal does.
    #[test]
    fn a_bad_face_is_refused_with_its_line() {
        for (text, line) in [
            (format!("{CUBE}f 1 2 x\n"), 15),
            (format!("{CUBE}f 1 2 99\n"), 15),
        ] {
            let err = import(&text).unwrap_err().to_string();
            assert!(err.contains(&format!("line {line}")), "{err}");
        }
    }

    #[test]
    fn cube_is_convex_with_eight_hull_vertices() {
        let m = import(CUBE).unwrap();
        assert_eq!(m.report.hull_vertices, 8);
        assert_eq!(m.report.input_faces, 12);
        assert_eq!(m.report.convex, Some(true));
        assert!(!m.report.is_flat());
    }

    #[test]
    fn interior_vertex_makes_it_non_convex() {
        let text = format!("{CUBE}v 0.5 0.5 0.5\nf 1 2 9\n");
        let m = import(&text).unwrap();
        assert_eq!(m.report.convex, Some(false));
        assert_eq!(m.report.hull_vertices, 8);
    }

    #[test]
    fn bad_inputs_give_clear_errors() {
        assert!(matches!(import(""), Err(MeshError::Empty { .. })));
        let short = import("v 0 0 0\nv 1 0\n");
        assert!(
            matches!(
                short,
                Err(MeshError::BadVertex { line: 2, .. }) | Err(MeshError::Parse { .. })
            ),
            "{short:?}"
        );
        let nan = import("v 0 0 0\nv nan 0 0\nv 0 1 0\nf 1 2 3\n");
        assert!(
            matches!(
                nan,
                Err(MeshError::Shape { .. }) | Err(MeshError::Parse { .. })
            ),
            "{nan:?}"
        );
        assert!(import("this is not an obj\nf 1 2 3\n").is_err());
        assert!(matches!(
            load_obj(Path::new("/no/such/file.obj")),
            Err(MeshError::Io { .. })
        ));
    }

    /// A box with the given corner coordinates along x, y and z, as OBJ text.
    fn box_obj(x: f64, y: f64, z: f64) -> String {
        let mut text = String::new();
        for i in 0..8 {
            let c = |bit: usize, v: f64| if i & bit == 0 { 0.0 } else { v };
            text += &format!("v {} {} {}\n", c(1, x), c(2, y), c(4, z));
        }
        text + "f 1 3 4 2\nf 5 6 8 7\nf 1 2 6 5\nf 3 7 8 4\nf 1 5 7 3\nf 2 4 8 6\n"
    }

    #[test]
    fn needle_boxes_keep_eight_vertices_and_six_faces() {
        for length in [100.0, 1e4, 1e6] {
            let m = import(&box_obj(length, 0.01, 0.01)).unwrap();
            let r = &m.report;
            assert_eq!(
                (r.hull_vertices, r.hull_faces, r.hull_triangles),
                (8, 6, 12)
            );
            assert_eq!(r.convex, Some(true), "{r}");
            assert_eq!(r.dimension, AffineDimension::Solid);
            let text = r.to_string();
            assert!(
                text.contains("8 vertices, 6 faces (12 triangles)"),
                "{text}"
            );
            assert!(text.contains("thin"), "{text}");
            assert!(text.contains("hull path"), "{text}");
        }
    }

    #[test]
    fn a_point_cloud_is_the_hull_of_its_points() {
        let m = import("v 0 0 0\nv 1 0 0\nv 0 1 0\nv 0 0 1\nv 0.1 0.1 0.1\n").unwrap();
        assert_eq!(m.report.input_faces, 0);
        assert_eq!(m.report.hull_vertices, 4);
        assert_eq!(m.report.hull_faces, 4);
        assert!(m.report.to_string().contains("point cloud"));
    }

    #[test]
    fn coordinates_that_overflow_are_refused_with_the_file_and_point() {
        let e =
            import("v 0 0 0\nv 1 0 0\nv 0 1 0\nv 0 0 1\nv 1e308 1e308 1e308\nf 1 2 5\nf 3 4 5\n")
                .unwrap_err()
                .to_string();
        assert!(
            e.contains("test.obj") && e.contains("1e308") && e.contains("overflow"),
            "{e}"
        );
    }

    #[test]
    fn flat_mesh_is_a_polygon() {
        let m =
            import("v 0 0 0\nv 2 0 0\nv 2 1 0\nv 0 1 0\nv 1 0.5 0\nf 1 2 3\nf 1 3 4\nf 2 3 5\n")
                .unwrap();
        assert!(m.report.is_flat());
        assert_eq!(m.report.hull_vertices, 4);
        assert_eq!(m.report.dimension, AffineDimension::Polygon);
    }
}
