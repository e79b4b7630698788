//! Reproductions sent back out: the exported Coal script passes where Coal
//! is right and fails where its answer leaves the certified bracket; the exported parry
//! test of `scenes/parry_cuboid_disagreement.ron` builds and fails (parry 0.31's cuboid
//! distance is wrong there) while the one of a pair parry gets right passes.

use std::path::{Path, PathBuf};
use std::process::Command;

use collidescope::export::{certify, coal_script, parry_test};
use collidescope::scene::Scene;

fn scene(name: &str) -> Scene {
    Scene::load(
        &Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("scenes")
            .join(name),
    )
    .unwrap()
}

fn coal_available() -> bool {
    let ok = Command::new("python3")
        .args(["-c", "import coal, numpy"])
        .output()
        .is_ok_and(|o| o.status.success());
    if !ok {
        eprintln!("skipped: python3 cannot import coal (pip install coal)");
    }
    ok
}

fn run_python(script: &str, tag: &str) -> (bool, String) {
    let path = std::env::temp_dir().join(format!("collidescope-{tag}-{}.py", std::process::id()));
    std::fs::write(&path, script).unwrap();
    let out = Command::new("python3").arg(&path).output().unwrap();
    let _ = std::fs::remove_file(&path);
    let text =
        String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
    (out.status.success(), text)
}

#[test]
fn exported_coal_scripts_pass_where_coal_is_right_and_fail_off_the_bracket() {
    if !coal_available() {
        return;
    }
    // Separated boxes, an overlap (EPA), ellipsoids, capsule against sphere.
    for name in [
        "boxes_face_to_face.ron",
        "epa_sphere_in_box.ron",
        "ellipsoids_close.ron",
        "overlap_sphere_capsule.ron",
        "parry_cuboid_disagreement.ron",
    ] {
        let s = scene(name);
        let script = coal_script(&s, name).unwrap();
        let (ok, out) = run_python(&script, "coal");
        assert!(ok, "{name}: {out}");
        assert!(out.contains("Coal agrees"), "{name}: {out}");
        // The same script with a bracket Coal's answer is not in: exit 1, the gap said.
        let c = certify(&s).unwrap();
        let shifted = script.replace(
            &format!("lower, upper = {:?}, {:?}", c.lower, c.upper),
            &format!("lower, upper = {:?}, {:?}", c.lower + 0.01, c.upper + 0.01),
        );
        assert_ne!(shifted, script, "{name}: the bracket line");
        let (ok, out) = run_python(&shifted, "coal-off");
        assert!(
            !ok && out.contains("off the certified bracket"),
            "{name}: {out}"
        );
    }
}

/// Coal's own stopping guarantee is the script's margin: an answer 1.25e-6 off the
/// certified distance of 0.324 is within Coal's GJK tolerance · (1 + ‖x‖), not a bug to
/// report (a margin of the tolerance · max(1, |d|) said it was).
/// A scene naming contact methods: the script also checks Coal's contact patch against
/// the certified contact region. A box resting flat over a slab's edge passes; a box
/// tilted by 5e-4 rad fails (Coal's patch puts every corner at one depth: two of its
/// points lie 5e-4 outside the box).
#[test]
fn exported_coal_scripts_check_the_contact_patch_against_the_certified_region() {
    if !coal_available() {
        return;
    }
    let (ok, out) = run_python(
        &coal_script(&scene("contact_box_over_edge.ron"), "edge").unwrap(),
        "coal-patch",
    );
    assert!(
        ok && out.contains("lies in the certified contact region"),
        "{out}"
    );
    let tilted = Scene::load(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/contact/box_tilted_5e-4.ron"),
    )
    .unwrap();
    let (ok, out) = run_python(&coal_script(&tilted, "tilted").unwrap(), "coal-patch-off");
    assert!(!ok, "{out}");
    assert!(
        out.contains("leaves the certified contact region") && out.contains("outside B"),
        "{out}"
    );
    assert!(
        !out.contains("off the certified bracket"),
        "the distance agrees: {out}"
    );
    // A tie for the least overlap that Coal breaks the other way from ours: its patch
    // is checked along Coal's own normal (proved as deep by Coal's shapes) and passes.
    let tied = Scene::load(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/contact/boxes_tied_coal.ron"),
    )
    .unwrap();
    let (ok, out) = run_python(&coal_script(&tied, "tied").unwrap(), "coal-patch-tie");
    assert!(ok && out.contains("(a tie)"), "{out}");
    assert!(
        out.contains("lies in the certified contact region"),
        "{out}"
    );
}

