//! Mesh files, the one place they are read: one reader per format (`obj.rs` through
//! tobj, `stl.rs` in both encodings, `ply.rs` in its three, `collada.rs` for `.dae`)
//! and one dispatcher by extension ([`Format`], [`EXTENSIONS`]) that scenes, robots
//! (collision and visual meshes) and importers all go through.
//!
//! A scene's mesh becomes vertices → checked hull → polytope, with a report a user can
//! check (did the file hold what I think, was it already convex, is it flat, which hull
//! path did it take?). A file of vertices without faces is a point cloud: its hull is
//! the shape, as for a mesh.

mod collada;
mod convexity;
mod obj;
mod ply;
mod stl;
mod topology;

use std::path::{Path, PathBuf};

use glam::DVec3;
use serde::Serialize;
use thiserror::Error;

use crate::shape::hull::check::principal_axes;
use crate::shape::hull::orientation::height;
use crate::shape::hull::planar_face_count;
use crate::shape::{AffineDimension, HullSource, Polytope, ShapeError};

pub use convexity::convexity_defect;
pub use obj::{import_obj_bytes, load_obj};
pub use topology::{topology, Fin, Topology};

/// The mesh formats read, each by its extension (any case).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    Obj,
    Stl,
    Ply,
    Collada,
}

/// The one list of extensions a mesh file may have, with their formats.
pub const EXTENSIONS: [(&str, Format); 4] = [
    ("obj", Format::Obj),
    ("stl", Format::Stl),
    ("ply", Format::Ply),
    ("dae", Format::Collada),
];

impl Format {
    /// The format of `path`, by its extension, or the refusal naming the file.
    pub fn of(path: &Path) -> Result<Format, MeshError> {
        let extension = path
            .extension()
            .and_then(|e| e.to_str())
            .map(str::to_ascii_lowercase);
        EXTENSIONS
            .iter()
            .find(|(e, _)| Some(*e) == extension.as_deref())
            .map(|(_, format)| *format)
            .ok_or_else(|| MeshError::Unsupported {
                path: path.to_path_buf(),
            })
    }
}

