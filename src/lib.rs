//! The `collidescope` package: the command line (`src/main.rs`, `src/cli/`), benchmarks
//! and problem files ([`bench`](mod@bench)) and the Bevy viewer (`app`, feature `app`, on
//! by default), over the solver core of `crates/core` (`collidescope-core`).
//!
//! The core's modules are re-exported under their own names, so `collidescope::shape`,
//! `collidescope::solver` and the rest read the same to the CLI, the viewer, the tests
//! and the benchmarks as they did before the core became its own crate.

pub use collidescope_core::{
    composite, cross_check, export, import, input, lesson_markup, mesh, minkowski, nearest,
    parry_bridge, pose, printed_bound, rng, robot, scene, shape, sketch, solver, tessellate, DMat3,
    DQuat, DVec3,
};

pub mod bench;

#[cfg(feature = "app")]
pub mod app;
