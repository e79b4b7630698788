//! A pair in focus that holds a composite (a triangle mesh, a height field, a compound):
//! each enabled method's answer on the whole pair through the midphase, the sub-pair in
//! focus (the nearest by default, or the one the user clicked) and that sub-pair as a
//! two-body convex scene, which every convex view (A ⊖ B, the simplex, EPA's polytope,
//! the plots, the playback, the narration) runs and draws. Without Bevy.

use std::time::Instant;

use crate::composite::{recording_nodes, run_composite, CompositeRun, VisitedNode};
use crate::scene::Scene;
use crate::solver::Method;

/// A sub-pair as a user picks it: the first composite's piece, and the second's piece
/// in a pair of two composites. Kept across poses (an index into the runs is not).
pub type PieceChoice = (u32, Option<u32>);

/// The whole-pair answers and the sub-pair in focus.
#[derive(Clone, Debug)]
pub struct CompositeView {
    /// Each enabled method's answer on the whole pair (without records), in the
    /// enabled order.
    pub runs: Vec<CompositeRun>,
    /// The index in `runs` of the focused method's answer: its sub-pairs are listed and
    /// its nodes recorded.
    pub focused: usize,
    /// The sub-pair in focus, an index into the focused answer's sub-pairs; `None` when
    /// it ran none (then the views show the hull, and say so).
    pub sub_pair: Option<usize>,
    /// The user chose a sub-pair that the focused method did not run at this pose (it
    /// was pruned): the nearest is shown instead.
    pub choice_not_run: Option<PieceChoice>,
    /// The sub-pair in focus as a scene of two convex bodies placed as in the whole.
    pub scene: Option<Scene>,
    /// The hierarchy nodes the focused method's query compared (the BVH layer).
    pub nodes: Vec<VisitedNode>,
    /// The body whose composite the sub-pairs name first (the frame of the nodes and
    /// contacts), and the other body.
    pub first_body: usize,
    pub second_body: usize,
    /// How long the whole-pair answers took, in microseconds (what a drag costs on top
    /// of the sub-pair's traced runs).
    pub micros: f64,
}

impl CompositeView {
    /// The answers of `enabled` on the scene's pair in focus (`None` when neither body
    /// is a composite), the sub-pair in focus the user's `choice` when the focused
    /// method ran it, else the nearest.
    pub fn solve(
        scene: &Scene,
        enabled: &[Method],
        focus: Method,
        choice: Option<PieceChoice>,
    ) -> Option<Self> {
        if !scene.focus_is_composite() {
            return None;
        }
        let start = Instant::now();
        let settings = scene.settings;
        let mut nodes = Vec::new();
        let runs: Vec<CompositeRun> = enabled
            .iter()
            .filter_map(|&m| {
                if m == focus {
                    // The focused method's answer keeps its nodes and lists the contacts
                    // with their internal edges (the scene's default margin).
                    let (run, visited) =
                        recording_nodes(|| scene.run_composite(m, settings, false, None));
                    nodes = visited;
                    run
                } else {
                    let motion = scene.relative_motion().ok().flatten();
                    Some(run_composite(
                        scene.a().side(),
                        scene.b().side(),
                        scene.b_in_a(),
                        motion,
                        m,
                        settings,
                        false,
                        None,
                    ))
                }
            })
            .collect();
        let focused = enabled.iter().position(|&m| m == focus).unwrap_or(0);
        let run = runs.get(focused)?;
        let chosen = choice.and_then(|(piece, other)| {
            run.answer
                .sub_pairs
                .iter()
                .position(|s| s.piece == piece && s.other == other)
        });
        let sub_pair = chosen.or(run.answer.nearest).or_else(|| {
            // No nearest (nothing certified): the first ranked, if any ran.
            run.ranked().first().copied()
        });
        let sub_scene = sub_pair.and_then(|k| scene.sub_pair_scene(run, k));
        let (a, b) = scene.pairs[0];
        let (first_body, second_body) = if run.swapped { (b, a) } else { (a, b) };
        Some(Self {
            choice_not_run: choice.filter(|_| chosen.is_none()),
            focused,
            sub_pair,
            scene: sub_scene,
            nodes,
            first_body,
            second_body,
            micros: start.elapsed().as_secs_f64() * 1e6,
            runs,
        })
    }

    /// The focused method's answer on the whole pair.
    pub fn focused_run(&self) -> &CompositeRun {
        &self.runs[self.focused]
    }

    /// The sub-pair in focus as the user picks it.
    pub fn focused_choice(&self) -> Option<PieceChoice> {
        let sub = self.focused_run().answer.sub_pairs.get(self.sub_pair?)?;
        Some((sub.piece, sub.other))
    }

    /// A method's answer on the whole pair.
    pub fn run_of(&self, method: Method) -> Option<&CompositeRun> {
        self.runs.iter().find(|r| r.method == method)
    }
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use super::*;
    use crate::app::model::{Side, ViewerModel};
    use crate::composite::midphase::bracket;
    use crate::pose::Pose;
    use crate::shape::Shape;
    use glam::DVec3;

    fn model(name: &str) -> ViewerModel {
        let path = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("scenes/meshes")
            .join(name);
        ViewerModel::new(Scene::load(&path).unwrap())
    }