#[test]
fn exported_coal_scripts_allow_coals_own_guarantee() {
    if !coal_available() {
        return;
    }
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/export/coal_within_its_guarantee.ron");
    let s = Scene::load(&path).unwrap();
    let script = coal_script(&s, "coal_within_its_guarantee.ron").unwrap();
    let (ok, out) = run_python(&script, "coal-guarantee");
    assert!(ok && out.contains("Coal agrees"), "{out}");
}

/// The exported parry tests as a crate of their own (what a parry user or maintainer
/// does with them): built against parry3d-f64 from the registry, offline.
#[test]
fn exported_parry_tests_build_and_fail_exactly_where_parry_is_wrong() {
    let root = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("exported-parry");
    std::fs::create_dir_all(root.join("tests")).unwrap();
    std::fs::create_dir_all(root.join("src")).unwrap();
    std::fs::write(
        root.join("Cargo.toml"),
        "[package]\nname = \"collidescope-reproductions\"\nversion = \"0.0.0\"\nedition = \"2021\"\npublish = false\n\n[workspace]\n\n[dev-dependencies]\nparry3d-f64 = \"0.31\"\n",
    )
    .unwrap();
    std::fs::write(root.join("src/lib.rs"), "").unwrap();
    let cases = [
        ("parry_cuboid_disagreement.ron", "cuboid", false),
        ("contact_box_over_edge.ron", "contact_box_over_edge", true),
        (
            "contact_cylinder_on_cap.ron",
            "contact_cylinder_on_cap",
            true,
        ),
        ("boxes_face_to_face.ron", "boxes", true),
        ("epa_sphere_in_box.ron", "sphere_in_box", true),
        ("overlap_sphere_capsule.ron", "sphere_capsule", true),
    ];
    for (name, test, _) in cases {
        let s = scene(name);
        let text = parry_test(&s, name).unwrap();
        // The poses are the scene's, to the bit.
        let t = s.b().pose.translation;
        assert!(text.contains(&format!("{:?}", t.x)), "{name}");
        std::fs::write(root.join("tests").join(format!("{test}.rs")), text).unwrap();
    }
    // A scene naming contact methods gets a manifold test too: parry's manifold on two
    // boxes keeps corners 0.37 apart, outside the certified contact region (far_points);
    // two flush face pairs at once (a tie for the least overlap): parry takes the other
    // normal from ours, and its manifold passes against the region along its own.
    for (fixture, test) in [
        ("parry_far_points.ron", "far_points"),
        ("boxes_tied_faces.ron", "tied_faces"),
    ] {
        let path = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/data/contact")
            .join(fixture);
        let text = parry_test(&Scene::load(&path).unwrap(), fixture).unwrap();
        std::fs::write(root.join("tests").join(format!("{test}.rs")), text).unwrap();
    }
    // Every hostile text at once as name, notes and file name: rustc takes it (no bare
    // CR in a doc comment, no bidirectional override) and it passes like its scene.
    let hostile = HOSTILE.concat();
    std::fs::write(
        root.join("tests/hostile.rs"),
        parry_test(&hostile_scene(&hostile), &hostile).unwrap(),
    )
    .unwrap();
    let out = Command::new(env!("CARGO"))
        .args(["test", "--offline", "--no-fail-fast", "--quiet"])
        .current_dir(&root)
        .env("CARGO_TARGET_DIR", root.join("target"))
        .output()
        .unwrap();
    let text =
        String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
    assert!(
        !out.status.success(),
        "the cuboid reproduction must fail:\n{text}"
    );
    assert!(
        text.contains("parry3d-f64 answers 0.0166"),
        "parry's wrong answer is reported:\n{text}"
    );
    // Exactly two test binaries failed: the cuboid one (its distance) and the far
    // points' (its manifold test, not its distance test).
    assert!(text.contains("--test cuboid"), "{text}");
    assert!(text.contains("--test far_points"), "{text}");
    assert!(
        text.contains("parry3d-f64's manifold leaves the certified contact region"),
        "{text}"
    );

    assert!(
        !text.contains("--test tied_faces`"),
        "the tied faces' manifold test failed:\n{text}"
    );
    assert!(
        !text.contains("--test hostile`"),
        "the hostile-named test failed:\n{text}"
    );
    for (_, test, passes) in cases {
        if passes {
            assert!(
                !text.contains(&format!("--test {test}`")),
                "{test} failed:\n{text}"
            );
        }
    }
}

