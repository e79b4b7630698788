//! Our side of the mesh benchmark against Coal (`benches/mesh_vs_coal.py` drives it,
//! beside Coal's C++ timer `benches/coal_mesh_time.cpp`): not a criterion bench, a small
//! program with two commands.
//!
//! `write DIR` writes, per mesh of `mesh_vs_parry` (same meshes, ball/box size and
//! seeded poses), a plain-text problem file `DIR/<mesh>.txt` both sides read:
//!
//! ```text
//! collidescope-mesh-poses 1
//! name cow
//! vertices NV       then NV lines: x y z
//! triangles NT      then NT lines: i j k (0-based)
//! size R            ball radius R; box half extents R R R
//! poses NP          then NP lines: R00 R01 R02 R10 R11 R12 R20 R21 R22 t0 t1 t2
//! ```
//!
//! (a pose is the shape's frame in the mesh's: `p_mesh = R p_shape + t`; numbers are
//! written in Rust's shortest round-trip form, so both sides read the same doubles).
//!
//! `time FILE REPEATS` times `composite_convex_distance` (vanilla GJK, the benchmark
//! settings, as in `mesh_vs_parry`) on the file's poses: per repeat one pass over the
//! poses with the ball, one with the box, after one untimed pass of each. It prints
//! `d SHAPE POSE LOWER UPPER` (the certified bracket of each answer), `p SHAPE POSE
//! SECONDS` (the query's median over the repeats) and `t SHAPE MEDIAN MIN` (seconds for
//! all the poses, median and least over the repeats).
//!
//! Run without a command (as `cargo bench` runs every bench) it says how to use it.

use std::fmt::Write as _;
use std::path::Path;
use std::time::Instant;

use collidescope::composite::{composite_convex_distance, CompositeTree, Pieces, TriMesh};
use collidescope::pose::RelativePose;
use collidescope::shape::{Cuboid, Shape, Sphere};
use collidescope::solver::{Algorithm, DirectionRule, Method, SolverSettings};
use common::{extent, load, mesh_dir, poses, MESHES};
use glam::{DMat3, DVec3};

mod common;

/// A problem file's content.
struct Problem {
    mesh: TriMesh,
    size: f64,
    poses: Vec<RelativePose>,
}

fn write_problems(dir: &Path) -> anyhow::Result<()> {
    std::fs::create_dir_all(dir)?;
    let meshes = mesh_dir();
    for name in MESHES {
        let Some(mesh) = load(&meshes.join(name)) else {
            eprintln!("skipping {name}: not in {}", meshes.display());
            continue;
        };
        let r = 0.05 * extent(&mesh);
        let poses = poses(&mesh, r, 100, 7);
        let stem = name.trim_end_matches(".obj");
        let mut s = String::new();
        writeln!(s, "collidescope-mesh-poses 1\nname {stem}")?;
        writeln!(s, "vertices {}", mesh.vertices().len())?;
        for p in mesh.vertices() {
            writeln!(s, "{} {} {}", p.x, p.y, p.z)?;
        }
        writeln!(s, "triangles {}", mesh.triangle_count())?;
        for [i, j, k] in mesh.triangles() {
            writeln!(s, "{i} {j} {k}")?;
        }
        writeln!(s, "size {r}\nposes {}", poses.len())?;
        for pose in &poses {
            let m = pose.rotation;
            for row in 0..3 {
                let r = m.row(row);
                write!(s, "{} {} {} ", r.x, r.y, r.z)?;
            }
            let t = pose.translation;
            writeln!(s, "{} {} {}", t.x, t.y, t.z)?;
        }
        let path = dir.join(format!("{stem}.txt"));
        std::fs::write(&path, s)?;
        println!("{}", path.display());
    }
    Ok(())
}

