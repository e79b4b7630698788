//! The Coal reproduction: a standalone Python script (`pip install coal`).

use glam::{DMat3, DVec3};

use super::text::{comment, comment_lines, python_str};
use super::{certify, contact_region, describe, lit, pair, rows_of};
use crate::composite::{CompositeKind, Pieces};
use crate::pose::Pose;
use crate::printed_bound::{Below, Outward};
use crate::scene::{Body, Scene, ShapeSpec};
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

/// A body's convex shape as Coal builds it: the user's own object when the scene kept
/// the polygons it was built with (convex or not: the reproduction must be the object
/// that answered), else [`coal_shape`] of its shape.
fn coal_body_shape(body: &Body) -> Result<(String, bool), String> {
    match as_built(&body.spec, 0.0) {
        Some(text) => Ok((text, false)),
        None => coal_shape(&body.shape, 0.0),
    }
}

/// `as_built(points, polygons)` (a `coal.Convex` of the user's points and polygons,
/// without the hull step), swept by the radii of the dilations around it.
fn as_built(spec: &ShapeSpec, swept: f64) -> Option<String> {
    match spec {
        ShapeSpec::Polytope {
            points,
            polygons: Some(polygons),
        } => {
            let points: Vec<String> = points
                .iter()
                .map(|p| format!("({}, {}, {})", lit(p[0]), lit(p[1]), lit(p[2])))
                .collect();
            let polygons: Vec<String> = polygons
                .iter()
                .map(|t| format!("({}, {}, {})", t[0], t[1], t[2]))
                .collect();
            let text = format!(
                "as_built([\n        {}\n    ], [\n        {}\n    ])",
                points.join(",\n        "),
                polygons.join(",\n        ")
            );
            Some(if swept > 0.0 {
                format!("swept({text}, {})", lit(swept))
            } else {
                text
            })
        }
        ShapeSpec::Dilated { shape, radius } => as_built(shape, swept + radius),
        _ => None,
    }
}

/// What the user should change, when a body is an engine's object that is not convex
/// (the script prints it when Coal is off): empty otherwise.
fn what_to_change(bodies: [&Body; 2]) -> String {
    let mut lines = Vec::new();
    for (label, body) in ["A", "B"].into_iter().zip(bodies) {
        let mut spec = &body.spec;
        while let ShapeSpec::Dilated { shape, .. } = spec {
            spec = shape;
        }
        let ShapeSpec::Polytope {
            points,
            polygons: Some(polygons),
        } = spec
        else {
            continue;
        };
        if let Some((vertex, polygon, height)) = crate::mesh::convexity_defect(points, polygons) {
            lines.push(format!(
                "Body {label} is the Coal Convex as it was built, from its {} points and {} \
                 polygons, and it is not convex: vertex {vertex} lies at least {} beyond the \
                 plane of its polygon {polygon}. Coal's GJK climbs the polygons' neighbours \
                 for its supports and can stop short of the true support on such an object. \
                 Build its hull instead: points = coal.StdVec_Vec3s(); \
                 points.extend(shape.points()); coal.Convex.convexHull(points, True, 'Qt') \
                 (from Pinocchio's mesh: mesh.buildConvexHull(True, 'Qt'), then mesh.convex).",
                points.len(),
                polygons.len(),
                Below(height)
            ));
        }
    }
    lines.join(" ")
}

/// The Python helper both scripts build an engine's own convex object with.
const AS_BUILT_HELPER: &str = r#"def vectors(points, triangles):
    """Coal's vectors of points and triangles, kept alive (Coal may refer to them)."""
    vector = coal.StdVec_Vec3s()
    for p in points:
        vector.append(np.array(p, dtype=float))
    faces = coal.StdVec_Triangle()
    for t in triangles:
        faces.append(coal.Triangle(*t))
    KEEP.append((vector, faces))
    return vector, faces


def as_built(points, polygons):
    """A Coal Convex as its user built it: these points and polygons, no hull step."""
    return coal.Convex(*vectors(points, polygons))
"#;

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
    if scene.focus_is_composite() {
        return composite_script(scene, source);
    }
    let certified = certify(scene)?;
    let [a, b] = pair(scene);
    let (shape_a, z_a) = coal_body_shape(a).map_err(|e| format!("body A: {e}"))?;
    let (shape_b, z_b) = coal_body_shape(b).map_err(|e| format!("body B: {e}"))?;
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


