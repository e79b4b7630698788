//! Helpers shared by the integration tests: the CLI run as a user runs it, the shared
//! data folder, a seeded RNG, and random shapes and poses.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use collidescope::mesh::load_obj;
use collidescope::shape::{
    Capsule, Cone, Cuboid, Cylinder, Dilated, Ellipsoid, PointShape, Polytope, Shape, Sphere,
    Superellipsoid,
};
use collidescope::DVec3;

/// Runs the `collidescope` binary with `args` from the repository's root (where
/// `scenes/` is) and returns what it did, whatever its exit status: for tests of exit
/// codes, stderr or text output.
pub fn cli(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_collidescope"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("the binary runs")
}

/// [`cli`], asserting that the command succeeded (its stderr is the failure message).
pub fn cli_ok(args: &[&str]) -> Output {
    let out = cli(args);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

/// A command's stdout parsed as JSON.
pub fn stdout_json(out: &Output) -> serde_json::Value {
    serde_json::from_slice(&out.stdout).unwrap()
}

/// Runs a command that prints JSON (`--json`), asserts that it succeeded and returns
/// what it printed.
pub fn cli_json(args: &[&str]) -> serde_json::Value {
    stdout_json(&cli_ok(args))
}

/// `../shared/data/<sub>` when it exists; otherwise prints why the caller skips.
pub fn shared_data(sub: &str) -> Option<PathBuf> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../shared/data")
        .join(sub);
    if dir.is_dir() {
        Some(dir)
    } else {
        eprintln!("skipping: {} is absent", dir.display());
        None
    }
}

/// The core's seeded random source.
pub use collidescope::rng::SplitMix64 as Rng;

/// Mesh hulls of the shared meshes, centred and scaled to radius ~0.5.
pub fn mesh_hulls() -> Vec<(String, Shape)> {
    let Some(dir) = shared_data("meshes") else {
        return Vec::new();
    };
    let mut names: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "obj"))
        .collect();
    names.sort();
    names
        .into_iter()
        .map(|path| {
            let mesh = load_obj(&path).unwrap_or_else(|e| panic!("{e}"));
            let v = mesh.polytope.vertices();
            let centre = mesh.polytope.local_centre();
            let radius = v.iter().map(|p| (*p - centre).length()).fold(0.0, f64::max);
            let scaled: Vec<DVec3> = v.iter().map(|p| (*p - centre) * (0.5 / radius)).collect();
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            (
                name,
                Shape::Polytope(Polytope::from_points(&scaled).unwrap()),
            )
        })
        .collect()
}

/// Names of the primitive kinds `random_primitive` draws from.
pub const PRIMITIVE_KINDS: usize = 10;

/// A random shape of kind `kind` (0..PRIMITIVE_KINDS), about 0.2–1 in size.
pub fn random_primitive(rng: &mut Rng, kind: usize) -> Shape {
    let mut size = || rng.range(0.2, 0.8);
    match kind {
        0 => Shape::Point(PointShape),
        1 => Shape::Sphere(Sphere::new(size()).unwrap()),
        2 => Shape::Ellipsoid(Ellipsoid::new(DVec3::new(size(), size(), size())).unwrap()),
        3 => Shape::Cuboid(Cuboid::new(DVec3::new(size(), size(), size())).unwrap()),
        4 => Shape::Capsule(Capsule::new(size() * 0.5, size()).unwrap()),
        5 => Shape::Cylinder(Cylinder::new(size(), size()).unwrap()),
        6 => Shape::Cone(Cone::new(size(), size()).unwrap()),
        7 => {
            let radii = DVec3::new(size(), size(), size());
            Shape::Superellipsoid(Superellipsoid::new(radii, rng.range(1.0, 6.0)).unwrap())
        }
        8 => {
            let n = 4 + rng.index(40);
            let points: Vec<DVec3> = (0..n).map(|_| rng.vector(0.6)).collect();
            Shape::Polytope(Polytope::from_points(&points).unwrap())
        }
        _ => {
            let inner =
                Shape::Cuboid(Cuboid::new(DVec3::new(size(), size(), size()) * 0.5).unwrap());
            Shape::Dilated(Dilated::new(inner, rng.range(0.05, 0.3)).unwrap())
        }
    }
}

/// A fresh folder under the system's temporary folder (`collidescope-TAG-PID-N`), emptied
/// first and removed when it goes out of scope (the test passing or panicking), so test
/// runs leave nothing behind. It reads as a `Path`.
pub struct TempDir(PathBuf);

impl TempDir {
    pub fn new(tag: &str) -> Self {
        // Numbered within the process: tests run in parallel threads, and two asking for
        // the same tag must not remove each other's folder.
        static NEXT: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
        let n = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let name = format!("collidescope-{tag}-{}-{n}", std::process::id());
        let path = std::env::temp_dir().join(name);
        let _ = std::fs::remove_dir_all(&path);
        std::fs::create_dir_all(&path).expect("a temporary folder");
        Self(path)
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

impl std::ops::Deref for TempDir {
    type Target = Path;
    fn deref(&self) -> &Path {
        &self.0
    }
}

impl AsRef<Path> for TempDir {
    fn as_ref(&self) -> &Path {
        &self.0
    }
}
