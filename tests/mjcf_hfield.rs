//! MuJoCo `hfield` geoms (issue 45): a height field, inline or from a PNG or MuJoCo's
//! binary file, becomes the scene's `HeightField` placed as MuJoCo places it (x over
//! ±radius_x, y over ±radius_y, the first inline row and an image's top row at +y,
//! normalised elevations times elevation_z), its heights MuJoCo's compiled `hfield_data`
//! to the bit, and the midphase's certified distance from each ball and box to it
//! MuJoCo's own (`mj_geomDistance`: run by python when the `mujoco` package is installed
//! for the inline field, recorded for the file fixtures).

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

use collidescope::scene::ShapeSpec;
use collidescope::solver::Algorithm;

const MODEL: &str = r#"<mujoco model="terrain">
  <asset>
    <hfield name="ground" nrow="4" ncol="5" size="1.5 1.0 0.6 0.2"
            elevation="0 1 2 3 1  1 5 2 0 2  4 0 1 2 3  2 2 0 1 4"/>
  </asset>
  <worldbody>
    <geom name="terrain" type="hfield" hfield="ground" pos="0.1 0.2 -0.05" euler="0 0 20"/>
    <body name="b1" pos="0.3 0.4 0.9"><freejoint/><geom name="ball1" type="sphere" size="0.1"/></body>
    <body name="b2" pos="-0.9 -0.5 0.7"><freejoint/><geom name="ball2" type="sphere" size="0.15"/></body>
    <body name="b3" pos="0.8 -0.3 0.8" euler="10 20 30"><freejoint/><geom name="box3" type="box" size="0.1 0.15 0.05"/></body>
    <body name="b4" pos="-0.2 0.6 0.75"><freejoint/><geom name="ball4" type="sphere" size="0.05"/></body>
  </worldbody>
</mujoco>
"#;

fn mujoco_available() -> bool {
    Command::new("python3")
        .args(["-c", "import mujoco"])
        .output()
        .is_ok_and(|o| o.status.success())
}

#[test]
fn hfield_geoms_are_height_fields_placed_as_mujoco_places_them() {
    let dir = common::TempDir::new("mjcf-hfield");
    let path = dir.join("terrain.xml");
    std::fs::write(&path, MODEL).unwrap();
    let scene = collidescope::input::open(&path).unwrap_or_else(|e| panic!("{e}"));
    assert!(scene.notes.contains("Height fields"), "{}", scene.notes);
    let field = scene
        .bodies
        .iter()
        .position(|b| b.name.as_deref() == Some("terrain"))
        .expect("the terrain is a body");
    let ShapeSpec::HeightField { heights, scale, .. } = &scene.bodies[field].spec else {
        panic!("{:?}", scene.bodies[field].spec)
    };
    assert_eq!(*scale, [3.0, 0.6, 2.0]);
    // Normalised in f32, as MuJoCo holds them (`hfield_data` is float): 1/5 is 0.2f32.
    assert_eq!(heights[1], [0.2f32, 1.0, 0.4, 0.0, 0.4].map(f64::from));

    // Ours: each geom's certified distance to the terrain.
    let mut ours = Vec::new();
    for (k, body) in scene.bodies.iter().enumerate() {
        if k == field {
            continue;
        }
        let mut pair = scene.clone();
        pair.pairs = vec![(field, k)];
        let mut tight = pair.settings;
        tight.tolerance = 1e-12;
        let run = pair
            .run_composite(Algorithm::GJK, tight, false, None)
            .expect("a composite pair");
        let name = body.name.clone().unwrap();
        ours.push((name, run.answer.lower, run.answer.upper));
    }
    if !mujoco_available() {
        eprintln!("MuJoCo's check skipped: python3 cannot import mujoco (pip install mujoco)");
        return;
    }
    let script = r#"
import json, sys, mujoco, numpy as np
m = mujoco.MjModel.from_xml_path(sys.argv[1]); d = mujoco.MjData(m)
mujoco.mj_forward(m, d)
t = mujoco.mj_name2id(m, mujoco.mjtObj.mjOBJ_GEOM, "terrain")
out = {}
for g in range(m.ngeom):
    if g == t: continue
    fromto = np.zeros(6)
    out[mujoco.mj_id2name(m, mujoco.mjtObj.mjOBJ_GEOM, g)] = mujoco.mj_geomDistance(m, d, t, g, 10.0, fromto)
print(json.dumps(out))
"#;
    let out = Command::new("python3")
        .args(["-c", script, path.to_str().unwrap()])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let theirs: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    for (name, lower, upper) in ours {
        let d = theirs[&name].as_f64().unwrap();
        eprintln!("{name}: certified [{lower:e}, {upper:e}], MuJoCo {d:e}");
        assert!(
            lower - 1e-6 <= d && d <= upper + 1e-6,
            "{name}: certified [{lower:e}, {upper:e}], MuJoCo {d:e}"
        );
    }
}

