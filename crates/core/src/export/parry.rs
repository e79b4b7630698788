//! The parry reproduction: a standalone `#[test]` for parry3d-f64.

use glam::{DQuat, DVec3};

use super::text::{comment, comment_lines, identifier, rust_str};
use super::{certify, contact_region, describe, lit, pair};
use crate::composite::{CompositeKind, Pieces};
use crate::pose::Pose;
use crate::printed_bound::Outward;
use crate::scene::{Body, Scene, ShapeSpec};
use crate::shape::{AffineDimension, Shape};

fn vector(v: DVec3) -> String {
    format!("Vector::new({}, {}, {})", lit(v.x), lit(v.y), lit(v.z))
}

/// A parry3d-f64 shape expression for `shape` (dilated by `border`).
fn parry_shape(shape: &Shape, border: f64) -> Result<String, String> {
    let round = |inner: String| {
        if border > 0.0 {
            format!(
                "RoundShape {{ inner_shape: {inner}, border_radius: {} }}",
                lit(border)
            )
        } else {
            inner
        }
    };
    Ok(match shape {
        Shape::Dilated(d) if border == 0.0 => return parry_shape(d.inner(), d.radius()),
        // A ball or a capsule dilated is a ball or a capsule (parry has no round ball).
        Shape::Point(_) => format!("Ball::new({})", lit(border)),
        Shape::Sphere(s) => format!("Ball::new({})", lit(s.radius() + border)),
        Shape::Capsule(c) => format!(
            "Capsule::new_y({}, {})",
            lit(c.half_height()),
            lit(c.radius() + border)
        ),
        Shape::Cuboid(c) => round(format!("Cuboid::new({})", vector(c.half_extents()))),
        Shape::Cylinder(c) => round(format!(
            "Cylinder::new({}, {})",
            lit(c.half_height()),
            lit(c.radius())
        )),
        Shape::Cone(c) => round(format!(
            "Cone::new({}, {})",
            lit(c.half_height()),
            lit(c.radius())
        )),
        Shape::Polytope(p) => {
            let v = p.vertices();
            match (v.len(), p.dimension()) {
                (1, _) => format!(
                    "Ball::new({}) /* the point {} */",
                    lit(border),
                    vector(v[0])
                ),
                (2, _) => format!(
                    "Capsule::new({}, {}, {})",
                    vector(v[0]),
                    vector(v[1]),
                    lit(border)
                ),
                (3, _) => round(format!(
                    "Triangle::new({}, {}, {})",
                    vector(v[0]),
                    vector(v[1]),
                    vector(v[2])
                )),
                (_, AffineDimension::Solid) => {
                    let points: Vec<String> = v
                        .iter()
                        .map(|p| format!("            {},", vector(*p)))
                        .collect();
                    round(format!(
                        "ConvexPolyhedron::from_convex_hull(&[\n{}\n        ])\n        .expect(\"a solid hull\")",
                        points.join("\n")
                    ))
                }
                _ => return Err("parry3d-f64 has no flat convex polygon in 3-D".into()),
            }
        }
        other => {
            return Err(format!(
                "parry3d-f64 has no shape for {} (it takes balls, boxes, capsules, cylinders, \
                 cones, convex hulls, segments, triangles, and those rounded)",
                other.kind_name()
            ))
        }
    })
}

/// parry's pose: the scene's quaternion as given; for a rotation given as a matrix,
/// glam's quaternion of it (parry holds rotations as quaternions only).
fn parry_pose(pose: &Pose) -> (String, &'static str) {
    let (q, note) = match pose.matrix {
        Some(m) => (
            DQuat::from_mat3(&m),
            " (the scene's rotation matrix as glam's quaternion: parry has no matrix pose)",
        ),
        None => (pose.rotation, ""),
    };
    (
        format!(
            "Pose::from_parts({}, Rotation::from_xyzw({}, {}, {}, {}))",
            vector(pose.translation),
            lit(q.x),
            lit(q.y),
            lit(q.z),
            lit(q.w)
        ),
        note,
    )
}