{as_built_helper}
# What to change when Coal is off (an object that is not what its type promises).
WHAT_TO_CHANGE = {what_to_change}


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
distance_ok = low <= answer <= high
if not distance_ok:
    with localcontext() as exact:
        # How far off, exactly, printed rounded down: at least this far.
        exact.prec, exact.rounding = 2000, ROUND_FLOOR
        off = Decimal(low) - Decimal(answer) if answer < low else Decimal(answer) - Decimal(high)
        print(f"Coal is off the certified bracket by {{off:.3e}}")
{contact_check}
if distance_ok and contact_ok:
    print("Coal agrees with the certified answer")
    sys.exit(0)
if WHAT_TO_CHANGE:
    print(WHAT_TO_CHANGE)
sys.exit(1)
"#,
        contact_check = contact_check(scene),
        as_built_helper = AS_BUILT_HELPER,
        what_to_change = python_str(&what_to_change([a, b])),
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

/// The manifold check of a scene that names a contact method: Coal's contact patch
/// (`computeContactPatch` with `ContactPatchRequest`'s defaults, after `collide` with
/// the contact margin as security margin) checked point by point against the certified
/// contact region: each point on its shape (Coal's own point query, within its
/// guarantee), in its shape's face band along the certified normal (or along Coal's own
/// where Coal's shapes prove it as deep: a tie), its two points over one spot, no deeper
/// than the certified depth. Sets `contact_ok`.
fn contact_check(scene: &Scene) -> String {
    let region = match contact_region(scene) {
        None => return "contact_ok = True  # the scene names no contact method".to_string(),
        Some(Err(why)) => {
            return format!(
                "contact_ok = True  # the scene names a contact method, but {}",
                comment(&why)
            )
        }
        Some(Ok(r)) => r,
    };
    let n = region.normal;
    let [a, b] = pair(scene);
    // Beyond either shape from its own origin: where a half-space below it may start.
    let reach = a.shape.extent().max(b.shape.extent()) + 1.0;
    format!(
        r#"
# The contact region Collidescope certifies (world frame): the normal from A to B, A's
# support plane along it and B's, the band a face may lie within, the certified depth
# (negative: the gap), the tolerance, and the contact margin.
NORMAL = np.array([{nx}, {ny}, {nz}])
TOP_A, BOTTOM_B = {top_a}, {bottom_b}
BAND, DEPTH, TOLERANCE, MARGIN = {band}, {depth}, {tolerance}, {margin}
# A point's check also allows Coal's own guarantee (its normal and point are Coal's).
allowed = TOLERANCE + slack
# Farther than either shape reaches from its own origin.
REACH = {reach}


def lowest(shape, pose, direction):
    """The least of direction . x over the shape: Coal's distance to a half-space below it."""
    below = float(direction @ pose.getTranslation()) - REACH
    found = coal.DistanceResult()
    half_space = coal.Halfspace(direction, below)
    coal.distance(shape, pose, half_space, coal.Transform3s(), coal.DistanceRequest(), found)
    return below + found.min_distance


def region_along(patch):
    """The region the patch is checked against: the certified one, or the one along
    Coal's own normal where Coal's shapes prove it as deep (two normals reach the least
    overlap, as when two faces of each box are flush at once, and Coal took the other)."""
    own = np.asarray(patch.getNormal(), dtype=float)
    # Only a unit normal clearly not ours (not ours and its round-off).
    unit = bool(np.all(np.isfinite(own))) and abs(float(np.linalg.norm(own)) - 1.0) <= 1e-9
    if not unit or float(own @ NORMAL) >= 1.0 - 1e-9:
        return NORMAL, TOP_A, BOTTOM_B
    try:
        top, bottom = -lowest(shape_a, pose_a, -own), lowest(shape_b, pose_b, own)
    except Exception as error:  # a kind Coal cannot measure against a half-space
        print(f"Coal's normal is not the certified one; its depth along it is unknown ({{error}})")
        return NORMAL, TOP_A, BOTTOM_B
    if top - bottom <= DEPTH + allowed:
        print(f"Coal's normal {{own}} is not the certified one, but as deep along it (a tie): checked along it")
        return own, top, bottom
    return NORMAL, TOP_A, BOTTOM_B


def outside(shape, pose, p):
    """How far p lies outside the shape (0 inside), by Coal's point query."""
    probe = coal.Sphere(0.0)
    found = coal.DistanceResult()
    coal.distance(probe, coal.Transform3s(np.eye(3), p), shape, pose, coal.DistanceRequest(), found)
    return max(found.min_distance, 0.0)


contact_ok = True
collision_request = coal.CollisionRequest(coal.CollisionRequestFlag.CONTACT, 1)
collision_request.security_margin = MARGIN
collision = coal.CollisionResult()
coal.collide(shape_a, pose_a, shape_b, pose_b, collision_request, collision)
if not collision.isCollision():
    print("Coal finds no contact within the margin, where Collidescope certifies one")
    contact_ok = False
else:
    patch_request = coal.ContactPatchRequest()
    patches = coal.ContactPatchResult(patch_request)
    coal.computeContactPatch(shape_a, pose_a, shape_b, pose_b, collision, patch_request, patches)
    patch = patches.getContactPatch(0)
    print(f"Coal's contact patch: {{patch.size()}} points")
    normal, top_a, bottom_b = region_along(patch)
    for i in range(patch.size()):
        p1, p2 = patch.getPointShape1(i), patch.getPointShape2(i)
        gap = p1 - p2
        problems = []
        if not top_a - BAND - allowed <= normal @ p1 <= top_a + allowed:
            problems.append(f"on A {{top_a - normal @ p1:.3e}} below A's support plane")
        if not bottom_b - allowed <= normal @ p2 <= bottom_b + BAND + allowed:
            problems.append(f"on B {{normal @ p2 - bottom_b:.3e}} above B's support plane")
        across = float(np.linalg.norm(gap - normal * (normal @ gap)))
        if across > BAND + allowed:
            problems.append(f"its two points {{across:.3e}} apart across the normal")
        if normal @ gap > DEPTH + allowed:
            problems.append(f"{{normal @ gap - DEPTH:.3e}} deeper than the certified depth")
        for name, shape, pose, p in (("A", shape_a, pose_a, p1), ("B", shape_b, pose_b, p2)):
            off = outside(shape, pose, p)
            if off > allowed:
                problems.append(f"its point on {{name}} {{off:.3e}} outside {{name}}")
        if problems:
            contact_ok = False
            print(f"  point {{i}} leaves the certified contact region: " + "; ".join(problems))
    if contact_ok:
        print("Coal's contact patch lies in the certified contact region")
"#,
        nx = lit(n.x),
        ny = lit(n.y),
        nz = lit(n.z),
        top_a = lit(region.top_a),
        bottom_b = lit(region.bottom_b),
        band = lit(region.band),
        depth = lit(region.depth),
        tolerance = lit(region.tolerance),
        margin = lit(region.margin),
        reach = lit(reach),
    )
}

