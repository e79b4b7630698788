//! What a web page holds: the bodies and `A ⊖ B` as triangles in world coordinates,
//! and every run with each step's narration, picture and plotted values. Coordinates
//! are stored as `f32` (the canvas draws in single precision, as the viewer's GPU
//! does) and colours as indices into one palette, so a page stays small.

use glam::DVec3;
use serde::Serialize;

use crate::scene::Scene;
use crate::sketch::{
    bounding_box, copy_colour, step_sketch, toi_sketch, Construction, DifferenceSpace, Framing,
    Layers, Mark, Motion, Rgba, Sketch, SketchContext, COLOUR_A, COLOUR_B, COLOUR_DIFFERENCE,
    COLOUR_OTHER,
};
use crate::solver::{Method, Run};
use crate::tessellate::{body_mesh, difference_mesh, TriMesh};

/// What the page says it is: a replay, not the tool.
pub const REPLAY_NOTICE: &str = "This page replays runs recorded by Collidescope: \
     stepping, the camera and the plots work here; dragging a shape and solving again \
     need the tool (collidescope view SCENE).";

/// A page's data (the JSON block the page's script reads).
#[derive(Serialize, Default)]
pub struct PageData {
    pub title: String,
    pub notes: String,
    pub replay: &'static str,
    /// The scene as a file (RON, poses to the bit): what a reader needs to reproduce
    /// the case with the tool or an engine.
    pub scene: String,
    /// The colours the marks and meshes refer to by index (sRGB and alpha, 0 to 1).
    pub palette: Vec<[f32; 4]>,
    /// The bodies' triangles in world coordinates (their colour is the pair's).
    pub bodies: Vec<MeshData>,
    pub pairs: Vec<PairData>,
    pub runs: Vec<RunData>,
    /// A lesson's pages and questions.
    pub lesson: Option<LessonData>,
    /// A planar scene: the view looks down −z with y up, as the viewer's does, and does
    /// not orbit.
    pub planar: bool,
}

/// A pair in focus: the bodies' colours (A's and B's, the others grey), `A ⊖ B` where
/// it is drawn, and the spheres the camera frames.
#[derive(Serialize)]
pub struct PairData {
    pub name: String,
    pub body_colours: Vec<usize>,
    pub difference: Option<MeshData>,
    /// Where O, the origin of `A ⊖ B`, is drawn.
    pub origin: [f32; 3],
    /// The sphere round everything drawn, and its box `[min, max]`: "frame all" fits
    /// the box in the view, as the viewer does.
    pub frame_all: [f32; 4],
    pub box_all: [[f32; 3]; 2],
    /// The shapes' box alone: "frame all" when `A ⊖ B` is hidden.
    pub box_shapes: [[f32; 3]; 2],
    /// The sphere round `A ⊖ B` and O: a lesson's "frame difference".
    pub frame_difference: [f32; 4],
    /// The construction of `A ⊖ B`, when a lesson's page shows it.
    pub construction: Option<ConstructionData>,
}

/// The construction of `A ⊖ B` as the page animates it ([`Construction`]): where each
/// copy of −B goes (world), −B's edges as offsets from there (world directions), the
/// colours of the newest copy and of the others, and the seconds between two copies.
#[derive(Serialize)]
pub struct ConstructionData {
    pub points: Vec<[f32; 3]>,
    pub edges: Vec<[[f32; 3]; 2]>,
    pub newest: usize,
    pub older: usize,
    pub step_seconds: f64,
    pub pause_steps: usize,
}

/// A run's whole-run notes (see [`RunData::notes`]).
#[derive(Serialize, Default)]
pub struct RunNotes {
    pub causes: Vec<(String, Option<usize>)>,
    pub checks: Vec<String>,
    pub supports: Option<String>,
}

