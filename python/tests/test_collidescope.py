"""The Python package against Coal (pip install coal): random Coal queries converted into
scenes give Coal's distance within the criterion and, for GJK, Coal's iteration count."""
import base64
import gzip
import json
import math
import os
import random
import zlib

import numpy as np
import pytest

import collidescope as cs

coal = pytest.importorskip("coal")

# Coal's GJK as the problem files run it (../shared/data/problems/README.md).
SETTINGS = {"tolerance": 1e-8, "criterion": "DualityGap", "kind": "Absolute",
            "max_iterations": 1000, "initial_guess": "OriginDifference"}
KEEP = []


def rotation(rng):
    q = np.array([rng.gauss(0, 1) for _ in range(4)])
    w, x, y, z = q / np.linalg.norm(q)
    return np.array([[1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)],
                     [2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)],
                     [2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)]])


def random_shape(rng, kind):
    u = lambda: rng.uniform(0.1, 0.6)
    if kind == "box":
        return coal.Box(u(), u(), u())
    if kind == "sphere":
        return coal.Sphere(u())
    if kind == "ellipsoid":
        return coal.Ellipsoid(u(), u(), u())
    if kind == "capsule":
        return coal.Capsule(u(), u())
    if kind == "cylinder":
        return coal.Cylinder(u(), u())
    if kind == "cone":
        return coal.Cone(u(), u())
    points = coal.StdVec_Vec3s()
    for _ in range(rng.randint(8, 80)):
        points.append(np.array([rng.uniform(-0.5, 0.5) for _ in range(3)]))
    KEEP.append(points)
    return coal.Convex.convexHull(points, False, "Qt")


def coal_gjk(a, b, R, t):
    md = coal.MinkowskiDiff()
    md.set(a, b, coal.Transform3s(), coal.Transform3s(R, t), False)
    gjk = coal.GJK(SETTINGS["max_iterations"], SETTINGS["tolerance"])
    gjk.gjk_variant = coal.GJKVariant.DefaultGJK
    gjk.convergence_criterion = coal.GJKConvergenceCriterion.DualityGap
    gjk.convergence_criterion_type = coal.GJKConvergenceCriterionType.Absolute
    status = gjk.evaluate(md, -t, np.array([0, 0], dtype=np.int32))
    return gjk.getNumIterations(), str(status).split(".")[-1], gjk.distance


KINDS = ["box", "sphere", "ellipsoid", "capsule", "cylinder", "cone", "convex"]


def queries(kind_a, kind_b, count, **settings):
    # A seed from the names (Python's str hash changes between runs).
    rng = random.Random(zlib.crc32(f"{kind_a}-{kind_b}".encode()))
    for _ in range(count):
        a, b = random_shape(rng, kind_a), random_shape(rng, kind_b)
        R = rotation(rng)
        t = np.array([rng.uniform(-1, 1) for _ in range(3)]) * rng.uniform(0.2, 1.5)
        scene = cs.Scene.from_coal(a, coal.Transform3s(), b, coal.Transform3s(R, t),
                                   settings={**SETTINGS, **settings})
        yield scene.run("gjk"), coal_gjk(a, b, R, t)


def check_verdict_and_distance(ours, status, distance):
    root_eps = math.sqrt(SETTINGS["tolerance"])
    if status == "NoCollision" and ours["status"] == "intersecting":
        # Coal's NoCollision is its stopping test, an upper bound only: on a pair that
        # overlaps by a hair it passes too. Ours proved the overlap (an enclosure), so
        # Coal's distance can only be such a hair.
        assert distance <= 2 * root_eps, (ours["status"], status, distance)
    elif status == "NoCollision":
        # Both stop within the duality gap's guarantee: ‖x − x*‖ ≤ √ε.
        assert ours["status"] in ("separated", "contact"), (ours["status"], status)
        assert abs(ours["distance"] - distance) <= 2 * root_eps + 1e-12
    else:
        assert ours["status"] in ("intersecting", "contact"), (ours["status"], status)


@pytest.mark.parametrize("kind_a", KINDS)
@pytest.mark.parametrize("kind_b", KINDS)
def test_coal_queries_give_coals_distance_and_iterations(kind_a, kind_b):
    """from_coal runs with Coal's conventions (spheres and capsules as their cores, Coal's
    1e-12 dead zone in the supports, Coal's frame for shapes along z): GJK takes the
    iterations Coal's GJK takes, every one, and the verdict is still certified."""
    for ours, (iterations, status, distance) in queries(kind_a, kind_b, 10):
        check_verdict_and_distance(ours, status, distance)
        assert ours["iterations"] == iterations, (kind_a, kind_b, ours["iterations"], iterations)


