//! The layering `docs/architecture.md` describes, held by the imports themselves: every
//! `use` in the core (`crates/core/src/`) and the app (`src/`) is resolved to a full path (`super` and `self` included) and checked
//! against the rules below, so a change that imports upward fails here, not in review.
//!
//! - The core is its own crate, and its dependencies hold none of the viewer's, the
//!   command line's or the plots' crates (Bevy, egui, clap unless asked for, plotters,
//!   indicatif, rayon).
//! - Nothing outside the viewer imports Bevy or egui: only `src/app` does.
//! - Shapes, poses and the Minkowski difference never import the solver.
//! - A family (a folder of `src/solver`) never imports the registry above the families
//!   (`trace`, `method`, `catalog`, `registry`, nor their `Run` and `Method` through the
//!   solver's root) and never another family's modules: it may call another family
//!   through what that family's root exports (the time of impact calls EPA's
//!   `penetration`), not reach into its files.
//! - The contract the families build on (`family`, `narration`, `record`, `outcome`,
//!   `settings`, `simplex`, and the distance families' own: `distance/step`,
//!   `distance/criteria`, `distance/kind`, `distance/record`, `distance/narrate`)
//!   imports neither the registry nor any family, nor the distance algorithms above the
//!   families (`distance/mod.rs`, `explain`, `coal_replay`).
//! - The distance internals (those five files of `solver/distance/`) are the distance
//!   families' own: outside `solver/distance/`, GJK and Frank-Wolfe, only the contract
//!   imports them; everyone else uses what `solver::distance` exports.
//! - A method has one identity: its variant or its catalog row, never a position in
//!   `Algorithm::ALL` (a text scan of the sources, tests and benches).
//!
//! - The viewer's generic code (its model, panels, plots and drawings outside
//!   `app/companion/`) reaches a family's companion only through the companions'
//!   registry (`app/companion/mod.rs`), never a companion's own file.
//! - The viewer's shared state (`app/state.rs`) is a leaf: it imports no panel, drawing
//!   or plugin; the theme imports no panel (`ui`, `presentation`), so the panels and the
//!   theme do not import each other.
//!
//! Test modules (`#[cfg(test)]`) may run whole methods and are not read.

use std::path::{Path, PathBuf};

const FAMILIES: [&str; 7] = [
    "gjk",
    "frank_wolfe",
    "epa",
    "toi",
    "lp",
    "interior_point",
    "contact",
];
const REGISTRY: [&str; 4] = ["trace", "method", "catalog", "registry"];
/// The registry's types as the solver's root re-exports them.
const REGISTRY_NAMES: [&str; 2] = ["crate::solver::Run", "crate::solver::Method"];
const CONTRACT: [&str; 11] = [
    "family.rs",
    "narration.rs",
    "record.rs",
    "outcome.rs",
    "settings.rs",
    "simplex",
    "distance/step.rs",
    "distance/criteria.rs",
    "distance/kind.rs",
    "distance/record.rs",
    "distance/narrate.rs",
];
/// The distance internals: the modules of `solver/distance/` below the families.
const DISTANCE_INTERNALS: [&str; 5] = ["step", "criteria", "kind", "record", "narrate"];
/// The folders of `solver/` that may import them besides the contract: the distance
/// home and its two families.
const DISTANCE_HOME: [&str; 3] = ["distance", "gjk", "frank_wolfe"];

/// Every `.rs` file under `dir`.
fn rust_files(dir: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            files.extend(rust_files(&path));
        } else if path.extension().is_some_and(|e| e == "rs") {
            files.push(path);
        }
    }
    files
}

/// The module path of a file under `src/` (`src/solver/toi/mod.rs` is
/// `crate::solver::toi`, `src/solver/toi/closed_form.rs` `crate::solver::toi::closed_form`).
fn module_of(src: &Path, file: &Path) -> Vec<String> {
    let relative = file.strip_prefix(src).unwrap().with_extension("");
    let mut path = vec!["crate".to_string()];
    for part in relative.iter() {
        let part = part.to_str().unwrap();
        if part != "mod" && part != "lib" && part != "main" {
            path.push(part.to_string());
        }
    }
    path
}