impl RunNotes {
    /// The notes of `run`, made on `scene`'s pair in focus.
    fn of(run: &Run, scene: &Scene) -> RunNotes {
        let (a, b) = (&scene.a().shape, &scene.b().shape);
        let mut notes = RunNotes::default();
        if run.method.entry::<crate::solver::Algorithm>().is_none() {
            return notes;
        }
        if scene.settings.supports == crate::solver::SupportRule::Coal {
            notes.supports = Some(crate::solver::distance::coal_replay::describe(a, b));
        }
        let explained = crate::solver::distance::explain::explain_with_checks(run, Some((a, b)));
        if explained.causes.is_empty() {
            notes.checks = explained.checks.iter().map(|c| c.to_string()).collect();
        }
        notes.causes = (explained.causes.iter())
            .map(|c| (c.to_string(), c.steps.first().copied()))
            .collect();
        notes
    }
}

/// A lesson: its pages (each a text over a run at a step) and its questions.
#[derive(Serialize, Default)]
pub struct LessonData {
    pub pages: Vec<LessonPage>,
    pub questions: Vec<Vec<TextSpan>>,
}

/// A run of a lesson's text with its style (the markup of [`crate::lesson_markup`]):
/// `(text, bold, code, script)`, script 0 normal, 1 subscript, 2 superscript. The page
/// builds `<strong>`, `<code>`, `<sub>` and `<sup>` elements holding the text.
pub type TextSpan = (String, bool, bool, u8);

/// `text`'s markup as styled runs.
pub fn text_spans(text: &str) -> Vec<TextSpan> {
    use crate::lesson_markup::{spans, Script};
    spans(text)
        .into_iter()
        .map(|s| {
            let script = match s.script {
                Script::Normal => 0,
                Script::Sub => 1,
                Script::Super => 2,
            };
            (s.text, s.bold, s.code, script)
        })
        .collect()
}

/// One page of a lesson as the viewer shows it: the run in focus (an index into the
/// page's runs) at `cursor`, the runs plotted, what is shown, and the camera.
#[derive(Serialize)]
pub struct LessonPage {
    pub text: Vec<TextSpan>,
    pub run: usize,
    pub plotted: Vec<usize>,
    pub cursor: usize,
    pub shapes: bool,
    pub difference: bool,
    /// Whether O is named: when anything is drawn in `A ⊖ B`'s space, as the viewer
    /// does.
    pub origin: bool,
    pub plots: bool,
    /// `[eye, target]` when the page places the camera.
    pub camera: Option<[[f32; 3]; 2]>,
    /// "all", "step", "newest" or "difference" when the page frames one.
    pub frame: Option<&'static str>,
    /// Layers the page shows that only the desktop viewer draws so far (said on the
    /// page).
    pub viewer_only: Vec<&'static str>,
    /// The construction of `A ⊖ B` animated (its pair's [`ConstructionData`]).
    pub construction: bool,
}

/// Triangles in world coordinates, with the edges worth drawing.
#[derive(Serialize)]
pub struct MeshData {
    pub name: String,
    /// The colour (`None`: the pair's colour for the body).
    pub colour: Option<usize>,
    pub vertices: Vec<[f32; 3]>,
    pub triangles: Vec<[u32; 3]>,
    pub edges: Vec<[u32; 2]>,
}

