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

    mesh = cs.TriMesh(vertices, triangles)              # a non-convex mesh, as its triangles
    run = cs.Scene(mesh, None, cs.Sphere(0.2), pose).run("gjk")
    run["nearest"], run["lower_bound"], run["upper_bound"], run["sub_pairs"][0]
    run.sub_pair(0)                                     # the nearest triangle's own full run
    cs.Scene.from_pinocchio(model, geom_model, q).run_pairs("gjk")  # every collision pair

Shapes and poses reach the Rust core as JSON whose floats Python writes in shortest
round-trip form: every number arrives to the bit. Rotation matrices are kept as given.
"""
import html
import json
import operator
import os
import pathlib
import re
import shutil
import subprocess
import tempfile
import warnings
import webbrowser

import numpy as np

from . import _native

__version__ = "0.1.0"

__all__ = [
    "Shape", "Sphere", "Box", "Ellipsoid", "Capsule", "Cylinder", "Cone", "Convex",
    "Dilated", "TriMesh", "HeightField", "Compound", "MeshFile", "Scene", "CompositeRun",
    "view", "methods", "MeshWarning", "distance", "distances", "Settings", "Distance",
]

Distance = _native.Distance


class MeshWarning(UserWarning):
    """A mesh taken otherwise than as given (from_coal and from_pinocchio turn a Coal
    mesh with an edge of three triangles or more into a compound of its triangles)."""


def _floats(values, count, what):
    """`count` finite numbers, or a message naming `what` (complex numbers, text, None and
    booleans are refused, not truncated, parsed or left to numpy's words)."""
    if values is None or isinstance(values, (str, bytes)):
        raise TypeError(f"{what}: expected {count} number{'s' if count > 1 else ''}, got {values!r}")
    try:
        array = np.asarray(values)
    except (TypeError, ValueError):
        raise TypeError(f"{what}: expected {count} numbers, got {values!r}") from None
    if np.iscomplexobj(array):
        raise TypeError(f"{what}: complex numbers are not lengths or coordinates ({values!r})")
    if array.dtype.kind not in "iuf":
        raise TypeError(f"{what}: expected {count} number{'s' if count > 1 else ''}, got {values!r}")
    try:
        array = array.astype(float).reshape(-1)
    except (TypeError, ValueError):
        raise TypeError(f"{what}: expected {count} numbers, got {values!r}") from None
    if array.size != count:
        raise ValueError(f"{what}: expected {count} numbers, got {array.size}")
    bad = np.flatnonzero(~np.isfinite(array))
    if bad.size:
        raise ValueError(f"{what}: entry {int(bad[0])} is {array[bad[0]]} (finite numbers only)")
    return [float(v) for v in array]


def _number(value, what):
    """One finite number, or a message naming `what`."""
    if value is None or isinstance(value, (str, bytes, bool, np.bool_)):
        raise TypeError(f"{what}: expected 1 number, got {value!r}")
    return _floats([value], 1, what)[0] if np.ndim(value) == 0 else _floats(value, 1, what)[0]


class Shape:
    """A shape as the scene format writes it (`spec` is its JSON form). The first query
    on it (`distance`, `distances`) builds it once (the hull with its topology and
    support tables, a mesh's hierarchy) and keeps the built form: build shapes once and
    query them at many poses. `frame` (a 4x4 matrix, or None) is where the shape sits in
    the frame its poses place (Shape.from_coal sets it for Coal's z-axis shapes)."""

    _handle = None
    frame = None

    def __init__(self, spec, label=None):
        self.spec = spec
        self.label = label

    def _build(self, what="shape"):
        """The built form (made on first use, then kept)."""
        if self._handle is None:
            frame = None if self.frame is None else [float(v) for v in np.asarray(self.frame, dtype=float).reshape(16)]
            self._handle = _native.Built(json.dumps(self.spec, allow_nan=False),
                                         f"{what} ({self.describe()})", frame)
        return self._handle

    @classmethod
    def from_coal(cls, geometry) -> "Shape":
        """A Coal (or hpp-fcl) geometry as a shape to query at Coal's poses (what
        Scene.from_coal converts, to the bit: convex shapes, `Convex`, `BVHModel`
        meshes, height fields); a capsule, cylinder or cone keeps Coal's z axis through
        its `frame`, so `distance(shape, M, ...)` takes the geometry's own
        `Transform3s`, `SE3` or 4x4 pose. Taken: Box, Sphere, Capsule, Cylinder, Cone,
        Ellipsoid, Convex (a MeshWarning when its polygons are not convex: the query is
        its hull's), BVHModelOBBRSS / BVHModelOBB (a mesh; a compound of its triangles,
        with a MeshWarning, when an edge has three or more), HeightFieldOBBRSS /
        HeightFieldAABB, and any of them with a swept-sphere radius. Refused (TypeError,
        naming it): Halfspace and Plane (unbounded: Scene.from_coal takes them against
        another shape), TriangleP, OcTree and the other kinds."""
        from ._coal import shape_and_pose
        if type(geometry).__name__ in ("Halfspace", "Plane"):
            raise TypeError(f"Shape.from_coal: a {type(geometry).__name__} is unbounded: only "
                            "Scene.from_coal takes one (as a slab under the other shape)")
        shape, (R, t) = shape_and_pose(geometry, np.eye(4), "Shape.from_coal: geometry")
        R, t = np.asarray(R, dtype=float), np.asarray(t, dtype=float).reshape(3)
        if not (np.array_equal(R, np.eye(3)) and not t.any()):
            frame = np.eye(4)
            frame[:3, :3], frame[:3, 3] = R, t
            shape.frame = frame
            shape._handle = None  # built (if at all) before it had its frame
        return shape

    def __repr__(self):
        (kind, fields), = self.spec.items()
        if kind in ("Polytope", "TriMesh", "HeightField", "Compound", "Mesh"):
            return f"<collidescope.Shape {self.describe()}>"
        return f"collidescope.Shape({self.spec!r})"

    def describe(self):
        """How messages name the shape: what the user called (`MeshFile('a.stl')`,
        `TriMesh(8 vertices, 12 triangles)`), else its kind (and its size)."""
        if self.label:
            return self.label
        (kind, fields), = self.spec.items()
        if kind == "Polytope":
            return f"Convex({len(fields['points'])} points)"
        if kind == "Compound":
            return f"Compound({len(fields['parts'])} parts)"
        return kind


def _checked(shape, constructor):
    """A primitive shape built at once, so that a bad size is refused where it was
    written (`Sphere: radius must be > 0`), not at the first query."""
    try:
        shape._build(constructor)
    except ValueError as error:
        raise ValueError(str(error).replace(f"{constructor} ({shape.describe()}): ", f"{constructor}: ", 1)) from None
    return shape


def Sphere(radius) -> Shape:
    """A ball of `radius` about the origin."""
    return _checked(Shape({"Sphere": {"radius": _number(radius, "Sphere radius")}}), "Sphere")


def Box(half_extents) -> Shape:
    """A box by its half extents (Coal's and FCL's `Box` take full sides)."""
    return _checked(Shape({"Box": {"half_extents": _floats(half_extents, 3, "Box half extents")}}), "Box")


def Ellipsoid(radii) -> Shape:
    """An ellipsoid by its three radii along x, y, z."""
    return _checked(Shape({"Ellipsoid": {"radii": _floats(radii, 3, "Ellipsoid radii")}}), "Ellipsoid")


def Capsule(radius, half_height) -> Shape:
    """Along y, as parry's `capsule_y` (Coal's capsules stand along z: see from_coal)."""
    return _checked(Shape({"Capsule": {"radius": _number(radius, "Capsule radius"),
                                       "half_height": _number(half_height, "Capsule half_height")}}), "Capsule")


def Cylinder(radius, half_height) -> Shape:
    """Along y."""
    return _checked(Shape({"Cylinder": {"radius": _number(radius, "Cylinder radius"),
                                        "half_height": _number(half_height, "Cylinder half_height")}}), "Cylinder")


def Cone(radius, half_height) -> Shape:
    """Along y, apex at +half_height."""
    return _checked(Shape({"Cone": {"radius": _number(radius, "Cone radius"),
                                    "half_height": _number(half_height, "Cone half_height")}}), "Cone")


def Convex(points) -> Shape:
    """The convex hull of an (n, 3) array of points (flat and repeated points allowed)."""
    try:
        array = np.asarray(points)
    except (TypeError, ValueError):
        raise ValueError("Convex: expected an (n, 3) array of points (rows of 3 numbers)") from None
    if np.iscomplexobj(array):
        raise TypeError("Convex: complex numbers are not coordinates")
    if array.dtype.kind not in "iuf":
        raise TypeError(f"Convex: expected an (n, 3) array of numbers, got dtype {array.dtype}")
    try:
        array = array.astype(float)
    except (TypeError, ValueError):
        raise TypeError(f"Convex: expected an (n, 3) array of numbers, got {type(points).__name__}") from None
    if array.ndim != 2 or array.shape[1] != 3 or array.shape[0] == 0:
        raise ValueError(f"Convex: expected an (n, 3) array of points, got shape {array.shape}")
    bad = np.argwhere(~np.isfinite(array))
    if bad.size:
        k = int(bad[0][0])
        raise ValueError(f"Convex: point {k} is not a finite point ({list(map(float, array[k]))})")
    big = np.argwhere(np.abs(array) > 1e75)
    if big.size:
        k = int(big[0][0])
        raise ValueError(f"Convex: point {k} lies beyond 1e75 ({list(map(float, array[k]))}), where "
                         "squared lengths overflow: scale the units down")
    return Shape({"Polytope": {"points": [[float(c) for c in p] for p in array]}})


def Dilated(shape, radius) -> Shape:
    """`shape` ⊕ a ball of `radius` (parry's round shapes, Coal's swept-sphere radius)."""
    if not isinstance(shape, Shape):
        raise TypeError(f"Dilated: shape is a collidescope shape, got {type(shape).__name__}")
    return Shape({"Dilated": {"shape": shape.spec, "radius": _number(radius, "Dilated radius")}})


def TriMesh(vertices, triangles) -> Shape:
    """A triangle mesh taken as its triangles (non-convex, open or closed: parry's
    `TriMesh`, Coal's `BVHModel`): an (n, 3) array of vertices and an (m, 3) array of
    indices into them. A pair with one is answered through the midphase."""
    v = np.asarray(vertices, dtype=float)
    if v.ndim != 2 or v.shape[1] != 3 or v.shape[0] == 0:
        raise ValueError(f"TriMesh: expected an (n, 3) array of vertices, got shape {v.shape}")
    bad = np.argwhere(~np.isfinite(v))
    if bad.size:
        k = int(bad[0][0])
        raise ValueError(f"TriMesh: vertex {k} is not a finite point ({list(map(float, v[k]))})")
    t = np.asarray(triangles)
    if t.size == 0:
        raise ValueError("TriMesh: the mesh has no triangles")
    if t.ndim != 2 or t.shape[1] != 3:
        raise ValueError(f"TriMesh: expected an (m, 3) array of triangles, got shape {t.shape}")
    if not np.issubdtype(t.dtype, np.integer):
        if not np.all(np.equal(np.mod(t, 1), 0)):
            raise ValueError("TriMesh: triangle indices must be whole numbers")
        t = t.astype(np.int64)
    bad = np.argwhere((t < 0) | (t >= v.shape[0]))
    if bad.size:
        k = int(bad[0][0])
        raise ValueError(f"TriMesh: triangle {k} {list(map(int, t[k]))} indexes past the "
                         f"{v.shape[0]} vertices (0..{v.shape[0] - 1})")
    return Shape({"TriMesh": {"vertices": v.tolist(), "triangles": t.astype(np.int64).tolist()}},
                 label=f"TriMesh({v.shape[0]} vertices, {t.shape[0]} triangles)")


def HeightField(heights, scale=(1.0, 1.0, 1.0), cells=None):
    """A height field in parry's layout: `heights` an (rows, cols) array, rows along z and
    each row's entries along x, spanning [-0.5, 0.5]^2 times `scale` (x, height, z) over
    the x-z plane, heights along y; `cells` (optional) one parry `HeightFieldCellStatus`
    per cell, row-major (1: zigzag, 2: left triangle removed, 4: right removed).
    Coal's height fields (x-y grid, heights along z) come in through Scene.from_coal."""
    try:
        rows = [[float(x) for x in row] for row in heights]
    except TypeError as error:
        raise ValueError("HeightField: expected rows of heights (a (rows, cols) array)") from error
    for i, row in enumerate(rows):
        for j, h in enumerate(row):
            if not np.isfinite(h):
                raise ValueError(f"HeightField: the height at row {i}, column {j} is not finite ({h})")
    spec = {"heights": rows, "scale": _floats(scale, 3, "HeightField scale")}
    if cells is not None:
        spec["cells"] = [int(c) for c in np.asarray(cells).reshape(-1)]
    return Shape({"HeightField": spec})


def Compound(parts):
    """Convex parts at their poses in the body's frame (parry's `Compound`): a list of
    (shape, pose), a pose a 4x4 matrix, (R, t) or None."""
    members = []
    for k, part in enumerate(parts):
        if isinstance(part, Shape):
            shape, pose = part, None
        else:
            shape, pose = part
        if not isinstance(shape, Shape):
            raise TypeError(f"Compound: part {k} is not a collidescope shape ({type(shape).__name__})")
        translation, rotation = _pose(pose, f"Compound part {k} pose")
        members.append({"shape": shape.spec, "translation": translation, "rotation": rotation})
    if not members:
        raise ValueError("Compound: no parts")
    return Shape({"Compound": {"parts": members}})


def MeshFile(path, hull=False):
    """A mesh file (OBJ, STL, PLY, COLLADA): its triangles (a non-convex mesh), or its
    convex hull with hull=True. A missing file raises FileNotFoundError here, naming the
    path as given."""
    if not isinstance(hull, (bool, np.bool_)):
        raise TypeError(f"MeshFile: hull is True or False, got {hull!r}")
    given = os.fspath(path)
    label = f"MeshFile({given!r}{', hull=True' if hull else ''})"
    if not os.path.exists(given):
        raise FileNotFoundError(f"{label}: no such file")
    spec = {"path": os.path.abspath(given)}
    if not hull:
        spec["as"] = "Mesh"
    return Shape({"Mesh": spec}, label=label)


def _check(file, shapes):
    """Checks a scene file (its dict); when it is refused and one of `shapes` (a list of
    (where, Shape): the argument that gave it) is what is wrong, the error names that
    argument and the shape as the user made it, not the core's body letter."""
    try:
        _native.check(json.dumps(file, allow_nan=False))
    except ValueError as error:
        for where, shape in shapes:
            try:
                _native.check_shape(json.dumps(shape.spec, allow_nan=False))
            except ValueError as own:
                raise ValueError(f"{where} {shape.describe()}: {own}") from None
        raise


def _pose(pose, what):
    """(translation, rotation spec) of a pose as the calls take it (a 4x4 matrix, (R, t),
    a pinocchio.SE3, a coal.Transform3s, None), checked and named as they check it (NaN,
    a non-rigid rotation, complex or text entries, an offset beyond the size cap); the
    numbers exactly as given."""
    rows, translation = _native.pose_parts(pose, what)
    return [float(v) for v in translation], {"Matrix": [[float(c) for c in row] for row in rows]}


def _arrays(value):
    """Lists of three numbers (points, normals) in a run as numpy arrays."""
    if isinstance(value, dict):
        return {k: _arrays(v) for k, v in value.items()}
    if isinstance(value, list):
        if len(value) == 3 and all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in value):
            return np.array(value, dtype=float)
        return [_arrays(v) for v in value]
    return value


