//! `collidescope robot`: load a URDF (and SRDF), check every pair at each configuration
//! (links as hulls, as meshes, or both ways with the pairs whose verdict changes), print
//! the contract's JSON or a table.

use std::path::PathBuf;

use super::robot_chunks;

use collidescope::rng::SplitMix64;
use collidescope::robot::acm::random_configuration;
use collidescope::robot::path::SmoothPath;
use collidescope::robot::{
    checked_pairs, compute_acm, disabled_pairs_for, parry_check, parry_check_as, srdf_text,
    CollisionMode, ConfigAnswer, HullMeshComparison, RobotModel, SelfCollision,
};
use collidescope::solver::Algorithm;
use serde::Deserialize;
use serde_json::json;

pub struct RobotArgs {
    pub urdf: PathBuf,
    pub srdf: Option<PathBuf>,
    pub write_srdf: Option<PathBuf>,
    pub acm_trials: usize,
    pub package_root: Option<PathBuf>,
    pub configs: Option<PathBuf>,
    pub random: Option<usize>,
    pub seed: u64,
    pub algorithm: Algorithm,
    pub timing: bool,
    pub any: bool,
    pub margin: Option<f64>,
    pub disagreement_scene: Option<PathBuf>,
    pub collision: CollisionArg,
    pub pair_scene: Option<PathBuf>,
    pub json: bool,
    /// Only the configurations START..END, their answers written as a chunk file
    /// (a cluster's task: `collidescope.cluster.robot`).
    pub chunk: Option<((usize, usize), PathBuf)>,
    /// The report from the chunk files in this folder instead of checking here.
    pub reduce: Option<PathBuf>,
}

/// `--collision`: links as hulls, as meshes, or both ways.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum CollisionArg {
    Hull,
    Mesh,
    Both,
}

impl CollisionArg {
    /// How the model is loaded: with its meshes unless only hulls are asked for.
    fn loading(self) -> CollisionMode {
        match self {
            CollisionArg::Hull => CollisionMode::Hull,
            CollisionArg::Mesh | CollisionArg::Both => CollisionMode::Mesh,
        }
    }
}

#[derive(Deserialize)]
struct ConfigsFile {
    joints: Vec<String>,
    configs: Vec<Vec<f64>>,
}