// The file fixtures (tests/data/imports/mjcf/hfield_files.xml and hfield/): the numbers
// below were produced by mujoco 4.0.0's `m.hfield_data` (rows as MuJoCo stores them: the first
// at -y) and `mj_geomDistance`, printed by tests/data/imports/mjcf/hfield_expected.py,
// which also writes the fixtures (run it to regenerate both).
#[rustfmt::skip]
const GRAY: [[f32; 7]; 5] = [
    [0.041666668, 0.0, 0.14583333, 0.29166666, 0.375, 0.5833333, 0.016666668],
    [0.0625, 0.16666667, 0.25, 0.5, 0.5416667, 0.20833333, 0.0125],
    [0.083333336, 0.20833333, 0.375, 0.41666666, 0.33333334, 0.125, 0.004166667],
    [0.104166664, 0.45833334, 0.29166666, 0.25, 0.16666667, 0.0625, 0.008333334],
    [0.125, 1.0, 0.33333334, 0.20833333, 0.083333336, 0.041666668, 0.020833334],
];
#[rustfmt::skip]
const RGB: [[f32; 7]; 5] = [
    [0.16239317, 0.24786325, 0.33333334, 0.41880342, 0.50427353, 0.5897436, 0.6752137],
    [0.12820514, 0.21367522, 0.2991453, 0.3846154, 0.47008547, 0.0, 0.64102566],
    [0.094017096, 0.17948718, 0.26495728, 0.35042736, 0.43589744, 0.52136755, 0.60683763],
    [0.05982906, 0.14529915, 0.23076923, 0.31623933, 0.4017094, 1.0, 0.4871795],
    [0.025641026, 0.102564104, 0.18803419, 0.2735043, 0.35897437, 0.44444445, 0.52991456],
];
#[rustfmt::skip]
const GRAY16: [[f32; 4]; 3] = [
    [0.004347826, 0.008695652, 0.013043478, 0.017391304],
    [0.026086956, 1.0, 0.09565217, 0.0],
    [0.0, 0.0, 0.16521738, 0.51304346],
];
#[rustfmt::skip]
const PALETTE: [[f32; 4]; 3] = [
    [0.10526316, 0.42105263, 0.0, 0.0],
    [0.0, 0.0, 0.10526316, 0.42105263],
    [1.0, 0.0, 0.42105263, 0.10526316],
];
#[rustfmt::skip]
const TERRAIN: [[f32; 6]; 5] = [
    [0.0, 0.1875, 0.3125, 0.3875, 0.3375, 0.1375],
    [0.087500006, 0.3625, 0.425, 0.4625, 0.35, 0.2625],
    [0.2375, 0.4375, 0.5125, 0.5875, 0.4125, 0.325],
    [0.3375, 0.4875, 0.6375, 0.5375, 0.4, 0.3625],
    [1.0, 0.5625, 0.4625, 0.375, 0.2875, 0.395],
];
// mujoco 4.0.0: mj_geomDistance(m, d, field, its ball, 10.0, fromto) after mj_forward.
const DISTANCES: [(&str, f64); 5] = [
    ("gray", 0.1252141546793517),
    ("rgb", 0.12578395831246958),
    ("gray16", 0.12748239349298807),
    ("palette", 0.13055470085267729),
    ("terrain", 0.12578395831246958),
];

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/imports/mjcf")
        .join(name)
}

fn open_scene(path: &Path) -> collidescope::scene::Scene {
    collidescope::input::open(path).unwrap_or_else(|e| panic!("{e}"))
}

fn body(scene: &collidescope::scene::Scene, name: &str) -> usize {
    scene
        .bodies
        .iter()
        .position(|b| b.name.as_deref() == Some(name))
        .unwrap_or_else(|| panic!("no body {name}"))
}

/// The heights and scale of the height field the geom `name` became.
fn height_field(scene: &collidescope::scene::Scene, name: &str) -> (Vec<Vec<f64>>, [f64; 3]) {
    match &scene.bodies[body(scene, name)].spec {
        ShapeSpec::HeightField { heights, scale, .. } => (heights.clone(), *scale),
        other => panic!("{name}: {other:?}"),
    }
}

