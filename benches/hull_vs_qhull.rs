//! Hull building on big point sets, our side of `benches/hull_vs_qhull.py`: the
//! vertices of each shared mesh and random clouds of 5 000, 20 000 and 50 000 points (in
//! a ball, on a sphere, in a cube), each hulled by `Polytope::from_points` (distinct
//! points, span, the checked hull, adjacency) and by `hull::solid_hull` alone; the best
//! of `--repeats` runs is kept.
//!
//!     cargo bench --no-default-features --bench hull_vs_qhull -- [--out DIR] [--repeats N] [--phases]
//!
//! `--out DIR` also writes each point set as raw little-endian f64 triples
//! (`DIR/NAME.f64`) and the timings as `DIR/ours.json`, for the Python side to time
//! Qhull on the very same numbers. `--phases` splits the time into parry3d-f64's hull,
//! the check of it, and the exact Quickhull with its check. `--only TEXT` keeps the sets whose name contains TEXT.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Instant;

use collidescope::rng::SplitMix64;
use collidescope::shape::hull::{self, check, quickhull};
use collidescope::shape::{AffineDimension, Polytope};
use collidescope::DVec3;

struct Options {
    out: Option<PathBuf>,
    repeats: usize,
    phases: bool,
    only: Option<String>,
}

fn options() -> Options {
    let mut options = Options {
        out: None,
        repeats: 5,
        phases: false,
        only: None,
    };
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--out" => options.out = args.next().map(PathBuf::from),
            "--repeats" => options.repeats = args.next().and_then(|r| r.parse().ok()).unwrap_or(5),
            "--phases" => options.phases = true,
            "--only" => options.only = args.next(),
            _ => {} // `--bench` from cargo, and anything else
        }
    }
    options
}

/// The distinct vertices of an OBJ file, in file order.
fn obj_vertices(path: &Path) -> Vec<DVec3> {
    let text = std::fs::read_to_string(path).unwrap_or_default();
    let mut seen = std::collections::HashSet::new();
    text.lines()
        .filter_map(|l| l.strip_prefix("v "))
        .filter_map(|l| {
            let v: Vec<f64> = l
                .split_whitespace()
                .take(3)
                .filter_map(|w| w.parse().ok())
                .collect();
            (v.len() == 3).then(|| DVec3::new(v[0], v[1], v[2]))
        })
        .filter(|p| seen.insert(p.to_array().map(f64::to_bits)))
        .collect()
}

/// The point sets, by name: the shared meshes (when present), then the clouds.
fn point_sets() -> Vec<(String, Vec<DVec3>)> {
    let mut sets = Vec::new();
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/data/meshes");
    match std::fs::read_dir(&dir) {
        Ok(entries) => {
            let mut paths: Vec<PathBuf> = entries
                .filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| p.extension().is_some_and(|e| e == "obj"))
                .collect();
            paths.sort();
            for path in paths {
                let name = path.file_stem().unwrap().to_string_lossy().into_owned();
                sets.push((format!("mesh {name}"), obj_vertices(&path)));
            }
        }
        Err(_) => eprintln!("skipping the meshes: {} is absent", dir.display()),
    }
    let mut rng = SplitMix64::new(51);
    for n in [5_000, 20_000, 50_000] {
        let ball = (0..n)
            .map(|_| rng.unit_vector() * rng.unit().cbrt())
            .collect();
        sets.push((format!("ball {n}"), ball));
        let sphere = (0..n).map(|_| rng.unit_vector()).collect();
        sets.push((format!("sphere {n}"), sphere));
        let cube = (0..n).map(|_| rng.vector(1.0)).collect();
        sets.push((format!("cube {n}"), cube));
    }
    sets
}

/// The fastest of `repeats` runs, in seconds.
fn best_of<T>(repeats: usize, mut run: impl FnMut() -> T) -> f64 {
    (0..repeats.max(1))
        .map(|_| {
            let start = Instant::now();
            std::hint::black_box(run());
            start.elapsed().as_secs_f64()
        })
        .fold(f64::INFINITY, f64::min)
}