/// One run: the pair it ran on, its method, verdict and steps.
#[derive(Serialize)]
pub struct RunData {
    pub pair: usize,
    pub method: &'static str,
    pub label: &'static str,
    pub family: &'static str,
    pub colour: [u8; 3],
    pub verdict: String,
    /// What the plot's value per step is (the family's residual).
    pub residual: &'static str,
    /// What the run's bounds are (the bounds plot's curves and axis): `[upper, lower,
    /// axis]`, as the viewer's linear plot names them.
    pub bounds: [&'static str; 3],
    /// The tolerance the run's residual is tested against (the plot's ε line), when
    /// the scene sets one.
    pub tolerance: Option<f64>,
    /// Why the run was slow, as the viewer's playback panel says it on a scene (not in a
    /// lesson): each cause with the first step that shows it; with no cause named, what
    /// each test measured; and how supports were taken when Coal's rule replays them.
    pub notes: RunNotes,
    /// Every point the run's pictures mark, once: the pictures refer to them by index
    /// (a Frank-Wolfe path is drawn again at every step).
    pub points: Vec<[f32; 3]>,
    /// The pictures' sets of faces `[colour, p, q, r, …]` (points by index), each once:
    /// a picture's `faces` are indices into them.
    pub face_sets: Vec<Vec<u32>>,
    pub steps: Vec<StepData>,
}

/// One step: its number k, its narration, its plotted values and its picture.
#[derive(Serialize)]
pub struct StepData {
    pub k: usize,
    pub text: String,
    pub residual: Option<f64>,
    pub upper: Option<f64>,
    pub lower: Option<f64>,
    pub picture: Option<Picture>,
}

/// A step's [`Sketch`] in the page's compact form, points as indices into the run's
/// `points` and colours into the palette: lines `[p, q, colour]`, markers `[p, size,
/// colour]`, arrows as lines, strips `[colour, p, …]`, labels `[p, colour, text]`, faces
/// as indices into the run's `face_sets`, and the spheres "frame step" and "frame newest" close in on
/// `[x, y, z, r]`.
#[derive(Serialize, Default)]
pub struct Picture {
    pub lines: Vec<[u32; 3]>,
    pub markers: Vec<(u32, f32, u32)>,
    pub arrows: Vec<[u32; 3]>,
    pub strips: Vec<Vec<u32>>,
    pub labels: Vec<(u32, u32, String)>,
    pub faces: Vec<u32>,
    pub step: [f32; 4],
    pub newest: Option<[f32; 4]>,
}

/// A run's points, each stored once.
#[derive(Default)]
struct Points {
    list: Vec<[f32; 3]>,
    index: std::collections::HashMap<[u32; 3], u32>,
    /// Sets of faces `[colour, p, q, r, …]`, each stored once: a swept region is the
    /// same at every step of a time of impact.
    face_sets: Vec<Vec<u32>>,
    face_index: std::collections::HashMap<Vec<u32>, u32>,
}

impl Points {
    fn of(&mut self, p: DVec3) -> u32 {
        let v = f(p);
        let key = v.map(f32::to_bits);
        if let Some(i) = self.index.get(&key) {
            return *i;
        }
        self.list.push(v);
        let i = (self.list.len() - 1) as u32;
        self.index.insert(key, i);
        i
    }

