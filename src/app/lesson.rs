//! The lesson player: a scene's lesson steps one at a time (PageDown / PageUp, which
//! presenter remotes send, or the step list). Each step puts its algorithm in focus,
//! moves the cursor, shows its layers, places the camera, and its paragraph is shown
//! large under the 3-D view.

use bevy::prelude::*;
use bevy_egui::egui;
use bevy_egui::input::egui_wants_any_keyboard_input;

use super::camera::{CameraRequest, OrbitCamera};
use super::command::{PendingCommands, ViewerCommand};
use super::state::{DifferencePlacement, Layers, Model, PlaybackCursor, ViewerSet};
use crate::scene::{LessonFrame, LessonStep};
use crate::solver::Method;

/// Which step of the scene's lesson is shown.
#[derive(Resource, Default)]
pub struct LessonPlayer {
    pub step: usize,
    /// Set when the step must be (re)applied.
    requested: bool,
    /// The lesson the step belongs to: another scene's lesson starts at its first step.
    lesson: Vec<LessonStep>,
    /// The questions for the class: a page after the last step.
    questions: Vec<String>,
    /// The scene's pairs in the file's order (focusing one moves it first in the model;
    /// steps name pairs by this order).
    pairs: Vec<(usize, usize)>,
    /// Applied once the focused run exists (after the Solve stage).
    pending: Option<(Option<usize>, Option<LessonFrame>)>,
    /// The step the first lesson opens at (`view --lesson-step`), from 0.
    start: Option<usize>,
    /// The run's step the first page shows instead of its own (`view --iteration`
    /// without `--lesson-step`, on a scene that carries a lesson).
    first_cursor: Option<usize>,
}

impl LessonPlayer {
    /// A player whose first lesson opens at step `k` (from 0).
    pub fn starting_at(k: usize) -> Self {
        Self {
            start: Some(k),
            ..Self::default()
        }
    }

    /// The first page shows the run at step `k` instead of its own cursor.
    pub fn with_first_cursor(mut self, k: Option<usize>) -> Self {
        self.first_cursor = k;
        self
    }

    /// Asks for step `k` (clamped to the lesson; one past its last step is the page of
    /// questions for the class, when it has any).
    pub fn go_to(&mut self, k: usize) {
        self.step = k.min(self.pages().saturating_sub(1));
        self.requested = true;
    }

    /// The lesson's steps, and its questions as one page more.
    fn pages(&self) -> usize {
        self.lesson.len() + usize::from(!self.questions.is_empty())
    }

    /// Whether the page on screen is the questions after the last step.
    pub fn on_questions(&self) -> bool {
        !self.questions.is_empty() && self.step == self.lesson.len()
    }

    pub fn next(&mut self) {
        self.go_to(self.step + 1);
    }

    pub fn previous(&mut self) {
        self.go_to(self.step.saturating_sub(1));
    }
}

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<LessonPlayer>()
        .add_systems(
            Update,
            (
                lesson_keys.run_if(not(egui_wants_any_keyboard_input)),
                apply_lesson_step,
            )
                .chain()
                .in_set(ViewerSet::Input),
        )
        .add_systems(Update, finish_lesson_step.in_set(ViewerSet::Draw));
}

fn lesson_keys(keys: Res<ButtonInput<KeyCode>>, mut player: ResMut<LessonPlayer>) {
    if player.lesson.is_empty() {
        return;
    }
    if keys.just_pressed(KeyCode::PageDown) {
        player.next();
    }
    if keys.just_pressed(KeyCode::PageUp) {
        player.previous();
    }
}

