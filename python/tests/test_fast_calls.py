"""Engine-speed calls: shapes built once, poses from numpy without text, `distance` and
`distances` (issue 46). Checked against the scene API (the same core run), against
Coal's own distance on the same objects and poses, against closed forms, and for the
messages a careless caller meets (each names the argument). Speed is measured in
benches/python_vs_coal.py, never here."""
import numpy as np
import pytest

import collidescope as cs

RNG = np.random.default_rng(11)


def random_rotation(rng):
    q = rng.normal(size=4)
    q /= np.linalg.norm(q)
    w, x, y, z = q
    return np.array([
        [1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)],
        [2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)],
        [2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)],
    ])


def pose(R, t):
    H = np.eye(4)
    H[:3, :3], H[:3, 3] = R, t
    return H


def test_a_call_answers_as_the_scene_run_of_the_same_pair():
    a, b = cs.Convex(RNG.normal(size=(40, 3))), cs.Box([0.3, 0.2, 0.5])
    for k in range(20):
        Ha = pose(random_rotation(RNG), RNG.normal(size=3))
        Hb = pose(random_rotation(RNG), RNG.normal(size=3) * 3)
        for method in ("epa", "gjk", "nesterov"):
            fast = cs.distance(a, Ha, b, Hb, method=method)
            run = cs.Scene(a, Ha, b, Hb).run(method)
            assert fast.status == run["status"], (k, method)
            assert fast.distance == run["distance"], (k, method)
            assert fast.lower_bound == run["lower_bound"], (k, method)
            if run["witness_a_world"] is not None:
                assert np.array_equal(fast.point_a, run["witness_a_world"]), (k, method)
                assert np.array_equal(fast.point_b, run["witness_b_world"]), (k, method)


def test_closed_forms_spheres_and_boxes():
    # Two spheres: |c| - 0.5 - 0.25, signed.
    for gap in (1.0, 1e-3, -0.1, -0.6):
        d = cs.distance(cs.Sphere(0.5), None, cs.Sphere(0.25), (np.eye(3), [0.75 + gap, 0, 0]))
        assert d.distance == pytest.approx(gap, abs=1e-12), gap
        assert np.allclose(d.normal, [1, 0, 0])
        if gap > 0:
            assert d.status == "separated" and d.lower_bound <= gap <= d.upper_bound
        else:
            assert d.status == "penetrating"
    # Face to face boxes 1e-3 apart, one turned about the common axis.
    R = random_rotation(np.random.default_rng(1))
    turn = np.array([[1, 0, 0], [0, np.cos(0.3), -np.sin(0.3)], [0, np.sin(0.3), np.cos(0.3)]])
    d = cs.distance(cs.Box([0.5, 0.5, 0.5]), pose(R, [1, 2, 3]), cs.Box([0.5, 0.5, 0.5]),
                    pose(R @ turn, np.array([1, 2, 3]) + R @ [1.001, 0.1, 0.0]))
    assert d.status == "separated"
    assert d.lower_bound <= 1e-3 <= d.upper_bound
    assert d.distance == pytest.approx(1e-3, rel=1e-9)


def test_every_pose_form_gives_the_same_answer():
    coal = pytest.importorskip("coal")
    R, t = random_rotation(RNG), RNG.normal(size=3)
    a, b = cs.Capsule(0.1, 0.4), cs.Convex(RNG.normal(size=(30, 3)) * 0.2)
    Hb = pose(random_rotation(RNG), [1.5, 0.2, 0.1])
    forms = [pose(R, t), (R, t), [R.tolist(), t.tolist()], coal.Transform3s(R, t),
             np.asfortranarray(pose(R, t)), pose(R, t).astype(np.float32).astype(float)]
    answers = [cs.distance(a, f, b, Hb).distance for f in forms[:5]]
    assert len(set(answers)) == 1, answers
    pin = pytest.importorskip("pinocchio")
    assert cs.distance(a, pin.SE3(R, t), b, Hb).distance == answers[0]
    assert cs.distance(a, None, b, Hb).distance == cs.distance(a, np.eye(4), b, Hb).distance


