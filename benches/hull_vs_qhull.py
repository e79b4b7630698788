"""Hull building, ours over Qhull (scipy.spatial.ConvexHull), on the same point sets.

usage: python3 benches/hull_vs_qhull.py [--rounds 3] [--repeats 5] [--json OUT.json]

Our side is benches/hull_vs_qhull.rs, built once with `cargo bench --no-default-features
--bench hull_vs_qhull --no-run` and run with `--out DIR`: it makes the point sets (the vertices of each mesh in
../shared/data/meshes, skipped with a message when absent, and clouds of 5 000, 20 000
and 50 000 points in a ball, on a sphere and in a cube, seeded), writes them to DIR as
raw little-endian f64 triples, and times `hull::solid_hull` (parry's hull or the exact
Quickhull, checked: the hull a polytope uses) and `Polytope::from_points` (with distinct
points, span and adjacency), each the fastest of --repeats runs. This script then times
`ConvexHull(points)` on the very same numbers, the fastest of --repeats runs, and
prints ours / Qhull per set with the median over sets. The two sides take turns
--rounds times and each keeps its fastest round: on shared cores the machine has slow
spells that must not land on one side only. Exactly flat sets are skipped (Qhull
refuses them; we hull them in 2-D).
"""
import argparse, json, os, statistics, subprocess, sys, tempfile, time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)


def our_binary():
    """Builds the Rust side once (bench profile) and returns its executable."""
    target = os.environ.get("CARGO_TARGET_DIR", os.path.expanduser("~/.cache/collidescope-target"))
    built = subprocess.run(["cargo", "bench", "--no-default-features", "--bench", "hull_vs_qhull", "--no-run",
                            "--message-format=json"],
                           cwd=ROOT, check=True, capture_output=True, text=True,
                           env={**os.environ, "CARGO_TARGET_DIR": target}).stdout
    for line in built.splitlines():
        message = json.loads(line)
        if message.get("target", {}).get("name") == "hull_vs_qhull" and message.get("executable"):
            return message["executable"]
    sys.exit("cargo built no hull_vs_qhull executable")


def our_round(binary, out, repeats):
    subprocess.run([binary, "--out", out, "--repeats", str(repeats)], cwd=ROOT, check=True, stdout=sys.stderr)
    with open(os.path.join(out, "ours.json")) as f:
        return {row["name"]: row for row in json.load(f)}


def qhull_round(out, names, repeats):
    import numpy as np
    from scipy.spatial import ConvexHull
    times = {}
    for name in names:
        points = np.fromfile(os.path.join(out, name.replace(" ", "_") + ".f64"), dtype="<f8").reshape(-1, 3)
        best = float("inf")
        for _ in range(repeats):
            start = time.perf_counter()
            hull = ConvexHull(points)
            best = min(best, time.perf_counter() - start)
        times[name] = (best, len(hull.vertices))
    return times


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--json")
    args = parser.parse_args()
    try:
        import scipy  # noqa: F401
    except ImportError:
        sys.exit("scipy is needed: python3 -m pip install scipy")
    binary = our_binary()
    ours, qhull = {}, {}
    with tempfile.TemporaryDirectory() as out:
        for _ in range(args.rounds):
            for name, row in our_round(binary, out, args.repeats).items():
                if name not in ours or row["hull_s"] < ours[name]["hull_s"]:
                    ours[name] = {**row, "polytope_s": min(row["polytope_s"], ours.get(name, row)["polytope_s"])}
                else:
                    ours[name]["polytope_s"] = min(ours[name]["polytope_s"], row["polytope_s"])
            for name, (seconds, vertices) in qhull_round(out, list(ours), args.repeats).items():
                if name not in qhull or seconds < qhull[name][0]:
                    qhull[name] = (seconds, vertices)
    rows = []
    print(f"{'point set':<22} {'points':>7} {'vertices':>9} {'qhull':>6} {'ours ms':>8} {'polytope ms':>12} "
          f"{'qhull ms':>9} {'hull ratio':>11} {'polytope ratio':>15}  our hull")
    for name, row in ours.items():
        q, q_vertices = qhull[name]
        hull_ratio, polytope_ratio = row["hull_s"] / q, row["polytope_s"] / q
        rows.append({**row, "qhull_s": q, "qhull_vertices": q_vertices,
                     "hull_ratio": hull_ratio, "polytope_ratio": polytope_ratio})
        print(f"{name:<22} {row['points']:>7} {row['vertices']:>9} {q_vertices:>6} {1e3 * row['hull_s']:>8.2f} "
              f"{1e3 * row['polytope_s']:>12.2f} {1e3 * q:>9.2f} {hull_ratio:>11.2f} {polytope_ratio:>15.2f}  {row['source']}")
    for label, keep in [("meshes", lambda r: r["name"].startswith("mesh")),
                        ("clouds", lambda r: not r["name"].startswith("mesh")),
                        ("all", lambda r: True)]:
        chosen = [r for r in rows if keep(r)]
        if chosen:
            print(f"median over {len(chosen)} {label}: hull {statistics.median(r['hull_ratio'] for r in chosen):.2f}, "
                  f"polytope {statistics.median(r['polytope_ratio'] for r in chosen):.2f}")
    if args.json:
        with open(args.json, "w") as f:
            json.dump(rows, f, indent=1)


if __name__ == "__main__":
    main()