def Settings(**fields):
    """Solver settings built once for `distance` and `distances` (a dict there is read on
    every call): `Settings(tolerance=1e-9, max_iterations=500, epa={"tolerance": 1e-12})`,
    over Coal's defaults (tolerance 1e-6, 128 iterations). Names as in scene files:
    tolerance, criterion ('VanDenBergen', 'DualityGap', ...), kind ('Absolute',
    'Relative'), max_iterations, initial_guess, mode, tetrahedron, supports ('Exact',
    'Coal'), overlap_proof, and the families' own: epa={tolerance, acceptable,
    max_iterations, ...}, toi={...}, interior_point={...}, lp={...}. An unknown name or a
    value of the wrong kind is refused, naming it (the message lists every name)."""
    return _native.Settings(_assignments(fields))


def _assignments(fields, prefix=""):
    """(as written, dotted name, JSON value) of each setting in `fields`, nested dicts
    flattened (`epa={"tolerance": 1e-12}` is `epa.tolerance`)."""
    out = []
    for key, value in fields.items():
        dotted = f"{prefix}{key}"
        written = "settings" + "".join(f"[{part!r}]" for part in dotted.split("."))
        if isinstance(value, dict):
            out.extend(_assignments(value, dotted + "."))
            continue
        if hasattr(value, "item") and callable(value.item) and np.ndim(value) == 0:
            value = value.item()  # a numpy scalar
        if isinstance(value, complex):
            raise TypeError(f"{written}: complex numbers are not settings ({value!r})")
        if isinstance(value, float) and not np.isfinite(value):
            raise ValueError(f"{written} is {value}: a setting is a finite number")
        if isinstance(value, int) and not isinstance(value, bool) and abs(value) >= 2**53:
            raise ValueError(f"{written} is {value}: too large for a setting")
        try:
            text = json.dumps(value, allow_nan=False)
        except (TypeError, ValueError) as error:
            raise TypeError(f"{written}: a setting is a number, a name (e.g. 'DualityGap') "
                            f"or True/False, got {type(value).__name__}") from error
        out.append((written, dotted, text))
    return out