    fn face_set(&mut self, list: Vec<u32>) -> u32 {
        if let Some(i) = self.face_index.get(&list) {
            return *i;
        }
        let i = self.face_sets.len() as u32;
        self.face_sets.push(list.clone());
        self.face_index.insert(list, i);
        i
    }
}

/// Colours by index, each stored once.
#[derive(Default)]
struct Palette(Vec<[f32; 4]>);

impl Palette {
    fn index(&mut self, c: Rgba) -> usize {
        let c = c.0;
        match self.0.iter().position(|p| *p == c) {
            Some(i) => i,
            None => {
                self.0.push(c);
                self.0.len() - 1
            }
        }
    }
}

fn f(p: DVec3) -> [f32; 3] {
    p.as_vec3().to_array()
}

/// The sphere round a framing (as the viewer frames it), `[x, y, z, r]`.
fn sphere(framing: &Framing) -> [f32; 4] {
    let (centre, radius) = framing.sphere();
    let [x, y, z] = f(centre);
    [x, y, z, radius as f32]
}

fn picture(sketch: &Sketch, palette: &mut Palette, points: &mut Points) -> Picture {
    let mut out = Picture::default();
    let mut colour = |c: Rgba| palette.index(c) as u32;
    for mark in &sketch.marks {
        match mark {
            Mark::Line {
                from,
                to,
                colour: c,
            } => {
                out.lines
                    .push([points.of(*from), points.of(*to), colour(*c)]);
            }
            Mark::Arrow {
                from,
                to,
                colour: c,
            } => {
                out.arrows
                    .push([points.of(*from), points.of(*to), colour(*c)]);
            }
            Mark::Strip {
                points: list,
                colour: c,
            } => {
                let mut strip = vec![colour(*c)];
                strip.extend(list.iter().map(|p| points.of(*p)));
                out.strips.push(strip);
            }
            Mark::Marker {
                at,
                size,
                colour: c,
            } => {
                out.markers.push((points.of(*at), *size as f32, colour(*c)));
            }
        }
    }
    for label in &sketch.labels {
        out.labels.push((
            points.of(label.at),
            colour(label.colour),
            label.text.clone(),
        ));
    }
    for faces in &sketch.faces {
        let mut list = vec![colour(faces.colour)];
        list.extend(faces.triangles.iter().flatten().map(|p| points.of(*p)));
        out.faces.push(points.face_set(list));
    }
    out.step = sphere(&sketch.step);
    out.newest = sketch.newest.as_ref().map(sphere);
    out
}

fn mesh(
    name: String,
    tri: &TriMesh,
    colour: Option<usize>,
    place: impl Fn(DVec3) -> DVec3,
) -> MeshData {
    MeshData {
        name,
        colour,
        vertices: tri.vertices.iter().map(|v| f(place(*v))).collect(),
        triangles: tri.triangles.clone(),
        edges: tri.edges.clone(),
    }
}

/// What a step picture of a pair is drawn in, and how to place its `A ⊖ B`.
#[derive(Clone, Copy)]
pub struct PairPlacement {
    /// `A ⊖ B` at the world origin instead of beside the shapes.
    pub in_place: bool,
}

/// Builds a page's data: the bodies once, then pairs and runs as they are added, each
/// colour stored once.
pub struct PageBuilder {
    data: PageData,
    palette: Palette,
    contexts: Vec<SketchContext>,
    /// Each pair's motion, when B moves (the time of impact's pictures).
    motions: Vec<Option<Motion>>,
    /// Each pair's tolerance (its scene's settings).
    tolerances: Vec<f64>,
    pair_keys: Vec<((usize, usize), bool)>,
}

impl PageBuilder {
    /// A page of `scene`'s bodies (at their poses now), titled with its name.
    pub fn new(scene: &Scene) -> Self {
        let bodies = scene
            .bodies
            .iter()
            .enumerate()
            .map(|(i, body)| {
                mesh(scene.body_label(i), &body_mesh(body), None, |p| {
                    body.pose.transform_point(p)
                })
            })
            .collect();
        PageBuilder {
            data: PageData {
                title: scene.name.clone(),
                notes: scene.notes.clone(),
                replay: REPLAY_NOTICE,
                scene: scene.to_file().to_ron().unwrap_or_default(),
                planar: scene.dimension == crate::scene::Dimension::Planar,
                bodies,
                ..PageData::default()
            },
            palette: Palette::default(),
            contexts: Vec::new(),
            motions: Vec::new(),
            tolerances: Vec::new(),
            pair_keys: Vec::new(),
        }
    }

    /// The pair in focus of `scene` (its bodies as at [`PageBuilder::new`]), added once
    /// per placement: its index.
    pub fn pair(&mut self, scene: &Scene, placement: PairPlacement) -> usize {
        let key = (scene.pairs[0], placement.in_place);
        if let Some(i) = self.pair_keys.iter().position(|k| *k == key) {
            return i;
        }
        let (focus_a, focus_b) = scene.pairs[0];
        let body_colours = (0..scene.bodies.len())
            .map(|i| {
                // The viewer's translucency: the pair's shapes 0.45, the others 0.35.
                let colour = if i == focus_a {
                    COLOUR_A.with_alpha(0.45)
                } else if i == focus_b {
                    COLOUR_B.with_alpha(0.45)
                } else {
                    COLOUR_OTHER.with_alpha(0.35)
                };
                self.palette.index(colour)
            })
            .collect();
        self.pair_coloured(scene, placement, body_colours, key)
    }