/// Why a mesh file could not become a shape.
#[derive(Debug, Error)]
pub enum MeshError {
    /// An extension not in [`EXTENSIONS`].
    #[error("{path}: only STL, OBJ, PLY and COLLADA (.dae) meshes are read")]
    Unsupported { path: PathBuf },
    /// The file is not there: said as such, not as a format's parse failure, since
    /// the fix is the path (a `package://` root, a typo), not the file.
    #[error("{path}: the file does not exist")]
    Missing { path: PathBuf },
    #[error("{path}: cannot read: {source}")]
    Io {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("{path}: not a valid {format} file ({reason})")]
    Parse {
        path: PathBuf,
        /// "OBJ", "STL", "PLY" or "COLLADA".
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
    /// How the file's triangles join, when asked for ([`load_mesh_with_topology`]):
    /// convexity alone hides an edge of three triangles, which decides what a scene
    /// and a robot check make of the file.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub topology: Option<Topology>,
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
        if let Some(topology) = &self.topology {
            writeln!(f, "surface         {topology}")?;
        }
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
/// encodings, COLLADA) and builds its convex hull: every place that takes an OBJ takes
/// these.
pub fn load_mesh(path: &Path) -> Result<ImportedMesh, MeshError> {
    require_file(path)?;
    match Format::of(path)? {
        Format::Obj => load_obj(path),
        Format::Ply => ply::load(path),
        Format::Stl => {
            let points = stl::read_stl_points(path).map_err(|reason| parse(path, "STL", reason))?;
            // An STL's coordinates are f32 (within the points' limit) and finite (checked).
            mesh_of_points(path, &points, points.len() / 3, |k| {
                format!("triangle {} vertex {}", k / 3, k % 3)
            })
        }
        Format::Collada => {
            let (points, triangles) = collada::read_collada_mesh(path)
                .map_err(|reason| parse(path, "COLLADA", reason))?;
            // Finite (checked), placed and scaled in f64.
            mesh_of_points(path, &points, triangles.len(), |k| format!("point {k}"))
        }
    }
}

/// [`load_mesh`], with the report's [`MeshReport::topology`] (the file read a second
/// time, as its triangles: for `collidescope mesh`, not for every scene that loads a hull).
pub fn load_mesh_with_topology(path: &Path) -> Result<ImportedMesh, MeshError> {
    let mut mesh = load_mesh(path)?;
    mesh.report.topology = topology(path)?;
    Ok(mesh)
}

/// Refuses a path where no file exists with [`MeshError::Missing`], before any
/// reader turns the missing file into a message about the format.
fn require_file(path: &Path) -> Result<(), MeshError> {
    match std::fs::metadata(path) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Err(MeshError::Missing {
            path: path.to_path_buf(),
        }),
        _ => Ok(()),
    }
}

/// A reader's refusal (which names the file) as a parse error.
fn parse(path: &Path, format: &'static str, reason: String) -> MeshError {
    MeshError::Parse {
        path: path.to_path_buf(),
        format,
        reason: strip_path(path, reason),
    }
}

/// A mesh file's vertices, for a robot link's hull (which a URDF `scale` and `<origin>`
/// then place): an STL's and a COLLADA file's as read, an OBJ's and a PLY's hull
/// vertices. Each finite and within the points' limit, or refused naming the file.
pub fn points(path: &Path) -> Result<Vec<DVec3>, String> {
    require_file(path).map_err(|e| e.to_string())?;
    let points = match Format::of(path).map_err(|e| e.to_string())? {
        Format::Stl => stl::read_stl_points(path),
        Format::Obj | Format::Ply => load_mesh(path)
            .map(|m| m.polytope.vertices().to_vec())
            .map_err(|e| e.to_string()),
        Format::Collada => collada::read_collada_points(path),
    }?;
    // The mesh file is named where its own numbers are out of range.
    let limit = crate::shape::MAX_COORDINATE;
    if let Some((i, p)) = points
        .iter()
        .enumerate()
        .find(|(_, p)| !(p.is_finite() && p.abs().max_element() <= limit))
    {
        return Err(format!(
            "{}: vertex {i} ({p}) is not finite or lies beyond ±1e75",
            path.display()
        ));
    }
    Ok(points)
}

/// A mesh file's triangles, for drawing (a robot's visual): STL, COLLADA and OBJ as
/// drawn; PLY as its hull's faces.
pub fn triangles(path: &Path) -> Result<Vec<[DVec3; 3]>, String> {
    require_file(path).map_err(|e| e.to_string())?;
    match Format::of(path).map_err(|e| e.to_string())? {
        Format::Stl => stl::read_stl_triangles(path),
        Format::Collada => collada::read_collada_triangles(path),
        Format::Obj => obj::triangles(path),
        Format::Ply => {
            let mesh = load_mesh(path).map_err(|e| e.to_string())?;
            let v = mesh.polytope.vertices();
            Ok(mesh
                .polytope
                .faces()
                .iter()
                .map(|f| [v[f[0] as usize], v[f[1] as usize], v[f[2] as usize]])
                .collect())
        }
    }
}

/// A mesh file's triangles, for a mesh taken as its triangles (`Mesh(path, as: Mesh)`,
/// a URDF link checked as a mesh): every format's faces as the file holds them (an
/// OBJ's and a PLY's polygons as fans), a repeated vertex once per triangle (the mesh
/// welds them). Refused, naming the file: a file without faces (a point cloud is a
/// hull, not a surface), a coordinate that is not finite or beyond ±1e75.
pub fn load_triangles(path: &Path) -> Result<Vec<[DVec3; 3]>, MeshError> {
    require_file(path)?;
    let triangles = match Format::of(path)? {
        Format::Ply => ply::triangles(path)?,
        Format::Stl => stl::read_stl_triangles(path).map_err(|r| parse(path, "STL", r))?,
        Format::Collada => {
            collada::read_collada_triangles(path).map_err(|r| parse(path, "COLLADA", r))?
        }
        Format::Obj => {
            // The hull's reader names the line of a broken file; tobj's triangulation
            // then reads the faces of a good one.
            load_obj(path)?;
            obj::triangles(path).map_err(|r| parse(path, "OBJ", r))?
        }
    };
    if triangles.is_empty() {
        return Err(MeshError::Parse {
            path: path.to_path_buf(),
            format: "mesh",
            reason: "the file has no faces: taken as a mesh it has no triangles (a point \
                     cloud can be taken as its hull, `as: Hull`)"
                .into(),
        });
    }
    let limit = crate::shape::MAX_COORDINATE;
    if let Some((k, p)) = triangles
        .iter()
        .flatten()
        .enumerate()
        .find(|(_, p)| !(p.is_finite() && p.abs().max_element() <= limit))
    {
        return Err(MeshError::Parse {
            path: path.to_path_buf(),
            format: "mesh",
            reason: format!(
                "triangle {} corner {}: ({p}) is not finite or lies beyond ±1e75",
                k / 3,
                k % 3
            ),
        });
    }
    Ok(triangles)
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
pub(super) fn mesh_of_points(
    path: &Path,
    points: &[DVec3],
    faces: usize,
    place: impl Fn(usize) -> String,
) -> Result<ImportedMesh, MeshError> {
    if points.is_empty() {
        return Err(MeshError::Empty {
            path: path.to_path_buf(),
            place: ply::empty_place(path),
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

pub(super) fn report(
    path: &Path,
    points: &[DVec3],
    input_faces: usize,
    polytope: &Polytope,
) -> MeshReport {
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
        topology: None,
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
