//! A scene's pair with a composite (a mesh taken as triangles, a height field, a
//! compound): the whole query through the midphase, its report, and one sub-pair as a
//! scene of its own, so that every convex view (A ⊖ B, the simplex, EPA's polytope, the
//! plots) works on the triangle or part that makes the answer.

use glam::DVec3;

use super::{Body, Scene, ShapeSpec};
use crate::composite::internal_edges::EdgeReport;
use crate::composite::{run_composite, Composite, CompositeRun, Side};
use crate::pose::Pose;
use crate::solver::{Method, SolverSettings};

impl Body {
    /// The body as one side of a pair: its composite, or its convex shape.
    pub fn side(&self) -> Side<'_> {
        match &self.composite {
            Some(c) => Side::Composite(c),
            None => Side::Convex(&self.shape),
        }
    }
}

/// The default margin within which contacts on a mesh are listed with their internal
/// edges: 1 % of the convex body's size (engines' prediction distances are of that
/// order: rapier's default is 0.002 for unit-sized bodies).
pub const CONTACT_MARGIN_FRACTION: f64 = 0.01;

impl Scene {
    /// Whether a body of the pair in focus is a composite (its answer is the midphase's).
    pub fn focus_is_composite(&self) -> bool {
        self.a().composite.is_some() || self.b().composite.is_some()
    }

    /// Runs `method` on the pair in focus through the midphase, when a body of it is a
    /// composite (`None` otherwise), with records of every sub-pair's run when `traced`;
    /// contacts on a mesh within `contact_margin` (default: 1 % of the convex body's
    /// size, or of the smaller composite's between two) are listed with their
    /// internal-edge reports.
    pub fn run_composite(
        &self,
        method: impl Into<Method>,
        settings: SolverSettings,
        traced: bool,
        contact_margin: Option<f64>,
    ) -> Option<CompositeRun> {
        if !self.focus_is_composite() {
            return None;
        }
        let method = method.into();
        let motion = self.relative_motion().ok().flatten();
        let margin = contact_margin.unwrap_or_else(|| {
            // The convex body's size; between two composites, the smaller one's hull.
            let size = [self.a(), self.b()]
                .into_iter()
                .find(|b| b.composite.is_none())
                .map_or_else(
                    || self.a().shape.extent().min(self.b().shape.extent()),
                    |b| b.shape.extent(),
                );
            CONTACT_MARGIN_FRACTION * size
        });
        Some(run_composite(
            self.a().side(),
            self.b().side(),
            self.b_in_a(),
            motion,
            method,
            settings,
            traced,
            Some(margin),
        ))
    }

    /// The composite whose pieces a run's sub-pairs name first, its body's index, and
    /// the other body's.
    fn composite_sides(&self, run: &CompositeRun) -> (usize, usize) {
        let (a, b) = self.pairs[0];
        if run.swapped {
            (b, a)
        } else {
            (a, b)
        }
    }

    /// Sub-pair `k` of `run` as a scene of two convex bodies placed where they are in
    /// this scene: the triangle or part (and the other's piece in a composite pair), with
    /// the scene's methods and settings. Every convex view works on it.
    pub fn sub_pair_scene(&self, run: &CompositeRun, k: usize) -> Option<Scene> {
        let sub = run.answer.sub_pairs.get(k)?;
        let (first, second) = self.composite_sides(run);
        let piece_a = piece_body(&self.bodies[first], sub.piece)?;
        let piece_b = match sub.other {
            Some(j) => piece_body(&self.bodies[second], j)?,
            None => self.bodies[second].clone(),
        };
        // Keep the scene's order: A's piece first.
        let (a, b) = if run.swapped {
            (piece_b, piece_a)
        } else {
            (piece_a, piece_b)
        };
        let mut scene = Scene::of_pair(
            format!("{} · {}", self.name, self.sub_pair_name(run, k)),
            format!(
                "Sub-pair of \"{}\": {}, as the midphase ran it.",
                self.name,
                self.sub_pair_name(run, k)
            ),
            a,
            b,
        );
        scene.methods = self.methods.clone();
        scene.settings = self.settings;
        scene.base_dir = self.base_dir.clone();
        Some(scene)
    }

    /// "triangle 12", "triangle 3 · triangle 40", "part 2 · sphere" as the lists say it.
    pub fn sub_pair_name(&self, run: &CompositeRun, k: usize) -> String {
        let Some(sub) = run.answer.sub_pairs.get(k) else {
            return String::new();
        };
        let (first, second) = self.composite_sides(run);
        let name = |body: usize, piece: u32| {
            self.bodies[body]
                .composite
                .as_ref()
                .map_or_else(|| format!("piece {piece}"), |c| c.piece_name(piece))
        };
        let mine = name(first, sub.piece);
        match sub.other {
            Some(j) => format!("{mine} · {}", name(second, j)),
            None => mine,
        }
    }

