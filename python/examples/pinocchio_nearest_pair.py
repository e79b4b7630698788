"""A robot from Pinocchio: its collision pairs at many configurations in one batch, the
nearest pair found, and that pair opened in the viewer with every step recorded.

usage: python python/examples/pinocchio_nearest_pair.py [URDF [SRDF]] [--configs 1000] [--view]

Without arguments it takes the Franka Panda of ../shared/data/robots (its URDF names its
meshes package://example-robot-data/robots/..., resolved here). Needs
`pip install ./python pin` (Pinocchio brings Coal).
"""
import argparse
import os
import tempfile
import time

import numpy as np
import pinocchio as pin

import collidescope as cs

HERE = os.path.dirname(os.path.abspath(__file__))
ROBOTS = os.path.normpath(os.path.join(HERE, "..", "..", "..", "shared", "data", "robots"))


def load(urdf, srdf):
    # Meshes named package://example-robot-data/robots/<package>/...: a package folder
    # whose `example-robot-data/robots` is the robots' folder.
    packages = tempfile.mkdtemp(prefix="collidescope-packages-")
    os.makedirs(os.path.join(packages, "example-robot-data"))
    os.symlink(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(urdf)))),
               os.path.join(packages, "example-robot-data", "robots"))
    model = pin.buildModelFromUrdf(urdf)
    geom = pin.buildGeomFromUrdf(model, urdf, pin.COLLISION, package_dirs=[packages])
    geom.addAllCollisionPairs()
    if srdf:
        pin.removeCollisionPairs(model, geom, srdf)
    return model, geom


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("urdf", nargs="?", default=os.path.join(ROBOTS, "panda_description", "urdf", "panda.urdf"))
    parser.add_argument("srdf", nargs="?", default=os.path.join(ROBOTS, "panda_description", "srdf", "panda.srdf"))
    parser.add_argument("--configs", type=int, default=1000)
    parser.add_argument("--view", action="store_true", help="open the viewer on the nearest pair")
    args = parser.parse_args()
    if not os.path.exists(args.urdf):
        raise SystemExit(f"{args.urdf}: no such file (the robots are in ../shared/data/robots)")
    model, geom = load(args.urdf, args.srdf if os.path.exists(args.srdf) else None)

    # Each link's collision geometry built once: the meshes as Pinocchio loaded them
    # (BVH models: answered as meshes, through the midphase).
    shapes = [cs.Shape.from_coal(go.geometry) for go in geom.geometryObjects]
    pairs = [(cp.first, cp.second) for cp in geom.collisionPairs]
    names = [go.name for go in geom.geometryObjects]

    # Where every link is at each configuration: Pinocchio's oMg as 4x4 arrays.
    rng = np.random.default_rng(0)
    data, gdata = model.createData(), pin.GeometryData(geom)
    lower = np.maximum(model.lowerPositionLimit, -np.pi)
    upper = np.minimum(model.upperPositionLimit, np.pi)
    configurations = lower + (upper - lower) * rng.random((args.configs, model.nq))
    poses = np.empty((args.configs, len(shapes), 4, 4))
    for c, q in enumerate(configurations):
        pin.updateGeometryPlacements(model, data, geom, gdata, q)
        for k, M in enumerate(gdata.oMg):
            poses[c, k] = M.homogeneous

    start = time.perf_counter()
    batch = cs.distances(shapes, poses, pairs)
    seconds = time.perf_counter() - start
    d = batch["distance"]
    print(f"{model.name}: {len(pairs)} collision pairs at {args.configs} configurations, "
          f"{d.size} queries in {seconds:.2f} s ({seconds / d.size * 1e6:.1f} us a query)")
    colliding = np.count_nonzero(d <= 0)
    print(f"in contact or overlapping: {colliding} pair-configurations")
    c, p = np.unravel_index(np.nanargmin(d), d.shape)
    i, j = pairs[p]
    print(f"nearest: {names[i]} and {names[j]} at configuration {c}: signed distance "
          f"{float(d[c, p])!r} ({batch['status_names'][batch['status'][c, p]]}; the distance "
          f"certified in [{float(batch['lower_bound'][c, p])!r}, {float(batch['upper_bound'][c, p])!r}])")

    # That pair as a scene: every step recorded, opened in the viewer on it.
    scene = cs.Scene.from_pinocchio(model, geom, configurations[c]).focus(p)
    run = scene.run("epa")
    print(f"the scene's run on it: {run['status']}, distance {run['distance']!r}"
          + (f", nearest {run['nearest']}" if run.get("nearest") else ""))
    if args.view:
        cs.view(scene)


if __name__ == "__main__":
    main()