pub fn run(args: RobotArgs) -> anyhow::Result<()> {
    let model = RobotModel::load_as(
        &args.urdf,
        args.package_root.as_deref(),
        args.collision.loading(),
    )
    .map_err(anyhow::Error::msg)?;
    for w in &model.warnings {
        eprintln!("warning: {w}");
    }
    let disabled = match &args.srdf {
        Some(path) => {
            let (pairs, warnings) = disabled_pairs_for(&model, path).map_err(anyhow::Error::msg)?;
            for w in warnings {
                eprintln!("warning: {w}");
            }
            pairs
        }
        None => match &args.write_srdf {
            Some(out) => {
                let acm = compute_acm(&model, args.acm_trials, 0.95, args.seed);
                std::fs::write(out, srdf_text(&model.name, &acm))
                    .map_err(|e| anyhow::anyhow!("{}: cannot write: {e}", out.display()))?;
                eprintln!(
                    "allowed-collision matrix ({} random configurations) written to {}:",
                    args.acm_trials,
                    out.display()
                );
                for (pair, rule) in &acm {
                    eprintln!("  {:<24} {:<24} {}", pair.link1, pair.link2, rule.name());
                }
                acm.into_iter().map(|(pair, _)| pair).collect()
            }
            None => Vec::new(),
        },
    };
    let configs = configurations(&model, &args)?;
    let pairs = checked_pairs(&model, &disabled);
    if args.collision == CollisionArg::Both {
        if args.chunk.is_some() || args.reduce.is_some() {
            anyhow::bail!(
                "--chunk and --reduce split the check of one collision model: ask for \
                 --collision hull or mesh"
            );
        }
        return compare(&model, &pairs, &configs, &args);
    }
    let mut checker = SelfCollision::new(pairs.clone(), args.algorithm);
    let links: Vec<&str> = model.shapes.iter().map(|s| s.name.as_str()).collect();
    if args.any {
        let mut seconds = Vec::new();
        for (c, q) in configs.iter().enumerate() {
            let (hit, t) = checker.first_collision(&model, q);
            seconds.push(t);
            let said = hit.map_or("nothing collides".to_string(), |k| {
                format!("{}–{} collide", links[pairs[k].0], links[pairs[k].1])
            });
            println!("config {c:>4}: {said}");
        }
        let mean = seconds.iter().sum::<f64>() / seconds.len().max(1) as f64;
        println!(
            "Boolean check: {:.1} µs per configuration on average",
            mean * 1e6
        );
        return Ok(());
    }
    let margin = args.margin.unwrap_or(f64::INFINITY);
    let plan = chunk_plan(&args, &model, &pairs, configs.len());
    let answers = match (&args.chunk, &args.reduce) {
        (Some((range, out)), _) => {
            return robot_chunks::write(
                &plan,
                (&mut checker, &model),
                &configs,
                *range,
                margin,
                out,
            )
        }
        (None, Some(folder)) => robot_chunks::read(&plan, configs.len(), folder)?,
        (None, None) => robot_chunks::check_all(&mut checker, &model, &configs, margin),
    };
    if args.json {
        let results: Vec<_> = answers
            .iter()
            .enumerate()
            .map(|(c, a)| {
                json!({
                    "config": c,
                    "distances": a.pairs.iter().map(|p| p.distance).collect::<Vec<_>>(),
                    "colliding": a.pairs.iter().enumerate().filter(|(_, p)| p.colliding).map(|(k, _)| k).collect::<Vec<_>>(),
                    "beyond_margin": a.pairs.iter().enumerate().filter(|(_, p)| p.beyond_margin).map(|(k, _)| k).collect::<Vec<_>>(),
                    "seconds": a.seconds,
                })
            })
            .collect();
        let out = json!({
            "links": links,
            "pairs": pairs.iter().map(|(i, j)| [i, j]).collect::<Vec<_>>(),
            "margin": args.margin,
            "collision": model.collision.name(),
            "results": results,
        });
        println!("{}", serde_json::to_string(&out)?);
        if let Some(out) = &args.pair_scene {
            write_nearest_pair(&model, &pairs, &configs, &answers, out, &args.urdf)?;
        }
        return Ok(());
    }
    println!(
        "{}: {} links with collision geometry, {} pairs checked ({} disabled by the SRDF), {} configurations, {}, links as {}",
        model.name,
        links.len(),
        pairs.len(),
        disabled.len(),
        configs.len(),
        args.algorithm,
        match model.collision {
            CollisionMode::Hull => "convex hulls",
            CollisionMode::Mesh => "meshes (as MoveIt and Pinocchio check them)",
        }
    );
    let name = |k: usize| format!("{}–{}", links[pairs[k].0], links[pairs[k].1]);
    for (c, a) in answers.iter().enumerate() {
        let colliding: Vec<String> = a
            .pairs
            .iter()
            .enumerate()
            .filter(|(_, p)| p.colliding)
            .map(|(k, _)| name(k))
            .collect();
        let nearest = a
            .pairs
            .iter()
            .enumerate()
            .filter(|(_, p)| !p.colliding && !p.beyond_margin)
            .min_by(|x, y| x.1.distance.total_cmp(&y.1.distance));
        let nearest = nearest.map_or_else(
            || match args.margin {
                Some(m) => format!("none within {m}"),
                None => "—".to_string(),
            },
            |(k, p)| format!("{} at {:.6}", name(k), p.distance),
        );
        println!(
            "config {c:>4}: colliding [{}]; nearest apart: {nearest}",
            colliding.join(", ")
        );
    }
    let mut seconds: Vec<f64> = answers.iter().map(|a| a.seconds).collect();
    seconds.sort_by(f64::total_cmp);
    let pct = |p: f64| seconds[((seconds.len() - 1) as f64 * p).round() as usize] * 1e6;
    if !seconds.is_empty() {
        println!(
            "time per configuration (µs): median {:.1}, p90 {:.1}, max {:.1}",
            pct(0.5),
            pct(0.9),
            pct(1.0)
        );
    }
    if args.timing && !answers.is_empty() {
        let n = answers.len() as f64;
        let fk: f64 = answers.iter().map(|a| a.kinematics_seconds).sum::<f64>() / n * 1e6;
        let total: f64 = answers.iter().map(|a| a.seconds).sum::<f64>() / n * 1e6;
        println!("mean per configuration: {total:.1} µs, of which kinematics and poses {fk:.1} µs, pairs {:.1} µs", total - fk);
        // The same pairs and poses through parry3d-f64 (its native shapes, built once;
        // meshes as its TriMesh, compounds as its Compound).
        if model.collision == CollisionMode::Mesh {
            match parry_check_as(&model, &pairs, &configs, CollisionMode::Mesh) {
                Some((parry_seconds, parry)) => {
                    let worst = largest_difference(&answers, &parry);
                    println!(
                        "parry3d-f64 (TriMesh, Compound) on the same pairs: {:.1} µs per configuration; ours / parry = {:.2}; largest difference in distance {worst:.1e}",
                        parry_seconds * 1e6,
                        total / (parry_seconds * 1e6)
                    );
                }
                None => println!("parry3d-f64: not every link has a parry counterpart"),
            }
        }
        match parry_check(&model, &pairs, &configs)
            .filter(|_| model.collision == CollisionMode::Hull)
        {
            Some((parry_seconds, parry)) => {
                let worst = largest_difference(&answers, &parry);
                println!(
                    "parry3d-f64 on the same pairs: {:.1} µs per configuration; ours / parry = {:.2}; largest difference in distance {worst:.1e}",
                    parry_seconds * 1e6,
                    total / (parry_seconds * 1e6)
                );
                let disagreements = Disagreements::find(&model, &pairs, &configs, &answers, &parry);
                disagreements.print(&model, &pairs);
                if let Some(out) = &args.disagreement_scene {
                    disagreements.write_worst(&model, &pairs, &configs, out, &args.urdf)?;
                }
            }
            None if model.collision == CollisionMode::Mesh => {}
            None => println!("parry3d-f64: not every link shape has a parry counterpart"),
        }
    }
    if let Some(out) = &args.pair_scene {
        write_nearest_pair(&model, &pairs, &configs, &answers, out, &args.urdf)?;
    }
    println!("{:<44} {:>10} {:>12}", "pair", "mean iter.", "mean µs");
    let mut slowest = (0, 0.0);
    for k in 0..pairs.len() {
        let iters = answers
            .iter()
            .map(|a| a.pairs[k].iterations as f64)
            .sum::<f64>()
            / answers.len().max(1) as f64;
        let micros = answers.iter().map(|a| a.pairs[k].seconds).sum::<f64>()
            / answers.len().max(1) as f64
            * 1e6;
        if micros > slowest.1 {
            slowest = (k, micros);
        }
        println!("{:<44} {iters:>10.1} {micros:>12.2}", name(k));
    }
    if !pairs.is_empty() {
        println!("slowest pair: {} ({:.2} µs)", name(slowest.0), slowest.1);
    }
    Ok(())
}

