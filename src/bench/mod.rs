//! Headless benchmark runners.

pub mod problems;
