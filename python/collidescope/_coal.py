"""Coal (and hpp-fcl) objects as Collidescope shapes and poses, to the bit: convex
shapes as themselves, a `BVHModel` (Pinocchio's mesh geometry) as the triangle mesh its
vertices and triangles make, a `HeightField` as a height field placed so that its
surface is Coal's."""
import os
import sys
import warnings

import numpy as np

from . import _native
from . import (Box, Capsule, Compound, Cone, Convex, Cylinder, Dilated, Ellipsoid, HeightField,
               MeshWarning, Sphere, TriMesh)


def _rotation_translation(M, what):
    """A Coal `Transform3s` (hpp-fcl `Transform3f`), Pinocchio `SE3`, 4x4 matrix or (R, t)
    as (R, t) numpy arrays, checked and named as every pose is (collidescope._pose)."""
    if M is None:
        raise TypeError(f"{what}: missing (a coal.Transform3s, pinocchio.SE3 or 4x4 matrix)")
    rows, t = _native.pose_parts(M, what)
    return np.array(rows, dtype=float), np.array(t, dtype=float)


def bvh_mesh(geom, what):
    """A Coal `BVHModel` (OBBRSS, OBB, ...) as the triangle mesh the user built: its
    vertices and triangles as Coal holds them, in the model's frame."""
    kind = type(geom).__name__
    model_type = str(geom.getModelType()) if hasattr(geom, "getModelType") else ""
    if model_type.endswith("POINTCLOUD"):
        raise ValueError(f"{what} ({kind}) is a point cloud, not a triangle mesh: "
                         "Collidescope takes a BVHModel of triangles")
    n, m = int(geom.num_vertices), int(geom.num_tris)
    if m == 0:
        raise ValueError(f"{what} ({kind}) has no triangles")
    if n == 0:
        raise ValueError(f"{what} ({kind}) has no vertices")
    vertices = np.array(geom.vertices(), dtype=float).reshape(-1, 3)
    if vertices.shape[0] != n:
        raise ValueError(f"{what} ({kind}): {vertices.shape[0]} vertices read where it says {n}")
    bad = np.argwhere(~np.isfinite(vertices))
    if bad.size:
        k = int(bad[0][0])
        raise ValueError(f"{what} ({kind}): vertex {k} is not finite ({list(vertices[k])})")
    triangles = np.empty((m, 3), dtype=np.int64)
    for k in range(m):
        tri = geom.tri_indices(k)
        triangles[k] = (tri[0], tri[1], tri[2])
    bad = np.argwhere((triangles < 0) | (triangles >= n))
    if bad.size:
        k = int(bad[0][0])
        raise ValueError(f"{what} ({kind}): triangle {k} {list(map(int, triangles[k]))} "
                         f"indexes past the {n} vertices")
    edge = non_manifold_edge(vertices, triangles)
    if edge is not None:
        # Coal takes any triangle soup; a mesh here is a surface (each edge in one or
        # two triangles, for the internal-edge analysis). The same triangles as convex
        # parts, numbered alike ("part k" is triangle k): the same set, the same answers.
        shape = Compound([Convex(vertices[tri]) for tri in triangles])
        shape.note = (f"{what} ({kind}): the edge between vertices {edge[0]} and {edge[1]} "
                      f"belongs to {edge[2]} triangles, so its {m} triangles are taken as "
                      "the parts of a compound (part k is triangle k), without internal edges")
        # Said where the user sees it (and can filter it: collidescope.MeshWarning), not
        # only in the scene's notes.
        _warn(shape.note)
        return shape
    return TriMesh(vertices, triangles)


def _warn(message):
    """A MeshWarning attributed to the user's line (the first frame outside this
    package: from_coal and from_pinocchio reach here at different depths)."""
    here = os.path.dirname(os.path.abspath(__file__))
    frame, level = sys._getframe(0), 1
    while frame is not None and frame.f_code.co_filename.startswith(here):
        frame, level = frame.f_back, level + 1
    warnings.warn(message, MeshWarning, stacklevel=level)