/// `--collision both`: every pair at every configuration as hulls and as meshes, the
/// pairs whose verdict changes with both distances, and a summary line.
fn compare(
    model: &RobotModel,
    pairs: &[(usize, usize)],
    configs: &[Vec<f64>],
    args: &RobotArgs,
) -> anyhow::Result<()> {
    let comparison = HullMeshComparison::run(model, pairs, configs, args.algorithm);
    let links: Vec<&str> = model.shapes.iter().map(|s| s.name.as_str()).collect();
    let name = |k: usize| format!("{}–{}", links[pairs[k].0], links[pairs[k].1]);
    let (hull_seconds, mesh_seconds) = comparison.seconds_per_configuration();
    let verdict = |colliding: bool, d: f64| {
        if colliding {
            "colliding".to_string()
        } else {
            format!("apart {d:.6}")
        }
    };
    if args.json {
        let changes: Vec<_> = comparison
            .changes
            .iter()
            .map(|c| {
                json!({
                    "config": c.config,
                    "pair": c.pair,
                    "links": [links[pairs[c.pair].0], links[pairs[c.pair].1]],
                    "hull": {"colliding": c.hull_colliding, "distance": c.hull},
                    "mesh": {"colliding": c.mesh_colliding, "distance": c.mesh},
                })
            })
            .collect();
        let distances = |answers: &[collidescope::robot::ConfigAnswer]| {
            answers
                .iter()
                .map(|a| a.pairs.iter().map(|p| p.distance).collect::<Vec<_>>())
                .collect::<Vec<_>>()
        };
        let colliding = |answers: &[collidescope::robot::ConfigAnswer]| {
            answers
                .iter()
                .map(|a| {
                    a.pairs
                        .iter()
                        .enumerate()
                        .filter(|(_, p)| p.colliding)
                        .map(|(k, _)| k)
                        .collect::<Vec<_>>()
                })
                .collect::<Vec<_>>()
        };
        let out = json!({
            "links": links,
            "pairs": pairs.iter().map(|(i, j)| [i, j]).collect::<Vec<_>>(),
            "collision": "both",
            "hull": {"distances": distances(&comparison.hull), "colliding": colliding(&comparison.hull), "seconds_per_configuration": hull_seconds},
            "mesh": {"distances": distances(&comparison.mesh), "colliding": colliding(&comparison.mesh), "seconds_per_configuration": mesh_seconds},
            "verdict_changes": changes,
            "summary": {
                "pair_configurations": comparison.compared,
                "verdicts_differ": comparison.changes.len(),
                "largest_distance_difference": comparison.largest_difference.map(|(d, ..)| d),
                "largest_at": comparison.largest_difference.map(|(_, c, k)| json!({"config": c, "pair": k})),
            },
        });
        println!("{}", serde_json::to_string(&out)?);
    } else {
        println!(
            "{}: {} pairs at {} configurations, as convex hulls and as meshes (MoveIt's and Pinocchio's check), {}",
            model.name,
            pairs.len(),
            configs.len(),
            args.algorithm
        );
        if comparison.changes.is_empty() {
            println!("no pair's verdict changes");
        } else {
            println!(
                "{:>6}  {:<44} {:>22} {:>22}",
                "config", "pair", "as hulls", "as meshes"
            );
        }
        for c in &comparison.changes {
            println!(
                "{:>6}  {:<44} {:>22} {:>22}",
                c.config,
                name(c.pair),
                verdict(c.hull_colliding, c.hull),
                verdict(c.mesh_colliding, c.mesh)
            );
        }
        let largest = comparison
            .largest_difference
            .map_or("—".to_string(), |(d, c, k)| {
                format!("{d:.6} ({} at config {c})", name(k))
            });
        println!(
            "{} pair configurations, {} verdicts differ (hull colliding, mesh apart: {}); largest distance difference {largest}",
            comparison.compared,
            comparison.changes.len(),
            comparison
                .changes
                .iter()
                .filter(|c| c.hull_colliding && !c.mesh_colliding)
                .count()
        );
        println!(
            "time per configuration: hulls {:.1} µs, meshes {:.1} µs ({:.1}×)",
            hull_seconds * 1e6,
            mesh_seconds * 1e6,
            mesh_seconds / hull_seconds.max(1e-12)
        );
    }
    if let Some(out) = &args.pair_scene {
        let dir = args.urdf.parent().unwrap_or(std::path::Path::new("."));
        match comparison.changes.first() {
            Some(c) => {
                let scene = collidescope::robot::scene::pair_scene_as(
                    model,
                    pairs[c.pair],
                    &configs[c.config],
                    dir,
                    CollisionMode::Mesh,
                );
                save_scene(&scene, out)?;
                eprintln!(
                    "{} at config {} (as meshes) written to {}",
                    name(c.pair),
                    c.config,
                    out.display()
                );
            }
            None => write_nearest_pair(model, pairs, configs, &comparison.mesh, out, &args.urdf)?,
        }
    }
    Ok(())
}

