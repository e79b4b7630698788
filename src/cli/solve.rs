//! `collidescope solve SCENE`: every named method on the scene's pair in focus (the
//! first, or the one `--pair` names), its records as a table, CSV or JSON.

use std::path::Path;

use collidescope::scene::Scene;
use collidescope::solver::contact::ContactExtras;
use collidescope::solver::lp::LpQuestion;
use collidescope::solver::{Algorithm, DirectionRule, Method, Run, SupportRule, TetrahedronRule};
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

/// Settings the command line sets over the scene's.
pub struct Overrides {
    pub tetrahedron: Option<TetrahedronRule>,
    pub supports: Option<SupportRule>,
    /// `NAME=VALUE` settings (`--set`).
    pub assignments: Vec<String>,
}

pub fn run(
    path: &Path,
    pair: Option<&str>,
    methods: &[Method],
    overrides: Overrides,
    format: Format,
    cross_check: bool,
    composite: &super::solve_composite::CompositeOptions,
) -> anyhow::Result<()> {
    let mut scene = collidescope::input::open(path)?;
    let pair = match pair {
        Some(text) => scene.find_pair(text).map_err(|e| anyhow::anyhow!("{e}"))?,
        None => 0,
    };
    scene.focus_pair(pair).map_err(|e| anyhow::anyhow!("{e}"))?;
    if let Some(rule) = overrides.tetrahedron {
        scene.settings.tetrahedron = rule;
    }
    if let Some(rule) = overrides.supports {
        scene.settings.supports = rule;
    }
    for assignment in &overrides.assignments {
        scene.settings = scene
            .settings
            .with_assignment(assignment)
            .map_err(|why| anyhow::anyhow!("--set {why}"))?;
    }
    let methods: Vec<Method> = if methods.is_empty() {
        scene.methods.clone()
    } else {
        methods.to_vec()
    };
    if format == Format::Table {
        println!("{}", pair_line(&scene, pair));
    }
    if scene.focus_is_composite() {
        return super::solve_composite::run(&scene, pair, &methods, format, composite, cross_check);
    }
    let runs: Vec<Run> = methods.iter().map(|m| scene.run(*m)).collect();
    match format {
        Format::Json => print_json(&scene, pair, &runs)?,
        Format::Csv => print_csv(&runs),
        Format::Table => print_tables(&scene, &runs),
    }
    if cross_check && format == Format::Table {
        print_cross_check(&scene, &runs);
    }
    Ok(())
}

/// Which pair the table answers (`pair`, its index in the file's list, now in focus),
/// its bodies by name, and, when the scene has more, how to pick another: a
/// multi-pair scene (a robot's, a Pinocchio model's) otherwise looks like a two-body one.
fn pair_line(scene: &Scene, pair: usize) -> String {
    let (i, j) = scene.pairs[0];
    let count = scene.pairs.len();
    let mut line = format!(
        "pair {pair} of {count}: A = {}, B = {}",
        scene.body_label(i),
        scene.body_label(j)
    );
    if count > 1 {
        line.push_str(&format!(
            " (--pair K, 0..{}, or --pair NAME1,NAME2 runs another)",
            count - 1
        ));
    }
    line
}

/// `--cross-check`: parry3d-f64 on the same pair and pose, and each run against it.
fn print_cross_check(scene: &Scene, runs: &[Run]) {
    use collidescope::cross_check::{compare, parry_answer};
    let motion = scene.relative_motion().ok().flatten();
    let parry = parry_answer(&scene.a().shape, &scene.b().shape, &scene.b_in_a(), motion);
    println!();
    println!(
        "parry3d-f64 ({}): distance {:.9e}{}",
        parry.via,
        parry.distance,
        parry
            .depth
            .map_or(String::new(), |d| format!(", depth {d:.9e}"))
    );
    if let Some((a, b)) = parry.witnesses {
        let (a, b) = (
            scene.a().pose.transform_point(a),
            scene.a().pose.transform_point(b),
        );
        println!(
            "  its witness points (world): A ({:.6}, {:.6}, {:.6})  B ({:.6}, {:.6}, {:.6})",
            a.x, a.y, a.z, b.x, b.y, b.z
        );
    }
    if let Some(impact) = &parry.impact {
        println!(
            "  its time of impact ({}): {}",
            impact.via,
            impact.describe()
        );
    }
    for run in runs {
        let agreement = compare(&run.summary, &scene.settings, &parry);
        println!("  {:<22} {agreement}", run.method.name());
    }
}

fn world(scene: &Scene, p: Option<DVec3>) -> Option<DVec3> {
    p.map(|p| scene.a().pose.transform_point(p))
}

fn print_json(scene: &Scene, pair: usize, runs: &[Run]) -> anyhow::Result<()> {
    let runs: Vec<_> = runs.iter().map(|run| scene.run_report(run)).collect();
    let (i, j) = scene.pairs[0];
    println!(
        "{}",
        serde_json::to_string_pretty(&serde_json::json!({
            "scene": scene.name,
            "pair": pair,
            "bodies": [scene.bodies[i].name, scene.bodies[j].name],
            "hull_a": scene.a().shape.hull_source().map(|h| h.to_string()),
            "hull_b": scene.b().shape.hull_source().map(|h| h.to_string()),
            "runs": runs,
        }))?
    );
    Ok(())
}

