//! Command-line interface: argument definitions and dispatch to one module per command.

mod bench;
mod mesh;
mod solve;

use std::path::PathBuf;

use clap::{Parser, Subcommand};
use collidescope::solver::Algorithm;

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

#[derive(Subcommand, Debug)]
enum Command {
    /// Run a scene's algorithms and print every iteration and the outcome.
    Solve {
        /// Scene file (RON).
        scene: PathBuf,
        /// Algorithm to run instead of the scene's list (repeatable): gjk, nesterov,
        /// nesterov_normalized, polyak, fw_fixed, fw_linesearch, fw_away, fw_fully_corrective.
        #[arg(long = "algorithm", short = 'a')]
        algorithms: Vec<Algorithm>,
        /// Print JSON (runs with their full per-iteration records).
        #[arg(long, conflicts_with = "csv")]
        json: bool,
        /// Print CSV, one row per iteration per algorithm.
        #[arg(long)]
        csv: bool,
    },
    /// Run benchmark problems (a problem file with Coal's answers).
    Bench {
        /// Problem file (JSON, format in ../shared/data/problems/README.md).
        #[arg(long)]
        problems: PathBuf,
        /// Print the per-problem results as JSON on stdout (summary on stderr).
        #[arg(long)]
        json: bool,
    },
    /// Import an OBJ file and print its report (vertices, faces, hull, convexity, flatness).
    Mesh {
        file: PathBuf,
        #[arg(long)]
        json: bool,
    },
}

/// Runs the parsed command.
pub fn run(cli: Cli) -> anyhow::Result<()> {
    match cli.command {
        Some(Command::Solve {
            scene,
            algorithms,
            json,
            csv,
        }) => solve::run(&scene, &algorithms, solve::Format::from_flags(json, csv)),
        Some(Command::Bench { problems, json }) => bench::run_problem_file(&problems, json),
        Some(Command::Mesh { file, json }) => mesh::run(&file, json),
        None => {
            use clap::CommandFactory;
            Cli::command().print_help()?;
            println!();
            Ok(())
        }
    }
}
