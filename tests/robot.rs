//! Robot self-collision: the sample robots against their certified expected
//! distances, and the loader on small URDFs written here (primitives, mimic joints,
//! mirrored meshes, bad input).

mod common;

use std::path::{Path, PathBuf};

use collidescope::robot::{checked_pairs, read_disabled_pairs, RobotModel, SelfCollision};
use collidescope::solver::Algorithm;

/// Runs a sample file and holds it to its README's rule.
fn check_sample(name: &str) {
    let Some(dir) = common::shared_data("robots/configs") else {
        return;
    };
    let path = dir.join(name);
    let expected: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    let urdf = dir.join(expected["urdf"].as_str().unwrap());
    let model = RobotModel::load(&urdf, None).unwrap();
    let disabled = match expected["srdf"].as_str() {
        Some(srdf) => {
            let known = |n: &str| model.link_names.iter().any(|l| l == n);
            read_disabled_pairs(&dir.join(srdf), known).unwrap().0
        }
        None => Vec::new(),
    };
    let links: Vec<&str> = model.shapes.iter().map(|s| s.name.as_str()).collect();
    let expected_links: Vec<&str> = expected["links"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap())
        .collect();
    assert_eq!(links, expected_links);
    let pairs = checked_pairs(&model, &disabled);
    let expected_pairs: Vec<(usize, usize)> = expected["pairs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| {
            (
                p[0].as_u64().unwrap() as usize,
                p[1].as_u64().unwrap() as usize,
            )
        })
        .collect();
    assert_eq!(pairs, expected_pairs);
    // The joints named in the file, in order, map to the actuated joints.
    let actuated = model.actuated_names();
    let joints: Vec<usize> = expected["joints"]
        .as_array()
        .unwrap()
        .iter()
        .map(|j| {
            actuated
                .iter()
                .position(|a| a == j.as_str().unwrap())
                .unwrap()
        })
        .collect();
    let mut checker = SelfCollision::new(pairs, Algorithm::GJK);
    for (c, values) in expected["configs"].as_array().unwrap().iter().enumerate() {
        let mut q = vec![0.0; actuated.len()];
        for (slot, v) in joints.iter().zip(values.as_array().unwrap()) {
            q[*slot] = v.as_f64().unwrap();
        }
        let answer = checker.check(&model, &q);
        let result = &expected["results"][c];
        let colliding: Vec<u64> = result["colliding"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_u64().unwrap())
            .collect();
        for (k, pair) in answer.pairs.iter().enumerate() {
            let d = result["distances"][k].as_f64().unwrap();
            let bound = 1e-6 * d.max(1.0) + 1e-9;
            assert!(
                (pair.distance - d).abs() <= bound,
                "{name} config {c} pair {k}: {} vs {d}",
                pair.distance
            );
            // No wrong verdict: far apart must not collide, deep overlap must.
            if d > bound {
                assert!(!pair.colliding, "{name} config {c} pair {k} apart by {d}");
            }
            if colliding.contains(&(k as u64)) {
                let depth = result["depths"]
                    .as_object()
                    .and_then(|m| m.get(&k.to_string()))
                    .and_then(|v| v.as_f64())
                    .unwrap_or(0.0);
                if depth > bound {
                    assert!(
                        pair.colliding,
                        "{name} config {c} pair {k} overlaps by {depth}"
                    );
                }
            }
        }
    }
}

#[test]
fn panda_distances_match_the_certified_ones() {
    check_sample("panda_sample.json");
}

#[test]
fn panda_with_its_srdf_checks_only_the_enabled_pairs() {
    check_sample("panda_srdf_sample.json");
}

#[test]
fn ur5_distances_match_the_certified_ones() {
    check_sample("ur5_sample.json");
}

fn temp_dir(name: &str) -> common::TempDir {
    common::TempDir::new(&format!("robot-{name}"))
}

fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path
}

/// A binary STL of a unit tetrahedron with one corner at (1, 0, 0).
fn tetrahedron_stl() -> Vec<u8> {
    let corners = [
        [0.0f32, 0.0, 0.0],
        [1.0, 0.0, 0.0],
        [0.0, 1.0, 0.0],
        [0.0, 0.0, 1.0],
    ];
    let faces = [[0, 2, 1], [0, 1, 3], [0, 3, 2], [1, 2, 3]];
    let mut out = vec![0u8; 80];
    out[..5].copy_from_slice(b"solid");
    out.extend((faces.len() as u32).to_le_bytes());
    for f in faces {
        out.extend([0u8; 12]);
        for v in f {
            for c in corners[v] {
                out.extend(c.to_le_bytes());
            }
        }
        out.extend([0u8; 2]);
    }
    out
}

#[test]
fn primitives_mimic_joints_and_mirrored_meshes_follow_the_urdf_rules() {
    let dir = temp_dir("rules");
    std::fs::create_dir_all(dir.join("pkg/meshes")).unwrap();
    std::fs::write(dir.join("pkg/meshes/tet.stl"), tetrahedron_stl()).unwrap();
    // base: a sphere r 0.1 at the origin; arm: a sphere r 0.1 at x = 1 after a prismatic
    // joint along x; twin mimics the arm's joint ×2 + 0.5 and carries the tetrahedron
    // mirrored by scale (-1, 1, 1) (its corner at x = −1 in its frame).
    let urdf = write(
        &dir,
        "robot.urdf",
        r#"<robot name="t">
  <link name="base"><collision><geometry><sphere radius="0.1"/></geometry></collision></link>
  <link name="arm"><collision><origin xyz="1 0 0"/><geometry><sphere radius="0.1"/></geometry></collision></link>
  <link name="twin"><collision><geometry><mesh filename="package://pkg/meshes/tet.stl" scale="-1 1 1"/></geometry></collision></link>
  <link name="empty"/>
  <joint name="slide" type="prismatic"><parent link="base"/><child link="arm"/><axis xyz="1 0 0"/><limit lower="0" upper="2" effort="1" velocity="1"/></joint>
  <joint name="follow" type="prismatic"><parent link="base"/><child link="twin"/><axis xyz="1 0 0"/><origin xyz="4 0 0"/><limit lower="0" upper="5" effort="1" velocity="1"/><mimic joint="slide" multiplier="2" offset="0.5"/></joint>
  <joint name="hold" type="fixed"><parent link="arm"/><child link="empty"/></joint>
</robot>"#,
    );
    let model = RobotModel::load(&urdf, None).unwrap();
    assert_eq!(model.actuated_names(), vec!["slide".to_string()]);
    let names: Vec<&str> = model.shapes.iter().map(|s| s.name.as_str()).collect();
    assert_eq!(names, ["base", "arm", "twin"]);
    let pairs = checked_pairs(&model, &[]);
    let mut checker = SelfCollision::new(pairs, Algorithm::GJK);
    // The default GJK test (r − α ≤ 1e-6, absolute) guarantees 1e-6.
    for q in [0.0, 0.3, 1.0] {
        let answer = checker.check(&model, &[q]);
        // base–arm: centres 1 + q apart.
        assert!((answer.pairs[0].distance - (0.8 + q)).abs() < 1e-6);
        // base–twin: the mirrored corner at x = 4 + 2q + 0.5 − 1.
        let corner = 3.5 + 2.0 * q;
        assert!(
            (answer.pairs[1].distance - (corner - 0.1)).abs() < 1e-6,
            "{q}: {:?}",
            answer.pairs[1]
        );
        // arm–twin: from the arm's sphere at x = 1 + q.
        assert!((answer.pairs[2].distance - (corner - (1.0 + q) - 0.1)).abs() < 1e-6);
    }
}

