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
                        "(Box, Sphere, Capsule, Cylinder, Cone, Ellipsoid, Convex)")
    radius = float(geom.getSweptSphereRadius()) if hasattr(geom, "getSweptSphereRadius") else 0.0
    if radius > 0.0:
        shape = Dilated(shape, radius)
    if along_z:
        # Coal's axis is z, ours y: world = R (e_x, e_z, -e_y) p, columns permuted exactly.
        R = np.stack([R[:, 0], R[:, 2], -R[:, 1]], axis=1)
    return shape, (R, t)
