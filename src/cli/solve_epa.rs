//! `collidescope solve SCENE --algorithm epa`: EPA's expansions, one line each, then the
//! depth, normal and witness points (or the whole run as JSON or CSV).

use collidescope::scene::Scene;
use collidescope::solver::epa::{gjk_settings_for_epa, penetration, EpaRun, EpaSettings};
use collidescope::DVec3;

use super::solve::Format;

fn run(scene: &Scene) -> EpaRun {
    penetration(
        &scene.a().shape,
        &scene.b().shape,
        scene.b_in_a(),
        gjk_settings_for_epa(),
        EpaSettings::default(),
    )
}

/// Runs GJK then EPA on the scene's pair (with records) and prints it in `format`.
pub fn print(scene: &Scene, format: Format) -> anyhow::Result<()> {
    let run = run(scene);
    match format {
        Format::Json => println!("{}", serde_json::to_string_pretty(&to_json(scene, &run))?),
        Format::Csv => print_csv(&run),
        Format::Table => print_table(scene, &run),
    }
    Ok(())
}

/// The EPA run on the scene's pair as one entry of `solve --json`'s "runs".
pub fn json(scene: &Scene) -> serde_json::Value {
    to_json(scene, &run(scene))
}

fn world(scene: &Scene, p: Option<DVec3>) -> Option<DVec3> {
    p.map(|p| scene.a().pose.transform_point(p))
}

fn to_json(scene: &Scene, run: &EpaRun) -> serde_json::Value {
    serde_json::json!({
        "algorithm": "epa",
        "outcome": run.outcome,
        "status": run.outcome.status_name(),
        "distance": run.outcome.signed_distance(),
        "normal": run.outcome.normal(),
        "normal_world": run.outcome.normal().map(|n| scene.a().pose.rotation * n),
        "iterations": run.iterations,
        "support_calls": run.support_calls,
        "gjk_iterations": run.gjk.iterations,
        "witness_a_world": world(scene, run.witness_a),
        "witness_b_world": world(scene, run.witness_b),
        "points": run.points,
        "records": run.records,
    })
}

const CSV_HEADER: &str =
    "algorithm,k,event,faces,nearest_distance,support_distance,gain,faces_removed,faces_added,support_calls";

fn print_csv(run: &EpaRun) {
    println!("{CSV_HEADER}");
    for r in &run.records {
        println!(
            "epa,{},{:?},{},{:e},{:e},{:e},{},{},{}",
            r.k,
            r.event,
            r.faces.len(),
            r.nearest_distance,
            r.support_distance,
            r.gain,
            r.faces_removed,
            r.faces_added,
            r.support_calls
        );
    }
}

fn print_table(scene: &Scene, run: &EpaRun) {
    println!();
    println!("== epa ==");
    println!(
        "GJK: {} iterations, {:?}",
        run.gjk.iterations, run.gjk.outcome
    );
    println!(
        "{:>5}  {:<13} {:>6} {:>14} {:>14} {:>11} {:>8} {:>6} {:>6}",
        "k", "event", "faces", "lower (face)", "upper (supp.)", "gain", "removed", "added", "calls"
    );
    for r in &run.records {
        println!(
            "{:>5}  {:<13} {:>6} {:>14.9e} {:>14.9e} {:>11.3e} {:>8} {:>6} {:>6}",
            r.k,
            format!("{:?}", r.event),
            r.faces.len(),
            r.nearest_distance,
            r.support_distance,
            r.gain,
            r.faces_removed,
            r.faces_added,
            r.support_calls
        );
    }
    println!(
        "outcome: {}; {} expansions, {} support calls",
        run.outcome, run.iterations, run.support_calls
    );
    if let (Some(a), Some(b)) = (world(scene, run.witness_a), world(scene, run.witness_b)) {
        println!(
            "witness points (world): A ({:.6}, {:.6}, {:.6})  B ({:.6}, {:.6}, {:.6})",
            a.x, a.y, a.z, b.x, b.y, b.z
        );
    }
}
