//! A robot's visual meshes: URDF `<visual>` elements read as
//! triangles (STL, OBJ, COLLADA, primitives) with their colours, inline or named;
//! a missing mesh is named, not an error (the checks use the collision shapes).

use std::path::Path;

use collidescope::robot::RobotModel;

#[test]
fn visuals_are_read_with_their_colours_and_missing_meshes_named() {
    let urdf =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/robots/visual_arm/urdf/arm.urdf");
    let model = RobotModel::load(&urdf, None).unwrap();
    let parts = &model.visuals.parts;
    assert_eq!(parts.len(), 3, "{:?}", model.visuals.missing);
    let link = |name: &str| model.link_names.iter().position(|n| n == name).unwrap();
    // The base's box: 12 triangles, the named material's colour.
    let base = parts.iter().find(|p| p.link == link("base")).unwrap();
    assert_eq!(base.triangles.len(), 12);
    assert_eq!(base.rgba, Some([0.6, 0.62, 0.7, 1.0]));
    // The STL wedge: its 4 facets, the inline colour, the visual's origin kept.
    let upper = parts.iter().find(|p| p.link == link("upper")).unwrap();
    assert_eq!(upper.triangles.len(), 4);
    assert_eq!(upper.rgba, Some([1.0, 0.5, 0.0, 1.0]));
    assert_eq!(upper.origin.translation.z, 0.05);
    // The OBJ pyramid, scaled by 2: its apex at z = 0.4, no colour given.
    let fore = parts.iter().find(|p| p.link == link("fore")).unwrap();
    assert_eq!(fore.triangles.len(), 6);
    let top = fore
        .triangles
        .iter()
        .flatten()
        .map(|p| p.z)
        .fold(f64::MIN, f64::max);
    assert!((top - 0.4).abs() < 1e-6, "{top}");
    assert_eq!(fore.rgba, None);
    // The absent COLLADA file is named.
    assert_eq!(model.visuals.missing.len(), 1);
    assert!(
        model.visuals.missing[0].contains("absent.dae"),
        "{:?}",
        model.visuals.missing
    );
    // The checks still see the collision shapes.
    assert_eq!(model.shapes.len(), 3);
}

/// COLLADA visuals are triangles: a `<polylist>` of quads as fans, `<triangles>` as
/// they are, placed by the node's transforms and scaled by `<unit meter>`.
#[test]
fn collada_meshes_read_as_placed_triangles() {
    let dae =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/robots/visual_arm/meshes/cube.dae");
    let triangles = collidescope::robot::visual::read_mesh_triangles(&dae).unwrap();
    assert_eq!(triangles.len(), 12);
    // A closed cube of side 0.5 (unit 0.5 m), moved up by 2 units = 1 m.
    let volume: f64 = triangles
        .iter()
        .map(|[a, b, c]| a.dot(b.cross(*c)))
        .sum::<f64>()
        / 6.0;
    assert!((volume.abs() - 0.125).abs() < 1e-12, "{volume}");
    let lowest = triangles
        .iter()
        .flatten()
        .map(|p| p.z)
        .fold(f64::MAX, f64::min);
    assert!((lowest - 1.0).abs() < 1e-12, "{lowest}");
}
