//! The parry reproduction: a standalone `#[test]` for parry3d-f64.

use glam::{DQuat, DVec3};

use super::{certify, describe, lit, pair};
use crate::pose::Pose;
use crate::scene::Scene;
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

/// The test file. `source` names the scene file in its header.
pub fn parry_test(scene: &Scene, source: &str) -> Result<String, String> {
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
    let notes: String = scene.notes.lines().map(|l| format!("//! {l}\n")).collect();
    Ok(format!(
        r#"//! A reproduction exported by Collidescope from {source} ("{name}").
//!
//! A: {kind_a}, B: {kind_b}.
{notes}//!
//! Collidescope certifies the signed distance (negative: an overlap of that depth) in
//! [{lower}, {upper}]: {proof}.
//! This test runs parry3d-f64 on the same shapes and poses{note_a}{note_b} and fails
//! while parry's answer lies outside that bracket widened by 1e-6 (relative, at least
//! 1e-6: parry's GJK and EPA stop far closer than that); it passes once parry is right.
//!
//! Cargo.toml: [dev-dependencies] parry3d-f64 = "0.31"
#![allow(clippy::excessive_precision, clippy::unreadable_literal)]

use parry3d_f64::math::{{Pose, Rotation, Vector}};
#[allow(unused_imports)]
use parry3d_f64::shape::{{Ball, Capsule, Cone, ConvexPolyhedron, Cuboid, Cylinder, RoundShape, Triangle}};

#[test]
fn collidescope_reproduction() {{
    let pos1 = {pose_a};
    let shape1 = {shape_a};
    let pos2 = {pose_b};
    let shape2 = {shape_b};

    let (lower, upper) = ({lower}, {upper});
    let answer = {query};
    let slack = 1e-6 * answer.abs().max(1.0);
    println!("Collidescope: signed distance in [{{lower:?}}, {{upper:?}}]");
    println!("parry3d-f64: {{answer:?}}");
    assert!(
        answer >= lower - slack && answer <= upper + slack,
        "parry3d-f64 answers {{answer:?}}, outside the certified [{{lower:?}}, {{upper:?}}] (slack {{slack:e}})"
    );
}}
"#,
        name = scene.name,
        kind_a = describe(&a.spec),
        kind_b = describe(&b.spec),
        lower = lit(certified.lower),
        upper = lit(certified.upper),
        proof = certified.proof,
    ))
}
