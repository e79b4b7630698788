//! Headless benchmarks: problem files with Coal's answers, the paper's protocol on
//! ellipsoids and mesh hulls, timing against parry3d-f64, and pose sweeps; any of them
//! split into chunks for a cluster (`chunks`).

pub mod chunks;
pub mod interior_point;
pub mod lp_crossover;
pub mod plot;
pub mod problems;
pub mod protocol;
pub mod runner;
pub mod sweep;
pub mod timing;