fn phases(points: &[DVec3], repeats: usize) -> String {
    let input: Vec<parry3d_f64::math::Vector> = points
        .iter()
        .map(|p| parry3d_f64::math::Vector::new(p.x, p.y, p.z))
        .collect();
    let parry = best_of(repeats, || {
        parry3d_f64::transformation::try_convex_hull(&input)
    });
    let parry_check = match parry3d_f64::transformation::try_convex_hull(&input) {
        Ok((vertices, triangles)) => {
            let vertices: Vec<DVec3> = vertices.iter().map(|v| DVec3::new(v.x, v.y, v.z)).collect();
            match check::input_indices(points, &vertices, &triangles) {
                Ok(t) => format!(
                    "{:.1} ms ({}; {})",
                    1e3 * best_of(repeats, || check::check_hull(points, &t)),
                    match check::check_hull(points, &t) {
                        Ok(()) => "passes".to_string(),
                        Err(d) => d.to_string(),
                    },
                    certificate(points, &t)
                ),
                Err(d) => d.to_string(),
            }
        }
        Err(e) => format!("{e:?}"),
    };
    let exact = best_of(repeats, || quickhull::exact_hull(points));
    let exact_check = match quickhull::exact_hull(points) {
        Some(h) => 1e3 * best_of(repeats, || check::check_hull(points, &h.triangles)),
        None => f64::NAN,
    };
    format!(
        "parry's hull {:.1} ms, its check {parry_check}; exact quickhull {:.1} ms, its check {exact_check:.1} ms",
        1e3 * parry,
        1e3 * exact
    )
}

/// Whether the check's fast proof of convexity holds, and how many points it leaves to
/// the face-by-face test.
fn certificate(points: &[DVec3], triangles: &[[usize; 3]]) -> String {
    let Ok(surface) = hull::surface::closed_surface(triangles, points.len()) else {
        return "open surface".to_string();
    };
    let surface_ms = 1e3 * best_of(3, || hull::surface::closed_surface(triangles, points.len()));
    let certify_ms = 1e3
        * best_of(3, || {
            hull::certificate::certify_convex(points, triangles, &surface).is_ok()
        });
    match hull::certificate::certify_convex(points, triangles, &surface) {
        Ok(c) => format!(
            "surface {surface_ms:.1} ms, proved convex in {certify_ms:.1} ms, walks {:.1} ms, {} points left to every face",
            1e3 * best_of(3, || c.points_not_proved_inside()),
            c.points_not_proved_inside().len()
        ),
        Err(why) => format!("no fast proof: {why:?}"),
    }
}

fn main() {
    let options = options();
    if let Some(out) = &options.out {
        std::fs::create_dir_all(out).expect("the output folder");
    }
    let mut rows = Vec::new();
    println!(
        "{:<22} {:>7} {:>9} {:>11} {:>13}  source",
        "point set", "points", "vertices", "hull ms", "polytope ms"
    );
    for (name, points) in point_sets() {
        if options.only.as_ref().is_some_and(|o| !name.contains(o)) {
            continue;
        }
        let polytope = Polytope::from_points(&points).expect("a valid point set");
        if polytope.dimension() != AffineDimension::Solid {
            println!("{name:<22} skipped: exactly flat (hulled in 2-D; Qhull refuses it)");
            continue;
        }
        let hull_seconds = best_of(options.repeats, || hull::solid_hull(&points));
        let polytope_seconds = best_of(options.repeats, || Polytope::from_points(&points));
        println!(
            "{name:<22} {:>7} {:>9} {:>11.2} {:>13.2}  {}",
            points.len(),
            polytope.vertices().len(),
            1e3 * hull_seconds,
            1e3 * polytope_seconds,
            polytope.hull_source().label()
        );
        if options.phases {
            println!("    {}", phases(&points, options.repeats));
        }
        if let Some(out) = &options.out {
            let file = out.join(format!("{}.f64", name.replace(' ', "_")));
            let bytes: Vec<u8> = points
                .iter()
                .flat_map(|p| p.to_array())
                .flat_map(f64::to_le_bytes)
                .collect();
            std::fs::write(&file, bytes).expect("writing a point set");
        }
        rows.push(format!(
            "{{\"name\": \"{name}\", \"points\": {}, \"vertices\": {}, \"hull_s\": {hull_seconds:e}, \"polytope_s\": {polytope_seconds:e}, \"source\": \"{}\"}}",
            points.len(),
            polytope.vertices().len(),
            polytope.hull_source().label()
        ));
    }
    if let Some(out) = &options.out {
        let mut file = std::fs::File::create(out.join("ours.json")).expect("ours.json");
        writeln!(file, "[\n  {}\n]", rows.join(",\n  ")).expect("ours.json");
    }
}
