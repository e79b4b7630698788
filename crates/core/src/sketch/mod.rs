//! A step's picture as marks in world coordinates (lines, markers, arrows, translucent
//! triangles, labels), built here once from a run's records so that the desktop viewer
//! (which draws the marks with Bevy's gizmos) and the web page (which draws them on a
//! canvas) show the same picture of the same step. Families whose pictures are built
//! here are listed by [`step_sketch`]; the others are still drawn by the viewer's
//! companions alone.

pub mod construction;
mod contact;
mod distance;
mod epa;
mod interior_point;
mod lp;
mod palette;
mod regions;
mod toi;

pub use construction::{copy_colour, Construction};
pub use contact::contact_sketch;
pub use distance::{distance_sketch, frank_wolfe_sketch, gjk_sketch};
pub use epa::epa_sketch;
pub use interior_point::interior_point_sketch;
pub use lp::lp_sketch;
pub use palette::*;
pub use regions::{
    contains, origin_region, projected_step, region_box, region_sketch, voronoi_regions,
    ProjectedStep, RegionKind, ORIGIN_REGION_TINT, ORIGIN_REGION_TINT_3D, REGION_TINTS,
};
pub use toi::{toi_sketch, Motion, MotionMeshes};

use glam::{DQuat, DVec3};
use serde::Serialize;

use crate::pose::Pose;
use crate::solver::Run;

/// A colour in sRGB with alpha, each in [0, 1].
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Rgba(pub [f32; 4]);

impl Rgba {
    pub const fn rgb(r: f32, g: f32, b: f32) -> Self {
        Rgba([r, g, b, 1.0])
    }

    pub const fn with_alpha(self, alpha: f32) -> Self {
        let [r, g, b, _] = self.0;
        Rgba([r, g, b, alpha])
    }

    /// Darker by `amount` (0 to 1) in each channel, as Bevy's `Color::darker` on sRGB.
    pub fn darker(self, amount: f32) -> Self {
        let [r, g, b, a] = self.0;
        let f = |c: f32| (c - amount).max(0.0);
        Rgba([f(r), f(g), f(b), a])
    }
}

/// One mark of a picture.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Mark {
    Line {
        from: DVec3,
        to: DVec3,
        colour: Rgba,
    },
    /// Points joined in order.
    Strip { points: Vec<DVec3>, colour: Rgba },
    /// A point marked with a small sphere (the viewer) or dot (the page), `size` marker
    /// units across (the unit is the viewer's screen-constant marker size).
    Marker { at: DVec3, size: f64, colour: Rgba },
    Arrow {
        from: DVec3,
        to: DVec3,
        colour: Rgba,
    },
}

/// Text naming a point.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Label {
    pub at: DVec3,
    pub text: String,
    pub colour: Rgba,
}

/// Translucent triangles of one colour (a simplex's faces, a polytope).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Faces {
    pub triangles: Vec<[DVec3; 3]>,
    pub colour: Rgba,
}

/// Points a camera closes in on: the sphere round their bounding box, never tighter
/// than `min_radius`, then grown to hold each of `grown_to` (points the step is about
/// that are drawn beside it, such as GJK's dropped vertices).
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Framing {
    pub points: Vec<DVec3>,
    pub min_radius: f64,
    pub grown_to: Vec<DVec3>,
}

/// The points' bounding box `(min, max)`; infinite (min above max) when there are none.
pub fn bounding_box(points: impl IntoIterator<Item = DVec3>) -> (DVec3, DVec3) {
    points.into_iter().fold(
        (DVec3::splat(f64::INFINITY), DVec3::splat(f64::NEG_INFINITY)),
        |(lo, hi), p| (lo.min(p), hi.max(p)),
    )
}

impl Framing {
    /// The sphere `(centre, radius)` round the points' bounding box, at least
    /// `min_radius`, then grown to hold each of `grown_to`.
    pub fn sphere(&self) -> (DVec3, f64) {
        let (lo, hi) = bounding_box(self.points.iter().copied());
        let (mut centre, mut radius) = if lo.x.is_finite() {
            (
                (lo + hi) * 0.5,
                ((hi - lo).length() * 0.5).max(self.min_radius),
            )
        } else {
            (DVec3::ZERO, self.min_radius)
        };
        for p in &self.grown_to {
            let d = (*p - centre).length();
            if d > radius {
                let grown = 0.5 * (radius + d);
                centre += (*p - centre) * ((grown - radius) / d);
                radius = grown;
            }
        }
        (centre, radius)
    }
}

