//! Collidescope's solver core: convex shapes by support maps, the Minkowski difference,
//! the GJK family and Frank-Wolfe as steppable state machines with per-iteration
//! traces, scene files and OBJ import. The core never depends on Bevy; the viewer lives
//! behind the `app` feature.

pub mod cross_check;
pub mod export;
pub mod import;
pub mod mesh_io;
pub mod minkowski;
pub mod parry_bridge;
pub mod pose;
pub mod printed_bound;
pub mod rng;
pub mod robot;
pub mod scene;
pub mod shape;
pub mod solver;

pub use glam::{DMat3, DQuat, DVec3};
pub mod bench;

#[cfg(feature = "app")]
pub mod app;
