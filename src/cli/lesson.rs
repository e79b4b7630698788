//! `collidescope lesson SCENE`: the lesson's steps as the viewer shows them, each held
//! to its `expect`.

use std::path::Path;

use std::path::PathBuf;

use collidescope::app::animate::Walk;
use collidescope::app::lesson::transcript;
use collidescope::app::{run_viewer, ViewerOptions};
use collidescope::solver::Method;

pub fn print_lesson(path: &Path, worksheet: Option<&Path>, pdf: bool) -> anyhow::Result<()> {
    let scene = collidescope::input::open(path)?;
    if scene.lesson.is_empty() {
        anyhow::bail!("{}: the scene has no lesson steps", path.display());
    }
    if let Some(out) = worksheet {
        write_worksheets(&scene, out, pdf)?;
    }
    let steps = scene.lesson.clone();
    let scene_questions = scene.questions.clone();
    println!("{}: {} pages", scene.name, steps.len());
    let mut differ = 0;
    for (k, (step, shown)) in steps.iter().zip(transcript(scene)).enumerate() {
        // Lesson pages and run steps are counted apart, as the viewer shows them.
        println!(
            "\npage {}: {} at its step {}",
            k + 1,
            shown.method.name(),
            shown.cursor + 1
        );
        let status = match &step.expect {
            Some(e) if e.iterations == shown.iterations && e.narration == shown.narration => {
                "as written"
            }
            Some(_) => {
                differ += 1;
                "DIFFERS from the lesson's expect"
            }
            None => "no expect written",
        };
        println!("  {status}");
        for line in step.text.lines() {
            println!("  | {line}");
        }
        println!(
            "  expect: Some(Expect(iterations: {}, narration: {:?})),",
            shown.iterations, shown.narration
        );
    }
    if !scene_questions.is_empty() {
        println!("\nquestions for the class:");
        for (k, q) in scene_questions.iter().enumerate() {
            println!("  {}. {q}", k + 1);
        }
    }
    if differ > 0 {
        anyhow::bail!(
            "{}: {differ} steps differ from their expect",
            path.display()
        );
    }
    Ok(())
}

/// That `out`'s folder exists (a page is written there after the transcript).
pub fn check_writable(out: &Path) -> anyhow::Result<()> {
    let folder = out.parent().filter(|p| !p.as_os_str().is_empty());
    match folder {
        Some(f) if !f.is_dir() => anyhow::bail!(
            "{}: cannot write: the folder {} does not exist",
            out.display(),
            f.display()
        ),
        _ => Ok(()),
    }
}

/// `collidescope lesson FILE --html OUT`: the lesson as one web page.
pub fn write_page(path: &Path, out: &Path) -> anyhow::Result<()> {
    let scene = collidescope::input::open(path)?;
    let page = collidescope::app::lesson_page::lesson_page(scene)
        .map_err(|e| anyhow::anyhow!("{}: cannot export a web page: {e}", path.display()))?;
    std::fs::write(out, &page)
        .map_err(|e| anyhow::anyhow!("{}: cannot write: {e}", out.display()))?;
    eprintln!(
        "web page written to {} ({} kB; open it in a browser)",
        out.display(),
        page.len().div_ceil(1024)
    );
    Ok(())
}