/// The full paths a use tree names, `super` and `self` resolved from `module`.
fn flatten(tree: &syn::UseTree, prefix: Vec<String>, module: &[String], out: &mut Vec<String>) {
    match tree {
        syn::UseTree::Path(p) => {
            let segment = p.ident.to_string();
            let next = match segment.as_str() {
                "super" if prefix.is_empty() => module[..module.len() - 1].to_vec(),
                "super" => prefix[..prefix.len() - 1].to_vec(),
                "self" if prefix.is_empty() => module.to_vec(),
                _ => [prefix, vec![segment]].concat(),
            };
            flatten(&p.tree, next, module, out);
        }
        syn::UseTree::Name(n) => {
            let name = n.ident.to_string();
            let full = if name == "self" {
                prefix
            } else {
                [prefix, vec![name]].concat()
            };
            out.push(full.join("::"));
        }
        syn::UseTree::Rename(r) => {
            out.push([prefix, vec![r.ident.to_string()]].concat().join("::"))
        }
        syn::UseTree::Glob(_) => out.push(prefix.join("::")),
        syn::UseTree::Group(g) => g
            .items
            .iter()
            .for_each(|t| flatten(t, prefix.clone(), module, out)),
    }
}

/// Every path a file imports: its `use` items at any depth (inline modules, function
/// bodies), and the paths written inline in its code (`crate::solver::epa::boxes::f()`).
fn imports(src: &Path, file: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(file).unwrap();
    let module = module_of(src, file);
    let mut paths = Vec::new();
    let syntax = syn::parse_file(&text).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
    // `use` items anywhere: scan the token text of the file for them through syn's
    // parse of each item, inline modules included.
    fn walk(items: &[syn::Item], module: &[String], out: &mut Vec<String>) {
        for item in items {
            match item {
                syn::Item::Use(u) => flatten(&u.tree, Vec::new(), module, out),
                syn::Item::Mod(m) if !is_test_module(m) => {
                    if let Some((_, inner)) = &m.content {
                        let inner_module = [module.to_vec(), vec![m.ident.to_string()]].concat();
                        walk(inner, &inner_module, out);
                    }
                }
                _ => {}
            }
        }
    }
    walk(&syntax.items, &module, &mut paths);
    // Inline paths and `use` inside function bodies: the code's text without comments,
    // up to the test module (by convention the file's end).
    for line in text.lines().take_while(|l| l.trim() != "#[cfg(test)]") {
        let code = line.split("//").next().unwrap_or("");
        for (at, _) in code.match_indices("crate::") {
            let path: String = code[at..]
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_' || *c == ':')
                .collect();
            paths.push(path.trim_end_matches(':').to_string());
        }
    }
    paths
}

/// A `#[cfg(test)]` module.
fn is_test_module(m: &syn::ItemMod) -> bool {
    m.attrs.iter().any(|a| {
        a.path().is_ident("cfg") && a.parse_args::<syn::Ident>().is_ok_and(|i| i == "test")
    })
}

/// Whether `path` names a distance internal (`crate::solver::distance::step::...`).
fn distance_internal(path: &str) -> bool {
    DISTANCE_INTERNALS
        .iter()
        .any(|m| under(path, &format!("crate::solver::distance::{m}")))
}

/// Why `path` imports the registry, when it does.
fn registry_import(path: &str) -> bool {
    REGISTRY
        .iter()
        .any(|r| under(path, &format!("crate::solver::{r}")))
        || REGISTRY_NAMES.contains(&path)
}

/// The solver core's sources (`crates/core/src`): module paths below are the core's.
fn src_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("crates/core/src")
}

/// The command line's, the benchmarks' and the viewer's sources.
fn app_src_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

