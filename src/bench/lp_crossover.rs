//! LP against GJK as a Boolean test: time per query of the simplex method
//! (`solver::lp::collision_by`, Kreuzer's dense tableau and the revised simplex) and
//! of GJK in Boolean mode (which stops at the first separating plane) on the same
//! random hull pairs, by vertex count; where the LP stops being competitive. Every
//! verdict is compared with GJK's, and a disagreement is reported (only touching pairs
//! may differ, none are generated).

use std::path::Path;

use glam::DVec3;
use plotters::prelude::*;

use super::timing::seconds_per_query;
use crate::minkowski::MinkowskiDifference;
use crate::pose::RelativePose;
use crate::rng::SplitMix64;
use crate::shape::{Polytope, Shape};
use crate::solver::lp::{collision_by, LpVerdict, Simplex};
use crate::solver::{run_gjk, DirectionRule, Outcome, QueryMode, SolverSettings};

/// The vertex counts compared.
pub const COUNTS: [usize; 5] = [8, 30, 100, 300, 1000];

/// One vertex count's mean times (µs per query) and the pairs that disagreed.
#[derive(Clone, Debug)]
pub struct CrossoverRow {
    pub vertices: usize,
    pub lp_micros: f64,
    pub revised_micros: f64,
    pub gjk_micros: f64,
    pub lp_pivots: f64,
    pub disagreements: usize,
}

fn cloud(rng: &mut SplitMix64, n: usize, centre: DVec3) -> Vec<DVec3> {
    (0..n).map(|_| centre + rng.unit_vector() * 0.5).collect()
}

/// `pairs` random pairs per count, half overlapping and half 0.01–0.3 apart.
pub fn run(pairs: usize) -> Vec<CrossoverRow> {
    let mut rng = SplitMix64::new(17);
    let settings = SolverSettings {
        mode: QueryMode::Boolean { bound: 0.0 },
        tolerance: 1e-10,
        max_iterations: 1000,
        ..SolverSettings::default()
    };
    COUNTS
        .iter()
        .map(|&n| {
            let (mut lp_time, mut revised_time, mut gjk_time) = (0.0, 0.0, 0.0);
            let (mut pivots, mut disagreements) = (0.0, 0);
            for k in 0..pairs {
                let a = cloud(&mut rng, n, DVec3::ZERO);
                let offset = if k % 2 == 0 {
                    rng.range(0.2, 0.8)
                } else {
                    rng.range(1.01, 1.3)
                };
                let centre = rng.unit_vector() * offset;
                let b = cloud(&mut rng, n, centre);
                let (sa, sb) = match (Polytope::from_points(&a), Polytope::from_points(&b)) {
                    (Ok(sa), Ok(sb)) => (Shape::Polytope(sa), Shape::Polytope(sb)),
                    _ => continue,
                };
                let identity = RelativePose::from_matrix(glam::DMat3::IDENTITY, DVec3::ZERO);
                let gjk = || {
                    let md = MinkowskiDifference::new(&sa, &sb, identity);
                    run_gjk(md, DirectionRule::Vanilla, settings, &[])
                };
                let lp = || collision_by(Simplex::Tableau, &a, &b, None);
                let revised = || collision_by(Simplex::Revised, &a, &b, None);
                let (g, l) = (gjk(), lp());
                let gjk_says = matches!(g.outcome, Outcome::Intersecting);
                for verdict in [&l.verdict, &revised().verdict] {
                    if gjk_says != matches!(verdict, LpVerdict::Intersecting { .. }) {
                        disagreements += 1;
                    }
                }
                pivots += l.pivots as f64;
                gjk_time += seconds_per_query(|| {
                    std::hint::black_box(gjk());
                });
                lp_time += seconds_per_query(|| {
                    std::hint::black_box(lp());
                });
                revised_time += seconds_per_query(|| {
                    std::hint::black_box(revised());
                });
            }
            let m = pairs as f64;
            CrossoverRow {
                vertices: n,
                lp_micros: lp_time / m * 1e6,
                revised_micros: revised_time / m * 1e6,
                gjk_micros: gjk_time / m * 1e6,
                lp_pivots: pivots / m,
                disagreements,
            }
        })
        .collect()
}

/// The table as text.
pub fn table(rows: &[CrossoverRow]) -> String {
    let mut out = format!(
        "{:>9} {:>12} {:>12} {:>12} {:>8} {:>8} {:>10} {:>13}\n",
        "vertices", "LP µs", "revised µs", "GJK µs", "LP/GJK", "rev/GJK", "pivots", "disagreements"
    );
    for r in rows {
        out += &format!(
            "{:>9} {:>12.2} {:>12.2} {:>12.2} {:>8.1} {:>8.1} {:>10.1} {:>13}\n",
            r.vertices,
            r.lp_micros,
            r.revised_micros,
            r.gjk_micros,
            r.lp_micros / r.gjk_micros,
            r.revised_micros / r.gjk_micros,
            r.lp_pivots,
            r.disagreements
        );
    }
    out
}

/// Log–log plot of time per query against vertex count.
pub fn plot(rows: &[CrossoverRow], path: &Path) -> anyhow::Result<()> {
    super::plot::register_font();
    let root = BitMapBackend::new(path, (900, 560)).into_drawing_area();
    root.fill(&WHITE)?;
    let (lo, hi) = rows.iter().fold((f64::INFINITY, 0.0f64), |(lo, hi), r| {
        (
            lo.min(r.gjk_micros).min(r.lp_micros).min(r.revised_micros),
            hi.max(r.gjk_micros).max(r.lp_micros).max(r.revised_micros),
        )
    });
    let mut chart = ChartBuilder::on(&root)
        .caption(
            "LP (dense tableau, revised simplex) vs GJK Boolean",
            ("sans-serif", 22),
        )
        .margin(20)
        .x_label_area_size(45)
        .y_label_area_size(70)
        .build_cartesian_2d(
            (6.0f64..1500.0).log_scale(),
            (lo * 0.5..hi * 2.0).log_scale(),
        )?;
    chart
        .configure_mesh()
        .x_desc("vertices per shape")
        .y_desc("µs per query")
        .draw()?;
    type Pick = fn(&CrossoverRow) -> f64;
    let series: [(&str, RGBColor, Pick); 3] = [
        ("LP, dense tableau (Kreuzer)", RGBColor(82, 84, 163), |r| {
            r.lp_micros
        }),
        ("LP, revised simplex", RGBColor(231, 150, 156), |r| {
            r.revised_micros
        }),
        ("GJK, Boolean mode", RGBColor(31, 119, 180), |r| {
            r.gjk_micros
        }),
    ];
    for (name, colour, pick) in series {
        let points: Vec<(f64, f64)> = rows.iter().map(|r| (r.vertices as f64, pick(r))).collect();
        chart
            .draw_series(LineSeries::new(points.clone(), colour.stroke_width(3)))?
            .label(name)
            .legend(move |(x, y)| {
                PathElement::new(vec![(x, y), (x + 20, y)], colour.stroke_width(3))
            });
        chart.draw_series(points.iter().map(|p| Circle::new(*p, 4, colour.filled())))?;
    }
    chart
        .configure_series_labels()
        .background_style(WHITE.mix(0.8))
        .border_style(BLACK)
        .draw()?;
    root.present()?;
    Ok(())
}
