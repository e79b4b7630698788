"""Two geoms of a live MuJoCo simulation as MuJoCo placed them: the pose of each geom is
`data.geom_xpos` and `data.geom_xmat` (after `mj_forward` or `mj_step`), its shape the
model's size (or its mesh's compiled vertices, in the geom's frame). Every number is
MuJoCo's own double, passed to the bit (mesh vertices, MuJoCo's floats, widened exactly).
"""
import numpy as np


def _mujoco():
    try:
        import mujoco
    except ImportError as error:  # pragma: no cover - the caller has a model, so has MuJoCo
        raise ImportError("Scene.from_mujoco needs MuJoCo's Python bindings (pip install mujoco)") from error
    return mujoco


def geom_id(model, geom, what):
    """A geom by its name or id."""
    mujoco = _mujoco()
    if isinstance(geom, str):
        g = mujoco.mj_name2id(model, mujoco.mjtObj.mjOBJ_GEOM, geom)
        if g < 0:
            raise ValueError(f"{what}: the model has no geom named {geom!r}")
        return g
    g = int(geom)
    if not 0 <= g < model.ngeom:
        raise ValueError(f"{what}: geom id {g} is not in 0..{model.ngeom - 1}")
    return g


def geom_name(model, g):
    mujoco = _mujoco()
    return mujoco.mj_id2name(model, mujoco.mjtObj.mjOBJ_GEOM, g) or f"geom {g}"


def shape_and_pose(model, data, g, what):
    """(shape, (R, t)) of geom `g` at `data`'s state. MuJoCo's capsules and cylinders
    stand along z, ours along y: the pose's columns are permuted and one negated
    (exact), so that the two are the same set of points."""
    from . import Box, Capsule, Convex, Cylinder, Ellipsoid, Sphere
    mujoco = _mujoco()
    kinds = mujoco.mjtGeom
    kind = int(model.geom_type[g])
    size = [float(s) for s in model.geom_size[g]]
    rotation = np.array(data.geom_xmat[g], dtype=float).reshape(3, 3)
    translation = np.array(data.geom_xpos[g], dtype=float)
    if kind == int(kinds.mjGEOM_SPHERE):
        shape = Sphere(size[0])
    elif kind == int(kinds.mjGEOM_BOX):
        shape = Box(size)
    elif kind == int(kinds.mjGEOM_ELLIPSOID):
        shape = Ellipsoid(size)
    elif kind in (int(kinds.mjGEOM_CAPSULE), int(kinds.mjGEOM_CYLINDER)):
        make = Capsule if kind == int(kinds.mjGEOM_CAPSULE) else Cylinder
        shape = make(size[0], size[1])
        rotation = np.column_stack([rotation[:, 0], rotation[:, 2], -rotation[:, 1]])
    elif kind == int(kinds.mjGEOM_MESH):
        mesh = int(model.geom_dataid[g])
        start, count = int(model.mesh_vertadr[mesh]), int(model.mesh_vertnum[mesh])
        shape = Convex(np.asarray(model.mesh_vert[start:start + count], dtype=float))
    else:
        name = str(kinds(kind)).split(".")[-1]
        raise TypeError(
            f"{what}: MuJoCo's {name} geom is not a bounded convex shape")
    return shape, (rotation, translation)


def is_plane(model, g):
    return int(model.geom_type[g]) == int(_mujoco().mjtGeom.mjGEOM_PLANE)


def plane_slab(model, data, g, other_shape, other_pose):
    """A MuJoCo plane (the geom frame's xy-plane, normal its z axis) as a slab: see
    `_coal.slab`."""
    from ._coal import slab
    rotation = np.array(data.geom_xmat[g], dtype=float).reshape(3, 3)
    origin = np.array(data.geom_xpos[g], dtype=float)
    return slab(rotation, origin, other_shape, other_pose)