fn read_problem(path: &Path) -> anyhow::Result<Problem> {
    let text = std::fs::read_to_string(path)?;
    let mut words = text.split_ascii_whitespace();
    let mut expect = |word: &str| -> anyhow::Result<()> {
        let got = words.next();
        anyhow::ensure!(got == Some(word), "expected {word:?}, read {got:?}");
        Ok(())
    };
    expect("collidescope-mesh-poses")?;
    expect("1")?;
    expect("name")?;
    let mut words = words.skip(1);
    let mut next = |word: Option<&str>| -> anyhow::Result<&str> {
        if let Some(word) = word {
            let got = words.next();
            anyhow::ensure!(got == Some(word), "expected {word:?}, read {got:?}");
        }
        words
            .next()
            .ok_or_else(|| anyhow::anyhow!("the file ends early"))
    };
    let count = next(Some("vertices"))?.parse::<usize>()?;
    let mut vertices = Vec::with_capacity(count);
    for _ in 0..count {
        let mut c = [0.0; 3];
        for x in &mut c {
            *x = next(None)?.parse()?;
        }
        vertices.push(DVec3::from_array(c));
    }
    let count = next(Some("triangles"))?.parse::<usize>()?;
    let mut triangles = Vec::with_capacity(count);
    for _ in 0..count {
        let mut t = [0u32; 3];
        for i in &mut t {
            *i = next(None)?.parse()?;
        }
        triangles.push(t);
    }
    let size = next(Some("size"))?.parse::<f64>()?;
    let count = next(Some("poses"))?.parse::<usize>()?;
    let mut poses = Vec::with_capacity(count);
    for _ in 0..count {
        let mut n = [0.0; 12];
        for x in &mut n {
            *x = next(None)?.parse()?;
        }
        let rows = DMat3::from_cols_slice(&n[..9]);
        poses.push(RelativePose::from_matrix(
            rows.transpose(),
            DVec3::new(n[9], n[10], n[11]),
        ));
    }
    Ok(Problem {
        mesh: TriMesh::new(vertices, triangles)?,
        size,
        poses,
    })
}

fn time_problem(path: &Path, repeats: usize) -> anyhow::Result<()> {
    let problem = read_problem(path)?;
    let tree = CompositeTree::new(Pieces::Triangles(problem.mesh));
    let gjk = Method::of(Algorithm::Gjk(DirectionRule::Vanilla));
    let settings = SolverSettings::benchmark();
    let r = problem.size;
    let shapes = [
        ("ball", Shape::Sphere(Sphere::new(r)?)),
        ("box", Shape::Cuboid(Cuboid::new(DVec3::splat(r))?)),
    ];
    // One pass over the poses: its time, and each query's (clock reads add ~50 ns a
    // query).
    let pass = |shape: &Shape, each: Option<&mut [Vec<f64>]>| {
        let start = Instant::now();
        let mut before = start;
        let mut each = each;
        for (i, pose) in problem.poses.iter().enumerate() {
            std::hint::black_box(composite_convex_distance(
                &tree, shape, *pose, gjk, settings, false,
            ));
            let after = Instant::now();
            if let Some(each) = each.as_deref_mut() {
                each[i].push((after - before).as_secs_f64());
            }
            before = after;
        }
        (before - start).as_secs_f64()
    };
    for (kind, shape) in &shapes {
        for (i, pose) in problem.poses.iter().enumerate() {
            let a = composite_convex_distance(&tree, shape, *pose, gjk, settings, false);
            println!("d {kind} {i} {:e} {:e}", a.lower, a.upper);
        }
        pass(shape, None);
    }
    let n = problem.poses.len();
    let mut seconds = [Vec::new(), Vec::new()];
    let mut each = [vec![Vec::new(); n], vec![Vec::new(); n]];
    for _ in 0..repeats.max(1) {
        for ((s, e), (_, shape)) in seconds.iter_mut().zip(&mut each).zip(&shapes) {
            s.push(pass(shape, Some(e)));
        }
    }
    let median = |v: &mut Vec<f64>| {
        v.sort_by(f64::total_cmp);
        v[v.len() / 2]
    };
    for ((mut s, e), (kind, _)) in seconds.into_iter().zip(each).zip(&shapes) {
        for (i, mut t) in e.into_iter().enumerate() {
            println!("p {kind} {i} {:e}", median(&mut t));
        }
        println!("t {kind} {:e} {:e}", median(&mut s), s[0]);
    }
    Ok(())
}

fn main() -> anyhow::Result<()> {
    let args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| a != "--bench")
        .collect();
    match args.iter().map(String::as_str).collect::<Vec<_>>()[..] {
        ["write", dir] => write_problems(Path::new(dir)),
        ["time", file, repeats] => time_problem(Path::new(file), repeats.parse()?),
        _ => {
            eprintln!(
                "mesh_vs_coal: `write DIR` or `time FILE REPEATS`; \
                 python3 benches/mesh_vs_coal.py runs it against Coal"
            );
            Ok(())
        }
    }
}
