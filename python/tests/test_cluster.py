"""collidescope.cluster on a local Ray cluster started here: a head and a worker node
as separate processes, a worker killed in the middle of a run, the results against the
command run on one machine (the report and the scenes, byte for byte, whatever the
partition), a resumed run, and the messages for a foreign results folder and a bad
input file."""

import os
import shutil
import signal
import socket
import subprocess
import threading
import time

import pytest

ray = pytest.importorskip("ray", reason="Ray is not installed (pip install ray)")
import collidescope.cluster as cluster  # noqa: E402

MESHES = os.path.join(os.path.dirname(__file__), "..", "..", "..", "shared", "data", "meshes")
A = os.path.abspath(os.path.join(MESHES, "stanford-bunny.obj"))
B = os.path.abspath(os.path.join(MESHES, "cow.obj"))


def _program():
    named = os.environ.get("COLLIDESCOPE_PROGRAM")
    if named:
        return named
    target = os.environ.get("CARGO_TARGET_DIR", os.path.expanduser("~/.cache/collidescope-target"))
    candidate = os.path.join(target, "release", "collidescope")
    return candidate if os.access(candidate, os.X_OK) else shutil.which("collidescope")


PROGRAM = _program()
pytestmark = [
    pytest.mark.skipif(PROGRAM is None, reason="no collidescope program built (cargo build --release)"),
    pytest.mark.skipif(not (os.path.exists(A) and os.path.exists(B)),
                       reason=f"the meshes of ../shared/data/meshes are absent ({A})"),
]


def _free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _pids_of(pattern):
    found = subprocess.run(["pgrep", "-f", pattern], capture_output=True, text=True).stdout
    return {int(p) for p in found.split()}


@pytest.fixture(scope="module")
def local_cluster():
    """A head node and one worker node, each its own processes with one CPU, in a
    Ray folder of their own (so that stopping them stops no other cluster)."""
    import tempfile
    ray_cli = shutil.which("ray")
    if ray_cli is None:
        pytest.skip("the `ray` command is not on PATH")
    port = _free_port()
    address = f"127.0.0.1:{port}"
    folder = tempfile.mkdtemp(prefix="csray")
    common = ["--num-cpus=1", "--disable-usage-stats"]
    env = dict(os.environ, RAY_AUTH_MODE="disabled")
    subprocess.run([ray_cli, "start", "--head", f"--port={port}", "--include-dashboard=false",
                    f"--temp-dir={folder}", *common], check=True, env=env, capture_output=True)
    try:
        subprocess.run([ray_cli, "start", f"--address={address}", *common], check=True, env=env,
                       capture_output=True)
        os.environ["RAY_AUTH_MODE"] = "disabled"
        ray.init(address=address)
        deadline = time.monotonic() + 60
        while ray.cluster_resources().get("CPU", 0) < 2 and time.monotonic() < deadline:
            time.sleep(0.5)
        assert len([n for n in ray.nodes() if n["Alive"]]) == 2, ray.nodes()
        yield address
    finally:
        ray.shutdown()
        # This cluster's processes only: their command lines name its folder or port.
        for pid in (_pids_of(folder) | _pids_of(f"127.0.0.1:{port}")
                    | _pids_of(f"gcs-address=[^ ]*:{port}( |$)")):
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        shutil.rmtree(folder, ignore_errors=True)


def _single_machine(tmp_path, samples, seed):
    out = tmp_path / "here"
    done = subprocess.run([PROGRAM, "sweep", A, B, "--samples", str(samples), "--seed", str(seed),
                           "--out", str(out)], capture_output=True, text=True, check=True)
    return done.stdout, out


def _same_results(report, out, expected_report, expected_out):
    """The report but its timing (the first line's seconds) and folder names, and every
    scene byte for byte."""
    def steady(text, folder):
        lines = text.replace(str(folder), "OUT").splitlines()
        return [lines[0].rsplit(",", 1)[0]] + lines[1:]
    assert steady(report, out) == steady(expected_report, expected_out)
    scenes = sorted(p.name for p in expected_out.glob("*.ron"))
    assert scenes and scenes == sorted(p.name for p in out.glob("*.ron"))
    for name in scenes:
        assert (out / name).read_bytes() == (expected_out / name).read_bytes(), name


