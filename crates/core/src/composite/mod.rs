//! Shapes that are not one convex body, answered through the convex families: triangle
//! meshes (non-convex, open or closed, with their edge topology), height fields (as the
//! mesh they make) and compounds of convex parts, the midphase that picks which of their
//! pieces to run, and the internal-edge analysis of contacts on a mesh.

pub mod contacts;
pub mod heightfield;
pub mod hull_start;
pub mod internal_edges;
pub mod midphase;
pub mod pieces;
pub mod query;
pub mod shape;
pub mod triangle_pair;
pub mod trimesh;

pub use heightfield::{HeightField, HeightFieldError};
pub use midphase::{
    composite_composite_distance, composite_convex_distance, recording_nodes, CompositeAnswer,
    CompositeTree, SubPair, VisitedNode,
};
pub use pieces::{Part, Pieces};
pub use query::{run_composite, CompositeRun, Side};
pub use shape::{Composite, CompositeError, CompositeKind};
pub use trimesh::{Across, TriMesh, TriMeshError};