def _settings_dict(settings):
    """Scene settings: the defaults with `settings` (a dict or Settings) applied and
    checked key by key (a refusal names the key as the caller wrote it)."""
    if settings is None:
        built = _native.Settings([])
    elif isinstance(settings, _native.Settings):
        built = settings
    elif isinstance(settings, dict):
        built = Settings(**settings)
    else:
        raise TypeError(f"settings: expected a dict or collidescope.Settings, got {type(settings).__name__}")
    return json.loads(built.as_json())


distance = _native.distance
# Documented in python/src/query.rs (its doc comment is the function's __doc__).



def distances(shapes, poses, pairs=None, method=None, settings=None) -> dict:
    """Many queries in one call, on every core: `shapes` (K shapes, each built once),
    `poses` of shape (K, 4, 4), or (C, K, 4, 4) for C configurations (a robot's links
    at C joint vectors), `pairs` (P index pairs into shapes; when None every pair
    (i, j) with i < j, in that order, returned as `pairs`).
    Returns a dict of numpy arrays of shape (P,) or (C, P): `distance` (signed, NaN
    where no answer), `lower_bound`, `upper_bound`, `status` (codes into
    `status_names`), `iterations`, `piece_a`/`piece_b` (a composite's nearest triangle
    or part, -1 otherwise), and (..., 3) `point_a`, `point_b`, `normal`; `reasons`
    says why any query gave no answer."""
    if isinstance(shapes, Shape):
        raise TypeError("shapes: a list of collidescope shapes, got one Shape (distance() takes a pair)")
    try:
        shapes = list(shapes)
    except TypeError:
        raise TypeError(f"shapes: a list of collidescope shapes, got {type(shapes).__name__}") from None
    if pairs is None:
        pairs = [(i, j) for i in range(len(shapes)) for j in range(i + 1, len(shapes))]
    else:
        checked = []
        for k, pair in enumerate(pairs):
            try:
                i, j = (operator.index(v) for v in pair)
            except (TypeError, ValueError):
                raise TypeError(f"pairs[{k}]: a pair of shape indices (two integers), got {pair!r}") from None
            for v in (i, j):
                if not 0 <= v < len(shapes):
                    raise ValueError(f"pairs[{k}] = ({i}, {j}): {v} is not a shape index "
                                     f"(0..{len(shapes) - 1})")
            checked.append((i, j))
        pairs = checked
    out = _native.distances(shapes, poses, pairs, method, settings)
    out["pairs"] = [tuple(p) for p in pairs]
    return out