/// Writes the first configuration's nearest pair (a colliding one first), its links as
/// the model was loaded, as a two-body scene.
fn write_nearest_pair(
    model: &RobotModel,
    pairs: &[(usize, usize)],
    configs: &[Vec<f64>],
    answers: &[collidescope::robot::ConfigAnswer],
    out: &std::path::Path,
    urdf: &std::path::Path,
) -> anyhow::Result<()> {
    let (Some(q), Some(answer)) = (configs.first(), answers.first()) else {
        return Ok(());
    };
    let Some((k, _)) = answer.pairs.iter().enumerate().min_by(|x, y| {
        let key = |p: &collidescope::robot::PairAnswer| (!p.colliding, p.distance);
        key(x.1)
            .partial_cmp(&key(y.1))
            .unwrap_or(std::cmp::Ordering::Equal)
    }) else {
        anyhow::bail!("no pair is checked: {} not written", out.display());
    };
    let dir = urdf.parent().unwrap_or(std::path::Path::new("."));
    let scene = collidescope::robot::scene::pair_scene(model, pairs[k], q, dir);
    save_scene(&scene, out)?;
    let (i, j) = pairs[k];
    eprintln!(
        "{}–{} at config 0 (as {}) written to {}",
        model.shapes[i].name,
        model.shapes[j].name,
        model.collision.name(),
        out.display()
    );
    Ok(())
}

