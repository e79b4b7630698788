//! Exported web pages in a real browser (`tests/web/check_pages.py`: Debian's Chromium
//! driven by Playwright): a scene of each family and every lesson load with no console
//! error and no request leaving the page, and stepping shows each step's text (a
//! lesson's pages the narration `collidescope lesson` prints) over a picture that is
//! not blank. Skipped, with a message, where Chromium or Playwright is missing.

mod common;

use std::path::Path;
use std::process::Command;

use common::cli_ok;

/// Whether the browser check can run here, or why not.
fn browser() -> Result<(), String> {
    if !Path::new("/usr/bin/chromium").exists() {
        return Err("no /usr/bin/chromium (Debian's chromium package)".into());
    }
    let probe = Command::new("python3")
        .args(["-c", "import playwright.sync_api"])
        .output()
        .map_err(|e| format!("python3 does not run: {e}"))?;
    if !probe.status.success() {
        return Err("python3 has no playwright (pip install playwright)".into());
    }
    Ok(())
}

fn check(pages: &[String]) {
    let out = Command::new("python3")
        .arg("tests/web/check_pages.py")
        .args(pages)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("python3 runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "the browser check failed:\n{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    print!("{stdout}");
}

/// One scene of each family, with every step's text checked against the page's data
/// (the data holds `Run::narrate`, `crate::export::web`'s own test).
#[test]
fn a_scene_of_each_family_replays_in_chromium() {
    if let Err(why) = browser() {
        eprintln!("skipped: {why}");
        return;
    }
    let dir = tempfile_dir("scenes");
    let mut pages = Vec::new();
    for scene in [
        "scenes/ellipsoids_close.ron",
        "scenes/cubes_frank_wolfe_zigzag.ron",
        "scenes/epa_deep_coincident.ron",
        "scenes/toi_box_landing.ron",
        "scenes/lp_boxes_apart.ron",
        "scenes/ip_diamond_vs_can.ron",
        "scenes/contact_box_over_edge.ron",
        "scenes/meshes/ball_in_bowl.ron",
    ] {
        let stem = Path::new(scene).file_stem().unwrap().to_string_lossy();
        let out = dir.join(format!("{stem}.html"));
        cli_ok(&["export", scene, "--html", out.to_str().unwrap()]);
        let size = std::fs::metadata(&out).unwrap().len();
        assert!(
            size < 1 << 20,
            "{scene}: the page is {size} bytes (over 1 MB)"
        );
        pages.push(out.display().to_string());
    }
    check(&pages);
}

/// Every lesson of the course as a site; each page's narration is the transcript's.
#[cfg(feature = "app")]
#[test]
fn every_lesson_replays_in_chromium_with_the_transcripts_words() {
    if let Err(why) = browser() {
        eprintln!("skipped: {why}");
        return;
    }
    let dir = tempfile_dir("site");
    cli_ok(&["lesson", "--site", dir.to_str().unwrap()]);
    assert!(dir.join("index.html").is_file());
    let mut pages = Vec::new();
    for entry in std::fs::read_dir("scenes/lessons").unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|e| e != "ron") || path.ends_with("course.ron") {
            continue;
        }
        let stem = path.file_stem().unwrap().to_string_lossy().to_string();
        let page = dir.join(format!("{stem}.html"));
        assert!(page.is_file(), "{stem}: no page in the site");
        let size = std::fs::metadata(&page).unwrap().len();
        assert!(
            size < 2 << 20,
            "{stem}: the page is {size} bytes (over 2 MB)"
        );
        // The narration `collidescope lesson` prints for each page.
        let transcript = cli_ok(&["lesson", path.to_str().unwrap()]);
        let narrations: Vec<(usize, String)> = String::from_utf8_lossy(&transcript.stdout)
            .lines()
            .filter_map(|l| l.trim().strip_prefix("expect: Some(Expect("))
            .map(|l| {
                let at = l.find("narration: ").expect("a narration") + "narration: ".len();
                let quoted = l[at..].trim_end_matches(")),");
                let text: String = ron::from_str(quoted).expect("a RON string");
                text
            })
            .enumerate()
            .collect();
        assert!(!narrations.is_empty(), "{stem}: no transcript");
        let expect = dir.join(format!("{stem}.expect.json"));
        std::fs::write(
            &expect,
            serde_json::json!({ "pages": narrations }).to_string(),
        )
        .unwrap();
        pages.push(format!("{}:{}", page.display(), expect.display()));
    }
    check(&pages);
}