@pytest.mark.parametrize("kind", ["sphere", "capsule", "box", "cylinder", "cone"])
def test_exact_supports_give_the_same_distances(kind):
    """settings={"supports": "Exact"} runs on the whole shapes with exact supports: other
    iterations, the same distances and verdicts."""
    for kind_b in KINDS:
        for ours, (_, status, distance) in queries(kind, kind_b, 4, supports="Exact"):
            check_verdict_and_distance(ours, status, distance)


def test_shapes_and_poses_arrive_to_the_bit(tmp_path):
    box = coal.Box(0.1, 0.2, 0.30000000000000004)
    capsule = coal.Capsule(0.1, 0.7)
    R = rotation(random.Random(3))
    t = np.array([0.1, 1.0 / 3.0, -2.0 / 7.0])
    scene = cs.Scene.from_coal(box, coal.Transform3s(), capsule, coal.Transform3s(R, t))
    path = tmp_path / "case.ron"
    scene.save(path)
    again = cs.Scene.load(path)
    body_a, body_b = again.file["bodies"]
    assert body_a["shape"] == {"Box": {"half_extents": [0.05, 0.1, 0.30000000000000004 / 2]}}
    assert body_b["shape"] == {"Capsule": {"radius": 0.1, "half_height": 0.35}}
    assert body_b["translation"] == [float(v) for v in t]
    rows = body_b["rotation"]["Matrix"]
    # Coal's z axis is our y: the columns are permuted and one negated, exactly.
    assert [r[1] for r in rows] == [float(v) for v in R[:, 2]]
    assert [r[2] for r in rows] == [float(-v) for v in R[:, 1]]
    assert [r[0] for r in rows] == [float(v) for v in R[:, 0]]


