//! `collidescope bench`: problem files (with Coal's answers), and the paper's protocol
//! on ellipsoids or on the hulls of a folder of meshes.

use std::path::{Path, PathBuf};

use collidescope::bench::plot::plot_iterations;
use collidescope::bench::problems::{
    category_table, epa_ratio, mean_table, run_problems, timing_table, ProblemFile,
    PROBLEM_ALGORITHMS,
};
use collidescope::bench::protocol::{
    ellipsoid_problems, load_hulls, mesh_problems, primitive_problems, PrimitiveKind, ProblemSet,
};
use collidescope::bench::runner::{run_set, summarise, summary_table, write_csv, QueryKind};
use collidescope::bench::timing::{ratio_table, time_set};
use collidescope::solver::{Algorithm, Method, SolverSettings, TetrahedronRule};
use indicatif::{ProgressBar, ProgressStyle};

use super::SuiteArgs;

/// With parry's distances (`--timing`): per method, on how many problems parry3d-f64
/// agrees within the bound the answer certifies, and which disagree.
fn cross_check_summary(
    file: &ProblemFile,
    results: &[collidescope::bench::problems::ProblemResult],
    names: &[&str],
) -> anyhow::Result<String> {
    use collidescope::cross_check::distance_agrees;
    let settings = file.settings()?;
    let mut out = String::from("\nparry3d-f64 (its GJK on the same problems), cross-check:\n");
    let mut not_comparable: Option<(usize, &str)> = None;
    for name in names {
        let (mut agree, mut differ, mut apart) = (0, Vec::new(), 0);
        for r in results {
            let (Some(a), Some(parry)) = (r.algorithms.get(*name), &r.parry) else {
                continue;
            };
            if let Some(why) = &parry.not_comparable {
                apart += 1;
                not_comparable.get_or_insert((0, why.as_str()));
                continue;
            }
            match distance_agrees(a.distance, &a.status, &settings, parry.distance) {
                Some(true) => agree += 1,
                Some(false) => differ.push(r.index),
                None => {}
            }
        }
        let list: Vec<String> = differ.iter().take(12).map(|i| i.to_string()).collect();
        if let Some((n, _)) = &mut not_comparable {
            *n = (*n).max(apart);
        }
        out.push_str(&format!(
            "  {name:<22} agrees on {agree}, disagrees on {}, not comparable on {apart}{}\n",
            differ.len(),
            if differ.is_empty() {
                String::new()
            } else {
                format!(
                    " (problems {}{})",
                    list.join(", "),
                    if differ.len() > 12 { ", …" } else { "" }
                )
            }
        ));
    }
    if let Some((n, why)) = not_comparable {
        out.push_str(&format!(
            "  not comparable on {n} problems: {why} (for one of them; every implicit body \
             alike)\n"
        ));
    }
    Ok(out)
}

pub fn run_problem_file(
    path: &Path,
    json: bool,
    timing: bool,
    tetrahedron: TetrahedronRule,
    methods: &[Method],
) -> anyhow::Result<()> {
    let file = ProblemFile::load(path)?;
    let results = run_problems(&file, timing, tetrahedron, methods)?;
    let table = mean_table(&file, &results);
    let mut timing_summary = timing.then(|| timing_table(&results));
    if let (Some(summary), Some((summed, median, n))) = (&mut timing_summary, epa_ratio(&results)) {
        summary.push_str(&format!(
            "\nEPA time per query / parry3d-f64's penetration query, {n} overlapping problems: \
             {summed:.2} summed, {median:.2} median per problem\n"
        ));
    }
    if let (Some(summary), Some(by_category)) =
        (&mut timing_summary, category_table(&file, &results))
    {
        summary
            .push_str("\nTime per query beside the peer's, by category (ratio: of the means):\n");
        summary.push_str(&by_category);
    }
    if json {
        println!(
            "{}",
            serde_json::to_string(&serde_json::json!({ "results": results }))?
        );
        eprintln!("{table}");
        if let Some(t) = timing_summary {
            eprintln!("{t}");
        }
        return Ok(());
    }
    // The columns: the methods run (the default set when none was named).
    let names: Vec<&str> = if methods.is_empty() {
        PROBLEM_ALGORITHMS.iter().map(|a| a.name()).collect()
    } else {
        methods.iter().map(|m| m.name()).collect()
    };
    let parry_column = results.iter().any(|r| r.parry.is_some());
    print!("{:>5} {:>9}", "index", "target");
    for name in &names {
        print!("  {name:>32}");
    }
    if parry_column {
        print!("  {:>13}", "parry");
    }
    println!();
    for r in &results {
        print!("{:>5} {:>9}", r.index, format!("{}", r.target_distance));
        for name in &names {
            match r.algorithms.get(*name) {
                Some(a) => {
                    let distance = a.distance.map_or("-".to_string(), |d| format!("{d:.6e}"));
                    print!("  {:>4} {:>13} {:>13}", a.iterations, distance, a.status);
                }
                None => print!("  {:>32}", "-"),
            }
        }
        if let Some(parry) = &r.parry {
            print!("  {:>13}", format!("{:.6e}", parry.distance));
        }
        println!();
    }
    println!();
    print!("{table}");
    if parry_column {
        print!("{}", cross_check_summary(&file, &results, &names)?);
    }
    if let Some(t) = timing_summary {
        println!();
        print!("{t}");
    }
    Ok(())
}

