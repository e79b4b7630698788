"""Meshes, height fields and compounds from Python (issue 45): a pair with one is
answered through the midphase (the composite answer with its certified bracket and the
nearest sub-pair named, never the hull's); Coal's BVHModel and HeightField come in
through from_coal and a whole Pinocchio GeometryModel through from_pinocchio, checked
against Coal's own distance (`coal.distance`, Pinocchio's `computeDistances`) on the same
objects."""
import json
import os
import random
import warnings

import numpy as np
import pytest

import collidescope as cs

HERE = os.path.dirname(os.path.abspath(__file__))
SHARED = os.path.normpath(os.path.join(HERE, "..", "..", "..", "shared", "data"))
if not os.path.isdir(SHARED):  # a worktree sits beside the main checkout
    SHARED = "/work/shared/data"

# Coal's distance: GJK to its default tolerance (1e-6 on the duality gap's square root
# scale); our bracket must hold its answer within that.
COAL_TOL = 1e-6


def bowl(n=12):
    """An open bowl over [-2, 2]^2, height (x^2 + y^2)/4: a ball in its hollow is apart
    from the mesh and inside its hull."""
    v = [[-2 + 4 * i / n, -2 + 4 * j / n, 0.0] for j in range(n + 1) for i in range(n + 1)]
    v = np.array(v)
    v[:, 2] = 0.25 * (v[:, 0] ** 2 + v[:, 1] ** 2)
    idx = lambda i, j: j * (n + 1) + i
    t = []
    for j in range(n):
        for i in range(n):
            t.append([idx(i, j), idx(i + 1, j), idx(i + 1, j + 1)])
            t.append([idx(i, j), idx(i + 1, j + 1), idx(i, j + 1)])
    return v, np.array(t)


def rotation(rng):
    q = np.array([rng.gauss(0, 1) for _ in range(4)])
    w, x, y, z = q / np.linalg.norm(q)
    return np.array([[1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)],
                     [2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)],
                     [2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)]])


def read_obj(path):
    """Vertices and triangles of an OBJ file (polygons cut as fans)."""
    vertices, triangles = [], []
    with open(path, encoding="utf-8", errors="replace") as f:
        for line in f:
            parts = line.split()
            if not parts:
                continue
            if parts[0] == "v":
                vertices.append([float(c) for c in parts[1:4]])
            elif parts[0] == "f":
                ids = [int(p.split("/")[0]) for p in parts[1:]]
                ids = [i - 1 if i > 0 else len(vertices) + i for i in ids]
                for k in range(1, len(ids) - 1):
                    triangles.append([ids[0], ids[k], ids[k + 1]])
    return np.array(vertices), np.array(triangles, dtype=np.int64)


def assert_brackets(run, theirs, what, findings):
    """Coal's distance within our certified bracket (to Coal's tolerance); an answer
    outside it is a finding (ours is certified), reported, and counted by the caller."""
    if run["status"] in ("intersecting", "penetrating", "contact"):
        ok = theirs <= COAL_TOL
    else:
        lower, upper = run["lower_bound"], run["upper_bound"]
        ok = lower - COAL_TOL <= theirs <= upper + COAL_TOL
    if not ok:
        findings.append(f"{what}: ours {run['status']} [{run.get('lower_bound')}, "
                        f"{run.get('upper_bound')}] vs Coal {theirs}")
    return ok


def report(findings, total, allowed=0):
    for f in findings:
        warnings.warn(f"certified disagreement with Coal: {f}")
    assert len(findings) <= allowed, f"{len(findings)} of {total} outside the bracket:\n" + "\n".join(findings[:10])


# --- the package answers composites -------------------------------------------------