fn apply_lesson_step(
    model: Res<Model>,
    mut player: ResMut<LessonPlayer>,
    mut commands: ResMut<PendingCommands>,
    mut layers: ResMut<Layers>,
    mut orbit: ResMut<OrbitCamera>,
) {
    if model.scene.lesson != player.lesson {
        player.lesson = model.scene.lesson.clone();
        player.questions = model.scene.questions.clone();
        player.pairs = model.scene.pairs.clone();
        let start = player.start.take().unwrap_or(0);
        player.step = start.min(player.pages().saturating_sub(1));
        player.requested = !player.lesson.is_empty();
    }
    if !player.requested {
        return;
    }
    player.requested = false;
    if player.lesson.is_empty() {
        return;
    }
    // The questions page keeps the last step's picture.
    let step = effective_step(&player.lesson, player.step.min(player.lesson.len() - 1));
    if let Some(k) = step
        .pair
        .and_then(|k| pair_position(&model.scene.pairs, &player.pairs, k))
    {
        commands.push(ViewerCommand::FocusPair(k));
    }
    if let Some(method) = step
        .algorithm
        .as_deref()
        .and_then(|n| n.parse::<Method>().ok())
    {
        commands.push(ViewerCommand::SetEnabled(method, true));
        commands.push(ViewerCommand::SetFocus(method));
    }
    match &step.layers {
        Some(names) => show_only(&mut layers, names),
        None => *layers = Layers::default(),
    }
    if let Some((eye, target)) = step.camera {
        let (eye, target) = (
            Vec3::from_array(eye.map(|v| v as f32)),
            Vec3::from_array(target.map(|v| v as f32)),
        );
        look_from(&mut orbit, eye, target);
    }
    let cursor = player.first_cursor.take().or(step.cursor);
    player.pending = Some((cursor, step.frame));
}

/// The cursor and framing, once the step's run has been solved.
fn finish_lesson_step(
    model: Res<Model>,
    mut player: ResMut<LessonPlayer>,
    mut cursor: ResMut<PlaybackCursor>,
    mut camera: MessageWriter<CameraRequest>,
    mut frames: Local<u32>,
) {
    // The first frames frame the whole scene once it is drawn (camera.rs): the first
    // step's own framing comes after that.
    *frames += 1;
    if model.is_stale() || *frames < 6 {
        return;
    }
    let Some((at, frame)) = player.pending.take() else {
        return;
    };
    if let Some(k) = at {
        cursor.cursor = k.min(model.step_count().saturating_sub(1));
        cursor.playing = false;
    }
    match frame {
        Some(LessonFrame::All) => {
            camera.write(CameraRequest::FrameAll);
        }
        Some(LessonFrame::Step) => {
            camera.write(CameraRequest::FrameStep);
        }
        Some(LessonFrame::Newest) => {
            camera.write(CameraRequest::FrameNewest);
        }
        Some(LessonFrame::Difference) => {
            camera.write(CameraRequest::FrameDifference);
        }
        None => {}
    }
}

/// Step `k` as it shows after steps 0..=k: what a step leaves out (algorithm, pair,
/// cursor, layers, camera) is what the steps before it set, so jumping to a step shows
/// what stepping to it does. Framing is the step's own.
pub fn effective_step(lesson: &[LessonStep], k: usize) -> LessonStep {
    let k = k.min(lesson.len().saturating_sub(1));
    let mut step = lesson[k].clone();
    for earlier in lesson[..k].iter().rev() {
        step.algorithm = step.algorithm.or_else(|| earlier.algorithm.clone());
        step.pair = step.pair.or(earlier.pair);
        step.cursor = step.cursor.or(earlier.cursor);
        step.layers = step.layers.or_else(|| earlier.layers.clone());
        step.camera = step.camera.or(earlier.camera);
    }
    step
}

/// Where the file's pair `k` is now among the model's pairs.
fn pair_position(now: &[(usize, usize)], file: &[(usize, usize)], k: usize) -> Option<usize> {
    let pair = file.get(k)?;
    now.iter().position(|p| p == pair)
}