/// A COLLADA tetrahedron in millimetres (`<unit meter="0.001">`) in a child node
/// translated 1000 mm along x under a parent rotated 90° about z: parent first, the
/// translation turns to +y, so in the link its corners are (0, 1, 0), (−1, 1, 0),
/// (0, 2, 0) and (0, 1, 1). (Composed child first, or unscaled, it would not be.)
fn tetrahedron_dae() -> String {
    r##"<?xml version="1.0" encoding="utf-8"?>
<COLLADA xmlns="http://www.collada.org/2005/11/COLLADASchema" version="1.4.1">
  <asset><unit name="millimeter" meter="0.001"/><up_axis>Z_UP</up_axis></asset>
  <library_geometries>
    <geometry id="tet" name="tet"><mesh>
      <source id="tet-pos"><float_array id="tet-pos-array" count="12">0 0 0 1000 0 0 0 1000 0 0 0 1000</float_array>
        <technique_common><accessor source="#tet-pos-array" count="4" stride="3">
          <param name="X" type="float"/><param name="Y" type="float"/><param name="Z" type="float"/>
        </accessor></technique_common></source>
      <vertices id="tet-vtx"><input semantic="POSITION" source="#tet-pos"/></vertices>
      <triangles count="4"><input semantic="VERTEX" source="#tet-vtx" offset="0"/><p>0 2 1 0 1 3 0 3 2 1 2 3</p></triangles>
    </mesh></geometry>
  </library_geometries>
  <library_visual_scenes>
    <visual_scene id="scene"><node id="p"><rotate>0 0 1 90</rotate><node id="n"><translate>1000 0 0</translate><instance_geometry url="#tet"/></node></node></visual_scene>
  </library_visual_scenes>
  <scene><instance_visual_scene url="#scene"/></scene>
</COLLADA>"##
        .to_string()
}

