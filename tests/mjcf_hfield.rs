//! MuJoCo `hfield` geoms (issue 45): an inline height field becomes the scene's
//! `HeightField` placed as MuJoCo places it (x over ±radius_x, y over ±radius_y, the
//! first row of elevations at +y, normalised elevations times elevation_z), and the
//! midphase's certified distance from each ball and box to it is MuJoCo's own
//! (`mj_geomDistance`, run by python when the `mujoco` package is installed).

mod common;

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
    assert_eq!(heights[1], vec![0.2, 1.0, 0.4, 0.0, 0.4]);

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

#[test]
fn hfield_files_and_bad_sizes_are_refused_naming_the_element() {
    let dir = common::TempDir::new("mjcf-hfield-bad");
    for (name, asset, expected) in [
        (
            "png.xml",
            r#"<hfield name="h" file="terrain.png" size="1 1 1 0"/>"#,
            "terrain.png",
        ),
        (
            "short.xml",
            r#"<hfield name="h" nrow="3" ncol="3" size="1 1 1 0" elevation="0 1 2"/>"#,
            "elevation holds 3 numbers",
        ),
        (
            "size.xml",
            r#"<hfield name="h" nrow="2" ncol="2" size="1 1 1" elevation="0 1 2 3"/>"#,
            "size needs 4 numbers",
        ),
    ] {
        let text = format!(
            "<mujoco><asset>{asset}</asset><worldbody><geom type=\"hfield\" hfield=\"h\"/>\
             <body pos=\"0 0 2\"><freejoint/><geom type=\"sphere\" size=\"0.1\"/></body>\
             </worldbody></mujoco>"
        );
        let path = dir.join(name);
        std::fs::write(&path, text).unwrap();
        let e = collidescope::import::import_file(&path)
            .unwrap_err()
            .to_string();
        assert!(
            e.contains(name) && e.contains("<hfield>") && e.contains(expected),
            "{e}"
        );
    }
}