def non_manifold_edge(vertices, triangles):
    """The first edge in three triangles or more (vertices at one position are one, as
    the mesh's topology welds them; triangles collapsed onto a segment join nothing):
    (a, b, count), or None for a surface."""
    _, weld = np.unique(vertices, axis=0, return_inverse=True)
    w = weld.reshape(-1)[triangles]
    proper = (w[:, 0] != w[:, 1]) & (w[:, 1] != w[:, 2]) & (w[:, 0] != w[:, 2])
    w = w[proper]
    if w.size == 0:
        return None
    edges = np.sort(np.concatenate([w[:, [0, 1]], w[:, [1, 2]], w[:, [2, 0]]]), axis=1)
    unique, counts = np.unique(edges, axis=0, return_counts=True)
    bad = np.flatnonzero(counts > 2)
    if bad.size == 0:
        return None
    a, b = unique[bad[0]]
    first = lambda welded: int(np.flatnonzero(weld.reshape(-1) == welded)[0])
    return first(a), first(b), int(counts[bad[0]])


def height_field(geom, R, t, what, cells=False):
    """Coal's `HeightField` (a grid over x-y, `x_grid` increasing and `y_grid`
    decreasing along the rows, heights along z; each cell cut along the diagonal from
    (row i, column j+1) to (row i+1, column j)) in parry's layout (rows along z, entries
    along x, heights along y): the same rows and columns, scale (x extent, 1, y extent),
    the pose turned by the exact rotation (x, y, z) -> (x, -z, y) about the grid's
    centre, so that corner (i, j) lands where Coal puts it and the cells are cut alike
    (parry's default diagonal). Coal's cells are solid down to `min_height`; the field
    here is its top surface (the same answer for shapes above it)."""
    kind = type(geom).__name__
    heights = np.array(geom.getHeights(), dtype=float)
    x = np.array(geom.getXGrid(), dtype=float).reshape(-1)
    y = np.array(geom.getYGrid(), dtype=float).reshape(-1)
    if heights.ndim != 2 or heights.shape != (y.size, x.size):
        raise ValueError(f"{what} ({kind}): heights of shape {heights.shape} on a grid of "
                         f"{y.size} rows and {x.size} columns")
    if x.size < 2 or y.size < 2:
        raise ValueError(f"{what} ({kind}): a height field needs 2 rows and 2 columns at least "
                         f"(got {y.size} x {x.size})")
    bad = np.argwhere(~np.isfinite(heights))
    if bad.size:
        i, j = map(int, bad[0])
        raise ValueError(f"{what} ({kind}): the height at row {i}, column {j} is not finite")
    x_extent, y_extent = x[-1] - x[0], y[0] - y[-1]
    if not (x_extent > 0 and y_extent > 0):
        raise ValueError(f"{what} ({kind}): its grid spans {x_extent} x {y_extent}")
    for grid, extent, sign, axis in ((x, x_extent, 1.0, "x"), (y, y_extent, -1.0, "y")):
        uniform = grid[0] + sign * extent * np.arange(grid.size) / (grid.size - 1)
        if np.max(np.abs(uniform - grid)) > 1e-9 * max(1.0, extent):
            raise ValueError(f"{what} ({kind}): its {axis} grid is not evenly spaced")
    if cells:
        return height_field_cells(geom, x, y, heights, what), (R, t)
    centre = np.array([0.5 * (x[0] + x[-1]), 0.5 * (y[0] + y[-1]), 0.0])
    shape = HeightField(heights, (x_extent, 1.0, y_extent))
    rotation = np.stack([R[:, 0], R[:, 2], -R[:, 1]], axis=1)
    translation = t if not centre.any() else t + R @ centre
    return shape, (rotation, translation)


