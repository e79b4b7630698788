"""What a new user meets first (a Pinocchio/Coal user's review): errors that name what
the user wrote, a mesh that is not a surface said where it is seen, the viewer missing
from a headless build said before the child fails, one layout of results for convex and
composite pairs, and the GJK tolerance a scene runs with."""
import os
import stat
import warnings

import numpy as np
import pytest

import collidescope as cs

# A closed tetrahedron with a fourth triangle on its edge 0-1: an edge of three triangles.
FIN_V = np.array([[0, 0, 0], [1, 0, 0], [0, 1, 0], [0, 0, 1], [0.5, -1, 0]], dtype=float)
FIN_T = np.array([[0, 2, 1], [0, 1, 3], [1, 2, 3], [0, 3, 2], [0, 1, 4]])
FAR = (np.eye(3), [0.0, 0.0, 5.0])


def test_a_missing_mesh_file_is_named_as_the_user_gave_it():
    with pytest.raises(FileNotFoundError, match=r"^MeshFile\('/tmp/nope/link9.stl'\): no such file$"):
        cs.MeshFile("/tmp/nope/link9.stl")


def test_a_refused_shape_is_named_by_its_argument_with_what_to_do():
    with pytest.raises(ValueError) as error:
        cs.Scene(cs.TriMesh(FIN_V, FIN_T), None, cs.Sphere(1.0), FAR)
    message = str(error.value)
    assert message.startswith("shape_a TriMesh(5 vertices, 5 triangles): the edge between "
                              "vertices 0 and 1 belongs to 3 triangles"), message
    assert "Compound([Convex(v[t]) for t in triangles])" in message, message
    assert "python-scene.ron" not in message
    with pytest.raises(ValueError, match=r"^bodies\[1\] \('fin'\) TriMesh"):
        cs.Scene.from_bodies([("ball", cs.Sphere(1.0), None), ("fin", cs.TriMesh(FIN_V, FIN_T), FAR)])


def test_from_coal_warns_when_a_mesh_becomes_a_compound():
    coal = pytest.importorskip("coal")
    mesh = coal.BVHModelOBBRSS()
    mesh.beginModel(len(FIN_T), len(FIN_V))
    mesh.addVertices(FIN_V)
    mesh.addTriangles(FIN_T.astype(np.int64))
    mesh.endModel()
    M = coal.Transform3s(np.eye(3), np.array([0.0, 0.0, 5.0]))
    with pytest.warns(cs.MeshWarning, match=r"from_coal: geom1 \(BVHModelOBBRSS\): the edge between "
                                            r"vertices 0 and 1 belongs to 3 triangles") as caught:
        scene = cs.Scene.from_coal(mesh, coal.Transform3s(), coal.Sphere(1.0), M)
    # Attributed to this file, the user's line, not the package's.
    assert caught[0].filename == os.path.abspath(__file__)
    assert "compound" in scene.notes and scene.notes == scene.file["notes"]
    assert scene.run("gjk")["nearest"].startswith("part ")


def test_convex_and_composite_runs_share_the_top_level_bracket():
    convex = cs.Scene(cs.Box([0.5, 0.5, 0.5]), None, cs.Sphere(0.25), FAR).run("gjk")
    assert convex["lower_bound"] <= convex["distance"] <= convex["upper_bound"]
    assert convex["lower_bound"] == convex["outcome"]["lower_bound"]
    composite = cs.Scene(cs.TriMesh(FIN_V[:4], FIN_T[:4]), None, cs.Sphere(0.25), FAR).run("gjk")
    assert composite["lower_bound"] <= composite["distance"] <= composite["upper_bound"]
    # Overlapping: the bracket is [0, 0] in both.
    touching = cs.Scene(cs.Sphere(1.0), None, cs.Sphere(1.0), (np.eye(3), [0.5, 0, 0])).run("gjk")
    assert (touching["lower_bound"], touching["upper_bound"]) == (0.0, 0.0)


