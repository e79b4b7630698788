"""MuJoCo's own view of an MJCF model, for tests/mjcf.rs: its collision geoms by id, the
geom pairs its collision filter lets through (computed from the compiled model's weld
bodies, parents, contype/conaffinity, exclusions and explicit pairs, as MuJoCo's
collision driver filters them), mj_geomDistance for every two collision geoms, the
nearest of the filter's pairs by it (the pair a model should open on), and each
geom's compiled size (a primitive fitted to a mesh is sized by the compiler).

usage: python3 tests/mjcf_oracle.py MODEL.xml [KEY]  (prints JSON; at keyframe KEY when given)
"""
import itertools, json, sys

import mujoco
import numpy as np

m = mujoco.MjModel.from_xml_path(sys.argv[1])
d = mujoco.MjData(m)
if len(sys.argv) > 2:
    mujoco.mj_resetDataKeyframe(m, d, mujoco.mj_name2id(m, mujoco.mjtObj.mjOBJ_KEY, sys.argv[2]))
mujoco.mj_forward(m, d)
name = lambda g: mujoco.mj_id2name(m, mujoco.mjtObj.mjOBJ_GEOM, g) or f"geom {g}"
unbounded = {int(t) for t in (mujoco.mjtGeom.mjGEOM_HFIELD, mujoco.mjtGeom.mjGEOM_SDF)}
explicit = {tuple(sorted((int(a), int(b)))) for a, b in zip(m.pair_geom1, m.pair_geom2)}
# A <pair> collides its geoms whatever their contype and conaffinity.
paired = {g for p in explicit for g in p}
colliding = [g for g in range(m.ngeom)
             if (m.geom_contype[g] or m.geom_conaffinity[g] or g in paired)
             and int(m.geom_type[g]) not in unbounded]
excluded = {int(s) for s in m.exclude_signature}


def filtered(g1, g2):
    """MuJoCo's filter: same weld body; a weld body and its parent's (neither the
    world); contype/conaffinity; an <exclude> of the two bodies."""
    b1, b2 = m.geom_bodyid[g1], m.geom_bodyid[g2]
    w1, w2 = m.body_weldid[b1], m.body_weldid[b2]
    p1, p2 = m.body_weldid[m.body_parentid[w1]], m.body_weldid[m.body_parentid[w2]]
    if w1 == w2:
        return True
    if w1 != 0 and w2 != 0 and (w1 == p2 or w2 == p1):
        return True
    if not (m.geom_contype[g1] & m.geom_conaffinity[g2] or m.geom_contype[g2] & m.geom_conaffinity[g1]):
        return True
    lo, hi = sorted((int(b1), int(b2)))
    return ((lo << 16) + hi) in excluded


pairs = [(g1, g2) for g1, g2 in itertools.combinations(colliding, 2)
         if (g1, g2) in explicit or not filtered(g1, g2)]
fromto = np.zeros(6)
distance = {f"{name(a)}|{name(b)}": float(mujoco.mj_geomDistance(m, d, a, b, 10.0, fromto))
            for a, b in itertools.combinations(colliding, 2)}
nearest = min(pairs, key=lambda p: distance[f"{name(p[0])}|{name(p[1])}"], default=None)
print(json.dumps({"geoms": [name(g) for g in colliding],
                  "pairs": [[name(a), name(b)] for a, b in pairs],
                  "distance": distance,
                  "nearest": None if nearest is None else [name(nearest[0]), name(nearest[1])],
                  "size": {name(g): [float(x) for x in m.geom_size[g]] for g in colliding}}))
