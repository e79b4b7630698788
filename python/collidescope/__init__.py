"""Collidescope from Python.

    import numpy as np
    import collidescope as cs

    box = cs.Box([0.5, 0.3, 0.2])                       # half extents
    hull = cs.Convex(np.random.rand(50, 3))             # the convex hull of the points
    scene = cs.Scene(box, np.eye(4), hull, (R, t))      # poses: 4x4 matrix or (R, t)
    run = scene.run("nesterov")                         # any method of the catalog
    run["status"], run["distance"], run["iterations"]   # the fields of `solve --json`
    scene.save("case.ron"); cs.Scene.load("case.ron")   # scenes, parry captures, FCL dumps
    cs.view(scene)                                      # the viewer on it
    cs.Scene.from_coal(geom1, M1, geom2, M2)            # Coal's (or hpp-fcl's) query, to the bit
    cs.Scene.from_mujoco(model, data, "geom1", "geom2") # two geoms of a MuJoCo simulation

Shapes and poses reach the Rust core as JSON whose floats Python writes in shortest
round-trip form: every number arrives to the bit. Rotation matrices are kept as given.
"""
import json
import os
import shutil
import subprocess
import tempfile

import numpy as np

from . import _native

__all__ = [
    "Shape", "Sphere", "Box", "Ellipsoid", "Capsule", "Cylinder", "Cone", "Convex",
    "Dilated", "Scene", "view", "methods",
]


def _floats(values, count, what):
    array = np.asarray(values, dtype=float).reshape(-1)
    if array.size != count:
        raise ValueError(f"{what}: expected {count} numbers, got {array.size}")
    return [float(v) for v in array]


class Shape:
    """A shape as the scene format writes it (`spec` is its JSON form)."""

    def __init__(self, spec):
        self.spec = spec

    def __repr__(self):
        return f"collidescope.Shape({self.spec!r})"


def Sphere(radius):
    return Shape({"Sphere": {"radius": float(radius)}})


def Box(half_extents):
    """A box by its half extents (Coal's and FCL's `Box` take full sides)."""
    return Shape({"Box": {"half_extents": _floats(half_extents, 3, "Box half extents")}})


def Ellipsoid(radii):
    return Shape({"Ellipsoid": {"radii": _floats(radii, 3, "Ellipsoid radii")}})


def Capsule(radius, half_height):
    """Along y, as parry's `capsule_y` (Coal's capsules stand along z: see from_coal)."""
    return Shape({"Capsule": {"radius": float(radius), "half_height": float(half_height)}})


def Cylinder(radius, half_height):
    """Along y."""
    return Shape({"Cylinder": {"radius": float(radius), "half_height": float(half_height)}})


def Cone(radius, half_height):
    """Along y, apex at +half_height."""
    return Shape({"Cone": {"radius": float(radius), "half_height": float(half_height)}})


def Convex(points):
    """The convex hull of an (n, 3) array of points (flat and repeated points allowed)."""
    array = np.asarray(points, dtype=float)
    if array.ndim != 2 or array.shape[1] != 3 or array.shape[0] == 0:
        raise ValueError(f"Convex: expected an (n, 3) array of points, got shape {array.shape}")
    return Shape({"Polytope": {"points": [[float(c) for c in p] for p in array]}})


def Dilated(shape, radius):
    """`shape` ⊕ a ball of `radius` (parry's round shapes, Coal's swept-sphere radius)."""
    return Shape({"Dilated": {"shape": shape.spec, "radius": float(radius)}})