def test_a_mesh_pair_gives_the_composite_answer_never_the_hulls():
    v, t = bowl()
    pose = (np.eye(3), [0.3, 0.2, 1.0])
    run = cs.Scene(cs.TriMesh(v, t), None, cs.Sphere(0.25), pose).run("gjk")
    assert isinstance(run, cs.CompositeRun) and run["is_composite"]
    assert run["status"] == "separated"
    assert run["nearest"].startswith("triangle ") and run["pieces"] == 288
    assert run["lower_bound"] <= run["distance"] <= run["upper_bound"]
    assert run["nodes_visited"] > 0 and run["sub_pairs_run"] == len(run["sub_pairs"])
    assert run["sub_pairs"][0]["name"] == run["nearest"]
    # The hull of the same points overlaps the ball.
    hull = cs.Scene(cs.Convex(v), None, cs.Sphere(0.25), pose).run("gjk")
    assert hull["status"] == "intersecting" and not isinstance(hull, cs.CompositeRun)
    # The nearest sub-pair's own full run: a triangle and the ball, where they are.
    sub = run.sub_pair(0)
    assert sub["status"] == "separated" and abs(sub["distance"] - run["distance"]) < 1e-12
    assert sub["iterations"] == run["sub_pairs"][0]["iterations"] and len(sub["trace"]) >= 1
    scene = run.sub_pair_scene(0)
    a, b = scene.file["bodies"]
    assert list(a["shape"]) == ["Polytope"] and len(a["shape"]["Polytope"]["points"]) == 3
    assert b["shape"] == {"Sphere": {"radius": 0.25}}
    # Another method: the sub-pair runs it too.
    assert run.sub_pair(0, "nesterov")["algorithm"] == "nesterov"
    with pytest.raises(IndexError, match="sub-pairs"):
        run.sub_pair(len(run["sub_pairs"]))
    # The mesh second: the same answer, the same nearest triangle.
    swapped = cs.Scene(cs.Sphere(0.25), pose, cs.TriMesh(v, t), None).run("gjk")
    assert swapped["nearest"] == run["nearest"]
    assert abs(swapped["distance"] - run["distance"]) < 1e-12
    assert abs(swapped.sub_pair(0)["distance"] - run["distance"]) < 1e-12
    # traces=True keeps the sub-pairs' records.
    traced = cs.Scene(cs.TriMesh(v, t), None, cs.Sphere(0.25), pose).run("gjk", traces=True)
    assert all("trace" in s for s in traced["sub_pairs"])


def test_every_family_answers_on_a_mesh():
    v, t = bowl(8)
    scene = cs.Scene(cs.TriMesh(v, t), None, cs.Box([0.3, 0.3, 0.3]), (np.eye(3), [0.1, 0.0, 0.2]))
    epa = scene.run("epa")
    assert epa["status"] == "penetrating" and epa["distance"] < 0 and epa["nearest"]
    assert scene.run("lp")["status"] in ("intersecting", "contact")
    moving = cs.Scene(cs.TriMesh(v, t), None, cs.Box([0.2, 0.2, 0.2]), (np.eye(3), [0.0, 0.0, 2.0]))
    moving.file["bodies"][1]["velocity"] = [0.0, 0.0, -3.0]
    toi = moving.run("toi")
    assert toi["status"] == "impact" and 0.5 < toi["outcome"]["time"] < 0.6 and toi["nearest"]


def test_scenes_built_from_python_hold_the_new_shapes(tmp_path):
    v, t = bowl(4)
    heights = [[0.0, 0.1, 0.2], [0.1, 0.3, 0.1], [0.0, 0.2, 0.0]]
    parts = [(cs.Box([0.1, 0.1, 0.1]), None), (cs.Sphere(0.1), (np.eye(3), [0.5, 0.0, 0.0]))]
    obj = tmp_path / "tetra.obj"
    obj.write_text("v 0 0 0\nv 1 0 0\nv 0 1 0\nv 0 0 1\nf 1 3 2\nf 1 2 4\nf 2 3 4\nf 1 4 3\n")
    shapes = {
        "mesh": cs.TriMesh(v, t),
        "field": cs.HeightField(heights, (2.0, 1.0, 2.0)),
        "compound": cs.Compound(parts),
        "file": cs.MeshFile(obj),
    }
    for name, shape in shapes.items():
        scene = cs.Scene(shape, None, cs.Sphere(0.05), (np.eye(3), [0.2, 3.0, 0.1]))
        run = scene.run("gjk")
        assert isinstance(run, cs.CompositeRun) and run["status"] == "separated", name
        path = tmp_path / f"{name}.ron"
        scene.save(path)
        again = cs.Scene.load(path)
        assert again.file["bodies"][0]["shape"] == scene.file["bodies"][0]["shape"], name
        assert abs(again.run("gjk")["distance"] - run["distance"]) < 1e-12, name
    assert cs.Scene(cs.Compound(parts), None, cs.Sphere(0.05), (np.eye(3), [0.8, 0, 0])).run("gjk")["nearest"] == "part 1"
    assert "Mesh" not in cs.MeshFile(obj, hull=True).spec["Mesh"].get("as", "")
    # A scene of many bodies and chosen pairs.
    many = cs.Scene.from_bodies([("bowl", cs.TriMesh(v, t), None),
                                 ("ball", cs.Sphere(0.2), (np.eye(3), [0, 0, 1.0])),
                                 ("box", cs.Box([0.1, 0.1, 0.1]), (np.eye(3), [0, 0, 3.0]))],
                                pairs=[(0, 1), (1, 2), (0, 2)])
    runs = many.run_pairs("gjk")
    assert [r["bodies"] for r in runs] == [["bowl", "ball"], ["ball", "box"], ["bowl", "box"]]
    assert isinstance(runs[0], cs.CompositeRun) and not isinstance(runs[1], cs.CompositeRun)
    assert abs(runs[1]["distance"] - 1.7) < 1e-9
    assert abs(many.run("gjk", pair=2)["distance"] - runs[2]["distance"]) < 1e-12
    assert abs(runs[2].sub_pair(0)["distance"] - runs[2]["distance"]) < 1e-12