/// Names and notes come from files written by others: every backslash sequence, quote
/// run, line break (`\n`, bare `\r`, `\r\n`, U+2028, U+0085, form feed), NUL, comment
/// closer, raw-string closer, bidirectional override and coding declaration, and a name
/// crafted to place code in the script.
const HOSTILE: &[&str] = &[
    r"\N{BULLET} \x41 \u0041 \U0001F600 \0 \ \\",
    "\"\"\"",
    "'''",
    "a\nb",
    "a\rb",
    "a\r\nb",
    "a\u{2028}b\u{2029}c",
    "a\u{85}b",
    "a\0b",
    "a\u{c}b\u{b}c\u{1b}[31m",
    "*/ /* */",
    "\"# r#\"",
    "# not a comment",
    "🎉 émoji",
    "\u{202e}evil\u{202c} \u{2066}x\u{2069}",
    "\u{feff}bom",
    "-*- coding: latin-1 -*-",
    "x\"\"\"\nimport os; os.system(\"echo pwned\")\n\"\"\"",
    "x'''\nimport os; os.system('echo pwned')\n'''",
    "x\"; std::process::exit(0); \"\n}\n#[test]\nfn pwned() { std::process::exit(0); }\nfn f() {\n\"",
    "fn",
    "```\nstd::process::exit(1);\n```",
    "",
];

/// A hostile name, the file name and notes of a scene that certifies (two boxes).
fn hostile_scene(text: &str) -> Scene {
    let mut s = scene("boxes_face_to_face.ron");
    s.name = text.to_string();
    s.notes = format!("{text}\nthe second line: {text}\r\nend");
    s
}

fn benign_scene() -> Scene {
    let mut s = scene("boxes_face_to_face.ron");
    s.name = "benign".into();
    s.notes = "benign".into();
    s
}

fn every_hostile_text() -> Vec<String> {
    let mut all: Vec<String> = HOSTILE.iter().map(|s| s.to_string()).collect();
    all.push(HOSTILE.concat());
    all
}

