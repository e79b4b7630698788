"""Collidescope's batch commands split over a Ray cluster (docs/cluster.md).

Each function takes the arguments of the command-line command it mirrors, splits the
work into chunks keyed by their index range (poses of a sweep), runs each chunk as a Ray
task through the `collidescope` program with `--chunk START..END`, keeps every finished
chunk in a results folder with a manifest, and hands the folder to the same program's
`--reduce`: the report and the scenes are the single-machine command's own, for any
partition (the chunks hold each item's raw result; the reduce sorts and counts them as
the command does).

Faults: a task whose worker dies is run again by Ray (`max_retries`); a chunk is written
once, by the driver, under its range, so nothing is counted twice; a run interrupted as
a whole starts again from the chunks already in the results folder.

Why Ray and the program: Ray schedules, retries and moves results between machines (no
home-made scheduler); the program is the command itself, so the chunks run the same
code and the reduce prints the same report as `collidescope sweep` on one machine.
Every node needs the `collidescope` program (on PATH, beside this package, or named by
`COLLIDESCOPE_PROGRAM` or `program=`) and the input files at the same paths (a shared
file system, or a local cluster).
"""

import gzip
import hashlib
import json
import math
import os
import subprocess
import sys
import time

__all__ = ["sweep", "bench", "robot", "check_captures", "chunk_ranges", "Progress"]


def _ray():
    try:
        import ray
    except ImportError as error:
        raise ImportError(
            "collidescope.cluster runs on Ray: pip install ray") from error
    return ray


def _find_program(program):
    named = program or os.environ.get("COLLIDESCOPE_PROGRAM")
    if named:
        named = str(named)
        if not (os.path.isfile(named) and os.access(named, os.X_OK)):
            where = "program=" if program else "COLLIDESCOPE_PROGRAM"
            raise RuntimeError(f"{where}: {named} is not an executable collidescope program")
        return named
    from . import _program
    found = _program()
    if not found:
        raise RuntimeError(
            "collidescope.cluster runs each chunk with the `collidescope` program, which is "
            "not on PATH: install it (`cargo install --path .` in the repository) or name it "
            "with program= or COLLIDESCOPE_PROGRAM")
    return found


def chunk_ranges(total, chunk):
    """The index ranges [start, end) of `total` items in chunks of at most `chunk`."""
    if total < 0 or chunk < 1:
        raise ValueError(f"chunks of {chunk} over {total} items: need total >= 0, chunk >= 1")
    return [(start, min(start + chunk, total)) for start in range(0, total, chunk)]


def _chunk_name(start, end):
    return f"chunk-{start:09d}-{end:09d}.json.gz"


class Progress:
    """What the command line shows while a run goes: items done of the total, chunks,
    and the time so far, on one line of standard error."""

    def __init__(self, total, unit, chunks, shown=True):
        self.total, self.unit, self.chunks, self.shown = total, unit, chunks, shown
        self.done_items = 0
        self.done_chunks = 0
        self.started = time.monotonic()

    def add(self, items):
        self.done_items += items
        self.done_chunks += 1
        if self.shown:
            width = 40
            filled = int(width * self.done_items / max(self.total, 1))
            sys.stderr.write(
                f"\r{'#' * filled}{'-' * (width - filled)} {self.done_items}/{self.total} "
                f"{self.unit} ({self.done_chunks}/{self.chunks} chunks) "
                f"{time.monotonic() - self.started:.0f}s")
            sys.stderr.flush()

    def finish(self):
        if self.shown:
            sys.stderr.write("\n")
            sys.stderr.flush()


class ChunkKilled(RuntimeError):
    """The program running a chunk was killed by a signal (the machine's memory
    killer, a node going down): Ray runs the chunk again."""


