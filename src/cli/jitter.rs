//! `collidescope jitter SCENE`: how steady each contact rule's manifold is at the
//! scene's pose (B nudged by 1e-9..1e-3 of the pair's size, the whole scene moved and
//! turned), then over a grid of B's tilts; the worst poses written as scenes.

use std::path::{Path, PathBuf};

use collidescope::pose::Pose;
use collidescope::scene::Scene;
use collidescope::solver::contact::jitter::{
    jitter, worst_at_cell, JitterReport, JitterSettings, Nudge, TiltGrid,
};
use collidescope::solver::contact::ContactRule;
use collidescope::solver::Method;
use rayon::prelude::*;

pub struct JitterArgs {
    pub scene: PathBuf,
    pub rules: Vec<String>,
    pub trials: usize,
    pub cells: usize,
    pub tilt: f64,
    pub worst: usize,
    pub out: PathBuf,
}

fn rules_of(names: &[String]) -> anyhow::Result<Vec<ContactRule>> {
    if names.is_empty() {
        return Ok(ContactRule::ALL.to_vec());
    }
    names
        .iter()
        .map(|n| {
            ContactRule::from_name(n).ok_or_else(|| {
                let known: Vec<&str> = ContactRule::ALL.iter().map(|r| r.name()).collect();
                anyhow::anyhow!(
                    "--rule {n}: not a contact rule (one of {})",
                    known.join(", ")
                )
            })
        })
        .collect()
}

fn print_report(report: &JitterReport, threshold: f64) {
    println!(
        "{:<14} {} points at the pose; {} of {} nudges jumped (> {threshold}x the body)",
        report.rule.name(),
        report.base_points,
        report.jumps(threshold),
        report.samples.len()
    );
    print!("  {:<12}", "max motion");
    let magnitudes: Vec<f64> = report.curve(Nudge::MoveB).iter().map(|c| c.0).collect();
    for m in &magnitudes {
        print!("{:>11}", format!("{m:.0e}"));
    }
    println!();
    for nudge in Nudge::ALL {
        print!("  {:<12}", nudge.name());
        for (_, worst) in report.curve(nudge) {
            match worst {
                Some(w) => print!("{:>11.2e}", w),
                None => print!("{:>11}", "lost"),
            }
        }
        println!();
    }
    if let Some(w) = report.worst() {
        println!(
            "  worst: {} by {:.0e} moved the points {:.3e} for a body motion of {:.3e} \
             ({:.3e}x), normal turned {:.3e} rad",
            w.nudge.name(),
            w.magnitude,
            w.point_motion.unwrap_or(f64::NAN),
            w.body_motion,
            w.ratio(),
            w.normal_turn
        );
    }
}