/// A fresh folder under the system's temporary folder.
fn tempfile_dir(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("collidescope-web-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// A scene page carries what the viewer says under the narration of a slow run (each
/// cause with its first step) and the tolerance its plot draws; a time of impact's steps
/// carry their pictures (B's path, its ghost); no browser needed.
#[test]
fn a_scene_page_carries_the_slow_causes_and_the_pictures_of_every_family() {
    use collidescope::export::web::{page_data, scene_page};
    use collidescope::scene::Scene;
    let scene = Scene::load(Path::new("scenes/slow_plateau_dome.ron")).unwrap();
    let data: serde_json::Value =
        serde_json::from_str(&page_data(&scene_page(&scene, &[]).unwrap()).unwrap()).unwrap();
    let run = scene.run(scene.methods[0]);
    let explained = collidescope::solver::distance::explain::explain_with_checks(
        &run,
        Some((&scene.a().shape, &scene.b().shape)),
    );
    assert!(
        !explained.causes.is_empty(),
        "the scene is slow for a named cause"
    );
    let causes = data["runs"][0]["notes"]["causes"].as_array().unwrap();
    assert_eq!(causes.len(), explained.causes.len());
    for (page, cause) in causes.iter().zip(&explained.causes) {
        assert_eq!(page[0], cause.to_string());
        assert_eq!(page[1], serde_json::json!(cause.steps.first()));
    }
    assert_eq!(data["runs"][0]["tolerance"], scene.settings.tolerance);

    let toi = Scene::load(Path::new("scenes/toi_box_landing.ron")).unwrap();
    let data: serde_json::Value =
        serde_json::from_str(&page_data(&scene_page(&toi, &[]).unwrap()).unwrap()).unwrap();
    for run in data["runs"].as_array().unwrap() {
        for (i, step) in run["steps"].as_array().unwrap().iter().enumerate() {
            let picture = &step["picture"];
            assert!(
                picture.is_object(),
                "{} step {i} has no picture",
                run["method"]
            );
            // The path arrow and B's ghost (and the swept region) at least.
            assert!(!picture["arrows"].as_array().unwrap().is_empty());
            assert!(picture["faces"].as_array().unwrap().len() >= 2);
        }
    }
}

/// A pair with a mesh: the page replays the runs on the sub-pair the midphase names
/// (the steps the viewer shows), says the whole pair's answer with the sub-pair that
/// makes it, and draws the piece in focus over its mesh.
#[test]
fn a_mesh_pair_replays_its_nearest_sub_pair() {
    use collidescope::export::web::{page_data, scene_page};
    use collidescope::scene::Scene;
    let scene = Scene::load(Path::new("scenes/meshes/ball_in_bowl.ron")).unwrap();
    let data: serde_json::Value =
        serde_json::from_str(&page_data(&scene_page(&scene, &[]).unwrap()).unwrap()).unwrap();
    let method = scene.methods[0];
    let whole = scene
        .run_composite(method, scene.settings, false, None)
        .unwrap();
    let k = whole.answer.nearest.expect("a nearest triangle");
    let name = scene.sub_pair_name(&whole, k);
    let notes = data["notes"].as_str().unwrap();
    assert!(notes.contains(&format!("made by {name}")), "{notes}");
    let sub = scene.sub_pair_scene(&whole, k).unwrap();
    let run = sub.run(method);
    let steps = data["runs"][0]["steps"].as_array().unwrap();
    assert_eq!(steps.len(), run.trace.len());
    for (i, step) in steps.iter().enumerate() {
        assert_eq!(step["text"], run.narrate(i));
    }
    // The bowl, the ball, and the triangle in focus as a body of its own.
    let bodies = data["bodies"].as_array().unwrap();
    assert_eq!(bodies.len(), scene.bodies.len() + 1);
    let piece = bodies.last().unwrap();
    assert_eq!(piece["vertices"].as_array().unwrap().len(), 3, "{piece}");
}
