//! Command-line interface: argument definitions and dispatch to one module per command.

mod bench;
mod export;
mod import;
mod jitter;
#[cfg(feature = "app")]
mod lesson;
mod mesh;
mod robot;
mod robot_chunks;
mod solve;
mod solve_composite;
mod sweep;

use std::path::PathBuf;

use clap::{Parser, Subcommand};
use collidescope::bench::chunks::parse_range;
use collidescope::bench::protocol::PrimitiveKind;
use collidescope::solver::{Algorithm, Method, SupportRule, TetrahedronRule};

/// Method names for the command line, listed in `--help` from the catalog.
fn method_names() -> impl clap::builder::TypedValueParser<Value = Method> {
    use clap::builder::{PossibleValuesParser, TypedValueParser};
    let names: Vec<&'static str> = collidescope::solver::catalog::CATALOG
        .iter()
        .map(|row| row.name)
        .collect();
    PossibleValuesParser::new(names).map(|name| {
        name.parse::<Method>()
            .expect("every catalog name parses as a method")
    })
}

/// Solver names for the benchmark suites and sweeps (the catalog's GJK-family and
/// Frank-Wolfe rows).
fn solver_names() -> impl clap::builder::TypedValueParser<Value = Algorithm> {
    use clap::builder::{PossibleValuesParser, TypedValueParser};
    let names: Vec<&'static str> = Algorithm::ALL.iter().map(|a| a.name()).collect();
    PossibleValuesParser::new(names).map(|name| {
        name.parse::<Algorithm>()
            .expect("every solver name parses as an algorithm")
    })
}

#[derive(Parser, Debug)]
#[command(
    name = "collidescope",
    version,
    about = "A visual debugger for convex collision detection (GJK, Nesterov-accelerated GJK, Frank-Wolfe)"
)]
pub struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

/// What every benchmark suite takes.
#[derive(clap::Args, Debug)]
pub struct SuiteArgs {
    #[arg(long, default_value_t = 20)]
    pub pairs: usize,
    #[arg(long, default_value_t = 5)]
    pub poses: usize,
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    #[arg(value_parser = solver_names(), long = "algorithm")]
    pub algorithms: Vec<Algorithm>,
    /// Folder for runs.csv, summary.txt, timing.txt and the PNG plots
    /// (default: target/bench/ellipsoids, target/bench/meshes, target/bench/primitives-A-B).
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Run only the pairs START..END (each with its poses) and write their runs as a
    /// chunk file (JSON) to --chunk-out: one task of a benchmark split over machines
    /// (`collidescope.cluster.bench`, docs/cluster.md).
    #[arg(long, value_parser = parse_range, requires = "chunk_out", conflicts_with = "reduce")]
    pub chunk: Option<(usize, usize)>,
    /// Where --chunk writes its file (`-`: standard output).
    #[arg(long, requires = "chunk")]
    pub chunk_out: Option<PathBuf>,
    /// Write runs.csv, summary.txt and the plots from the chunk files in this folder
    /// (together covering every pair once) instead of running the pairs here.
    #[arg(long)]
    pub reduce: Option<PathBuf>,
}