def height_field_cells(geom, x, y, heights, what):
    """Coal's height field as the solid it collides with: each cell's two triangles as
    prisms from the surface down to `min_height`, in Coal's own frame (a compound: part
    2 (i (cols - 1) + j) and the next are cell (i, j)'s triangles, the one holding
    corner (i, j) first)."""
    floor = float(geom.getMinHeight())
    parts = []
    for i in range(y.size - 1):
        for j in range(x.size - 1):
            corner = lambda a, b: np.array([x[b], y[a], heights[a, b]])
            p00, p01, p10, p11 = corner(i, j), corner(i, j + 1), corner(i + 1, j), corner(i + 1, j + 1)
            for top in ((p00, p01, p10), (p01, p11, p10)):
                bottom = [np.array([p[0], p[1], floor]) for p in top]
                parts.append(Convex(np.array(list(top) + bottom)))
    shape = Compound(parts)
    shape.note = (f"{what} ({type(geom).__name__}): its {len(parts) // 2} cells as solid prisms "
                  f"down to min_height {floor!r} (a compound of {len(parts)} parts)")
    return shape


def _polygons(geom):
    """A Coal Convex's polygons as an (m, 3) index array (empty when it has none)."""
    m = int(geom.num_polygons) if hasattr(geom, "num_polygons") else 0
    triangles = np.empty((m, 3), dtype=np.int64)
    for k in range(m):
        tri = geom.polygons(k)
        triangles[k] = (tri[0], tri[1], tri[2])
    return triangles


def convexity_defect(points, polygons):
    """Where a polyhedron (its points and triangular polygons) is not convex: (vertex,
    polygon, height) of the vertex farthest beyond a polygon's plane, or None (the
    core's check, the one the Coal export makes)."""
    if len(polygons) == 0:
        return None
    return _native.convexity_defect(np.asarray(points, dtype=float).tolist(),
                                    np.asarray(polygons, dtype=np.int64).tolist())


def is_composite(geom):
    kind = type(geom).__name__
    return kind.startswith("BVHModel") or kind.startswith("HeightField")


def shape_and_pose(geom, M, what, height_field_cells=False, pose_what=None):
    R, t = _rotation_translation(M, pose_what or what)
    kind = type(geom).__name__
    along_z = False
    radius = float(geom.getSweptSphereRadius()) if hasattr(geom, "getSweptSphereRadius") else 0.0
    if is_composite(geom) and radius > 0.0:
        raise ValueError(f"{what} ({kind}) has a swept-sphere radius of {radius}: a mesh or "
                         "height field takes none here")
    if kind.startswith("BVHModel"):
        return bvh_mesh(geom, what), (R, t)
    if kind.startswith("HeightField"):
        return height_field(geom, R, t, what, cells=height_field_cells)
    if kind == "Box":
        shape = Box(np.array(geom.halfSide, dtype=float))
    elif kind == "Sphere":
        shape = Sphere(geom.radius)
    elif kind == "Ellipsoid":
        shape = Ellipsoid(np.array(geom.radii, dtype=float))
    elif kind in ("Capsule", "Cylinder", "Cone"):
        constructor = {"Capsule": Capsule, "Cylinder": Cylinder, "Cone": Cone}[kind]
        shape, along_z = constructor(geom.radius, geom.halfLength), True
    elif kind.startswith("Convex"):
        points = np.array(geom.points(), dtype=float)
        shape = Convex(points)
        polygons = _polygons(geom)
        if len(polygons):
            # The user's object as built (the export rebuilds it: convex or not, the
            # reproduction is the object that answered); the query is the hull's.
            shape.spec["Polytope"]["polygons"] = polygons.tolist()
        defect = convexity_defect(points, polygons)
        if defect is not None:
            vertex, polygon, height = defect
            # The user's object is not what Coal's GJK assumes (its support climbs the
            # polygons' neighbours): said, with how far the hull taken here reaches
            # beyond it.
            shape.note = (f"{what} ({kind}): not convex: vertex {vertex} lies {height:.6g} "
                          f"beyond the plane of its polygon {polygon}, so its convex hull "
                          "(what Collidescope answers on) reaches that far past it, and "
                          "Coal's GJK on the object as built can answer wrongly; build it "
                          "as a hull in Coal: points = coal.StdVec_Vec3s(); points.extend(geometry.points()); "
                          "coal.Convex.convexHull(points, True, 'Qt') (from Pinocchio's mesh: "
                          "mesh.buildConvexHull(True, 'Qt'), then mesh.convex)")
            _warn(shape.note)
    else:
        raise TypeError(f"{what}: Coal's {kind} is not a shape Collidescope takes "
                        "(Box, Sphere, Capsule, Cylinder, Cone, Ellipsoid, Convex, "
                        "BVHModelOBBRSS, BVHModelOBB, HeightFieldOBBRSS, HeightFieldAABB, "
                        "and a Halfspace against one of them)")
    if radius > 0.0:
        shape = Dilated(shape, radius)
    if along_z:
        # Coal's axis is z, ours y: world = R (e_x, e_z, -e_y) p, columns permuted exactly.
        R = np.stack([R[:, 0], R[:, 2], -R[:, 1]], axis=1)
    return shape, (R, t)


