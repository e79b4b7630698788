//! A time of impact's step picture: B's path over t ∈ [0, 1] as an arrow, the probes so
//! far along it with the bracket that still holds the first contact, the step's time;
//! in `A ⊖ B`'s space the ray `λ·v` from the origin (the shapes first touch where it
//! enters `A ⊖ B`) and, for the ray cast, its point, simplex, gap and support; at the
//! end the contact points and normal. With [`MotionMeshes`] also the region B sweeps, B
//! as a ghost at the step's time and `A ⊖ B` swept by `−v` (the web page draws them from
//! here; the viewer keeps its own meshes for its preview slider).

use glam::{DQuat, DVec3};

use super::{Faces, Framing, Rgba, Sketch, SketchContext};
use super::{COLOUR_B, COLOUR_DIFFERENCE, COLOUR_SIMPLEX, COLOUR_SUPPORT, COLOUR_WITNESS};
use crate::pose::Pose;
use crate::printed_bound::{Above, Below};
use crate::scene::Scene;
use crate::solver::toi::{RayState, ToiRecord};
use crate::solver::{Outcome, Run};
use crate::tessellate::{coarse_mesh, swept_difference_mesh, swept_mesh, TriMesh};

pub const COLOUR_PATH: Rgba = Rgba::rgb(0.35, 0.35, 0.35);
pub const COLOUR_BRACKET: Rgba = Rgba::rgb(0.95, 0.55, 0.0);

/// B's motion as the pictures need it: where B starts and how far it moves (world), the
/// relative velocity for the ray in `A ⊖ B`, and optionally the meshes.
#[derive(Clone, Debug)]
pub struct Motion {
    /// B's centre at t = 0 (world).
    pub start: DVec3,
    /// B's translation over t ∈ [0, 1] (world).
    pub shift: DVec3,
    /// B's velocity relative to A in A's frame: the ray `λ·v` in `A ⊖ B`.
    pub relative_velocity: DVec3,
    /// A time to show instead of the step's (the viewer's preview slider).
    pub preview: Option<f64>,
    pub meshes: Option<MotionMeshes>,
}

/// The translucent shapes of a motion, tessellated once per pair.
#[derive(Clone, Debug)]
pub struct MotionMeshes {
    /// B's own mesh (its frame) and pose at t = 0, and its spin (world, per unit t).
    b_local: TriMesh,
    pose_b: Pose,
    spin: Option<DVec3>,
    /// The region B sweeps (world); none for a turning B (no hull of its two ends).
    swept: Vec<[DVec3; 3]>,
    /// `A ⊖ B` swept by `−v` (A's frame): it holds the origin exactly when the shapes
    /// touch at some t.
    swept_difference: Vec<[DVec3; 3]>,
}

fn triangles(mesh: &TriMesh, map: impl Fn(DVec3) -> DVec3) -> Vec<[DVec3; 3]> {
    (mesh.triangles.iter())
        .map(|t| t.map(|i| map(mesh.vertices[i as usize])))
        .collect()
}

impl Motion {
    /// The motion of `scene`'s pair in focus, when B moves relative to A; with the
    /// meshes when `meshes` is set.
    pub fn of(scene: &Scene, meshes: bool) -> Option<Motion> {
        let v = scene.relative_velocity()?;
        let (a, b) = (scene.a(), scene.b());
        let shift = a.pose.rotation * v;
        let spin = b.spin.filter(|s| *s != DVec3::ZERO);
        let meshes = meshes.then(|| {
            let swept = if spin.is_some() {
                Vec::new()
            } else {
                let tri = swept_mesh(&b.shape, &b.pose, shift);
                triangles(&tri, |p| p)
            };
            let swept_difference = if spin.is_some() {
                Vec::new()
            } else {
                triangles(&swept_difference_mesh(scene, v), |p| p)
            };
            MotionMeshes {
                // Coarse: the ghost is B's mesh again at every step of the run.
                b_local: coarse_mesh(&b.shape),
                pose_b: b.pose,
                spin,
                swept,
                swept_difference,
            }
        });
        Some(Motion {
            start: b.pose.translation,
            shift,
            relative_velocity: v,
            preview: None,
            meshes,
        })
    }

    /// B's centre at time `t` (world).
    fn at(&self, t: f64) -> DVec3 {
        self.start + self.shift * t
    }
}

