//! How a mesh file's triangles join (closed, open, or not a surface at all): the
//! convexity line of a mesh's report says nothing about it, yet it decides what a scene
//! (`as: Mesh`, refused with an edge of three triangles), a robot check (kept with a
//! warning) and Python's from_coal (a compound) make of the file.

use std::path::Path;

use glam::DVec3;
use serde::Serialize;

use super::{load_triangles, MeshError};
use crate::composite::{TriMesh, TriMeshError};

/// A mesh file's triangles as a surface.
#[derive(Clone, Debug, Serialize)]
pub struct Topology {
    pub triangles: usize,
    /// Every edge joins two triangles (the surface encloses a volume).
    pub closed: bool,
    /// Edges of three triangles or more: the file is no surface there.
    pub non_manifold_edges: usize,
    /// The first of them (lowest vertices first), to find in a modeller.
    pub first_non_manifold_edge: Option<Fin>,
}

/// An edge of three triangles or more, by where its ends are and which triangles (the
/// file's faces, triangulated, in order) hold it.
#[derive(Clone, Debug, Serialize)]
pub struct Fin {
    pub from: [f64; 3],
    pub to: [f64; 3],
    pub triangles: Vec<u32>,
}

/// The topology of the triangles in `path`; `None` for a file without faces (a point
/// cloud is no surface to describe).
pub fn topology(path: &Path) -> Result<Option<Topology>, MeshError> {
    let triangles = match load_triangles(path) {
        Ok(t) => t,
        Err(MeshError::Parse { .. }) if has_no_faces(path) => return Ok(None),
        Err(e) => return Err(e),
    };
    Ok(Some(of_triangles(&triangles)))
}

/// Whether the file's refusal as triangles was for having none (a point cloud).
fn has_no_faces(path: &Path) -> bool {
    super::load_mesh(path).is_ok_and(|m| m.report.input_faces == 0)
}

/// The topology of a triangle soup (vertices at one position are one, as the mesh
/// welds them).
pub fn of_triangles(triangles: &[[DVec3; 3]]) -> Topology {
    let vertices: Vec<DVec3> = triangles.iter().flatten().copied().collect();
    let indices = (0..triangles.len() as u32)
        .map(|t| [3 * t, 3 * t + 1, 3 * t + 2])
        .collect();
    let Ok((mesh, fins)) = TriMesh::allowing_non_manifold_edges(vertices, indices) else {
        // Finite corners and in-range indices: only an empty list is refused.
        return Topology {
            triangles: 0,
            closed: false,
            non_manifold_edges: 0,
            first_non_manifold_edge: None,
        };
    };
    let first = fins.first().and_then(|e| match e {
        TriMeshError::NonManifoldEdge { a, b, triangles } => Some(Fin {
            from: mesh.vertices()[*a as usize].to_array(),
            to: mesh.vertices()[*b as usize].to_array(),
            triangles: triangles.clone(),
        }),
        _ => None,
    });
    Topology {
        triangles: triangles.len(),
        closed: mesh.is_closed(),
        non_manifold_edges: fins.len(),
        first_non_manifold_edge: first,
    }
}

impl std::fmt::Display for Topology {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let Some(fin) = &self.first_non_manifold_edge else {
            return if self.closed {
                write!(f, "closed (every edge joins two triangles)")
            } else {
                write!(f, "open (some edges have one triangle: a rim)")
            };
        };
        let point = |p: [f64; 3]| format!("({}, {}, {})", p[0], p[1], p[2]);
        let triangles: Vec<String> = fin.triangles.iter().map(u32::to_string).collect();
        write!(
            f,
            "not a surface: {} edge{} of three triangles or more, the first {}–{} (triangles \
             {}); taken as a mesh (`as: Mesh`) a scene refuses it, `robot` keeps it with a \
             warning",
            self.non_manifold_edges,
            if self.non_manifold_edges == 1 {
                ""
            } else {
                "s"
            },
            point(fin.from),
            point(fin.to),
            triangles.join(", ")
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tetrahedron() -> Vec<[DVec3; 3]> {
        let (o, x, y, z) = (DVec3::ZERO, DVec3::X, DVec3::Y, DVec3::Z);
        vec![[o, y, x], [o, x, z], [x, y, z], [o, z, y]]
    }

    #[test]
    fn closed_open_and_finned_meshes_are_told_apart() {
        let closed = of_triangles(&tetrahedron());
        assert!(closed.closed && closed.non_manifold_edges == 0);
        let open = of_triangles(&tetrahedron()[..3]);
        assert!(!open.closed && open.to_string().starts_with("open"));
        let mut finned = tetrahedron();
        finned.push([DVec3::ZERO, DVec3::X, DVec3::new(0.5, -1.0, 0.0)]);
        let report = of_triangles(&finned);
        assert_eq!(report.non_manifold_edges, 1);
        let text = report.to_string();
        assert!(
            text.contains("(0, 0, 0)–(1, 0, 0) (triangles 0, 1, 4)"),
            "{text}"
        );
    }
}