/// What a protocol run needs besides its problems.
pub struct SuiteOptions {
    pub algorithms: Vec<Algorithm>,
    pub out: PathBuf,
    /// Also time every GJK variant against parry3d-f64 on every problem.
    pub timing: bool,
}

/// The GJK family by default (Frank-Wolfe's hundreds of iterations would flatten the
/// plots); any algorithm on request.
fn algorithms_or_default(algorithms: &[Algorithm]) -> Vec<Algorithm> {
    if algorithms.is_empty() {
        PROBLEM_ALGORITHMS
            .iter()
            .copied()
            .filter(|a| matches!(a, Algorithm::Gjk(_)))
            .collect()
    } else {
        algorithms.to_vec()
    }
}

impl SuiteOptions {
    /// The algorithms (the GJK family by default) and a writable output folder.
    fn new(algorithms: &[Algorithm], out: PathBuf, timing: bool) -> anyhow::Result<Self> {
        prepare_out(&out)?;
        Ok(Self {
            algorithms: algorithms_or_default(algorithms),
            out,
            timing,
        })
    }
}

/// Where a benchmark writes when `--out` is not given: under `target/` (ignored by git),
/// so that running a benchmark never adds files to the repository.
pub fn default_out(suite: &str) -> PathBuf {
    Path::new("target").join("bench").join(suite)
}

pub fn run_ellipsoids(args: SuiteArgs, timing: bool) -> anyhow::Result<()> {
    let options = SuiteOptions::new(
        &args.algorithms,
        args.out.unwrap_or_else(|| default_out("ellipsoids")),
        timing,
    )?;
    let set = ellipsoid_problems(args.pairs, args.poses, args.seed);
    let title = format!(
        "Ellipsoids: {} pairs × {} poses (seed {})",
        args.pairs, args.poses, args.seed
    );
    run_suite(&set, &options, &title)
}

pub fn run_meshes(dir: &Path, args: SuiteArgs, timing: bool) -> anyhow::Result<()> {
    let options = SuiteOptions::new(
        &args.algorithms,
        args.out.unwrap_or_else(|| default_out("meshes")),
        timing,
    )?;
    let hulls = load_hulls(dir)?;
    let set = mesh_problems(&hulls, args.pairs, args.poses, args.seed);
    let names: Vec<&str> = hulls.iter().map(|(n, _)| n.as_str()).collect();
    let title = format!(
        "Mesh hulls ({}): {} pairs × {} poses",
        names.join(", "),
        args.pairs,
        args.poses
    );
    run_suite(&set, &options, &title)
}

pub fn run_primitives(
    a: PrimitiveKind,
    b: PrimitiveKind,
    args: SuiteArgs,
    timing: bool,
) -> anyhow::Result<()> {
    let folder = format!("primitives-{}-{}", a.name(), b.name());
    let options = SuiteOptions::new(
        &args.algorithms,
        args.out.unwrap_or_else(|| default_out(&folder)),
        timing,
    )?;
    let set = primitive_problems(a, b, args.pairs, args.poses, args.seed);
    let title = format!(
        "{} against {}: {} pairs × {} poses (seed {})",
        a.name(),
        b.name(),
        args.pairs,
        args.poses,
        args.seed
    );
    run_suite(&set, &options, &title)
}