    /// A composite pair of `whole` (a mesh taken as triangles, a height field, a
    /// compound) through its sub-pair `sub` (the midphase's, as a scene of two convex
    /// bodies): the composite bodies drawn faint in their colour, the sub-pair's pieces
    /// added as bodies of their own in the pair's colours (the piece in focus), and the
    /// sub-pair's `A ⊖ B` and runs.
    pub fn composite_pair(&mut self, whole: &Scene, sub: &Scene, sub_name: &str) -> usize {
        let (focus_a, focus_b) = whole.pairs[0];
        let mut body_colours: Vec<usize> = Vec::new();
        for (i, body) in whole.bodies.iter().enumerate() {
            let base = if i == focus_a {
                COLOUR_A
            } else if i == focus_b {
                COLOUR_B
            } else {
                COLOUR_OTHER
            };
            let focused = i == focus_a || i == focus_b;
            let alpha = match (focused, body.composite.is_some()) {
                (true, true) => 0.2,
                (true, false) => 0.45,
                (false, _) => 0.35,
            };
            body_colours.push(self.palette.index(base.with_alpha(alpha)));
        }
        // The pieces in focus: a composite side's piece over its faint whole.
        for (k, (index, colour)) in [(focus_a, COLOUR_A), (focus_b, COLOUR_B)]
            .into_iter()
            .enumerate()
        {
            if whole.bodies[index].composite.is_none() {
                continue;
            }
            let piece = &sub.bodies[k];
            let name = format!("{} (in focus: {sub_name})", whole.body_label(index));
            self.data
                .bodies
                .push(mesh(name, &body_mesh(piece), None, |p| {
                    piece.pose.transform_point(p)
                }));
            body_colours.push(self.palette.index(colour.with_alpha(0.6)));
        }
        let key = ((usize::MAX, self.pair_keys.len()), false);
        self.pair_coloured(sub, PairPlacement { in_place: false }, body_colours, key)
    }

    fn pair_coloured(
        &mut self,
        scene: &Scene,
        placement: PairPlacement,
        body_colours: Vec<usize>,
        key: ((usize, usize), bool),
    ) -> usize {
        let (focus_a, focus_b) = scene.pairs[0];
        let (lo, hi) = bounding_box(
            self.data
                .bodies
                .iter()
                .flat_map(|m| m.vertices.iter())
                .map(|v| DVec3::from_array(v.map(f64::from))),
        );
        let (shapes_centre, shapes_radius) = if lo.x.is_finite() {
            ((lo + hi) * 0.5, (hi - lo).length() * 0.5)
        } else {
            (DVec3::ZERO, 1.0)
        };
        let (a, b) = (&scene.a().shape, &scene.b().shape);
        let tri = difference_mesh(a, b, &scene.b_in_a());
        let radius = tri
            .vertices
            .iter()
            .map(|v| v.length())
            .fold(0.0f64, f64::max);
        // Beside the shapes along −x, far enough that the two never overlap (the
        // viewer's side view), or in place.
        let anchor = if placement.in_place {
            DVec3::ZERO
        } else {
            shapes_centre
                - DVec3::X * (shapes_radius + radius + 0.3 * (shapes_radius + radius).max(0.1))
        };
        let space = DifferenceSpace {
            anchor,
            rotation: scene.a().pose.rotation,
            radius,
        };
        let difference = (!tri.triangles.is_empty()).then(|| {
            mesh(
                format!("A ⊖ B{}", if tri.sampled { " (sampled)" } else { "" }),
                &tri,
                Some(self.palette.index(COLOUR_DIFFERENCE.with_alpha(0.28))),
                |w| space.world_point(w),
            )
        });
        let points = |m: &MeshData| -> Vec<DVec3> {
            m.vertices
                .iter()
                .map(|v| DVec3::from_array(v.map(f64::from)))
                .collect()
        };
        let difference_points: Vec<DVec3> = difference.iter().flat_map(points).collect();
        let all_points: Vec<DVec3> = self.data.bodies.iter().flat_map(points).collect();
        let frame_all = sphere(&Framing {
            points: all_points
                .iter()
                .chain(&difference_points)
                .copied()
                .chain([anchor])
                .collect(),
            min_radius: 1e-9,
            grown_to: Vec::new(),
        });
        let (shapes_lo, shapes_hi) = bounding_box(all_points.iter().copied());
        let (lo, hi) = bounding_box(
            all_points
                .iter()
                .chain(&difference_points)
                .copied()
                .chain([anchor]),
        );
        let frame_difference = sphere(&Framing {
            points: difference_points.into_iter().chain([anchor]).collect(),
            min_radius: 1e-6,
            grown_to: Vec::new(),
        });
        // The viewer's marker is 0.007 of the camera's distance; its first camera
        // stands about 2.6 radii off.
        self.motions.push(Motion::of(scene, true));
        self.tolerances.push(scene.settings.tolerance);
        self.contexts.push(SketchContext {
            layers: Layers::default(),
            space,
            pose_a: scene.a().pose,
            pose_b: scene.b().pose,
            marker: f64::from(frame_all[3]) * 2.6 * 0.007,
            planar: scene.dimension == crate::scene::Dimension::Planar,
        });
        self.data.pairs.push(PairData {
            name: format!(
                "{} and {}",
                scene.body_label(focus_a),
                scene.body_label(focus_b)
            ),
            body_colours,
            difference,
            origin: f(anchor),
            frame_all,
            box_all: [f(lo), f(hi)],
            box_shapes: [f(shapes_lo), f(shapes_hi)],
            frame_difference,
            construction: None,
        });
        self.pair_keys.push(key);
        self.data.pairs.len() - 1
    }

