//! `collidescope export SCENE --coal case.py --parry case.rs`: the reproductions back out.

use std::path::Path;

pub fn run(scene_path: &Path, coal: Option<&Path>, parry: Option<&Path>) -> anyhow::Result<()> {
    let source = scene_path.display().to_string();
    if coal.is_none() && parry.is_none() {
        anyhow::bail!("{source}: nothing to export: give --coal case.py and/or --parry case.rs");
    }
    let scene = collidescope::input::open(scene_path)?;
    // Every refusal names the scene and the pair it exports (the pair in focus).
    let (i, j) = scene.pairs[0];
    let pair = format!(
        "{source}: the pair in focus (bodies {i} and {j}{})",
        match (&scene.bodies[i].name, &scene.bodies[j].name) {
            (Some(a), Some(b)) => format!(", {a} and {b}"),
            _ => String::new(),
        }
    );
    let certified = collidescope::export::certify(&scene)
        .map_err(|e| anyhow::anyhow!("{pair}: cannot export: {e}"))?;
    eprintln!(
        "certified signed distance in {:e} ({})",
        collidescope::printed_bound::Outward(certified.lower, certified.upper),
        certified.proof
    );
    if let Some(path) = coal {
        let text = collidescope::export::coal_script(&scene, &source)
            .map_err(|e| anyhow::anyhow!("{pair}: cannot export to Coal: {e}"))?;
        std::fs::write(path, text)
            .map_err(|e| anyhow::anyhow!("{}: cannot write: {e}", path.display()))?;
        eprintln!("Coal script written to {} (python3 {0})", path.display());
    }
    if let Some(path) = parry {
        let text = collidescope::export::parry_test(&scene, &source)
            .map_err(|e| anyhow::anyhow!("{pair}: cannot export to parry: {e}"))?;
        std::fs::write(path, text)
            .map_err(|e| anyhow::anyhow!("{}: cannot write: {e}", path.display()))?;
        eprintln!(
            "parry3d-f64 test written to {} (put it in a crate's tests/)",
            path.display()
        );
    }
    Ok(())
}