/// A body as Coal builds it, as parts: `(shape expression, pose expression)`. A mesh (a
/// `TriMesh`, a mesh file's triangles) is a `BVHModelOBBRSS` of its triangles
/// (`beginModel`, `addSubModel`, `endModel`); a height field of parry's layout a
/// `HeightFieldOBBRSS` (Coal's grid lies over x–y, rows from +y down, heights along z:
/// parry's rows along z turned by a quarter turn about x onto it, the cells' diagonals
/// the same), or the BVH of its triangles when some cell is zigzag or has a triangle
/// removed (Coal's cells have neither); a compound its convex parts (Coal has no
/// compound: the script takes the least over them); a convex body itself.
fn coal_parts(body: &Body) -> Result<(Vec<(String, String)>, bool), String> {
    let Some(composite) = &body.composite else {
        let (shape, along_z) = coal_body_shape(body)?;
        return Ok((vec![(shape, coal_pose(&body.pose, along_z))], false));
    };
    let mesh_parts =
        |composite: &crate::composite::Composite| -> Result<Vec<(String, String)>, String> {
            let mesh = composite.mesh().ok_or("a composite without triangles")?;
            let vertices: Vec<String> = mesh
                .vertices()
                .iter()
                .map(|v| format!("({}, {}, {})", lit(v.x), lit(v.y), lit(v.z)))
                .collect();
            let triangles: Vec<String> = mesh
                .triangles()
                .iter()
                .map(|t| format!("({}, {}, {})", t[0], t[1], t[2]))
                .collect();
            Ok(vec![(
                format!(
                    "bvh([\n        {}\n    ], [\n        {}\n    ])",
                    vertices.join(",\n        "),
                    triangles.join(",\n        ")
                ),
                coal_pose(&body.pose, false),
            )])
        };
    match (composite.kind(), &body.spec) {
        (
            CompositeKind::HeightField(_),
            ShapeSpec::HeightField {
                heights,
                scale,
                cells,
            },
        ) if cells.iter().all(|c| *c == 0) => {
            let rows: Vec<String> = heights
                .iter()
                .map(|r| {
                    let row: Vec<String> = r.iter().map(|h| lit(h * scale[1])).collect();
                    format!("[{}]", row.join(", "))
                })
                .collect();
            let lowest = heights
                .iter()
                .flatten()
                .map(|h| h * scale[1])
                .fold(f64::INFINITY, f64::min);
            // Coal's frame: (x, y, z) = (x, −z, y) of parry's layout; the body's pose
            // composed with that quarter turn's inverse.
            let quarter = DMat3::from_cols(DVec3::X, DVec3::Z, -DVec3::Y);
            let turned = body.pose.rotation_matrix() * quarter.transpose();
            let pose = Pose::from_matrix(body.pose.translation, turned);
            Ok((
                vec![(
                    format!(
                        "coal.HeightFieldOBBRSS({}, {}, np.array([\n        {}\n    ]), {})",
                        lit(scale[0]),
                        lit(scale[2]),
                        rows.join(",\n        "),
                        lit(lowest)
                    ),
                    coal_pose(&pose, false),
                )],
                true,
            ))
        }
        (CompositeKind::Compound, _) => {
            let Pieces::Parts(parts) = composite.pieces() else {
                return Err("a compound without parts".into());
            };
            let mut out = Vec::with_capacity(parts.len());
            for (k, part) in parts.iter().enumerate() {
                let (shape, along_z) =
                    coal_shape(&part.shape, 0.0).map_err(|e| format!("part {k}: {e}"))?;
                let at = body.pose.then_local(&Pose::from_matrix(
                    part.pose.translation,
                    part.pose.rotation,
                ));
                out.push((shape, coal_pose(&at, along_z)));
            }
            Ok((out, false))
        }
        _ => Ok((mesh_parts(composite)?, false)),
    }
}