#[derive(Subcommand, Debug)]
enum BenchSuite {
    /// Random ellipsoid pairs (the protocol of Montaut et al., "Collision Detection
    /// Accelerated: An Optimization Perspective").
    Ellipsoids {
        #[command(flatten)]
        args: SuiteArgs,
    },
    /// Random pairs of the hulls of the OBJ meshes in DIR (100–1000 hull vertices).
    Meshes {
        dir: PathBuf,
        #[command(flatten)]
        args: SuiteArgs,
    },
    /// Random pairs of primitive shapes (sizes 0.05–1), the protocol's poses: how the
    /// GJK family does on capsules, cylinders, cones and boxes.
    Primitives {
        /// A's kind.
        #[arg(long, value_enum)]
        a: PrimitiveKind,
        /// B's kind.
        #[arg(long, value_enum)]
        b: PrimitiveKind,
        #[command(flatten)]
        args: SuiteArgs,
    },
    /// The LP collision test against GJK's Boolean mode by vertex count (8 to 1000):
    /// time per query, pivots, verdict agreement; a table and lp_crossover.png.
    Lp {
        /// Pairs per vertex count.
        #[arg(long, default_value_t = 20)]
        pairs: usize,
        /// Folder for lp_crossover.txt and lp_crossover.png (default: target/bench/lp).
        #[arg(long)]
        out: Option<PathBuf>,
    },
    /// Robot self-collision speed: every pair per random configuration against
    /// parry3d-f64 on the same pairs, the Boolean check, and the time split.
    Robot {
        urdf: PathBuf,
        #[arg(long)]
        srdf: Option<PathBuf>,
        /// Random configurations.
        #[arg(long, default_value_t = 2000)]
        configs: usize,
    },
    /// The interior point's speed: Chakraborty et al.'s Table I pairs, two ellipsoids against our
    /// GJK, continuous collision against a distance query, and the time per Newton step
    /// against the number of half-spaces (a table and ip_newton_step.png).
    Ip {
        /// Random poses per pair.
        #[arg(long, default_value_t = 50)]
        queries: usize,
        /// Folder for ip.txt and ip_newton_step.png (default: target/bench/ip).
        #[arg(long)]
        out: Option<PathBuf>,
    },
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Run a scene's algorithms and print every iteration and the outcome.
    Solve {
        /// Scene file (RON).
        scene: PathBuf,
        /// Algorithm to run instead of the scene's list (repeatable; `epa`: penetration
        /// depth, GJK then EPA's expansions).
        #[arg(value_parser = method_names(), long = "algorithm", short = 'a')]
        algorithms: Vec<Method>,
        /// Print JSON (runs with their full per-iteration records).
        #[arg(long, conflicts_with = "csv")]
        json: bool,
        /// Print CSV, one row per iteration per algorithm.
        #[arg(long)]
        csv: bool,
        /// Tetrahedron projection instead of the scene's (region-tree: Coal's, default).
        #[arg(long, value_enum)]
        tetrahedron: Option<TetrahedronRule>,
        /// Support conventions instead of the scene's (coal: Coal's cores and dead zone,
        /// so that GJK takes the iterations Coal takes).
        #[arg(long, value_enum)]
        supports: Option<SupportRule>,
        /// Any setting by its dotted name, over the scene's (repeatable):
        /// `--set epa.tolerance=1e-12 --set lp.pivot_rule=SmallestIndex --set
        /// toi.max_iterations=50 --set interior_point.tolerance=1e-10 --set tolerance=1e-9`.
        #[arg(long = "set", value_name = "NAME=VALUE")]
        assignments: Vec<String>,
        /// Also run parry3d-f64 on the same pair and pose and say, for each run, whether
        /// it agrees within the bound the run certifies.
        #[arg(long)]
        cross_check: bool,
        /// A pair with a mesh, height field or compound: list the contacts on the mesh
        /// within this distance, each with its feature, normal cone and the engines'
        /// internal-edge corrections (default: 1 % of the convex body's size).
        #[arg(long)]
        contact_margin: Option<f64>,
        /// A pair with a composite: how many sub-pairs the table lists, nearest first.
        #[arg(long, default_value_t = 12)]
        sub_pairs: usize,
        /// The pair to run, of the scene's `pairs`: its index K (from 0), or the two
        /// bodies' names NAME1,NAME2 (e.g. robot link names); default: the first.
        #[arg(long, value_name = "K|NAME1,NAME2")]
        pair: Option<String>,
    },
    /// Benchmarks: a problem file with Coal's answers (--problems), or the paper's
    /// protocol on random ellipsoids or on mesh hulls.
    Bench {
        /// Problem file (JSON, format in ../shared/data/problems/README.md).
        #[arg(long)]
        problems: Option<PathBuf>,
        /// Print the per-problem results as JSON on stdout (summary on stderr).
        #[arg(long)]
        json: bool,
        /// Also time every query, and parry3d-f64's GJK on the same problem.
        #[arg(long, global = true)]
        timing: bool,
        /// Tetrahedron projection for --problems: region-tree (Coal's, reproduces its
        /// counts) or nearest-face (order-free).
        #[arg(long, value_enum, default_value = "region-tree")]
        tetrahedron: TetrahedronRule,
        /// For --problems: the methods to run (repeatable; default: gjk, nesterov,
        /// nesterov_normalized, polyak, nesterov_restart, fw_linesearch).
        #[arg(value_parser = method_names(), long = "algorithm")]
        methods: Vec<Method>,
        #[command(subcommand)]
        suite: Option<BenchSuite>,
    },
    /// Open the viewer on a scene (no subcommand: the default scene).
    #[cfg(feature = "app")]
    View {
        /// Scene file (RON), or a URDF for robot mode.
        scene: Option<PathBuf>,
        /// With a URDF: the SRDF whose disable_collisions pairs robot mode skips.
        #[arg(long)]
        srdf: Option<PathBuf>,
        /// With a MuJoCo model: open it at this keyframe (name or index).
        #[arg(long)]
        key: Option<String>,
        /// Scripted mode: render, write this PNG with Bevy's screenshot API and exit.
        #[arg(long)]
        screenshot: Option<PathBuf>,
        /// Record (step) of the focused run to show, from 0.
        #[arg(long)]
        iteration: Option<usize>,
        /// Algorithm in focus (a solver, or epa).
        #[arg(value_parser = method_names(), long)]
        focus: Option<Method>,
        /// Window size, e.g. 1600x960.
        #[arg(long, value_parser = parse_size)]
        size: Option<(u32, u32)>,
        /// Scripted mode: frame the step (simplex and origin) instead of the whole scene.
        #[arg(long)]
        close_up: bool,
        /// Scripted mode: run the Diagnose panel's sweep and heat map, then capture.
        #[arg(long)]
        diagnose: bool,
        /// For a lesson: the step to open at (from 1).
        #[arg(long)]
        lesson_step: Option<usize>,
        /// Start in the projector theme (F5 toggles it in the viewer).
        #[arg(long)]
        projector: bool,
        /// Scripted mode, a lesson: fail when a point the step's text names (w₁, x₂, a₁,
        /// O, ...) has its label outside the 3-D view.
        #[arg(long)]
        check_labels: bool,
    },
    /// A build without the viewer: `view` says so, and how to get it, instead of
    /// clap's "unrecognized subcommand" (which Python's `cs.view` and scripts would
    /// read as a typo).
    #[cfg(not(feature = "app"))]
    #[command(hide = true)]
    View {
        #[arg(trailing_var_arg = true, allow_hyphen_values = true)]
        args: Vec<String>,
    },
    /// Capture every step of the focused run (or, for a scene with a lesson, every lesson
    /// step) as an animated GIF, or numbered PNGs when OUT ends in .png. Needs a display;
    /// without one it runs itself under xvfb-run when that is installed.
    #[cfg(feature = "app")]
    Animate {
        /// Scene file (RON).
        scene: PathBuf,
        /// Output: run.gif, or run.png for run_000.png, run_001.png, ...
        #[arg(long)]
        out: PathBuf,
        /// Algorithm in focus (a solver, or epa).
        #[arg(value_parser = method_names(), long)]
        algorithm: Option<Method>,
        /// Frame size, e.g. 1280x720.
        #[arg(long, value_parser = parse_size)]
        size: Option<(u32, u32)>,
        /// For a scene with a lesson: animate the run's steps instead of the lesson's.
        #[arg(long)]
        steps: bool,
        /// In the projector theme.
        #[arg(long)]
        projector: bool,
    },
    /// Print a lesson's steps as the viewer's lesson player shows them (each step's text
    /// in full, focused method, cursor, iterations, narration) and its questions, each
    /// step checked against its `expect`; exits with an error when one differs. The
    /// printed `expect` lines are what to paste after a deliberate change. With
    /// `--worksheet OUT.md`, also the worksheets: a student sheet at OUT.md and its
    /// answer key at OUT-answers.md (and both as PDF with `--pdf`).
    #[cfg(feature = "app")]
    Lesson {
        /// Scene file (RON) with lesson steps (with `--site`: the lessons folder, by
        /// default `scenes/lessons`).
        #[arg(required_unless_present = "site")]
        scene: Option<PathBuf>,
        /// Also write the lesson as a self-contained web page (its pages, pictures,
        /// narration and plots; opens offline in any current browser).
        #[arg(long, conflicts_with = "site")]
        html: Option<PathBuf>,
        /// Write every lesson of the course (`course.ron`) as a web page into this
        /// folder, with an index page: a course website.
        #[arg(long)]
        site: Option<PathBuf>,
        /// Also write the worksheets (Markdown): a student sheet here (the setup in
        /// world coordinates, x₀, the tie rule, the first steps of each run to fill in,
        /// the questions) and an answer key beside it (`-answers` added to the name).
        #[arg(long)]
        worksheet: Option<PathBuf>,
        /// With `--worksheet`: also print both sheets to PDF (same names, `.pdf`) with
        /// the system's Chromium.
        #[arg(long, requires = "worksheet")]
        pdf: bool,
    },
    /// Find the slow poses of two meshes: sample relative poses at signed distances in a
    /// band, run the algorithms, report the distributions, write the worst as scenes.
    Sweep {
        a: PathBuf,
        b: PathBuf,
        #[arg(value_parser = solver_names(), long = "algorithm")]
        algorithms: Vec<Algorithm>,
        #[arg(long, default_value_t = 1000)]
        samples: usize,
        /// Signed distances MIN..MAX (negative: overlap), in the meshes' units.
        #[arg(long, default_value = "-0.01..0.1", value_parser = sweep::parse_band, allow_hyphen_values = true)]
        distance: (f64, f64),
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Folder for the report and the slowest poses' scenes.
        #[arg(long, default_value = "target/sweep")]
        out: PathBuf,
        /// How many of the slowest poses per algorithm to keep as scenes.
        #[arg(long, default_value_t = 5)]
        worst: usize,
        /// Run only the poses START..END and write them as a chunk file (JSON) to
        /// --chunk-out: one task of a sweep split over machines
        /// (`collidescope.cluster.sweep` in the Python package, docs/cluster.md).
        #[arg(long, value_parser = parse_range, requires = "chunk_out", conflicts_with = "reduce")]
        chunk: Option<(usize, usize)>,
        /// Where --chunk writes its file (`-`: standard output).
        #[arg(long, requires = "chunk")]
        chunk_out: Option<PathBuf>,
        /// Report from the chunk files in this folder (each written by --chunk, together
        /// covering every pose once) instead of running the poses: the same report and
        /// scenes as the sweep run here.
        #[arg(long)]
        reduce: Option<PathBuf>,
    },
    /// How steady each contact rule's manifold is: B nudged by 1e-9 to 1e-3 of the pair's
    /// size and the whole scene moved and turned, the points' motion per unit of the
    /// body's (a jump: over 100x); then a heat map over B's tilts, the worst written as
    /// scenes.
    Jitter {
        scene: PathBuf,
        /// Contact rules (contact, contact_coal, contact_parry); all three by default.
        #[arg(long = "rule")]
        rules: Vec<String>,
        /// Random directions per nudge size.
        #[arg(long, default_value_t = 4)]
        trials: usize,
        /// Poses per side of the tilt grid.
        #[arg(long, default_value_t = 15)]
        cells: usize,
        /// Largest tilt of the grid (radians).
        #[arg(long, default_value_t = 0.01)]
        tilt: f64,
        /// How many of the worst poses per rule to keep as scenes.
        #[arg(long, default_value_t = 3)]
        worst: usize,
        /// Folder for the worst poses' scenes.
        #[arg(long, default_value = "target/jitter")]
        out: PathBuf,
    },
    /// Bring in an engine's query as a scene: a parry/rapier capture (serde JSON of
    /// `(pos1, shape1, pos2, shape2)`, f32 or f64 build), an FCL/Coal failure dump
    /// (shapes and two 4x4 poses) or a MuJoCo model (MJCF XML: its geoms, the pairs
    /// MuJoCo tests by certified signed distance, the deepest overlap or else the nearest
    /// pair first, in focus). Prints what it read and each method's answer.
    Import {
        /// A capture, dump or model; or a folder of them (each file's answers, a bad
        /// file named and the run going on with the others; meshes, images, scenes and
        /// subfolders skipped).
        file: PathBuf,
        /// Write the scene here (RON); without it the scene is printed. With a folder:
        /// the folder the scenes are written to (STEM.ron each).
        #[arg(long)]
        out: Option<PathBuf>,
        /// A MuJoCo model at this keyframe (its name or index) instead of the file's
        /// configuration: the joints placed at the key's qpos.
        #[arg(long)]
        key: Option<String>,
        /// With a folder: only its files START..END (in name order), written as a chunk
        /// file (JSON) to --chunk-out: one task of a folder split over machines
        /// (`collidescope.cluster.check_captures`, docs/cluster.md).
        #[arg(long, value_parser = parse_range, requires = "chunk_out", conflicts_with = "reduce")]
        chunk: Option<(usize, usize)>,
        /// Where --chunk writes its file (`-`: standard output).
        #[arg(long, requires = "chunk")]
        chunk_out: Option<PathBuf>,
        /// With a folder: report from the chunk files in this folder instead of
        /// importing here.
        #[arg(long)]
        reduce: Option<PathBuf>,
    },
    /// Send a scene's pair back to an engine's maintainers: a standalone Coal script
    /// (Python) and/or a standalone parry3d-f64 `#[test]`, each with the shapes and poses
    /// to the bit, the certified answer, and a check that fails while the engine is
    /// outside it; or to anyone, as a web page of its runs (`--html`).
    Export {
        scene: PathBuf,
        /// Write the Coal script here (`python3 case.py` exits 1 while Coal is wrong).
        #[arg(long)]
        coal: Option<PathBuf>,
        /// Write the parry3d-f64 test here (a file for a crate's `tests/`).
        #[arg(long)]
        parry: Option<PathBuf>,
        /// Write a self-contained web page here: the scene's runs replayed step by step
        /// (shapes, A ⊖ B, each step's picture and narration, the convergence plot),
        /// opening offline in any current browser.
        #[arg(long)]
        html: Option<PathBuf>,
        /// The methods the page runs instead of the scene's list (repeatable).
        #[arg(value_parser = method_names(), long = "algorithm", short = 'a')]
        algorithms: Vec<Method>,
    },
    /// Import a mesh and print its report (vertices, faces, hull, convexity, flatness):
    /// OBJ, STL (ASCII or binary) or PLY (ASCII or binary), by its extension (another
    /// extension is read as OBJ).
    Mesh {
        file: PathBuf,
        #[arg(long)]
        json: bool,
    },
    /// Robot self-collision (Coulombe, "High Precision Real Time Collision Detection"):
    /// every link pair of a URDF, minus the SRDF's disabled pairs, at given or random
    /// configurations.
    Robot {
        urdf: PathBuf,
        /// SRDF whose disable_collisions pairs are skipped.
        #[arg(long)]
        srdf: Option<PathBuf>,
        /// Without an SRDF: compute the allowed-collision matrix as MoveIt's setup
        /// assistant does (adjacent, colliding at the default pose, colliding in nearly
        /// every random pose), write it to this SRDF, and check the remaining pairs.
        #[arg(long, conflicts_with = "srdf")]
        write_srdf: Option<PathBuf>,
        /// Random configurations the matrix samples.
        #[arg(long, default_value_t = 1000)]
        acm_trials: usize,
        /// Where package:// mesh paths are resolved (default: each folder above the URDF).
        #[arg(long)]
        package_root: Option<PathBuf>,
        /// CONFIGS.json: {"joints": [names], "configs": [[values], ...]}.
        #[arg(long, conflicts_with = "random")]
        configs: Option<PathBuf>,
        /// N random configurations within the joints' limits.
        #[arg(long)]
        random: Option<usize>,
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// The GJK-family method (default gjk).
        #[arg(value_parser = solver_names(), long = "algorithm")]
        algorithm: Option<Algorithm>,
        /// Also report time percentiles and the split into kinematics and pairs.
        #[arg(long)]
        timing: bool,
        /// Only "is anything colliding?": Boolean GJK, stopping at the first colliding
        /// pair.
        #[arg(long, conflicts_with = "json")]
        any: bool,
        /// Only distances up to this margin (metres) matter, as in a planner's safety
        /// check; 0 asks only which pairs collide. Pairs proved farther apart (bounding
        /// spheres, GJK's separating plane) are reported beyond it with that lower bound.
        #[arg(long, value_parser = non_negative_margin)]
        margin: Option<f64>,
        /// With --timing: write the pair configuration where parry3d-f64 differs most
        /// from ours as a two-body scene (for `collidescope export ... --parry`).
        #[arg(long, requires = "timing")]
        disagreement_scene: Option<PathBuf>,
        /// How a link's mesh is checked: `hull` (its convex hull: one GJK run per pair,
        /// the default, for speed), `mesh` (its triangles, as MoveIt and Pinocchio check
        /// URDF meshes: FCL's and Coal's BVHModel), or `both` (each pair both ways, and
        /// the pairs whose verdict changes).
        #[arg(long, value_enum, default_value_t = robot::CollisionArg::Hull)]
        collision: robot::CollisionArg,
        /// Write one pair as a two-body scene, its links as checked (`--collision mesh`
        /// keeps the meshes, so `solve` asks the same): with `--collision both` the
        /// first pair whose verdict changes (as meshes), otherwise the first
        /// configuration's nearest pair (a colliding one first).
        #[arg(long, conflicts_with = "any")]
        pair_scene: Option<PathBuf>,
        #[arg(long)]
        json: bool,
        /// Check only the configurations START..END (START a multiple of 256, where warm
        /// starts restart) and write their answers as a chunk file (JSON) to
        /// --chunk-out: one task of a check split over machines
        /// (`collidescope.cluster.robot` in the Python package, docs/cluster.md).
        #[arg(long, value_parser = parse_range, requires = "chunk_out",
              conflicts_with_all = ["reduce", "any", "timing", "write_srdf"])]
        chunk: Option<(usize, usize)>,
        /// Where --chunk writes its file (`-`: standard output).
        #[arg(long, requires = "chunk")]
        chunk_out: Option<PathBuf>,
        /// Report from the chunk files in this folder (each written by --chunk, together
        /// covering every configuration once): the same report as the check run here.
        #[arg(long, conflicts_with_all = ["any", "timing", "write_srdf"])]
        reduce: Option<PathBuf>,
    },
}