    /// The construction of `A ⊖ B` for pair `pair` (made from `scene`'s pair in focus),
    /// for the lesson pages that show it.
    pub fn construction(&mut self, pair: usize, scene: &Scene) {
        if self.data.pairs[pair].construction.is_some() {
            return;
        }
        let c = Construction::of(scene);
        let space = self.contexts[pair].space;
        let data = ConstructionData {
            points: c
                .points_of_a
                .iter()
                .map(|a| f(space.world_point(*a)))
                .collect(),
            edges: (c.minus_b.iter())
                .map(|e| e.map(|p| f(space.world_direction(p))))
                .collect(),
            newest: self.palette.index(copy_colour(true)),
            older: self.palette.index(copy_colour(false)),
            step_seconds: crate::sketch::construction::STEP_SECONDS,
            pause_steps: crate::sketch::construction::PAUSE_STEPS,
        };
        self.data.pairs[pair].construction = Some(data);
    }

    /// `run`, made on pair `pair`, its pictures drawn with `layers`: its index.
    pub fn run(&mut self, pair: usize, run: &Run, layers: Layers) -> usize {
        let context = SketchContext {
            layers,
            ..self.contexts[pair]
        };
        let motion = self.motions[pair].as_ref();
        let tolerance = self.tolerances[pair];
        let data = run_data(pair, run, &context, (motion, tolerance), &mut self.palette);
        self.data.runs.push(data);
        self.data.runs.len() - 1
    }