/// The test file. `source` names the scene file in its header. The scene's name and
/// notes, and `source`, enter it only as escaped Rust string literals, escaped `//`
/// comment lines (not `//!`: documentation's code blocks are doctests in a library), and
/// an identifier of `[a-z0-9_]` (the test's name).
pub fn parry_test(scene: &Scene, source: &str) -> Result<String, String> {
    if scene.focus_is_composite() {
        return composite_test(scene, source);
    }
    let certified = certify(scene)?;
    let [a, b] = pair(scene);
    let shape_a = parry_shape(&a.shape, 0.0).map_err(|e| format!("body A: {e}"))?;
    let shape_b = parry_shape(&b.shape, 0.0).map_err(|e| format!("body B: {e}"))?;
    let (pose_a, note_a) = parry_pose(&a.pose);
    let (pose_b, note_b) = parry_pose(&b.pose);
    let query = if certified.upper > 0.0 {
        "parry3d_f64::query::distance(&pos1, &shape1, &pos2, &shape2)\n        .expect(\"a supported pair\")\n        .distance"
    } else {
        // Overlapping: parry's contact gives the signed distance (−depth).
        "parry3d_f64::query::contact(&pos1, &shape1, &pos2, &shape2, 0.0)\n        .expect(\"a supported pair\")\n        .map_or(f64::INFINITY, |c| c.dist)"
    };
    let bracket = format!("{}", Outward(certified.lower, certified.upper));
    Ok(format!(
        r#"//! A reproduction exported by Collidescope: parry3d-f64 on a pair whose signed distance
//! Collidescope certifies.
//!
// Scene: {name_comment}
// Exported from: {source_comment}
// Notes:
{notes_comment}//!
//! A: {kind_a}, B: {kind_b}.
//! Collidescope certifies the signed distance (negative: an overlap of that depth) in
//! {bracket}: {proof}.
//! This test runs parry3d-f64 on the same shapes and poses{note_a}{note_b} and fails
//! while parry's answer lies outside that bracket widened by 1e-6 (relative, at least
//! 1e-6: parry's GJK and EPA stop far closer than that); it passes once parry is right.
//!
//! Cargo.toml: [dev-dependencies] parry3d-f64 = "0.31"
#![allow(clippy::excessive_precision, clippy::unreadable_literal)]

use parry3d_f64::math::{{Pose, Rotation, Vector}};
#[allow(unused_imports)]
use parry3d_f64::shape::{{Ball, Capsule, Cone, ConvexPolyhedron, Cuboid, Cylinder, RoundShape, Triangle}};

/// The scene's name, the file it came from and its notes, as written there.
const SCENE: &str = {name};
const SOURCE: &str = {source};
#[allow(dead_code)]
const NOTES: &str = {notes};

#[test]
fn {test_name}() {{
    let pos1 = {pose_a};
    let shape1 = {shape_a};
    let pos2 = {pose_b};
    let shape2 = {shape_b};

    let (lower, upper) = ({lower}, {upper});
    let answer = {query};
    let slack = 1e-6 * answer.abs().max(1.0);
    // The allowed interval, rounded outward (a rounding must not move parry's answer out).
    let (low, high) = ((lower - slack).next_down(), (upper + slack).next_up());
    // The bracket as text, rounded outward.
    let certified = {bracket_literal};
    println!("Scene {{SCENE:?}} from {{SOURCE:?}}");
    println!("Collidescope: signed distance in {{certified}}");
    println!("parry3d-f64: {{answer:?}}");
    assert!(
        answer >= low && answer <= high,
        "parry3d-f64 answers {{answer:?}}, outside the certified {{certified}} (allowed: [{{low:?}}, {{high:?}}])"
    );
}}
"#,
        name_comment = comment(&scene.name),
        source_comment = comment(source),
        notes_comment = comment_lines("//   ", &scene.notes),
        name = rust_str(&scene.name),
        source = rust_str(source),
        notes = rust_str(&scene.notes),
        test_name = identifier("collidescope_", &scene.name),
        kind_a = comment(&describe(&a.spec)),
        kind_b = comment(&describe(&b.spec)),
        lower = lit(certified.lower),
        upper = lit(certified.upper),
        proof = comment(&certified.proof),
        bracket_literal = rust_str(&bracket),
    ) + &manifold_test(scene, &shape_a, &pose_a, &shape_b, &pose_b))
}