/// Each hostile text as name, notes and file name: the Coal script compiles (from its
/// bytes, as `python3 case.py` reads it), its module is the benign script's statement for
/// statement (nothing added, nothing moved: only the three text literals differ), and the
/// literals evaluate back to the texts.
#[test]
fn hostile_names_and_notes_stay_text_in_coal_scripts() {
    let has_python = Command::new("python3")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if !has_python {
        eprintln!("skipped: no python3");
        return;
    }
    let benign = coal_script(&benign_scene(), "benign.ron").unwrap();
    let cases: Vec<serde_json::Value> = every_hostile_text()
        .iter()
        .map(|text| {
            let s = hostile_scene(text);
            let script = coal_script(&s, text).unwrap();
            // The first two lines are the benign script's (where Python looks for a
            // coding declaration), and no line break or NUL is left unescaped.
            assert!(
                script.lines().take(2).eq(benign.lines().take(2)),
                "{text:?}"
            );
            assert!(
                !script.contains(['\r', '\0', '\u{c}', '\u{2028}', '\u{85}', '\u{202e}']),
                "{text:?}"
            );
            serde_json::json!({
                "script": script, "benign": benign,
                "name": s.name, "source": text, "notes": s.notes,
            })
        })
        .collect();
    let dir = std::env::temp_dir().join(format!("collidescope-hostile-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let cases_path = dir.join("cases.json");
    std::fs::write(&cases_path, serde_json::to_string(&cases).unwrap()).unwrap();
    let checker = r#"
import ast, json, sys

TEXTS = ("SCENE", "SOURCE", "NOTES")

def text_assign(node):
    return (isinstance(node, ast.Assign) and len(node.targets) == 1
            and isinstance(node.targets[0], ast.Name) and node.targets[0].id in TEXTS)

def skeleton(tree):
    for node in tree.body:
        if text_assign(node):
            node.value = ast.Constant(value=None)
    return ast.dump(tree)

bad = []
for i, case in enumerate(json.load(open(sys.argv[1], encoding="utf-8"))):
    try:
        compile(case["script"].encode("utf-8"), "case.py", "exec")
        tree = ast.parse(case["script"].encode("utf-8"))
    except Exception as e:
        bad.append(f"case {i}: does not compile: {e!r}")
        continue
    texts = {n.targets[0].id: ast.literal_eval(n.value) for n in tree.body if text_assign(n)}
    want = {"SCENE": case["name"], "SOURCE": case["source"], "NOTES": case["notes"]}
    if texts != want:
        bad.append(f"case {i}: the literals read {texts!r}, not {want!r}")
    if skeleton(tree) != skeleton(ast.parse(case["benign"])):
        bad.append(f"case {i}: statements differ from the benign script's")
print("\n".join(bad) or "all clean")
sys.exit(1 if bad else 0)
"#;
    let checker_path = dir.join("check.py");
    std::fs::write(&checker_path, checker).unwrap();
    let out = Command::new("python3")
        .arg(&checker_path)
        .arg(&cases_path)
        .output()
        .unwrap();
    let _ = std::fs::remove_dir_all(&dir);
    let text =
        String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success() && text.contains("all clean"), "{text}");

    // Run where Coal is installed: the crafted names print nothing of their own.
    if coal_available() {
        for text in [HOSTILE[17], HOSTILE[18], &HOSTILE.concat()] {
            let script = coal_script(&hostile_scene(text), text).unwrap();
            let (ok, out) = run_python(&script, "coal-hostile");
            assert!(ok && out.contains("Coal agrees"), "{text:?}: {out}");
            assert!(
                !out.lines().any(|l| l.trim() == "pwned"),
                "{text:?} ran code: {out}"
            );
        }
    }
}

/// The items of an exported parry test: `use`s, the three text constants and one test
/// (its name without the scene's part), and the constants' values.
type Items = (Vec<String>, Vec<(String, String)>);

fn parry_items(text: &str) -> Result<Items, String> {
    let file = syn::parse_file(text).map_err(|e| format!("not Rust: {e}"))?;
    let mut items = Vec::new();
    for attr in &file.attrs {
        let path = attr.path();
        if path.is_ident("doc") {
            // The documentation is the benign test's: no scene text in it (a code block
            // there would be a doctest in a library).
            match &attr.meta {
                syn::Meta::NameValue(syn::MetaNameValue {
                    value:
                        syn::Expr::Lit(syn::ExprLit {
                            lit: syn::Lit::Str(s),
                            ..
                        }),
                    ..
                }) => items.push(format!("doc {}", s.value())),
                _ => return Err("a doc attribute that is not a string".into()),
            }
        } else if !path.is_ident("allow") {
            return Err("an attribute beyond the docs and the lint allowance".into());
        }
    }
    let mut texts = Vec::new();
    for item in &file.items {
        match item {
            syn::Item::Use(_) => items.push("use".to_string()),
            syn::Item::Const(c) => {
                items.push(format!("const {}", c.ident));
                match &*c.expr {
                    syn::Expr::Lit(syn::ExprLit {
                        lit: syn::Lit::Str(s),
                        ..
                    }) => texts.push((c.ident.to_string(), s.value())),
                    _ => return Err(format!("{} is not a string literal", c.ident)),
                }
            }
            syn::Item::Fn(f) => {
                let name = f.sig.ident.to_string();
                if !name.starts_with("collidescope")
                    || !name
                        .chars()
                        .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_')
                {
                    return Err(format!("test name {name}"));
                }
                let attrs: Vec<String> = f
                    .attrs
                    .iter()
                    .map(|a| {
                        a.path()
                            .get_ident()
                            .map_or("?".to_string(), |i| i.to_string())
                    })
                    .collect();
                items.push(format!(
                    "fn {attrs:?} with {} statements",
                    f.block.stmts.len()
                ));
            }
            _ => items.push("another item".to_string()),
        }
    }
    Ok((items, texts))
}

/// Each hostile text as name, notes and file name: the parry test parses as Rust, has
/// the benign test's items and statements (nothing added), and its literals read back
/// the texts. (The crate-building test below compiles one with rustc.)
#[test]
fn hostile_names_and_notes_stay_text_in_parry_tests() {
    let (benign_items, _) =
        parry_items(&parry_test(&benign_scene(), "benign.ron").unwrap()).unwrap();
    for text in every_hostile_text() {
        let s = hostile_scene(&text);
        let test = parry_test(&s, &text).unwrap();
        let (items, texts) = parry_items(&test).unwrap_or_else(|e| panic!("{text:?}: {e}\n{test}"));
        assert_eq!(items, benign_items, "{text:?}:\n{test}");
        assert_eq!(
            texts,
            vec![
                ("SCENE".to_string(), s.name.clone()),
                ("SOURCE".to_string(), text.clone()),
                ("NOTES".to_string(), s.notes.clone()),
            ],
            "{text:?}"
        );
        // No line break or invisible character outside the literals' escapes.
        assert!(
            !test.contains(['\r', '\0', '\u{2028}', '\u{85}', '\u{202e}']),
            "{text:?}"
        );
    }
}

/// A scene body that keeps an engine's polygons (Coal's `Convex(points, polygons)`):
/// the query is the hull's, the Coal script rebuilds the object as built, and says what
/// to change only when that object is not convex (an L-shaped prism here, a cube below).
/// A polygon that names a missing point is refused, naming it.
#[test]
fn an_engines_convex_object_is_exported_as_built() {
    let prism = |outline: &[(f64, f64)]| -> (String, String) {
        let n = outline.len();
        let mut points = Vec::new();
        for z in [0.0, 1.0] {
            for (x, y) in outline {
                points.push(format!("({x:?}, {y:?}, {z:?})"));
            }
        }
        let mut polygons = Vec::new();
        for k in 1..n - 1 {
            polygons.push(format!("(0, {}, {})", k + 1, k));
            polygons.push(format!("({n}, {}, {})", n + k, n + k + 1));
        }
        for i in 0..n {
            let j = (i + 1) % n;
            polygons.push(format!("({i}, {j}, {})", j + n));
            polygons.push(format!("({i}, {}, {})", j + n, i + n));
        }
        (points.join(", "), polygons.join(", "))
    };
    let scene_of = |(points, polygons): (String, String)| {
        let text = format!(
            "(version: 2, name: \"as built\", bodies: [\
             (shape: Polytope(points: [{points}], polygons: Some([{polygons}]))),\
             (shape: Sphere(radius: 0.2), translation: (1.5, 1.5, 3.0))],\
             algorithms: [\"epa\"])"
        );
        Scene::parse(Path::new("as_built.ron"), &text)
    };
    let ell = scene_of(prism(&[
        (0.0, 0.0),
        (2.0, 0.0),
        (2.0, 1.0),
        (1.0, 1.0),
        (1.0, 2.0),
        (0.0, 2.0),
    ]))
    .unwrap();
    // The hull's answer: the sphere above the hull's top face.
    let run = ell.run(collidescope::solver::Method::epa());
    let d = run.summary.outcome.signed_distance().unwrap();
    assert!((d - 1.8).abs() < 1e-9, "{d}");
    let script = coal_script(&ell, "as_built.ron").unwrap();
    assert!(script.contains("shape_a = as_built(["), "{script}");
    assert!(script.contains("Body A is the Coal Convex as it was built, from its 12 points"));
    assert!(script.contains("is not convex: vertex"));
    let cube = scene_of(prism(&[(0.0, 0.0), (2.0, 0.0), (2.0, 2.0), (0.0, 2.0)])).unwrap();
    let script = coal_script(&cube, "cube.ron").unwrap();
    assert!(script.contains("shape_a = as_built(["));
    assert!(script.contains("WHAT_TO_CHANGE = ''") || script.contains("WHAT_TO_CHANGE = \"\""));
    if coal_available() {
        // Coal on the cube as built is right: the script passes.
        let (ok, out) = run_python(&script, "as-built-cube");
        assert!(ok, "{out}");
    }
    let error = scene_of((
        "(0.0, 0.0, 0.0), (1.0, 0.0, 0.0), (0.0, 1.0, 0.0), (0.0, 0.0, 1.0)".into(),
        "(0, 1, 2), (0, 1, 4)".into(),
    ))
    .unwrap_err()
    .to_string();
    assert!(
        error.contains("as_built.ron")
            && error.contains("polygon 1 [0, 1, 4] names a point past the 4 points"),
        "{error}"
    );
}
