//! `collidescope solve SCENE`

use std::path::Path;

use collidescope::scene::Scene;
use collidescope::solver::{Algorithm, Method, Run, TetrahedronRule};
use collidescope::trace::{csv_rows, CSV_HEADER};
use collidescope::DVec3;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    Table,
    Json,
    Csv,
}

impl Format {
    pub fn from_flags(json: bool, csv: bool) -> Self {
        match (json, csv) {
            (true, _) => Format::Json,
            (_, true) => Format::Csv,
            _ => Format::Table,
        }
    }
}

pub fn run(
    path: &Path,
    methods: &[Method],
    tetrahedron: Option<TetrahedronRule>,
    format: Format,
) -> anyhow::Result<()> {
    let mut scene = Scene::load(path)?;
    if let Some(rule) = tetrahedron {
        scene.settings.tetrahedron = rule;
    }
    let methods: Vec<Method> = if methods.is_empty() {
        scene.methods.clone()
    } else {
        methods.to_vec()
    };
    let algorithms: Vec<Algorithm> = methods
        .iter()
        .filter_map(|m| match m {
            Method::Solver(a) => Some(*a),
            Method::Epa => None,
        })
        .collect();
    let runs: Vec<Run> = algorithms.iter().map(|a| scene.run(*a)).collect();
    let epa = methods.contains(&Method::Epa);
    match format {
        // One document: EPA's run joins the others in "runs".
        Format::Json => print_json(&scene, &runs, epa.then(|| super::solve_epa::json(&scene)))?,
        Format::Csv => {
            print_csv(&runs);
            if epa {
                super::solve_epa::print(&scene, format)?;
            }
        }
        Format::Table => {
            print_tables(&scene, &runs);
            if epa {
                super::solve_epa::print(&scene, format)?;
            }
        }
    }
    Ok(())
}

fn world_witnesses(scene: &Scene, run: &Run) -> Option<(DVec3, DVec3)> {
    let a = run.summary.witness_a?;
    let b = run.summary.witness_b?;
    Some((
        scene.a().pose.transform_point(a),
        scene.a().pose.transform_point(b),
    ))
}

fn print_json(scene: &Scene, runs: &[Run], epa: Option<serde_json::Value>) -> anyhow::Result<()> {
    let mut runs: Vec<_> = runs
        .iter()
        .map(|run| {
            let witnesses = world_witnesses(scene, run);
            serde_json::json!({
                "algorithm": run.algorithm.name(),
                "outcome": run.summary.outcome,
                "status": run.summary.outcome.status_name(),
                "distance": run.summary.outcome.distance(),
                "iterations": run.summary.iterations,
                "support_calls": run.summary.stats.calls,
                "vertex_visits": run.summary.stats.vertex_visits_a + run.summary.stats.vertex_visits_b,
                "momentum_stopped_at": run.summary.momentum_stopped_at,
                "witness_a_world": witnesses.map(|w| w.0),
                "witness_b_world": witnesses.map(|w| w.1),
                "trace": run.trace,
            })
        })
        .collect();
    runs.extend(epa);
    println!(
        "{}",
        serde_json::to_string_pretty(&serde_json::json!({
            "scene": scene.name,
            "hull_a": scene.a().shape.hull_source().map(|h| h.to_string()),
            "hull_b": scene.b().shape.hull_source().map(|h| h.to_string()),
            "runs": runs,
        }))?
    );
    Ok(())
}

fn print_csv(runs: &[Run]) {
    println!("{CSV_HEADER}");
    for run in runs {
        print!("{}", csv_rows(run.algorithm.name(), &run.trace));
    }
}

fn print_tables(scene: &Scene, runs: &[Run]) {
    println!("scene: {}", scene.name);
    println!("A: {}", scene.a().shape.describe());
    println!("B: {}", scene.b().shape.describe());
    for run in runs {
        println!();
        println!("== {} ==", run.algorithm.name());
        println!(
            "{:>5}  {:<12} {:>13} {:>11} {:>11} {:>11} {:>11} {:>4} {:>6}",
            "k", "event", "‖x_k‖", "FW gap", "r−α", "2⟨x,x−s⟩", "r²−α²", "|W|", "calls"
        );
        for r in &run.trace {
            println!(
                "{:>5}  {:<12} {:>13.6e} {:>11.3e} {:>11.3e} {:>11.3e} {:>11.3e} {:>4} {:>6}",
                r.k,
                r.event.name(),
                r.x_norm,
                r.fw_gap,
                r.criteria.van_den_bergen,
                r.criteria.duality_gap,
                r.criteria.hybrid,
                r.active_set_size,
                r.support_calls
            );
        }
        let s = &run.summary;
        let what = &s.outcome;
        println!(
            "outcome: {what}; {} iterations, {} support calls",
            s.iterations, s.stats.calls
        );
        if let Some(k) = s.momentum_stopped_at {
            println!("momentum stopped at iteration {k}");
        }
        if let Some((a, b)) = world_witnesses(scene, run) {
            println!(
                "witness points (world): A ({:.6}, {:.6}, {:.6})  B ({:.6}, {:.6}, {:.6})",
                a.x, a.y, a.z, b.x, b.y, b.z
            );
        }
    }
}