def test_a_sweep_on_the_cluster_gives_the_command_s_results_for_any_partition(local_cluster, tmp_path):
    expected_report, expected_out = _single_machine(tmp_path, 3000, 7)
    for chunk in (3000, 1000, 337):
        out = tmp_path / f"cluster-{chunk}"
        report = cluster.sweep(A, B, samples=3000, seed=7, out=str(out), chunk=chunk,
                               program=PROGRAM, progress=False)
        _same_results(report, out, expected_report, expected_out)
        chunks = sorted((out / "chunks").glob("chunk-*.json.gz"))
        assert len(chunks) == -(-3000 // chunk)


def test_a_worker_killed_mid_run_loses_nothing_and_doubles_nothing(local_cluster, tmp_path):
    samples = 40000
    expected_report, expected_out = _single_machine(tmp_path, samples, 3)
    killed = []

    def kill_one_running_task():
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and not killed:
            found = subprocess.run(["pgrep", "-f", "ray::_run_chunk_body"], capture_output=True,
                                   text=True).stdout.split()
            for pid in found:
                try:
                    os.kill(int(pid), signal.SIGKILL)
                    killed.append(int(pid))
                    break
                except ProcessLookupError:
                    continue
            time.sleep(0.005)

    killer = threading.Thread(target=kill_one_running_task)
    killer.start()
    out = tmp_path / "cluster"
    report = cluster.sweep(A, B, samples=samples, seed=3, out=str(out), chunk=1000,
                           program=PROGRAM, progress=False)
    killer.join()
    assert killed, "no running task was seen to kill"
    _same_results(report, out, expected_report, expected_out)
    assert len(list((out / "chunks").glob("chunk-*.json.gz"))) == 40


def test_an_interrupted_run_resumes_from_its_finished_chunks(local_cluster, tmp_path):
    out = tmp_path / "cluster"
    first = cluster.sweep(A, B, samples=2000, seed=5, out=str(out), chunk=500, program=PROGRAM,
                          progress=False)
    chunks = sorted((out / "chunks").glob("chunk-*.json.gz"))
    kept = {p: p.stat().st_mtime_ns for p in chunks[1:]}
    chunks[0].unlink()
    # A half-written file of a run killed while writing is not read back.
    (out / "chunks" / "chunk-000000500-000001000.json.123.part").write_text("{")
    again = cluster.sweep(A, B, samples=2000, seed=5, out=str(out), chunk=500, program=PROGRAM,
                          progress=False)
    assert again.splitlines()[1:] == first.splitlines()[1:]
    assert chunks[0].exists()
    assert {p: p.stat().st_mtime_ns for p in chunks[1:]} == kept
    # Resumed without chunk=: the run's own partition, not a newly measured one.
    chunks[1].unlink()
    third = cluster.sweep(A, B, samples=2000, seed=5, out=str(out), program=PROGRAM,
                          progress=False)
    assert third.splitlines()[1:] == first.splitlines()[1:]
    assert len(list((out / "chunks").glob("chunk-*.json.gz"))) == 4
    with pytest.raises(ValueError, match="started in chunks of 500"):
        cluster.sweep(A, B, samples=2000, seed=5, out=str(out), chunk=300, program=PROGRAM,
                      progress=False)


def test_another_run_s_folder_and_a_bad_mesh_are_named(local_cluster, tmp_path):
    out = tmp_path / "cluster"
    cluster.sweep(A, B, samples=200, seed=1, out=str(out), chunk=100, program=PROGRAM,
                  progress=False)
    with pytest.raises(ValueError, match="another run"):
        cluster.sweep(A, B, samples=300, seed=1, out=str(out), chunk=100, program=PROGRAM,
                      progress=False)
    broken = tmp_path / "broken.obj"
    broken.write_text("v 0 0 0\nv 1 nan 0\nf 1 2\n")
    with pytest.raises(RuntimeError, match="broken.obj"):
        cluster.sweep(str(broken), B, samples=200, out=str(tmp_path / "bad"), chunk=100,
                      program=PROGRAM, progress=False)


def test_chunk_ranges_cover_every_item_once():
    for total in (0, 1, 999, 1000, 1001):
        for size in (1, 7, 1000):
            ranges = cluster.chunk_ranges(total, size)
            covered = [i for s, e in ranges for i in range(s, e)]
            assert covered == list(range(total))
    with pytest.raises(ValueError):
        cluster.chunk_ranges(10, 0)


ROBOTS = os.path.join(os.path.dirname(__file__), "..", "..", "..", "shared", "data", "robots")
PANDA = os.path.abspath(os.path.join(ROBOTS, "panda_description", "urdf", "panda.urdf"))
PANDA_SRDF = os.path.abspath(os.path.join(ROBOTS, "panda_description", "srdf", "panda.srdf"))


def _without_times(report):
    """The robot report but its measured times (the µs figures, the pairs' mean µs)."""
    import re
    lines = [line for line in report.splitlines() if "µs" not in line or "mean iter." in line]
    return [re.sub(r"\s+[0-9.]+$", "", line) if "–" in line and "config" not in line else line
            for line in lines]


@pytest.mark.skipif(not os.path.exists(PANDA), reason=f"the Panda of ../shared is absent ({PANDA})")
def test_a_robot_check_on_the_cluster_gives_the_command_s_answers(local_cluster, tmp_path):
    import json
    common = [PANDA, "--srdf", PANDA_SRDF, "--random", "1500", "--seed", "4"]
    here = subprocess.run([PROGRAM, "robot", *common, "--json"], capture_output=True, text=True,
                          check=True).stdout
    there = cluster.robot(PANDA, srdf=PANDA_SRDF, random=1500, seed=4, json=True, chunk=300,
                          results=str(tmp_path / "json"), program=PROGRAM, progress=False)
    expected, got = json.loads(here), json.loads(there)
    for result in expected["results"] + got["results"]:
        result.pop("seconds")
    assert got == expected
    # Chunks of 300 asked for: 512, where warm starts restart.
    assert len(list((tmp_path / "json").glob("chunk-*.json.gz"))) == 3
    table_here = subprocess.run([PROGRAM, "robot", *common, "--margin", "0.05"],
                                capture_output=True, text=True, check=True).stdout
    table_there = cluster.robot(PANDA, srdf=PANDA_SRDF, random=1500, seed=4, margin=0.05,
                                results=str(tmp_path / "table"), program=PROGRAM,
                                progress=False)
    assert _without_times(table_there) == _without_times(table_here)
    assert "nearest apart" in table_there


def test_the_default_chunk_keeps_the_task_cost_small(local_cluster, tmp_path):
    expected_report, expected_out = _single_machine(tmp_path, 20000, 11)
    out = tmp_path / "cluster"
    report = cluster.sweep(A, B, samples=20000, seed=11, out=str(out), program=PROGRAM,
                           progress=False)
    _same_results(report, out, expected_report, expected_out)


CAPTURES = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..", "tests", "data",
                                        "imports"))