fn save_scene(scene: &collidescope::scene::Scene, out: &std::path::Path) -> anyhow::Result<()> {
    scene
        .save(out)
        .map_err(|e| anyhow::anyhow!("{}: cannot write the scene: {e}", out.display()))
}

/// What a chunk of this run must share with the report that merges it: the inputs,
/// the configurations asked for, the method and the margin.
fn chunk_plan(
    args: &RobotArgs,
    model: &RobotModel,
    pairs: &[(usize, usize)],
    configs: usize,
) -> serde_json::Value {
    let path = |p: &Option<PathBuf>| p.as_ref().map(|p| p.display().to_string());
    json!({
        "urdf": args.urdf.display().to_string(),
        "srdf": path(&args.srdf),
        "package_root": path(&args.package_root),
        "configs_file": path(&args.configs),
        "random": args.random,
        "seed": args.seed,
        "configs": configs,
        "algorithm": args.algorithm.name(),
        "margin": args.margin,
        "collision": model.collision.name(),
        "pairs": pairs.iter().map(|(i, j)| [i, j]).collect::<Vec<_>>(),
    })
}

/// The configurations: from CONFIGS.json (joints not listed stay at 0) or random within
/// the limits (continuous joints in [−π, π]).
fn configurations(model: &RobotModel, args: &RobotArgs) -> anyhow::Result<Vec<Vec<f64>>> {
    let actuated = model.actuated_names();
    if let Some(path) = &args.configs {
        let text = std::fs::read_to_string(path)
            .map_err(|e| anyhow::anyhow!("{}: cannot read: {e}", path.display()))?;
        let file: ConfigsFile = serde_json::from_str(&text)
            .map_err(|e| anyhow::anyhow!("{}: not a CONFIGS.json: {e}", path.display()))?;
        let slots: Vec<Option<usize>> = file
            .joints
            .iter()
            .map(|name| actuated.iter().position(|a| a == name))
            .collect();
        for (name, slot) in file.joints.iter().zip(&slots) {
            if slot.is_none() {
                anyhow::bail!(
                    "{}: joint {name} is not an actuated joint of the URDF",
                    path.display()
                );
            }
        }
        return file
            .configs
            .iter()
            .enumerate()
            .map(|(c, values)| {
                if values.len() != file.joints.len() || values.iter().any(|v| !v.is_finite()) {
                    anyhow::bail!(
                        "{}: configuration {c} needs {} finite values",
                        path.display(),
                        file.joints.len()
                    );
                }
                let mut q = vec![0.0; actuated.len()];
                for (slot, v) in slots.iter().zip(values) {
                    q[slot.expect("checked above")] = *v;
                }
                Ok(q)
            })
            .collect();
    }
    let n = args.random.unwrap_or(1);
    let mut rng = SplitMix64::new(args.seed);
    Ok((0..n)
        .map(|_| random_configuration(model, &mut rng))
        .collect())
}

/// `bench robot`: per random configuration, every pair's distance (ours, split into
/// kinematics with poses and pairs) against parry3d-f64 on the same pairs and poses, and
/// the Boolean "anything colliding?" check.
pub fn bench(
    urdf: &std::path::Path,
    srdf: Option<&std::path::Path>,
    n: usize,
) -> anyhow::Result<()> {
    let model = RobotModel::load(urdf, None).map_err(anyhow::Error::msg)?;
    let disabled = match srdf {
        Some(path) => {
            disabled_pairs_for(&model, path)
                .map_err(anyhow::Error::msg)?
                .0
        }
        None => Vec::new(),
    };
    let pairs = checked_pairs(&model, &disabled);
    let mut rng = SplitMix64::new(7);
    let configs: Vec<Vec<f64>> = (0..n.max(1))
        .map(|_| random_configuration(&model, &mut rng))
        .collect();
    println!(
        "{}: {} pairs, {} configurations per row, one thread",
        model.name,
        pairs.len(),
        configs.len()
    );
    println!("random configurations (every pair from its shapes' centres):");
    bench_configs(&model, &pairs, &configs);
    let path = SmoothPath::sample(&model, configs.len(), PATH_RESOLUTION, 7);
    println!("along a smooth path, joints moving ≤ {PATH_RESOLUTION} rad per step (warm starts):");
    bench_configs(&model, &pairs, &path);
    let with_meshes =
        RobotModel::load_as(urdf, None, CollisionMode::Mesh).map_err(anyhow::Error::msg)?;
    let meshes = &configs[..configs.len().min(MESH_CONFIGS)];
    println!(
        "links as meshes (MoveIt's and Pinocchio's check; the first {} random configurations):",
        meshes.len()
    );
    bench_meshes(&with_meshes, &pairs, meshes);
    Ok(())
}