def test_exports_from_python_reproduce_the_query_in_coal_and_parry(tmp_path):
    """export_coal writes a script that Coal runs and that passes (Coal agrees with the
    certified bracket); export_parry writes a parry3d-f64 test; no command-line tool."""
    import subprocess
    import sys
    R = rotation(random.Random(5))
    scene = cs.Scene.from_coal(coal.Box(0.4, 0.3, 0.2), coal.Transform3s(), coal.Sphere(0.25),
                               coal.Transform3s(R, np.array([0.1, 0.2, 0.6])))
    script = tmp_path / "case_coal.py"
    scene.export_coal(script)
    done = subprocess.run([sys.executable, str(script)], capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    test = tmp_path / "case_parry.rs"
    scene.export_parry(test)
    text = test.read_text()
    assert "parry3d_f64" in text and "#[test]" in text
    with pytest.raises(ValueError, match="pair 3"):
        scene.export_coal(tmp_path / "nope.py", pair=3)


def test_runs_carry_their_records_with_numpy_points():
    scene = cs.Scene(cs.Sphere(0.5), None, cs.Box([0.2, 0.3, 0.4]), (np.eye(3), [1.0, 0.2, 0.1]))
    for method in cs.methods():
        run = scene.run(method)
        assert "status" in run and "iterations" in run, method
    run = scene.run("nesterov")
    assert run["status"] == "separated"
    assert isinstance(run["witness_a_world"], np.ndarray) and run["witness_a_world"].shape == (3,)
    assert len(run["trace"]) == run["iterations"] + 1 or len(run["trace"]) >= 1


def test_bad_input_says_what_is_wrong():
    with pytest.raises(ValueError, match="not rigid"):
        cs.Scene(cs.Sphere(1.0), np.diag([2.0, 1.0, 1.0, 1.0]), cs.Sphere(1.0), None)
    with pytest.raises(ValueError, match=r"^pose_a: the last row of a rigid 4x4 pose is \[0, 0, 0, 1\]"):
        bad = np.eye(4); bad[3, 0] = 1.0
        cs.Scene(cs.Sphere(1.0), bad, cs.Sphere(1.0), None)
    with pytest.raises(ValueError, match=r"\(n, 3\)"):
        cs.Convex(np.zeros((4, 2)))
    with pytest.raises(TypeError, match="Coal's Plane"):
        cs.Scene.from_coal(coal.Plane(np.array([0.0, 0.0, 1.0]), 0.0), coal.Transform3s(),
                           coal.Sphere(1.0), coal.Transform3s())


def test_view_without_the_viewer_opens_the_web_page(monkeypatch):
    """With no desktop viewer installed, view writes the scene's web page and opens it
    in the browser (inline in a notebook)."""
    monkeypatch.setenv("PATH", "")
    monkeypatch.setattr(cs, "_program", lambda: None)
    opened = []
    monkeypatch.setattr(cs.webbrowser, "open", lambda url: opened.append(url))
    path = cs.view(cs.Scene(cs.Sphere(1.0), None, cs.Sphere(1.0), (np.eye(3), [3.0, 0.0, 0.0])))
    assert opened and opened[0].startswith("file://") and opened[0].endswith("scene.html")
    page = open(path, encoding="utf-8").read()
    assert page.startswith("<!DOCTYPE html>") and "collidescope-data" in page


def test_a_scene_is_its_own_web_page(tmp_path):
    """to_html: one self-contained page holding every step's narration as the run
    narrates it; a name with markup reaches it only as escaped data."""
    scene = cs.Scene(cs.Box([0.5, 0.5, 0.5]), None, cs.Sphere(0.3), (np.eye(3), [1.5, 0.2, 0.0]),
                     name="</script><b>boxes</b>")
    page = scene.to_html(tmp_path / "page.html", methods=["gjk", "epa"])
    assert (tmp_path / "page.html").read_text(encoding="utf-8") == page
    assert "<b>boxes" not in page and page.count("</script>") == 2
    marker = 'type="application/gzip-base64">'
    start = page.index(marker) + len(marker)
    data = json.loads(gzip.decompress(base64.b64decode(page[start:page.index("</script>", start)])))
    assert data["title"] == "</script><b>boxes</b>"
    run = scene.run("gjk", traces=True)
    assert [r["method"] for r in data["runs"]] == ["gjk", "epa"]
    assert len(data["runs"][0]["steps"]) == len(run["trace"])
    for word in ("http:", "https:", "src=", "href="):
        assert word not in page
    assert scene._repr_html_().startswith("<iframe srcdoc=")


def test_a_mujoco_model_loads_with_mujocos_pair_in_focus():
    """An MJCF file loads as its geoms (the pairs MuJoCo tests by certified signed
    distance, the deepest overlap or else the nearest first, in focus); with
    MuJoCo installed, the focused pair's distance is mj_geomDistance's."""
    here = os.path.dirname(os.path.abspath(__file__))
    path = os.path.join(here, "..", "..", "tests", "data", "imports", "mjcf", "stacked_boxes.xml")
    scene = cs.Scene.load(path)
    assert len(scene.file["bodies"]) == 4
    run = scene.run("gjk")
    assert run["distance"] < 1e-3
    mujoco = pytest.importorskip("mujoco")
    model = mujoco.MjModel.from_xml_path(path)
    data = mujoco.MjData(model)
    mujoco.mj_forward(model, data)
    top = mujoco.mj_name2id(model, mujoco.mjtObj.mjOBJ_GEOM, "top")
    far = mujoco.mj_name2id(model, mujoco.mjtObj.mjOBJ_GEOM, "far")
    theirs = mujoco.mj_geomDistance(model, data, top, far, 10.0, np.zeros(6))
    # At a keyframe: the model with the top box lifted by 0.25 (a free joint's qpos).
    features = os.path.join(here, "..", "..", "tests", "data", "imports", "mjcf", "features.xml")
    bent = cs.Scene.load(features, key="bent")
    assert "keyframe" in bent.file["notes"]
    with pytest.raises(ValueError, match="no keyframe"):
        cs.Scene.load(features, key="nope")
    i, j = 2, 3  # the bodies of "top" and "far" (MuJoCo's geom order, the floor first)
    ours = cs.Scene.load(path)
    ours.file["pairs"] = [[i, j]]
    assert abs(ours.run("gjk")["distance"] - theirs) < 1e-6


MUJOCO_SCENE = """
<mujoco>
  <asset><mesh name="wedge" vertex="0 0 0  0.2 0 0  0 0.15 0  0 0 0.1  0.2 0.15 0.1"/></asset>
  <worldbody>
    <geom name="floor" type="plane" size="3 3 0.1"/>
    <body pos="0 0 0.5" euler="10 20 30"><freejoint/><geom name="box" type="box" size="0.1 0.2 0.15"/></body>
    <body pos="0.5 0.1 0.6" euler="40 0 10"><freejoint/><geom name="capsule" type="capsule" size="0.06 0.2"/></body>
    <body pos="-0.4 0.2 0.7"><freejoint/><geom name="cylinder" type="cylinder" size="0.08 0.12" euler="0 70 0"/></body>
    <body pos="0.1 -0.5 0.4"><freejoint/><geom name="ellipsoid" type="ellipsoid" size="0.1 0.15 0.08"/></body>
    <body pos="-0.2 -0.3 0.9"><freejoint/><geom name="wedge" type="mesh" mesh="wedge"/></body>
    <body pos="0.3 0.4 1.0"><freejoint/><geom name="ball" size="0.09"/></body>
  </worldbody>
</mujoco>
"""


def test_two_geoms_of_a_mujoco_simulation_arrive_as_mujoco_placed_them():
    """A few hundred steps into a simulation, every two geoms of the scene: our
    distance is mj_geomDistance's, the shapes and poses MuJoCo's own."""
    mujoco = pytest.importorskip("mujoco")
    model = mujoco.MjModel.from_xml_string(MUJOCO_SCENE)
    data = mujoco.MjData(model)
    for _ in range(150):
        mujoco.mj_step(model, data)
    names = ["box", "capsule", "cylinder", "ellipsoid", "wedge", "ball"]
    compared = 0
    for k, a in enumerate(names):
        for b in names[k + 1:]:
            scene = cs.Scene.from_mujoco(model, data, a, b, settings={"tolerance": 1e-9})
            assert [body["name"] for body in scene.file["bodies"]] == [a, b]
            ga = mujoco.mj_name2id(model, mujoco.mjtObj.mjOBJ_GEOM, a)
            gb = mujoco.mj_name2id(model, mujoco.mjtObj.mjOBJ_GEOM, b)
            theirs = mujoco.mj_geomDistance(model, data, ga, gb, 10.0, np.zeros(6))
            run = scene.run("gjk")
            if theirs > 1e-6:
                assert run["status"] == "separated", (a, b, run["status"], theirs)
                assert abs(run["distance"] - theirs) <= 1e-6 * (1 + theirs), (a, b, run["distance"], theirs)
                compared += 1
            elif theirs < -1e-6:
                assert run["status"] in ("intersecting", "contact"), (a, b, run["status"], theirs)
                compared += 1
    assert compared >= 12
    # The floor (a plane) against each: a slab with MuJoCo's distances and depths.
    for name in names:
        g = mujoco.mj_name2id(model, mujoco.mjtObj.mjOBJ_GEOM, name)
        theirs = mujoco.mj_geomDistance(model, data, 0, g, 10.0, np.zeros(6))
        scene = cs.Scene.from_mujoco(model, data, "floor", name, settings={"tolerance": 1e-9})
        run = scene.run("gjk" if theirs > 1e-6 else "epa")
        if abs(theirs) > 1e-6:
            assert abs(run["distance"] - theirs) <= 1e-5, (name, run["status"], run["distance"], theirs)
    with pytest.raises(TypeError, match="two planes"):
        cs.Scene.from_mujoco(model, data, "floor", "floor")
    with pytest.raises(ValueError, match="no geom named"):
        cs.Scene.from_mujoco(model, data, "nothing", "box")


def test_a_coal_half_space_comes_in_as_a_slab_with_coals_answers():
    """Coal's Halfspace (a ground) against a sphere, a box and a capsule, apart and sunk
    in: the distance Coal gives, and the depth of its signed distance."""
    n = np.array([0.1, 0.2, 1.0]); n /= np.linalg.norm(n)
    ground = coal.Halfspace(n, 0.05)
    M_ground = coal.Transform3s(rotation(random.Random(7)), np.array([0.2, -0.1, 0.3]))
    for geom in (coal.Sphere(0.3), coal.Box(0.4, 0.2, 0.6), coal.Capsule(0.1, 0.5)):
        for lift in (0.9, 0.4, 0.1):
            M = coal.Transform3s(rotation(random.Random(11)), M_ground.getTranslation() + lift * (M_ground.getRotation() @ n))
            request, result = coal.DistanceRequest(), coal.DistanceResult()
            request.enable_signed_distance = True
            theirs = coal.distance(ground, M_ground, geom, M, request, result)
            for order in ((ground, M_ground, geom, M), (geom, M, ground, M_ground)):
                scene = cs.Scene.from_coal(*order, settings={"supports": "Exact"})
                if theirs > 1e-9:
                    run = scene.run("gjk")
                    assert run["status"] == "separated" and abs(run["distance"] - theirs) < 1e-6, (type(geom).__name__, lift, run["distance"], theirs)
                else:
                    run = scene.run("epa")
                    assert run["status"] == "penetrating", run["status"]
                    assert abs(run["distance"] - theirs) < 1e-6, (type(geom).__name__, lift, run["distance"], theirs)
    with pytest.raises(TypeError, match="two half-spaces"):
        cs.Scene.from_coal(ground, M_ground, ground, M_ground)