/// What ROS's own parser and MoveIt accept, we accept: COLLADA collision meshes, a
/// `<texture/>` naming no file, a mimic of a joint that does not exist (a warning; the
/// joint moves on its own). A robot without links is refused by name.
#[test]
fn collada_meshes_and_what_ros_tolerates_load() {
    let dir = temp_dir("ros");
    std::fs::write(dir.join("tet.dae"), tetrahedron_dae()).unwrap();
    let urdf = write(
        &dir,
        "robot.urdf",
        r#"<robot name="r">
  <material name="skin"><color rgba="1 1 1 1"/><texture/></material>
  <link name="base"><collision><geometry><sphere radius="0.1"/></geometry></collision></link>
  <link name="tip">
    <visual><geometry><sphere radius="0.1"/></geometry><material name="skin"><texture/></material></visual>
    <collision><geometry><mesh filename="tet.dae"/></geometry></collision>
  </link>
  <joint name="lift" type="prismatic"><parent link="base"/><child link="tip"/><axis xyz="0 0 1"/><origin xyz="0 0 1"/><limit lower="0" upper="1" effort="1" velocity="1"/><mimic joint="nowhere"/></joint>
</robot>"#,
    );
    let model = RobotModel::load(&urdf, None).unwrap();
    assert!(
        model.warnings.iter().any(|w| w.contains("nowhere")),
        "{:?}",
        model.warnings
    );
    assert_eq!(model.actuated_names(), vec!["lift".to_string()]);
    let mut checker = SelfCollision::new(checked_pairs(&model, &[]), Algorithm::GJK);
    for q in [0.0, 0.5] {
        // The tetrahedron's face z = 0 at height 1 + q, its nearest point to the
        // sphere's centre (0, 0, 0) is its corner (0, 1, 1 + q).
        let d = checker.check(&model, &[q]).pairs[0].distance;
        let exact = (1.0 + (1.0 + q) * (1.0 + q)).sqrt() - 0.1;
        assert!((d - exact).abs() < 1e-6, "{q}: {d} vs {exact}");
    }
    let empty = write(&dir, "empty.urdf", r#"<robot name="nothing"></robot>"#);
    let error = RobotModel::load(&empty, None).unwrap_err();
    assert!(
        error.contains("empty.urdf") && error.contains("no links"),
        "{error}"
    );
}

#[test]
fn bad_robots_are_refused_naming_the_file_and_the_element() {
    let dir = temp_dir("bad");
    let robot = |joints: &str, collision: &str| {
        format!(
            r#"<robot name="bad">
  <link name="a"><collision><geometry>{collision}</geometry></collision></link>
  <link name="b"><collision><geometry><box size="1 1 1"/></geometry></collision></link>
  {joints}
</robot>"#
        )
    };
    let fixed = r#"<joint name="j" type="fixed"><parent link="a"/><child link="b"/></joint>"#;
    let cases = [
        (
            "missing_mesh.urdf",
            robot(fixed, r#"<mesh filename="package://nowhere/gone.stl"/>"#),
            "gone.stl",
        ),
        // A package the URDF's folders do not hold: the fix is the package root.
        (
            "missing_package.urdf",
            robot(fixed, r#"<mesh filename="package://nowhere/gone.stl"/>"#),
            "give --package-root DIR, DIR the folder that holds the package 'nowhere'",
        ),
        (
            "missing_file.urdf",
            robot(fixed, r#"<mesh filename="meshes/gone.stl"/>"#),
            "(no file ",
        ),
        (
            "cycle.urdf",
            robot(
                r#"<joint name="j1" type="fixed"><parent link="a"/><child link="b"/></joint>
  <joint name="j2" type="fixed"><parent link="b"/><child link="a"/></joint>"#,
                r#"<box size="1 1 1"/>"#,
            ),
            "cycle",
        ),
        (
            "unknown_type.urdf",
            robot(
                r#"<joint name="j" type="hinge"><parent link="a"/><child link="b"/></joint>"#,
                r#"<box size="1 1 1"/>"#,
            ),
            "unknown_type.urdf",
        ),
        (
            "missing_link.urdf",
            robot(
                r#"<joint name="j" type="fixed"><parent link="a"/><child link="c"/></joint>"#,
                r#"<box size="1 1 1"/>"#,
            ),
            "link c",
        ),
        // non-finite or absurd values are refused at load, the element named
        // (they made every distance NaN, and a NaN pair read as free).
        (
            "infinite_limits.urdf",
            robot(
                r#"<joint name="j" type="revolute"><parent link="a"/><child link="b"/><axis xyz="0 0 1"/><limit lower="-inf" upper="inf" effort="1" velocity="1"/></joint>"#,
                r#"<box size="1 1 1"/>"#,
            ),
            "joint j: <limit",
        ),
        (
            "nan_limit.urdf",
            robot(
                r#"<joint name="j" type="prismatic"><parent link="a"/><child link="b"/><axis xyz="0 0 1"/><limit lower="NaN" upper="1" effort="1" velocity="1"/></joint>"#,
                r#"<box size="1 1 1"/>"#,
            ),
            "joint j: <limit",
        ),
        (
            "huge_origin.urdf",
            robot(
                r#"<joint name="j" type="fixed"><parent link="a"/><child link="b"/><origin xyz="1e308 0 0" rpy="0 0 0"/></joint>"#,
                r#"<box size="1 1 1"/>"#,
            ),
            "joint j: <origin>",
        ),
        (
            "huge_rpy.urdf",
            robot(
                r#"<joint name="j" type="fixed"><parent link="a"/><child link="b"/><origin xyz="0 0 0" rpy="1e308 0 0"/></joint>"#,
                r#"<box size="1 1 1"/>"#,
            ),
            "joint j: <origin>",
        ),
        (
            "nan_mimic.urdf",
            r#"<robot name="bad">
  <link name="a"/><link name="b"><collision><geometry><box size="1 1 1"/></geometry></collision></link>
  <link name="c"><collision><geometry><box size="1 1 1"/></geometry></collision></link>
  <joint name="j" type="revolute"><parent link="a"/><child link="b"/><axis xyz="0 0 1"/><limit lower="-1" upper="1" effort="1" velocity="1"/></joint>
  <joint name="m" type="revolute"><parent link="b"/><child link="c"/><axis xyz="0 0 1"/><limit lower="-1" upper="1" effort="1" velocity="1"/><mimic joint="j" multiplier="NaN"/></joint>
</robot>"#.to_string(),
            "joint m: <mimic",
        ),
        // urdf-rs names no element: the refusal does.
        (
            "short_vector.urdf",
            robot(
                r#"<joint name="j" type="fixed"><parent link="a"/><child link="b"/><origin xyz="1 2" rpy="0 0 0"/></joint>"#,
                r#"<box size="1 1 1"/>"#,
            ),
            "<origin xyz=\"1 2\">",
        ),
        (
            "empty_number.urdf",
            robot(fixed, r#"<cylinder radius="" length="1"/>"#),
            "<cylinder radius=\"\">",
        ),
        (
            "not_nested.urdf",
            robot(fixed, r#"<box size="1 1 1">"#),
            "not well-formed XML",
        ),
        (
            "huge_cylinder.urdf",
            robot(fixed, r#"<cylinder radius="1e308" length="1"/>"#),
            "link a",
        ),
    ];
    for (file, text, why) in cases {
        let path = write(&dir, file, &text);
        let err = RobotModel::load(&path, None).unwrap_err();
        assert!(err.contains(file) && err.contains(why), "{file}: {err}");
    }
    // An empty mesh names its file.
    std::fs::write(dir.join("empty.stl"), {
        let mut b = vec![0u8; 80];
        b.extend(0u32.to_le_bytes());
        b
    })
    .unwrap();
    let path = write(
        &dir,
        "empty_mesh.urdf",
        &robot(fixed, r#"<mesh filename="empty.stl"/>"#),
    );
    let err = RobotModel::load(&path, None).unwrap_err();
    assert!(err.contains("empty.stl") && err.contains("link a"), "{err}");
}

/// Without an SRDF, MoveIt's rules: adjacent links, pairs colliding at the default
/// pose and pairs colliding in nearly every random pose are disabled; what remains is
/// not in collision at the default pose, and the matrix round-trips through its SRDF.
#[test]
fn a_computed_collision_matrix_leaves_a_robot_free_at_rest() {
    use collidescope::robot::acm::default_configuration;
    use collidescope::robot::{compute_acm, srdf_text, AcmRule};
    for urdf in [
        "panda_description/urdf/panda.urdf",
        "ur_description/urdf/ur5_robot.urdf",
    ] {
        let Some(dir) = common::shared_data("robots") else {
            return;
        };
        let model = RobotModel::load(&dir.join(urdf), None).unwrap();
        let acm = compute_acm(&model, 200, 0.95, 3);
        // Every joint between two links with geometry makes an adjacent pair.
        let adjacent = acm.iter().filter(|(_, r)| *r == AcmRule::Adjacent).count();
        assert!(
            adjacent >= model.shapes.len() - 2,
            "{urdf}: {adjacent} adjacent"
        );
        let disabled: Vec<_> = acm.iter().map(|(p, _)| p.clone()).collect();
        let pairs = checked_pairs(&model, &disabled);
        let mut checker = SelfCollision::new(pairs.clone(), Algorithm::GJK);
        let rest = checker.check(&model, &default_configuration(&model));
        assert!(
            rest.pairs.iter().all(|p| !p.colliding),
            "{urdf}: colliding at rest"
        );
        // The SRDF written reads back as the same pairs.
        let acm_dir = temp_dir("acm");
        let out = acm_dir.join("computed.srdf");
        std::fs::write(&out, srdf_text(&model.name, &acm)).unwrap();
        let known = |n: &str| model.link_names.iter().any(|l| l == n);
        let (read, warnings) = read_disabled_pairs(&out, known).unwrap();
        assert!(warnings.is_empty());
        assert_eq!(checked_pairs(&model, &read), pairs);
    }
}

/// "Is anything colliding?" agrees with the full distance check, configuration by
/// configuration (pairs within 1e-6 of touching aside).
#[test]
fn the_boolean_check_agrees_with_the_distances() {
    let Some(dir) = common::shared_data("robots") else {
        return;
    };
    let model = RobotModel::load(&dir.join("panda_description/urdf/panda.urdf"), None).unwrap();
    let known = |n: &str| model.link_names.iter().any(|l| l == n);
    let srdf = dir.join("panda_description/srdf/panda.srdf");
    let disabled = read_disabled_pairs(&srdf, known).unwrap().0;
    let pairs = checked_pairs(&model, &disabled);
    let mut distances = SelfCollision::new(pairs.clone(), Algorithm::GJK);
    let mut boolean = SelfCollision::new(pairs, Algorithm::GJK);
    let mut rng = collidescope::rng::SplitMix64::new(4);
    let (mut hits, mut misses) = (0, 0);
    for _ in 0..300 {
        let q = collidescope::robot::acm::random_configuration(&model, &mut rng);
        let full = distances.check(&model, &q);
        let (first, _) = boolean.first_collision(&model, &q);
        let near = full
            .pairs
            .iter()
            .any(|p| p.distance > 0.0 && p.distance < 1e-6);
        if near {
            continue;
        }
        let any = full.pairs.iter().any(|p| p.colliding);
        assert_eq!(first.is_some(), any);
        if let Some(k) = first {
            assert!(full.pairs[k].colliding);
            hits += 1;
        } else {
            misses += 1;
        }
    }
    assert!(hits > 10 && misses > 10, "{hits} / {misses}");
}

/// A robot of the shared data and its checked pairs (all, or those its SRDF leaves).
fn robot_with_pairs(
    dir: &Path,
    urdf: &str,
    srdf: Option<&str>,
) -> (RobotModel, Vec<(usize, usize)>) {
    let model = RobotModel::load(&dir.join(urdf), None).unwrap();
    let known = |n: &str| model.link_names.iter().any(|l| l == n);
    let disabled = match srdf {
        Some(s) => read_disabled_pairs(&dir.join(s), known).unwrap().0,
        None => Vec::new(),
    };
    let pairs = checked_pairs(&model, &disabled);
    (model, pairs)
}

/// The nearest pair by branch and bound over bounding spheres is the nearest
/// of all pairs: its distance the least of the all-pairs check's (to the GJK
/// tolerance), colliding exactly when a pair collides; on random configurations and
/// along a path, on the Panda with and without its SRDF and on the UR5.
#[test]
fn the_nearest_pair_is_the_nearest_of_all_pairs() {
    let Some(dir) = common::shared_data("robots") else {
        return;
    };
    let robots = [
        (
            "panda_description/urdf/panda.urdf",
            Some("panda_description/srdf/panda.srdf"),
        ),
        ("panda_description/urdf/panda.urdf", None),
        ("ur_description/urdf/ur5_robot.urdf", None),
    ];
    for (urdf, srdf) in robots {
        let (model, pairs) = robot_with_pairs(&dir, urdf, srdf);
        let mut all = SelfCollision::new(pairs.clone(), Algorithm::GJK);
        let mut nearest = SelfCollision::new(pairs, Algorithm::GJK);
        let mut rng = collidescope::rng::SplitMix64::new(9);
        let mut pruned = 0;
        for _ in 0..200 {
            let q = collidescope::robot::acm::random_configuration(&model, &mut rng);
            let full = all.check(&model, &q);
            let (found, _) = nearest.nearest_pair(&model, &q).unwrap();
            let any = full.pairs.iter().any(|p| p.colliding);
            assert_eq!(found.colliding, any, "{urdf}");
            if !any {
                let least = full
                    .pairs
                    .iter()
                    .map(|p| p.distance)
                    .fold(f64::INFINITY, f64::min);
                assert!(
                    (found.distance - least).abs() <= 2e-6,
                    "{urdf}: {} vs {least}",
                    found.distance
                );
                assert!((full.pairs[found.pair].distance - least).abs() <= 2e-6);
            }
            pruned += full.pairs.len() - found.narrow_phase_pairs;
        }
        // The broad phase does rule pairs out.
        assert!(pruned > 0, "{urdf}");
    }
}

/// The margin check answers as the all-pairs distances do: the same colliding pairs,
/// the same distances for pairs within the margin, and for every pair it calls beyond
/// the margin a lower bound above the margin and below the pair's distance; on random
/// configurations and along a path (warm starts), margins 0 and 5 cm, on the Panda with
/// its SRDF and the UR5.
#[test]
fn the_margin_check_agrees_with_the_distances() {
    let Some(dir) = common::shared_data("robots") else {
        return;
    };
    let robots = [
        (
            "panda_description/urdf/panda.urdf",
            Some("panda_description/srdf/panda.srdf"),
        ),
        ("ur_description/urdf/ur5_robot.urdf", None),
    ];
    for (urdf, srdf) in robots {
        let (model, pairs) = robot_with_pairs(&dir, urdf, srdf);
        let mut rng = collidescope::rng::SplitMix64::new(12);
        let random: Vec<Vec<f64>> = (0..150)
            .map(|_| collidescope::robot::acm::random_configuration(&model, &mut rng))
            .collect();
        let path = collidescope::robot::path::SmoothPath::sample(&model, 150, 0.02, 3);
        for configs in [&random, &path] {
            for margin in [0.0, 0.05] {
                let mut all = SelfCollision::new(pairs.clone(), Algorithm::GJK);
                let mut within = SelfCollision::new(pairs.clone(), Algorithm::GJK);
                let mut beyond = 0;
                for q in configs {
                    let full = all.check(&model, q);
                    let answer = within.check_within(&model, q, margin);
                    assert!(full.pairs.iter().all(|p| !p.beyond_margin));
                    for (k, (w, a)) in answer.pairs.iter().zip(&full.pairs).enumerate() {
                        if w.beyond_margin {
                            beyond += 1;
                            assert!(!a.colliding, "{urdf} pair {k}");
                            assert!(w.distance > margin, "{urdf} pair {k}");
                            assert!(w.distance <= a.distance + 1e-9, "{urdf} pair {k}");
                        } else {
                            assert_eq!(w.colliding, a.colliding, "{urdf} pair {k}");
                            assert!(
                                (w.distance - a.distance).abs() <= 1e-6,
                                "{urdf} pair {k}: {} vs {}",
                                w.distance,
                                a.distance
                            );
                            if !w.colliding {
                                assert!(w.distance <= margin + 1e-6, "{urdf} pair {k}");
                            }
                        }
                    }
                }
                assert!(beyond > 0, "{urdf}");
            }
        }
    }
}

/// Along a smooth path every pair starts from its last query (direction, hill-climbing
/// vertices, simplex): the answers must be the cold ones (a fresh checker per
/// configuration) to the tolerance, and the verdicts parry3d-f64's on the same hulls.
#[test]
fn warm_starts_along_a_path_answer_as_cold_checks_and_parry_do() {
    let Some(dir) = common::shared_data("robots") else {
        return;
    };
    for urdf in [
        "panda_description/urdf/panda.urdf",
        "ur_description/urdf/ur5_robot.urdf",
    ] {
        let model = RobotModel::load(&dir.join(urdf), None).unwrap();
        let pairs = checked_pairs(&model, &[]);
        let path = collidescope::robot::path::SmoothPath::sample(&model, 400, 0.02, 11);
        let (_, parry) = collidescope::robot::parry_check(&model, &pairs, &path).unwrap();
        let mut warm = SelfCollision::new(pairs.clone(), Algorithm::GJK);
        let mut boolean = SelfCollision::new(pairs.clone(), Algorithm::GJK);
        let (mut colliding, mut apart) = (0, 0);
        for (c, q) in path.iter().enumerate() {
            let answer = warm.check(&model, q);
            let cold = SelfCollision::new(pairs.clone(), Algorithm::GJK).check(&model, q);
            for (k, (w, f)) in answer.pairs.iter().zip(&cold.pairs).enumerate() {
                let bound = 1e-6 * f.distance.max(1.0);
                assert!(
                    (w.distance - f.distance).abs() <= bound,
                    "{urdf} step {c} pair {k}: warm {} cold {}",
                    w.distance,
                    f.distance
                );
                let p = parry[c][k];
                if p > 1e-6 {
                    assert!(!w.colliding, "{urdf} step {c} pair {k}: parry {p}");
                    assert!((w.distance - p).abs() <= 1e-6 * p.max(1.0));
                    apart += 1;
                } else if w.distance > 1e-6 {
                    panic!("{urdf} step {c} pair {k}: parry {p}, ours {}", w.distance);
                } else {
                    colliding += usize::from(w.colliding);
                }
            }
            let any = answer.pairs.iter().any(|p| p.colliding);
            let near = answer
                .pairs
                .iter()
                .any(|p| p.distance > 0.0 && p.distance < 1e-6);
            if !near {
                assert_eq!(boolean.first_collision(&model, q).0.is_some(), any);
            }
        }
        assert!(colliding > 100 && apart > 1000, "{colliding} / {apart}");
    }
}

/// A link of a box and a sphere is the hull of their union: between the two parts its
/// top is the tangent plane y = 0.1, which neither part reaches alone there.
#[test]
fn several_elements_with_curved_parts_make_the_hull_of_their_union() {
    let dir = temp_dir("union");
    let urdf = write(
        &dir,
        "union.urdf",
        r#"<robot name="u">
  <link name="combo">
    <collision><geometry><box size="0.2 0.2 0.2"/></geometry></collision>
    <collision><origin xyz="1 0 0"/><geometry><sphere radius="0.1"/></geometry></collision>
  </link>
  <link name="probe"><collision><origin xyz="0.5 0 0"/><geometry><sphere radius="0.05"/></geometry></collision></link>
  <joint name="lift" type="prismatic"><parent link="combo"/><child link="probe"/><axis xyz="0 1 0"/><limit lower="0" upper="2" effort="1" velocity="1"/></joint>
</robot>"#,
    );
    let model = RobotModel::load(&urdf, None).unwrap();
    assert_eq!(model.shapes[0].shape.kind_name(), "union");
    let mut checker = SelfCollision::new(checked_pairs(&model, &[]), Algorithm::GJK);
    for y in [0.3, 0.6, 1.2] {
        let d = checker.check(&model, &[y]).pairs[0].distance;
        assert!((d - (y - 0.15)).abs() < 1e-6, "{y}: {d}");
    }
}

/// A mimic of a mimic (declared before its leader) follows the chain, and a package
/// root given on the command line is where package:// paths are looked up.
#[test]
fn mimic_chains_and_an_explicit_package_root() {
    let dir = temp_dir("chain");
    let root = dir.join("share");
    std::fs::create_dir_all(root.join("my_pkg/meshes")).unwrap();
    std::fs::write(root.join("my_pkg/meshes/tet.stl"), tetrahedron_stl()).unwrap();
    let urdf_dir = dir.join("elsewhere/urdf");
    std::fs::create_dir_all(&urdf_dir).unwrap();
    let urdf = write(
        &urdf_dir,
        "chain.urdf",
        r#"<robot name="c">
  <link name="base"><collision><geometry><sphere radius="0.1"/></geometry></collision></link>
  <link name="a"/>
  <link name="b"><collision><geometry><mesh filename="package://my_pkg/meshes/tet.stl"/></geometry></collision></link>
  <joint name="second" type="prismatic"><parent link="a"/><child link="b"/><axis xyz="1 0 0"/><limit lower="-9" upper="9" effort="1" velocity="1"/><mimic joint="first" multiplier="3"/></joint>
  <joint name="first" type="prismatic"><parent link="base"/><child link="a"/><axis xyz="1 0 0"/><limit lower="-9" upper="9" effort="1" velocity="1"/><mimic joint="drive" multiplier="2" offset="1"/></joint>
  <link name="c"/>
  <joint name="drive" type="prismatic"><parent link="base"/><child link="c"/><axis xyz="0 0 1"/><limit lower="0" upper="1" effort="1" velocity="1"/></joint>
</robot>"#,
    );
    // Not found by the folders above the URDF, found under the given root.
    assert!(RobotModel::load(&urdf, None)
        .unwrap_err()
        .contains("tet.stl"));
    let model = RobotModel::load(&urdf, Some(&root)).unwrap();
    assert_eq!(model.actuated_names(), vec!["drive".to_string()]);
    let poses = collidescope::robot::kinematics::link_poses(&model, &[0.5]);
    // first = 2·0.5 + 1 = 2; second = 3·first = 6: b at x = 8.
    let b = model.link_names.iter().position(|n| n == "b").unwrap();
    assert!(
        (poses[b].translation.x - 8.0).abs() < 1e-12,
        "{}",
        poses[b].translation
    );
}

// ---- Links checked as meshes (`--collision mesh|both`) ----

fn ell_urdf() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/robots/ell/ell.urdf")
}

/// An L-shaped link and a block in its inner corner: the L's hull overlaps the block,
/// the L itself is 0.25 away. As meshes the pair is apart, as hulls colliding, and the
/// comparison lists that configuration alone (the block slid out, both apart; slid into
/// the L's arm, both colliding).
#[test]
fn hull_and_mesh_verdicts_differ_in_a_concavity_and_the_comparison_lists_it() {
    use collidescope::robot::{CollisionMode, HullMeshComparison};
    let model = RobotModel::load_as(&ell_urdf(), None, CollisionMode::Mesh).unwrap();
    assert!(model.shapes[0].mesh.is_some() && model.shapes[1].mesh.is_none());
    let pairs = checked_pairs(&model, &[]);
    let configs = vec![vec![0.0], vec![2.0], vec![-0.5]];
    let mut mesh = SelfCollision::new(pairs.clone(), Algorithm::GJK);
    let at_corner = mesh.check(&model, &[0.0]).pairs[0];
    assert!(!at_corner.colliding);
    assert!((at_corner.distance - 0.25).abs() < 1e-6, "{at_corner:?}");
    assert!(at_corner.sub_pairs > 0);
    let (a, b) = at_corner.witnesses.unwrap();
    assert!(((a - b).length() - 0.25).abs() < 1e-6, "{a} {b}");
    // Loaded as hulls, or checked as hulls, the pair collides.
    let hull_model = RobotModel::load(&ell_urdf(), None).unwrap();
    let mut hull = SelfCollision::new(pairs.clone(), Algorithm::GJK);
    assert!(hull.check(&hull_model, &[0.0]).pairs[0].colliding);
    let comparison = HullMeshComparison::run(&model, &pairs, &configs, Algorithm::GJK);
    assert_eq!(comparison.compared, 3);
    assert_eq!(comparison.changes.len(), 1, "{:?}", comparison.changes);
    let change = comparison.changes[0];
    assert_eq!((change.config, change.pair), (0, 0));
    assert!(change.hull_colliding && !change.mesh_colliding);
    assert!((change.mesh - 0.25).abs() < 1e-6 && change.hull == 0.0);
    let (largest, c, _) = comparison.largest_difference.unwrap();
    assert!((largest - 0.25).abs() < 1e-6 && c == 0, "{largest} at {c}");
    // Slid into the arm both collide; slid out, both measure the same gap to the L's
    // outer face x = 2 (1.1 − 0.15 from the block's centre at x = 2.9).
    assert!(comparison.mesh[2].pairs[0].colliding && comparison.hull[2].pairs[0].colliding);
    // The block's corner (2.75, 0.75) is nearest the L's corner (2, 0.5), a hull vertex.
    let (h, m) = (comparison.hull[1].pairs[0], comparison.mesh[1].pairs[0]);
    let gap = (0.75f64 * 0.75 + 0.25 * 0.25).sqrt();
    assert!((m.distance - gap).abs() < 1e-6 && (h.distance - gap).abs() < 1e-6);
    // The Boolean check, the margin check and the nearest pair follow the meshes.
    assert_eq!(mesh.first_collision(&model, &[0.0]).0, None);
    assert_eq!(mesh.first_collision(&model, &[-0.5]).0, Some(0));
    let within = mesh.check_within(&model, &[0.0], 0.1).pairs[0];
    assert!(within.beyond_margin || within.distance > 0.1, "{within:?}");
    let within = mesh.check_within(&model, &[0.0], 0.3).pairs[0];
    assert!(!within.beyond_margin && (within.distance - 0.25).abs() < 1e-6);
    let (nearest, _) = mesh.nearest_pair(&model, &[0.0]).unwrap();
    assert!(!nearest.colliding && (nearest.distance - 0.25).abs() < 1e-6);
}

/// The CLI says the same: `--collision both` lists the corner configuration, with both
/// distances and the summary, in text and JSON; `--pair-scene` writes the pair as a
/// mesh scene that `solve` answers with the mesh's distance.
#[test]
fn the_cli_lists_where_hulls_and_meshes_disagree() {
    let dir = temp_dir("compare");
    let configs = write(
        &dir,
        "configs.json",
        r#"{"joints": ["slide"], "configs": [[0.0], [2.0], [-0.5]]}"#,
    );
    let urdf = ell_urdf();
    let (urdf, configs) = (urdf.to_str().unwrap(), configs.to_str().unwrap());
    let out = common::cli_ok(&["robot", urdf, "--configs", configs, "--collision", "both"]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("ell–block"), "{text}");
    assert!(
        text.contains("3 pair configurations, 1 verdicts differ"),
        "{text}"
    );
    assert!(text.contains("apart 0.250000"), "{text}");
    let json = common::cli_json(&[
        "robot",
        urdf,
        "--configs",
        configs,
        "--collision",
        "both",
        "--json",
    ]);
    let changes = json["verdict_changes"].as_array().unwrap();
    assert_eq!(changes.len(), 1);
    assert_eq!(changes[0]["hull"]["colliding"], true);
    assert_eq!(changes[0]["mesh"]["colliding"], false);
    assert_eq!(json["summary"]["verdicts_differ"], 1);
    assert_eq!(json["summary"]["pair_configurations"], 3);
    // As meshes, written out for `solve`.
    let scene = dir.join("corner.ron");
    common::cli_ok(&[
        "robot",
        urdf,
        "--configs",
        configs,
        "--collision",
        "mesh",
        "--pair-scene",
        scene.to_str().unwrap(),
    ]);
    let text = std::fs::read_to_string(&scene).unwrap();
    assert!(text.contains("Mesh("), "{text}");
    let loaded = collidescope::scene::Scene::load(&scene).unwrap();
    assert!(loaded.bodies[0].composite.is_some());
    let run = loaded
        .run_composite(
            collidescope::solver::Method::of(Algorithm::GJK),
            collidescope::solver::SolverSettings::default(),
            false,
            None,
        )
        .unwrap();
    assert!(
        (run.answer.upper - 0.25).abs() < 1e-6,
        "{:?}",
        run.answer.outcome
    );
}

/// Mesh-mode distances on the sample robots agree with parry3d-f64's own `TriMesh`
/// distance on the same meshes at the same poses (an independent midphase and GJK),
/// and never fall below the hulls' distance (a mesh lies inside its hull).
#[test]
fn mesh_distances_agree_with_parrys_trimesh_on_the_robots() {
    use collidescope::robot::{parry_check_as, CollisionMode};
    let Some(dir) = common::shared_data("robots") else {
        return;
    };
    for urdf in [
        "panda_description/urdf/panda.urdf",
        "ur_description/urdf/ur5_robot.urdf",
    ] {
        let model = RobotModel::load_as(&dir.join(urdf), None, CollisionMode::Mesh).unwrap();
        assert!(
            model.shapes.iter().filter(|s| s.mesh.is_some()).count() >= 7,
            "{urdf}"
        );
        let pairs = checked_pairs(&model, &[]);
        let mut rng = collidescope::rng::SplitMix64::new(3);
        let configs: Vec<Vec<f64>> = (0..12)
            .map(|_| collidescope::robot::acm::random_configuration(&model, &mut rng))
            .collect();
        let (_, parry) = parry_check_as(&model, &pairs, &configs, CollisionMode::Mesh).unwrap();
        let mut mesh = SelfCollision::new(pairs.clone(), Algorithm::GJK);
        let mut hull =
            SelfCollision::new(pairs.clone(), Algorithm::GJK).with_collision(CollisionMode::Hull);
        let (mut apart, mut colliding, mut hull_only) = (0, 0, 0);
        for (c, q) in configs.iter().enumerate() {
            let ours = mesh.check(&model, q);
            let hulls = hull.check(&model, q);
            for (k, (m, h)) in ours.pairs.iter().zip(&hulls.pairs).enumerate() {
                let p = parry[c][k];
                if m.colliding {
                    assert!(p < 1e-6, "{urdf} config {c} pair {k}: parry {p}");
                    colliding += 1;
                } else {
                    assert!(
                        (m.distance - p).abs() <= 1e-6 * p.max(1.0),
                        "{urdf} config {c} pair {k}: ours {} parry {p}",
                        m.distance
                    );
                    assert!(
                        h.colliding || h.distance <= m.distance + 1e-6,
                        "{urdf} config {c} pair {k}: hulls {} meshes {}",
                        h.distance,
                        m.distance
                    );
                    apart += 1;
                    hull_only += usize::from(h.colliding);
                }
            }
        }
        assert!(
            apart > 100 && colliding > 0,
            "{urdf}: {apart} / {colliding}"
        );
        eprintln!(
            "{urdf}: {apart} apart, {colliding} colliding, {hull_only} colliding only as hulls"
        );
    }
}

/// A mesh with a fin (an edge of three triangles) loads as a mesh: the edge joins none
/// of them, and a warning names the file and the edge. Several elements make one mesh
/// (all meshes) or a compound (with a primitive), each element's origin applied.
#[test]
fn fins_are_kept_with_a_warning_and_several_elements_make_one_composite() {
    use collidescope::robot::CollisionMode;
    let dir = temp_dir("fins");
    let mut obj = String::from("v 0 0 0\nv 1 0 0\nv 0 1 0\nv 0 0 1\nv 0.5 -1 0\n");
    obj.push_str("f 1 3 2\nf 1 2 4\nf 2 3 4\nf 1 4 3\nf 1 2 5\n");
    write(&dir, "fin.obj", &obj);
    std::fs::write(dir.join("tet.stl"), tetrahedron_stl()).unwrap();
    let urdf = write(
        &dir,
        "fins.urdf",
        r#"<robot name="f">
  <link name="finned"><collision><geometry><mesh filename="fin.obj"/></geometry></collision></link>
  <link name="two"><collision><origin xyz="5 0 0"/><geometry><mesh filename="tet.stl"/></geometry></collision>
    <collision><origin xyz="7 0 0"/><geometry><mesh filename="tet.stl" scale="2 2 2"/></geometry></collision></link>
  <link name="mixed"><collision><origin xyz="0 5 0"/><geometry><mesh filename="tet.stl"/></geometry></collision>
    <collision><origin xyz="0 7 0"/><geometry><sphere radius="0.5"/></geometry></collision></link>
  <joint name="a" type="fixed"><parent link="finned"/><child link="two"/></joint>
  <joint name="b" type="fixed"><parent link="finned"/><child link="mixed"/></joint>
</robot>"#,
    );
    let model = RobotModel::load_as(&urdf, None, CollisionMode::Mesh).unwrap();
    let fin = model
        .warnings
        .iter()
        .find(|w| w.contains("fin.obj"))
        .expect("a warning about the fin");
    assert!(
        fin.contains("finned") && fin.contains("belongs to 3 triangles"),
        "{fin}"
    );
    let describe = |k: usize| model.shapes[k].mesh.as_ref().unwrap().composite.describe();
    assert_eq!(describe(1), "mesh of 8 triangles (closed)");
    assert_eq!(describe(2), "compound of 5 parts");
    // Distances: the first tetrahedron's corner (1, 0, 0) + (5, 0, 0) is 4 from the fin
    // mesh's corner (1, 0, 0); the sphere at (0, 7, 0) is 6.5 from the mesh's (0, 1, 0).
    let pairs = checked_pairs(&model, &[]);
    let answer = SelfCollision::new(pairs.clone(), Algorithm::GJK).check(&model, &[]);
    let d = |a: usize, b: usize| answer.pairs[pairs.iter().position(|p| *p == (a, b)).unwrap()];
    assert!((d(0, 1).distance - 4.0).abs() < 1e-9, "{:?}", d(0, 1));
    let to_mixed = d(0, 2).distance;
    assert!((to_mixed - 4.0).abs() < 1e-9, "{to_mixed}");
    // The finned mesh's pair scene opens again (its triangles as a compound's parts)
    // and answers as the check did.
    let out = dir.join("finned-pair.ron");
    collidescope::robot::scene::pair_scene(&model, (0, 1), &[], &dir)
        .save(&out)
        .unwrap();
    let reopened = collidescope::scene::Scene::load(&out).unwrap();
    let run = reopened
        .run_composite(Algorithm::GJK, reopened.settings, false, None)
        .unwrap();
    assert!(
        (run.answer.upper - 4.0).abs() < 1e-9,
        "{:?}",
        run.answer.outcome
    );
}

/// A mesh with many fins gets one warning, not one per edge: how many, the first few
/// named, and that they are kept (no stray run of spaces from a line continuation).
#[test]
fn many_fins_of_one_mesh_make_one_warning() {
    use collidescope::robot::CollisionMode;
    let dir = temp_dir("many-fins");
    // Five segments along x, each the edge of three triangles (apexes above, below,
    // in front).
    let mut obj = String::new();
    for i in 0..=5 {
        obj.push_str(&format!("v {i} 0 0\n"));
    }
    for i in 0..5 {
        let x = i as f64 + 0.5;
        obj.push_str(&format!("v {x} 1 0\nv {x} -1 0\nv {x} 0 1\n"));
    }
    for i in 0..5 {
        let (a, b, apex) = (i + 1, i + 2, 7 + 3 * i);
        for k in 0..3 {
            obj.push_str(&format!("f {a} {b} {}\n", apex + k));
        }
    }
    write(&dir, "comb.obj", &obj);
    let urdf = write(
        &dir,
        "comb.urdf",
        r#"<robot name="c">
  <link name="comb"><collision><geometry><mesh filename="comb.obj"/></geometry></collision></link>
  <link name="ball"><collision><origin xyz="0 0 5"/><geometry><sphere radius="0.5"/></geometry></collision></link>
  <joint name="j" type="fixed"><parent link="comb"/><child link="ball"/></joint>
</robot>"#,
    );
    let model = RobotModel::load_as(&urdf, None, CollisionMode::Mesh).unwrap();
    let fins: Vec<&String> = model
        .warnings
        .iter()
        .filter(|w| w.contains("comb.obj"))
        .collect();
    assert_eq!(fins.len(), 1, "{fins:?}");
    let fin = fins[0];
    assert!(
        fin.contains("5 edges each belong to three triangles or more")
            && fin.contains("in 3 triangles (0, 1, 2)")
            && fin.contains(", ...; kept"),
        "{fin}"
    );
    assert!(!fin.contains("  "), "a run of spaces: {fin}");
}

/// A robot checked as meshes opens on its nearest pair as meshes: the scene's first
/// pair is one the mesh check finds colliding, or else the nearest of all (on UR5 at
/// random configurations, where some pairs collide as hulls and are apart as meshes,
/// that is not always the hulls' first pair).
#[test]
fn a_robot_checked_as_meshes_opens_on_its_nearest_pair_as_meshes() {
    use collidescope::robot::scene::robot_scene_as;
    use collidescope::robot::CollisionMode;
    let Some(dir) = common::shared_data("robots") else {
        return;
    };
    let urdf = dir.join("ur_description/urdf/ur5_robot.urdf");
    let model = RobotModel::load_as(&urdf, None, CollisionMode::Mesh).unwrap();
    let pairs = checked_pairs(&model, &[]);
    let mut rng = collidescope::rng::SplitMix64::new(11);
    let mut checker = SelfCollision::new(pairs.clone(), Algorithm::GJK);
    let mut differs = 0;
    for _ in 0..8 {
        let q = collidescope::robot::acm::random_configuration(&model, &mut rng);
        let answer = checker.check(&model, &q);
        let as_meshes = robot_scene_as(&model, &pairs, &q, &dir, CollisionMode::Mesh).pairs;
        let as_hulls = robot_scene_as(&model, &pairs, &q, &dir, CollisionMode::Hull).pairs;
        let of =
            |pair: (usize, usize)| answer.pairs[pairs.iter().position(|p| *p == pair).unwrap()];
        let first = of(as_meshes[0]);
        let any_colliding = answer.pairs.iter().any(|a| a.colliding);
        if any_colliding {
            assert!(first.colliding, "{first:?}");
        } else {
            let nearest = answer
                .pairs
                .iter()
                .map(|a| a.distance)
                .fold(f64::INFINITY, f64::min);
            assert!(first.distance <= nearest + 1e-9, "{first:?} vs {nearest}");
        }
        differs += usize::from(as_meshes[0] != as_hulls[0]);
    }
    eprintln!("the first pair differs between hulls and meshes at {differs} of 8 configurations");
}