def _run_chunk_body(program, args, start, end, cwd=None):
    """One chunk: the program's `--chunk`, its file's text on standard output, run in
    the driver's folder `cwd` when the worker has it (so that paths read as the user
    gave them, and messages name them so)."""
    # The task holds one of the cluster's CPUs: the program's own thread pool keeps to it
    # (else every task would spread over the whole machine).
    env = dict(os.environ, RAYON_NUM_THREADS="1")
    folder = cwd if cwd and os.path.isdir(cwd) else None
    done = subprocess.run([program, *args, "--chunk", f"{start}..{end}", "--chunk-out", "-"],
                          capture_output=True, env=env, cwd=folder)
    if done.returncode < 0:
        raise ChunkKilled(f"chunk {start}..{end}: the program was killed by signal "
                          f"{-done.returncode}")
    if done.returncode != 0:
        raise RuntimeError(done.stderr.decode(errors="replace").strip()
                           or f"exit status {done.returncode}")
    # Gzip'd here: a chunk's runs are a few hundred bytes each, and the object store,
    # the network and the driver carry a fifth of them.
    return gzip.compress(done.stdout, compresslevel=1)


def _read_manifest(folder):
    """The results folder's manifest, or None when there is none yet."""
    path = os.path.join(folder, "manifest.json")
    if not os.path.exists(path):
        return None
    with open(path) as f:
        try:
            return json.load(f)
        except json.JSONDecodeError as error:
            raise ValueError(f"{path}: not a manifest ({error})") from error


def _plan_chunks(folder, command, args, total, asked_size, measure_size, align):
    """The chunks of this run: the manifest's when the folder holds this run already (a
    resumed run keeps its partition, whatever size would be measured now), else new
    ones of the size asked for (or measured), written into a new manifest. A folder
    of another run, or a size asked for that differs from the run's, is refused."""
    manifest = _read_manifest(folder)
    if manifest is not None:
        if (manifest.get("command"), manifest.get("args"), manifest.get("total")) != (
                command, args, total):
            raise ValueError(
                f"{folder}: holds the chunks of another run (collidescope "
                f"{' '.join(map(str, manifest.get('args', [])))}); give another results "
                f"folder (results=) or empty it")
        ranges = [tuple(r) for r in manifest["chunks"]]
        if asked_size is not None and ranges and _aligned(int(asked_size), align) != ranges[0][1] - ranges[0][0]:
            raise ValueError(
                f"{folder}: this run was started in chunks of {ranges[0][1] - ranges[0][0]}; "
                f"resume it without chunk= (or with chunk={ranges[0][1] - ranges[0][0]}), "
                f"or give another results folder")
        return ranges
    size = _aligned(int(asked_size) if asked_size is not None else measure_size(), align)
    ranges = chunk_ranges(total, size)
    _write_atomically(os.path.join(folder, "manifest.json"),
                      json.dumps({"command": command, "args": args, "total": total,
                                  "chunks": [list(r) for r in ranges]}, indent=1))
    return ranges