def test_shapes_from_coal_answer_as_coal_on_the_same_poses():
    coal = pytest.importorskip("coal")
    points = coal.StdVec_Vec3s()
    points.extend(list(RNG.normal(size=(60, 3)) * 0.3))
    geometries = [
        coal.Box(0.4, 0.6, 0.2), coal.Sphere(0.3), coal.Capsule(0.1, 0.8), coal.Cylinder(0.2, 0.6),
        coal.Cone(0.3, 0.5), coal.Ellipsoid(0.3, 0.2, 0.4),
        coal.Convex.convexHull(points, False, "Qt"),
    ]
    shapes = [cs.Shape.from_coal(g) for g in geometries]
    request, result = coal.DistanceRequest(), coal.DistanceResult()
    checked = 0
    for k in range(200):
        i, j = RNG.integers(len(geometries), size=2)
        M1 = coal.Transform3s(random_rotation(RNG), RNG.normal(size=3) * 0.3)
        M2 = coal.Transform3s(random_rotation(RNG), RNG.normal(size=3) * 0.9)
        result.clear()
        theirs = coal.distance(geometries[i], M1, geometries[j], M2, request, result)
        ours = cs.distance(shapes[i], M1, shapes[j], M2)
        # The same pair as Scene.from_coal builds (z-axis shapes turned exactly) ...
        scene = cs.Scene.from_coal(geometries[i], M1, geometries[j], M2, settings={"supports": "Exact"})
        assert ours.distance == scene.run("epa")["distance"], k
        # ... and Coal's distance within our certified bracket, up to Coal's own stop
        # (its GJK's 1e-6 tolerance leaves it up to ~3e-6 above the true distance here).
        if theirs > 1e-4:
            slack = 1e-5 * max(theirs, 0.1)
            assert ours.lower_bound - slack <= theirs <= ours.upper_bound + slack, (k, theirs, ours)
            checked += 1
        elif theirs < -1e-4:
            assert ours.distance == pytest.approx(theirs, abs=1e-5), (k, theirs, ours)
    assert checked > 50


def test_a_mesh_names_the_triangle_that_makes_the_answer():
    # A square floor of two triangles, and a ball above the second.
    v = np.array([[0, 0, 0], [1, 0, 0], [1, 1, 0], [0, 1, 0]], dtype=float)
    t = np.array([[0, 1, 2], [0, 2, 3]])
    floor = cs.TriMesh(v, t)
    lift = pose(np.eye(3), [0, 0, 2.0])
    d = cs.distance(floor, lift, cs.Sphere(0.1), (np.eye(3), [0.2, 0.7, 2.5]))
    assert d.status == "separated" and d.distance == pytest.approx(0.4, abs=1e-9)
    assert d.nearest == "triangle 1" and d.piece_a == 1 and d.piece_b is None
    assert np.allclose(d.point_a, [0.2, 0.7, 2.0], atol=1e-4)
    assert np.allclose(d.point_b, [0.2, 0.7, 2.4], atol=1e-4)
    # The mesh second: the pieces are B's, the points still A's then B's.
    d = cs.distance(cs.Sphere(0.1), (np.eye(3), [0.8, 0.1, 2.5]), floor, lift)
    assert d.nearest == "triangle 0" and d.piece_b == 0 and d.piece_a is None
    # (A witness on a flat face is as good as the distance's square root: GJK stops when
    # the distance is within 1e-9, the foot may still slide ~1e-5 along the face.)
    assert np.allclose(d.point_a, [0.8, 0.1, 2.4], atol=1e-4)
    assert np.allclose(d.point_b, [0.8, 0.1, 2.0], atol=1e-4)
    assert np.allclose(d.normal, [0, 0, -1])
    # Two meshes: both triangles named.
    d = cs.distance(floor, None, floor, pose(np.eye(3), [1.5, 0.0, 0.3]))
    assert d.nearest.count("triangle") == 2 and d.piece_a is not None and d.piece_b is not None
    assert d.distance == pytest.approx(np.hypot(0.5, 0.3), abs=1e-9)


