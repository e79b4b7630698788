"""Time per mesh query of ours over Coal's BVH distance, same meshes and poses, back to back.

usage: python3 benches/mesh_vs_coal.py [--rounds 5] [--repeats 20] [--dir DIR] [--slack 1e-6]

The meshes, ball/box size and 100 seeded poses of `benches/mesh_vs_parry.rs` (cow,
teapot, Stanford bunny from ../shared/data/meshes) are written once as plain-text
problem files (`mesh_vs_coal write DIR`, the bench binary of benches/mesh_vs_coal.rs
built with `cargo bench --no-run`, the profile of the parry table). Then, per round and
mesh, ours (`mesh_vs_coal time FILE REPEATS`: `composite_convex_distance`, vanilla GJK,
the benchmark settings) and Coal's C++ (benches/coal_mesh_time.cpp, built here against
the Coal of ../shared/tools/coal_setup.sh: `coal::distance` on a BVHModel<OBBRSS> and a
Sphere / Box) each time `REPEATS` passes over the 100 poses and report the median pass;
the two programs alternate which goes first, and each side keeps its fastest round (on
two shared cores the machine has slow spells that must not land on one side only).

Prints the table (time for the 100 queries; ratio = ours / Coal, below 1 we are faster)
for Coal's default DistanceRequest, the same for Coal's `unsigned` and `matched`
requests (see coal_mesh_time.cpp), and the distance check: ours is certified (a bracket
[lower, upper]; upper 0 on overlap), so Coal's distance d should lie in it up to a
slack s = SLACK x max(|d|, 1e-3 x the ball's radius) (Coal's GJK stops at a relative
1e-6 by default). On overlap Coal answers 0 or a negative signed distance (that of the
first overlapping triangle its traversal meets), which agrees when ours' upper is
0. Disagreements are listed as findings; the script does not fail on them.
"""
import argparse, json, os, statistics, subprocess, sys, tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
SHARED = os.path.join(os.path.dirname(ROOT), "shared")
if not os.path.isdir(SHARED):  # a worktree elsewhere than beside the main checkout
    SHARED = "/work/shared"
REQUESTS = ["default", "unsigned", "matched"]
SHAPES = ["ball", "box"]
NAMES = {"cow": "cow", "teapot": "teapot", "stanford-bunny": "Stanford bunny"}


def coal_binary():
    """Coal's venv (coal_setup.sh) and coal_mesh_time built in it, as coal_time is."""
    venv = subprocess.run(["bash", os.path.join(SHARED, "tools", "coal_setup.sh")], check=True,
                          capture_output=True, text=True).stdout.split()[-1]
    prefix = subprocess.run([os.path.join(venv, "bin", "python"), "-c",
                             "import cmeel, os; print(os.path.join(os.path.dirname(cmeel.__file__), '..', 'cmeel.prefix'))"],
                            check=True, capture_output=True, text=True).stdout.strip()
    src = os.path.join(HERE, "coal_mesh_time.cpp")
    exe = os.path.join(venv, "coal_mesh_time")
    if not os.path.exists(exe) or os.path.getmtime(src) > os.path.getmtime(exe):
        subprocess.run(["g++", "-O2", "-std=c++17", "-Wno-deprecated-declarations", "-I" + os.path.join(prefix, "include"),
                        "-I/usr/include/eigen3", src, "-L" + os.path.join(prefix, "lib"), "-lcoal",
                        "-Wl,-rpath," + os.path.join(prefix, "lib"), "-o", exe], check=True)
    version = subprocess.run([os.path.join(venv, "bin", "pip"), "show", "coal"], check=True,
                             capture_output=True, text=True).stdout.split("\n")[1].split()[-1]
    return exe, version


def our_binary():
    """The bench binary of benches/mesh_vs_coal.rs (bench profile, core only)."""
    out = subprocess.run(["cargo", "bench", "--no-default-features", "--bench", "mesh_vs_coal", "--no-run",
                          "--message-format=json"], cwd=ROOT, check=True, capture_output=True, text=True).stdout
    for line in out.split("\n"):
        if line.startswith("{"):
            m = json.loads(line)
            if m.get("reason") == "compiler-artifact" and m["target"]["name"] == "mesh_vs_coal" and m.get("executable"):
                return m["executable"]
    sys.exit("no mesh_vs_coal executable in cargo's output")


def run(cmd):
    return [l.split() for l in subprocess.run(cmd, check=True, capture_output=True, text=True).stdout.split("\n") if l.strip()]


def ours(exe, path, repeats):
    rows = run([exe, "time", path, str(repeats)])
    d = {(f[1], int(f[2])): (float(f[3]), float(f[4])) for f in rows if f[0] == "d"}
    p = {(f[1], int(f[2])): float(f[3]) for f in rows if f[0] == "p"}
    t = {f[1]: float(f[2]) for f in rows if f[0] == "t"}
    return d, p, t


def coal(exe, path, repeats):
    rows = run([exe, path, str(repeats)])
    d = {(f[1], f[2], int(f[3])): float(f[4]) for f in rows if f[0] == "d"}
    p = {(f[1], f[2], int(f[3])): float(f[4]) for f in rows if f[0] == "p"}
    t = {(f[1], f[2]): float(f[3]) for f in rows if f[0] == "t"}
    return d, p, t


def header(path):
    """Triangle count and ball/box size of a problem file."""
    with open(path) as f:
        words = f.read().split()
    return int(words[words.index("triangles") + 1]), float(words[words.index("size") + 1])


def ms(s):
    return f"{s * 1e3:.3g} ms"