fn parts_literal(parts: &[(String, String)]) -> String {
    let items: Vec<String> = parts
        .iter()
        .map(|(shape, pose)| format!("    ({shape},\n     {}),", pose.replace('\n', "\n     ")))
        .collect();
    format!("[\n{}\n]", items.join("\n"))
}

/// The script of a pair with a composite: Coal's query on the bodies as it builds them.
fn composite_script(scene: &Scene, source: &str) -> Result<String, String> {
    let certified = certify(scene)?;
    let [a, b] = pair(scene);
    let (parts_a, field_a) = coal_parts(a).map_err(|e| format!("body A: {e}"))?;
    let (parts_b, field_b) = coal_parts(b).map_err(|e| format!("body B: {e}"))?;
    let bracket = format!("{}", Outward(certified.lower, certified.upper));
    let how = if field_a || field_b {
        "Coal has no distance to a height field: the script asks Coal's collision test with \
         a security margin (apart by less than the margin: a collision), which must find none \
         within the certified lower bound and one within the upper (an overlap: one at 0)"
    } else {
        "the script runs Coal's distance (on a BVHModel: the least over its triangles; \
         on an overlap Coal may give 0, computing no depth, and its collision test must \
         then find the overlap), the least over the parts of a compound"
    };
    Ok(format!(
        r#"#!/usr/bin/env python3
"""A reproduction exported by Collidescope: Coal on a pair with a mesh, height field or
compound, built as Coal builds them (a BVHModelOBBRSS of the triangles, a
HeightFieldOBBRSS, a compound's convex parts), whose signed distance Collidescope
certifies (the scene, its source and the bracket are below).

It exits 1 when Coal's answer lies outside the certified bracket widened by Coal's own
stopping guarantee (its GJK and EPA tolerances times 1 + the size of the pair), and
passes once Coal agrees.
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
# How Coal is asked: {how}.
import math
import sys
from decimal import ROUND_FLOOR, Decimal, localcontext

import numpy as np
import coal

# The scene's name, the file it came from and its notes, as written there.
SCENE = {name}
SOURCE = {source}
NOTES = {notes}

KEEP = []  # a hull or a model may refer to its input vectors: keep them alive


def convex(points):
    vector = coal.StdVec_Vec3s()
    for p in points:
        vector.append(np.array(p, dtype=float))
    KEEP.append(vector)
    return coal.Convex.convexHull(vector, False, None)


def swept(shape, radius):
    shape.setSweptSphereRadius(radius)
    return shape


{as_built_helper}
# What to change when Coal is off (an object that is not what its type promises).
WHAT_TO_CHANGE = {what_to_change}


def bvh(vertices, triangles):
    """A triangle mesh as Coal's BVHModelOBBRSS: beginModel, addSubModel, endModel."""
    points, faces = vectors(vertices, triangles)
    model = coal.BVHModelOBBRSS()
    model.beginModel(len(triangles), len(vertices))
    model.addSubModel(points, faces)
    model.endModel()
    return model


parts_a = {parts_a}
parts_b = {parts_b}

lower, upper = {lower}, {upper}


def reach(shape):
    """How far the shape's points lie from its frame's origin, at most."""
    shape.computeLocalAABB()
    rounding = getattr(shape, "getSweptSphereRadius", lambda: 0.0)()
    return float(np.linalg.norm(shape.aabb_center)) + shape.aabb_radius + rounding


def is_field(shape):
    return isinstance(shape, coal.HeightFieldOBBRSS)


def distance(s1, p1, s2, p2):
    request, result = coal.DistanceRequest(), coal.DistanceResult()
    coal.distance(s1, p1, s2, p2, request, result)
    return result.min_distance


def collides(margin):
    for s1, p1 in parts_a:
        for s2, p2 in parts_b:
            request, result = coal.CollisionRequest(), coal.CollisionResult()
            request.security_margin = margin
            coal.collide(s1, p1, s2, p2, request, result)
            if result.isCollision():
                return True
    return False


request = coal.DistanceRequest()
size = max(reach(s1) + reach(s2) + float(np.linalg.norm(p2.getTranslation() - p1.getTranslation()))
           for s1, p1 in parts_a for s2, p2 in parts_b)
slack = max(request.gjk_tolerance, request.epa_tolerance) * (1.0 + size)
low = math.nextafter(lower - slack, -math.inf)
high = math.nextafter(upper + slack, math.inf)
print(f"Scene {{SCENE!r}} from {{SOURCE!r}}")
print("Collidescope: signed distance in", {bracket_literal})
fields = any(is_field(s) for s, _ in parts_a + parts_b)
if fields:
    # Apart: no collision within the lower bound, one within the upper; overlapping: one.
    if upper <= 0.0:
        ok = collides(0.0)
        print(f"Coal {{getattr(coal, '__version__', '?')}}: collision {{ok}} (expected True)")
    else:
        near, far = collides(max(low, 0.0)), collides(high)
        ok = (not near or low <= 0.0) and far
        print(f"Coal {{getattr(coal, '__version__', '?')}}: collision within {{low!r}}: {{near}}, "
              f"within {{high!r}}: {{far}} (expected False, True)")
    if ok:
        print("Coal agrees with the certified answer")
        sys.exit(0)
    print("Coal is off the certified bracket (its collision test with a security margin)")
    if WHAT_TO_CHANGE:
        print(WHAT_TO_CHANGE)
    sys.exit(1)
answer = min(distance(s1, p1, s2, p2) for s1, p1 in parts_a for s2, p2 in parts_b)
print(f"Coal {{getattr(coal, '__version__', '?')}}: {{answer!r}} (allowed: [{{low!r}}, {{high!r}}])")
meshes = any(type(s).__name__.startswith("BVHModel") for s, _ in parts_a + parts_b)
if upper <= 0.0 and answer == 0.0 and meshes:
    # Coal's distance with a BVH model reports 0 on an overlap (no depth): its
    # collision test must then find the overlap.
    ok = collides(0.0)
    print(f"Coal's BVH distance gives 0 on an overlap (no depth); its collision test: {{ok}} (expected True)")
    if ok:
        print("Coal agrees with the certified answer (an overlap)")
        sys.exit(0)
if low <= answer <= high:
    print("Coal agrees with the certified answer")
    sys.exit(0)
with localcontext() as exact:
    exact.prec, exact.rounding = 2000, ROUND_FLOOR
    off = Decimal(low) - Decimal(answer) if answer < low else Decimal(answer) - Decimal(high)
    print(f"Coal is off the certified bracket by {{off:.3e}}")
if WHAT_TO_CHANGE:
    print(WHAT_TO_CHANGE)
sys.exit(1)
"#,
        as_built_helper = AS_BUILT_HELPER,
        what_to_change = python_str(&what_to_change([a, b])),
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
        how = how,
        parts_a = parts_literal(&parts_a),
        parts_b = parts_literal(&parts_b),
    ))
}