/// Configurations the mesh rows of `bench robot` time (a mesh check of every pair costs
/// milliseconds).
const MESH_CONFIGS: usize = 200;

/// The mesh rows of `bench robot`: every pair's distance as meshes against the hulls'
/// and parry3d-f64's `TriMesh`, the margin checks (hulls first, meshes when the hulls
/// come within the margin) and the Boolean check.
fn bench_meshes(model: &RobotModel, pairs: &[(usize, usize)], configs: &[Vec<f64>]) {
    let count = configs.len().max(1) as f64;
    let mut hull =
        SelfCollision::new(pairs.to_vec(), Algorithm::GJK).with_collision(CollisionMode::Hull);
    let hull_seconds = configs
        .iter()
        .map(|q| hull.check(model, q).seconds)
        .sum::<f64>()
        / count;
    let mut mesh = SelfCollision::new(pairs.to_vec(), Algorithm::GJK);
    let answers: Vec<_> = configs.iter().map(|q| mesh.check(model, q)).collect();
    let mut seconds: Vec<f64> = answers.iter().map(|a| a.seconds).collect();
    seconds.sort_by(f64::total_cmp);
    let mean = seconds.iter().sum::<f64>() / count;
    let median = seconds.get(seconds.len() / 2).copied().unwrap_or(0.0);
    let sub_pairs = answers
        .iter()
        .flat_map(|a| a.pairs.iter().map(|p| p.sub_pairs))
        .sum::<usize>() as f64
        / (count * pairs.len().max(1) as f64);
    println!(
        "  distance, all pairs    {:>9.1} µs / configuration (median {:.1}; hulls {:.1}, {:.0}×; {sub_pairs:.0} sub-pairs run per pair)",
        mean * 1e6,
        median * 1e6,
        hull_seconds * 1e6,
        mean / hull_seconds.max(1e-12)
    );
    match parry_check_as(model, pairs, configs, CollisionMode::Mesh) {
        Some((parry, _)) => println!(
            "  parry3d-f64 TriMesh    {:>9.1} µs / configuration (ours / parry = {:.2})",
            parry * 1e6,
            mean / parry
        ),
        None => println!("  parry3d-f64: not every link has a parry counterpart"),
    }
    for margin in MARGINS {
        let mut within = SelfCollision::new(pairs.to_vec(), Algorithm::GJK);
        let (mut total, mut meshes) = (0.0, 0usize);
        for q in configs {
            let answer = within.check_within(model, q, margin);
            total += answer.seconds;
            meshes += answer.pairs.iter().filter(|p| p.sub_pairs > 0).count();
        }
        println!(
            "  every pair within {:>4} m{:>7.1} µs / configuration (the midphase on {:.2} pairs)",
            margin,
            total / count * 1e6,
            meshes as f64 / count
        );
    }
    let mut boolean = SelfCollision::new(pairs.to_vec(), Algorithm::GJK);
    let any = configs
        .iter()
        .map(|q| boolean.first_collision(model, q).1)
        .sum::<f64>()
        / count;
    println!(
        "  anything colliding?    {:>9.1} µs / configuration (hulls first)",
        any * 1e6
    );
}

/// Pair answers that parry3d-f64 differs from by more than [`DISAGREEMENT`], each with
/// parry's GJK on the same shapes as a second opinion (parry's `query::distance` has
/// special cases, such as cuboid–cuboid closest points, that its GJK does not share).
struct Disagreements {
    /// `(configuration, pair, ours, parry's query::distance, parry's GJK)`, worst first.
    found: Vec<(usize, usize, f64, f64, f64)>,
}

/// A difference in distance beyond any stopping tolerance (ours certifies 1e-6, parry's
/// GJK stops within its own relative tolerance).
const DISAGREEMENT: f64 = 1e-4;

