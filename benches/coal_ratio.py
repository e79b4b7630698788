"""Time per query of our GJK family over Coal 3.0's C++ GJK, on problem files, back to back.

usage: python3 benches/coal_ratio.py [FILE.json ...] [--repeats 50] [--rounds 3] [--chunk 24] [--json OUT.json]

For each problem file (default: ../shared/data/problems/{ellipsoids,meshes}_sample.json)
it runs Coal's C++ timing program (../shared/tools/coal_setup.sh builds it; it times
`gjk.reset + gjk.evaluate` per query, mean of the fastest 90 % of the repeats), then
`collidescope bench --problems FILE --timing --json` built with the `fast` profile
(same statistic, our query including the relative pose), and prints per algorithm and distance band (overlap,
close: 0 < d <= 0.1, far: d > 0.1) the median over problems of ours / Coal, and whether
the iteration counts are equal. The two programs take the problems `--chunk` at a time,
alternately, `--rounds` times over, and each problem keeps its fastest round on each
side: on shared cores the machine has slow spells of seconds to minutes, which must not
land on one side only. Exits 1 if any iteration count differs
from Coal's timing run.
"""
import argparse, json, os, statistics, subprocess, sys, tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
SHARED = os.path.join(os.path.dirname(ROOT), "shared")
ALGORITHMS = ["gjk", "nesterov", "nesterov_normalized"]
BANDS = [("overlap", lambda d: d < 0), ("close", lambda d: 0 < d <= 0.1), ("far", lambda d: d > 0.1)]


def collidescope_binary():
    """The core CLI built with the `fast` profile (fat LTO, one codegen unit): rebuilt
    when the sources changed, a few minutes from scratch."""
    target = os.environ.get("CARGO_TARGET_DIR", os.path.expanduser("~/.cache/collidescope-target"))
    subprocess.run(["cargo", "build", "--profile", "fast", "--no-default-features", "--bin", "collidescope"],
                   cwd=ROOT, check=True, env={**os.environ, "CARGO_TARGET_DIR": target})
    return os.path.join(target, "fast", "collidescope")


def coal_times(venv, path, repeats):
    flat = path + ".flat.txt"
    subprocess.run([os.path.join(venv, "bin", "python"), os.path.join(SHARED, "tools", "problems_to_flat.py"), path, flat], check=True)
    out = subprocess.run([os.path.join(venv, "coal_time"), flat, str(repeats)], check=True, capture_output=True, text=True).stdout
    os.remove(flat)
    rows = {}
    for line in out.split("\n"):
        f = line.split()
        if not f:
            continue
        rows[int(f[0])] = {alg: (int(f[2 + 3 * k]), float(f[4 + 3 * k])) for k, alg in enumerate(ALGORITHMS)}
    return rows


def our_times(binary, path):
    cmd = [binary, "bench", "--problems", path, "--timing", "--json"]
    for alg in ALGORITHMS:
        cmd += ["--algorithm", alg]
    out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
    return {r["index"]: {alg: (r["algorithms"][alg]["iterations"], r["algorithms"][alg]["seconds_per_query"]) for alg in ALGORITHMS}
            for r in json.loads(out)["results"]}


def chunk_files(path, size, workdir):
    """The problem file cut into files of `size` problems (same shapes), with the index
    of each chunk's first problem."""
    data = json.load(open(path))
    problems = data["problems"]
    chunks = []
    for start in range(0, len(problems), size):
        part = dict(data, problems=problems[start:start + size])
        name = os.path.join(workdir, f"chunk{start}.json")
        json.dump(part, open(name, "w"))
        chunks.append((start, name))
    return chunks


def keep_fastest(side, start, times):
    for i, row in times.items():
        kept = side.setdefault(start + i, row)
        side[start + i] = {alg: min(kept[alg], row[alg], key=lambda r: r[1]) for alg in ALGORITHMS}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("files", nargs="*")
    ap.add_argument("--repeats", type=int, default=50)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--chunk", type=int, default=24)
    ap.add_argument("--json")
    a = ap.parse_args()
    files = a.files or [os.path.join(SHARED, "data", "problems", f) for f in ["ellipsoids_sample.json", "meshes_sample.json"]]
    venv = subprocess.run(["bash", os.path.join(SHARED, "tools", "coal_setup.sh")], check=True, capture_output=True, text=True).stdout.split()[-1]
    binary = collidescope_binary()
    report, ok = {}, True
    for path in files:
        problems = json.load(open(path))["problems"]
        coal, ours = {}, {}
        with tempfile.TemporaryDirectory() as workdir:
            chunks = chunk_files(path, a.chunk, workdir)
            for _ in range(a.rounds):
                for start, chunk in chunks:
                    keep_fastest(coal, start, coal_times(venv, chunk, a.repeats))
                    keep_fastest(ours, start, our_times(binary, chunk))
        name = os.path.basename(path)
        print(f"\n{name}: median time per query ours / Coal C++ (µs ours | Coal), {len(problems)} problems")
        print(f"{'':22}" + "".join(f"{b:>24}" for b, _ in BANDS))
        report[name] = {}
        for alg in ALGORITHMS:
            cells, differ = [], 0
            report[name][alg] = {}
            for band, inside in BANDS:
                idx = [i for i, p in enumerate(problems) if inside(p["target_distance"])]
                if not idx:
                    cells.append(f"{'-':>24}")
                    continue
                differ += sum(ours[i][alg][0] != coal[i][alg][0] for i in idx)
                ratio = statistics.median(ours[i][alg][1] / coal[i][alg][1] for i in idx)
                us_ours = 1e6 * statistics.median(ours[i][alg][1] for i in idx)
                us_coal = 1e6 * statistics.median(coal[i][alg][1] for i in idx)
                report[name][alg][band] = {"ratio": ratio, "ours_us": us_ours, "coal_us": us_coal}
                cells.append(f"{ratio:>9.2f} ({us_ours:5.2f}|{us_coal:5.2f})")
            same = "same iterations" if differ == 0 else f"{differ} iteration counts differ"
            ok &= differ == 0
            print(f"{alg:<22}" + "".join(cells) + f"   {same}")
    if a.json:
        json.dump(report, open(a.json, "w"), indent=1)
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