/// What a build without the feature `app` says when asked for the viewer.
#[cfg(not(feature = "app"))]
const NO_VIEWER: &str = "this collidescope was built without the viewer (cargo's \
    --no-default-features, which leaves out the feature `app`): reinstall it with the \
    viewer, `cargo install --path .` in the Collidescope repository (building Bevy takes 15 \
    minutes or more)";

/// `--margin`: a finite distance ≥ 0.
fn non_negative_margin(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(m) if m.is_finite() && m >= 0.0 => Ok(m),
        Ok(m) => Err(format!("the margin must be a finite distance ≥ 0, got {m}")),
        Err(e) => Err(format!("not a number: {e}")),
    }
}

/// Parses `WIDTHxHEIGHT`.
#[cfg(feature = "app")]
fn parse_size(s: &str) -> Result<(u32, u32), String> {
    let (w, h) = s
        .split_once('x')
        .ok_or_else(|| format!("expected WIDTHxHEIGHT, got '{s}'"))?;
    let parse = |v: &str| {
        v.trim()
            .parse::<u32>()
            .map_err(|_| format!("expected WIDTHxHEIGHT, got '{s}'"))
    };
    let (w, h) = (parse(w)?, parse(h)?);
    if w < 200 || h < 200 || w > 8192 || h > 8192 {
        return Err(format!("window size {w}x{h} is out of range (200..8192)"));
    }
    Ok((w, h))
}