def test_a_batch_is_the_loop_of_single_calls():
    shapes = [cs.Box([0.2, 0.1, 0.3]), cs.Sphere(0.2), cs.Convex(RNG.normal(size=(20, 3)) * 0.2),
              cs.TriMesh(np.array([[0, 0, 0], [1, 0, 0], [0, 1, 0]], dtype=float), [[0, 1, 2]])]
    C = 30
    poses = np.array([[pose(random_rotation(RNG), RNG.normal(size=3)) for _ in shapes] for _ in range(C)])
    pairs = [(0, 1), (0, 2), (1, 3), (3, 2)]
    batch = cs.distances(shapes, poses, pairs)
    assert batch["distance"].shape == (C, 4) and batch["point_a"].shape == (C, 4, 3)
    for c in range(C):
        for p, (i, j) in enumerate(pairs):
            one = cs.distance(shapes[i], poses[c, i], shapes[j], poses[c, j])
            assert batch["distance"][c, p] == one.distance
            assert batch["status_names"][batch["status"][c, p]] == one.status
            assert batch["lower_bound"][c, p] == one.lower_bound
            assert np.array_equal(batch["point_a"][c, p], one.point_a)
            assert batch["piece_a"][c, p] == (-1 if one.piece_a is None else one.piece_a)
    # One configuration: (P,) arrays; every pair when none are named.
    single = cs.distances(shapes, poses[0])
    assert single["distance"].shape == (6,)
    assert single["distance"][1] == batch["distance"][0, 1]


def test_careless_inputs_name_the_argument():
    box, ball = cs.Box([0.5, 0.5, 0.5]), cs.Sphere(0.2)
    H = pose(np.eye(3), [2, 0, 0])
    bad_nan = H.copy(); bad_nan[1, 3] = np.nan
    with pytest.raises(ValueError, match=r"^pose_b: entry \[1, 3\] is NaN"):
        cs.distance(box, None, ball, bad_nan)
    skew = H.copy(); skew[0, 1] = 0.3
    with pytest.raises(ValueError, match=r"^pose_a: not a rigid pose"):
        cs.distance(box, skew, ball, H)
    far = pose(np.eye(3), [1e200, 0, 0])
    with pytest.raises(ValueError, match=r"^pose_b: its translation 1e200 is beyond 1e75"):
        cs.distance(box, None, ball, far)
    with pytest.raises(TypeError, match=r"^pose_b: complex numbers are not coordinates"):
        cs.distance(box, None, ball, H.astype(complex))
    with pytest.raises(TypeError, match=r"^pose_a"):
        cs.distance(box, "identity", ball, H)
    with pytest.raises(ValueError, match=r"^pose_a: a pose is a 4x4 matrix or \(R, t\), got an array of shape \[3, 3\]"):
        cs.distance(box, np.eye(3), ball, H)
    with pytest.raises(ValueError, match=r"^pose_b translation|^pose_b: a translation"):
        cs.distance(box, None, ball, (np.eye(3), [1, 2]))
    with pytest.raises(TypeError, match=r"^b: expected a collidescope shape"):
        cs.distance(box, None, "sphere", H)
    with pytest.raises(ValueError, match=r"^method: unknown algorithm 'gjkk'"):
        cs.distance(box, None, ball, H, method="gjkk")
    with pytest.raises(ValueError, match=r"^settings\['tolerence'\]: .*no such setting"):
        cs.distance(box, None, ball, H, settings={"tolerence": 1e-9})
    with pytest.raises(ValueError, match=r"^settings\['tolerance'\] is nan"):
        cs.Settings(tolerance=float("nan"))
    with pytest.raises(ValueError, match=r"^settings\['max_iterations'\]"):
        cs.Settings(max_iterations="many")
    with pytest.raises(ValueError, match=r"^settings\['epa'\]\['tolerance'\]: .*finite and > 0"):
        cs.Settings(epa={"tolerance": -1.0})
    assert "at line" not in str(pytest.raises(ValueError, cs.Settings, max_iterations="many").value)
    poses = np.array([np.eye(4), H, H])
    poses[2, 0, 0] = np.inf
    with pytest.raises(ValueError, match=r"^poses\[2\]: entry \[0, 0\] is inf"):
        cs.distances([box, ball, ball], poses, [(0, 1)])
    with pytest.raises(ValueError, match=r"^pairs\[1\] = \(0, 5\): 5 is not a shape index"):
        cs.distances([box, ball], poses[:2], [(0, 1), (0, 5)])
    with pytest.raises(ValueError, match=r"^poses: expected shape \(3, 4, 4\)"):
        cs.distances([box, ball, ball], poses[:2])