/// Our rows run from +y (the scene's first row) down; MuJoCo's `hfield_data` from -y up.
fn assert_mujoco_rows<const C: usize>(name: &str, ours: &[Vec<f64>], theirs: &[[f32; C]]) {
    assert_eq!(ours.len(), theirs.len(), "{name}: rows");
    for (k, row) in ours.iter().enumerate() {
        let expected = theirs[theirs.len() - 1 - k].map(f64::from);
        assert_eq!(
            row.as_slice(),
            expected.as_slice(),
            "{name}: our row {k} from +y"
        );
    }
}

#[test]
fn hfield_files_compile_to_mujocos_hfield_data() {
    let scene = open_scene(&fixture("hfield_files.xml"));
    let check = |geom: &str, size: [f64; 3], ours_vs: &dyn Fn(&[Vec<f64>])| {
        let (heights, scale) = height_field(&scene, geom);
        // x over 2 radius_x, heights times elevation_z, y over 2 radius_y.
        assert_eq!(scale, [2.0 * size[0], size[2], 2.0 * size[1]], "{geom}");
        ours_vs(&heights);
    };
    // 8-bit gray, with nrow and ncol written (matching the image).
    check("gray_field", [0.6, 0.4, 0.3], &|h| {
        assert_mujoco_rows("gray", h, &GRAY)
    });
    // RGB: MuJoCo's gray is the red channel (lodepng's conversion), not the luminance.
    check("rgb_field", [0.6, 0.4, 0.25], &|h| {
        assert_mujoco_rows("rgb", h, &RGB)
    });
    // 16-bit gray: the high byte only (the low bytes vary and do not count).
    check("gray16_field", [0.3, 0.2, 0.2], &|h| {
        assert_mujoco_rows("gray16", h, &GRAY16)
    });
    // A 2-bit palette image: each entry's red.
    check("palette_field", [0.3, 0.2, 0.2], &|h| {
        assert_mujoco_rows("palette", h, &PALETTE)
    });
    // MuJoCo's binary format, unnamed (named `terrain` by its file), rows as written.
    check("terrain_field", [0.5, 0.4, 0.2], &|h| {
        assert_mujoco_rows("terrain", h, &TERRAIN)
    });
}

#[test]
fn balls_over_file_fields_are_mujocos_distance_away() {
    // Each ball hangs just above its field's highest point, which MuJoCo puts at +y for
    // an image's top row and at +y for a binary file's last row: a field laid the other
    // way round would leave the ball far above a low corner.
    let scene = open_scene(&fixture("hfield_files.xml"));
    for (name, theirs) in DISTANCES {
        let field = body(&scene, &format!("{name}_field"));
        let ball = body(&scene, &format!("{name}_ball"));
        let mut pair = scene.clone();
        pair.pairs = vec![(field, ball)];
        let mut tight = pair.settings;
        tight.tolerance = 1e-12;
        let run = pair
            .run_composite(Algorithm::GJK, tight, false, None)
            .expect("a composite pair");
        let (lower, upper) = (run.answer.lower, run.answer.upper);
        eprintln!("{name}: certified [{lower:e}, {upper:e}], MuJoCo {theirs:e}");
        // MuJoCo's distances to these peaks agree with ours to about 1e-13.
        assert!(
            lower - 1e-9 <= theirs && theirs <= upper + 1e-9,
            "{name}: certified [{lower:e}, {upper:e}], MuJoCo {theirs:e}"
        );
    }
}

/// The model of one `<hfield>` asset `asset` (named h), written as `name` in `dir`,
/// imported: its error.
fn refusal(dir: &Path, name: &str, compiler: &str, asset: &str) -> String {
    let text = format!(
        "<mujoco>{compiler}<asset>{asset}</asset><worldbody><geom type=\"hfield\" hfield=\"h\"/>\
         <body pos=\"0 0 2\"><freejoint/><geom type=\"sphere\" size=\"0.1\"/></body>\
         </worldbody></mujoco>"
    );
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    match collidescope::import::import_file(&path) {
        Ok(_) => panic!("{name}: imported"),
        Err(e) => e.to_string(),
    }
}