def main():
    a = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    a.add_argument("--rounds", type=int, default=5)
    a.add_argument("--repeats", type=int, default=20)
    a.add_argument("--dir", help="where the problem files go (default: a temporary folder)")
    a.add_argument("--slack", type=float, default=1e-6)
    args = a.parse_args()
    coal_exe, version = coal_binary()
    our_exe = our_binary()
    folder = args.dir or tempfile.mkdtemp(prefix="mesh_vs_coal_")
    files = [l[0] for l in run([our_exe, "write", folder])]
    print(f"Coal {version}; problem files in {folder}", flush=True)
    best_ours = {f: {} for f in files}
    best_coal = {f: {} for f in files}
    rounds_ours = {f: {s: [] for s in SHAPES} for f in files}
    rounds_coal = {f: {(q, s): [] for q in REQUESTS for s in SHAPES} for f in files}
    dists = {}
    each_ours = {f: {} for f in files}  # per query: its median over the repeats, in the fastest round
    each_coal = {f: {} for f in files}
    for r in range(args.rounds):
        for f in files:
            order = [0, 1] if (r + files.index(f)) % 2 == 0 else [1, 0]
            for side in order:
                if side == 0:
                    d, p, t = ours(our_exe, f, args.repeats)
                    dists.setdefault(f, [None, None])[0] = d
                    for s, v in t.items():
                        rounds_ours[f][s].append(v)
                        if v <= best_ours[f].get(s, v):
                            best_ours[f][s] = v
                            each_ours[f].update({k: w for k, w in p.items() if k[0] == s})
                else:
                    d, p, t = coal(coal_exe, f, args.repeats)
                    dists.setdefault(f, [None, None])[1] = d
                    for k, v in t.items():
                        rounds_coal[f][k].append(v)
                        if v <= best_coal[f].get(k, v):
                            best_coal[f][k] = v
                            each_coal[f].update({j: w for j, w in p.items() if j[:2] == k})
        print(f"round {r + 1}/{args.rounds} done", file=sys.stderr, flush=True)

    for q in REQUESTS:
        print(f"\nCoal's request: {q}; time for the 100 queries (fastest round's median of {args.repeats} passes)\n")
        print("| mesh | triangles | ours, ball | Coal, ball | ratio | ours, box | Coal, box | ratio |")
        print("|---|---|---|---|---|---|---|---|")
        for f in files:
            stem = os.path.basename(f)[:-4]
            n, _ = header(f)
            cells = []
            for s in SHAPES:
                o, c = best_ours[f][s], best_coal[f][(q, s)]
                cells += [ms(o), ms(c), f"{o / c:.2f}"]
            print(f"| {NAMES.get(stem, stem)} | {n:,}".replace(",", " ") + " | " + " | ".join(cells) + " |")

    print("\nround medians (ms for 100 queries), ours | Coal default:")
    for f in files:
        for s in SHAPES:
            o = " ".join(f"{v * 1e3:.3g}" for v in rounds_ours[f][s])
            c = " ".join(f"{v * 1e3:.3g}" for v in rounds_coal[f][("default", s)])
            print(f"  {os.path.basename(f)[:-4]} {s}: {o} | {c}")

    print("\nper query (median over the poses of each query's median, fastest round), "
          "over the poses ours finds overlapping | separated:")
    print("| mesh | shape | overlapping | ours | Coal default | Coal unsigned | separated | ours | Coal default | Coal unsigned |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for f in files:
        stem = os.path.basename(f)[:-4]
        od = dists[f][0]
        for s in SHAPES:
            cells = []
            for band in (lambda i: od[(s, i)][1] == 0, lambda i: od[(s, i)][1] > 0):
                poses = [i for (k, i) in od if k == s and band(i)]
                cells.append(str(len(poses)))
                for table, key in ((each_ours[f], lambda i: (s, i)), (each_coal[f], lambda i: ("default", s, i)),
                                   (each_coal[f], lambda i: ("unsigned", s, i))):
                    cells.append(f"{statistics.median(table[key(i)] for i in poses) * 1e6:.3g} µs" if poses else "-")
            print(f"| {NAMES.get(stem, stem)} | {s} | " + " | ".join(cells) + " |")

    print("\ndistances (ours' bracket against Coal's answer):")
    for f in files:
        stem = os.path.basename(f)[:-4]
        _, size = header(f)
        od, cd = dists[f]
        for s in SHAPES:
            poses = sorted(i for (k, i) in od if k == s)
            overlap = sum(1 for i in poses if od[(s, i)][1] == 0)
            for q in REQUESTS:
                bad, worst, width = [], 0.0, 0.0
                for i in poses:
                    lo, up = od[(s, i)]
                    d = cd[(q, s, i)]
                    slack = args.slack * max(abs(d), 1e-3 * size)  # size: the ball's radius
                    width = max(width, up - lo)
                    if up == 0:
                        ok = d <= slack
                        off = max(0.0, d)
                    else:
                        ok = lo - slack <= d <= up + slack
                        off = max(lo - d, d - up, 0.0)
                    worst = max(worst, off)
                    if not ok:
                        bad.append((i, lo, up, d))
                neg = sum(1 for i in poses if cd[(q, s, i)] < 0)
                zero = sum(1 for i in poses if cd[(q, s, i)] == 0)
                print(f"  {stem} {s} [{q}]: ours overlap {overlap}/{len(poses)}, Coal < 0: {neg}, = 0: {zero}; "
                      f"widest bracket of ours {width:.2e}; Coal's largest step outside it {worst:.2e}; disagreements {len(bad)}")
                for i, lo, up, d in bad:
                    print(f"    pose {i}: ours [{lo:.17g}, {up:.17g}], Coal {d:.17g}")


if __name__ == "__main__":
    main()