def methods():
    """Every method name the catalog knows (`gjk`, `nesterov`, `epa`, `toi`, ...)."""
    return list(_native.methods())


class CompositeRun(dict):
    """A run on a pair with a mesh, height field or compound: the composite report (a
    dict: `status`, `distance`, `lower_bound`, `upper_bound` (the certified bracket),
    `nearest` (the sub-pair that makes the answer, by name: "triangle 12", "part 2"),
    `nodes_visited`, `nodes_pruned`, `sub_pairs_run`, `pieces`, `sub_pairs` (nearest
    first, each with its `index`, `name`, `status`, `distance`, `iterations`, ...),
    `contacts` (with their internal-edge reports), `pair`, `bodies`). `sub_pair(k)` is
    the full run of `sub_pairs[k]` (0: the nearest) as a convex pair."""

    def __init__(self, values, scene, method, pair):
        super().__init__(values)
        self._scene, self._method, self._pair = scene, method, pair

    def _index(self, k):
        subs = self["sub_pairs"]
        if not -len(subs) <= k < len(subs):
            raise IndexError(f"sub_pair: {k} is not one of the run's {len(subs)} sub-pairs "
                             f"(0..{len(subs) - 1}, nearest first)")
        return int(subs[k]["index"])

    def sub_pair_scene(self, k=0):
        """Sub-pair `sub_pairs[k]` (0: the nearest) as a scene of two convex bodies where
        they are: the triangle or part, and the other body (or its piece)."""
        file = json.loads(_native.sub_pair_scene(self._scene._json(), self._method,
                                                 self._index(k), self._pair))
        return Scene._from_file(file)

    def sub_pair(self, k=0, method=None):
        """The full run (records, witnesses, trace) of `sub_pairs[k]` (0: the nearest),
        with this run's method unless another is named."""
        return self.sub_pair_scene(k).run(method or self._method)