impl Disagreements {
    fn find(
        model: &RobotModel,
        pairs: &[(usize, usize)],
        configs: &[Vec<f64>],
        answers: &[collidescope::robot::ConfigAnswer],
        parry: &[Vec<f64>],
    ) -> Self {
        use collidescope::parry_bridge::parry_gjk_distance;
        use collidescope::pose::RelativePose;
        use collidescope::robot::kinematics::shape_poses;
        let mut found = Vec::new();
        for (c, (answer, theirs)) in answers.iter().zip(parry).enumerate() {
            for (k, (ours, &their)) in answer.pairs.iter().zip(theirs).enumerate() {
                if ours.beyond_margin || (ours.distance - their).abs() <= DISAGREEMENT {
                    continue;
                }
                let poses = shape_poses(model, &configs[c]);
                let (i, j) = pairs[k];
                let rel = RelativePose::between(&poses[i], &poses[j]);
                let gjk = parry_gjk_distance(&model.shapes[i].shape, &model.shapes[j].shape, &rel);
                found.push((c, k, ours.distance, their, gjk.max(0.0)));
            }
        }
        found.sort_by(|x, y| (y.3 - y.2).abs().total_cmp(&(x.3 - x.2).abs()));
        Self { found }
    }

    fn print(&self, model: &RobotModel, pairs: &[(usize, usize)]) {
        if self.found.is_empty() {
            return;
        }
        let gjk_agrees = self
            .found
            .iter()
            .filter(|f| (f.4 - f.2).abs() <= DISAGREEMENT)
            .count();
        println!(
            "parry3d-f64's query::distance differs from ours by more than {DISAGREEMENT:e} on {} pair configurations; parry's own GJK on the same shapes agrees with ours on {gjk_agrees} of them:",
            self.found.len()
        );
        for &(c, k, ours, theirs, gjk) in self.found.iter().take(5) {
            let (i, j) = pairs[k];
            let (a, b) = (&model.shapes[i], &model.shapes[j]);
            println!(
                "  config {c}: {}–{} ({} and {}): ours {ours:.9}, parry {theirs:.9}, parry's GJK {gjk:.9}",
                a.name,
                b.name,
                a.shape.kind_name(),
                b.shape.kind_name()
            );
        }
        println!("  (--disagreement-scene OUT.ron writes the first as a scene; `collidescope export OUT.ron --parry TEST.rs` makes it a failing parry test)");
    }

    /// The worst disagreement as a two-body scene, for `collidescope export`.
    fn write_worst(
        &self,
        model: &RobotModel,
        pairs: &[(usize, usize)],
        configs: &[Vec<f64>],
        out: &std::path::Path,
        urdf: &std::path::Path,
    ) -> anyhow::Result<()> {
        let Some(&(c, k, ..)) = self.found.first() else {
            println!(
                "no disagreement with parry3d-f64: {} not written",
                out.display()
            );
            return Ok(());
        };
        let dir = urdf.parent().unwrap_or(std::path::Path::new("."));
        let scene = collidescope::robot::scene::pair_scene(model, pairs[k], &configs[c], dir);
        scene
            .save(out)
            .map_err(|e| anyhow::anyhow!("{}: cannot write the scene: {e}", out.display()))?;
        println!("the worst disagreement written to {}", out.display());
        Ok(())
    }
}

/// The margins `bench robot` times the margin check at: 0 (which pairs collide, a
/// full self-collision check's answer) and a planner's 5 cm safety margin.
const MARGINS: [f64; 2] = [0.0, 0.05];

/// Whether a margin check agrees with the all-pairs distances: the same colliding
/// pairs, the same distances up to the margin, and every bound beyond it below the
/// pair's distance.
fn agrees_within(
    within: &collidescope::robot::ConfigAnswer,
    all: &collidescope::robot::ConfigAnswer,
    margin: f64,
) -> bool {
    within.pairs.iter().zip(&all.pairs).all(|(w, a)| {
        if w.beyond_margin {
            !a.colliding && w.distance > margin && w.distance <= a.distance + 1e-9
        } else {
            w.colliding == a.colliding && (w.distance - a.distance).abs() <= 1e-6
        }
    })
}

/// The joint resolution of the benchmark's path (a dense motion check's).
const PATH_RESOLUTION: f64 = 0.02;

