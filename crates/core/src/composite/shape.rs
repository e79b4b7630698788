//! A composite as a scene's body holds it: its pieces with their hierarchy, what kind of
//! composite it is (a mesh, a height field, a compound), the number an engine gives each
//! piece, and its convex hull, the stand-in every convex view (drawing it whole, A ⊖ B
//! of the hull, the hull's runs) takes.

use std::sync::Arc;

use glam::DVec3;

use super::heightfield::{HeightField, HeightFieldError};
use super::midphase::CompositeTree;
use super::pieces::{Part, Pieces};
use super::trimesh::{TriMesh, TriMeshError};
use crate::pose::Pose;
use crate::shape::{Polytope, Shape, ShapeError, UnionHull};

/// What kind of composite a body is, and what its pieces are called.
#[derive(Clone, Debug, PartialEq)]
pub enum CompositeKind {
    /// A triangle mesh (a file read as a mesh, an engine's `TriMesh` or `BVHModel`).
    Mesh,
    /// A height field, queried as the mesh it makes (its triangles keep parry's numbers).
    HeightField(HeightField),
    /// Convex parts at their poses.
    Compound,
}

/// Why a composite could not be built; each names the element at fault.
#[derive(Debug, thiserror::Error)]
pub enum CompositeError {
    #[error("{0}")]
    Mesh(#[from] TriMeshError),
    #[error("{0}")]
    HeightField(#[from] HeightFieldError),
    #[error("the hull of the mesh: {0}")]
    Hull(#[from] ShapeError),
    #[error("a compound needs at least one part")]
    NoParts,
    #[error("part {part}: a compound's parts are convex shapes (not a mesh taken as triangles, a height field or a compound)")]
    NonConvexPart { part: usize },
}

/// A composite body: its pieces and hierarchy, built once, shared by the scene's copies.
pub struct Composite {
    kind: CompositeKind,
    tree: CompositeTree,
    /// The engine's number of each piece (parry's triangle number in a height field);
    /// empty where the piece's index is its number.
    engine_ids: Vec<u32>,
    hull: Shape,
}

impl std::fmt::Debug for Composite {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Composite({})", self.describe())
    }
}

impl Composite {
    /// A triangle mesh, with its hull as the convex stand-in.
    pub fn of_mesh(mesh: TriMesh) -> Result<Arc<Self>, CompositeError> {
        let hull = Shape::Polytope(Polytope::from_points(mesh.vertices())?);
        Ok(Arc::new(Self {
            kind: CompositeKind::Mesh,
            tree: CompositeTree::new(Pieces::Triangles(mesh)),
            engine_ids: Vec::new(),
            hull,
        }))
    }

    /// A height field, as the mesh it makes.
    pub fn of_height_field(field: HeightField) -> Result<Arc<Self>, CompositeError> {
        let (mesh, ids) = field.to_mesh()?;
        let hull = Shape::Polytope(Polytope::from_points(mesh.vertices())?);
        Ok(Arc::new(Self {
            kind: CompositeKind::HeightField(field),
            tree: CompositeTree::new(Pieces::Triangles(mesh)),
            engine_ids: ids,
            hull,
        }))
    }

    /// Convex parts at their poses; the hull of their union is the stand-in.
    pub fn of_parts(parts: Vec<Part>) -> Result<Arc<Self>, CompositeError> {
        if parts.is_empty() {
            return Err(CompositeError::NoParts);
        }
        let members = parts
            .iter()
            .map(|p| {
                (
                    p.shape.clone(),
                    Pose::from_matrix(p.pose.translation, p.pose.rotation),
                )
            })
            .collect();
        let hull = Shape::Union(UnionHull::new(members).ok_or(CompositeError::NoParts)?);
        Ok(Arc::new(Self {
            kind: CompositeKind::Compound,
            tree: CompositeTree::new(Pieces::Parts(parts)),
            engine_ids: Vec::new(),
            hull,
        }))
    }

    pub fn kind(&self) -> &CompositeKind {
        &self.kind
    }

    pub fn tree(&self) -> &CompositeTree {
        &self.tree
    }

    pub fn pieces(&self) -> &Pieces {
        self.tree.pieces()
    }

    /// The triangle mesh (a mesh's or a height field's), `None` for a compound.
    pub fn mesh(&self) -> Option<&TriMesh> {
        self.pieces().mesh()
    }

    /// The convex hull of the whole: what a convex view of the body shows and runs.
    pub fn hull(&self) -> &Shape {
        &self.hull
    }

    /// The engine's number of piece `i` (parry's triangle number in a height field).
    pub fn engine_id(&self, i: u32) -> u32 {
        self.engine_ids.get(i as usize).copied().unwrap_or(i)
    }

    /// Piece `i` as a user names it: "triangle 12", "part 3".
    pub fn piece_name(&self, i: u32) -> String {
        match self.kind {
            CompositeKind::Compound => format!("part {i}"),
            _ => format!("triangle {}", self.engine_id(i)),
        }
    }

    /// What the piece kind is called, plural ("triangles", "parts").
    pub fn pieces_word(&self) -> &'static str {
        match self.kind {
            CompositeKind::Compound => "parts",
            _ => "triangles",
        }
    }

    /// One line: "mesh of 1200 triangles (closed)", "height field 32 × 32 (1922
    /// triangles)", "compound of 4 parts".
    pub fn describe(&self) -> String {
        let n = self.pieces().count();
        match &self.kind {
            CompositeKind::Mesh => {
                let closed = self.mesh().is_some_and(TriMesh::is_closed);
                format!(
                    "mesh of {n} triangles ({})",
                    if closed { "closed" } else { "open" }
                )
            }
            CompositeKind::HeightField(f) => {
                format!("height field {} × {} ({n} triangles)", f.rows(), f.cols())
            }
            CompositeKind::Compound => format!("compound of {n} parts"),
        }
    }

    /// The corners of triangle `i` in the composite's frame (meshes and height fields).
    pub fn triangle(&self, i: u32) -> Option<[DVec3; 3]> {
        let mesh = self.mesh()?;
        ((i as usize) < mesh.triangle_count()).then(|| mesh.corners(i as usize))
    }
}
