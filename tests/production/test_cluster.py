"""The build on a real dask.distributed cluster on the loopback address: same outputs as a local build,
a worker killed mid-render costs a retry and nothing else, an unreachable scheduler fails fast."""

from __future__ import annotations

import json
import os
import re
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from production.media.video import probe
from tests.production.shard_helpers import REPO, assert_same_frames, clean_env, cli, media_with_caches

# tests that share this module's fixtures run on one xdist worker (tests/conftest.py)
pytestmark = pytest.mark.xdist_group("cluster")

CONFIG = 'title = "Cluster test lecture"\nscenes = ["LectureTitle", "AdaptiveSufficiency"]\n'
BUILD = ("build", "--quality", "l", "--voice", "none")


@dataclass
class Cluster:
    """A scheduler and two single-threaded workers, each in a process group of its own."""

    address: str
    workers: dict[str, subprocess.Popen]  # by worker address
    procs: list[subprocess.Popen]


def _start(args: list[str], log: Path) -> subprocess.Popen:
    with log.open("w") as out:
        return subprocess.Popen(
            [sys.executable, "-m", "dask", *args],
            cwd=REPO,
            stdout=out,
            stderr=subprocess.STDOUT,
            env={**clean_env(), "TMPDIR": str(log.parent)},  # a killed worker leaves its files here
            start_new_session=True,  # killing its group kills the worker and its manim, like a crash
        )


