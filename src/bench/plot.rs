//! PNG plots of mean ± std iterations against signed distance (symmetric-log x axis),
//! one curve per algorithm: the paper's Fig. 5 for any shape set.

use std::path::Path;
use std::sync::Once;

use plotters::prelude::*;

use super::runner::{QueryKind, SummaryCell};
use crate::solver::Algorithm;

/// Symmetric log: ±1e-4 ↦ ±1, each decade one unit further out, sign kept.
fn symlog(d: f64) -> f64 {
    d.signum() * (d.abs().max(1e-5).log10() + 5.0)
}

pub(crate) fn register_font() {
    static FONT: Once = Once::new();
    FONT.call_once(|| {
        // plotters' own font feature needs the system's fontconfig; egui's font does not.
        let _ = plotters::style::register_font(
            "sans-serif",
            FontStyle::Normal,
            epaint_default_fonts::UBUNTU_LIGHT,
        );
    });
}

/// A caption font size at which `title` fits the image's width (a long list of mesh
/// names would otherwise run off both edges).
fn caption_size(title: &str, width: u32) -> f64 {
    // The font's characters average about half their size in width.
    let fitting = (width as f64 - 40.0) / (0.5 * title.chars().count().max(1) as f64);
    fitting.clamp(12.0, 30.0)
}

/// Draws one query kind's summary to `path`.
pub fn plot_iterations(
    path: &Path,
    title: &str,
    cells: &[SummaryCell],
    query: QueryKind,
    algorithms: &[Algorithm],
) -> anyhow::Result<()> {
    register_font();
    let cells: Vec<&SummaryCell> = cells.iter().filter(|c| c.query == query).collect();
    let y_max = cells.iter().map(|c| c.mean + c.std).fold(1.0f64, f64::max) * 1.08;
    let x_min = cells
        .iter()
        .map(|c| symlog(c.target_distance))
        .fold(0.0f64, f64::min)
        - 0.3;
    let x_max = cells
        .iter()
        .map(|c| symlog(c.target_distance))
        .fold(0.0f64, f64::max)
        + 0.3;
    let width = 1200;
    let root = BitMapBackend::new(path, (width, 760)).into_drawing_area();
    root.fill(&WHITE).map_err(|e| anyhow::anyhow!("{e}"))?;
    let mut chart = ChartBuilder::on(&root)
        .caption(title, ("sans-serif", caption_size(title, width)))
        .margin(20)
        .x_label_area_size(60)
        .y_label_area_size(70)
        .build_cartesian_2d(x_min..x_max, 0.0..y_max)
        .map_err(|e| anyhow::anyhow!("{e}"))?;
    chart
        .configure_mesh()
        .x_desc("signed distance (symmetric log scale; negative = overlap)")
        .y_desc(format!("iterations ({} query), mean ± std", query.name()))
        .label_style(("sans-serif", 20))
        .axis_desc_style(("sans-serif", 22))
        .x_labels(14)
        .x_label_formatter(&|x| {
            if x.abs() < 0.5 {
                "0".to_string()
            } else {
                let d = x.signum() * 10f64.powf(x.abs() - 5.0);
                format!("{d:.0e}")
            }
        })
        .draw()
        .map_err(|e| anyhow::anyhow!("{e}"))?;
    for algorithm in algorithms.iter() {
        // The catalog's colour: each method keeps it in every plot.
        let [r, g, b] = crate::solver::catalog::info(crate::solver::Method::of(*algorithm)).colour;
        let color = RGBColor(r, g, b);
        let mut own: Vec<&&SummaryCell> = cells
            .iter()
            .filter(|c| c.algorithm == algorithm.name())
            .collect();
        own.sort_by(|a, b| a.target_distance.total_cmp(&b.target_distance));
        // Overlap and separation are separate curves: there is no distance between.
        for side in [-1.0, 1.0] {
            let points: Vec<(f64, f64)> = own
                .iter()
                .filter(|c| c.target_distance.signum() == side)
                .map(|c| (symlog(c.target_distance), c.mean))
                .collect();
            let series = chart
                .draw_series(LineSeries::new(points.clone(), color.stroke_width(3)))
                .map_err(|e| anyhow::anyhow!("{e}"))?;
            if side > 0.0 {
                series.label(algorithm.name()).legend(move |(x, y)| {
                    PathElement::new(vec![(x, y), (x + 24, y)], color.stroke_width(3))
                });
            }
            chart
                .draw_series(points.iter().map(|p| Circle::new(*p, 4, color.filled())))
                .map_err(|e| anyhow::anyhow!("{e}"))?;
        }
        chart
            .draw_series(own.iter().map(|c| {
                let x = symlog(c.target_distance);
                PathElement::new(
                    vec![(x, (c.mean - c.std).max(0.0)), (x, c.mean + c.std)],
                    color.mix(0.6).stroke_width(2),
                )
            }))
            .map_err(|e| anyhow::anyhow!("{e}"))?;
    }
    chart
        .configure_series_labels()
        .label_font(("sans-serif", 20))
        .background_style(WHITE.mix(0.85))
        .border_style(BLACK)
        .position(SeriesLabelPosition::UpperLeft)
        .draw()
        .map_err(|e| anyhow::anyhow!("{e}"))?;
    root.present()
        .map_err(|e| anyhow::anyhow!("{}: cannot write the plot: {e}", path.display()))?;
    Ok(())
}