/// Shows exactly the named layers (names as in [`crate::scene::LAYER_NAMES`]).
pub fn show_only(layers: &mut Layers, names: &[String]) {
    let on = |name: &str| names.iter().any(|n| n == name);
    *layers = Layers {
        shapes: on("shapes"),
        difference: on("difference"),
        placement: if on("in_place") {
            DifferencePlacement::InPlace
        } else {
            DifferencePlacement::SideView
        },
        simplex: on("simplex"),
        labels: on("labels"),
        support_direction: on("support"),
        support_parts: on("parts"),
        iterate: on("iterate"),
        witness: on("witness"),
        frank_wolfe_path: on("fw_path"),
        plots: on("plots"),
        construction: on("construction"),
        bvh: on("bvh"),
        internal_edges: on("internal_edges"),
        plane: on("plane"),
        region: on("region"),
    };
}

/// Places the orbit camera at `eye`, looking at `target`.
fn look_from(orbit: &mut OrbitCamera, eye: Vec3, target: Vec3) {
    let d = eye - target;
    let distance = d.length();
    if !(distance > 0.0 && distance.is_finite()) {
        return;
    }
    let d = d / distance;
    orbit.focus = target;
    orbit.distance = distance;
    orbit.pitch = d.y.clamp(-1.0, 1.0).asin();
    orbit.yaw = d.x.atan2(d.z);
}

/// The lesson's step list and buttons (in the left panel).
pub fn lesson_panel_ui(ui: &mut egui::Ui, player: &mut LessonPlayer) {
    let count = player.lesson.len();
    if count == 0 {
        return;
    }
    if player.on_questions() {
        ui.heading("Lesson · questions");
    } else {
        // "Page": the run's steps are "steps" (the narration and the playback
        // counter), so one screen never shows two different step numbers.
        ui.heading(format!("Lesson · page {} of {count}", player.step + 1));
    }
    ui.horizontal(|ui| {
        if ui.button("◀ previous").on_hover_text("PageUp").clicked() {
            player.previous();
        }
        if ui.button("next ▶").on_hover_text("PageDown").clicked() {
            player.next();
        }
    });
    let mut chosen = None;
    // One line per page, cut at the panel's edge (the full title on hover): at
    // projector size two-line titles push the last pages and the questions out of view.
    ui.style_mut().wrap_mode = Some(egui::TextWrapMode::Truncate);
    let size = egui::TextStyle::Body.resolve(ui.style()).size;
    let (plain, strong) = (ui.visuals().text_color(), ui.visuals().strong_text_color());
    for (k, step) in player.lesson.iter().enumerate() {
        // The title keeps the text's markup, so its subscripts render as in the text.
        let title = first_words(&step.text, 7);
        // "p. 4", not "4.": a page whose text starts "Step 3" must not read as two
        // step numbers.
        let hover = crate::lesson_markup::plain(&first_words(&step.text, 16));
        let title = markdown_light(&format!("p. {} · {title}", k + 1), size, plain, strong);
        let label = ui.selectable_label(k == player.step, title);
        if label.on_hover_text(hover).clicked() {
            chosen = Some(k);
        }
    }
    if !player.questions.is_empty()
        && ui
            .selectable_label(player.on_questions(), "Questions for the class")
            .clicked()
    {
        chosen = Some(count);
    }
    if let Some(k) = chosen {
        player.go_to(k);
    }
}

/// The current step's paragraph, large (in its own panel under the 3-D view).
/// Whether the playback panel shows the run's narration: not on a lesson step that
/// hides it.
pub fn narration_shown(player: &LessonPlayer) -> bool {
    !has_lesson(player) || player.lesson.get(player.step).is_none_or(|s| s.narration)
}

pub fn lesson_text_ui(ui: &mut egui::Ui, player: &LessonPlayer, size: f32) {
    let text = if player.on_questions() {
        questions_text(&player.questions)
    } else if let Some(step) = player.lesson.get(player.step) {
        step.text.clone()
    } else {
        return;
    };
    let visuals = ui.visuals();
    let job = markdown_light(
        &text,
        size,
        visuals.text_color(),
        visuals.strong_text_color(),
    );
    ui.add(egui::Label::new(job).wrap());
}

