//! `collidescope sweep A.obj B.obj`: find the slow poses of a mesh pair and keep the
//! worst as scene files that reproduce them.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use collidescope::bench::chunks::{self, Chunk};
use collidescope::bench::sweep::{
    distributions, run_sweep, sample_poses, sample_poses_in, SweepItem, SweepPlan, SweepPose,
    SweepRun,
};
use collidescope::mesh::load_mesh;
use collidescope::pose::Pose;
use collidescope::scene::{Body, Scene, ShapeSpec};
use collidescope::shape::Shape;
use collidescope::solver::{Algorithm, DirectionRule, Method, SolverSettings};
use indicatif::{ProgressBar, ProgressStyle};

pub struct SweepArgs {
    pub a: PathBuf,
    pub b: PathBuf,
    pub algorithms: Vec<Algorithm>,
    pub samples: usize,
    pub band: (f64, f64),
    pub seed: u64,
    pub out: PathBuf,
    pub worst: usize,
    /// Only the poses `START..END`, written as a chunk file to `chunk_out` (a cluster's
    /// task: `collidescope.cluster.sweep`).
    pub chunk: Option<((usize, usize), PathBuf)>,
    /// The report from the chunk files in this folder instead of running the poses.
    pub reduce: Option<PathBuf>,
}

/// Parses `MIN..MAX`.
pub fn parse_band(s: &str) -> Result<(f64, f64), String> {
    let (lo, hi) = s
        .split_once("..")
        .ok_or_else(|| format!("expected MIN..MAX, got '{s}'"))?;
    let parse = |v: &str| {
        v.trim()
            .parse::<f64>()
            .map_err(|_| format!("expected MIN..MAX, got '{s}'"))
    };
    let (lo, hi) = (parse(lo)?, parse(hi)?);
    if !(lo.is_finite() && hi.is_finite() && lo <= hi) {
        return Err(format!("the band {lo}..{hi} must be finite with MIN ≤ MAX"));
    }
    Ok((lo, hi))
}

fn load(path: &Path) -> anyhow::Result<(PathBuf, Shape)> {
    let mesh = load_mesh(path)?;
    let absolute = path.canonicalize().unwrap_or_else(|_| path.to_path_buf());
    Ok((absolute, Shape::Polytope(mesh.polytope)))
}

pub fn run(args: SweepArgs) -> anyhow::Result<()> {
    let algorithms = if args.algorithms.is_empty() {
        vec![
            Algorithm::Gjk(DirectionRule::Vanilla),
            Algorithm::Gjk(DirectionRule::Nesterov),
            Algorithm::Gjk(DirectionRule::NesterovNormalized),
        ]
    } else {
        args.algorithms.clone()
    };
    let (path_a, a) = load(&args.a)?;
    let (path_b, b) = load(&args.b)?;
    let settings = SolverSettings::benchmark();
    let plan = SweepPlan {
        samples: args.samples,
        band: args.band,
        seed: args.seed,
        algorithms: algorithms.clone(),
    };
    if let Some(((start, end), out)) = &args.chunk {
        return write_chunk(&plan, (&a, &b), (*start, *end), settings, out);
    }
    std::fs::create_dir_all(&args.out).map_err(|e| {
        anyhow::anyhow!(
            "{}: cannot create the output folder: {e}",
            args.out.display()
        )
    })?;
    let started = std::time::Instant::now();
    // Merged from chunks, only the poses written as scenes are placed again.
    let (poses, runs) = match &args.reduce {
        Some(folder) => (None, read_chunks(&plan, folder)?),
        None => {
            let (poses, runs) = sweep_here(&plan, (&a, &b), settings);
            (Some(poses), runs)
        }
    };
    let pose_at = |k: usize| match &poses {
        Some(poses) => poses[k],
        None => sample_poses_in(&a, &b, plan.samples, plan.band, plan.seed, k..k + 1)[0],
    };
    let done = runs.len() / algorithms.len().max(1);
    if done < plan.samples {
        println!(
            "stopped by Ctrl-C after {done} of {} poses; the report covers those",
            plan.samples
        );
    }
    println!(
        "{} vs {}: {done} poses at signed distances {}..{} (seed {}), {:.2} s",
        args.a.display(),
        args.b.display(),
        args.band.0,
        args.band.1,
        args.seed,
        started.elapsed().as_secs_f64()
    );
    let dists = distributions(&runs, &algorithms, args.worst);
    println!();
    println!(
        "{:<22}{:>8}{:>6}{:>6}{:>6}{:>7}{:>12}{:>10}{:>8}{:>9}",
        "iterations", "mean", "p50", "p90", "p99", "max", "supports", "capped", "degen.", "contact"
    );
    for d in &dists {
        println!(
            "{:<22}{:>8.2}{:>6}{:>6}{:>6}{:>7}{:>12.1}{:>10}{:>8}{:>9}",
            d.algorithm,
            d.mean_iterations,
            d.p50,
            d.p90,
            d.p99,
            d.max,
            d.mean_support_calls,
            d.capped,
            d.degenerate,
            d.contact
        );
    }
    for d in &dists {
        println!();
        println!("{} iteration histogram:", d.algorithm);
        let peak = d.histogram.iter().map(|h| h.1).max().unwrap_or(1);
        for (iterations, count) in &d.histogram {
            println!(
                "{iterations:>6} {count:>7} {}",
                "#".repeat((count * 50).div_ceil(peak))
            );
        }
    }
    let mut written = Vec::new();
    for d in &dists {
        let algorithm: Algorithm = d
            .algorithm
            .parse()
            .map_err(|e: String| anyhow::anyhow!(e))?;
        for (rank, pose_index) in d.slowest.iter().enumerate() {
            let pose = &pose_at(*pose_index);
            let expected = runs
                .iter()
                .find(|r| r.pose == *pose_index && r.algorithm == d.algorithm)
                .map_or(0, |r| r.iterations);
            let path = args
                .out
                .join(format!("slow-{}-{}.ron", d.algorithm, rank + 1));
            let (reproduced, cause) = write_scene(
                &path,
                (&path_a, &a),
                (&path_b, &b),
                pose,
                &algorithms,
                settings,
                algorithm,
            )?;
            written.push(format!(
                "{}  pose {pose_index}, distance {:+.3e}: {expected} iterations{}; cause: {cause}",
                path.display(),
                pose.target_distance,
                if reproduced == expected {
                    " (reproduced from the file)".to_string()
                } else {
                    format!(" — the file gives {reproduced}!")
                }
            ));
        }
    }
    println!();
    println!("slowest poses, written as scenes:");
    for w in written {
        println!("  {w}");
    }
    Ok(())
}

