//! `solve` on a pair with a composite (a mesh taken as triangles, a height field, a
//! compound): the whole answer and its proof, the hierarchy's work, the sub-pairs
//! nearest first, the nearest one's own records, and the contacts on a mesh with the
//! feature, normal cone and engines' corrections of each (issue 45).

use collidescope::composite::CompositeRun;
use collidescope::printed_bound::{Above, Below};
use collidescope::scene::Scene;
use collidescope::solver::{Method, Run};

use super::solve::Format;

/// What `solve` asks of a composite pair beyond the methods.
pub struct CompositeOptions {
    /// Contacts within this distance are listed (default: 1 % of the convex body).
    pub contact_margin: Option<f64>,
    /// How many sub-pairs the table lists.
    pub list: usize,
}

/// One method's composite run and its nearest sub-pair's traced run.
struct Answered {
    run: CompositeRun,
    nearest: Option<Run>,
}

/// `pair` is the index of the scene's pair in focus (named in the JSON).
pub fn run(
    scene: &Scene,
    pair: usize,
    methods: &[Method],
    format: Format,
    options: &CompositeOptions,
    cross_check: bool,
) -> anyhow::Result<()> {
    if let Some(m) = options
        .contact_margin
        .filter(|m| !(m.is_finite() && *m >= 0.0))
    {
        anyhow::bail!("--contact-margin must be a finite distance ≥ 0, got {m}");
    }
    let answered: Vec<Answered> = methods
        .iter()
        .map(|m| {
            let run = scene
                .run_composite(*m, scene.settings, false, options.contact_margin)
                .expect("the pair in focus holds a composite");
            // The nearest sub-pair again with its records: the steps `solve` shows.
            let nearest = run.answer.nearest.and_then(|k| {
                let sub = scene.sub_pair_scene(&run, k)?;
                Some(sub.run_with(*m, scene.settings))
            });
            Answered { run, nearest }
        })
        .collect();
    match format {
        Format::Json => {
            let runs: Vec<serde_json::Value> = answered
                .iter()
                .map(|a| {
                    let mut report = scene.composite_report(&a.run, false);
                    if let (Some(k), Some(run)) = (a.run.answer.nearest, &a.nearest) {
                        if let Some(sub) = scene.sub_pair_scene(&a.run, k) {
                            report["nearest_run"] = sub.run_report(run);
                        }
                    }
                    report
                })
                .collect();
            println!(
                "{}",
                serde_json::to_string_pretty(&serde_json::json!({
                    "scene": scene.name,
                    "pair": pair,
                    "bodies": [scene.a().name, scene.b().name],
                    "composite": true,
                    "runs": runs,
                }))?
            );
        }
        Format::Csv => {
            for a in &answered {
                if let Some(run) = &a.nearest {
                    println!("{}", run.trace.csv_header());
                    print!("{}", run.trace.csv_rows(run.method.name()));
                }
            }
        }
        Format::Table => {
            print_tables(scene, &answered, options);
            if cross_check {
                print_cross_check(scene, &answered);
            }
        }
    }
    Ok(())
}

/// `--cross-check` on a composite pair: parry's own `TriMesh`/`HeightField`/`Compound`
/// query on the same pair and pose (parry3d-f64, and parry3d (f32), the engine an f32
/// capture came from, when every number of the pair is an f32 value), and each run's
/// certified answer against it.
fn print_cross_check(scene: &Scene, answered: &[Answered]) {
    use collidescope::cross_check::{compare_composite, pair_size, parry_composite_answers};
    println!();
    for parry in parry_composite_answers(scene) {
        println!(
            "{}: {} in {:.1} µs",
            parry.build.crate_name(),
            parry.describe(),
            parry.seconds * 1e6
        );
        for a in answered {
            let agreement = compare_composite(&a.run, &scene.settings, &parry, pair_size(scene));
            println!("  {:<22} {agreement}", a.run.method.name());
        }
    }
}

fn body_line(scene: &Scene, index: usize) -> String {
    let body = &scene.bodies[index];
    match &body.composite {
        Some(c) => format!(
            "{} (its hull, the convex stand-in: {})",
            c.describe(),
            body.shape.describe()
        ),
        None => body.shape.describe(),
    }
}

