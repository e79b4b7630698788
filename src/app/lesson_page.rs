//! A lesson as one self-contained web page (`collidescope lesson FILE --html`): its
//! pages replayed as the viewer's lesson player shows them ([`super::lesson::replay`]:
//! the same pair, method in focus, cursor and enabled runs), each with its text, the
//! layers it shows and its camera, built into the core's page
//! ([`crate::export::web`]), so the page's narration is the transcript's.

use std::collections::HashMap;

use super::lesson::{effective_step, replay, show_only};
use super::state::{DifferencePlacement, Layers};
use crate::export::web::{page, text_spans, LessonData, LessonPage, PageBuilder, PairPlacement};
use crate::scene::{LessonFrame, Scene};

/// The lesson of `scene` as a web page.
pub fn lesson_page(scene: Scene) -> Result<String, String> {
    if scene.lesson.is_empty() {
        return Err("the scene has no lesson steps".to_string());
    }
    let title = scene.name.clone();
    let lesson_steps = scene.lesson.clone();
    let questions = scene.questions.clone();
    let mut builder = PageBuilder::new(&scene);
    let mut pages = Vec::new();
    // One run per (pair, method, layers): pages that share them share the steps.
    let mut runs: HashMap<(usize, &'static str, String), usize> = HashMap::new();
    let mut k = 0;
    let mut failure = None;
    replay(scene, |step, model, cursor| {
        let shown = effective_step(&lesson_steps, k);
        k += 1;
        let mut layers = Layers::default();
        if let Some(names) = &shown.layers {
            show_only(&mut layers, names);
        }
        let pair_scene = model.pair_scene();
        if pair_scene.focus_is_composite() {
            failure = Some(format!(
                "page {k}: the pair in focus is a composite; web pages replay convex pairs so far"
            ));
            return;
        }
        let placement = PairPlacement {
            in_place: layers.placement == DifferencePlacement::InPlace,
        };
        let pair = builder.pair(pair_scene, placement);
        let layer_key = format!("{:?}", layers.sketch());
        let mut plotted = Vec::new();
        let mut focused = 0;
        for method_run in model.runs() {
            let run = &method_run.run;
            let key = (pair, run.method.name(), layer_key.clone());
            let index = *runs
                .entry(key)
                .or_insert_with(|| builder.run(pair, run, layers.sketch()));
            if run.method == model.focus() {
                focused = index;
            }
            plotted.push(index);
        }
        // What the page shows that only the desktop viewer draws so far.
        let mut viewer_only = Vec::new();
        if layers.construction {
            builder.construction(pair, pair_scene);
        }
        // The composite layers draw something only on a pair with a composite.
        if (layers.bvh || layers.internal_edges) && model.scene.focus_is_composite() {
            viewer_only.push("the composite layers");
        }
        pages.push(LessonPage {
            text: text_spans(&step.text),
            viewer_only,
            construction: layers.construction,
            run: focused,
            plotted,
            cursor,
            shapes: layers.shapes,
            difference: layers.difference,
            origin: layers.difference
                || layers.simplex
                || layers.iterate
                || layers.support_direction
                || layers.region
                || layers.plane,
            plots: layers.plots,
            camera: shown
                .camera
                .map(|(eye, target)| [eye.map(|v| v as f32), target.map(|v| v as f32)]),
            frame: step.frame.map(|f| match f {
                LessonFrame::All => "all",
                LessonFrame::Step => "step",
                LessonFrame::Newest => "newest",
                LessonFrame::Difference => "difference",
            }),
        });
    });
    if let Some(why) = failure {
        return Err(why);
    }
    let questions = questions.iter().map(|q| text_spans(q)).collect();
    let data = builder.finish(Some(LessonData { pages, questions }));
    Ok(page(&title, &data))
}