/// Step `index` (clamped) of a time-of-impact run.
pub fn toi_sketch(
    run: &Run,
    records: &[ToiRecord],
    index: usize,
    context: &SketchContext,
    motion: &Motion,
) -> Option<Sketch> {
    let last = records.len().checked_sub(1)?;
    let index = index.min(last);
    let record = &records[index];
    let mut sketch = Sketch::default();
    let (start, end) = (motion.at(0.0), motion.at(1.0));
    // The path and its velocity arrow, t = 0 to 1.
    sketch.arrow(start, end, COLOUR_PATH);
    sketch.label(start, "t = 0", COLOUR_PATH);
    sketch.label(end, "t = 1", COLOUR_PATH);
    // Probes so far, and the bracket that still holds the first contact.
    for r in &records[..=index] {
        if r.time.is_finite() && (0.0..=1.0).contains(&r.time) {
            sketch.marker(motion.at(r.time), 0.8, COLOUR_SIMPLEX);
        }
    }
    if record.upper.is_finite() && record.lower.is_finite() {
        let (lo, hi) = (record.lower.clamp(0.0, 1.0), record.upper.clamp(0.0, 1.0));
        let up = DVec3::Y * context.marker * 2.0;
        let (a, b) = (motion.at(lo), motion.at(hi));
        sketch.line(a + up, b + up, COLOUR_BRACKET);
        sketch.line(a, a + up * 2.0, COLOUR_BRACKET);
        sketch.line(b, b + up * 2.0, COLOUR_BRACKET);
    }
    let shown = motion
        .preview
        .or(Some(record.time))
        .filter(|t| t.is_finite());
    if let Some(t) = shown {
        sketch.label(
            motion.at(t.clamp(0.0, 1.0)),
            format!("t = {t:.6}"),
            COLOUR_BRACKET,
        );
    }
    // The ray λ·v from the origin of A ⊖ B: the shapes first touch where it enters.
    let space = &context.space;
    if context.layers.difference {
        let (o, tip) = (
            space.world_point(DVec3::ZERO),
            space.world_point(motion.relative_velocity),
        );
        sketch.arrow(o, tip, COLOUR_PATH);
        sketch.label(tip, "λ·v", COLOUR_PATH);
        if let Some(ray) = &record.ray {
            ray_marks(&mut sketch, context, ray);
        }
    }
    if index == last {
        contact_marks(&mut sketch, run, context);
    }
    if let Some(meshes) = &motion.meshes {
        mesh_faces(&mut sketch, context, motion, meshes, shown);
    }
    sketch.step = Framing {
        points: vec![start, end],
        min_radius: space.radius * 0.05,
        grown_to: Vec::new(),
    };
    Some(sketch)
}

/// The ray cast in `A ⊖ B`: its point, the simplex, the gap from the simplex to the
/// point and the step's support.
fn ray_marks(sketch: &mut Sketch, context: &SketchContext, ray: &RayState) {
    let space = &context.space;
    let x = space.world_point(ray.point);
    sketch.marker(x, 1.2, COLOUR_BRACKET);
    let points: Vec<DVec3> = ray.simplex.iter().map(|p| space.world_point(*p)).collect();
    for (i, p) in points.iter().enumerate() {
        sketch.marker(*p, 1.0, COLOUR_SIMPLEX);
        for q in &points[i + 1..] {
            sketch.line(*p, *q, COLOUR_SIMPLEX);
        }
    }
    sketch.line(x - space.world_direction(ray.gap), x, COLOUR_SUPPORT);
    sketch.marker(space.world_point(ray.support), 1.3, COLOUR_SUPPORT);
}

/// At the end: the contact points on A and B and the normal (or the closest approach).
fn contact_marks(sketch: &mut Sketch, run: &Run, context: &SketchContext) {
    let s = &run.summary;
    let (Some(a), Some(b)) = (s.witness_a, s.witness_b) else {
        return;
    };
    let pose_a = context.pose_a;
    let (a, b) = (pose_a.transform_point(a), pose_a.transform_point(b));
    sketch.marker(a, 1.5, COLOUR_WITNESS);
    sketch.marker(b, 1.5, COLOUR_WITNESS);
    sketch.line(a, b, COLOUR_WITNESS);
    let outcome = &s.outcome;
    if let Some(n) = outcome.normal() {
        let tip = a + pose_a.transform_vector(n).normalize_or_zero() * context.marker * 12.0;
        sketch.arrow(a, tip, COLOUR_BRACKET);
        sketch.label(tip, "n", COLOUR_BRACKET);
    }
    let text = match outcome {
        Outcome::Impact { time, .. } => format!("impact at t = {:.6}", Below(*time)),
        Outcome::Grazing { time, distance } => {
            format!("grazing at t = {time:.6} ({:.1e})", Above(*distance))
        }
        other => other.status_name().to_string(),
    };
    sketch.label((a + b) * 0.5, text, COLOUR_WITNESS);
}

/// The region B sweeps, B's ghost at time `shown`, and `A ⊖ B` swept by `−v`.
fn mesh_faces(
    sketch: &mut Sketch,
    context: &SketchContext,
    motion: &Motion,
    meshes: &MotionMeshes,
    shown: Option<f64>,
) {
    if !meshes.swept.is_empty() {
        sketch.faces.push(Faces {
            triangles: meshes.swept.clone(),
            colour: COLOUR_B.with_alpha(0.12),
        });
    }
    if let Some(t) = shown.map(|t| t.clamp(0.0, 1.0)) {
        let b = meshes.pose_b;
        let turn = meshes
            .spin
            .map_or(DQuat::IDENTITY, |s| DQuat::from_scaled_axis(s * t));
        let moved = Pose::new(motion.at(t), turn * b.rotation);
        sketch.faces.push(Faces {
            triangles: triangles(&meshes.b_local, |p| moved.transform_point(p)),
            colour: COLOUR_B.with_alpha(0.35),
        });
    }
    if context.layers.difference && !meshes.swept_difference.is_empty() {
        let space = &context.space;
        let world: Vec<[DVec3; 3]> = (meshes.swept_difference.iter())
            .map(|t| t.map(|p| space.world_point(p)))
            .collect();
        sketch.faces.push(Faces {
            triangles: world,
            colour: COLOUR_DIFFERENCE.with_alpha(0.14),
        });
    }
}