def test_settings_reach_the_run():
    a, b = cs.Ellipsoid([0.5, 0.3, 0.2]), cs.Ellipsoid([0.2, 0.4, 0.3])
    H = pose(random_rotation(RNG), [0.9, 0.3, 0.1])
    loose = cs.distance(a, None, b, H, method="gjk", settings=cs.Settings(tolerance=1e-3))
    tight = cs.distance(a, None, b, H, method="gjk", settings={"tolerance": 1e-12})
    assert loose.iterations < tight.iterations
    assert tight.upper_bound - tight.lower_bound < loose.upper_bound - loose.lower_bound


def test_the_nearest_pair_of_a_batch_opens_in_focus():
    shapes = [cs.Sphere(0.1), cs.Box([0.1, 0.1, 0.1]), cs.Sphere(0.2)]
    poses = np.array([pose(np.eye(3), [0, 0, 0]), pose(np.eye(3), [1, 0, 0]), pose(np.eye(3), [0, 0.5, 0])])
    batch = cs.distances(shapes, poses)
    nearest = int(np.argmin(batch["distance"]))
    assert nearest == 1  # spheres 0 and 2, 0.2 apart
    scene = cs.Scene.from_bodies([(s, H) for s, H in zip(shapes, poses)]).focus(nearest)
    assert scene.pairs[0] == (0, 2) and len(scene.pairs) == 3
    assert scene.run("gjk")["distance"] == pytest.approx(batch["distance"][nearest], abs=1e-9)
    with pytest.raises(IndexError, match=r"^focus: pair 3 is not one of the scene's 3 pairs"):
        scene.focus(3)


