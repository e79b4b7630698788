"""Coal (and hpp-fcl) objects as Collidescope shapes and poses, to the bit."""
import numpy as np

from . import Box, Capsule, Cone, Convex, Cylinder, Ellipsoid, Sphere, Dilated


def _rotation_translation(M, what):
    for getters in (("getRotation", "getTranslation"), ("rotation", "translation")):
        if hasattr(M, getters[0]):
            R = getattr(M, getters[0]); t = getattr(M, getters[1])
            R = R() if callable(R) else R
            t = t() if callable(t) else t
            return np.array(R, dtype=float), np.array(t, dtype=float).reshape(3)
    array = np.asarray(M, dtype=float)
    if array.shape == (4, 4):
        return array[:3, :3], array[:3, 3]
    raise TypeError(f"{what}: expected a coal.Transform3s (or hpp-fcl Transform3f) or a 4x4 matrix")


def shape_and_pose(geom, M, what):
    R, t = _rotation_translation(M, what)
    kind = type(geom).__name__
    along_z = False
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
        shape = Convex(np.array(geom.points(), dtype=float))
    else:
        raise TypeError(f"{what}: Coal's {kind} is not a shape Collidescope takes "
                        "(Box, Sphere, Capsule, Cylinder, Cone, Ellipsoid, Convex, and a "
                        "Halfspace against one of them)")
    radius = float(geom.getSweptSphereRadius()) if hasattr(geom, "getSweptSphereRadius") else 0.0
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
    R, t = _rotation_translation(M, what)
    n = np.array(geom.n, dtype=float).reshape(3)
    n = n / np.linalg.norm(n)
    normal = R @ n
    # Any frame whose z axis is the normal (the cube is the same turned about it).
    helper = np.array([1.0, 0.0, 0.0]) if abs(normal[0]) < 0.9 else np.array([0.0, 1.0, 0.0])
    x = np.cross(helper, normal)
    x /= np.linalg.norm(x)
    rotation = np.stack([x, np.cross(normal, x), normal], axis=1)
    return slab(rotation, R @ (n * float(geom.d)) + t, other_shape, other_pose)
