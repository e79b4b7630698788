//! `collidescope import FILE [--out SCENE.ron] [--key KEY]`: an engine's query as a scene.

use std::path::Path;

use collidescope::import::import_file_at;
use collidescope::scene::Scene;

pub fn run(file: &Path, out: Option<&Path>, key: Option<&str>) -> anyhow::Result<()> {
    let scene_file = import_file_at(file, key)?;
    // Built and checked as any scene is, so a bad pose or shape is refused here, naming
    // the file, before anything is written.
    let scene = Scene::from_scene_file(scene_file.clone(), file)?;
    eprintln!("{}", scene.notes);
    for method in &scene.methods {
        let run = scene.run(*method);
        eprintln!("  {:<10} {}", method.name(), run.summary.outcome);
    }
    match out {
        Some(path) => {
            scene_file.write(path)?;
            eprintln!("scene written to {}", path.display());
        }
        None => print!("{}", scene_file.to_ron().map_err(anyhow::Error::msg)?),
    }
    Ok(())
}