    /// The ball in the bowl: the whole answer is the mesh's (apart, though the hull
    /// would hold the ball), the nearest triangle is in focus, and the runs every view
    /// shows are that triangle's and the ball's, with the whole answer's distance.
    #[test]
    fn the_nearest_sub_pair_is_in_focus_and_the_views_run_on_it() {
        let m = model("ball_in_bowl.ron");
        let view = m.composite().expect("a composite pair");
        let whole = view.focused_run();
        assert_eq!(whole.method, m.focus());
        assert!(
            matches!(
                whole.answer.outcome,
                crate::solver::Outcome::Separated { .. }
            ),
            "{}",
            whole.answer.outcome
        );
        assert!(whole.answer.nodes_pruned > 0 && !view.nodes.is_empty());
        assert_eq!(view.nodes.len(), whole.answer.nodes_visited);
        assert_eq!(view.sub_pair, whole.answer.nearest);
        // The views run on the triangle: A is a flat polytope of three points.
        let pair = m.pair_scene();
        assert!(matches!(&pair.a().shape, Shape::Polytope(p) if p.vertices().len() == 3));
        assert!(pair.a().composite.is_none() && pair.b().composite.is_none());
        let d = m
            .focused_run()
            .unwrap()
            .run
            .summary
            .outcome
            .distance()
            .unwrap();
        assert!(
            (d - whole.answer.upper).abs() < 1e-9,
            "{d} vs {}",
            whole.answer.upper
        );
        assert!(m.step_count() > 1, "the triangle's run has records");
        // Every enabled method has its whole answer.
        assert_eq!(view.runs.len(), m.enabled().len());
    }

    /// A click on another sub-pair puts it in focus; the choice follows the piece across
    /// a drag, and "follow the nearest" gives the focus back to the answer.
    #[test]
    fn a_chosen_sub_pair_stays_in_focus_across_a_drag() {
        // The box sunk across the floor's internal edges: several sub-pairs overlap (a ball
        // in the bowl runs only its nearest triangle now that the search starts there).
        let mut m = model("box_on_triangulated_floor.ron");
        let view = m.composite().unwrap();
        let run = view.focused_run();
        let ranked = run.ranked();
        assert!(ranked.len() > 1);
        let other = &run.answer.sub_pairs[ranked[1]];
        let choice = (other.piece, other.other);
        let expected = bracket(&other.run.summary.outcome).1;
        m.set_sub_pair(Some(choice));
        m.solve();
        assert_eq!(m.composite().unwrap().focused_choice(), Some(choice));
        let d = |m: &ViewerModel| bracket(&m.focused_run().unwrap().run.summary.outcome).1;
        assert!((d(&m) - expected).abs() < 1e-9);
        // A small drag of the box: the same triangle stays in focus.
        let ball = m.side(Side::B);
        let pose = m.body(ball).pose;
        let shape_revision = m.shape_revision;
        m.set_pose(
            ball,
            Pose::new(
                pose.translation + DVec3::new(0.002, 0.0, 0.0),
                pose.rotation,
            ),
        )
        .unwrap();
        m.solve();
        assert_eq!(m.composite().unwrap().focused_choice(), Some(choice));
        assert_eq!(m.shape_revision, shape_revision, "a drag rebuilds no mesh");
        m.set_sub_pair(None);
        m.solve();
        let view = m.composite().unwrap();
        assert_eq!(view.sub_pair, view.focused_run().answer.nearest);
    }

    /// The box on the triangulated floor: contacts on internal edges, ghosts among them,
    /// each with parry's and Jolt's corrections; EPA in focus measures the triangle's
    /// depth.
    #[test]
    fn the_floor_shows_ghost_contacts_and_epa_on_a_triangle() {
        let m = model("box_on_triangulated_floor.ron");
        assert_eq!(m.focus(), Method::epa());
        let view = m.composite().unwrap();
        let run = view.focused_run();
        assert!(run.contacts.len() >= 2, "{:?}", run.contacts.len());
        let ghosts: Vec<_> = run
            .contacts
            .iter()
            .filter_map(|c| c.edges.as_ref())
            .filter(|e| !e.in_cone)
            .collect();
        assert!(!ghosts.is_empty());
        for e in ghosts {
            // The floor's normal is +y in the world (the floor is unturned).
            assert!((e.jolt_active_edges - DVec3::Y).length() < 1e-6, "{e:?}");
        }
        let outcome = &m.focused_run().unwrap().run.summary.outcome;
        assert!(
            matches!(outcome, crate::solver::Outcome::Penetrating { .. }),
            "{outcome}"
        );
        let drawing = crate::app::draw::composite::composite_drawing(&m);
        assert_eq!(drawing.focused_outline.len(), 3, "the triangle in focus");
        assert_eq!(drawing.contact_points.len(), run.contacts.len());
        assert!(drawing
            .arrows
            .iter()
            .any(|a| a.color == crate::app::draw::composite::COLOR_GHOST));
        assert!(!drawing.boxes.is_empty());
    }

    /// A convex pair has no composite view and runs on the scene itself.
    #[test]
    fn a_convex_pair_runs_on_the_scene() {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("scenes/ellipsoids_close.ron");
        let m = ViewerModel::new(Scene::load(&path).unwrap());
        assert!(m.composite().is_none());
        assert!(std::ptr::eq(m.pair_scene(), &m.scene));
    }
}
