"""New mesh-hull problem files answered by Coal: Collidescope's
iteration counts are compared with Coal's on hulls and poses it was never tuned on.

    pip install coal
    python3 benches/coal_mesh_problems.py SEED OUT.json [--shapes 12] [--problems 800]
    cargo run --release -- bench --problems OUT.json --json > ours.json
    python3 ../shared/tools/compare_coal.py OUT.json ours.json

Shapes are hulls (built by Coal, so its Qhull vertex order) of point clouds of six
kinds: points on an ellipsoid, in a cube, on a superquadric, on a coarse lattice (ties
and points on common planes), on a bumpy sphere, near a cylinder's rims; each centred
and scaled to a radius in [0.1, 1]. Each random pair and rotation is placed at the
eight signed distances of the shared mesh sample (B moved along the normal of Coal's
nearest points), and Coal 3's GJK answers each with the shared file's settings
(duality gap, absolute, 1e-8, 1000 iterations, initial guess -b_translation)."""
import argparse, json, math, random

import numpy as np
import coal

KEEP = []  # Coal's hull may refer to its input vector: keep each alive


def coal_hull(vertices):
    points = coal.StdVec_Vec3s()
    for v in vertices:
        points.append(np.array(v, dtype=float))
    KEEP.append(points)
    return coal.Convex.convexHull(points, False, "Qt")


VARIANTS = {
    "gjk": (coal.GJKVariant.DefaultGJK, False),
    "nesterov": (coal.GJKVariant.NesterovAcceleration, False),
    "nesterov_normalized": (coal.GJKVariant.NesterovAcceleration, True),
}


def coal_gjk(a, b, rotation, translation, variant, normalise):
    md = coal.MinkowskiDiff()
    md.set(a, b, coal.Transform3s(), coal.Transform3s(rotation, translation), False)
    md.normalize_support_direction = normalise
    gjk = coal.GJK(1000, 1e-8)
    gjk.gjk_variant = variant
    gjk.convergence_criterion = coal.GJKConvergenceCriterion.DualityGap
    gjk.convergence_criterion_type = coal.GJKConvergenceCriterionType.Absolute
    status = gjk.evaluate(md, -translation, np.array([0, 0], dtype=np.int32))
    return {"iterations": gjk.getNumIterations(),
            "status": str(status).split(".")[-1], "distance": gjk.distance}


def unit(rng):
    v = np.array([rng.gauss(0, 1) for _ in range(3)])
    return v / np.linalg.norm(v)


def cloud(rng, kind, n):
    if kind == "ellipsoid":
        radii = np.array([rng.uniform(0.5, 1.5) for _ in range(3)])
        return [radii * unit(rng) for _ in range(n)]
    if kind == "cube":
        return [np.array([rng.uniform(-1, 1) for _ in range(3)]) for _ in range(n)]
    if kind == "superquadric":
        e = rng.uniform(0.3, 3.0)
        return [np.sign(v) * np.abs(v) ** e for v in (unit(rng) for _ in range(n))]
    if kind == "lattice":
        return [np.array([round(rng.gauss(0, 1), 1) for _ in range(3)]) for _ in range(n)]
    if kind == "bumpy":
        out = []
        for _ in range(n):
            v = unit(rng)
            out.append(v * (1 + 0.2 * math.sin(5 * v[0]) * math.cos(3 * v[1])))
        return out
    t = [rng.uniform(0, 2 * math.pi) for _ in range(n)]
    return [np.array([math.cos(a), rng.choice([-1.0, 1.0]) * rng.uniform(0.9, 1.0),
                      math.sin(a)]) for a in t]


KINDS = ["ellipsoid", "cube", "superquadric", "lattice", "bumpy", "cylinder"]


def rotation(rng):
    w, x, y, z = unit4 = np.array([rng.gauss(0, 1) for _ in range(4)]) / 1.0
    n = np.linalg.norm(unit4)
    w, x, y, z = w / n, x / n, y / n, z / n
    return np.array([[1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)],
                     [2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)],
                     [2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)]])


def placed(a, b, rot, direction, target):
    start = direction * 4.0
    request, result = coal.DistanceRequest(), coal.DistanceResult()
    coal.distance(a, coal.Transform3s(), b, coal.Transform3s(rot, start), request, result)
    return start - np.array(result.normal) * (result.min_distance - target)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("seed", type=int)
    ap.add_argument("out")
    ap.add_argument("--shapes", type=int, default=12)
    ap.add_argument("--problems", type=int, default=800)
    args = ap.parse_args()
    rng = random.Random(args.seed)
    shapes_json, hulls = [], []
    for k in range(args.shapes):
        kind = KINDS[k % len(KINDS)]
        points = np.unique(np.round(np.array(cloud(rng, kind, rng.randint(60, 900))), 12), axis=0)
        points = points - points.mean(axis=0)
        points *= rng.uniform(0.1, 1.0) / np.max(np.linalg.norm(points, axis=1))
        hull = coal_hull(points.tolist())
        vertices = [list(map(float, p)) for p in np.array(hull.points())]
        shapes_json.append({"convex_hull": {"source": f"{kind} (seed {args.seed})",
                                            "vertices": vertices}})
        hulls.append(coal_hull(vertices))
    targets = [-0.1, -0.01, -1e-3, -1e-4, 1e-4, 1e-3, 0.01, 0.1]
    problems = []
    while len(problems) < args.problems:
        a, b = rng.randrange(len(hulls)), rng.randrange(len(hulls))
        rot, direction = rotation(rng), unit(rng)
        for target in targets:
            t = placed(hulls[a], hulls[b], rot, direction, target)
            problems.append({
                "a": a, "b": b, "b_rotation": rot.tolist(), "b_translation": t.tolist(),
                "target_distance": target,
                "coal": {name: coal_gjk(hulls[a], hulls[b], rot, t, v, norm)
                         for name, (v, norm) in VARIANTS.items()},
            })
    json.dump({"tolerance": 1e-8, "criterion": "duality_gap_absolute", "max_iterations": 1000,
               "shapes": shapes_json, "problems": problems}, open(args.out, "w"))
    print(f"{args.out}: {len(hulls)} hulls, {len(problems)} problems")


if __name__ == "__main__":
    main()
