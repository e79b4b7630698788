//! The interior point's speed, single thread, bodies built once and only the
//! pose changing per query (as Chakraborty et al., "Proximity Queries between Convex
//! Objects: An Interior Point Approach for Implicit Surfaces" measured): Chakraborty et
//! al.'s Table I pairs at random near-contact poses, two ellipsoids against our GJK on the
//! same pairs, the time per Newton step against the number of half-spaces, and continuous
//! collision against a distance query on the same pairs.

use std::path::Path;

use glam::{DMat3, DQuat, DVec3};
use plotters::prelude::*;

use super::timing::seconds_per_query;
use crate::minkowski::MinkowskiDifference;
use crate::pose::RelativePose;
use crate::rng::SplitMix64;
use crate::scene::Scene;
use crate::shape::implicit::{half_space_constraints, ImplicitBody};
use crate::shape::{Ellipsoid, Shape, Sphere};
use crate::solver::interior_point::{distance, distance_warm, time_of_impact, IpSettings};
use crate::solver::{solve, Algorithm, DirectionRule, Outcome, SolverSettings};

/// Table I's pairs (Chakraborty et al.), as indices into its six objects I … VI.
pub const TABLE_ONE: [(usize, usize); 8] = [
    (0, 1),
    (0, 2),
    (1, 2),
    (2, 3),
    (1, 3),
    (2, 4),
    (4, 5),
    (2, 5),
];
const ROMAN: [&str; 6] = ["I", "II", "III", "IV", "V", "VI"];

/// One line of the report.
#[derive(Clone, Debug)]
pub struct IpRow {
    pub case: String,
    /// Mean µs per distance query (or per Newton step for the scaling rows).
    pub micros: f64,
    pub newton_steps: f64,
    /// Queries that ended without a certified answer.
    pub unanswered: usize,
    /// A peer on the same queries (GJK's µs, or the distance query's for CCD rows).
    pub peer_micros: Option<f64>,
}

/// Chakraborty et al.'s six objects, from the shipped scene (one source of truth).
pub fn paper_objects() -> anyhow::Result<Vec<ImplicitBody>> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("scenes/ip_implicit_objects.ron");
    let scene = Scene::load(&path).map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))?;
    scene
        .bodies
        .iter()
        .map(|b| ImplicitBody::of_shape(&b.shape).map_err(|e| anyhow::anyhow!("{e}")))
        .collect()
}

fn random_turn(rng: &mut SplitMix64) -> DMat3 {
    DMat3::from_quat(DQuat::from_axis_angle(
        rng.unit_vector(),
        rng.range(0.0, 3.1),
    ))
}

/// B placed at a random direction, at `reach` times the sum of both boxes' half
/// diagonals, randomly turned.
fn random_pose(
    rng: &mut SplitMix64,
    a: &ImplicitBody,
    b: &ImplicitBody,
    reach: f64,
) -> RelativePose {
    let radius = |body: &ImplicitBody| {
        let (lo, hi) = body.bounds();
        0.5 * (hi - lo).length()
    };
    let centre = rng.unit_vector() * (radius(a) + radius(b)) * 0.5 * reach;
    RelativePose::from_matrix(random_turn(rng), centre)
}

fn answered(outcome: &Outcome) -> bool {
    matches!(
        outcome,
        Outcome::Separated { .. } | Outcome::Contact { .. } | Outcome::Intersecting
    )
}

/// Distance queries on `pairs` bodies at `queries` random poses each.
fn time_pairs(
    name: String,
    a: &ImplicitBody,
    b: &ImplicitBody,
    queries: usize,
    rng: &mut SplitMix64,
    peer: Option<(&Shape, &Shape)>,
) -> IpRow {
    let (mut total, mut steps, mut unanswered, mut peer_total) = (0.0, 0.0, 0, 0.0);
    for _ in 0..queries {
        let reach = rng.range(0.9, 1.8);
        let pose = random_pose(rng, a, b, reach);
        let moved = b.moved(pose);
        let answer = distance(a, &moved, IpSettings::default(), None);
        match &answer {
            Ok(r) if answered(&r.outcome) => steps += r.iterations as f64,
            _ => unanswered += 1,
        }
        total += seconds_per_query(|| {
            let moved = b.moved(pose);
            std::hint::black_box(distance(a, &moved, IpSettings::default(), None).ok());
        });
        if let Some((sa, sb)) = peer {
            let settings = SolverSettings {
                tolerance: 1e-8,
                ..SolverSettings::default()
            };
            peer_total += seconds_per_query(|| {
                let md = MinkowskiDifference::new(sa, sb, pose);
                std::hint::black_box(solve(Algorithm::Gjk(DirectionRule::Vanilla), md, settings));
            });
        }
    }
    let n = queries as f64;
    IpRow {
        case: name,
        micros: total / n * 1e6,
        newton_steps: steps / (queries - unanswered).max(1) as f64,
        unanswered,
        peer_micros: peer.map(|_| peer_total / n * 1e6),
    }
}