def _aligned(size, align):
    """`size` rounded up to a multiple of `align` (at least `align`)."""
    if size < 1:
        raise ValueError(f"chunk={size}: a chunk holds at least one item")
    return max(align, -(-size // align) * align)


def _write_atomically(path, data):
    """Written whole or not at all (a crash leaves no half file to be read back)."""
    temporary = f"{path}.{os.getpid()}.part"
    with open(temporary, "wb" if isinstance(data, bytes) else "w") as f:
        f.write(data)
        f.flush()
        os.fsync(f.fileno())
    os.replace(temporary, path)


def _finished(folder, start, end):
    """Whether the chunk's file is there (a resumed run keeps it). Files are written
    whole or not at all, and the reduce reads every one (naming a damaged one), so
    the file is not read here: a rerun with nothing left to do costs nothing."""
    path = os.path.join(folder, _chunk_name(start, end))
    return os.path.isfile(path) and os.path.getsize(path) > 0


def _run_chunks(program, args, folder, ranges, unit, progress, max_retries):
    """Every unfinished chunk as a Ray task; each result written under its range as it
    arrives (the others were in the folder already)."""
    ray = _ray()
    if not ray.is_initialized():
        ray.init()
    # A worker that dies is retried by Ray; a program killed under a live worker raises
    # ChunkKilled, retried too; a refused input is not (it would fail again).
    task = ray.remote(max_retries=max_retries, retry_exceptions=[ChunkKilled])(_run_chunk_body)
    total = ranges[-1][1] if ranges else 0
    shown = Progress(total, unit, len(ranges), progress)
    pending = {}
    for start, end in ranges:
        if _finished(folder, start, end):
            shown.add(end - start)
            continue
        pending[task.remote(program, args, start, end, os.getcwd())] = (start, end)
    try:
        while pending:
            ready, _ = ray.wait(list(pending), num_returns=1)
            for ref in ready:
                start, end = pending.pop(ref)
                try:
                    text = ray.get(ref)
                except ray.exceptions.RayTaskError as error:
                    raise RuntimeError(
                        f"chunk {start}..{end} failed: {error.cause}") from None
                _write_atomically(os.path.join(folder, _chunk_name(start, end)), text)
                shown.add(end - start)
    finally:
        for ref in pending:
            ray.cancel(ref, force=True)
        # Collected, so that Ray does not report the cancelled tasks as unhandled errors.
        for ref in pending:
            try:
                ray.get(ref, timeout=10)
            except Exception:  # noqa: BLE001: cancelled or failed alike, already reported
                pass
        shown.finish()


def _reduce(program, args, folder):
    """The program's report from the chunks; what it says on standard error (a mesh it
    skips, a URDF's warnings) is passed on, as the command would show it."""
    done = subprocess.run([program, *args, "--reduce", folder], capture_output=True, text=True)
    if done.returncode != 0:
        raise RuntimeError(done.stderr.strip() or f"exit status {done.returncode}")
    if done.stderr:
        sys.stderr.write(done.stderr)
        sys.stderr.flush()
    return done.stdout


def _default_chunk(program, args, total, align, probe=256):
    """A chunk size that keeps the per-task cost (starting the program, loading its
    inputs, drawing up to the chunk's first item) under 5 % of a chunk's work, measured
    here before the run (so the driver needs the program and the inputs too): an empty
    chunk, then chunks of `probe` items doubled until one takes at least as long as the
    empty one (a probe much shorter than the start-up measures only noise). The items
    are then split evenly over that many chunks, and over at least one chunk per CPU of
    the cluster when there are fewer (a short run: spread rather than waited on)."""
    if total == 0:
        return 1

    def seconds(end):
        started = time.monotonic()
        _run_chunk_body(program, args, 0, end)
        return time.monotonic() - started

    overhead = min(seconds(0), seconds(0))
    size = min(total, max(align, probe))
    while True:
        spent = seconds(size)
        if spent >= 2.0 * overhead or size >= total:
            break
        size = min(total, size * 4)
    per_item = max((spent - overhead) / size, 1e-9)
    chunks = max(1, math.ceil(total / math.ceil(20.0 * overhead / per_item)))
    ray = _ray()
    cpus = max(int(ray.cluster_resources().get("CPU", 1)), 1)
    chunks = max(chunks, min(cpus, math.ceil(total / align)))
    return math.ceil(total / chunks)


def _names(algorithms):
    """`algorithms` as a list of names (one name alone is one, not its letters)."""
    return [algorithms] if isinstance(algorithms, str) else list(algorithms)


def _run_job(command, args, total, chunk, unit, folder_default, results, program, progress,
             max_retries, reduce_args, align=1, probe=256):
    """Splits `total` items into chunks (multiples of `align`), runs the missing ones,
    and returns the program's report from the results folder."""
    ray = _ray()
    if not ray.is_initialized():
        ray.init()
    folder = results or os.path.join(folder_default, "chunks")
    os.makedirs(folder, exist_ok=True)
    ranges = _plan_chunks(folder, command, args, total, chunk,
                          lambda: _default_chunk(program, args, total, align, probe), align)
    _run_chunks(program, args, folder, ranges, unit, progress, max_retries)
    return _reduce(program, [*args, *reduce_args], folder)


def _connect(address):
    ray = _ray()
    if address is not None and not ray.is_initialized():
        ray.init(address=address)


def sweep(a, b, *, algorithms=(), samples=1000, distance=(-0.01, 0.1), seed=1,
          out="target/sweep", worst=5, chunk=None, results=None, address=None,
          program=None, progress=True, max_retries=5):
    """`collidescope sweep A B` on a Ray cluster: the same arguments (`distance` as a
    (min, max) pair or the command's 'MIN..MAX'), the poses split into chunks of `chunk` (default: see
    `_default_chunk`), each a Ray task; the chunks kept in `results` (default
    OUT/chunks) with a manifest, so a run started again resumes; then the command's own
    report (returned, as it prints it) and its slowest poses written as scenes in
    `out`, the same for any partition. `address` is `ray.init`'s (default: the cluster
    already initialised, else a local one)."""
    _connect(address)
    program = _find_program(program)
    samples = int(samples)
    if samples < 0:
        raise ValueError(f"samples: {samples} (need >= 0)")
    if isinstance(distance, str):
        # The command line's spelling, MIN..MAX.
        parts = distance.split("..")
        if len(parts) != 2:
            raise ValueError(f"distance={distance!r}: give (min, max) or 'MIN..MAX'")
        distance = parts
    try:
        lo, hi = (float(distance[0]), float(distance[1]))
    except (TypeError, ValueError, IndexError) as error:
        raise ValueError(f"distance={distance!r}: give (min, max), two numbers") from error
    args = ["sweep", os.fspath(a), os.fspath(b)]
    for name in _names(algorithms):
        args += ["--algorithm", str(name)]
    args += ["--samples", str(samples), "--distance", f"{lo!r}..{hi!r}", "--seed", str(int(seed))]
    return _run_job("sweep", args, samples, chunk, "poses", out, results, program, progress,
                    max_retries, ["--out", str(out), "--worst", str(int(worst))])


def bench(suite="ellipsoids", *, meshes=None, a=None, b=None, pairs=20, poses=5, seed=1,
          algorithms=(), out=None, chunk=None, results=None, address=None, program=None,
          progress=True, max_retries=5):
    """`collidescope bench ellipsoids` (or `meshes DIR` with `meshes=DIR`, or
    `primitives --a A --b B`) on a Ray cluster: the same arguments, the pairs split into
    chunks of `chunk` pairs (each with its poses × 12 distances), each a Ray task; the
    chunks kept in `results` (default OUT/chunks) with a manifest; then the command's
    runs.csv, summary.txt and iteration plots written to `out` (default
    target/bench/SUITE), byte for byte the single-machine command's, and its printed
    summary returned. (`--timing` measures in one process: run it on one machine.)"""
    _connect(address)
    program = _find_program(program)
    args = ["bench"]
    if suite == "ellipsoids":
        args.append("ellipsoids")
        folder = "ellipsoids"
    elif suite == "meshes":
        if meshes is None:
            raise ValueError("suite='meshes' needs meshes=DIR (a folder of OBJ meshes)")
        args += ["meshes", os.fspath(meshes)]
        folder = "meshes"
    elif suite == "primitives":
        if a is None or b is None:
            raise ValueError("suite='primitives' needs a= and b= (sphere, ellipsoid, box, "
                             "capsule, cylinder, cone)")
        args += ["primitives", "--a", str(a), "--b", str(b)]
        folder = f"primitives-{a}-{b}"
    else:
        raise ValueError(f"suite={suite!r}: ellipsoids, meshes or primitives")
    pairs = int(pairs)
    if pairs < 0:
        raise ValueError(f"pairs: {pairs} (need >= 0)")
    args += ["--pairs", str(pairs), "--poses", str(int(poses)), "--seed", str(int(seed))]
    for name in _names(algorithms):
        args += ["--algorithm", str(name)]
    out = out if out is not None else os.path.join("target", "bench", folder)
    return _run_job("bench", args, pairs, chunk, "pairs", out, results, program, progress,
                    max_retries, ["--out", str(out)], probe=2)


# `robot` takes a `json=` flag (the command's --json), which hides the module inside it:
# what it reads and names with JSON is done here.
def _configurations_in(path):
    """How many configurations a CONFIGS.json holds."""
    with open(path) as f:
        try:
            return len(json.load(f)["configs"])
        except (ValueError, KeyError, TypeError) as error:
            raise ValueError(f"{path}: not a CONFIGS.json ({error})") from error


def _robot_folder(args):
    """A robot check's default results folder: one per set of arguments (the command
    writes no folder of its own to keep them in)."""
    run = hashlib.sha256(json.dumps(args).encode()).hexdigest()[:12]
    return os.path.join("target", "cluster", f"robot-{run}")


def robot(urdf, *, srdf=None, package_root=None, configs=None, random=None, seed=1,
          algorithm=None, margin=None, collision="hull", pair_scene=None, json=False,
          chunk=None, results=None, address=None, program=None, progress=True,
          max_retries=5):
    """`collidescope robot URDF --random N` (or `--configs FILE`) on a Ray cluster: the
    same arguments, the configurations split into chunks of `chunk` (rounded up to a
    multiple of 256, where the check's warm starts restart), each a Ray task; the
    chunks kept in `results` (default target/cluster/robot-HASH, one per set of
    arguments) with a manifest; then the
    command's own report (returned as it prints it: the table, or its JSON with
    `json=True`), the same as on one machine but for the measured times."""
    _connect(address)
    program = _find_program(program)
    args = ["robot", os.fspath(urdf)]
    if srdf is not None:
        args += ["--srdf", os.fspath(srdf)]
    if package_root is not None:
        args += ["--package-root", os.fspath(package_root)]
    if configs is not None and random is not None:
        raise ValueError("configs= and random= are two sources of configurations: give one")
    if configs is not None:
        args += ["--configs", os.fspath(configs)]
        total = _configurations_in(configs)
    else:
        total = 1 if random is None else int(random)
        if total < 0:
            raise ValueError(f"random: {total} (need >= 0)")
        if random is not None:
            args += ["--random", str(total)]
    args += ["--seed", str(int(seed))]
    if algorithm is not None:
        args += ["--algorithm", str(algorithm)]
    if margin is not None:
        args += ["--margin", repr(float(margin))]
    if collision not in ("hull", "mesh"):
        raise ValueError(f"collision={collision!r}: hull or mesh (the check of one model)")
    args += ["--collision", collision]
    if json:
        args.append("--json")
    reduce_args = [] if pair_scene is None else ["--pair-scene", str(pair_scene)]
    return _run_job("robot", args, total, chunk, "configurations", _robot_folder(args),
                    results, program, progress, max_retries, reduce_args, align=256)


# Extensions of the files a folder of captures holds besides them (the program skips
# them too: src/cli/import.rs).
_ASSETS = {"obj", "stl", "ply", "dae", "msh", "mtl", "png", "jpg", "jpeg", "ron"}


def _captures(folder):
    names = []
    for name in os.listdir(folder):
        path = os.path.join(folder, name)
        extension = name.rsplit(".", 1)[1].lower() if "." in name[1:] else None
        if os.path.isfile(path) and not name.startswith(".") and extension not in _ASSETS:
            names.append(name)
    return sorted(names, key=lambda n: os.fsencode(n))


def check_captures(folder, *, out=None, key=None, chunk=None, results=None, address=None,
                   program=None, progress=True, max_retries=5):
    """`collidescope import DIR` on a Ray cluster: every capture, dump or model of
    `folder` (meshes, images, scenes and subfolders skipped) imported and run, split
    into chunks of files, each a Ray task; a file the importer refuses is reported with
    its name and its message, and the others go on. The chunks are kept in `results`
    (default OUT/chunks, or target/captures/chunks) with a manifest; the report
    (returned, as the command prints it) and the scenes written to `out` (STEM.ron) are
    the single-machine command's."""
    _connect(address)
    program = _find_program(program)
    if not os.path.isdir(folder):
        raise ValueError(f"{folder}: not a folder of captures")
    total = len(_captures(folder))
    args = ["import", os.fspath(folder)]
    if key is not None:
        args += ["--key", str(key)]
    reduce_args = [] if out is None else ["--out", str(out)]
    default = out if out is not None else os.path.join("target", "captures")
    return _run_job("import", args, total, chunk, "captures", default, results, program,
                    progress, max_retries, reduce_args, probe=8)