pub fn run(args: JitterArgs) -> anyhow::Result<()> {
    let rules = rules_of(&args.rules)?;
    let scene = Scene::load(&args.scene)?;
    if scene.a().composite.is_some() || scene.b().composite.is_some() {
        anyhow::bail!(
            "{}: the pair in focus is a mesh or compound; the contact rules take convex \
             shapes (a triangle pair from `solve` can be written as its own scene)",
            args.scene.display()
        );
    }
    if !(args.tilt.is_finite() && args.tilt > 0.0) {
        anyhow::bail!("--tilt {}: must be a positive angle in radians", args.tilt);
    }
    let (a, b) = (&scene.a().shape, &scene.b().shape);
    let (pose_a, pose_b) = (scene.a().pose, scene.b().pose);
    let settings = JitterSettings {
        trials: args.trials.max(1),
        ..JitterSettings::default()
    };
    let (epa, contact) = (scene.settings.epa, scene.settings.contact);
    println!(
        "{}: B nudged by {:?} of the pair's size ({} directions each), the scene moved and \
         turned with the pose fixed",
        args.scene.display(),
        settings.magnitudes,
        settings.trials
    );
    let mut normal = None;
    for &rule in &rules {
        match jitter(rule, a, b, &pose_a, &pose_b, epa, contact, &settings) {
            Some(report) => {
                print_report(&report, settings.jump_ratio);
                if normal.is_none() {
                    normal = rule
                        .manifold(a, b, scene.b_in_a(), epa, contact)
                        .ok()
                        .map(|m| pose_a.transform_vector(m.certified_normal));
                }
            }
            None => println!(
                "{:<14} no manifold at the pose (farther apart than the margin {:.3e}, or \
                 no certified normal)",
                rule.name(),
                contact.margin
            ),
        }
    }
    let Some(normal) = normal else {
        return Ok(());
    };
    let grid = TiltGrid::around(pose_b, normal, args.tilt, args.cells);
    let cells = grid.cells * grid.cells;
    std::fs::create_dir_all(&args.out).map_err(|e| {
        anyhow::anyhow!(
            "{}: cannot create the output folder: {e}",
            args.out.display()
        )
    })?;
    println!();
    println!(
        "over B's tilts up to ±{:.1e} rad about the contact's two tangents ({side}x{side} \
         poses): worst jump per rule",
        args.tilt,
        side = grid.cells
    );
    for &rule in &rules {
        let worst: Vec<Option<f64>> = (0..cells)
            .into_par_iter()
            .map(|cell| worst_at_cell(rule, a, b, &pose_a, &grid, epa, contact, &settings, cell))
            .collect();
        let jumping = worst
            .iter()
            .filter(|w| w.is_some_and(|r| r > settings.jump_ratio))
            .count();
        let with = worst.iter().filter(|w| w.is_some()).count();
        println!(
            "  {:<14} jumps at {jumping} of {with} poses with a manifold",
            rule.name()
        );
        print_heat(&worst, grid.cells);
        let mut order: Vec<usize> = (0..cells).filter(|&c| worst[c].is_some()).collect();
        order.sort_by(|x, y| {
            worst[*y]
                .unwrap_or(0.0)
                .total_cmp(&worst[*x].unwrap_or(0.0))
        });
        for (rank, &cell) in order.iter().take(args.worst).enumerate() {
            let ratio = worst[cell].unwrap_or(0.0);
            if ratio <= settings.jump_ratio {
                break;
            }
            let path = args
                .out
                .join(format!("jitter-{}-{}.ron", rule.name(), rank + 1));
            let (u, v) = grid.angles(cell % grid.cells, cell / grid.cells);
            write_pose(
                &scene,
                grid.pose_at(cell % grid.cells, cell / grid.cells),
                rule,
                &path,
            )?;
            println!(
                "    {}  tilts ({u:+.3e}, {v:+.3e}) rad: points moved {ratio:.3e}x the body",
                path.display()
            );
        }
    }
    Ok(())
}

/// The heat map in text: one character per pose, darker for a worse jump (log scale:
/// `.` under 10x, `:` under 100x, `*` under 1e4x, `#` beyond; a space without a
/// manifold).
fn print_heat(worst: &[Option<f64>], cells: usize) {
    for row in worst.chunks(cells) {
        let line: String = row
            .iter()
            .map(|w| match w {
                None => ' ',
                Some(r) if *r < 10.0 => '.',
                Some(r) if *r < 100.0 => ':',
                Some(r) if *r < 1e4 => '*',
                Some(_) => '#',
            })
            .collect();
        println!("    |{line}|");
    }
}

/// The scene with B at `pose_b` and the contact rules as its methods, saved at `path`.
fn write_pose(scene: &Scene, pose_b: Pose, rule: ContactRule, path: &Path) -> anyhow::Result<()> {
    let mut out = scene.clone();
    out.b_mut().pose = pose_b;
    out.name = format!("{} (jitter of {})", scene.name, rule.name());
    out.methods = ContactRule::ALL
        .iter()
        .filter_map(|r| r.name().parse::<Method>().ok())
        .collect();
    out.save(path)?;
    Ok(())
}