/// A step's picture, and what "frame step" and "frame newest" close in on.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Sketch {
    pub marks: Vec<Mark>,
    pub labels: Vec<Label>,
    pub faces: Vec<Faces>,
    pub step: Framing,
    pub newest: Option<Framing>,
}

impl Sketch {
    pub fn line(&mut self, from: DVec3, to: DVec3, colour: Rgba) {
        self.marks.push(Mark::Line { from, to, colour });
    }

    pub fn marker(&mut self, at: DVec3, size: f64, colour: Rgba) {
        self.marks.push(Mark::Marker { at, size, colour });
    }

    pub fn arrow(&mut self, from: DVec3, to: DVec3, colour: Rgba) {
        self.marks.push(Mark::Arrow { from, to, colour });
    }

    pub fn label(&mut self, at: DVec3, text: impl Into<String>, colour: Rgba) {
        self.labels.push(Label {
            at,
            text: text.into(),
            colour,
        });
    }

    /// Another sketch's marks, labels and faces after this one's (its framings are
    /// dropped: the first sketch's are the step's).
    pub fn extend(&mut self, other: Sketch) {
        self.marks.extend(other.marks);
        self.labels.extend(other.labels);
        self.faces.extend(other.faces);
    }
}

/// Which layers a picture shows: the viewer's "Show" toggles that step pictures read.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Layers {
    pub difference: bool,
    pub simplex: bool,
    pub labels: bool,
    pub support_direction: bool,
    pub support_parts: bool,
    pub iterate: bool,
    pub witness: bool,
    pub frank_wolfe_path: bool,
    pub plane: bool,
    /// GJK's Voronoi regions (`regions.rs`).
    pub region: bool,
}

impl Default for Layers {
    /// The viewer's defaults.
    fn default() -> Self {
        Layers {
            difference: true,
            simplex: true,
            labels: true,
            support_direction: true,
            support_parts: true,
            iterate: true,
            witness: true,
            frank_wolfe_path: false,
            plane: false,
            region: true,
        }
    }
}

/// Where `A ⊖ B` is drawn: points of the difference (in A's frame) are turned by A's
/// rotation and moved to `anchor`, where its origin O is drawn (beside the shapes, or
/// at the world origin when drawn in place).
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct DifferenceSpace {
    pub anchor: DVec3,
    pub rotation: DQuat,
    /// The drawing's size (its furthest corner from O), for lengths and framings.
    pub radius: f64,
}

impl DifferenceSpace {
    pub fn world_point(&self, w: DVec3) -> DVec3 {
        self.anchor + self.rotation * w
    }

    pub fn world_direction(&self, d: DVec3) -> DVec3 {
        self.rotation * d
    }
}

/// What a step picture is drawn in.
#[derive(Clone, Copy, Debug)]
pub struct SketchContext {
    pub layers: Layers,
    pub space: DifferenceSpace,
    /// A's pose (the records' points on A and B are in A's frame), and B's.
    pub pose_a: Pose,
    pub pose_b: Pose,
    /// The marker unit in world lengths (the viewer's is screen-constant).
    pub marker: f64,
    /// A planar scene (GJK's regions are drawn in the plane).
    pub planar: bool,
}

/// Record `index` of `run` (clamped to its records) drawn as its family draws it, when
/// its family's picture is built here: GJK and its accelerated variants, Frank-Wolfe,
/// EPA, the LP test, the interior point, the contact manifolds.
pub fn step_sketch(run: &Run, index: usize, context: &SketchContext) -> Option<Sketch> {
    use crate::solver::contact::record::ContactRecord;
    use crate::solver::{FrankWolfeRecord, GjkRecord};
    if let Some(records) = run.trace.steps::<ContactRecord>() {
        return contact_sketch(run, records, index, context);
    }
    if let Some(records) = run.trace.steps::<crate::solver::lp::LpRecord>() {
        return Some(lp_sketch(run, records, index, context));
    }
    if let Some(records) = run.trace.steps::<crate::solver::interior_point::IpRecord>() {
        return interior_point_sketch(run, records, index, context);
    }
    if let Some(trace) = run.trace.get::<crate::solver::epa::EpaTrace>() {
        return Some(epa_sketch(run, trace, index, context));
    }
    if let Some(records) = run.trace.steps::<GjkRecord>() {
        let mut sketch = gjk_sketch(run, records, index, context)?;
        sketch.extend(region_sketch(records, index, context));
        return Some(sketch);
    }
    if let Some(records) = run.trace.steps::<FrankWolfeRecord>() {
        return frank_wolfe_sketch(run, records, index, context);
    }
    None
}
