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
    #[error("{path}: not a valid OBJ file ({reason})")]
    Parse { path: PathBuf, reason: String },
    #[error("{path}: the file holds no vertices")]
    Empty { path: PathBuf },
    #[error("{path}:{line}: a vertex needs three numbers, got `{text}`")]
    BadVertex {
        path: PathBuf,
        line: usize,
        text: String,
    },
    #[error("{path}: {source}")]
    Shape {
        path: PathBuf,
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
                reason: strip_path(path, reason),
            })?
        }
        Some("ply") => read_ply_points(path)?,
        _ => return load_obj(path),
    };
    mesh_of_points(path, &points, points.len() / 3)
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
fn mesh_of_points(path: &Path, points: &[DVec3], faces: usize) -> Result<ImportedMesh, MeshError> {
    if points.is_empty() {
        return Err(MeshError::Empty {
            path: path.to_path_buf(),
        });
    }
    let polytope = Polytope::from_points(points).map_err(|source| MeshError::Shape {
        path: path.to_path_buf(),
        source,
    })?;
    let report = report(path, points, faces, &polytope);
    Ok(ImportedMesh { polytope, report })
}

/// The vertices of a PLY file (`ply-rs-bw`): the `vertex` element's `x`, `y`, `z`.
fn read_ply_points(path: &Path) -> Result<Vec<DVec3>, MeshError> {
    use ply_rs_bw::parser::Parser;
    use ply_rs_bw::ply::{DefaultElement, Property};
    let fail = |reason: String| MeshError::Parse {
        path: path.to_path_buf(),
        reason,
    };
    let file = std::fs::File::open(path).map_err(|source| MeshError::Io {
        path: path.to_path_buf(),
        source,
    })?;
    let ply = Parser::<DefaultElement>::new()
        .read_ply(&mut std::io::BufReader::new(file))
        .map_err(|e| fail(format!("not a readable PLY file: {e}")))?;
    let vertices = ply
        .payload
        .get("vertex")
        .ok_or_else(|| fail("no `vertex` element".into()))?;
    let number = |v: &DefaultElement, key: &str, i: usize| -> Result<f64, MeshError> {
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
                "vertex {i}: property `{key}` is a list, not a number"
            ))),
            None => Err(fail(format!("vertex {i}: no property `{key}`"))),
        }
    };
    let mut points = Vec::with_capacity(vertices.len());
    for (i, v) in vertices.iter().enumerate() {
        let p = DVec3::new(number(v, "x", i)?, number(v, "y", i)?, number(v, "z", i)?);
        if !p.is_finite() {
            return Err(fail(format!("vertex {i} is not finite ({p})")));
        }
        points.push(p);
    }
    Ok(points)
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

/// Where an OBJ file tobj refused goes wrong (tobj names no line): the first vertex
/// line without three numbers, or face line with an index that is not a number, is 0,
/// or lies beyond the vertices (1-based; negative counts back from the last so far).
fn obj_fault(bytes: &[u8]) -> Option<(usize, &'static str, String)> {
    let text = String::from_utf8_lossy(bytes);
    let total = text
        .lines()
        .filter(|l| l.split_whitespace().next() == Some("v"))
        .count() as i64;
    let mut seen = 0i64;
    for (number, line) in text.lines().enumerate() {
        let mut words = line.split_whitespace();
        match words.next() {
            Some("v") => {
                seen += 1;
                let numbers = words.take(3).filter(|w| w.parse::<f64>().is_ok()).count();
                if numbers < 3 {
                    return Some((number + 1, "a vertex needs three numbers", line.into()));
                }
            }
            Some("f") => {
                let corners: Vec<&str> = words.collect();
                if corners.len() < 3 {
                    return Some((number + 1, "a face needs three corners", line.into()));
                }
                for corner in corners {
                    let index = corner.split('/').next().unwrap_or("");
                    let Ok(i) = index.parse::<i64>() else {
                        return Some((number + 1, "a face index is not a number", line.into()));
                    };
                    let valid = if i > 0 {
                        i <= total
                    } else {
                        i < 0 && -i <= seen
                    };
                    if !valid {
                        let what = "a face index is 0 or beyond the vertices";
                        return Some((number + 1, what, line.into()));
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
        reason: match obj_fault(bytes) {
            Some((line, what, text)) => format!("{e}: line {line}: {what}: `{text}`"),
            None => e.to_string(),
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
        return Err(MeshError::Empty {
            path: path.to_path_buf(),
        });
    }
    Ok((points, faces))
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
