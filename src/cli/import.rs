//! `collidescope import FILE [--out SCENE.ron] [--key KEY]`: an engine's query as a scene;
//! `collidescope import DIR [--out FOLDER]`: every capture of a folder, each file's
//! answers, a bad file named and the others imported (split over a cluster with
//! `--chunk`/`--reduce`: `collidescope.cluster.check_captures`).

use std::path::{Path, PathBuf};

use collidescope::bench::chunks::{self, Chunk};
use collidescope::import::import_file_at;
use collidescope::scene::Scene;
use serde::{Deserialize, Serialize};

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

/// What `import DIR` is asked for.
pub struct FolderArgs<'a> {
    pub folder: &'a Path,
    pub out: Option<&'a Path>,
    pub key: Option<&'a str>,
    /// Only the files `START..END` (in name order), as a chunk file here.
    pub chunk: Option<((usize, usize), PathBuf)>,
    /// The report from the chunk files in this folder.
    pub reduce: Option<&'a Path>,
}

/// One capture's answer as a chunk holds it: the lines the report prints for it, and
/// its scene (RON) when it was imported.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CaptureItem {
    name: String,
    lines: Vec<String>,
    scene: Option<String>,
}

/// Extensions of the files a folder of captures holds besides them (a MuJoCo model's
/// meshes and textures): skipped.
const ASSETS: [&str; 10] = [
    "obj", "stl", "ply", "dae", "msh", "mtl", "png", "jpg", "jpeg", "ron",
];

/// The captures of `folder`, in name order: its files but hidden ones, subfolders and
/// assets.
fn captures(folder: &Path) -> anyhow::Result<Vec<PathBuf>> {
    let entries = std::fs::read_dir(folder)
        .map_err(|e| anyhow::anyhow!("{}: cannot read the folder: {e}", folder.display()))?;
    let mut files = Vec::new();
    for entry in entries {
        let path = entry?.path();
        let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
        let extension = path
            .extension()
            .and_then(|e| e.to_str())
            .map(str::to_ascii_lowercase);
        if path.is_file()
            && !name.starts_with('.')
            && !extension.is_some_and(|e| ASSETS.contains(&e.as_str()))
        {
            files.push(path);
        }
    }
    files.sort();
    Ok(files)
}

/// One capture imported and run, or refused with the importer's message (which names
/// the file and the line or field).
fn check_capture(path: &Path, key: Option<&str>) -> CaptureItem {
    let name = path
        .file_name()
        .map_or_else(String::new, |n| n.to_string_lossy().into_owned());
    let imported = import_file_at(path, key)
        .map_err(anyhow::Error::from)
        .and_then(|file| {
            let scene = Scene::from_scene_file(file.clone(), path)?;
            let text = file.to_ron().map_err(anyhow::Error::msg)?;
            Ok((scene, text))
        });
    match imported {
        Ok((scene, text)) => {
            let mut lines = vec![format!("{name}: {}", scene.name)];
            for method in &scene.methods {
                let run = scene.run(*method);
                lines.push(format!("  {:<10} {}", method.name(), run.summary.outcome));
            }
            CaptureItem {
                name,
                lines,
                scene: Some(text),
            }
        }
        Err(e) => CaptureItem {
            lines: vec![format!("{name}: refused: {e:#}")],
            name,
            scene: None,
        },
    }
}

/// `import DIR`: every capture's answers (here, from one chunk, or merged from chunk
/// files), the scenes written to `out` as STEM.ron, and a summary.
pub fn run_folder(args: FolderArgs<'_>) -> anyhow::Result<()> {
    let files = captures(args.folder)?;
    let names: Vec<String> = files
        .iter()
        .map(|p| {
            p.file_name()
                .map_or_else(String::new, |n| n.to_string_lossy().into_owned())
        })
        .collect();
    let plan = serde_json::json!({
        "folder": args.folder.canonicalize().unwrap_or_else(|_| args.folder.to_path_buf()),
        "key": args.key,
        "files": names,
    });
    let check = |paths: &[PathBuf]| -> Vec<CaptureItem> {
        paths.iter().map(|p| check_capture(p, args.key)).collect()
    };
    let items = match (&args.chunk, args.reduce) {
        (Some(((start, end), out)), _) => {
            chunks::check_range((*start, *end), files.len(), "captures of the folder")?;
            let chunk = Chunk {
                command: "import".into(),
                plan,
                start: *start,
                end: *end,
                items: check(&files[*start..*end]),
            };
            return chunks::write_chunk(&chunk, out);
        }
        (None, Some(folder)) => chunks::read_chunks("import", &plan, files.len(), folder)?,
        (None, None) => check(&files),
    };
    if let Some(out) = args.out {
        std::fs::create_dir_all(out)
            .map_err(|e| anyhow::anyhow!("{}: cannot create the folder: {e}", out.display()))?;
    }
    let mut refused = Vec::new();
    for item in &items {
        for line in &item.lines {
            println!("{line}");
        }
        match (&item.scene, args.out) {
            (Some(text), Some(out)) => {
                let stem = Path::new(&item.name)
                    .file_stem()
                    .map_or_else(|| item.name.clone(), |s| s.to_string_lossy().into_owned());
                let path = out.join(format!("{stem}.ron"));
                std::fs::write(&path, text)
                    .map_err(|e| anyhow::anyhow!("{}: cannot write: {e}", path.display()))?;
                println!("  scene written to {}", path.display());
            }
            (None, _) => refused.push(item.name.as_str()),
            _ => {}
        }
    }
    println!(
        "{} captures in {}: {} imported, {} refused{}",
        items.len(),
        args.folder.display(),
        items.len() - refused.len(),
        refused.len(),
        if refused.is_empty() {
            String::new()
        } else {
            format!(" ({})", refused.join(", "))
        }
    );
    Ok(())
}