/// One row group of `bench robot`: ours split into kinematics and pairs, parry3d-f64 on
/// the same pairs and poses, and the Boolean check.
fn bench_configs(model: &RobotModel, pairs: &[(usize, usize)], configs: &[Vec<f64>]) {
    let mut checker = SelfCollision::new(pairs.to_vec(), Algorithm::GJK);
    let answers: Vec<_> = configs.iter().map(|q| checker.check(model, q)).collect();
    let count = answers.len() as f64;
    let total = answers.iter().map(|a| a.seconds).sum::<f64>() / count * 1e6;
    let kinematics = answers.iter().map(|a| a.kinematics_seconds).sum::<f64>() / count * 1e6;
    let transforms = answers.iter().map(|a| a.transforms_seconds).sum::<f64>() / count * 1e6;
    let gjk = total - kinematics - transforms;
    let iterations = answers
        .iter()
        .flat_map(|a| a.pairs.iter().map(|p| p.iterations))
        .sum::<usize>() as f64
        / (count * pairs.len().max(1) as f64);
    let mut boolean = SelfCollision::new(pairs.to_vec(), Algorithm::GJK);
    let any = configs
        .iter()
        .map(|q| boolean.first_collision(model, q).1)
        .sum::<f64>()
        / count
        * 1e6;
    println!("  distance, all pairs    {total:>9.1} µs / configuration");
    println!("    forward kinematics   {kinematics:>9.1} µs (and the links' world poses)");
    println!("    transforms           {transforms:>9.1} µs (each pair's relative pose)");
    println!(
        "    GJK                  {gjk:>9.1} µs ({:.2} µs, {iterations:.1} iterations per pair)",
        gjk / pairs.len().max(1) as f64
    );
    match parry_check(model, pairs, configs) {
        Some((seconds, _)) => println!(
            "  parry3d-f64, same pairs{:>9.1} µs / configuration (ours / parry = {:.2})",
            seconds * 1e6,
            total / (seconds * 1e6)
        ),
        None => println!("  parry3d-f64: not every link shape has a parry counterpart"),
    }
    println!("  anything colliding?    {any:>9.1} µs / configuration (Boolean, first hit; bounding spheres first)");
    for margin in MARGINS {
        let mut within = SelfCollision::new(pairs.to_vec(), Algorithm::GJK);
        let (mut seconds, mut narrow, mut disagree) = (0.0, 0usize, 0usize);
        for (q, all) in configs.iter().zip(&answers) {
            let answer = within.check_within(model, q, margin);
            seconds += answer.seconds;
            narrow += answer.pairs.iter().filter(|p| p.seconds > 0.0).count();
            disagree += usize::from(!agrees_within(&answer, all, margin));
        }
        println!(
            "  every pair within {:>4} m{:>7.1} µs / configuration (GJK on {:.1} pairs; {})",
            margin,
            seconds / count * 1e6,
            narrow as f64 / count,
            if margin == 0.0 {
                "each pair's collision status"
            } else {
                "distances up to the margin, the rest bounded"
            }
        );
        if disagree > 0 {
            println!("    {disagree} configurations disagree with the all-pairs distances");
        }
    }
    // The nearest pair by branch and bound, checked against the all-pairs answers.
    let mut nearest = SelfCollision::new(pairs.to_vec(), Algorithm::GJK);
    let mut narrow = 0usize;
    let mut seconds = 0.0;
    for (q, all) in configs.iter().zip(&answers) {
        let Some((found, t)) = nearest.nearest_pair(model, q) else {
            continue;
        };
        seconds += t;
        narrow += found.narrow_phase_pairs;
        let least = all
            .pairs
            .iter()
            .map(|p| if p.colliding { 0.0 } else { p.distance })
            .fold(f64::INFINITY, f64::min);
        debug_assert!(
            found.distance <= least + 1e-6,
            "{} > {least}",
            found.distance
        );
    }
    println!(
        "  nearest pair           {:>9.1} µs / configuration (GJK on {:.1} of {} pairs, the rest ruled out by bounding spheres)",
        seconds / count * 1e6,
        narrow as f64 / count,
        pairs.len()
    );
}

/// The largest difference between our distances and parry's over every configuration
/// and pair measured (pairs beyond the margin were not measured).
fn largest_difference(answers: &[ConfigAnswer], parry: &[Vec<f64>]) -> f64 {
    answers
        .iter()
        .zip(parry)
        .flat_map(|(a, p)| {
            a.pairs
                .iter()
                .zip(p)
                .filter(|(x, _)| !x.beyond_margin)
                .map(|(x, y)| (x.distance - y).abs())
        })
        .fold(0.0f64, f64::max)
}