#[test]
fn bad_hfields_are_refused_naming_the_file_the_hfield_and_the_problem() {
    let dir = common::TempDir::new("mjcf-hfield-bad");
    let binary = |nrow: i32, ncol: i32, values: &[f32]| {
        let mut bytes = [nrow.to_le_bytes(), ncol.to_le_bytes()].concat();
        bytes.extend(values.iter().flat_map(|v| v.to_le_bytes()));
        bytes
    };
    std::fs::write(dir.join("text.png"), "not an image").unwrap();
    std::fs::write(dir.join("short.bin"), &binary(3, 3, &[0.5; 8])[..]).unwrap();
    std::fs::write(
        dir.join("nan.bin"),
        binary(2, 2, &[0.0, 1.0, f32::NAN, 2.0]),
    )
    .unwrap();
    std::fs::write(dir.join("row.bin"), binary(1, 4, &[0.0, 1.0, 2.0, 3.0])).unwrap();
    std::fs::copy(fixture("hfield/gray.png"), dir.join("gray.png")).unwrap();
    for (name, asset, expected) in [
        (
            "missing.xml",
            r#"<hfield name="h" file="nowhere.png" size="1 1 1 0.1"/>"#,
            "nowhere.png: cannot read",
        ),
        (
            "text.xml",
            r#"<hfield name="h" file="text.png" size="1 1 1 0.1"/>"#,
            "text.png: not a PNG image",
        ),
        (
            "short.xml",
            r#"<hfield name="h" file="short.bin" size="1 1 1 0.1"/>"#,
            "short.bin: not a MuJoCo binary height field (nrow, ncol as int32, then nrow × ncol \
             float32): 40 bytes where its header's nrow × ncol = 3 × 3 says 44",
        ),
        (
            "nan.xml",
            r#"<hfield name="h" file="nan.bin" size="1 1 1 0.1"/>"#,
            "elevation 2 (row 1 from −y, column 0) is NaN",
        ),
        (
            "row.xml",
            r#"<hfield name="h" file="row.bin" size="1 1 1 0.1"/>"#,
            "1 rows of 4 elevations: at least 2 of each",
        ),
        (
            "counts.xml",
            r#"<hfield name="h" file="gray.png" nrow="7" ncol="5" size="1 1 1 0.1"/>"#,
            "nrow=\"7\", but",
        ),
        (
            "both.xml",
            r#"<hfield name="h" file="gray.png" elevation="1 2 3 4" size="1 1 1 0.1"/>"#,
            "both file=\"gray.png\" and elevation",
        ),
        (
            "type.xml",
            r#"<hfield name="h" file="gray.png" content_type="image/jpeg" size="1 1 1 0.1"/>"#,
            "content_type=\"image/jpeg\"",
        ),
        (
            "base.xml",
            r#"<hfield name="h" file="gray.png" size="1 1 1 0"/>"#,
            "must all be > 0",
        ),
        (
            "elevations.xml",
            r#"<hfield name="h" nrow="3" ncol="3" size="1 1 1 0.1" elevation="0 1 2"/>"#,
            "elevation holds 3 numbers",
        ),
        (
            "size.xml",
            r#"<hfield name="h" nrow="2" ncol="2" size="1 1 1" elevation="0 1 2 3"/>"#,
            "size needs 4 numbers",
        ),
    ] {
        let e = refusal(&dir, name, "", asset);
        assert!(
            e.contains(name)
                && e.contains("<hfield>")
                && e.contains("hfield h: ")
                && e.contains(expected),
            "{e}"
        );
    }
}

#[test]
fn files_are_found_through_meshdir_and_typed_by_content_type() {
    // MuJoCo looks in the mesh directory (assetdir when meshdir is not given), never in
    // texturedir, and a content_type overrides the extension.
    let dir = common::TempDir::new("mjcf-hfield-dirs");
    for sub in ["assets", "meshes", "textures"] {
        std::fs::create_dir(dir.join(sub)).unwrap();
    }
    std::fs::copy(fixture("hfield/gray.png"), dir.join("meshes/gray.image")).unwrap();
    std::fs::copy(
        fixture("hfield/terrain.bin"),
        dir.join("textures/terrain.bin"),
    )
    .unwrap();
    let asset =
        r#"<hfield name="h" file="gray.image" content_type="image/png" size="0.6 0.4 0.3 0.1"/>"#;
    let text = format!(
        "<mujoco><compiler assetdir=\"assets\" meshdir=\"meshes\" texturedir=\"textures\"/>\
         <asset>{asset}</asset><worldbody><geom name=\"field\" type=\"hfield\" hfield=\"h\"/>\
         <body pos=\"0 0 2\"><freejoint/><geom type=\"sphere\" size=\"0.1\"/></body>\
         </worldbody></mujoco>"
    );
    let path = dir.join("dirs.xml");
    std::fs::write(&path, text).unwrap();
    let (heights, _) = height_field(&open_scene(&path), "field");
    assert_mujoco_rows("gray.image", &heights, &GRAY);

    let e = refusal(
        &dir,
        "texturedir.xml",
        r#"<compiler texturedir="textures"/>"#,
        r#"<hfield name="h" file="terrain.bin" size="1 1 1 0.1"/>"#,
    );
    assert!(e.contains("terrain.bin: cannot read"), "{e}");
}