/// One block per family (each family has its own columns), separated by a blank line.
fn print_csv(runs: &[Run]) {
    let mut header = "";
    for run in runs {
        if run.trace.csv_header() != header {
            if !header.is_empty() {
                println!();
            }
            header = run.trace.csv_header();
            println!("{header}");
        }
        print!("{}", run.trace.csv_rows(run.method.name()));
    }
}

/// Kreuzer's distance estimate beside GJK's distance (the estimate is not a bound).
fn print_kreuzer_estimate(scene: &Scene) {
    let (a, b) = (&scene.a().shape, &scene.b().shape);
    let Some(estimate) =
        collidescope::solver::lp::kreuzer_estimate_of_shapes(a, b, &scene.b_in_a())
    else {
        return;
    };
    let gjk = scene
        .run(collidescope::solver::Algorithm::GJK)
        .summary
        .outcome;
    println!(
        "Kreuzer's estimate ‖b − Ax*‖₁/√3 = {estimate:.6e} (GJK: {gjk}); not a lower bound: \
         see solver::lp::kreuzer_distance_estimate"
    );
}

fn print_tables(scene: &Scene, runs: &[Run]) {
    println!("scene: {}", scene.name);
    println!("A: {}", scene.a().shape.describe());
    println!("B: {}", scene.b().shape.describe());
    if scene.settings.supports == SupportRule::Coal {
        let (a, b) = (&scene.a().shape, &scene.b().shape);
        println!(
            "{}",
            collidescope::solver::distance::coal_replay::describe(a, b)
        );
    }
    for run in runs {
        println!();
        println!("== {} ==", run.method.name());
        if let Some(gjk) = run.gjk_stage() {
            println!("GJK stage: {}; {} iterations", gjk.outcome, gjk.iterations);
        }
        print!("{}", run.trace.table());
        let s = &run.summary;
        println!(
            "outcome: {}; {} iterations, {} support calls",
            s.outcome, s.iterations, s.stats.calls
        );
        if let Some(k) = s.momentum_stopped_at {
            println!("momentum stopped at iteration {k}");
        }
        if run.method == Method::of(Algorithm::Gjk(DirectionRule::NesterovRestart)) {
            let plan = collidescope::solver::restart_plan(&scene.a().shape, &scene.b().shape);
            println!("restart rule: {plan}");
        }
        let explained = collidescope::solver::distance::explain::explain_with_checks(
            run,
            Some((&scene.a().shape, &scene.b().shape)),
        );
        for cause in &explained.causes {
            let steps: Vec<String> = cause
                .steps
                .iter()
                .take(8)
                .map(|k| (k + 1).to_string())
                .collect();
            println!(
                "slow: {cause} [steps {}{}]",
                steps.join(", "),
                if cause.steps.len() > 8 { ", …" } else { "" }
            );
        }
        if explained.causes.is_empty() && !explained.checks.is_empty() {
            println!("slow, no cause named; each test measured:");
            for check in &explained.checks {
                println!("  {check}");
            }
        }
        if let Some(LpQuestion::Collision(_)) = run.method.entry::<LpQuestion>() {
            print_kreuzer_estimate(scene);
        }
        if let Some(manifold) = run
            .extras
            .get::<ContactExtras>()
            .and_then(|e| e.manifold.as_ref())
        {
            print_manifold(scene, manifold);
        } else if let (Some(a), Some(b)) = (world(scene, s.witness_a), world(scene, s.witness_b)) {
            println!(
                "witness points (world): A ({:.6}, {:.6}, {:.6})  B ({:.6}, {:.6}, {:.6})",
                a.x, a.y, a.z, b.x, b.y, b.z
            );
        }
    }
}

/// A contact manifold's points (world), each with its depth and certificate.
pub(crate) fn print_manifold(scene: &Scene, m: &collidescope::solver::contact::Manifold) {
    let n = scene.a().pose.transform_vector(m.normal);
    println!(
        "manifold: {} points, normal ({:.6}, {:.6}, {:.6}){}",
        m.points.len(),
        n.x,
        n.y,
        n.z,
        match &m.uncertified {
            None => ", every point certified".to_string(),
            Some(why) => format!(", NOT certified: {why}"),
        }
    );
    for (i, p) in m.points.iter().enumerate() {
        let (a, b) = (
            scene.a().pose.transform_point(p.on_a),
            scene.a().pose.transform_point(p.on_b),
        );
        println!(
            "  {i}: A ({:.6}, {:.6}, {:.6})  B ({:.6}, {:.6}, {:.6})  depth {:.9e}",
            a.x, a.y, a.z, b.x, b.y, b.z, p.depth
        );
    }
}