/// The manifold check of a scene that names a contact method: parry's
/// `contact_manifolds` (its default dispatcher, the contact margin as prediction)
/// checked point by point against the certified contact region: each point on its shape
/// (parry's own point query, solid), in its shape's face band along the certified
/// normal (or along parry's own where parry's supports prove it as deep: a tie), its two
/// points over one spot, no deeper than the certified depth.
fn manifold_test(
    scene: &Scene,
    shape_a: &str,
    pose_a: &str,
    shape_b: &str,
    pose_b: &str,
) -> String {
    let region = match contact_region(scene) {
        Some(Ok(r)) => r,
        Some(Err(why)) => {
            return format!(
                "\n// The scene names a contact method, but {}\n",
                comment(&why)
            )
        }
        None => return String::new(),
    };
    let n = region.normal;
    format!(
        r#"
/// parry's contact manifold against the contact region Collidescope certifies (world
/// frame): the normal from A to B, A's support plane along it and B's, the band a face
/// may lie within, the certified depth (negative: the gap), the tolerance, the margin.
#[test]
fn {test_name}_manifold() {{
    use parry3d_f64::query::{{ContactManifold, DefaultQueryDispatcher, PersistentQueryDispatcher, PointQuery}};
    use parry3d_f64::shape::Shape as _;
    let pos1 = {pose_a};
    let shape1 = {shape_a};
    let pos2 = {pose_b};
    let shape2 = {shape_b};
    let normal = Vector::new({nx}, {ny}, {nz});
    let (top_a, bottom_b) = ({top_a}, {bottom_b});
    let (band, depth, tolerance, margin) = ({band}, {depth}, {tolerance}, {margin});
    // parry's normal and points are its own: allow 1e-6 of the pair's size as well.
    let size = pos1.translation.length() + pos2.translation.length() + 1.0;
    let allowed = tolerance + 1e-6 * size;
    let mut manifolds: Vec<ContactManifold<(), ()>> = Vec::new();
    DefaultQueryDispatcher
        .contact_manifolds(&pos1.inv_mul(&pos2), &shape1, &shape2, margin, &mut manifolds, &mut None)
        .expect("a supported pair");
    let points: Vec<_> = manifolds.iter().flat_map(|m| m.points.iter()).collect();
    assert!(!points.is_empty(), "parry3d-f64 builds no manifold where Collidescope certifies a contact");
    // Two normals may reach the least overlap (a tie: two faces of each box flush at
    // once), and parry may take the other one: its manifold is then checked against the
    // region along its own normal, when the shapes' supports prove it as deep.
    let (normal, top_a, bottom_b) = match (
        manifolds.iter().find(|m| !m.points.is_empty()),
        shape1.as_support_map(),
        shape2.as_support_map(),
    ) {{
        // A unit normal clearly not ours (not ours and its round-off).
        (Some(m), Some(s1), Some(s2))
            if pos1.transform_vector(m.local_n1).is_finite()
                && (pos1.transform_vector(m.local_n1).length() - 1.0).abs() <= 1e-9
                && pos1.transform_vector(m.local_n1).dot(normal) < 1.0 - 1e-9 =>
        {{
            let own = pos1.transform_vector(m.local_n1);
            let (top, bottom) = (own.dot(s1.support_point(&pos1, own)), own.dot(s2.support_point(&pos2, -own)));
            if top - bottom <= depth + allowed {{
                println!("parry's normal {{own:?}} is not Collidescope's, but as deep along it (a tie): checked along it");
                (own, top, bottom)
            }} else {{
                (normal, top_a, bottom_b)
            }}
        }}
        _ => (normal, top_a, bottom_b),
    }};
    let mut problems = Vec::new();
    for (i, c) in points.iter().enumerate() {{
        let (p1, p2) = (pos1.transform_point(c.local_p1), pos2.transform_point(c.local_p2));
        let gap = p1 - p2;
        if !(normal.dot(p1) >= top_a - band - allowed && normal.dot(p1) <= top_a + allowed) {{
            problems.push(format!("point {{i}} on A {{:.3e}} below A's support plane", top_a - normal.dot(p1)));
        }}
        if !(normal.dot(p2) >= bottom_b - allowed && normal.dot(p2) <= bottom_b + band + allowed) {{
            problems.push(format!("point {{i}} on B {{:.3e}} above B's support plane", normal.dot(p2) - bottom_b));
        }}
        let across = (gap - normal * normal.dot(gap)).length();
        if across > band + allowed {{
            problems.push(format!("point {{i}}: its two points {{across:.3e}} apart across the normal"));
        }}
        if normal.dot(gap) > depth + allowed {{
            problems.push(format!("point {{i}} {{:.3e}} deeper than the certified depth", normal.dot(gap) - depth));
        }}
        let off_a = shape1.distance_to_point(&pos1, p1, true);
        let off_b = shape2.distance_to_point(&pos2, p2, true);
        if off_a > allowed {{
            problems.push(format!("point {{i}} on A {{off_a:.3e}} outside A"));
        }}
        if off_b > allowed {{
            problems.push(format!("point {{i}} on B {{off_b:.3e}} outside B"));
        }}
    }}
    println!("parry3d-f64's manifold: {{}} points", points.len());
    assert!(problems.is_empty(), "parry3d-f64's manifold leaves the certified contact region: {{}}", problems.join("; "));
}}
"#,
        test_name = identifier("collidescope_", &scene.name),
        nx = lit(n.x),
        ny = lit(n.y),
        nz = lit(n.z),
        top_a = lit(region.top_a),
        bottom_b = lit(region.bottom_b),
        band = lit(region.band),
        depth = lit(region.depth),
        tolerance = lit(region.tolerance),
        margin = lit(region.margin),
    )
}