    /// The finished page's data.
    pub fn finish(mut self, lesson: Option<LessonData>) -> PageData {
        self.data.palette = self.palette.0;
        self.data.lesson = lesson;
        self.data
    }
}

/// The scene's pair in focus, run with `methods` (the scene's own when empty), as a
/// page's data. `A ⊖ B` is drawn beside the shapes, as the viewer draws it by default.
pub fn scene_data(scene: &Scene, methods: &[Method]) -> Result<PageData, String> {
    let mut methods = if methods.is_empty() {
        scene.methods.clone()
    } else {
        methods.to_vec()
    };
    // A method named twice is run once.
    let mut seen = Vec::new();
    methods.retain(|m| {
        let new = !seen.contains(m);
        seen.push(*m);
        new
    });
    if methods.is_empty() {
        return Err("the scene names no algorithm: give one with -a NAME".to_string());
    }
    if scene.focus_is_composite() {
        return composite_scene_data(scene, &methods);
    }
    let mut page = PageBuilder::new(scene);
    let pair = page.pair(scene, PairPlacement { in_place: false });
    for method in &methods {
        let run = scene.run(*method);
        let index = page.run(pair, &run, Layers::default());
        page.data.runs[index].notes = RunNotes::of(&run, scene);
    }
    Ok(page.finish(None))
}

/// A pair with a composite, as the viewer shows it: each method's answer on the whole
/// pair through the midphase (in the page's notes, with the sub-pair that makes it and
/// the hierarchy's work), and the first method's sub-pair in focus (the nearest, or the
/// first ranked when none is certified) with every method's steps on it.
fn composite_scene_data(scene: &Scene, methods: &[Method]) -> Result<PageData, String> {
    use crate::printed_bound::{Above, Below};
    let wholes: Vec<_> = (methods.iter())
        .filter_map(|m| scene.run_composite(*m, scene.settings, false, None))
        .collect();
    let focused = wholes
        .first()
        .ok_or("the pair in focus has no composite answer")?;
    let k = (focused.answer.nearest)
        .or_else(|| focused.ranked().first().copied())
        .ok_or_else(|| {
            format!(
                "{}: the midphase ran no sub-pair ({}), so there are no steps to replay",
                focused.method.name(),
                focused.answer.outcome
            )
        })?;
    let sub = scene
        .sub_pair_scene(focused, k)
        .ok_or("the sub-pair in focus cannot be built as a scene")?;
    let sub_name = scene.sub_pair_name(focused, k);
    let mut notes = vec![scene.notes.clone()];
    for whole in &wholes {
        let a = &whole.answer;
        let mut line = format!(
            "{} on the whole pair through the midphase: {}",
            whole.method.label(),
            a.outcome
        );
        if let Some(n) = a.nearest {
            line.push_str(&format!(", made by {}", scene.sub_pair_name(whole, n)));
        }
        if a.upper.is_finite() && a.upper > 0.0 {
            line.push_str(&format!(
                "; the distance lies in [{:.9e}, {:.9e}]",
                Below(a.lower),
                Above(a.upper)
            ));
        }
        line.push_str(&format!(
            "; {} hierarchy nodes visited ({} pruned), {} sub-pairs run.",
            a.nodes_visited,
            a.nodes_pruned,
            a.sub_pairs.len()
        ));
        notes.push(line);
    }
    notes.push(format!(
        "The steps below are each method's on {sub_name}, the sub-pair in focus (the \
         first method's{}), as the viewer shows them; the other sub-pairs, the hierarchy \
         and the internal edges are drawn only by the desktop viewer so far.",
        if focused.answer.nearest == Some(k) {
            " nearest"
        } else {
            " first ranked: none is certified nearest"
        }
    ));
    let mut page = PageBuilder::new(scene);
    page.data.notes = notes.join("\n");
    let pair = page.composite_pair(scene, &sub, &sub_name);
    for method in methods {
        let run = sub.run(*method);
        page.run(pair, &run, Layers::default());
    }
    Ok(page.finish(None))
}

fn finite(x: f64) -> Option<f64> {
    x.is_finite().then_some(x)
}

fn run_data(
    pair: usize,
    run: &Run,
    context: &SketchContext,
    (motion, tolerance): (Option<&Motion>, f64),
    palette: &mut Palette,
) -> RunData {
    let family = run.trace.family();
    // A time of impact's pictures need B's motion beside the run; the others' come
    // from the run alone.
    let toi = motion.zip(run.trace.steps::<crate::solver::toi::ToiRecord>());
    let sketch = |i: usize| match toi {
        Some((motion, records)) => toi_sketch(run, records, i, context, motion),
        None => step_sketch(run, i, context),
    };
    let info = crate::solver::catalog::info(run.method);
    let mut points = Points::default();
    let mut steps: Vec<StepData> = (0..run.trace.len())
        .map(|i| {
            let record = run.trace.record(i);
            let values = record.map(|r| r.plot_values());
            StepData {
                k: record.map_or(i, |r| r.k()),
                text: run.narrate(i),
                residual: values.and_then(|v| finite(v.residual)),
                upper: values.and_then(|v| finite(v.upper)),
                lower: values.and_then(|v| finite(v.lower)),
                picture: sketch(i).map(|s| picture(&s, palette, &mut points)),
            }
        })
        .collect();
    if steps.is_empty() {
        // No records (a closed form, a refusal): one step that says how the run ended.
        steps.push(StepData {
            k: 0,
            text: run.narrate(0),
            residual: None,
            upper: None,
            lower: None,
            picture: sketch(0).map(|s| picture(&s, palette, &mut points)),
        });
    }
    RunData {
        pair,
        method: run.method.name(),
        label: run.method.label(),
        family: family.id(),
        colour: info.colour,
        verdict: run.summary.outcome.to_string(),
        residual: family.bounds().residual,
        bounds: {
            let names = family.bounds();
            [names.upper, names.lower, names.axis]
        },
        tolerance: Some(tolerance).filter(|t| *t > 0.0 && t.is_finite()),
        notes: RunNotes::default(),
        points: points.list,
        face_sets: points.face_sets,
        steps,
    }
}
