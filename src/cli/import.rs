//! `collidescope import FILE [--out SCENE.ron]`: an engine's query as a scene; and
//! `collidescope export SCENE --coal case.py --parry case.rs`: the reproductions back out.

use std::path::Path;

use collidescope::import::import_file;
use collidescope::scene::Scene;

pub fn run(file: &Path, out: Option<&Path>) -> anyhow::Result<()> {
    let scene_file = import_file(file)?;
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

pub fn export(scene_path: &Path, coal: Option<&Path>, parry: Option<&Path>) -> anyhow::Result<()> {
    if coal.is_none() && parry.is_none() {
        anyhow::bail!("give --coal case.py and/or --parry case.rs");
    }
    let scene = Scene::load(scene_path)?;
    let source = scene_path.display().to_string();
    let certified = collidescope::export::certify(&scene).map_err(anyhow::Error::msg)?;
    eprintln!(
        "certified signed distance in [{:e}, {:e}] ({})",
        certified.lower, certified.upper, certified.proof
    );
    if let Some(path) = coal {
        let text = collidescope::export::coal_script(&scene, &source)
            .map_err(|e| anyhow::anyhow!("{source}: cannot export to Coal: {e}"))?;
        std::fs::write(path, text)
            .map_err(|e| anyhow::anyhow!("{}: cannot write: {e}", path.display()))?;
        eprintln!("Coal script written to {} (python3 {0})", path.display());
    }
    if let Some(path) = parry {
        let text = collidescope::export::parry_test(&scene, &source)
            .map_err(|e| anyhow::anyhow!("{source}: cannot export to parry: {e}"))?;
        std::fs::write(path, text)
            .map_err(|e| anyhow::anyhow!("{}: cannot write: {e}", path.display()))?;
        eprintln!(
            "parry3d-f64 test written to {} (put it in a crate's tests/)",
            path.display()
        );
    }
    Ok(())
}
