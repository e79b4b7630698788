//! Collidescope's solver core: everything the viewer, the CLI and the Python package
//! answer queries with, and nothing of theirs (no Bevy, no command line, no plots).
//!
//! - Geometry: rigid poses ([`pose`]); convex shapes given by their support maps
//!   ([`shape`]: closed forms, polytopes with checked hulls, unions, dilated and implicit
//!   shapes); the Minkowski difference they are queried through ([`minkowski`]);
//!   composite shapes (triangle meshes, height fields, compounds) answered through a
//!   midphase into the convex methods ([`composite`]).
//! - Solvers ([`solver`]): one folder per method family (GJK and its accelerated
//!   variants, Frank-Wolfe, EPA, time of impact, the LP collision test, the interior
//!   point), each a run to its end that writes its own per-step records when given a
//!   buffer, every method a row of one catalog.
//! - Inputs: one opener ([`input`]: a scene or an engine's query), scene files
//!   ([`scene`]), mesh files ([`mesh`]: one reader per format, one dispatcher), queries
//!   captured from parry, FCL/Coal and MuJoCo ([`import`]), URDF robots for
//!   self-collision ([`robot`]).
//! - Around the answers: parry3d-f64's answer beside ours ([`cross_check`], through
//!   [`parry_bridge`]), reproductions for Coal and parry ([`export`]), bounds printed on
//!   the safe side ([`printed_bound`]), a seeded random source ([`rng`]).
//!
//! The `clap` feature (turned on by the CLI) lets the command line parse the settings'
//! enums directly; the core builds without it.

pub mod composite;
pub mod cross_check;
pub mod export;
pub mod import;
pub mod input;
pub mod lesson_markup;
pub mod mesh;
pub mod minkowski;
pub mod nearest;
pub mod parry_bridge;
pub mod pose;
pub mod printed_bound;
pub mod rng;
pub mod robot;
pub mod scene;
pub mod shape;
pub mod sketch;
pub mod solver;
pub mod tessellate;

pub use glam::{DMat3, DQuat, DVec3};