def test_a_folder_of_captures_on_the_cluster_names_the_bad_files_and_imports_the_rest(
        local_cluster, tmp_path):
    here_out = tmp_path / "here"
    here = subprocess.run([PROGRAM, "import", CAPTURES, "--out", str(here_out)],
                          capture_output=True, text=True, check=True).stdout
    there_out = tmp_path / "there"
    there = cluster.check_captures(CAPTURES, out=str(there_out), chunk=4, program=PROGRAM,
                                   progress=False)
    assert there.replace(str(there_out), "OUT") == here.replace(str(here_out), "OUT")
    assert "fcl_594_nan_vertex.txt: refused" in there and "line 8" in there
    assert "9 imported, 3 refused" in there
    scenes = sorted(p.name for p in here_out.glob("*.ron"))
    assert len(scenes) == 9
    for name in scenes:
        assert (there_out / name).read_bytes() == (here_out / name).read_bytes(), name
    # Split over 3 chunks of 4 files, the MuJoCo model's folder skipped.
    assert len(list((there_out / "chunks").glob("chunk-*.json.gz"))) == 3


def test_a_benchmark_on_the_cluster_writes_the_command_s_files(local_cluster, tmp_path):
    here = tmp_path / "here"
    printed = subprocess.run([PROGRAM, "bench", "ellipsoids", "--pairs", "9", "--poses", "3",
                              "--seed", "2", "--out", str(here)], capture_output=True, text=True,
                             check=True).stdout
    there = tmp_path / "there"
    report = cluster.bench("ellipsoids", pairs=9, poses=3, seed=2, out=str(there), chunk=4,
                           program=PROGRAM, progress=False)
    assert report.replace(str(there), "OUT") == printed.replace(str(here), "OUT")
    for name in ("runs.csv", "summary.txt", "iterations_distance.png", "iterations_boolean.png"):
        assert (there / name).read_bytes() == (here / name).read_bytes(), name
    assert len(list((there / "chunks").glob("chunk-*.json.gz"))) == 3