    /// A composite run as `solve --json` and the Python package report it: the outcome,
    /// its certified bracket (lower bound rounded down, upper up), the nearest sub-pair
    /// by name, the nodes and sub-pairs visited, every sub-pair nearest first with its
    /// own report, and the contacts with their internal edges (world coordinates).
    pub fn composite_report(&self, run: &CompositeRun, with_traces: bool) -> serde_json::Value {
        let answer = &run.answer;
        let (first, second) = self.composite_sides(run);
        let composite: &Composite = self.bodies[first].composite.as_deref().expect("composite");
        let frame = self.bodies[first].pose;
        let world_point = |p: DVec3| frame.transform_point(p);
        let world_vector = |v: DVec3| frame.transform_vector(v);
        let sub_pairs: Vec<serde_json::Value> = run
            .ranked()
            .into_iter()
            .map(|k| {
                let sub = &answer.sub_pairs[k];
                let s = &sub.run.summary;
                let mut value = serde_json::json!({
                    "index": k,
                    "name": self.sub_pair_name(run, k),
                    "piece": composite.engine_id(sub.piece),
                    "other_piece": sub.other,
                    "algorithm": sub.run.method.name(),
                    "outcome": s.outcome,
                    "status": s.outcome.status_name(),
                    "distance": s.outcome.signed_distance(),
                    "iterations": s.iterations,
                    "support_calls": s.stats.calls,
                });
                if with_traces {
                    value["trace"] = serde_json::to_value(&sub.run.trace).unwrap_or_default();
                }
                value
            })
            .collect();
        let other_body = &self.bodies[second];
        let contacts: Vec<serde_json::Value> = run
            .contacts
            .iter()
            .map(|c| {
                let edges = c.edges.as_ref().map(|e| edges_report(e, &world_vector));
                let other = c.other.as_ref().map(|o| {
                    let other_composite = other_body.composite.as_deref();
                    let turn = |v: DVec3| other_body.pose.transform_vector(v);
                    serde_json::json!({
                        "piece": other_composite.map(|k| k.engine_id(o.piece)),
                        "name": other_composite.map(|k| k.piece_name(o.piece)),
                        "point_world": world_point(o.point).to_array(),
                        "edges": o.edges.as_ref().map(|e| edges_report(e, &turn)),
                        "jolt_enhanced_removal_keeps": o.jolt_kept,
                    })
                });
                serde_json::json!({
                    "piece": composite.engine_id(c.piece),
                    "name": composite.piece_name(c.piece),
                    "point_world": world_point(c.point).to_array(),
                    "normal_world": world_vector(c.normal).to_array(),
                    "gap": c.gap,
                    "edges": edges,
                    "jolt_enhanced_removal_keeps": c.jolt_kept,
                    "other": other,
                })
            })
            .collect();
        serde_json::json!({
            "algorithm": run.method.name(),
            "composite": composite.describe(),
            "outcome": answer.outcome,
            "status": answer.outcome.status_name(),
            "distance": answer.outcome.signed_distance(),
            "lower_bound": answer.lower,
            "upper_bound": answer.upper.is_finite().then_some(answer.upper),
            "nearest": answer.nearest.map(|k| self.sub_pair_name(run, k)),
            "nodes_visited": answer.nodes_visited,
            "nodes_pruned": answer.nodes_pruned,
            "hull_floor": answer.hull_floor,
            "sub_pairs_run": answer.sub_pairs.len(),
            "pieces": composite.pieces().count(),
            "sub_pairs": sub_pairs,
            "contacts": contacts,
        })
    }
}

/// A contact's internal-edge report as JSON, its vectors turned into the world by `turn`.
fn edges_report(e: &EdgeReport, turn: &impl Fn(DVec3) -> DVec3) -> serde_json::Value {
    serde_json::json!({
        "triangle": e.triangle,
        "feature": e.feature.to_string(),
        "face_normal": turn(e.face_normal).to_array(),
        "contact_normal": turn(e.contact_normal).to_array(),
        "cone": e.cone.kind(),
        "cone_normals": e.cone.normals().iter().map(|n| turn(*n).to_array()).collect::<Vec<_>>(),
        "in_cone": e.in_cone,
        "ghost": !e.in_cone,
        "parry_fix_internal_edges": e.parry_fixed.map(|n| turn(n).to_array()),
        "jolt_active_edges": turn(e.jolt_active_edges).to_array(),
    })
}

/// Piece `i` of `body`'s composite as a convex body at its place in the world: a
/// triangle as a polytope of its three corners, a part as its shape at its pose.
fn piece_body(body: &Body, i: u32) -> Option<Body> {
    let composite = body.composite.as_ref()?;
    let (shape, pose) = composite.tree().piece(i as usize)?;
    let spec = match (&body.spec, composite.triangle(i)) {
        (_, Some(corners)) => ShapeSpec::hull_of(corners.map(|p| p.to_array()).to_vec()),
        (ShapeSpec::Compound { parts }, None) => parts.get(i as usize)?.shape.clone(),
        _ => return None,
    };
    let world = match pose {
        Some(p) => body
            .pose
            .then_local(&Pose::from_matrix(p.translation, p.rotation)),
        None => body.pose,
    };
    Some(Body {
        name: Some(format!(
            "{} {}",
            body.name.as_deref().unwrap_or("body"),
            composite.piece_name(i)
        )),
        spec,
        shape: shape.into_owned(),
        composite: None,
        pose: world,
        mesh_report: None,
        velocity: body.velocity,
        spin: body.spin,
    })
}