def _result(values, scene, method, pair):
    values = _arrays(values)
    if values.get("is_composite"):
        return CompositeRun(values, scene, method, pair)
    return values


class Scene:
    """Shapes at their poses and the pairs to check (the first in focus): what the viewer
    shows and the methods run on. `Scene(shape_a, pose_a, shape_b, pose_b)` makes two."""

    def __init__(self, shape_a, pose_a, shape_b, pose_b, *, name="python", notes="",
                 algorithms=("gjk", "nesterov"), settings=None):
        bodies = []
        for label, shape, pose in (("A", shape_a, pose_a), ("B", shape_b, pose_b)):
            if not isinstance(shape, Shape):
                raise TypeError(f"shape_{label.lower()}: expected a collidescope shape, got {type(shape).__name__}")
            translation, rotation = _pose(pose, f"pose_{label.lower()}")
            bodies.append({"shape": shape.spec, "translation": translation, "rotation": rotation})
        merged = _settings_dict(settings)
        self.file = {
            "version": 2, "name": name, "notes": notes, "dimension": "Spatial",
            "bodies": bodies, "pairs": [[0, 1]], "algorithms": list(algorithms),
            "settings": merged, "lesson": [],
        }
        # Refuses a bad shape or a non-rigid pose, saying why.
        _check(self.file, [("shape_a", shape_a), ("shape_b", shape_b)])

    @classmethod
    def from_bodies(cls, bodies, pairs=None, *, name="python", notes="",
                    algorithms=("gjk", "nesterov"), settings=None):
        """Any number of bodies: a list of (shape, pose) or (name, shape, pose), and the
        pairs to check (index pairs; every pair when None), the first in focus."""
        specs, shapes = [], []
        for k, body in enumerate(bodies):
            if len(body) == 3:
                label, shape, pose = body
            else:
                (shape, pose), label = body, None
            if not isinstance(shape, Shape):
                raise TypeError(f"body {k}: expected a collidescope shape, got {type(shape).__name__}")
            shapes.append((f"bodies[{k}]" + ("" if label is None else f" ({label!r})"), shape))
            translation, rotation = _pose(pose, f"body {k} pose")
            spec = {"shape": shape.spec, "translation": translation, "rotation": rotation}
            if label is not None:
                spec["name"] = str(label)
            specs.append(spec)
        if len(specs) < 2:
            raise ValueError(f"from_bodies: a scene needs two bodies or more, got {len(specs)}")
        if pairs is None:
            pairs = [(i, j) for i in range(len(specs)) for j in range(i + 1, len(specs))]
        pairs = [[int(i), int(j)] for i, j in pairs]
        merged = _settings_dict(settings)
        scene = cls._from_file({
            "version": 2, "name": name, "notes": notes, "dimension": "Spatial",
            "bodies": specs, "pairs": pairs, "algorithms": list(algorithms),
            "settings": merged, "lesson": [],
        })
        _check(scene.file, shapes)
        return scene

    @classmethod
    def _from_file(cls, file):
        scene = cls.__new__(cls)
        scene.file = file
        return scene

    def _json(self):
        return json.dumps(self.file, allow_nan=False)

    @property
    def settings(self):
        """The solver settings, a dict the runs read: e.g. `scene.settings["tolerance"] =
        1e-12` tightens GJK's stopping test (from_coal and from_pinocchio scenes start
        from Coal's 1e-6, so a mesh–mesh distance can be ~1e-7 looser than Coal's exact
        triangle–triangle one; the certified bracket always holds the true distance)."""
        return self.file["settings"]

    @property
    def notes(self):
        """The scene's notes: where it came from and what was done to it (from_coal and
        from_pinocchio say here which mesh became a compound of triangles, and why)."""
        return self.file.get("notes", "")

    @property
    def pairs(self):
        """The pairs to check, as body indices (the first in focus)."""
        pairs = self.file.get("pairs") or []
        n = len(self.file["bodies"])
        if not pairs:
            pairs = [[i, j] for i in range(n) for j in range(i + 1, n)]
        return [tuple(p) for p in pairs]

    def focus(self, pair):
        """A copy of the scene with pair `pair` (an index into `pairs`) first, the others
        after it in their order: the pair the viewer opens on and `run` answers by
        default (a batch's nearest pair, say)."""
        pairs = [list(p) for p in self.pairs]
        if not -len(pairs) <= pair < len(pairs):
            raise IndexError(f"focus: pair {pair} is not one of the scene's {len(pairs)} pairs "
                             f"(0..{len(pairs) - 1})")
        pair = pair % len(pairs)
        file = json.loads(json.dumps(self.file))
        file["pairs"] = [pairs[pair]] + pairs[:pair] + pairs[pair + 1:]
        return Scene._from_file(file)

    def run(self, method, pair=0, traces=False):
        """One method on the pair in focus (or `pair`, an index into `pairs`): a dict with
        the fields of `collidescope solve --json` (`status`, `distance`, `iterations`,
        `support_calls`, `outcome`, `trace`, ...), points as numpy arrays. When a body
        of the pair is a mesh, height field or compound, the composite answer instead (a
        CompositeRun: the bracket, the nearest sub-pair named, `sub_pair(k)`), never the
        hull's; `traces=True` keeps every sub-pair's records in it."""
        values = json.loads(_native.run(self._json(), method, int(pair), bool(traces)))
        return _result(values, self, method, int(pair))

    def run_pairs(self, method, traces=False):
        """`method` on every pair of the scene (a Pinocchio model's collision pairs): one
        result per pair, in `pairs`' order, each naming its `pair` and `bodies`."""
        values = json.loads(_native.run_pairs(self._json(), method, bool(traces)))
        return [_result(v, self, method, k) for k, v in enumerate(values)]

    def export_coal(self, path, pair=0):
        """Writes pair `pair` as a Coal Python script that rebuilds both shapes and the
        query as Coal runs it and asserts Collidescope's certified bracket (what
        `collidescope export SCENE --coal` writes; no command-line tool needed)."""
        self._export("coal", path, pair)

    def export_parry(self, path, pair=0):
        """Writes pair `pair` as a parry3d-f64 test (a Rust file for a crate's
        `tests/`) asserting the certified bracket, as `collidescope export --parry`."""
        self._export("parry", path, pair)

    def to_html(self, path=None, pair=0, methods=None):
        """Pair `pair` run with `methods` (a name or a list; the scene's own when None)
        as one self-contained web page: the shapes, A ⊖ B, every step's picture and
        narration, the convergence plot. Returns the page's text; writes it to `path`
        when given. It opens offline in any current browser (no network request)."""
        if isinstance(methods, str):
            methods = [methods]
        page = _native.to_html(self._json(), int(pair), list(methods or []))
        if path is not None:
            with open(path, "w", encoding="utf-8") as f:
                f.write(page)
        return page

    def _repr_html_(self):
        """Jupyter shows a scene as its web page, in a frame of its own."""
        return _inline_frame(self.to_html())

    def _export(self, kind, path, pair):
        text = _native.export(self._json(), kind, int(pair), "the Python package")
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)

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
    def from_coal(cls, geom1, M1, geom2, M2, height_field="surface", **kwargs):
        """Coal's (or hpp-fcl's) query: Box, Sphere, Capsule, Cylinder, Cone, Ellipsoid,
        Convex, with `Transform3s` (or `Transform3f`) poses, shapes and poses to the bit;
        a Halfspace against one of them as a slab whose top face is its plane. A
        `BVHModelOBBRSS` or `BVHModelOBB` (Pinocchio's meshes) is the triangle mesh its
        vertices and triangles make, answered through the midphase as Coal's BVH
        distance answers it; a `HeightFieldOBBRSS` or `HeightFieldAABB` is a height field
        turned from Coal's x-y grid (heights along z) onto parry's x-z grid exactly, its
        top surface (Coal's cells are solid down to `min_height`: the same answers for
        shapes above it); `height_field="cells"` takes Coal's solid instead, each cell's
        two triangles as prisms down to `min_height` (a compound, in Coal's frame).
        Coal's capsules, cylinders and cones stand along z: their pose's columns are
        permuted exactly so that ours (along y) are the same sets. The scene runs with
        Coal's conventions (`supports: Coal`: spheres and capsules as their cores, Coal's
        1e-12 dead zone), so GJK takes Coal's iterations."""
        from ._coal import half_space_slab, shape_and_pose as convert
        if height_field not in ("surface", "cells"):
            raise ValueError(f"from_coal: height_field is 'surface' or 'cells', not {height_field!r}")
        shape_and_pose = lambda g, M, what: convert(g, M, what, height_field == "cells",
                                                     what.replace("geom", "M"))
        half = [type(g).__name__ == "Halfspace" for g in (geom1, geom2)]
        if all(half):
            raise TypeError("two half-spaces: no convex pair to check")
        if half[0]:
            shape_b, pose_b = shape_and_pose(geom2, M2, "from_coal: geom2")
            shape_a, pose_a = half_space_slab(geom1, M1, shape_b, pose_b, "from_coal: geom1")
        elif half[1]:
            shape_a, pose_a = shape_and_pose(geom1, M1, "from_coal: geom1")
            shape_b, pose_b = half_space_slab(geom2, M2, shape_a, pose_a, "from_coal: geom2")
        else:
            shape_a, pose_a = shape_and_pose(geom1, M1, "from_coal: geom1")
            shape_b, pose_b = shape_and_pose(geom2, M2, "from_coal: geom2")
        notes = [getattr(shape, "note", None) for shape in (shape_a, shape_b)]
        notes = " ".join(n for n in notes if n)
        if notes:
            kwargs["notes"] = (kwargs.get("notes", "") + " " + notes).strip()
        kwargs.setdefault("name", "from Coal")
        # Coal's supports and swept-sphere cores, so that the iterations are Coal's
        # (settings={"supports": "Exact"} runs on the whole shapes instead).
        kwargs["settings"] = {"supports": "Coal", **(kwargs.get("settings") or {})}
        return cls(shape_a, pose_a, shape_b, pose_b, **kwargs)

    @classmethod
    def from_pinocchio(cls, model, geom_model, q=None, **kwargs):
        """A whole Pinocchio `GeometryModel` at configuration `q` (the model's neutral
        configuration when None): every geometry object a body, placed where
        `pinocchio.updateGeometryPlacements` puts it (`geom_data.oMg`), its Coal geometry
        converted as `from_coal` converts it (a mesh, Pinocchio's `BVHModelOBBRSS`,
        stays a mesh; convex shapes stay themselves), and `geom_model.collisionPairs` as
        the scene's pairs, in their order. `run_pairs(method)` answers every pair; pair
        k of the scene is collision pair k. Runs with Coal's conventions, as from_coal."""
        from ._coal import shape_and_pose
        try:
            import pinocchio
        except ImportError as error:  # pragma: no cover - the caller has a model
            raise ImportError("Scene.from_pinocchio needs Pinocchio (pip install pin)") from error
        if q is None:
            q = pinocchio.neutral(model)
        q = np.asarray(q, dtype=float).reshape(-1)
        if q.size != model.nq:
            raise ValueError(f"from_pinocchio: q has {q.size} entries where the model has nq = {model.nq}")
        if not np.all(np.isfinite(q)):
            raise ValueError(f"from_pinocchio: q is not finite ({list(q)})")
        data = model.createData()
        geom_data = pinocchio.GeometryData(geom_model)
        pinocchio.updateGeometryPlacements(model, data, geom_model, geom_data, q)
        bodies, notes = [], []
        for k, go in enumerate(geom_model.geometryObjects):
            geometry = go.geometry
            what = f"from_pinocchio: geometry {k} {go.name!r}"
            if type(geometry).__name__ in ("Halfspace", "Plane"):
                raise TypeError(f"{what} ({type(geometry).__name__}): a half-space or plane "
                                "in a robot model is not taken")
            M = geom_data.oMg[k]
            shape, pose = shape_and_pose(geometry, M, what)
            bodies.append((go.name, shape, pose))
            if getattr(shape, "note", None):
                notes.append(shape.note)
        pairs = [(int(cp.first), int(cp.second)) for cp in geom_model.collisionPairs]
        if not pairs:
            raise ValueError("from_pinocchio: geom_model has no collision pairs (add them with "
                             "geom_model.addAllCollisionPairs(), then drop the adjacent links' with "
                             "pinocchio.removeCollisionPairs(model, geom_model, srdf_path))")
        kwargs.setdefault("name", f"from Pinocchio: {model.name}")
        kwargs.setdefault("notes", f"Pinocchio model {model.name}: {len(bodies)} geometry objects, "
                                   f"{len(pairs)} collision pairs, at q = {[float(v) for v in q]}." +
                                   "".join(" " + n for n in notes))
        kwargs["settings"] = {"supports": "Coal", **(kwargs.get("settings") or {})}
        return cls.from_bodies(bodies, pairs, **kwargs)

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


