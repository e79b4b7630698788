//! The Coal reproduction: a standalone Python script (`pip install coal`).

use glam::DMat3;

use super::{certify, describe, lit, pair, rows_of};
use crate::pose::Pose;
use crate::scene::Scene;
use crate::shape::Shape;

/// A Coal shape's constructor, and whether it stands along z in Coal where ours stands
/// along y (capsule, cylinder, cone).
fn coal_shape(shape: &Shape, swept: f64) -> Result<(String, bool), String> {
    let built = match shape {
        Shape::Point(_) => (format!("coal.Sphere({})", lit(0.0)), false),
        Shape::Sphere(s) => (format!("coal.Sphere({})", lit(s.radius())), false),
        Shape::Ellipsoid(e) => {
            let r = e.radii();
            (
                format!("coal.Ellipsoid({}, {}, {})", lit(r.x), lit(r.y), lit(r.z)),
                false,
            )
        }
        // Coal's boxes take full sides (halved exactly on construction).
        Shape::Cuboid(c) => {
            let h = c.half_extents() * 2.0;
            (
                format!("coal.Box({}, {}, {})", lit(h.x), lit(h.y), lit(h.z)),
                false,
            )
        }
        Shape::Capsule(c) => (
            format!(
                "coal.Capsule({}, {})",
                lit(c.radius()),
                lit(2.0 * c.half_height())
            ),
            true,
        ),
        Shape::Cylinder(c) => (
            format!(
                "coal.Cylinder({}, {})",
                lit(c.radius()),
                lit(2.0 * c.half_height())
            ),
            true,
        ),
        Shape::Cone(c) => (
            format!(
                "coal.Cone({}, {})",
                lit(c.radius()),
                lit(2.0 * c.half_height())
            ),
            true,
        ),
        Shape::Polytope(p)
            if p.vertices().len() >= 4 && p.dimension() == crate::shape::AffineDimension::Solid =>
        {
            let points: Vec<String> = p
                .vertices()
                .iter()
                .map(|v| format!("        ({}, {}, {}),", lit(v.x), lit(v.y), lit(v.z)))
                .collect();
            (format!("convex([\n{}\n    ])", points.join("\n")), false)
        }
        Shape::Polytope(p) if p.vertices().len() == 3 => {
            let v = p.vertices();
            let point = |i: usize| {
                format!(
                    "np.array([{}, {}, {}])",
                    lit(v[i].x),
                    lit(v[i].y),
                    lit(v[i].z)
                )
            };
            (
                format!("coal.TriangleP({}, {}, {})", point(0), point(1), point(2)),
                false,
            )
        }
        Shape::Dilated(d) if swept == 0.0 => {
            let (inner, along_z) = coal_shape(d.inner(), d.radius())?;
            return Ok((inner, along_z));
        }
        other => {
            return Err(format!(
                "Coal has no shape for {} here (it takes spheres, ellipsoids, boxes, capsules, \
                 cylinders, cones, solid convex hulls, triangles, and those dilated)",
                other.kind_name()
            ))
        }
    };
    if swept > 0.0 {
        Ok((format!("swept({}, {})", built.0, lit(swept)), built.1))
    } else {
        Ok(built)
    }
}

/// Coal's pose of a body: for a shape standing along y here and along z in Coal, the
/// columns are permuted exactly (`(R e_x, −R e_z, R e_y)`).
fn coal_pose(pose: &Pose, along_z: bool) -> String {
    let (rows, t) = rows_of(pose);
    let rows = if along_z {
        let m = DMat3::from_cols_array_2d(&rows).transpose();
        let turned = DMat3::from_cols(m.x_axis, -m.z_axis, m.y_axis);
        turned.transpose().to_cols_array_2d()
    } else {
        rows
    };
    let row = |r: [f64; 3]| format!("[{}, {}, {}]", lit(r[0]), lit(r[1]), lit(r[2]));
    format!(
        "coal.Transform3s(\n    np.array([{},\n              {},\n              {}]),\n    np.array([{}, {}, {}]))",
        row(rows[0]),
        row(rows[1]),
        row(rows[2]),
        lit(t[0]),
        lit(t[1]),
        lit(t[2])
    )
}

/// The script. `source` names the scene file in its header.
pub fn coal_script(scene: &Scene, source: &str) -> Result<String, String> {
    let certified = certify(scene)?;
    let [a, b] = pair(scene);
    let (shape_a, z_a) = coal_shape(&a.shape, 0.0).map_err(|e| format!("body A: {e}"))?;
    let (shape_b, z_b) = coal_shape(&b.shape, 0.0).map_err(|e| format!("body B: {e}"))?;
    let notes = scene.notes.replace("\"\"\"", "'''");
    Ok(format!(
        r#"#!/usr/bin/env python3
"""A reproduction exported by Collidescope from {source} ("{name}").

A: {kind_a}, B: {kind_b}.
{notes}

Collidescope certifies the signed distance (negative: an overlap of that depth):
    [{lower}, {upper}]
    {proof}
This script runs Coal's distance query on the same shapes and poses (every number to the
bit) and exits 1 when Coal's answer lies outside that bracket widened by Coal's own
stopping guarantee: its GJK stops once ||x|| - (best plane) <= tol * (1 + ||x||), its EPA
once the support gains at most tol * (1 + ||w||), x and w points of A - B, whose norms the
shapes' bounding spheres bound. It fails while Coal is wrong here and passes once Coal is
fixed.
Requires: pip install coal numpy
"""
import sys

import numpy as np
import coal

KEEP = []  # a hull may refer to its input vector: keep it alive


def convex(points):
    vector = coal.StdVec_Vec3s()
    for p in points:
        vector.append(np.array(p, dtype=float))
    KEEP.append(vector)
    return coal.Convex.convexHull(vector, False, None)


def swept(shape, radius):
    shape.setSweptSphereRadius(radius)
    return shape


shape_a = {shape_a}
pose_a = {pose_a}
shape_b = {shape_b}
pose_b = {pose_b}

request = coal.DistanceRequest()
result = coal.DistanceResult()
coal.distance(shape_a, pose_a, shape_b, pose_b, request, result)
answer = result.min_distance

lower, upper = {lower}, {upper}


def reach(shape):
    """How far the shape's points lie from its frame's origin, at most."""
    shape.computeLocalAABB()
    rounding = getattr(shape, "getSweptSphereRadius", lambda: 0.0)()
    return float(np.linalg.norm(shape.aabb_center)) + shape.aabb_radius + rounding


# Coal's guarantee scales with the norm of a point of A - B: at most this.
size = reach(shape_a) + reach(shape_b) + float(
    np.linalg.norm(pose_b.getTranslation() - pose_a.getTranslation()))
slack = max(request.gjk_tolerance, request.epa_tolerance) * (1.0 + size)
print(f"Collidescope: signed distance in [{{lower!r}}, {{upper!r}}]")
print(f"Coal {{getattr(coal, '__version__', '?')}}: {{answer!r}} (allowed: [{{lower - slack!r}}, {{upper + slack!r}}])")
if lower - slack <= answer <= upper + slack:
    print("Coal agrees with the certified answer")
    sys.exit(0)
off = lower - slack - answer if answer < lower - slack else answer - upper - slack
print(f"Coal is off the certified bracket by {{off:.3e}}")
sys.exit(1)
"#,
        name = scene.name,
        kind_a = describe(&a.spec),
        kind_b = describe(&b.spec),
        lower = lit(certified.lower),
        upper = lit(certified.upper),
        proof = certified.proof,
        pose_a = coal_pose(&a.pose, z_a),
        pose_b = coal_pose(&b.pose, z_b),
    ))
}