/// `collidescope lesson --site DIR`: every lesson of the course in `folder` as a web
/// page, and an index page listing them path by path.
pub fn write_site(folder: &Path, site: &Path) -> anyhow::Result<()> {
    use collidescope::export::web::escape_html;
    let course = collidescope::scene::Course::load(folder)?;
    std::fs::create_dir_all(site)
        .map_err(|e| anyhow::anyhow!("{}: cannot create: {e}", site.display()))?;
    let mut index = String::new();
    let mut current_path = String::new();
    for (path_name, file) in course.files(folder) {
        let scene = collidescope::input::open(&file)?;
        let title = scene.name.clone();
        let stem = file
            .file_stem()
            .map(|s| s.to_string_lossy().to_string())
            .unwrap_or_default();
        let page = collidescope::app::lesson_page::lesson_page(scene)
            .map_err(|e| anyhow::anyhow!("{}: cannot export a web page: {e}", file.display()))?;
        let name = format!("{stem}.html");
        std::fs::write(site.join(&name), &page)
            .map_err(|e| anyhow::anyhow!("{}: cannot write: {e}", site.join(&name).display()))?;
        if path_name != current_path {
            if !current_path.is_empty() {
                index.push_str("</ol>\n");
            }
            index.push_str(&format!("<h2>{}</h2>\n<ol>\n", escape_html(&path_name)));
            current_path = path_name;
        }
        index.push_str(&format!(
            "<li><a href=\"{}\">{}</a></li>\n",
            escape_html(&name),
            escape_html(&title)
        ));
        eprintln!("{name}: {} kB", page.len().div_ceil(1024));
    }
    if !current_path.is_empty() {
        index.push_str("</ol>\n");
    }
    let html = format!(
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <title>Collidescope lessons</title>\n<style>body {{ font-family: sans-serif; \
         max-width: 760px; margin: 24px auto; line-height: 1.5; }}</style>\n</head>\n<body>\n\
         <h1>Collidescope lessons</h1>\n<p>Each page replays a lesson recorded by \
         Collidescope: step with the buttons or PageUp / PageDown.</p>\n{index}</body>\n</html>\n"
    );
    std::fs::write(site.join("index.html"), html)
        .map_err(|e| anyhow::anyhow!("{}: cannot write: {e}", site.join("index.html").display()))?;
    eprintln!("site written to {} (open index.html)", site.display());
    Ok(())
}

/// `collidescope animate`: the viewer captures every step, writes the file and exits.
/// Without a display it runs itself under `xvfb-run` (when installed).
pub fn animate(
    scene: &Path,
    out: PathBuf,
    algorithm: Option<Method>,
    size: Option<(u32, u32)>,
    steps: bool,
    projector: bool,
) -> anyhow::Result<()> {
    let loaded = collidescope::input::open(scene)?;
    let (width, height) = size.unwrap_or((1280, 720));
    if cfg!(target_os = "linux") && std::env::var_os("DISPLAY").is_none() {
        return rerun_under_xvfb(width, height);
    }
    let walk = if loaded.lesson.is_empty() || steps || algorithm.is_some() {
        Walk::Steps
    } else {
        Walk::Lesson
    };
    run_viewer(ViewerOptions {
        scene: Some(scene.to_path_buf()),
        focus: algorithm,
        size: Some((width, height)),
        projector,
        animate: Some((out, walk)),
        ..ViewerOptions::default()
    })
}

/// The same command on a virtual display, for machines without one.
fn rerun_under_xvfb(width: u32, height: u32) -> anyhow::Result<()> {
    let me = std::env::current_exe()?;
    let args: Vec<String> = std::env::args().skip(1).collect();
    let screen = format!(
        "-screen 0 {}x{}x24",
        width.max(640) + 64,
        height.max(480) + 64
    );
    let status = std::process::Command::new("xvfb-run")
        .args(["-a", "-s", &screen])
        .arg(me)
        .args(args)
        .status()
        .map_err(|e| {
            anyhow::anyhow!(
                "no display (DISPLAY is not set) and xvfb-run could not start ({e}); install xvfb or run on a desktop"
            )
        })?;
    if status.success() {
        Ok(())
    } else {
        anyhow::bail!("animation failed under xvfb-run ({status})")
    }
}

/// The student sheet at `out`, the answer key beside it, and both as PDF when asked.
fn write_worksheets(
    scene: &collidescope::scene::Scene,
    out: &Path,
    pdf: bool,
) -> anyhow::Result<()> {
    use collidescope::app::worksheet::{answers_path, pdf as print, worksheets};
    let sheets = worksheets(scene.clone());
    let key = answers_path(out);
    for (path, text, what) in [
        (out, &sheets.student, "student sheet"),
        (key.as_path(), &sheets.answers, "answer key"),
    ] {
        std::fs::write(path, text)
            .map_err(|e| anyhow::anyhow!("{}: cannot write the {what}: {e}", path.display()))?;
        println!("wrote the {what} {}", path.display());
        if pdf {
            let target = path.with_extension("pdf");
            let title = format!("{} · {what}", scene.name);
            print::print_pdf(&print::html_page(&title, text), &target)
                .map_err(|e| anyhow::anyhow!(e))?;
            println!("wrote the {what} {}", target.display());
        }
    }
    Ok(())
}