/// A body as parry builds it, a `SharedShape` expression: `TriMesh::with_flags` (the
/// scene's `TriMeshFlags` bits), `HeightField` (parry's own layout: the rows, the scale,
/// each cell's status), `Compound::new` of the convex parts at their poses; a convex
/// body's own kind. Whether it is a height field (parry answers `contact` on one, not
/// `distance`).
fn parry_body(body: &Body) -> Result<(String, bool), String> {
    let Some(composite) = &body.composite else {
        return Ok((
            format!("SharedShape::new({})", parry_shape(&body.shape, 0.0)?),
            false,
        ));
    };
    match (composite.kind(), &body.spec) {
        (
            CompositeKind::HeightField(_),
            ShapeSpec::HeightField {
                heights,
                scale,
                cells,
            },
        ) => {
            let rows: Vec<String> = heights
                .iter()
                .map(|r| {
                    let row: Vec<String> = r.iter().map(|h| lit(*h)).collect();
                    format!("&[{}]", row.join(", "))
                })
                .collect();
            let cells: Vec<String> = cells.iter().map(u8::to_string).collect();
            Ok((
                format!(
                    "height_field(\n        &[\n            {}\n        ],\n        {},\n        &[{}],\n    )",
                    rows.join(",\n            "),
                    vector(DVec3::from_array(*scale)),
                    cells.join(", ")
                ),
                true,
            ))
        }
        (CompositeKind::Compound, _) => {
            let Pieces::Parts(parts) = composite.pieces() else {
                return Err("a compound without parts".into());
            };
            let mut items = Vec::with_capacity(parts.len());
            for (k, part) in parts.iter().enumerate() {
                let shape = parry_shape(&part.shape, 0.0).map_err(|e| format!("part {k}: {e}"))?;
                let (at, _) = parry_pose(&Pose::from_matrix(
                    part.pose.translation,
                    part.pose.rotation,
                ));
                items.push(format!("        ({at}, SharedShape::new({shape})),"));
            }
            Ok((
                format!(
                    "SharedShape::new(Compound::new(vec![\n{}\n    ]))",
                    items.join("\n")
                ),
                false,
            ))
        }
        _ => {
            let mesh = composite.mesh().ok_or("a composite without triangles")?;
            let flags = match &body.spec {
                ShapeSpec::TriMesh { flags, .. } => *flags,
                _ => 0,
            };
            let vertices: Vec<String> = mesh.vertices().iter().map(|v| vector(*v)).collect();
            let triangles: Vec<String> = mesh
                .triangles()
                .iter()
                .map(|t| format!("[{}, {}, {}]", t[0], t[1], t[2]))
                .collect();
            Ok((
                format!(
                    "SharedShape::new(\n        TriMesh::with_flags(\n            vec![\n                {}\n            ],\n            vec![{}],\n            TriMeshFlags::from_bits_truncate({flags}),\n        )\n        .expect(\"parry builds the mesh\"),\n    )",
                    vertices.join(",\n                "),
                    triangles.join(", ")
                ),
                false,
            ))
        }
    }
}

