//! The page is self-contained and holds the runs as the core narrates them; no text of
//! a scene can close its script block.

use super::*;
use crate::scene::Scene;
use std::path::Path;

fn scene(text: &str) -> Scene {
    Scene::parse(Path::new("test.ron"), text).unwrap()
}

const BOXES: &str = r#"Scene(
    version: 2,
    name: "two boxes",
    bodies: [
        Body(shape: Box(half_extents: (0.5, 0.5, 0.5))),
        Body(shape: Box(half_extents: (0.3, 0.2, 0.1)), translation: (1.4, 0.3, 0.1), rotation: EulerDegrees((10.0, 20.0, 30.0))),
    ],
    pairs: [(0, 1)],
    algorithms: ["gjk", "fw_fixed", "epa"],
)"#;

/// The data of a page, as the page's script reads it.
fn data_of(page: &str) -> serde_json::Value {
    serde_json::from_str(&page_data(page).expect("a data block")).unwrap()
}

#[test]
fn a_page_holds_every_step_as_the_core_narrates_it() {
    let scene = scene(BOXES);
    let page = scene_page(&scene, &[]).unwrap();
    let data = data_of(&page);
    let runs = data["runs"].as_array().unwrap();
    assert_eq!(runs.len(), 3);
    for (run_data, method) in runs.iter().zip(&scene.methods) {
        let run = scene.run(*method);
        let steps = run_data["steps"].as_array().unwrap();
        assert_eq!(steps.len(), run.trace.len().max(1), "{}", method.name());
        for (i, step) in steps.iter().enumerate() {
            assert_eq!(step["text"], run.narrate(i), "{} step {i}", method.name());
        }
        assert_eq!(run_data["verdict"], run.summary.outcome.to_string());
    }
    // GJK's steps have pictures: its simplex, its iterate.
    let gjk = &runs[0]["steps"];
    assert!(gjk[1]["picture"]["markers"].as_array().unwrap().len() >= 2);
    assert!(gjk[1]["picture"]["labels"]
        .as_array()
        .unwrap()
        .iter()
        .any(|l| l[2] == "x₂"));
}

#[test]
fn a_page_asks_for_nothing_outside_itself() {
    let page = scene_page(&scene(BOXES), &[]).unwrap();
    for needle in [
        "http:",
        "https:",
        "src=",
        "href=",
        "@import",
        "url(",
        "fetch(",
        "XMLHttpRequest",
        "WebSocket",
    ] {
        assert!(!page.contains(needle), "the page holds {needle:?}");
    }
    assert!(page.contains("Content-Security-Policy"));
}

#[test]
fn no_text_of_a_scene_reaches_the_page_as_markup() {
    let hostile = BOXES.replace(
        "name: \"two boxes\"",
        "name: \"</script><script>alert(1)</script><!--\", notes: \"<img src=x onerror=alert(2)> & \u{2028}\"",
    );
    let scene = scene(&hostile);
    let page = scene_page(&scene, &[]).unwrap();
    assert!(
        !page.contains("<script>alert"),
        "a name closed the data block"
    );
    assert!(!page.contains("<img"), "notes reached the page as markup");
    assert!(!page.contains("<!--"));
    assert_eq!(
        page.matches("</script>").count(),
        2,
        "only the page's own blocks close"
    );
    // The data still says what the scene said.
    let data = data_of(&page);
    assert_eq!(data["title"], scene.name);
    assert_eq!(data["notes"], scene.notes);
    assert!(page.contains("<title>&lt;/script&gt;&lt;script&gt;alert(1)"));
}