def _pose(pose, what):
    """(translation, rotation spec) of a 4x4 matrix, an (R, t) pair, or None (identity)."""
    if pose is None:
        return [0.0, 0.0, 0.0], {"EulerDegrees": [0.0, 0.0, 0.0]}
    if isinstance(pose, (tuple, list)) and len(pose) == 2:
        rotation = np.asarray(pose[0], dtype=float)
        translation = _floats(pose[1], 3, f"{what} translation")
    else:
        matrix = np.asarray(pose, dtype=float)
        if matrix.shape != (4, 4):
            raise ValueError(f"{what}: a pose is a 4x4 matrix or (R, t), got shape {matrix.shape}")
        if list(matrix[3]) != [0.0, 0.0, 0.0, 1.0]:
            raise ValueError(f"{what}: the last row of a rigid 4x4 pose is 0 0 0 1, got {list(matrix[3])}")
        rotation, translation = matrix[:3, :3], [float(v) for v in matrix[:3, 3]]
    if rotation.shape != (3, 3):
        raise ValueError(f"{what}: a rotation is 3x3, got shape {rotation.shape}")
    rows = [[float(c) for c in row] for row in rotation]
    return translation, {"Matrix": rows}


def _arrays(value):
    """Lists of three numbers (points, normals) in a run as numpy arrays."""
    if isinstance(value, dict):
        return {k: _arrays(v) for k, v in value.items()}
    if isinstance(value, list):
        if len(value) == 3 and all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in value):
            return np.array(value, dtype=float)
        return [_arrays(v) for v in value]
    return value


def methods():
    """Every method name the catalog knows (`gjk`, `nesterov`, `epa`, `toi`, ...)."""
    return list(_native.methods())


