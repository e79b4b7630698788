//! Convex shapes given by their support maps (Ericson, "The Gilbert-Johnson-Keerthi
//! algorithm" §2.3; polytopes: docs/algorithms.md, "Hulls: thin, huge and far-away
//! shapes").
//!
//! A support map answers "which point of the shape lies furthest along `dir`?"; GJK and
//! Frank-Wolfe need nothing else. Every shape here is defined in its own local frame;
//! poses are applied by the Minkowski difference.

mod any;
pub mod box_axes;
mod capsule;
mod coal_climb;
mod coal_support;
mod cone;
mod cuboid;
mod cylinder;
mod dilated;
mod direction_table;
mod ellipsoid;
mod error;
mod halfspaces;
pub mod hull;
pub mod implicit;
pub mod parry_native;
mod point;
mod polytope;
mod sphere;
mod superellipsoid;
mod support_map;
mod union;

pub use any::Shape;
pub use capsule::Capsule;
pub use coal_support::{coal_from_ours, ours_from_coal, CoalKind, CoalPrimitive};
pub use cone::Cone;
pub use cuboid::Cuboid;
pub use cylinder::Cylinder;
pub use dilated::Dilated;
pub use ellipsoid::Ellipsoid;
pub use error::ShapeError;
pub use halfspaces::halfspace_vertices;
pub use hull::HullSource;
pub use point::PointShape;
pub use polytope::{AffineDimension, Polytope, SupportStrategy, MAX_COORDINATE};
pub use sphere::Sphere;
pub use superellipsoid::Superellipsoid;
pub use support_map::{Aabb, SupportCache, SupportMap};
pub use union::UnionHull;