fn time_warm(
    a: &ImplicitBody,
    b: &ImplicitBody,
    queries: usize,
    rng: &mut SplitMix64,
    (i, j): (usize, usize),
) -> IpRow {
    let (mut warm, mut cold, mut steps, mut unanswered) = (0.0, 0.0, 0.0, 0);
    for _ in 0..queries {
        let reach = rng.range(1.0, 1.6);
        let pose = random_pose(rng, a, b, reach);
        let (lo, hi) = b.bounds();
        let nudge = RelativePose::from_matrix(
            DMat3::from_axis_angle(rng.unit_vector(), 0.5f64.to_radians()) * pose.rotation,
            pose.translation + rng.unit_vector() * 0.01 * (hi - lo).length(),
        );
        let first = distance(a, &b.moved(pose), IpSettings::default(), None);
        let Ok(first) = first else {
            unanswered += 1;
            continue;
        };
        let previous = first
            .witnesses()
            .expect("the interior point reports its last iterates");
        let moved = b.moved(nudge);
        match distance_warm(a, &moved, previous, IpSettings::default(), None) {
            Ok(r) if answered(&r.outcome) => steps += r.iterations as f64,
            _ => unanswered += 1,
        }
        warm += seconds_per_query(|| {
            let moved = b.moved(nudge);
            std::hint::black_box(
                distance_warm(a, &moved, previous, IpSettings::default(), None).ok(),
            );
        });
        cold += seconds_per_query(|| {
            let moved = b.moved(nudge);
            std::hint::black_box(distance(a, &moved, IpSettings::default(), None).ok());
        });
    }
    let n = queries as f64;
    IpRow {
        case: format!("warm start: {} – {} (peer: cold)", ROMAN[i], ROMAN[j]),
        micros: warm / n * 1e6,
        newton_steps: steps / (queries - unanswered).max(1) as f64,
        unanswered,
        peer_micros: Some(cold / n * 1e6),
    }
}

/// Every row of the report.
pub fn run(queries: usize) -> anyhow::Result<(Vec<IpRow>, Vec<IpRow>)> {
    let mut rng = SplitMix64::new(2007);
    let objects = paper_objects()?;
    let mut rows = Vec::new();
    for (i, j) in TABLE_ONE {
        let name = format!("Table I: {} – {}", ROMAN[i], ROMAN[j]);
        rows.push(time_pairs(
            name,
            &objects[i],
            &objects[j],
            queries,
            &mut rng,
            None,
        ));
    }
    // Two ellipsoids, with our GJK on the same poses.
    let ea = Shape::Ellipsoid(Ellipsoid::new(DVec3::new(1.0, 0.6, 0.4))?);
    let eb = Shape::Ellipsoid(Ellipsoid::new(DVec3::new(0.5, 0.8, 0.7))?);
    let (ia, ib) = (ImplicitBody::of_shape(&ea)?, ImplicitBody::of_shape(&eb)?);
    rows.push(time_pairs(
        "two ellipsoids (peer: our GJK)".into(),
        &ia,
        &ib,
        queries,
        &mut rng,
        Some((&ea, &eb)),
    ));
    // Warm starts: the pose moves a little (1 % of the size, half a degree) after each
    // query; the previous points seed the next (peer: the same queries cold).
    for (i, j) in [(0, 1), (2, 3)] {
        rows.push(time_warm(
            &objects[i],
            &objects[j],
            queries,
            &mut rng,
            (i, j),
        ));
    }
    // Continuous collision against the distance query on Table I's pairs.
    for (i, j) in [(0, 2), (1, 2)] {
        let (a, b) = (&objects[i], &objects[j]);
        let (mut ccd, mut plain, mut unanswered) = (0.0, 0.0, 0);
        for _ in 0..queries {
            let start = random_pose(&mut rng, a, b, 2.5);
            let velocity = -start.translation * rng.range(0.6, 1.4) + rng.unit_vector() * 0.3;
            let moved = b.moved(start);
            match time_of_impact(a, &moved, velocity, IpSettings::default(), None) {
                Ok(r)
                    if matches!(
                        r.outcome,
                        Outcome::Impact { .. } | Outcome::NoImpact { .. } | Outcome::Grazing { .. }
                    ) => {}
                _ => unanswered += 1,
            }
            ccd += seconds_per_query(|| {
                let moved = b.moved(start);
                std::hint::black_box(
                    time_of_impact(a, &moved, velocity, IpSettings::default(), None).ok(),
                );
            });
            plain += seconds_per_query(|| {
                let moved = b.moved(start);
                std::hint::black_box(distance(a, &moved, IpSettings::default(), None).ok());
            });
        }
        let n = queries as f64;
        rows.push(IpRow {
            case: format!("CCD: {} – {} (peer: distance)", ROMAN[i], ROMAN[j]),
            micros: ccd / n * 1e6,
            newton_steps: f64::NAN,
            unanswered,
            peer_micros: Some(plain / n * 1e6),
        });
    }
    Ok((rows, newton_step_scaling(&mut rng)?))
}

