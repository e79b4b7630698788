//! Convex bodies given by implicit constraints (Chakraborty et al., "Proximity Queries
//! between Convex Objects: An Interior Point Approach for Implicit Surfaces"): a body is
//! the set of points where every constraint `f_i(M_i (x − o_i)) ≤ 0` holds, each primitive
//! placed by an affine map (rotations and non-uniform scaling). The interior-point solver
//! (`solver::interior_point`) works on them; every shape kind with a volume has an
//! implicit form ([`ImplicitBody::of_shape`]).

pub(crate) mod barrier;
mod body;
mod primitive;
mod shape;
mod support;

pub use body::{half_space_constraints, BodyParts, Constraint, ImplicitBody, ImplicitError};
pub use primitive::{outer, Eval, HyperTerm, Primitive, SMOOTHING};
pub use shape::ImplicitShape;
pub(crate) use support::{frame, pull_inside};
pub use support::{interior_of, interior_point, support, support_upper_bound};
