//! `collidescope lesson SCENE`: the lesson's steps as the viewer shows them, each held
//! to its `expect`.

use std::path::Path;

use collidescope::app::lesson::transcript;
use collidescope::scene::Scene;

pub fn print_lesson(path: &Path) -> anyhow::Result<()> {
    let scene = Scene::load(path)?;
    if scene.lesson.is_empty() {
        anyhow::bail!("{}: the scene has no lesson steps", path.display());
    }
    let steps = scene.lesson.clone();
    println!("{}: {} steps", scene.name, steps.len());
    let mut differ = 0;
    for (k, (step, shown)) in steps.iter().zip(transcript(scene)).enumerate() {
        println!(
            "\nstep {}: {} at record {}",
            k + 1,
            shown.method.name(),
            shown.cursor
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
        println!(
            "  expect: Some(Expect(iterations: {}, narration: {:?})),",
            shown.iterations, shown.narration
        );
    }
    if differ > 0 {
        anyhow::bail!(
            "{}: {differ} steps differ from their expect",
            path.display()
        );
    }
    Ok(())
}