/// The questions as their page after the last step shows them: a bold heading, then one numbered line
/// each.
pub fn questions_text(questions: &[String]) -> String {
    let list: Vec<String> = (questions.iter().enumerate())
        .map(|(k, q)| format!("{}. {q}", k + 1))
        .collect();
    format!("**Questions for the class**\n{}", list.join("\n"))
}

/// What one step shows, computed as the player does: the focused method, its
/// iteration count, the record under the cursor and the viewer's narration of it.
#[derive(Clone, Debug, PartialEq)]
pub struct StepTranscript {
    pub method: Method,
    pub cursor: usize,
    pub iterations: usize,
    pub narration: String,
}

/// Every step of `scene`'s lesson as the player shows it (no window needed): the
/// lesson test holds each to the step's `expect`, and `collidescope lesson` prints it.
pub fn transcript(scene: crate::scene::Scene) -> Vec<StepTranscript> {
    let mut shown = Vec::new();
    replay(scene, |_, model, cursor| {
        let run = model.focused_run().map(|r| &r.run);
        shown.push(StepTranscript {
            method: model.focus(),
            cursor,
            iterations: run.map_or(0, |r| r.summary.iterations),
            narration: run.map_or_else(String::new, |r| r.narrate(cursor)),
        });
    });
    shown
}

/// Plays `scene`'s lesson step by step as the player does (pair, method in focus,
/// cursor), calling `visit` with each step, the solved model and the cursor.
pub fn replay(
    scene: crate::scene::Scene,
    mut visit: impl FnMut(&LessonStep, &super::model::ViewerModel, usize),
) {
    let lesson = scene.lesson.clone();
    let pairs = scene.pairs.clone();
    let mut model = super::model::ViewerModel::new(scene);
    let mut cursor = 0;
    for k in 0..lesson.len() {
        let step = effective_step(&lesson, k);
        if let Some(k) = step
            .pair
            .and_then(|k| pair_position(&model.scene.pairs, &pairs, k))
        {
            model.set_focus_pair(k);
        }
        if let Some(method) = step.algorithm.as_deref().and_then(|n| n.parse().ok()) {
            model.set_enabled(method, true);
            model.set_focus(method);
        }
        model.solve();
        if let Some(k) = step.cursor {
            cursor = k;
        }
        cursor = cursor.min(model.step_count().saturating_sub(1));
        visit(&lesson[k], &model, cursor);
    }
}

/// The lesson steps of the scene, when it has any.
pub fn has_lesson(player: &LessonPlayer) -> bool {
    !player.lesson.is_empty()
}

/// The text's first `n` words, without markup, for the step list.
fn first_words(text: &str, n: usize) -> String {
    let words: Vec<&str> = text.split_whitespace().take(n + 1).collect();
    let mut title = words[..words.len().min(n)].join(" ").replace("**", "");
    if words.len() > n {
        title.push('…');
    }
    title
}

/// Markdown-light ([`crate::lesson_markup`]): `**bold**` spans in the strong colour
/// (and a touch larger), `code` in monospace, `x_k` and `s_{A⊖B}` as subscripts, `R^T`
/// as a superscript, the rest as written (formulas in plain Unicode).
pub fn markdown_light(
    text: &str,
    size: f32,
    color: egui::Color32,
    strong: egui::Color32,
) -> egui::text::LayoutJob {
    use crate::lesson_markup::{spans, Script};
    let mut job = egui::text::LayoutJob::default();
    for span in spans(text) {
        let base = if span.bold { size * 1.05 } else { size };
        let (font_size, valign) = match span.script {
            // egui's own default: rows aligned at the bottom.
            Script::Normal => (base, egui::Align::BOTTOM),
            Script::Sub => (base * 0.7, egui::Align::BOTTOM),
            Script::Super => (base * 0.7, egui::Align::TOP),
        };
        let font_id = if span.code {
            egui::FontId::monospace(font_size * 0.9)
        } else {
            egui::FontId::proportional(font_size)
        };
        let format = egui::TextFormat {
            font_id,
            color: if span.bold { strong } else { color },
            valign,
            ..Default::default()
        };
        job.append(&span.text, 0.0, format);
    }
    job
}