def test_a_scene_runs_with_coals_tolerance_until_told_otherwise():
    scene = cs.Scene(cs.Ellipsoid([0.5, 0.3, 0.2]), None, cs.Ellipsoid([0.4, 0.2, 0.3]),
                     (np.eye(3), [0.3, 0.5, 0.6]))
    assert scene.settings["tolerance"] == 1e-6
    loose = scene.run("gjk")
    scene.settings["tolerance"] = 1e-12
    tight = scene.run("gjk")
    width = lambda r: r["upper_bound"] - r["lower_bound"]
    assert tight["iterations"] > loose["iterations"]
    assert width(tight) < width(loose) and width(tight) < 1e-9


def test_view_refuses_a_program_built_without_the_viewer(tmp_path, monkeypatch):
    program = tmp_path / "collidescope"
    program.write_text("#!/bin/sh\necho 'Commands:'\necho '  solve  Run a scene'\n"
                       "echo '  mesh   Import a mesh'\nexit 0\n")
    program.chmod(program.stat().st_mode | stat.S_IEXEC)
    monkeypatch.setattr(cs, "_program", lambda: str(program))
    with pytest.raises(RuntimeError, match="built without the viewer.*cargo install --path ."):
        cs.view(cs.Scene(cs.Sphere(1.0), None, cs.Sphere(1.0), FAR))


def test_a_coal_convex_that_is_not_convex_is_said_with_how_far_its_hull_reaches():
    """An L-shaped prism built as a Coal Convex from its own points and polygons (no
    hull step): Coal answers as on its hull; the scene says the object is not convex,
    which vertex lies how far beyond which polygon's plane, and what to build instead. A
    proper hull says nothing."""
    coal = pytest.importorskip("coal")
    import numpy as np
    outline = [(0, 0), (2, 0), (2, 1), (1, 1), (1, 2), (0, 2)]
    points = coal.StdVec_Vec3s()
    for z in (0.0, 1.0):
        for x, y in outline:
            points.append(np.array([x, y, z], dtype=float))
    polygons = coal.StdVec_Triangle()
    n = len(outline)
    for a, b, c in [(0, 1, 2), (0, 2, 3), (0, 3, 4), (0, 4, 5)]:
        polygons.append(coal.Triangle(a, c, b))
        polygons.append(coal.Triangle(a + n, b + n, c + n))
    for i in range(n):
        j = (i + 1) % n
        polygons.append(coal.Triangle(i, j, j + n))
        polygons.append(coal.Triangle(i, j + n, i + n))
    ell = coal.Convex(points, polygons)
    ball = coal.Transform3s(np.eye(3), np.array([1.5, 1.5, 0.5]))
    with pytest.warns(cs.MeshWarning, match=r"not convex: vertex \d+ lies 1 beyond") as caught:
        scene = cs.Scene.from_coal(ell, coal.Transform3s(), coal.Sphere(0.2), ball)
    assert "convexHull" in str(caught[0].message)
    assert "not convex" in scene.notes
    hull = coal.Convex.convexHull(points, True, "Qt")
    import warnings
    with warnings.catch_warnings():
        warnings.simplefilter("error", cs.MeshWarning)
        cs.Scene.from_coal(hull, coal.Transform3s(), coal.Sphere(0.2), ball)


def test_scene_arguments_are_named_when_refused():
    """A reviewer's careless inputs through the scene API (issue 46): NaN, complex, text,
    a missing pose, a setting of the wrong kind, an offset past the size cap."""
    ball = cs.Sphere(0.5)
    nan_pose = np.eye(4); nan_pose[0, 3] = np.nan
    with pytest.raises(ValueError, match=r"^pose_b: entry \[0, 3\] is NaN"):
        cs.Scene(ball, None, ball, nan_pose)
    with pytest.raises(ValueError, match=r"^pose_b: its translation 1e\+?250 is beyond 1e75|^pose_b: its translation 1e250"):
        cs.Scene(ball, None, ball, (np.eye(3), [0.0, 1e250, 0.0]))
    with pytest.raises(TypeError, match=r"^Sphere radius: complex numbers"):
        cs.Sphere(1 + 2j)
    with pytest.raises(TypeError, match=r"^Box half extents: expected 3 numbers, got 'big'"):
        cs.Box("big")
    with pytest.raises(ValueError, match=r"^Box half extents: entry 1 is inf"):
        cs.Box([1.0, np.inf, 1.0])
    with pytest.raises(TypeError, match=r"^pose_a: a pose is a 4x4 matrix"):
        cs.Scene(ball, "here", ball, None)
    with pytest.raises(ValueError, match=r"^settings\['max_iterations'\]") as error:
        cs.Scene(ball, None, ball, (np.eye(3), [2.0, 0, 0]), settings={"max_iterations": "ten"})
    assert "column" not in str(error.value)
    coal = pytest.importorskip("coal")
    with pytest.raises(TypeError, match=r"^from_coal: M1: missing"):
        cs.Scene.from_coal(coal.Sphere(1.0), None, coal.Sphere(1.0), coal.Transform3s())
    with pytest.raises(ValueError, match=r"^from_coal: M2: holds NaN \(a pose is finite\)"):
        cs.Scene.from_coal(coal.Sphere(1.0), coal.Transform3s(), coal.Sphere(1.0),
                           coal.Transform3s(np.eye(3), np.array([0.0, 0.0, np.nan])))