/// µs per Newton step for a body of `n` half-spaces (tangent to the unit sphere at
/// random directions) against a sphere.
fn newton_step_scaling(rng: &mut SplitMix64) -> anyhow::Result<Vec<IpRow>> {
    let ball = ImplicitBody::of_shape(&Shape::Sphere(Sphere::new(0.5)?))?;
    [10, 30, 100, 300, 1000]
        .into_iter()
        .map(|n| {
            let mut planes: Vec<[f64; 4]> = (0..n)
                .map(|_| {
                    let d = rng.unit_vector();
                    [d.x, d.y, d.z, 1.0]
                })
                .collect();
            // The six axis planes keep every count bounded.
            for axis in [DVec3::X, DVec3::Y, DVec3::Z] {
                for s in [1.0, -1.0] {
                    let d = axis * s;
                    planes.push([d.x, d.y, d.z, 1.5]);
                }
            }
            let constraints = half_space_constraints(&planes, DMat3::IDENTITY, DVec3::ZERO)?;
            let body = ImplicitBody::new(constraints)?.with_interior(DVec3::ZERO);
            let pose = RelativePose::from_matrix(DMat3::IDENTITY, DVec3::new(2.0, 0.3, 0.1));
            let moved = ball.moved(pose);
            let steps = distance(&body, &moved, IpSettings::default(), None)?.iterations;
            let seconds = seconds_per_query(|| {
                std::hint::black_box(distance(&body, &moved, IpSettings::default(), None).ok());
            });
            Ok(IpRow {
                case: format!("{} half-spaces", planes.len()),
                micros: seconds * 1e6 / steps.max(1) as f64,
                newton_steps: steps as f64,
                unanswered: 0,
                peer_micros: None,
            })
        })
        .collect()
}

/// The report as text.
pub fn table(rows: &[IpRow], scaling: &[IpRow]) -> String {
    let mut out = format!(
        "{:<34} {:>10} {:>8} {:>11} {:>12} {:>8}\n",
        "case", "µs/query", "steps", "unanswered", "peer µs", "ratio"
    );
    for r in rows {
        let (peer, ratio) = match r.peer_micros {
            Some(p) => (format!("{p:.2}"), format!("{:.1}", r.micros / p)),
            None => ("—".into(), "—".into()),
        };
        out += &format!(
            "{:<34} {:>10.2} {:>8.1} {:>11} {:>12} {:>8}\n",
            r.case, r.micros, r.newton_steps, r.unanswered, peer, ratio
        );
    }
    out += &format!("\n{:<34} {:>10} {:>8}\n", "body", "µs/step", "steps");
    for r in scaling {
        out += &format!(
            "{:<34} {:>10.3} {:>8.0}\n",
            r.case, r.micros, r.newton_steps
        );
    }
    out
}

/// Time per Newton step against the number of half-spaces (log–log).
pub fn plot(scaling: &[IpRow], path: &Path) -> anyhow::Result<()> {
    super::plot::register_font();
    let root = BitMapBackend::new(path, (900, 560)).into_drawing_area();
    root.fill(&WHITE)?;
    let points: Vec<(f64, f64)> = scaling
        .iter()
        .filter_map(|r| {
            let n: f64 = r.case.split_whitespace().next()?.parse().ok()?;
            Some((n, r.micros))
        })
        .collect();
    let (lo, hi) = points.iter().fold((f64::INFINITY, 0.0f64), |(lo, hi), p| {
        (lo.min(p.1), hi.max(p.1))
    });
    let mut chart = ChartBuilder::on(&root)
        .caption("Interior point: time per Newton step", ("sans-serif", 22))
        .margin(20)
        .x_label_area_size(45)
        .y_label_area_size(70)
        .build_cartesian_2d(
            (8.0f64..1500.0).log_scale(),
            (lo * 0.5..hi * 2.0).log_scale(),
        )?;
    chart
        .configure_mesh()
        .x_desc("half-spaces in the body")
        .y_desc("µs per Newton step")
        .draw()?;
    let colour = RGBColor(0, 84, 147);
    chart.draw_series(LineSeries::new(points.clone(), colour.stroke_width(3)))?;
    chart.draw_series(points.iter().map(|p| Circle::new(*p, 4, colour.filled())))?;
    root.present()?;
    Ok(())
}