/// The text of the step on screen, when a lesson is open.
pub fn current_text(player: &LessonPlayer) -> Option<&str> {
    player.lesson.get(player.step).map(|s| s.text.as_str())
}

/// The points a step's text names as the view labels them: w, x, a, b or s with a
/// subscript number (w₁, x₁₂, a₃), and the origin O.
pub fn named_points(text: &str) -> Vec<String> {
    const SUBSCRIPTS: &str = "₀₁₂₃₄₅₆₇₈₉";
    let mut names = Vec::new();
    let chars: Vec<char> = text.chars().collect();
    for (i, &c) in chars.iter().enumerate() {
        let boundary = i == 0 || !chars[i - 1].is_alphanumeric();
        if !boundary {
            continue;
        }
        if matches!(c, 'w' | 'x' | 'a' | 'b' | 's') {
            let digits: String = chars[i + 1..]
                .iter()
                .take_while(|d| SUBSCRIPTS.contains(**d))
                .collect();
            if !digits.is_empty() {
                names.push(format!("{c}{digits}"));
            }
        }
        let alone = chars.get(i + 1).is_none_or(|n| !n.is_alphanumeric());
        if c == 'O' && alone {
            names.push("O".to_string());
        }
    }
    names.sort();
    names.dedup();
    names
}

/// How far a label may sit from the point it names, in label heights (a label stacked
/// two lines above its neighbours still reads as theirs; further, it names nothing).
pub const LABEL_REACH: f32 = 3.0;

/// Two named points closer than this on screen read as one point.
pub const COINCIDENT_PIXELS: f32 = 3.0;

/// Two labels' world points closer than this are one point (x₁ = w₁ at a first step),
/// which may share a place on screen.
pub const COINCIDENT_WORLD: f32 = 1.0e-9;

/// The smallest share of the view's smaller side the points a page's text names must
/// span: a triangle the text is about, drawn 60 px wide, cannot be read from the back.
pub const FEATURE_SHARE: f32 = 0.25;

/// What makes a page's picture illegible (empty: legible): a point its text names
/// whose label is outside the view, two labels overlapping, a label far from its point,
/// or the named points crowded into a small part of the view.
pub fn legibility_problems(text: &str, layout: &super::draw::LabelLayout) -> Vec<String> {
    let Some(view) = layout.view else {
        return Vec::new();
    };
    let mut problems = Vec::new();
    let names = named_points(text);
    for name in &names {
        if layout.outside.iter().any(|label| label_shows(label, name)) {
            problems.push(format!("{name} is named but its label is outside the view"));
        }
    }
    let placed = &layout.placed;
    for (i, a) in placed.iter().enumerate() {
        for b in &placed[i + 1..] {
            if a.rect.shrink(0.5).intersects(b.rect.shrink(0.5)) {
                problems.push(format!("labels \"{}\" and \"{}\" overlap", a.text, b.text));
            }
        }
        let reach = LABEL_REACH * a.rect.height();
        let gap = a.rect.distance_to_pos(a.point);
        if gap > reach {
            problems.push(format!(
                "label \"{}\" is {gap:.0} px from its point (at most {reach:.0})",
                a.text
            ));
        }
    }
    // Named points that are apart in the world but not on screen: the picture cannot
    // tell them apart (a close-up of the step's newest part can).
    let named: Vec<&super::draw::PlacedLabel> = placed
        .iter()
        .filter(|l| names.iter().any(|n| label_shows(&l.text, n)))
        .collect();
    for (i, a) in named.iter().enumerate() {
        for b in &named[i + 1..] {
            let apart = a.world.distance(b.world) > COINCIDENT_WORLD;
            let on_screen = a.point.distance(b.point);
            if apart && on_screen < COINCIDENT_PIXELS {
                problems.push(format!(
                    "\"{}\" and \"{}\" are {:.1e} apart but {on_screen:.1} px apart on screen",
                    a.text,
                    b.text,
                    a.world.distance(b.world),
                ));
            }
        }
    }
    // The named points' spread: their labels' points, counted once per place.
    let mut points: Vec<egui::Pos2> = Vec::new();
    for label in placed
        .iter()
        .filter(|l| names.iter().any(|n| n != "O" && label_shows(&l.text, n)))
    {
        if points.iter().all(|p| p.distance(label.point) > 3.0) {
            points.push(label.point);
        }
    }
    if points.len() >= 2 {
        let spread = egui::Rect::from_points(&points);
        let side = spread.width().max(spread.height());
        let needed = FEATURE_SHARE * view.width().min(view.height());
        if side < needed {
            problems.push(format!(
                "the points the text names span {side:.0} px, under a quarter of the view ({needed:.0} px)"
            ));
        }
    }
    problems
}