def test_a_worker_node_killed_mid_run_loses_nothing(local_cluster, tmp_path):
    """A third node joins, takes tasks, and goes down (its raylet and workers killed):
    its tasks run again on the others."""
    import glob
    ray_cli = shutil.which("ray")
    env = dict(os.environ, RAY_AUTH_MODE="disabled")
    # This cluster's raylets (another cluster on the machine is not ours to count).
    port = local_cluster.rsplit(":", 1)[1]
    ours = f"raylet/raylet.*gcs-address=[^ ]*:{port}( |$)"
    before = _pids_of(ours)
    subprocess.run([ray_cli, "start", f"--address={local_cluster}", "--num-cpus=1",
                    "--disable-usage-stats"], check=True, env=env, capture_output=True)
    raylets = _pids_of(ours) - before
    assert len(raylets) == 1, raylets
    deadline = time.monotonic() + 60
    while ray.cluster_resources().get("CPU", 0) < 3 and time.monotonic() < deadline:
        time.sleep(0.5)
    samples = 60000
    expected_report, expected_out = _single_machine(tmp_path, samples, 8)
    out = tmp_path / "cluster"
    killed = []

    def kill_the_node_once_work_is_done():
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            if glob.glob(str(out / "chunks" / "chunk-*.json.gz")):
                pid = int(next(iter(raylets)))
                # The node's processes: its raylet and everything it started.
                children = subprocess.run(["pgrep", "-P", str(pid)], capture_output=True,
                                          text=True).stdout.split()
                for p in [pid, *map(int, children)]:
                    try:
                        os.kill(p, signal.SIGKILL)
                    except ProcessLookupError:
                        pass
                killed.append(pid)
                return
            time.sleep(0.01)

    killer = threading.Thread(target=kill_the_node_once_work_is_done)
    killer.start()
    report = cluster.sweep(A, B, samples=samples, seed=8, out=str(out), chunk=1000,
                           program=PROGRAM, progress=False)
    killer.join()
    assert killed, "the node was not killed"
    _same_results(report, out, expected_report, expected_out)
    assert len(list((out / "chunks").glob("chunk-*.json.gz"))) == 60


def test_careless_arguments_are_named(local_cluster, tmp_path):
    with pytest.raises(RuntimeError, match="program=: /nope/collidescope is not an executable"):
        cluster.sweep(A, B, samples=10, program="/nope/collidescope")
    with pytest.raises(ValueError, match="distance="):
        cluster.sweep(A, B, samples=10, distance=("near", 1), program=PROGRAM)
    with pytest.raises(ValueError, match="chunk=0"):
        cluster.sweep(A, B, samples=10, chunk=0, out=str(tmp_path / "zero"), program=PROGRAM,
                      progress=False)
    # The command line's spellings: 'MIN..MAX', one algorithm's name alone.
    out = tmp_path / "spelled"
    report = cluster.sweep(A, B, samples=300, distance="-0.01..0.1", algorithms="nesterov",
                           out=str(out), chunk=100, program=PROGRAM, progress=False)
    assert report.splitlines()[3].startswith("nesterov")