fn prepare_out(out: &Path) -> anyhow::Result<()> {
    std::fs::create_dir_all(out)
        .map_err(|e| anyhow::anyhow!("{}: cannot create the output folder: {e}", out.display()))?;
    let probe = out.join(".collidescope-write-test");
    std::fs::write(&probe, b"").map_err(|e| {
        anyhow::anyhow!(
            "{}: the output folder cannot be written: {e}",
            out.display()
        )
    })?;
    let _ = std::fs::remove_file(probe);
    Ok(())
}

fn run_suite(set: &ProblemSet, options: &SuiteOptions, title: &str) -> anyhow::Result<()> {
    let bar = ProgressBar::new(set.problems.len() as u64);
    bar.set_style(
        ProgressStyle::with_template("{bar:40} {pos}/{len} problems {elapsed}")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    let rows = run_set(
        set,
        &options.algorithms,
        SolverSettings::benchmark(),
        &|| bar.inc(1),
    );
    bar.finish_and_clear();
    let csv = options.out.join("runs.csv");
    write_csv(&csv, set, &rows)
        .map_err(|e| anyhow::anyhow!("{}: cannot write: {e}", csv.display()))?;
    let cells = summarise(&rows);
    let table = summary_table(&cells, &options.algorithms);
    let summary = options.out.join("summary.txt");
    std::fs::write(&summary, format!("{title}\n\n{table}"))
        .map_err(|e| anyhow::anyhow!("{}: cannot write: {e}", summary.display()))?;
    for query in [QueryKind::Distance, QueryKind::Boolean] {
        let png = options.out.join(format!("iterations_{}.png", query.name()));
        plot_iterations(
            &png,
            &format!("{title} — {} query", query.name()),
            &cells,
            query,
            &options.algorithms,
        )?;
    }
    println!("{title}\n\n{table}");
    if options.timing {
        let samples = time_set(set, &options.algorithms, SolverSettings::benchmark());
        let ratios = ratio_table(&samples);
        std::fs::write(options.out.join("timing.txt"), &ratios)
            .map_err(|e| anyhow::anyhow!("{}: cannot write: {e}", options.out.display()))?;
        println!("{ratios}");
    }
    println!(
        "wrote {} ({} runs), {}, iterations_distance.png and iterations_boolean.png in {}",
        csv.display(),
        rows.len(),
        summary.display(),
        options.out.display()
    );
    Ok(())
}

/// `bench lp`: the LP test against GJK's Boolean mode by vertex count.
pub fn run_lp_crossover(pairs: usize, out: Option<PathBuf>) -> anyhow::Result<()> {
    use collidescope::bench::lp_crossover;
    let out = out.unwrap_or_else(|| default_out("lp"));
    std::fs::create_dir_all(&out)
        .map_err(|e| anyhow::anyhow!("{}: cannot create: {e}", out.display()))?;
    let rows = lp_crossover::run(pairs.max(1));
    let table = lp_crossover::table(&rows);
    print!("{table}");
    std::fs::write(out.join("lp_crossover.txt"), &table)?;
    lp_crossover::plot(&rows, &out.join("lp_crossover.png"))?;
    println!("wrote {}", out.join("lp_crossover.png").display());
    Ok(())
}

/// `bench ip`: the interior point's speed report.
pub fn run_interior_point(queries: usize, out: Option<PathBuf>) -> anyhow::Result<()> {
    use collidescope::bench::interior_point;
    let out = out.unwrap_or_else(|| default_out("ip"));
    std::fs::create_dir_all(&out)
        .map_err(|e| anyhow::anyhow!("{}: cannot create: {e}", out.display()))?;
    let (rows, scaling) = interior_point::run(queries.max(1))?;
    let table = interior_point::table(&rows, &scaling);
    print!("{table}");
    std::fs::write(out.join("ip.txt"), &table)?;
    interior_point::plot(&scaling, &out.join("ip_newton_step.png"))?;
    println!("wrote {}", out.join("ip_newton_step.png").display());
    Ok(())
}
