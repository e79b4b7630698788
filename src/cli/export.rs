//! `collidescope export SCENE --coal case.py --parry case.rs --html case.html`: the
//! reproductions back out, and a web page of the scene's runs for anyone.

use std::path::Path;

use collidescope::solver::Method;

/// Where each export goes (at least one).
pub struct Targets<'p> {
    pub coal: Option<&'p Path>,
    pub parry: Option<&'p Path>,
    pub html: Option<&'p Path>,
}

pub fn run(scene_path: &Path, targets: Targets<'_>, methods: &[Method]) -> anyhow::Result<()> {
    let source = scene_path.display().to_string();
    let Targets { coal, parry, html } = targets;
    if coal.is_none() && parry.is_none() && html.is_none() {
        anyhow::bail!(
            "{source}: nothing to export: give --coal case.py, --parry case.rs and/or --html case.html"
        );
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
    if let Some(path) = html {
        // A method that does not take these shapes still has its page (its answer says
        // why), but the user is told.
        let named = if methods.is_empty() {
            &scene.methods[..]
        } else {
            methods
        };
        let (a, b) = (&scene.a().shape, &scene.b().shape);
        for m in named {
            if let Err(why) = collidescope::solver::catalog::info(*m).shapes.check(a, b) {
                eprintln!(
                    "note: {} does not apply to this pair ({why}): its page has no steps",
                    m.name()
                );
            }
        }
        let page = collidescope::export::web::scene_page(&scene, methods)
            .map_err(|e| anyhow::anyhow!("{pair}: cannot export a web page: {e}"))?;
        std::fs::write(path, &page)
            .map_err(|e| anyhow::anyhow!("{}: cannot write: {e}", path.display()))?;
        eprintln!(
            "web page written to {} ({} kB; open it in a browser)",
            path.display(),
            page.len().div_ceil(1024)
        );
        if coal.is_none() && parry.is_none() {
            return Ok(());
        }
    }
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