/// The test of a pair with a composite: parry's query on the bodies as it builds them.
fn composite_test(scene: &Scene, source: &str) -> Result<String, String> {
    let certified = certify(scene)?;
    let [a, b] = pair(scene);
    let (shape_a, field_a) = parry_body(a).map_err(|e| format!("body A: {e}"))?;
    let (shape_b, field_b) = parry_body(b).map_err(|e| format!("body B: {e}"))?;
    let (pose_a, note_a) = parry_pose(&a.pose);
    let (pose_b, note_b) = parry_pose(&b.pose);
    let bracket = format!("{}", Outward(certified.lower, certified.upper));
    let field = field_a || field_b;
    Ok(format!(
        r#"//! A reproduction exported by Collidescope: parry3d-f64 on a pair with a mesh, height
//! field or compound, built as parry builds them, whose signed distance Collidescope
//! certifies.
//!
// Scene: {name_comment}
// Exported from: {source_comment}
// Notes:
{notes_comment}//!
//! A: {kind_a}, B: {kind_b}.
//! Collidescope certifies the signed distance (negative: an overlap of that depth) in
//! {bracket}: {proof}.
//! This test runs parry3d-f64 on the same shapes and poses{note_a}{note_b} (`distance`,
//! then `contact`'s depth on an overlap; a height field answers `contact` only, within a
//! prediction as wide as the pair) and fails while parry's answer lies outside that
//! bracket widened by 1e-6 (relative, at least 1e-6); it passes once parry is right.
//!
//! Cargo.toml: [dev-dependencies] parry3d-f64 = "0.31"
#![allow(clippy::excessive_precision, clippy::unreadable_literal)]

use parry3d_f64::math::{{Pose, Rotation, Vector}};
#[allow(unused_imports)]
use parry3d_f64::shape::{{
    Ball, Capsule, Compound, Cone, ConvexPolyhedron, Cuboid, Cylinder, HeightField,
    HeightFieldCellStatus, RoundShape, SharedShape, Triangle, TriMesh, TriMeshFlags,
}};

/// The scene's name, the file it came from and its notes, as written there.
const SCENE: &str = {name};
const SOURCE: &str = {source};
#[allow(dead_code)]
const NOTES: &str = {notes};

/// A height field of rows along z (each row's heights along x), parry's layout, with
/// each cell's status (row-major; none: every cell plain).
#[allow(dead_code)]
fn height_field(rows: &[&[f64]], scale: Vector, cells: &[u8]) -> SharedShape {{
    let (n, m) = (rows.len(), rows[0].len());
    let heights = parry3d_f64::utils::Array2::from_fn(n, m, |i, j| rows[i][j]);
    let mut field = HeightField::new(heights, scale);
    if !cells.is_empty() {{
        for i in 0..n - 1 {{
            for j in 0..m - 1 {{
                field.cells_statuses_mut()[(i, j)] =
                    HeightFieldCellStatus::from_bits_truncate(cells[i * (m - 1) + j]);
            }}
        }}
    }}
    SharedShape::new(field)
}}

#[test]
fn {test_name}() {{
    let pos1 = {pose_a};
    let shape1 = {shape_a};
    let pos2 = {pose_b};
    let shape2 = {shape_b};

    let (lower, upper) = ({lower}, {upper});
    let field = {field};
    let apart = if field {{
        f64::INFINITY
    }} else {{
        parry3d_f64::query::distance(&pos1, &*shape1, &pos2, &*shape2)
            .expect("a supported pair")
            .distance
    }};
    let answer = if apart > 0.0 && apart.is_finite() {{
        apart
    }} else {{
        let prediction = if field {{ {prediction} }} else {{ 0.0 }};
        parry3d_f64::query::contact(&pos1, &*shape1, &pos2, &*shape2, prediction)
            .expect("a supported pair")
            .map_or(if field {{ f64::INFINITY }} else {{ 0.0 }}, |c| c.dist)
    }};
    let slack = 1e-6 * answer.abs().max(1.0);
    // The allowed interval, rounded outward (a rounding must not move parry's answer out).
    let (low, high) = ((lower - slack).next_down(), (upper + slack).next_up());
    // The bracket as text, rounded outward.
    let certified = {bracket_literal};
    println!("Scene {{SCENE:?}} from {{SOURCE:?}}");
    println!("Collidescope: signed distance in {{certified}}");
    println!("parry3d-f64: {{answer:?}}");
    assert!(
        answer >= low && answer <= high,
        "parry3d-f64 answers {{answer:?}}, outside the certified {{certified}} (allowed: [{{low:?}}, {{high:?}}])"
    );
}}
"#,
        name_comment = comment(&scene.name),
        source_comment = comment(source),
        notes_comment = comment_lines("//   ", &scene.notes),
        name = rust_str(&scene.name),
        source = rust_str(source),
        notes = rust_str(&scene.notes),
        test_name = identifier("collidescope_", &scene.name),
        kind_a = comment(&describe(&a.spec)),
        kind_b = comment(&describe(&b.spec)),
        lower = lit(certified.lower),
        upper = lit(certified.upper),
        proof = comment(&certified.proof),
        bracket_literal = rust_str(&bracket),
        prediction = lit(2.0
            * (a.shape.extent()
                + b.shape.extent()
                + (b.pose.translation - a.pose.translation).length())),
    ))
}
