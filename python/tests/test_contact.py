"""Contact manifolds from Python: the manifold of `Scene.run("contact")`, and our
replica of Coal's contact patch (`contact_coal`) against Coal's own
`computeContactPatch` fed the same contact (normal, point, depth), on boxes, convex
hulls, cylinders and capsules at random poses in contact."""

import numpy as np
import pytest

import collidescope as cs

coal = pytest.importorskip("coal")


def _rotation(rng, angle):
    axis = rng.normal(size=3)
    axis /= np.linalg.norm(axis)
    k = np.array([[0, -axis[2], axis[1]], [axis[2], 0, -axis[0]], [-axis[1], axis[0], 0]])
    return np.eye(3) + np.sin(angle) * k + (1 - np.cos(angle)) * k @ k


def _coal_patch(g1, tf1, g2, tf2, world):
    """Coal's patch for the contact we certified (our normal, midpoint and depth: the
    run's `manifold_world`), in the world frame."""
    point = world["points"][0]
    on_a = np.asarray(point["on_a"], dtype=float)
    on_b = np.asarray(point["on_b"], dtype=float)
    normal = np.asarray(world["certified_normal"], dtype=float)
    signed = -float(normal @ (on_a - on_b))
    contact = coal.Contact(g1, g2, -1, -1, 0.5 * (on_a + on_b), normal, signed)
    result = coal.CollisionResult()
    result.addContact(contact)
    request = coal.ContactPatchRequest()
    patches = coal.ContactPatchResult(request)
    coal.computeContactPatch(g1, tf1, g2, tf2, result, request, patches)
    patch = patches.getContactPatch(0)
    return np.array([patch.getPointShape1(i) for i in range(patch.size())])


def _same_set(p, q, tolerance):
    if len(p) != len(q):
        return False
    return all(np.min(np.linalg.norm(q - x, axis=1)) <= tolerance for x in p) and all(
        np.min(np.linalg.norm(p - x, axis=1)) <= tolerance for x in q)


def _cases(rng):
    slab = coal.Box(4.0, 4.0, 1.0)
    cube = coal.Box(1.0, 1.0, 1.0)
    cylinder = coal.Cylinder(0.4, 1.0)
    capsule = coal.Capsule(0.2, 1.2)
    cloud = rng.uniform(-0.5, 0.5, size=(20, 3))
    points = coal.StdVec_Vec3s()
    for p in cloud:
        points.append(np.array(p))
    hull = coal.Convex.convexHull(points, False, None)
    _cases.keep = points
    for k in range(40):
        tilt = rng.choice([0.0, 1e-4, 3e-4, 0.3])
        # B above the slab, resting on a face, a cap, a side or a hull's facet.
        yield slab, cube, _rotation(rng, tilt), [rng.uniform(-1.5, 1.5), rng.uniform(-1.5, 1.5),
                                                  1.0 - rng.uniform(1e-4, 5e-3)]
        yield slab, cylinder, _rotation(rng, tilt), [0.2, -0.1, 1.0 - rng.uniform(1e-4, 5e-3)]
        lying = np.array([[1.0, 0, 0], [0, 0, -1.0], [0, 1.0, 0]]) @ _rotation(rng, tilt)
        yield slab, cylinder, lying, [0.1, 0.0, 0.9 - rng.uniform(1e-4, 5e-3)]
        yield slab, capsule, lying, [0.1, 0.0, 0.7 - rng.uniform(1e-4, 5e-3)]
        turn = _rotation(rng, rng.uniform(0, np.pi))
        lowest = min((turn @ v)[2] for v in cloud)
        yield slab, hull, turn, [0.3, 0.2, 0.5 - lowest - rng.uniform(1e-4, 5e-3)]


def test_coal_patch_replica_matches_coals_compute_contact_patch():
    rng = np.random.default_rng(7)
    compared = 0
    for g1, g2, rotation, translation in _cases(rng):
        tf1 = coal.Transform3s(_rotation(rng, rng.uniform(0, np.pi)), rng.uniform(-3, 3, 3))
        tf2 = tf1 * coal.Transform3s(rotation, np.asarray(translation, dtype=float))
        scene = cs.Scene.from_coal(g1, tf1, g2, tf2)
        run = scene.run("contact_coal")
        world = run.get("manifold_world")
        if world is None:
            continue
        ours = np.array([np.asarray(p["on_a"], dtype=float) for p in world["points"]])
        theirs = _coal_patch(g1, tf1, g2, tf2, world)
        assert _same_set(ours, theirs, 1e-9), (type(g2).__name__, ours, theirs)
        compared += 1
    assert compared >= 150, compared


def _touching(g1, g2, rotation, direction):
    """B turned by `rotation` and moved along `direction` until it touches A (Coal's
    distance, bisected), then 1e-3 deeper."""
    lo, hi = 0.0, 4.0
    for _ in range(60):
        mid = 0.5 * (lo + hi)
        found = coal.DistanceResult()
        coal.distance(g1, coal.Transform3s(), g2, coal.Transform3s(rotation, direction * mid),
                      coal.DistanceRequest(), found)
        lo, hi = (lo, mid) if found.min_distance > 0 else (mid, hi)
    return direction * (lo - 1e-3)


def test_coal_patch_replica_matches_coal_at_random_contacts():
    # Edges, sides and corners at any angle: the segment-segment branch, clipping of
    # sampled caps by boxes, a single point.
    rng = np.random.default_rng(3)
    shapes = [coal.Box(1.0, 0.6, 0.8), coal.Cylinder(0.4, 1.0), coal.Capsule(0.2, 1.2),
              coal.Cone(0.4, 1.0)]
    sizes = set()
    for k in range(320):
        g1, g2 = shapes[k % 4], shapes[(k // 4) % 4]
        rotation = _rotation(rng, rng.uniform(0, np.pi))
        direction = rng.normal(size=3)
        direction /= np.linalg.norm(direction)
        tf1 = coal.Transform3s(_rotation(rng, rng.uniform(0, np.pi)), rng.uniform(-3, 3, 3))
        tf2 = tf1 * coal.Transform3s(rotation, _touching(g1, g2, rotation, direction))
        world = cs.Scene.from_coal(g1, tf1, g2, tf2).run("contact_coal").get("manifold_world")
        if world is None:
            continue
        ours = np.array([np.asarray(p["on_a"], dtype=float) for p in world["points"]])
        theirs = _coal_patch(g1, tf1, g2, tf2, world)
        assert _same_set(ours, theirs, 1e-9), (type(g1).__name__, type(g2).__name__, ours, theirs)
        sizes.add(len(ours))
    assert {1, 2} <= sizes, sizes


def test_contact_run_returns_a_certified_manifold_on_the_exact_contact_region():
    # A unit cube 5e-3 deep in a slab, turned 45 degrees over its edge: the region is the
    # pentagon where the two faces meet; Jolt's rule keeps four of its corners.
    scene = cs.Scene.load("scenes/contact_box_over_edge.ron")
    run = scene.run("contact")
    m = run["manifold"]
    assert m["uncertified"] is None
    assert len(m["points"]) == 4
    for p in m["points"]:
        on_a = np.asarray(p["on_a"], dtype=float)
        assert abs(on_a[2] - 0.5) < 1e-12 and on_a[0] <= 2.0 + 1e-12
        assert abs(p["depth"] - 5e-3) < 1e-12
    coal_run = scene.run("contact_coal")
    assert len(coal_run["manifold"]["points"]) == 5
