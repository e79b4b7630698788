//! What a new user meets first (a robotics user's review): which pair `solve` runs and
//! how to pick another, a missing mesh said as missing, a mesh that is not a surface
//! refused with what to do, and `mesh` reporting its topology beside its convexity.

mod common;

use common::{cli, cli_json, cli_ok, TempDir};

/// Three named bodies, two pairs: `left`–`right` (first, 1 apart) and `right`–`top`.
const THREE: &str = r#"Scene(version: 2, name: "three", bodies: [
    Body(name: Some("left"), shape: Sphere(radius: 1.0)),
    Body(name: Some("right"), shape: Sphere(radius: 1.0), translation: (3.0, 0.0, 0.0)),
    Body(name: Some("top"), shape: Sphere(radius: 1.0), translation: (3.0, 5.0, 0.0))],
    pairs: [(0, 1), (1, 2)], algorithms: ["gjk"])"#;

fn stdout(out: &std::process::Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn stderr(out: &std::process::Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// `solve` names the pair it runs and how to pick another; `--pair K` and
/// `--pair NAME1,NAME2` pick it; the first stays the default.
#[test]
fn solve_names_its_pair_and_picks_another_by_index_or_names() {
    let dir = TempDir::new("ux-pair");
    let path = dir.join("three.ron");
    std::fs::write(&path, THREE).unwrap();
    let path = path.to_str().unwrap();
    let table = stdout(&cli_ok(&["solve", path]));
    assert!(
        table.contains("pair 0 of 2: A = left (body 0), B = right (body 1)")
            && table.contains("--pair K, 0..1, or --pair NAME1,NAME2"),
        "{table}"
    );
    for pick in ["1", "top,right"] {
        let table = stdout(&cli_ok(&["solve", path, "--pair", pick]));
        assert!(
            table.contains("pair 1 of 2: A = right (body 1), B = top (body 2)"),
            "{pick}: {table}"
        );
    }
    let json = cli_json(&["solve", path, "--pair", "1", "--json"]);
    assert_eq!(json["pair"], 1);
    assert_eq!(json["bodies"], serde_json::json!(["right", "top"]));
    // The spheres' surfaces are 3 apart; the first pair's are 1 apart.
    let distance = json["runs"][0]["distance"].as_f64().unwrap();
    assert!((distance - 3.0).abs() < 1e-9, "{distance}");
    // The bracket sits at the top level, as in a composite pair's report.
    let (lower, upper) = (
        json["runs"][0]["lower_bound"].as_f64().unwrap(),
        json["runs"][0]["upper_bound"].as_f64().unwrap(),
    );
    assert!(
        lower <= 3.0 + 1e-12 && 3.0 - 1e-9 <= upper,
        "{lower} {upper}"
    );
}

#[test]
fn bad_pairs_are_refused_with_the_valid_range_or_names() {
    let dir = TempDir::new("ux-bad-pair");
    let path = dir.join("three.ron");
    std::fs::write(&path, THREE).unwrap();
    let path = path.to_str().unwrap();
    for (pick, needle) in [
        ("7", "pair 7: the scene has 2 pairs (0..1)"),
        (
            "left,nose",
            "no body is named 'nose' (the bodies: left, right, top)",
        ),
        ("left,top", "are not a pair the scene checks"),
        (
            "x",
            "expected an index K (0..1) or two body names NAME1,NAME2",
        ),
    ] {
        let out = cli(&["solve", path, "--pair", pick]);
        assert!(!out.status.success(), "{pick} succeeded");
        assert!(stderr(&out).contains(needle), "{pick}: {}", stderr(&out));
    }
}

/// A mesh file that is not there is said to be missing, not "not a valid STL file".
#[test]
fn a_missing_mesh_file_is_said_to_be_missing() {
    let dir = TempDir::new("ux-missing");
    let missing = dir.join("link9.stl");
    let out = cli(&["mesh", missing.to_str().unwrap()]);
    let err = stderr(&out);
    assert!(
        !out.status.success()
            && err.contains(&format!("{}: the file does not exist", missing.display()))
            && !err.contains("not a valid"),
        "{err}"
    );
    let scene = dir.join("missing.ron");
    std::fs::write(
        &scene,
        r#"Scene(version: 2, name: "m", bodies: [Body(shape: Mesh(path: "link9.stl", as: Mesh)),
            Body(shape: Sphere(radius: 1.0))], algorithms: ["gjk"])"#,
    )
    .unwrap();
    let err = stderr(&cli(&["solve", scene.to_str().unwrap()]));
    assert!(err.contains("link9.stl: the file does not exist"), "{err}");
}