def _wait_for(what: str, check, timeout: float = 60.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        found = check()
        if found:
            return found
        time.sleep(0.2)
    raise AssertionError(f"timed out waiting for {what}")


def _address(file: Path) -> str | None:
    try:
        return json.loads(file.read_text())["address"]
    except (OSError, ValueError, KeyError):
        return None


def _stop(procs: list[subprocess.Popen]) -> None:
    for proc in procs:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGTERM)
    deadline = time.monotonic() + 3
    for proc in procs:
        try:
            proc.wait(timeout=max(0.1, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()


@pytest.fixture(scope="module")
def cluster(tmp_path_factory) -> Iterator[Cluster]:
    from distributed import Client

    folder = tmp_path_factory.mktemp("dask")
    file = folder / "scheduler.json"
    common = ["--no-dashboard", "--host", "127.0.0.1"]
    procs = [
        _start(["scheduler", *common, "--port", "0", "--scheduler-file", str(file)], folder / "sched.log")
    ]
    try:
        address = _wait_for("the scheduler", lambda: _address(file))
        for name in ("w1", "w2"):
            args = [
                "worker",
                *common,
                "--scheduler-file",
                str(file),
                "--nthreads",
                "1",
                "--no-nanny",
                "--name",
                name,
            ]
            procs.append(_start(args, folder / f"{name}.log"))
        with Client(address, timeout=30, set_as_default=False) as client:
            client.wait_for_workers(2, timeout=60)
            names = {info["name"]: addr for addr, info in client.scheduler_info()["workers"].items()}
        yield Cluster(address, {names["w1"]: procs[1], names["w2"]: procs[2]}, procs)
    finally:
        _stop(procs)


@pytest.fixture(scope="module")
def builds(cluster, tmp_path_factory) -> dict:
    """The lecture built locally (unsharded) and, at the same time, on the cluster in two shards a clip.

    As soon as a shard reports an animation, its worker is killed with everything it started.
    """
    runs = {}
    for name, extra in (("local", ["--shards", "1", "--jobs", "1"]), ("cluster", ["--shards", "2"])):
        root = tmp_path_factory.mktemp(name)
        (root / "lecture.toml").write_text(CONFIG)
        media = media_with_caches(root)
        args = ["--config", str(root / "lecture.toml"), *BUILD, *extra, "--media-dir", str(media)]
        if name == "cluster":
            args += ["--scheduler", cluster.address]
        proc = subprocess.Popen(
            cli(*args), cwd=REPO, env=clean_env(), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
        )
        runs[name] = {"proc": proc, "out": media / "lecture" / "480p15"}
    runs["cluster"]["lines"], runs["cluster"]["killed"] = _kill_one_worker_mid_render(
        runs["cluster"]["proc"], cluster
    )
    for run in runs.values():
        _, err = run["proc"].communicate(timeout=600)
        run["log"] = "".join(run.get("lines", [])) + err
        assert run["proc"].returncode == 0, run["log"][-3000:]
        run["manifest"] = json.loads((run["out"] / "manifest.json").read_text())
    return runs


def _kill_one_worker_mid_render(
    proc: subprocess.Popen, cluster: Cluster
) -> tuple[list[str], tuple[str, str]]:
    """Read progress until a shard is mid-render, then kill its worker; returns (lines, (shard, worker))."""
    where: dict[str, str] = {}
    lines: list[str] = []
    assert proc.stderr is not None
    for line in proc.stderr:
        lines.append(line)
        if found := re.search(r"\] (.+ \[\d+/\d+\]): rendering .* on (tcp://\S+)", line):
            where[found[1]] = found[2]
        if (found := re.search(r"\] (.+ \[\d+/\d+\]): animation", line)) and found[1] in where:
            os.killpg(cluster.workers[where[found[1]]].pid, signal.SIGKILL)
            return lines, (found[1], where[found[1]])
    raise AssertionError("no shard reported an animation:\n" + "".join(lines))


def _comparable(manifest: dict) -> dict:
    """The manifest without what two builds of the same lecture may differ in: file hashes."""
    if isinstance(manifest, dict):
        return {k: _comparable(v) for k, v in manifest.items() if k != "sha256"}
    if isinstance(manifest, list):
        return [_comparable(v) for v in manifest]
    return manifest


@pytest.mark.render
def test_a_worker_killed_mid_render_costs_a_retry_elsewhere_and_nothing_else(builds):
    run = builds["cluster"]
    shard, dead = run["killed"]
    again = re.findall(rf"{re.escape(shard)}: rendering .* on (tcp://\S+)", run["log"])
    assert len(again) >= 2 and again[-1] != dead, run["log"][-3000:]
    assert "2/2 done, 4/4 shards" in run["log"]
    assert not [p for p in run["out"].iterdir() if "partial" in p.name]


@pytest.mark.render
def test_cluster_build_matches_the_local_build(builds):
    local, cluster = builds["local"], builds["cluster"]
    assert _comparable(cluster["manifest"]) == _comparable(local["manifest"])
    for clip in local["manifest"]["clips"]:
        ours, theirs = cluster["out"] / clip["file"], local["out"] / clip["file"]
        assert probe(ours).frames == probe(theirs).frames
        assert_same_frames(ours, theirs)
    assert probe(cluster["out"] / "lecture.mp4").frames == probe(local["out"] / "lecture.mp4").frames


def refused(tmp_path, scene: str, scheduler: str) -> tuple[subprocess.CompletedProcess[str], float]:
    """``render SCENE --scheduler ADDRESS`` run to its end, and the seconds it took."""
    start = time.monotonic()
    args = ["render", scene, "--scheduler", scheduler, "--media-dir", str(tmp_path)]
    proc = subprocess.run(cli(*args), cwd=REPO, env=clean_env(), capture_output=True, text=True, timeout=60)
    return proc, time.monotonic() - start


def test_an_unreachable_scheduler_fails_fast_with_one_line(tmp_path):
    with socket.socket() as s:  # a port nobody listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    proc, seconds = refused(tmp_path, "LectureTitle", f"tcp://127.0.0.1:{port}")
    assert proc.returncode == 2
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and "cannot reach the Dask scheduler" in lines[0], proc.stderr
    # refused before any client waits its connect timeout (5 s): about as fast as a malformed address,
    # which is refused after the same imports (a relative time, so a loaded machine cannot fail it)
    _, baseline = refused(tmp_path, "LectureTitle", "nonsense")
    assert seconds - baseline < 4, (seconds, baseline)


@pytest.mark.parametrize("address", ["nonsense", "tcp://nohost", "foo://x:1"])
def test_a_malformed_scheduler_address_is_one_line_at_once(tmp_path, address):
    proc, seconds = refused(tmp_path, "LectureTitle", address)
    assert proc.returncode == 2
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and "is not a scheduler address" in lines[0] and "Traceback" not in proc.stderr
    # no client made, so no 10 s wait in its finaliser: about as fast as a command refused before any
    # scheduler is looked at (an unknown scene), measured now, on this machine as loaded as it is
    _, baseline = refused(tmp_path, "NoSuchScene", address)
    assert seconds - baseline < 7, (seconds, baseline)