def _reach(spec):
    """A radius about a body's origin that holds the shape a spec describes."""
    (kind, fields), = spec.items()
    if kind == "Sphere":
        return fields["radius"]
    if kind == "Box":
        return float(np.linalg.norm(fields["half_extents"]))
    if kind == "Ellipsoid":
        return max(fields["radii"])
    if kind == "Capsule":
        return fields["radius"] + fields["half_height"]
    if kind in ("Cylinder", "Cone"):
        return float(np.hypot(fields["radius"], fields["half_height"]))
    if kind == "Polytope":
        return max(float(np.linalg.norm(p)) for p in fields["points"])
    if kind == "Dilated":
        return _reach(fields["shape"]) + fields["radius"]
    if kind == "TriMesh":
        return float(np.max(np.linalg.norm(np.asarray(fields["vertices"]), axis=1)))
    if kind == "HeightField":
        h = np.abs(np.asarray(fields["heights"])).max() * fields["scale"][1]
        return float(np.linalg.norm([0.5 * fields["scale"][0], h, 0.5 * fields["scale"][2]]))
    if kind == "Compound":
        return max(float(np.linalg.norm(p["translation"])) + _reach(p["shape"]) for p in fields["parts"])
    return 1.0


def slab(rotation, foot, other_shape, other_pose):
    """A half-space (below the plane through `foot` whose normal is `rotation`'s z
    column) as a slab GJK can take: a cube whose top face lies on the plane, under the
    other body, twice its reach from the foot wide and deep, so that distances and
    depths are the half-space's. Coal's Halfspace and MuJoCo's plane both come here."""
    normal = rotation[:, 2]
    centre = np.asarray(other_pose[1], dtype=float)
    size = max(2.0 * (float(np.linalg.norm(centre - foot)) + _reach(other_shape.spec)), 1e-6) * 1.01
    return Box([size, size, size]), (rotation, foot - normal * size)


def half_space_slab(geom, M, other_shape, other_pose, what):
    """Coal's Halfspace (the points x with n.x <= d in its frame) as a [`slab`]."""
    R, t = _rotation_translation(M, what.replace("geom", "M"))
    n = np.array(geom.n, dtype=float).reshape(3)
    n = n / np.linalg.norm(n)
    normal = R @ n
    # Any frame whose z axis is the normal (the cube is the same turned about it).
    helper = np.array([1.0, 0.0, 0.0]) if abs(normal[0]) < 0.9 else np.array([0.0, 1.0, 0.0])
    x = np.cross(helper, normal)
    x /= np.linalg.norm(x)
    rotation = np.stack([x, np.cross(normal, x), normal], axis=1)
    return slab(rotation, R @ (n * float(geom.d)) + t, other_shape, other_pose)
