//! The Coal reproduction: a standalone Python script (`pip install coal`).

use glam::DMat3;

use super::text::{comment, comment_lines, python_str};
use super::{certify, describe, lit, pair, rows_of};
use crate::pose::Pose;
use crate::printed_bound::Outward;
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

/// The script. `source` names the scene file in its header. The scene's name and notes,
/// and `source`, enter it only as escaped Python string literals and escaped comment
/// lines (never on the first two lines, where Python looks for a coding declaration).
pub fn coal_script(scene: &Scene, source: &str) -> Result<String, String> {
    let certified = certify(scene)?;
    let [a, b] = pair(scene);
    let (shape_a, z_a) = coal_shape(&a.shape, 0.0).map_err(|e| format!("body A: {e}"))?;
    let (shape_b, z_b) = coal_shape(&b.shape, 0.0).map_err(|e| format!("body B: {e}"))?;
    let bracket = format!("{}", Outward(certified.lower, certified.upper));
    Ok(format!(
        r#"#!/usr/bin/env python3
"""A reproduction exported by Collidescope: Coal's distance query on a pair whose signed
distance Collidescope certifies (the scene, its source and the bracket are below).

This script runs Coal's distance query on the same shapes and poses (every number to the
bit) and exits 1 when Coal's answer lies outside the certified bracket widened by Coal's
own stopping guarantee: its GJK stops once ||x|| - (best plane) <= tol * (1 + ||x||), its
EPA once the support gains at most tol * (1 + ||w||), x and w points of A - B, whose norms
the shapes' bounding spheres bound. It fails while Coal is wrong here and passes once Coal
is fixed.
Requires: pip install coal numpy
"""
# Scene: {name_comment}
# Exported from: {source_comment}
# A: {kind_a}, B: {kind_b}.
# Notes:
{notes_comment}#
# Collidescope certifies the signed distance (negative: an overlap of that depth) in
#     {bracket}
#     {proof}
import math
import sys
from decimal import ROUND_FLOOR, Decimal, localcontext

import numpy as np
import coal

# The scene's name, the file it came from and its notes, as written there.
SCENE = {name}
SOURCE = {source}
NOTES = {notes}

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
# The allowed interval, rounded outward (a rounding must not move Coal's answer out).
low = math.nextafter(lower - slack, -math.inf)
high = math.nextafter(upper + slack, math.inf)
print(f"Scene {{SCENE!r}} from {{SOURCE!r}}")
print("Collidescope: signed distance in", {bracket_literal})
print(f"Coal {{getattr(coal, '__version__', '?')}}: {{answer!r}} (allowed: [{{low!r}}, {{high!r}}])")
if low <= answer <= high:
    print("Coal agrees with the certified answer")
    sys.exit(0)
with localcontext() as exact:
    # How far off, exactly, printed rounded down: at least this far.
    exact.prec, exact.rounding = 2000, ROUND_FLOOR
    off = Decimal(low) - Decimal(answer) if answer < low else Decimal(answer) - Decimal(high)
    print(f"Coal is off the certified bracket by {{off:.3e}}")
sys.exit(1)
"#,
        name_comment = comment(&scene.name),
        source_comment = comment(source),
        notes_comment = comment_lines("#   ", &scene.notes),
        name = python_str(&scene.name),
        source = python_str(source),
        notes = python_str(&scene.notes),
        kind_a = comment(&describe(&a.spec)),
        kind_b = comment(&describe(&b.spec)),
        lower = lit(certified.lower),
        upper = lit(certified.upper),
        bracket_literal = python_str(&bracket),
        proof = comment(&certified.proof),
        pose_a = coal_pose(&a.pose, z_a),
        pose_b = coal_pose(&b.pose, z_b),
    ))
}