class Scene:
    """Two shapes at their poses: what the viewer shows and the methods run on."""

    def __init__(self, shape_a, pose_a, shape_b, pose_b, *, name="python", notes="",
                 algorithms=("gjk", "nesterov"), settings=None):
        bodies = []
        for label, shape, pose in (("A", shape_a, pose_a), ("B", shape_b, pose_b)):
            if not isinstance(shape, Shape):
                raise TypeError(f"shape {label}: expected a collidescope shape, got {type(shape).__name__}")
            translation, rotation = _pose(pose, f"pose {label}")
            bodies.append({"shape": shape.spec, "translation": translation, "rotation": rotation})
        merged = json.loads(_native.default_settings())
        merged.update(settings or {})
        self.file = {
            "version": 2, "name": name, "notes": notes, "dimension": "Spatial",
            "bodies": bodies, "pairs": [[0, 1]], "algorithms": list(algorithms),
            "settings": merged, "lesson": [],
        }
        _native.check(self._json())  # refuses a bad shape or a non-rigid pose, saying why

    @classmethod
    def _from_file(cls, file):
        scene = cls.__new__(cls)
        scene.file = file
        return scene

    def _json(self):
        return json.dumps(self.file, allow_nan=False)

    @property
    def settings(self):
        return self.file["settings"]

    def run(self, method):
        """One method on the pair: a dict with the fields of `collidescope solve --json`
        (`status`, `distance`, `iterations`, `support_calls`, `outcome`, `trace`, ...),
        points as numpy arrays."""
        return _arrays(json.loads(_native.run(self._json(), method)))

    def save(self, path):
        """Writes the scene (RON), to the bit."""
        with open(path, "w", encoding="utf-8") as f:
            f.write(_native.to_ron(self._json()))

    @classmethod
    def load(cls, path, key=None):
        """A scene file, a parry capture, an FCL/Coal dump or a MuJoCo model (MJCF; at
        keyframe `key`, a name or an index, when given)."""
        key = None if key is None else str(key)
        return cls._from_file(json.loads(_native.load(os.fspath(path), key)))

    @classmethod
    def from_coal(cls, geom1, M1, geom2, M2, **kwargs):
        """Coal's (or hpp-fcl's) query: Box, Sphere, Capsule, Cylinder, Cone, Ellipsoid,
        Convex, with `Transform3s` (or `Transform3f`) poses, shapes and poses to the bit;
        a Halfspace against one of them as a slab whose top face is its plane.
        Coal's capsules, cylinders and cones stand along z: their pose's columns are
        permuted exactly so that ours (along y) are the same sets. The scene runs with
        Coal's conventions (`supports: Coal`: spheres and capsules as their cores, Coal's
        1e-12 dead zone), so GJK takes Coal's iterations."""
        from ._coal import half_space_slab, shape_and_pose
        half = [type(g).__name__ == "Halfspace" for g in (geom1, geom2)]
        if all(half):
            raise TypeError("two half-spaces: no convex pair to check")
        if half[0]:
            shape_b, pose_b = shape_and_pose(geom2, M2, "geom2")
            shape_a, pose_a = half_space_slab(geom1, M1, shape_b, pose_b, "geom1")
        elif half[1]:
            shape_a, pose_a = shape_and_pose(geom1, M1, "geom1")
            shape_b, pose_b = half_space_slab(geom2, M2, shape_a, pose_a, "geom2")
        else:
            shape_a, pose_a = shape_and_pose(geom1, M1, "geom1")
            shape_b, pose_b = shape_and_pose(geom2, M2, "geom2")
        kwargs.setdefault("name", "from Coal")
        # Coal's supports and swept-sphere cores, so that the iterations are Coal's
        # (settings={"supports": "Exact"} runs on the whole shapes instead).
        kwargs["settings"] = {"supports": "Coal", **(kwargs.get("settings") or {})}
        return cls(shape_a, pose_a, shape_b, pose_b, **kwargs)

    @classmethod
    def from_mujoco(cls, model, data, geom1, geom2, **kwargs):
        """Two geoms of a live MuJoCo simulation (names or ids), as MuJoCo placed them at
        `data`'s state (`data.geom_xpos`, `data.geom_xmat` after `mj_forward` or
        `mj_step`): sphere, capsule, cylinder, ellipsoid, box and mesh geoms (the mesh's
        compiled vertices), shapes and poses to the bit; a plane against one of them as a
        slab whose top face is the plane. A height field is refused."""
        from ._mujoco import geom_id, geom_name, is_plane, plane_slab, shape_and_pose
        g1, g2 = geom_id(model, geom1, "geom1"), geom_id(model, geom2, "geom2")
        if is_plane(model, g1) and is_plane(model, g2):
            raise TypeError("two planes: no convex pair to check")
        if is_plane(model, g1):
            shape_b, pose_b = shape_and_pose(model, data, g2, "geom2")
            shape_a, pose_a = plane_slab(model, data, g1, shape_b, pose_b)
        elif is_plane(model, g2):
            shape_a, pose_a = shape_and_pose(model, data, g1, "geom1")
            shape_b, pose_b = plane_slab(model, data, g2, shape_a, pose_a)
        else:
            shape_a, pose_a = shape_and_pose(model, data, g1, "geom1")
            shape_b, pose_b = shape_and_pose(model, data, g2, "geom2")
        names = (geom_name(model, g1), geom_name(model, g2))
        kwargs.setdefault("name", f"from MuJoCo: {names[0]} and {names[1]}")
        kwargs.setdefault("notes", f"MuJoCo geoms {names[0]} (id {g1}) and {names[1]} "
                                   f"(id {g2}) at simulation time {float(data.time)!r}.")
        kwargs.setdefault("algorithms", ("gjk", "nesterov", "epa"))
        scene = cls(shape_a, pose_a, shape_b, pose_b, **kwargs)
        for body, name in zip(scene.file["bodies"], names):
            body["name"] = name
        return scene


def _program():
    here = os.path.dirname(os.path.abspath(__file__))
    for candidate in (os.path.join(here, "collidescope"), os.path.join(here, "bin", "collidescope")):
        if os.path.isfile(candidate) and os.access(candidate, os.X_OK):
            return candidate
    return shutil.which("collidescope")


def view(scene, wait=False):
    """Opens the viewer on the scene (the `collidescope` program, found on PATH or next to
    this package). Returns the process (or its exit code with wait=True)."""
    program = _program()
    if program is None:
        raise RuntimeError(
            "the collidescope viewer is not installed: build it with `cargo install --path .` "
            "in the Collidescope repository (or put the `collidescope` program on PATH)")
    path = os.path.join(tempfile.mkdtemp(prefix="collidescope-"), "scene.ron")
    scene.save(path)
    process = subprocess.Popen([program, "view", path])
    return process.wait() if wait else process