/// Runs the parsed command.
pub fn run(cli: Cli) -> anyhow::Result<()> {
    match cli.command {
        Some(Command::Solve {
            scene,
            algorithms,
            json,
            csv,
            tetrahedron,
            supports,
            assignments,
            cross_check,
            contact_margin,
            sub_pairs,
            pair,
        }) => solve::run(
            &scene,
            pair.as_deref(),
            &algorithms,
            solve::Overrides {
                tetrahedron,
                supports,
                assignments,
            },
            solve::Format::from_flags(json, csv),
            cross_check,
            &solve_composite::CompositeOptions {
                contact_margin,
                list: sub_pairs,
            },
        ),
        Some(Command::Bench {
            problems,
            json,
            timing,
            tetrahedron,
            methods,
            suite,
        }) => match (problems, suite) {
            (Some(file), None) => {
                bench::run_problem_file(&file, json, timing, tetrahedron, &methods)
            }
            (None, Some(BenchSuite::Ellipsoids { args })) => bench::run_ellipsoids(args, timing),
            (None, Some(BenchSuite::Meshes { dir, args })) => bench::run_meshes(&dir, args, timing),
            (None, Some(BenchSuite::Primitives { a, b, args })) => {
                bench::run_primitives(a, b, args, timing)
            }
            (None, Some(BenchSuite::Lp { pairs, out })) => bench::run_lp_crossover(pairs, out),
            (None, Some(BenchSuite::Ip { queries, out })) => {
                bench::run_interior_point(queries, out)
            }
            (
                None,
                Some(BenchSuite::Robot {
                    urdf,
                    srdf,
                    configs,
                }),
            ) => robot::bench(&urdf, srdf.as_deref(), configs),
            (Some(_), Some(_)) => anyhow::bail!(
                "give either --problems FILE or a suite (ellipsoids, meshes), not both"
            ),
            (None, None) => anyhow::bail!(
                "give --problems FILE, or a suite: bench ellipsoids, bench meshes DIR"
            ),
        },
        Some(Command::Jitter {
            scene,
            rules,
            trials,
            cells,
            tilt,
            worst,
            out,
        }) => jitter::run(jitter::JitterArgs {
            scene,
            rules,
            trials,
            cells,
            tilt,
            worst,
            out,
        }),
        Some(Command::Import {
            file,
            out,
            key,
            chunk,
            chunk_out,
            reduce,
        }) => {
            if file.is_dir() {
                import::run_folder(import::FolderArgs {
                    folder: &file,
                    out: out.as_deref(),
                    key: key.as_deref(),
                    chunk: chunk.zip(chunk_out),
                    reduce: reduce.as_deref(),
                })
            } else if chunk.is_some() || reduce.is_some() {
                anyhow::bail!(
                    "{}: --chunk and --reduce split a folder of captures; this is one file",
                    file.display()
                )
            } else {
                import::run(&file, out.as_deref(), key.as_deref())
            }
        }
        Some(Command::Export {
            scene,
            coal,
            parry,
            html,
            algorithms,
        }) => export::run(
            &scene,
            export::Targets {
                coal: coal.as_deref(),
                parry: parry.as_deref(),
                html: html.as_deref(),
            },
            &algorithms,
        ),
        Some(Command::Mesh { file, json }) => mesh::run(&file, json),
        Some(Command::Robot {
            urdf,
            srdf,
            write_srdf,
            acm_trials,
            package_root,
            configs,
            random,
            seed,
            algorithm,
            timing,
            any,
            margin,
            disagreement_scene,
            collision,
            pair_scene,
            json,
            chunk,
            chunk_out,
            reduce,
        }) => robot::run(robot::RobotArgs {
            urdf,
            srdf,
            write_srdf,
            acm_trials,
            package_root,
            configs,
            random,
            seed,
            algorithm: algorithm.unwrap_or(Algorithm::GJK),
            timing,
            any,
            margin,
            disagreement_scene,
            collision,
            pair_scene,
            json,
            chunk: chunk.zip(chunk_out),
            reduce,
        }),
        Some(Command::Sweep {
            a,
            b,
            algorithms,
            samples,
            distance,
            seed,
            out,
            worst,
            chunk,
            chunk_out,
            reduce,
        }) => sweep::run(sweep::SweepArgs {
            a,
            b,
            algorithms,
            samples,
            band: distance,
            seed,
            out,
            worst,
            chunk: chunk.zip(chunk_out),
            reduce,
        }),
        #[cfg(feature = "app")]
        Some(Command::View {
            scene,
            srdf,
            key,
            screenshot,
            iteration,
            focus,
            size,
            close_up,
            diagnose,
            lesson_step,
            projector,
            check_labels,
        }) => collidescope::app::run_viewer(collidescope::app::ViewerOptions {
            scene,
            srdf,
            key,
            screenshot,
            iteration,
            focus,
            size,
            close_up,
            diagnose,
            lesson_step,
            projector,
            check_labels,
            animate: None,
        }),
        #[cfg(feature = "app")]
        Some(Command::Lesson {
            scene,
            html,
            site,
            worksheet,
            pdf,
        }) => match (scene, site) {
            (scene, Some(site)) => {
                let folder = scene.unwrap_or_else(|| PathBuf::from("scenes/lessons"));
                if !folder.is_dir() {
                    anyhow::bail!(
                        "{}: --site takes the lessons' folder (with its course.ron), not a file",
                        folder.display()
                    );
                }
                lesson::write_site(&folder, &site)
            }
            (Some(scene), None) => {
                // A page that cannot be written is said before the transcript.
                if let Some(out) = &html {
                    lesson::check_writable(out)?;
                }
                lesson::print_lesson(&scene, worksheet.as_deref(), pdf)?;
                match html {
                    Some(out) => lesson::write_page(&scene, &out),
                    None => Ok(()),
                }
            }
            (None, None) => anyhow::bail!("give a lesson file, or --site DIR"),
        },
        #[cfg(feature = "app")]
        Some(Command::Animate {
            scene,
            out,
            algorithm,
            size,
            steps,
            projector,
        }) => lesson::animate(&scene, out, algorithm, size, steps, projector),
        #[cfg(feature = "app")]
        None => collidescope::app::run_viewer(collidescope::app::ViewerOptions::default()),
        #[cfg(not(feature = "app"))]
        Some(Command::View { .. }) => anyhow::bail!("{NO_VIEWER}"),
        #[cfg(not(feature = "app"))]
        None => {
            use clap::CommandFactory;
            Cli::command().print_help()?;
            println!("\n(built without the viewer: rebuild with the default feature `app`)");
            Ok(())
        }
    }
}