/// Every pose on this machine's cores, with a progress bar; Ctrl-C stops, keeping what
/// is done.
fn sweep_here(
    plan: &SweepPlan,
    (a, b): (&Shape, &Shape),
    settings: SolverSettings,
) -> (Vec<SweepPose>, Vec<SweepRun>) {
    let stop = Arc::new(AtomicBool::new(false));
    {
        let stop = stop.clone();
        // A second Ctrl-C while stopping ends the process the usual way.
        let _ = ctrlc::set_handler(move || {
            if stop.swap(true, Ordering::SeqCst) {
                std::process::exit(130);
            }
        });
    }
    let poses = sample_poses(a, b, plan.samples, plan.band, plan.seed);
    let bar = ProgressBar::new(poses.len() as u64);
    bar.set_style(
        ProgressStyle::with_template(
            "{bar:40} {pos}/{len} poses {elapsed} (Ctrl-C stops, keeping what is done)",
        )
        .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    let runs = run_sweep(a, b, &poses, &plan.algorithms, settings, &stop, &|| {
        bar.inc(1)
    });
    bar.finish_and_clear();
    (poses, runs)
}

/// Runs the poses `start..end` alone and writes them as a chunk file (`-`: standard
/// output), for the report to merge (`--reduce`).
fn write_chunk(
    plan: &SweepPlan,
    (a, b): (&Shape, &Shape),
    (start, end): (usize, usize),
    settings: SolverSettings,
    out: &Path,
) -> anyhow::Result<()> {
    chunks::check_range((start, end), plan.samples, "samples of the sweep")?;
    let poses = sample_poses_in(a, b, plan.samples, plan.band, plan.seed, start..end);
    let never = AtomicBool::new(false);
    let runs = run_sweep(a, b, &poses, &plan.algorithms, settings, &never, &|| {});
    let chunk = Chunk {
        command: "sweep".into(),
        plan: plan.json(),
        start,
        end,
        items: plan.items(&poses, &runs),
    };
    chunks::write_chunk(&chunk, out)
}

/// The runs of the chunk files in `folder`, merged as the whole sweep holds them.
fn read_chunks(plan: &SweepPlan, folder: &Path) -> anyhow::Result<Vec<SweepRun>> {
    let items: Vec<SweepItem> = chunks::read_chunks("sweep", &plan.json(), plan.samples, folder)?;
    plan.unpack(items)
        .map_err(|e| anyhow::anyhow!("{}: {e}", folder.display()))
}

/// Writes the pose as a scene and solves the file again; returns the iterations it gives
/// and the explainer's causes for that run (`none named` with what each test measured
/// when it finds none).
fn write_scene(
    path: &Path,
    a: (&Path, &Shape),
    b: (&Path, &Shape),
    pose: &SweepPose,
    algorithms: &[Algorithm],
    settings: SolverSettings,
    algorithm: Algorithm,
) -> anyhow::Result<(usize, String)> {
    let body = |(p, s): (&Path, &Shape), pose: Pose| Body {
        name: None,
        spec: ShapeSpec::Mesh {
            path: p.to_string_lossy().into_owned(),
            use_as: Default::default(),
        },
        shape: s.clone(),
        composite: None,
        pose,
        mesh_report: None,
        velocity: None,
        spin: None,
    };
    let scene = Scene {
        methods: algorithms.iter().map(|a| Method::of(*a)).collect(),
        settings,
        ..Scene::of_pair(
            format!(
                "Slow case for {}: pose {} at distance {:+.3e}",
                algorithm.name(),
                pose.index,
                pose.target_distance
            ),
            "Written by `collidescope sweep`.".to_string(),
            body(a, Pose::IDENTITY),
            body(b, pose.pose_b),
        )
    };
    scene.save(path)?;
    let again = Scene::load(path)?;
    let run = again.run(algorithm);
    let explained = collidescope::solver::distance::explain::explain_with_checks(
        &run,
        Some((&again.a().shape, &again.b().shape)),
    );
    let causes: Vec<&str> = explained.causes.iter().map(|c| c.kind.name()).collect();
    let cause = if causes.is_empty() {
        // What each test measured, so that "none" is a finding, not a shrug.
        let checks: Vec<String> = explained.checks.iter().map(|c| c.to_string()).collect();
        format!("none named; {}", checks.join("; "))
    } else {
        causes.join(", ")
    };
    Ok((run.summary.iterations, cause))
}