fn print_tables(scene: &Scene, answered: &[Answered], options: &CompositeOptions) {
    println!("scene: {}", scene.name);
    println!("A: {}", body_line(scene, scene.pairs[0].0));
    println!("B: {}", body_line(scene, scene.pairs[0].1));
    for a in answered {
        let run = &a.run;
        let answer = &run.answer;
        println!();
        println!("== {} on each sub-pair ==", run.method.name());
        println!("outcome: {}", answer.outcome);
        if answer.upper.is_finite() && answer.upper > 0.0 {
            println!(
                "proof: the distance lies in [{:.9e}, {:.9e}]: every sub-pair run is at least \
                 the lower bound away, and every pruned node's box too",
                Below(answer.lower),
                Above(answer.upper)
            );
        }
        if let Some(floor) = answer.hull_floor {
            println!(
                "hull start: the hulls' separating plane proves every piece at least {:.9e} \
                 away (every vertex checked against it); the search ran the pieces at the \
                 hulls' nearest points first{}",
                Below(floor),
                if answer.sub_pairs.len() == 1 && answer.nodes_visited == 0 {
                    ", and they met it: nothing else was searched"
                } else {
                    ""
                }
            );
        }
        if let Some(k) = answer.nearest {
            println!("made by: {}", scene.sub_pair_name(run, k));
        }
        println!(
            "midphase: {} hierarchy nodes visited ({} pruned), {} sub-pairs run",
            answer.nodes_visited,
            answer.nodes_pruned,
            answer.sub_pairs.len()
        );
        let ranked = run.ranked();
        println!(
            "sub-pairs, nearest first ({} of {}):",
            ranked.len().min(options.list),
            ranked.len()
        );
        for k in ranked.iter().take(options.list) {
            let sub = &answer.sub_pairs[*k];
            let s = &sub.run.summary;
            println!(
                "  {:<28} {} ({} iterations)",
                scene.sub_pair_name(run, *k),
                s.outcome,
                s.iterations
            );
        }
        if let Some(nearest) = &a.nearest {
            println!();
            println!(
                "-- {} on {} --",
                nearest.method.name(),
                answer
                    .nearest
                    .map(|k| scene.sub_pair_name(run, k))
                    .unwrap_or_default()
            );
            print!("{}", nearest.trace.table());
            println!(
                "outcome: {}; {} iterations, {} support calls",
                nearest.summary.outcome, nearest.summary.iterations, nearest.summary.stats.calls
            );
            // A contact method's manifold on that sub-pair, in the world (the sub-pair's
            // own scene places its two pieces).
            let manifold = nearest
                .extras
                .get::<collidescope::solver::contact::ContactExtras>()
                .and_then(|e| e.manifold.as_ref());
            let sub_scene = answer.nearest.and_then(|k| scene.sub_pair_scene(run, k));
            if let (Some(m), Some(sub_scene)) = (manifold, sub_scene) {
                super::solve::print_manifold(&sub_scene, m);
            }
        }
    }
    // The contacts do not depend on the method: listed once.
    if let Some(first) = answered.first() {
        print_contacts(scene, &first.run);
    }
}

/// The distinct directions among `normals` (a vertex of a flat floor has six faces of
/// one normal), each with how many faces share it.
fn distinct(normals: &[collidescope::DVec3]) -> Vec<(collidescope::DVec3, usize)> {
    let mut out: Vec<(collidescope::DVec3, usize)> = Vec::new();
    for n in normals {
        match out.iter_mut().find(|(m, _)| (*m - *n).length() < 1e-12) {
            Some((_, count)) => *count += 1,
            None => out.push((*n, 1)),
        }
    }
    out
}

/// The contacts on a mesh within the margin, each with its feature, cone and the
/// engines' corrections; between two composites, on both sides.
fn print_contacts(scene: &Scene, run: &CompositeRun) {
    if run.contacts.is_empty() {
        return;
    }
    let (first, second) = if run.swapped {
        (scene.pairs[0].1, scene.pairs[0].0)
    } else {
        scene.pairs[0]
    };
    let (body, other_body) = (&scene.bodies[first], &scene.bodies[second]);
    let Some(composite) = &body.composite else {
        return;
    };
    let world = |v: collidescope::DVec3| body.pose.transform_vector(v);
    println!();
    println!("contacts within the margin ({}):", run.contacts.len());
    for c in &run.contacts {
        let gap = if c.gap >= 0.0 {
            format!("gap {:.3e}", Above(c.gap))
        } else {
            format!("depth {:.3e}", Below(-c.gap))
        };
        let with = match (&c.other, &other_body.composite) {
            (Some(o), Some(k)) => format!(" with {}", k.piece_name(o.piece)),
            _ => String::new(),
        };
        println!(
            "  {:<14} {gap}{with}, normal {}",
            composite.piece_name(c.piece),
            fmt(world(c.normal))
        );
        if let Some(e) = &c.edges {
            print_edges("", e, c.jolt_kept, &world);
        }
        if let (Some(o), Some(k)) = (&c.other, &other_body.composite) {
            if let Some(e) = &o.edges {
                let other_world = |v: collidescope::DVec3| other_body.pose.transform_vector(v);
                let side = format!("{}: ", k.piece_name(o.piece));
                print_edges(&side, e, o.jolt_kept, &other_world);
            }
        }
    }
}

/// "(+0.0000, +1.0000, +0.0000)".
fn fmt(v: collidescope::DVec3) -> String {
    format!("({:+.4}, {:+.4}, {:+.4})", v.x, v.y, v.z)
}

/// One mesh's view of a contact (`side` names the mesh when there are two): the feature,
/// its normal cone, ghost or not, and parry's and Jolt's corrections.
fn print_edges(
    side: &str,
    e: &collidescope::composite::internal_edges::EdgeReport,
    jolt_kept: Option<bool>,
    world: &impl Fn(collidescope::DVec3) -> collidescope::DVec3,
) {
    let normals: Vec<String> = distinct(e.cone.normals())
        .into_iter()
        .map(|(n, k)| match k {
            1 => fmt(world(n)),
            k => format!("{} ×{k}", fmt(world(n))),
        })
        .collect();
    println!(
        "    {side}on its {}; the mesh's normals there ({} of {} faces): {}; {}",
        e.feature,
        e.cone.kind(),
        e.cone.normals().len(),
        normals.join(", "),
        if e.in_cone {
            "the contact normal lies in it".to_string()
        } else {
            "GHOST: the contact normal lies outside it".to_string()
        }
    );
    println!(
        "    {side}parry FIX_INTERNAL_EDGES: {}; Jolt active edges: {}{}",
        e.parry_fixed
            .map_or("drops it".to_string(), |n| fmt(world(n))),
        fmt(world(e.jolt_active_edges)),
        match jolt_kept {
            Some(false) => "; Jolt's enhanced internal edge removal drops it",
            Some(true) => "; Jolt's enhanced internal edge removal keeps it",
            None => "",
        }
    );
}