def test_bad_composites_say_what_is_wrong():
    v, t = bowl(2)
    with pytest.raises(ValueError, match="no triangles"):
        cs.TriMesh(v, np.zeros((0, 3), dtype=int))
    with pytest.raises(ValueError, match=r"triangle 1 \[0, 1, 99\]"):
        cs.TriMesh(v, [[0, 1, 2], [0, 1, 99]])
    with pytest.raises(ValueError, match=r"\(n, 3\)"):
        cs.TriMesh(np.zeros((3, 2)), [[0, 1, 2]])
    with pytest.raises(ValueError, match="row 1 has 2 heights"):
        cs.Scene(cs.HeightField([[0, 0, 0], [0, 0]]), None, cs.Sphere(1.0), None)
    with pytest.raises(ValueError, match=r"vertex 2 is not a finite point"):
        cs.TriMesh([[0, 0, 0], [1, 0, 0], [0, float("nan"), 0]], [[0, 1, 2]])
    with pytest.raises(ValueError, match=r"row 1, column 0 is not finite"):
        cs.HeightField([[0, 0], [float("inf"), 0]])
    with pytest.raises(ValueError, match="HeightField scale"):
        cs.HeightField([[0, 0], [0, 0]], scale=(1, 1))
    with pytest.raises(ValueError, match="scale"):
        cs.Scene(cs.HeightField([[0, 0], [0, 0]], scale=(1, -1, 1)), None, cs.Sphere(1.0), None)
    with pytest.raises(TypeError, match="part 1"):
        cs.Compound([cs.Sphere(1.0), ("not a shape", None)])
    with pytest.raises(ValueError, match="pair 3"):
        cs.Scene(cs.TriMesh(v, t), None, cs.Sphere(0.1), None).run("gjk", pair=3)


# --- Coal ----------------------------------------------------------------------------

try:
    import coal
except ImportError:  # pragma: no cover
    coal = None
needs_coal = pytest.mark.skipif(coal is None, reason="Coal is not installed (pip install coal)")


def bvh(cls, v, t):
    model = cls()
    model.beginModel(len(t), len(v))
    model.addVertices(np.asarray(v, dtype=float))
    model.addTriangles(np.asarray(t, dtype=np.int64))
    model.endModel()
    return model


def coal_distance(g1, M1, g2, M2):
    return coal.distance(g1, M1, g2, M2, coal.DistanceRequest(), coal.DistanceResult())


def convex_shapes(rng):
    points = coal.StdVec_Vec3s()
    for _ in range(20):
        points.append(np.array([rng.uniform(-0.2, 0.2) for _ in range(3)]))
    return [coal.Sphere(0.2), coal.Box(0.3, 0.2, 0.4), coal.Capsule(0.1, 0.3),
            coal.Cylinder(0.15, 0.2), coal.Ellipsoid(0.2, 0.1, 0.15),
            coal.Convex.convexHull(points, False, "Qt")], points


