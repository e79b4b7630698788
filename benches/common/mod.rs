//! The meshes and poses of the mesh benchmarks (`mesh_vs_parry`, `mesh_vs_coal`), shared
//! so both measure the same queries. (A folder without a `main.rs`: not a bench target.)

use std::path::{Path, PathBuf};

use collidescope::composite::TriMesh;
use collidescope::mesh::triangles;
use collidescope::pose::RelativePose;
use collidescope::rng::SplitMix64;
use glam::{DMat3, DVec3};

/// The meshes measured, by file name.
pub const MESHES: [&str; 3] = ["cow.obj", "teapot.obj", "stanford-bunny.obj"];

/// The shared meshes: `../shared/data/meshes` beside the checkout.
pub fn mesh_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/data/meshes")
}

/// A mesh file's triangles as an indexed mesh (its topology welds repeated corners).
pub fn load(path: &Path) -> Option<TriMesh> {
    let soup = triangles(path).ok()?;
    let vertices: Vec<DVec3> = soup.iter().flatten().copied().collect();
    let indices = (0..soup.len() as u32)
        .map(|t| [3 * t, 3 * t + 1, 3 * t + 2])
        .collect();
    TriMesh::new(vertices, indices).ok()
}

/// Poses of the convex shape (its size `r`): a random vertex of the mesh, pushed out
/// along a random direction by `r` plus a gap between 1e-3 and 1e-1 of the mesh's size
/// (log-uniform), turned at random. A direction into the mesh gives an overlap.
pub fn poses(mesh: &TriMesh, r: f64, count: usize, seed: u64) -> Vec<RelativePose> {
    let mut rng = SplitMix64::new(seed);
    let v = mesh.vertices();
    let size = extent(mesh);
    (0..count)
        .map(|_| {
            let p = v[rng.index(v.len())];
            let dir = DVec3::new(
                rng.range(-1.0, 1.0),
                rng.range(-1.0, 1.0),
                rng.range(-1.0, 1.0),
            )
            .normalize_or(DVec3::Z);
            let gap = size * 10f64.powf(rng.range(-3.0, -1.0));
            let turn = DMat3::from_euler(
                glam::EulerRot::XYZ,
                rng.range(0.0, 6.3),
                rng.range(0.0, 6.3),
                rng.range(0.0, 6.3),
            );
            RelativePose::from_matrix(turn, p + dir * (r + gap))
        })
        .collect()
}

/// The diagonal of the mesh's box.
pub fn extent(mesh: &TriMesh) -> f64 {
    let (lo, hi) = mesh
        .vertices()
        .iter()
        .fold((DVec3::INFINITY, DVec3::NEG_INFINITY), |(a, b), p| {
            (a.min(*p), b.max(*p))
        });
    (hi - lo).length()
}