def test_a_non_convex_coal_convex_is_exported_as_built_and_fails_while_coal_is_wrong(tmp_path):
    """Pinocchio's `buildConvexRepresentation` without `buildConvexHull` makes a Coal
    Convex of a mesh's own triangles (Suzanne's here: not convex), on which Coal's
    hill-climbing GJK answers wrongly. The scene answers on the hull and says so; the
    exported script rebuilds the object as the user built it (the same points and
    polygons), so it reproduces Coal's wrong answer, exits 1 and says what to change.
    The same mesh's proper hull exports a script that passes."""
    import subprocess
    import sys
    coal = pytest.importorskip("coal")
    path = os.path.join(os.path.dirname(__file__), "..", "..", "..", "shared", "data", "meshes", "suzanne.obj")
    if not os.path.exists(path):
        pytest.skip(f"{path} is absent (../shared/data)")
    model = coal.MeshLoader().load(path)
    model.buildConvexRepresentation(False)
    raw = model.convex
    model.buildConvexHull(True, "Qt")
    hull = model.convex
    request, result = coal.DistanceRequest(), coal.DistanceResult()
    rng = np.random.default_rng(4)
    ball = coal.Sphere(0.1)
    for _ in range(200):  # a pose where Coal on the object as built is off by 1 cm or more
        M = coal.Transform3s(np.eye(3), rng.normal(size=3) * 3.0)
        result.clear()
        wrong = coal.distance(raw, coal.Transform3s(), ball, M, request, result)
        result.clear()
        right = coal.distance(hull, coal.Transform3s(), ball, M, request, result)
        if right > 0 and abs(wrong - right) > 1e-2:
            break
    else:
        pytest.skip("Coal answered right on this object at every pose tried")
    with pytest.warns(cs.MeshWarning, match="not convex"):
        scene = cs.Scene.from_coal(raw, coal.Transform3s(), ball, M)
    assert scene.run("epa")["distance"] == pytest.approx(right, abs=1e-5)
    script = tmp_path / "as_built.py"
    scene.export_coal(script)
    text = script.read_text()
    assert "as_built([" in text and "convexHull(vector" in text  # the helper both scripts carry
    done = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=300)
    assert done.returncode == 1, done.stdout + done.stderr
    assert repr(wrong) in done.stdout, done.stdout  # Coal's own wrong answer, reproduced
    assert "is not convex" in done.stdout and "buildConvexHull(True, 'Qt')" in done.stdout, done.stdout
    # Saved and loaded, the scene keeps the object as built.
    scene.save(tmp_path / "as_built.ron")
    again = cs.Scene.load(tmp_path / "as_built.ron")
    assert again.file["bodies"][0]["shape"]["Polytope"]["polygons"] == scene.file["bodies"][0]["shape"]["Polytope"]["polygons"]
    # The hull, exported the same way, passes.
    fixed = cs.Scene.from_coal(hull, coal.Transform3s(), ball, M)
    fixed.export_coal(tmp_path / "hull.py")
    done = subprocess.run([sys.executable, str(tmp_path / "hull.py")], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "not convex" not in done.stdout