@needs_coal
@pytest.mark.parametrize("cls", ["BVHModelOBBRSS", "BVHModelOBB"])
def test_coal_bvh_meshes_give_coals_distance(cls):
    """A bowl as Coal's BVHModel against every convex kind at random poses, apart and
    overlapping: from_coal takes the mesh (its vertices and triangles as built), our
    bracket holds coal.distance, the overlaps are Coal's."""
    rng = random.Random(45)
    v, t = bowl(10)
    mesh = bvh(getattr(coal, cls), v, t)
    M_mesh = coal.Transform3s(rotation(rng), np.array([0.5, -0.3, 0.2]))
    shapes, keep = convex_shapes(rng)
    findings, total, worst, overlaps, shallower = [], 0, 0.0, 0, 0
    for shape in shapes:
        for _ in range(8):
            local = np.array([rng.uniform(-1.8, 1.8), rng.uniform(-1.8, 1.8), 0.0])
            local[2] = 0.25 * (local[0] ** 2 + local[1] ** 2) + rng.uniform(-0.3, 1.0)
            M = coal.Transform3s(rotation(rng), M_mesh.getRotation() @ local + M_mesh.getTranslation())
            theirs = coal_distance(mesh, M_mesh, shape, M)
            for order in ((mesh, M_mesh, shape, M), (shape, M, mesh, M_mesh)):
                run = cs.Scene.from_coal(*order).run("gjk")
                assert isinstance(run, cs.CompositeRun)
                total += 1
                if assert_brackets(run, theirs, f"{cls}–{type(shape).__name__}", findings) and theirs > 0:
                    worst = max(worst, abs(run["distance"] - theirs))
            if theirs < -1e-6:
                # Coal's negative distance on a mesh is the depth of one overlapping
                # triangle (the first its traversal keeps), not always the deepest; ours
                # is the deepest sub-pair's (a sub-pair proved no deeper along the
                # deepest normal or its triangle's own is not run), so at least as deep.
                epa = cs.Scene.from_coal(mesh, M_mesh, shape, M).run("epa")
                assert epa["status"] == "penetrating"
                depths = [sub["distance"] for sub in epa["sub_pairs"]]
                assert min(depths) == epa["distance"], (type(shape).__name__, depths)
                assert epa["distance"] <= theirs + 2e-6
                overlaps += 1
                shallower += epa["distance"] < theirs - 2e-6
    print(f"{cls}: {total} queries, largest |ours - Coal| apart {worst:.2e}; {overlaps} overlaps, "
          f"Coal's depth is one triangle's in all, shallower than the deepest in {shallower}")
    report(findings, total)


@needs_coal
def test_coal_mesh_against_mesh_gives_coals_distance():
    rng = random.Random(7)
    v, t = bowl(6)
    a = bvh(coal.BVHModelOBBRSS, v, t)
    b = bvh(coal.BVHModelOBBRSS, v * 0.3, t)
    findings = []
    for k in range(12):
        Ma = coal.Transform3s(rotation(rng), np.zeros(3))
        Mb = coal.Transform3s(rotation(rng), np.array([rng.uniform(-1, 1), rng.uniform(-1, 1), rng.uniform(0.5, 3.0)]))
        theirs = coal_distance(a, Ma, b, Mb)
        run = cs.Scene.from_coal(a, Ma, b, Mb).run("gjk")
        assert " · " in run["nearest"]  # a triangle of each
        assert_brackets(run, theirs, f"mesh–mesh {k}", findings)
    report(findings, 12)


@needs_coal
@pytest.mark.parametrize("name", ["suzanne.obj", "cow.obj"])
def test_a_real_non_convex_mesh_gives_coals_distance(name):
    path = os.path.join(SHARED, "meshes", name)
    if not os.path.exists(path):
        pytest.skip(f"{path} is absent (../shared/data)")
    v, t = read_obj(path)
    v = (v - v.mean(axis=0)) / np.ptp(v, axis=0).max()  # about unit size
    mesh = bvh(coal.BVHModelOBBRSS, v, t)
    rng = random.Random(3)
    shapes, keep = convex_shapes(rng)
    findings, total, worst = [], 0, 0.0
    for shape in shapes[:4]:
        for _ in range(5):
            direction = np.array([rng.gauss(0, 1) for _ in range(3)])
            direction /= np.linalg.norm(direction)
            M = coal.Transform3s(rotation(rng), direction * rng.uniform(0.3, 1.0))
            theirs = coal_distance(mesh, coal.Transform3s(), shape, M)
            scene = cs.Scene.from_coal(mesh, coal.Transform3s(), shape, M)
            run = scene.run("gjk")
            kind = list(scene.file["bodies"][0]["shape"])[0]
            total += 1
            if assert_brackets(run, theirs, f"{name}–{type(shape).__name__}", findings) and theirs > 0:
                worst = max(worst, abs(run["distance"] - theirs))
    # suzanne has edges of four triangles (Coal takes any soup): its triangles come in
    # as a compound's parts, said in the notes.
    if kind == "Compound":
        assert "compound" in scene.file["notes"] and run["nearest"].startswith("part ")
    print(f"{name}: {len(t)} triangles as a {kind}, {total} queries, largest |ours - Coal| apart {worst:.2e}")
    report(findings, total)