/// An edge of three triangles (a fin): refused as a scene's mesh, naming the file and
/// the edge and saying what to do; `mesh` reports it beside the convexity.
#[test]
fn a_mesh_that_is_not_a_surface_is_refused_with_what_to_do() {
    let dir = TempDir::new("ux-fin");
    // A closed tetrahedron and a fourth triangle on its edge 1–2.
    let obj = "v 0 0 0\nv 1 0 0\nv 0 1 0\nv 0 0 1\nv 0.5 -1 0\n\
               f 1 3 2\nf 1 2 4\nf 2 3 4\nf 1 4 3\nf 1 2 5\n";
    std::fs::write(dir.join("fin.obj"), obj).unwrap();
    let scene = dir.join("fin.ron");
    std::fs::write(
        &scene,
        r#"Scene(version: 2, name: "fin", bodies: [Body(shape: Mesh(path: "fin.obj", as: Mesh)),
            Body(shape: Sphere(radius: 1.0), translation: (0.0, 0.0, 5.0))], algorithms: ["gjk"])"#,
    )
    .unwrap();
    let err = stderr(&cli(&["solve", scene.to_str().unwrap()]));
    for needle in [
        "fin.obj: taken as its triangles (`as: Mesh`)",
        "the edge (0, 0, 0)–(1, 0, 0) belongs to 3 triangles (0, 1, 4)",
        "`as: Hull`",
        "`Compound` whose parts are `Polytope`s",
    ] {
        assert!(err.contains(needle), "{needle}: {err}");
    }
    // Written out as a TriMesh, the same advice.
    let inline = dir.join("inline.ron");
    std::fs::write(
        &inline,
        r#"Scene(version: 2, name: "fin", bodies: [Body(shape: TriMesh(
            vertices: [(0.0, 0.0, 0.0), (1.0, 0.0, 0.0), (0.0, 1.0, 0.0), (0.0, 0.0, 1.0), (0.0, -1.0, 0.0)],
            triangles: [(0, 1, 2), (0, 1, 3), (0, 1, 4)])),
            Body(shape: Sphere(radius: 1.0), translation: (0.0, 0.0, 5.0))], algorithms: ["gjk"])"#,
    )
    .unwrap();
    let err = stderr(&cli(&["solve", inline.to_str().unwrap()]));
    assert!(
        err.contains("the edge between vertices 0 and 1 belongs to 3 triangles (0, 1, 2)")
            && err.contains("`Compound` whose parts"),
        "{err}"
    );
    // `mesh` says convex (every vertex is on the hull) and that it is not a surface.
    let report = stdout(&cli_ok(&["mesh", dir.join("fin.obj").to_str().unwrap()]));
    assert!(report.contains("convex          yes"), "{report}");
    assert!(
        report.contains("surface         not a surface: 1 edge of three triangles or more, the first (0, 0, 0)–(1, 0, 0)"),
        "{report}"
    );
    let json = cli_json(&["mesh", dir.join("fin.obj").to_str().unwrap(), "--json"]);
    assert_eq!(json["topology"]["non_manifold_edges"], 1);
    assert_eq!(json["topology"]["closed"], false);
}

#[test]
fn mesh_reports_closed_and_open_surfaces() {
    let dir = TempDir::new("ux-surface");
    let tetrahedron = "v 0 0 0\nv 1 0 0\nv 0 1 0\nv 0 0 1\nf 1 3 2\nf 1 2 4\nf 2 3 4\nf 1 4 3\n";
    std::fs::write(dir.join("tet.obj"), tetrahedron).unwrap();
    std::fs::write(dir.join("open.obj"), &tetrahedron[..tetrahedron.len() - 8]).unwrap();
    let closed = stdout(&cli_ok(&["mesh", dir.join("tet.obj").to_str().unwrap()]));
    assert!(closed.contains("surface         closed"), "{closed}");
    let open = stdout(&cli_ok(&["mesh", dir.join("open.obj").to_str().unwrap()]));
    assert!(open.contains("surface         open"), "{open}");
}

/// A build without the viewer says so when asked for it, rather than clap's
/// "unrecognized subcommand".
#[cfg(not(feature = "app"))]
#[test]
fn view_without_the_viewer_says_how_to_get_it() {
    let out = cli(&["view", "scenes/boxes_face_to_face.ron"]);
    let err = stderr(&out);
    assert!(
        !out.status.success()
            && err.contains("built without the viewer")
            && err.contains("cargo install --path ."),
        "{err}"
    );
}