/// Whether a view label shows the point `name` (the label's words, "s = w₃" or
/// "w₂ dropped", hold it as one word).
pub fn label_shows(label: &str, name: &str) -> bool {
    label.split_whitespace().any(|word| word == name)
}

/// "Try it" under the step list: the rounding radius of each rounded body of the pair
/// in focus (a sphere's, a capsule's, a circle's, a stadium's, a dilated shape's) and
/// the warm start, as Box2D's shape-distance sample offers them: the class changes a
/// radius and watches the run follow.
pub fn try_it_ui(
    ui: &mut egui::Ui,
    model: &super::model::ViewerModel,
    commands: &mut super::command::PendingCommands,
) {
    use super::command::ViewerCommand;
    use super::model::Side;
    use crate::scene::ShapeSpec;
    ui.separator();
    ui.strong("Try it");
    for side in [Side::A, Side::B] {
        let id = model.side(side);
        let spec = model.body(id).spec.clone();
        let mut edited = spec.clone();
        let radius = match &mut edited {
            ShapeSpec::Sphere { radius }
            | ShapeSpec::Capsule { radius, .. }
            | ShapeSpec::Circle { radius }
            | ShapeSpec::Stadium { radius, .. }
            | ShapeSpec::Dilated { radius, .. } => radius,
            _ => continue,
        };
        let top = (*radius * 3.0).max(1.0);
        let label = format!("{}'s radius", side.label());
        if ui
            .add(egui::Slider::new(radius, 0.01f64.min(*radius)..=top).text(label))
            .changed()
            && edited != spec
        {
            commands.push(ViewerCommand::SetShape(id, edited));
        }
    }
    let mut warm = model.warm_start();
    if ui
        .checkbox(&mut warm, "warm start")
        .on_hover_text("each run starts from the previous pose's final simplex (Box2D's simplex cache): drag a shape and watch the iterations drop")
        .changed()
    {
        commands.push(ViewerCommand::SetWarmStart(warm));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bold_spans_alternate_and_titles_are_short() {
        let job = markdown_light("a **b** c", 20.0, egui::Color32::GRAY, egui::Color32::WHITE);
        let texts: Vec<&str> = job
            .sections
            .iter()
            .map(|s| &job.text[s.byte_range.start.0..s.byte_range.end.0])
            .collect();
        assert_eq!(texts, ["a ", "b", " c"]);
        assert_eq!(job.sections[1].format.color, egui::Color32::WHITE);
        assert_eq!(first_words("one **two** three four", 2), "one two…");
    }

    #[test]
    fn the_camera_looks_from_the_eye_at_the_target() {
        let mut orbit = OrbitCamera::default();
        let (eye, target) = (Vec3::new(1.0, 2.0, 3.0), Vec3::new(0.5, -1.0, 0.0));
        look_from(&mut orbit, eye, target);
        let t = orbit.transform();
        assert!((t.translation - eye).length() < 1e-4, "{:?}", t.translation);
    }
}