def _inline_frame(page, height=760):
    """A web page inside an iframe (its script kept apart from the notebook's)."""
    return (f'<iframe srcdoc="{html.escape(page, quote=True)}" '
            f'style="width: 100%; height: {int(height)}px; border: 0"></iframe>')


def _in_notebook():
    try:
        from IPython import get_ipython
    except ImportError:
        return False
    shell = get_ipython()
    return shell is not None and "IPKernelApp" in getattr(shell, "config", {})


def view(scene, wait=False, web=None):
    """Opens the scene: in the desktop viewer (the `collidescope` program, found on PATH
    or next to this package) when it is installed, else as its self-contained web page:
    inline in Jupyter, or in the system's browser. `web=True` asks for the web page
    whatever is installed. Returns the viewer's process (its exit code with
    wait=True), the notebook's display object, or the page's path."""
    program = None if web else _program()
    if program is None:
        return _view_web(scene)
    if not _has_viewer(program):
        raise RuntimeError(
            f"the collidescope program at {program} was built without the viewer (cargo's "
            "--no-default-features): reinstall it with the viewer, `cargo install --path .` "
            "in the Collidescope repository (building Bevy takes 15 minutes or more)")
    path = os.path.join(tempfile.mkdtemp(prefix="collidescope-"), "scene.ron")
    scene.save(path)
    process = subprocess.Popen([program, "view", path])
    return process.wait() if wait else process


def _view_web(scene):
    """The scene's web page: shown inline in a notebook, else written to a temporary
    file and opened in the browser (its path returned)."""
    page = scene.to_html()
    if _in_notebook():
        from IPython.display import HTML
        return HTML(_inline_frame(page))
    path = os.path.join(tempfile.mkdtemp(prefix="collidescope-"), "scene.html")
    with open(path, "w", encoding="utf-8") as f:
        f.write(page)
    webbrowser.open(pathlib.Path(path).as_uri())
    return path


def _has_viewer(program):
    """Whether `program --help` lists the `view` command (a build with
    --no-default-features has none, and the child would fail after view returned)."""
    try:
        done = subprocess.run([program, "--help"], capture_output=True, text=True, timeout=60)
    except (OSError, subprocess.TimeoutExpired) as error:
        raise RuntimeError(f"the collidescope program at {program} does not run: {error}") from error
    return re.search(r"^\s+view\s", done.stdout, re.MULTILINE) is not None
