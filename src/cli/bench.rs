//! `collidescope bench`: problem files (with Coal's answers), and the paper's protocol
//! on ellipsoids or on the hulls of a folder of meshes.

use std::path::{Path, PathBuf};

use collidescope::bench::chunks::{self, Chunk};
use collidescope::bench::plot::plot_iterations;
use collidescope::bench::problems::{
    category_table, epa_ratio, mean_table, run_problems, timing_table, ProblemFile,
    PROBLEM_ALGORITHMS,
};
use collidescope::bench::protocol::{
    ellipsoid_problems_placing, load_hulls, mesh_problems_placing, primitive_problems_placing,
    PrimitiveKind, ProblemSet, SIGNED_DISTANCES,
};
use collidescope::bench::runner::{
    run_set, run_set_in, summarise, summary_table, write_csv, QueryKind, RowItem, RunRow,
};
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

/// How a suite runs: every pair here, one chunk of pairs, or the report from chunks.
enum Split {
    Here,
    Chunk((usize, usize), PathBuf),
    Reduce(PathBuf),
}

impl Split {
    fn of(args: &SuiteArgs, timing: bool) -> anyhow::Result<Split> {
        let split = match (args.chunk, &args.chunk_out, &args.reduce) {
            (Some(range), Some(out), _) => Split::Chunk(range, out.clone()),
            (None, _, Some(folder)) => Split::Reduce(folder.clone()),
            _ => Split::Here,
        };
        if timing && !matches!(split, Split::Here) {
            anyhow::bail!(
                "--timing measures every problem against parry3d-f64 in one process: run it \
                 without --chunk or --reduce"
            );
        }
        Ok(split)
    }
}

/// A suite's problems, with only the pairs in the range placed.
type Build<'a> = dyn Fn(std::ops::Range<usize>) -> ProblemSet + 'a;

/// The arguments every chunk of a suite shares with its report.
fn plan(suite: serde_json::Value, args: &SuiteArgs, options: &SuiteOptions) -> serde_json::Value {
    serde_json::json!({
        "suite": suite,
        "pairs": args.pairs,
        "poses": args.poses,
        "seed": args.seed,
        "algorithms": options.algorithms.iter().map(|a| a.name()).collect::<Vec<_>>(),
    })
}

fn options_for(
    args: &SuiteArgs,
    folder: &str,
    timing: bool,
    split: &Split,
) -> anyhow::Result<SuiteOptions> {
    let out = args.out.clone().unwrap_or_else(|| default_out(folder));
    if matches!(split, Split::Chunk(..)) {
        // A chunk writes only its file.
        return Ok(SuiteOptions {
            algorithms: algorithms_or_default(&args.algorithms),
            out,
            timing,
        });
    }
    SuiteOptions::new(&args.algorithms, out, timing)
}

pub fn run_ellipsoids(args: SuiteArgs, timing: bool) -> anyhow::Result<()> {
    let split = Split::of(&args, timing)?;
    let options = options_for(&args, "ellipsoids", timing, &split)?;
    let build = |placed| ellipsoid_problems_placing(args.pairs, args.poses, args.seed, placed);
    let title = format!(
        "Ellipsoids: {} pairs × {} poses (seed {})",
        args.pairs, args.poses, args.seed
    );
    let plan = plan(serde_json::json!("ellipsoids"), &args, &options);
    run_suite(&build, (&args, split, plan), &options, &title)
}

pub fn run_meshes(dir: &Path, args: SuiteArgs, timing: bool) -> anyhow::Result<()> {
    let split = Split::of(&args, timing)?;
    let options = options_for(&args, "meshes", timing, &split)?;
    let hulls = load_hulls(dir)?;
    let build = |placed| mesh_problems_placing(&hulls, args.pairs, args.poses, args.seed, placed);
    let names: Vec<&str> = hulls.iter().map(|(n, _)| n.as_str()).collect();
    let title = format!(
        "Mesh hulls ({}): {} pairs × {} poses",
        names.join(", "),
        args.pairs,
        args.poses
    );
    let suite = serde_json::json!({"meshes": dir.display().to_string(), "hulls": names});
    let plan = plan(suite, &args, &options);
    run_suite(&build, (&args, split, plan), &options, &title)
}

pub fn run_primitives(
    a: PrimitiveKind,
    b: PrimitiveKind,
    args: SuiteArgs,
    timing: bool,
) -> anyhow::Result<()> {
    let split = Split::of(&args, timing)?;
    let folder = format!("primitives-{}-{}", a.name(), b.name());
    let options = options_for(&args, &folder, timing, &split)?;
    let build =
        |placed| primitive_problems_placing((a, b), args.pairs, args.poses, args.seed, placed);
    let title = format!(
        "{} against {}: {} pairs × {} poses (seed {})",
        a.name(),
        b.name(),
        args.pairs,
        args.poses,
        args.seed
    );
    let plan = plan(
        serde_json::json!({"primitives": [a.name(), b.name()]}),
        &args,
        &options,
    );
    run_suite(&build, (&args, split, plan), &options, &title)
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

/// The suite's runs (here, one chunk written, or merged from chunk files), then its
/// CSV, summary and plots.
fn run_suite(
    build: &Build<'_>,
    (args, split, plan): (&SuiteArgs, Split, serde_json::Value),
    options: &SuiteOptions,
    title: &str,
) -> anyhow::Result<()> {
    let per_pair = args.poses * SIGNED_DISTANCES.len();
    let (set, rows) = match split {
        Split::Chunk((start, end), out) => {
            chunks::check_range((start, end), args.pairs, "pairs of the suite")?;
            let set = build(start..end);
            let rows = run_set_in(
                &set,
                start * per_pair..end * per_pair,
                &options.algorithms,
                SolverSettings::benchmark(),
                &|| {},
            );
            // The rows are in problem order, each pair's problems in a run of them.
            let mut rows = rows.iter().peekable();
            let items: Vec<Vec<RowItem>> = (start..end)
                .map(|p| {
                    let problems = p * per_pair..(p + 1) * per_pair;
                    std::iter::from_fn(|| rows.next_if(|r| problems.contains(&r.problem)))
                        .map(RowItem::from)
                        .collect()
                })
                .collect();
            let chunk = Chunk {
                command: "bench".into(),
                plan,
                start,
                end,
                items,
            };
            return chunks::write_chunk(&chunk, &out);
        }
        Split::Reduce(folder) => {
            let items: Vec<Vec<RowItem>> =
                chunks::read_chunks("bench", &plan, args.pairs, &folder)?;
            let rows = items
                .iter()
                .flatten()
                .map(|item| item.row(&options.algorithms))
                .collect::<Result<Vec<RunRow>, String>>()
                .map_err(|e| anyhow::anyhow!("{}: {e}", folder.display()))?;
            (build(0..0), rows)
        }
        Split::Here => {
            let set = build(0..args.pairs);
            let bar = ProgressBar::new(set.problems.len() as u64);
            bar.set_style(
                ProgressStyle::with_template("{bar:40} {pos}/{len} problems {elapsed}")
                    .unwrap_or_else(|_| ProgressStyle::default_bar()),
            );
            let rows = run_set(
                &set,
                &options.algorithms,
                SolverSettings::benchmark(),
                &|| bar.inc(1),
            );
            bar.finish_and_clear();
            (set, rows)
        }
    };
    let set = &set;
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