def coal_field_as_mesh(field):
    """Coal's height field's top surface as a BVHModel, written from Coal's layout
    (x_grid along the columns, y_grid along the rows, heights along z, each cell cut from
    (i, j+1) to (i+1, j)), independently of the package's conversion."""
    x, y, h = field.getXGrid(), field.getYGrid(), field.getHeights()
    v = [[x[j], y[i], h[i, j]] for i in range(len(y)) for j in range(len(x))]
    idx = lambda i, j: i * len(x) + j
    t = []
    for i in range(len(y) - 1):
        for j in range(len(x) - 1):
            t.append([idx(i, j), idx(i, j + 1), idx(i + 1, j)])
            t.append([idx(i, j + 1), idx(i + 1, j + 1), idx(i + 1, j)])
    return bvh(coal.BVHModelOBBRSS, v, t)


@needs_coal
@pytest.mark.parametrize("cls", ["HeightFieldOBBRSS", "HeightFieldAABB"])
def test_coal_height_fields_are_coals_surface(cls):
    """Coal's height field (an x-y grid, heights along z) at a turned pose: our field is
    its surface exactly where Coal puts it. Coal answers no distance on height fields
    (`coal.distance` raises), so the distances are Coal's on the same surface as a
    BVHModel, and the verdicts Coal's `collide` on the field itself."""
    rng = random.Random(11)
    heights = np.array([[rng.uniform(0.0, 0.5) for _ in range(9)] for _ in range(7)])
    field = getattr(coal, cls)(3.0, 2.0, heights, -1.0)
    surface = coal_field_as_mesh(field)
    R0 = rotation(rng)
    t0 = np.array([0.3, -0.2, 0.1])
    M_field = coal.Transform3s(R0, t0)
    shapes, keep = convex_shapes(rng)
    findings, total, worst, verdicts, missed = [], 0, 0.0, 0, []
    for shape in shapes:
        for _ in range(8):
            local = np.array([rng.uniform(-1.4, 1.4), rng.uniform(-0.9, 0.9), rng.uniform(0.3, 1.2)])
            M = coal.Transform3s(rotation(rng), R0 @ local + t0)
            theirs = coal_distance(surface, M_field, shape, M)
            run = cs.Scene.from_coal(field, M_field, shape, M).run("gjk")
            total += 1
            if assert_brackets(run, theirs, f"{cls}–{type(shape).__name__}", findings) and theirs > 0:
                worst = max(worst, abs(run["distance"] - theirs))
            if abs(theirs) > 1e-6:
                collided = coal.collide(field, M_field, shape, M, coal.CollisionRequest(), coal.CollisionResult())
                if bool(collided) == (run["status"] != "separated"):
                    verdicts += 1
                else:
                    # Ours is certified (an enclosure on the sub-pair named): a finding.
                    missed.append(f"{cls}–{type(shape).__name__}: Coal's collide says "
                                  f"{bool(collided)}, ours {run['status']} on {run['nearest']} "
                                  f"(the surface's distance {theirs})")
    print(f"{cls}: {total} queries, largest |ours - Coal| apart {worst:.2e}, {verdicts} verdicts "
          f"alike, {len(missed)} differ")
    report(findings, total)
    # Coal's HeightFieldAABB misses a few overlaps its OBBRSS twin finds on the same
    # heights (2 of 48 here): reported, not failed, while they stay few.
    report(missed, total, allowed=total // 10)
    scene = cs.Scene.from_coal(field, M_field, coal.Sphere(0.1), coal.Transform3s())
    spec = scene.file["bodies"][0]["shape"]["HeightField"]
    assert spec["heights"] == heights.tolist() and spec["scale"] == [3.0, 1.0, 2.0]


@needs_coal
def test_coal_height_field_cells_are_coals_solid():
    """height_field="cells": Coal's cells as solid prisms down to min_height. A shape
    under the surface (above min_height) collides with Coal's field and with ours, is
    apart from the surface alone; above the surface both forms give one distance."""
    rng = random.Random(5)
    heights = np.array([[rng.uniform(0.0, 0.4) for _ in range(6)] for _ in range(5)])
    field = coal.HeightFieldOBBRSS(2.0, 1.5, heights, -0.5)
    M_field = coal.Transform3s(rotation(rng), np.array([0.1, 0.2, -0.3]))
    R0, t0 = M_field.getRotation(), M_field.getTranslation()
    ball = coal.Sphere(0.05)
    alike, under = 0, 0
    for _ in range(12):
        local = np.array([rng.uniform(-0.8, 0.8), rng.uniform(-0.6, 0.6), -0.3])
        M = coal.Transform3s(np.eye(3), R0 @ local + t0)
        collided = coal.collide(field, M_field, ball, M, coal.CollisionRequest(), coal.CollisionResult())
        cells = cs.Scene.from_coal(field, M_field, ball, M, height_field="cells").run("gjk")
        surface = cs.Scene.from_coal(field, M_field, ball, M).run("gjk")
        assert bool(collided) and cells["status"] == "intersecting" and cells["nearest"].startswith("part ")
        under += surface["status"] == "separated"
        local[2] = 0.6
        M = coal.Transform3s(np.eye(3), R0 @ local + t0)
        a = cs.Scene.from_coal(field, M_field, ball, M, height_field="cells").run("gjk")
        b = cs.Scene.from_coal(field, M_field, ball, M).run("gjk")
        assert a["status"] == b["status"] == "separated" and abs(a["distance"] - b["distance"]) < 1e-9
        alike += 1
    assert under == 12 and alike == 12
    scene = cs.Scene.from_coal(field, M_field, ball, coal.Transform3s(), height_field="cells")
    assert "solid prisms" in scene.file["notes"]
    assert len(scene.file["bodies"][0]["shape"]["Compound"]["parts"]) == 2 * 4 * 5
    with pytest.raises(ValueError, match="height_field is 'surface' or 'cells'"):
        cs.Scene.from_coal(field, M_field, ball, M, height_field="solid")


@needs_coal
def test_bad_coal_geometry_is_named():
    empty = coal.BVHModelOBBRSS()
    with pytest.raises(ValueError, match=r"from_coal: geom2 \(BVHModelOBBRSS\) has no triangles"):
        cs.Scene.from_coal(coal.Sphere(1.0), coal.Transform3s(), empty, coal.Transform3s())
    cloud = coal.BVHModelOBBRSS()
    cloud.beginModel(0, 3)
    cloud.addVertices(np.eye(3))
    cloud.endModel()
    with pytest.raises(ValueError, match=r"from_coal: geom1 \(BVHModelOBBRSS\)"):
        cs.Scene.from_coal(cloud, coal.Transform3s(), coal.Sphere(1.0), coal.Transform3s())


# --- Pinocchio ------------------------------------------------------------------------

U_BRACKET_OBJ = """# a U-shaped bracket: non-convex, its hull would fill the gap between the arms
v -0.2 -0.05 0.0
v 0.2 -0.05 0.0
v 0.2 0.05 0.0
v -0.2 0.05 0.0
v -0.2 -0.05 0.05
v 0.2 -0.05 0.05
v 0.2 0.05 0.05
v -0.2 0.05 0.05
v -0.2 -0.05 0.3
v -0.15 -0.05 0.3
v -0.15 0.05 0.3
v -0.2 0.05 0.3
v -0.15 -0.05 0.05
v -0.15 0.05 0.05
v 0.15 -0.05 0.3
v 0.2 -0.05 0.3
v 0.2 0.05 0.3
v 0.15 0.05 0.3
v 0.15 -0.05 0.05
v 0.15 0.05 0.05
"""


def u_bracket_triangles():
    """The bracket's closed surface, as triangles of its outline (1-based)."""
    f = []
    quad = lambda a, b, c, d: f.extend([(a, b, c), (a, c, d)])
    quad(1, 4, 3, 2)                      # bottom
    quad(1, 2, 6, 5); quad(4, 8, 7, 3)    # long sides of the base
    quad(2, 3, 7, 6); quad(1, 5, 8, 4)    # short sides of the base (outer walls below the arms)
    quad(13, 19, 20, 14)                  # top of the base between the arms
    # left arm: x in [-0.2, -0.15]
    quad(5, 13, 10, 9); quad(8, 12, 11, 14)
    quad(5, 9, 12, 8); quad(13, 14, 11, 10); quad(9, 10, 11, 12)
    # right arm: x in [0.15, 0.2]
    quad(19, 6, 16, 15); quad(20, 18, 17, 7)
    quad(6, 7, 17, 16); quad(19, 15, 18, 20); quad(15, 16, 17, 18)
    return "".join(f"f {a} {b} {c}\n" for a, b, c in f)


URDF = """<?xml version="1.0"?>
<robot name="bracket_arm">
  <link name="base">
    <collision><geometry><mesh filename="{dir}/bracket.obj"/></geometry></collision>
  </link>
  <link name="upper">
    <collision><origin xyz="0 0 0.15"/><geometry><mesh filename="{dir}/bar.stl"/></geometry></collision>
  </link>
  <link name="lower">
    <collision><origin xyz="0 0 0.1"/><geometry><box size="0.04 0.04 0.2"/></geometry></collision>
  </link>
  <link name="tip">
    <collision><geometry><mesh filename="{dir}/bracket.obj" scale="0.3 0.3 0.3"/></geometry></collision>
  </link>
  <joint name="j1" type="revolute">
    <parent link="base"/><child link="upper"/><origin xyz="0 0 0.35"/><axis xyz="0 1 0"/>
    <limit lower="-3" upper="3" effort="1" velocity="1"/>
  </joint>
  <joint name="j2" type="revolute">
    <parent link="upper"/><child link="lower"/><origin xyz="0 0 0.3"/><axis xyz="0 1 0"/>
    <limit lower="-3" upper="3" effort="1" velocity="1"/>
  </joint>
  <joint name="j3" type="fixed">
    <parent link="lower"/><child link="tip"/><origin xyz="0 0 0.2"/>
  </joint>
</robot>
"""


def write_stl_box(path, half):
    """An ASCII STL of a box (12 triangles)."""
    hx, hy, hz = half
    c = [np.array([sx * hx, sy * hy, sz * hz]) for sx in (-1, 1) for sy in (-1, 1) for sz in (-1, 1)]
    faces = [(0, 1, 3, 2), (4, 6, 7, 5), (0, 4, 5, 1), (2, 3, 7, 6), (0, 2, 6, 4), (1, 5, 7, 3)]
    lines = ["solid bar"]
    for a, b, cc, d in faces:
        for tri in ((a, b, cc), (a, cc, d)):
            lines.append("facet normal 0 0 0\n outer loop")
            lines += [f"  vertex {float(c[i][0])!r} {float(c[i][1])!r} {float(c[i][2])!r}" for i in tri]
            lines.append(" endloop\nendfacet")
    lines.append("endsolid bar")
    path.write_text("\n".join(lines) + "\n")


def pinocchio_distances(pin, model, geom_model, q):
    data, geom_data = model.createData(), pin.GeometryData(geom_model)
    pin.computeDistances(model, data, geom_model, geom_data, q)
    return [geom_data.distanceResults[k].min_distance for k in range(len(geom_model.collisionPairs))]


@needs_coal
def test_a_small_pinocchio_robot_gives_pinocchios_distances(tmp_path):
    """A robot written here (a U-bracket OBJ base, an STL bar, a box, the bracket scaled
    as a tip), loaded by Pinocchio from its URDF: every collision pair at several
    configurations against Pinocchio's computeDistances."""
    pin = pytest.importorskip("pinocchio")
    (tmp_path / "bracket.obj").write_text(U_BRACKET_OBJ + u_bracket_triangles())
    write_stl_box(tmp_path / "bar.stl", (0.03, 0.03, 0.15))
    urdf = tmp_path / "robot.urdf"
    urdf.write_text(URDF.format(dir=tmp_path))
    model = pin.buildModelFromUrdf(str(urdf))
    geom_model = pin.buildGeomFromUrdf(model, str(urdf), pin.GeometryType.COLLISION)
    kinds = [type(g.geometry).__name__ for g in geom_model.geometryObjects]
    assert kinds.count("BVHModelOBBRSS") == 3 and "Box" in kinds, kinds
    geom_model.addAllCollisionPairs()
    findings, total, worst, touching = [], 0, 0.0, 0
    for q in ([0.0, 0.0], [1.2, -2.0], [2.0, 2.5], [-1.7, -1.0], [0.6, 2.8]):
        q = np.array(q)
        scene = cs.Scene.from_pinocchio(model, geom_model, q)
        names = [b["name"] for b in scene.file["bodies"]]
        assert names == [g.name for g in geom_model.geometryObjects]
        runs = scene.run_pairs("gjk")
        theirs = pinocchio_distances(pin, model, geom_model, q)
        assert len(runs) == len(theirs) == len(geom_model.collisionPairs)
        for k, (run, d) in enumerate(zip(runs, theirs)):
            cp = geom_model.collisionPairs[k]
            assert list(run["pair"]) == [cp.first, cp.second]
            total += 1
            if assert_brackets(run, d, f"q={list(q)} pair {names[cp.first]}–{names[cp.second]}", findings):
                if d > 0:
                    worst = max(worst, abs(run["distance"] - d))
            touching += run["status"] != "separated"
            if isinstance(run, cs.CompositeRun) and run["status"] == "separated":
                assert run.sub_pair(0)["status"] == "separated"
    print(f"small robot: {total} pairs over 5 configurations, {touching} touching or "
          f"overlapping, largest |ours - Pinocchio| apart {worst:.2e}")
    report(findings, total)
    # The base is a mesh (not its hull): a ball between the bracket's arms is apart from
    # it, as Coal says, where the hull would hold it.
    assert list(scene.file["bodies"][0]["shape"]) == ["TriMesh"]
    base = geom_model.geometryObjects[0].geometry
    ball = coal.Sphere(0.05)
    M = coal.Transform3s(np.eye(3), np.array([0.0, 0.0, 0.2]))
    mesh_run = cs.Scene.from_coal(base, coal.Transform3s(), ball, M).run("gjk")
    assert mesh_run["status"] == "separated"
    assert abs(mesh_run["distance"] - coal_distance(base, coal.Transform3s(), ball, M)) < 1e-9
    hull = cs.Scene(cs.Convex(base.vertices()), None, cs.Sphere(0.05), (np.eye(3), [0.0, 0.0, 0.2])).run("gjk")
    assert hull["status"] == "intersecting"
    with pytest.raises(ValueError, match="q has 3 entries"):
        cs.Scene.from_pinocchio(model, geom_model, np.zeros(3))
    empty = pin.GeometryModel()
    for go in geom_model.geometryObjects:
        empty.addGeometryObject(go)
    with pytest.raises(ValueError, match="no collision pairs"):
        cs.Scene.from_pinocchio(model, empty, np.zeros(2))


ROBOTS = [("panda", "panda_description/urdf/panda.urdf", "panda_description/srdf/panda.srdf", "panda_sample.json"),
          ("ur5", "ur_description/urdf/ur5_robot.urdf", None, "ur5_sample.json")]


@needs_coal
@pytest.mark.parametrize("robot,urdf,srdf,configs", ROBOTS, ids=[r[0] for r in ROBOTS])
def test_real_robots_give_pinocchios_distances(tmp_path, robot, urdf, srdf, configs):
    """The Panda and the UR5 of ../shared/data/robots, their STL meshes as Pinocchio
    loads them (BVHModelOBBRSS): every collision pair at sampled configurations against
    Pinocchio's computeDistances."""
    pin = pytest.importorskip("pinocchio")
    root = os.path.join(SHARED, "robots")
    if not os.path.exists(os.path.join(root, urdf)):
        pytest.skip(f"{root} is absent (../shared/data)")
    # The URDFs name their meshes package://example-robot-data/robots/...
    package = tmp_path / "example-robot-data"
    package.mkdir()
    os.symlink(root, package / "robots")
    path = os.path.join(root, urdf)
    model = pin.buildModelFromUrdf(path)
    geom_model = pin.buildGeomFromUrdf(model, path, pin.GeometryType.COLLISION, package_dirs=[str(tmp_path)])
    geom_model.addAllCollisionPairs()
    if srdf:
        pin.removeCollisionPairs(model, geom_model, os.path.join(root, srdf))
    with open(os.path.join(root, "configs", configs)) as f:
        samples = json.load(f)["configs"]
    findings, total, worst, composite = [], 0, 0.0, 0
    for sample in samples[:3]:
        q = pin.neutral(model)
        q[:min(len(sample), model.nq)] = sample[:model.nq]
        runs = cs.Scene.from_pinocchio(model, geom_model, q).run_pairs("gjk")
        for k, (run, d) in enumerate(zip(runs, pinocchio_distances(pin, model, geom_model, q))):
            total += 1
            composite += isinstance(run, cs.CompositeRun)
            if assert_brackets(run, d, f"{robot} pair {run['bodies']}", findings) and d > 0:
                worst = max(worst, abs(run["distance"] - d))
    print(f"{robot}: {total} pairs ({composite} with a mesh), largest |ours - Pinocchio| apart {worst:.2e}")
    assert composite > 0
    report(findings, total)
