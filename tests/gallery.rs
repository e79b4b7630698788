//! The gallery of real failures: every case is the query of a public bug
//! report brought in through the importers (its source beside it imports to the same
//! bodies, to the bit), narrates itself in three steps, and gets the verdict the closed
//! forms and parry3d-f64 give.

use std::path::Path;

use collidescope::import::import_file;
use collidescope::scene::Scene;

const EXPECTED: [(&str, &str); 21] = [
    ("fcl_445_box_box", "penetrating"),
    ("mujoco_1800_tunneled_boxes", "penetrating"),
    ("libccd_25_stacked_cubes", "penetrating"),
    ("mujoco_3476_thin_boxes", "separated"),
    ("parry_429_ball_cast", "separated"),
    ("coal_604_boxes", "separated"),
    ("fcl_508_box_box", "separated"),
    ("fcl_319_cylinder_box", "separated"),
    ("fcl_388_box_box", "separated"),
    ("fcl_390_cylinder_box", "separated"),
    ("fcl_391_cylinder_sphere", "penetrating"),
    ("fcl_395_box_box", "penetrating"),
    ("fcl_398_box_box", "penetrating"),
    ("fcl_408_sphere_box", "contact"),
    ("fcl_415_box_box", "penetrating"),
    ("fcl_428_box_box", "penetrating"),
    ("fcl_493_boxes", "touching"),
    ("drake_21673_box_box", "penetrating"),
    ("parry_315_touching_boxes", "touching"),
    ("ncollide_157_cylinder_cuboid", "penetrating"),
    ("parry_a1_cuboids", "separated"),
];

#[test]
fn every_gallery_case_is_its_bug_report_imported_and_answered() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("scenes/gallery");
    let mut seen = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().and_then(|e| e.to_str()) != Some("ron") {
            continue;
        }
        let name = path.file_stem().unwrap().to_str().unwrap().to_string();
        let expected = EXPECTED
            .iter()
            .find(|(n, _)| *n == name)
            .unwrap_or_else(|| panic!("{name}: not in the table of expected verdicts"))
            .1;
        let scene = collidescope::input::open(&path).unwrap_or_else(|e| panic!("{e}"));
        assert!(scene.lesson.len() >= 3, "{name}: its narration");
        // Brought in through the importers: the source gives the same bodies.
        let source = ["txt", "json"]
            .iter()
            .map(|e| dir.join("sources").join(format!("{name}.{e}")))
            .find(|p| p.exists())
            .unwrap_or_else(|| panic!("{name}: no source in scenes/gallery/sources"));
        let imported = Scene::from_scene_file(import_file(&source).unwrap(), &source).unwrap();
        for (x, y) in imported.bodies.iter().zip(&scene.bodies) {
            assert_eq!((&x.spec, x.pose), (&y.spec, y.pose), "{name}");
        }
        let epa = scene.run("epa".parse::<collidescope::solver::Method>().unwrap());
        assert_eq!(
            epa.summary.outcome.status_name(),
            expected,
            "{name}: {}",
            epa.summary.outcome
        );
        if name == "parry_429_ball_cast" {
            // The ball's lowest point reaches the top face y = 1 at the closed form's time.
            let toi = scene.run("toi".parse::<collidescope::solver::Method>().unwrap());
            let exact = (f64::from(2.0732973f32) - f64::from(0.5166f32) - 1.0) / 5.0;
            match toi.summary.outcome {
                collidescope::solver::Outcome::Impact { time, .. } => {
                    assert!((time - exact).abs() < 1e-9, "{time} vs {exact}")
                }
                other => panic!("{other}"),
            }
        }
        seen += 1;
    }
    assert!(seen >= 10, "the gallery holds {seen} cases");
}