def test_the_pinocchio_example_runs():
    """python/examples/pinocchio_nearest_pair.py as a user runs it (a few configurations)."""
    import os
    import subprocess
    import sys
    pytest.importorskip("pinocchio")
    here = os.path.dirname(os.path.abspath(__file__))
    urdf = os.path.join(here, "..", "..", "..", "shared", "data", "robots", "panda_description", "urdf", "panda.urdf")
    if not os.path.exists(urdf):
        pytest.skip(f"{urdf} is absent (../shared/data)")
    example = os.path.join(here, "..", "examples", "pinocchio_nearest_pair.py")
    done = subprocess.run([sys.executable, example, "--configs", "3"], capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "collision pairs at 3 configurations" in done.stdout and "nearest: " in done.stdout
    assert "the scene's run on it: " in done.stdout


def test_a_reviewers_careless_inputs_name_the_argument():
    """The second campaign (a new user's review of issue 46)."""
    box, ball = cs.Box([0.5, 0.5, 0.5]), cs.Sphere(0.2)
    H = pose(np.eye(3), [2, 0, 0])
    with pytest.raises(TypeError, match=r"^method: a method's name"):
        cs.distance(box, None, ball, H, method=3)
    with pytest.raises(TypeError, match=r"^shapes: a list of collidescope shapes, got one Shape"):
        cs.distances(box, np.array([np.eye(4)]), [(0, 1)])
    with pytest.raises(ValueError, match=r"^Convex: expected an \(n, 3\) array"):
        cs.Convex([[0, 0, 0], [1, 0]])
    with pytest.raises(TypeError, match=r"^Sphere radius: expected 1 number, got None"):
        cs.Sphere(None)
    for bad in ("0.5", b"1", True):
        with pytest.raises(TypeError, match=r"^Sphere radius: expected 1 number"):
            cs.Sphere(bad)
    with pytest.raises(TypeError, match=r"^Box half extents: expected 3 numbers, got '123'"):
        cs.Box("123")
    with pytest.raises(ValueError, match=r"^Sphere: .*radius"):
        cs.Sphere(-1.0)
    with pytest.raises(ValueError, match=r"^Convex: point 0 lies beyond 1e75"):
        cs.Convex(np.ones((4, 3)) * 1e200)
    with pytest.raises(ValueError, match=r"^pose_a: not a rigid pose: .*is a reflection"):
        cs.distance(box, np.diag([-1.0, 1.0, 1.0, 1.0]), ball, H)
    # An f32 pose is the rotation its writer meant.
    R = random_rotation(np.random.default_rng(2))
    f32 = pose(R.astype(np.float32).astype(float), [2, 0, 0])
    assert abs(cs.distance(box, f32, ball, H).distance - cs.distance(box, pose(R, [2, 0, 0]), ball, H).distance) < 1e-6
    # No answer: said why, single and batch.
    capped = cs.distance(cs.Ellipsoid([1, 2, 3]), None, cs.Ellipsoid([2, 1, 1]), pose(R, [4, 1, 0]),
                         method="nesterov", settings=cs.Settings(max_iterations=1))
    assert capped.status == "iteration_cap" and capped.distance is None
    assert capped.reason and "iteration" in capped.reason
    batch = cs.distances([cs.Ellipsoid([1, 2, 3]), cs.Ellipsoid([2, 1, 1])],
                         np.array([np.eye(4), pose(R, [4, 1, 0])]), [(0, 1)],
                         method="nesterov", settings=cs.Settings(max_iterations=1))
    assert np.isnan(batch["distance"][0]) and "0" in batch["reasons"]
    assert batch["pairs"] == [(0, 1)]
    assert "points" in repr(cs.Convex(RNG.normal(size=(50, 3)))) and len(repr(cs.Convex(RNG.normal(size=(500, 3))))) < 100
    assert cs.__version__


def test_an_overlap_of_two_meshes_exports_a_script_coal_passes(tmp_path):
    """Coal's distance between two BVH models is 0 on an overlap (it computes no depth):
    the exported script takes that, with Coal's collision test, as agreement."""
    import subprocess
    import sys
    coal = pytest.importorskip("coal")
    v = np.array([[x, y, z] for x in (0.0, 1.0) for y in (0.0, 1.0) for z in (0.0, 1.0)])
    t = np.array([[0, 1, 3], [0, 3, 2], [4, 6, 7], [4, 7, 5], [0, 4, 5], [0, 5, 1],
                  [2, 3, 7], [2, 7, 6], [0, 2, 6], [0, 6, 4], [1, 5, 7], [1, 7, 3]])

    def bvh():
        m = coal.BVHModelOBBRSS()
        m.beginModel(len(t), len(v))
        m.addVertices(v)
        m.addTriangles(t.astype(np.int64))
        m.endModel()
        return m
    a, b = bvh(), bvh()
    M = coal.Transform3s(np.eye(3), np.array([0.5, 0.3, 0.2]))
    request, result = coal.DistanceRequest(), coal.DistanceResult()
    coal.distance(a, coal.Transform3s(), b, M, request, result)
    scene = cs.Scene.from_coal(a, coal.Transform3s(), b, M)
    assert scene.run("epa")["distance"] < 0
    script = tmp_path / "overlap.py"
    scene.export_coal(script)
    done = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=300)
    if result.min_distance == 0.0:
        assert "no depth" in done.stdout, done.stdout
    assert done.returncode == 0, done.stdout + done.stderr


def test_pairs_and_settings_out_of_range_are_named():
    shapes = [cs.Sphere(0.1), cs.Sphere(0.2)]
    poses = np.array([np.eye(4), pose(np.eye(3), [1.0, 0, 0])])
    with pytest.raises(ValueError, match=r"^pairs\[0\] = \(0, 9223372036854775808\): 9223372036854775808 is not a shape index"):
        cs.distances(shapes, poses, [(0, 2**63)])
    with pytest.raises(TypeError, match=r"^pairs\[0\]: a pair of shape indices"):
        cs.distances(shapes, poses, [(0.0, 1.0)])
    with pytest.raises(ValueError, match=r"^settings\['max_iterations'\] is 10+: too large"):
        cs.Settings(max_iterations=10**30)
    assert cs.distances(shapes, poses, np.array([[0, 1]]))["pairs"] == [(0, 1)]
