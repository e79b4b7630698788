//! Shapes that are not one convex body, answered through the convex families: triangle
//! meshes (non-convex, open or closed, with their edge topology) and the midphase that
//! picks which of their triangles to run.

pub mod heightfield;
pub mod internal_edges;
pub mod midphase;
pub mod trimesh;

pub use heightfield::{HeightField, HeightFieldError};
pub use midphase::{mesh_convex_distance, MeshAnswer, MeshTree, SubPair};
pub use trimesh::{Across, TriMesh, TriMeshError};