/// Whether `path` is `prefix` or lies under it, by whole segments.
fn under(path: &str, prefix: &str) -> bool {
    path == prefix || path.starts_with(&format!("{prefix}::"))
}

#[test]
fn families_import_neither_the_registry_nor_each_others_files() {
    let src = src_dir();
    let mut wrong = Vec::new();
    for family in FAMILIES {
        let folder = src.join("solver").join(family);
        for file in rust_files(&folder) {
            for path in imports(&src, &file) {
                if registry_import(&path) {
                    wrong.push(format!("{}: imports {path}", file.display()));
                }
                for other in FAMILIES.iter().filter(|o| **o != family) {
                    let other_folder = src.join("solver").join(other);
                    for module in rust_files(&other_folder) {
                        let stem = module.file_stem().unwrap().to_str().unwrap();
                        if stem != "mod" && under(&path, &format!("crate::solver::{other}::{stem}"))
                        {
                            wrong.push(format!("{}: reaches into {path}", file.display()));
                        }
                    }
                }
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "imports against the layering:\n{}",
        wrong.join("\n")
    );
}

#[test]
fn the_contract_imports_neither_the_registry_nor_a_family() {
    let src = src_dir();
    let solver = src.join("solver");
    let mut wrong = Vec::new();
    for part in CONTRACT {
        let path = solver.join(part);
        let files = if path.is_dir() {
            rust_files(&path)
        } else {
            vec![path]
        };
        for file in files {
            for import in imports(&src, &file) {
                let family = FAMILIES
                    .iter()
                    .any(|f| under(&import, &format!("crate::solver::{f}")));
                // From the distance home, only what lies below the families.
                let distance_top =
                    under(&import, "crate::solver::distance") && !distance_internal(&import);
                if registry_import(&import) || family || distance_top {
                    wrong.push(format!("{}: imports {import}", file.display()));
                }
            }
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[test]
fn only_the_distance_families_and_the_contract_import_the_distance_internals() {
    let solver = src_dir().join("solver");
    let allowed: Vec<PathBuf> = DISTANCE_HOME
        .iter()
        .map(|f| solver.join(f))
        .chain(CONTRACT.iter().map(|c| solver.join(c)))
        .collect();
    let mut wrong = Vec::new();
    for src in [src_dir(), app_src_dir()] {
        for file in rust_files(&src) {
            if allowed.iter().any(|a| file.starts_with(a)) {
                continue;
            }
            for path in imports(&src, &file) {
                if distance_internal(&path) {
                    wrong.push(format!("{}: imports {path}", file.display()));
                }
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "the distance internals are the distance families' own (use what \
         solver::distance exports):\n{}",
        wrong.join("\n")
    );
}

/// A method is named by its variant or its catalog row: indexing the list of distance
/// solvers gives a second identity that silently changes with the list's order.
#[test]
fn no_method_is_named_by_its_position_in_algorithm_all() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let needle = concat!("Algorithm::ALL", "[");
    let this = root.join("tests/architecture.rs");
    let mut wrong = Vec::new();
    for dir in ["src", "crates", "tests", "benches", "python/src"] {
        let dir = root.join(dir);
        if !dir.is_dir() {
            continue;
        }
        for file in rust_files(&dir) {
            if file == this {
                continue;
            }
            let text = std::fs::read_to_string(&file).unwrap();
            for (n, line) in text.lines().enumerate() {
                if line.replace(' ', "").contains(needle) {
                    wrong.push(format!("{}:{}: {}", file.display(), n + 1, line.trim()));
                }
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "name the variant (Algorithm::GJK, Algorithm::Gjk(DirectionRule::Nesterov), ...) \
         or the catalog's Method:\n{}",
        wrong.join("\n")
    );
}

#[test]
fn shapes_poses_and_the_minkowski_difference_never_import_the_solver() {
    let src = src_dir();
    let mut files = rust_files(&src.join("shape"));
    files.push(src.join("pose.rs"));
    files.push(src.join("minkowski.rs"));
    let wrong: Vec<String> = files
        .iter()
        .flat_map(|file| {
            imports(&src, file)
                .into_iter()
                .filter(|p| {
                    under(p, "crate::solver")
                        || ABOVE_THE_SOLVER
                            .iter()
                            .any(|m| under(p, &format!("crate::{m}")))
                })
                .map(move |p| format!("{}: imports {p}", file.display()))
        })
        .collect();
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// The core's modules above the solver: they run methods, read files or talk to other
/// engines; nothing in the solver (nor below it) imports them.
const ABOVE_THE_SOLVER: [&str; 10] = [
    "composite",
    "scene",
    "input",
    "import",
    "mesh",
    "robot",
    "export",
    "cross_check",
    "parry_bridge",
    "bench",
];

#[test]
fn the_solver_never_imports_what_sits_above_it() {
    let src = src_dir();
    let mut wrong = Vec::new();
    for file in rust_files(&src.join("solver")) {
        for path in imports(&src, &file) {
            if ABOVE_THE_SOLVER
                .iter()
                .any(|m| under(&path, &format!("crate::{m}")))
            {
                wrong.push(format!("{}: imports {path}", file.display()));
            }
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// The importers build scene files; the choice between a scene and an importer
/// (`crate::input`) sits above them.
#[test]
fn the_importers_never_import_the_opener() {
    let src = src_dir();
    let mut wrong = Vec::new();
    for file in rust_files(&src.join("import")) {
        for path in imports(&src, &file) {
            if under(&path, "crate::input") {
                wrong.push(format!("{}: imports {path}", file.display()));
            }
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[test]
fn only_the_viewer_imports_bevy_or_egui() {
    let viewer = app_src_dir().join("app");
    let mut wrong = Vec::new();
    for src in [src_dir(), app_src_dir()] {
        for file in rust_files(&src) {
            if file.starts_with(&viewer) {
                continue;
            }
            for path in imports(&src, &file) {
                let root = path.split("::").next().unwrap_or("");
                if root.starts_with("bevy") || root.starts_with("egui") {
                    wrong.push(format!("{}: imports {path}", file.display()));
                }
            }
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// The core crate's manifest: what `pip install ./python` compiles. Its dependencies
/// name none of the viewer's, the command line's or the plots' crates (clap only as an
/// optional feature the CLI turns on), and it depends on no other crate of ours.
#[test]
fn the_core_crate_depends_on_no_viewer_cli_or_plot_crate() {
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR")).join("crates/core/Cargo.toml");
    let text = std::fs::read_to_string(&manifest).unwrap();
    let mut section = String::new();
    let mut wrong = Vec::new();
    let mut seen = 0;
    for line in text.lines().map(str::trim) {
        if line.starts_with('[') {
            section = line.to_string();
            continue;
        }
        if section != "[dependencies]" || line.is_empty() || line.starts_with('#') {
            continue;
        }
        seen += 1;
        let name = line.split(['=', ' ']).next().unwrap();
        let forbidden = [
            "bevy",
            "egui",
            "plotters",
            "indicatif",
            "rayon",
            "rfd",
            "collidescope",
        ]
        .iter()
        .any(|f| name.starts_with(f))
            || (name == "clap" && !line.contains("optional = true"));
        if forbidden {
            wrong.push(line.to_string());
        }
    }
    assert!(seen > 5, "no dependencies read from {}", manifest.display());
    assert!(wrong.is_empty(), "the core depends on {wrong:?}");
}

/// The checks see what they claim to: a known import of each kind is found.
#[test]
fn the_import_reader_resolves_super_and_groups() {
    let src = src_dir();
    let toi = imports(&src, &src.join("solver/toi/mod.rs"));
    assert!(
        toi.iter().any(|p| p == "crate::solver::epa::penetration"),
        "{toi:?}"
    );
    let gjk = imports(&src, &src.join("solver/gjk/mod.rs"));
    assert!(
        gjk.iter()
            .any(|p| distance_internal(p) && p.ends_with("initial_direction")),
        "{gjk:?}"
    );
    let app_src = app_src_dir();
    let app = imports(&app_src, &app_src.join("app/mod.rs"));
    assert!(app.iter().any(|p| p.starts_with("bevy")), "{app:?}");
}

/// The viewer's companions: one file (or folder) per family under `app/companion/`.
fn companion_modules(app_src: &Path) -> Vec<String> {
    let folder = app_src.join("app/companion");
    std::fs::read_dir(&folder)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.file_stem().is_some_and(|s| s != "mod"))
        .map(|p| p.file_stem().unwrap().to_str().unwrap().to_string())
        .collect()
}

#[test]
fn generic_viewer_code_reaches_a_companion_only_through_the_registry() {
    let src = app_src_dir();
    let app = src.join("app");
    let companions = companion_modules(&src);
    assert!(
        companions.iter().any(|c| c == "toi") && companions.len() >= 6,
        "{companions:?}"
    );
    let mut wrong = Vec::new();
    for file in rust_files(&app) {
        if file.starts_with(app.join("companion")) {
            continue;
        }
        for path in imports(&src, &file) {
            if companions
                .iter()
                .any(|c| under(&path, &format!("crate::app::companion::{c}")))
            {
                wrong.push(format!("{}: imports {path}", file.display()));
            }
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[test]
fn the_shared_viewer_state_is_a_leaf_and_the_theme_imports_no_panel() {
    let src = app_src_dir();
    let app = src.join("app");
    let mut wrong = Vec::new();
    // The state may build on the plain-Rust model and playback state only.
    for path in imports(&src, &app.join("state.rs")) {
        let allowed = ["crate::app::model", "crate::app::playback_state"]
            .iter()
            .any(|a| under(&path, a));
        if under(&path, "crate::app") && !allowed {
            wrong.push(format!("state.rs: imports {path}"));
        }
    }
    for path in imports(&src, &app.join("theme.rs")) {
        let panel = [
            "crate::app::ui",
            "crate::app::presentation",
            "crate::app::companion",
        ]
        .iter()
        .any(|p| under(&path, p));
        if panel || path == "crate::app" {
            wrong.push(format!("theme.rs: imports {path}"));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// The input layer: scenes never import the importers (which build scene files; the
/// choice between the two is `crate::input`'s, above both), and mesh files are read
/// only in `crate::mesh` (its format crates named nowhere else, nor a COLLADA document
/// parsed).
#[test]
fn scenes_never_import_the_importers_and_meshes_are_read_only_in_the_mesh_module() {
    let src = src_dir();
    let mut wrong = Vec::new();
    for file in rust_files(&src.join("scene")) {
        for path in imports(&src, &file) {
            if under(&path, "crate::import") || under(&path, "crate::input") {
                wrong.push(format!("{}: imports {path}", file.display()));
            }
        }
    }
    let mesh = src.join("mesh");
    let readers = ["tobj", "stl_io", "ply_rs_bw"];
    for src in [src_dir(), app_src_dir()] {
        for file in rust_files(&src)
            .into_iter()
            .filter(|f| !f.starts_with(&mesh))
        {
            for path in imports(&src, &file) {
                let root = path.split("::").next().unwrap_or("");
                if readers.contains(&root) {
                    wrong.push(format!("{}: imports {path}", file.display()));
                }
            }
            let text = std::fs::read_to_string(&file).unwrap();
            for (n, line) in text
                .lines()
                .take_while(|l| l.trim() != "#[cfg(test)]")
                .enumerate()
            {
                let code = line.split("//").next().unwrap_or("");
                let reads = readers.iter().any(|r| code.contains(&format!("{r}::")))
                    || code.contains("\"COLLADA\"");
                if reads {
                    wrong.push(format!("{}:{}: {}", file.display(), n + 1, line.trim()));
                }
            }
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}
