"""`serve` under faults: Ctrl-C during start-up, two serves in the same second, a tick that
raises. Each drives `python tests/fault_checks.py serve ...` (the CLI with an injected fault)."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import threading
import time
from datetime import datetime

import requests
from cli_helpers import REPO
from fault_checks import integrity, assert_sound, leftovers

from town.events import EventKind
from town.recording import RunReader
from town.recording.runs import new_run_path

#: The faults do not depend on the town: the_ville's 3 personas start in seconds on a loaded machine.
SERVE = (sys.executable, str(REPO / "tests" / "fault_checks.py"), "serve", "--port", "0",
         "--town", "the_ville", "--embedder", "hashing")


def _serve(*args: str, **env: str) -> subprocess.Popen:
    return subprocess.Popen([*SERVE, *args], cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, env={**os.environ, "PYTHONPATH": str(REPO), **env})


def _until(ok, timeout: float = 60.0, every: float = 0.02):
    deadline = time.monotonic() + timeout
    while not ok():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(every)


def _town_lines(text: str) -> list[str]:
    return [line for line in text.splitlines() if line.startswith("town:")]


def test_ctrl_c_while_the_libraries_load_prints_one_line(tmp_path):
    """Ctrl-C 0.3 s after start (imports): exit 130, one line, no traceback, nothing in runs/."""
    runs = tmp_path / "runs"
    proc = subprocess.Popen([sys.executable, str(REPO / "run.py"), "serve", "--port", "0", "--runs", str(runs)],
                            cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    time.sleep(0.3)
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=30)
    assert proc.returncode == 130
    assert err == "town: interrupted\n"
    assert not runs.exists() or list(runs.iterdir()) == []


def test_ctrl_c_while_the_run_is_being_created_leaves_nothing_in_runs(tmp_path):
    """Ctrl-C once the run file exists but before the town is live (seeding slowed to 5 s):
    exit 130, one line, and no run file, -wal, -shm or stale .lock in runs/."""
    runs = tmp_path / "runs"
    proc = _serve("--runs", str(runs), TOWN_TEST_SLOW_START_S="5")
    try:
        _until(lambda: runs.exists() and any(p.suffix == ".sqlite" for p in runs.iterdir()))
    except AssertionError:
        proc.kill()
        raise AssertionError(f"no run file in 60 s; the serve said: {proc.communicate()}") from None
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=30)
    assert proc.returncode == 130
    assert "is live" not in out
    assert _town_lines(err) == ["town: interrupted"] and "Traceback" not in err
    assert list(runs.iterdir()) == []


def test_default_run_names_are_unique_within_the_same_second(tmp_path):
    """Eight runs started at the same wall second from eight threads get eight names:
    the stamp, then -2 .. -8, each reserved by its .lock."""
    now = datetime(2026, 12, 1, 15, 0, 0)
    names: list[str] = []
    start = threading.Barrier(8)

    def pick():
        start.wait()
        names.append(new_run_path(tmp_path, now).name)

    threads = [threading.Thread(target=pick) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    expected = ["20261201-150000.sqlite", *(f"20261201-150000-{n}.sqlite" for n in range(2, 9))]
    assert sorted(names) == sorted(expected)
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(f"{n}.lock" for n in expected)


def test_two_serves_started_together_record_to_different_files(tmp_path):
    """Two serves on one runs folder, started at once: both go live, on two run files."""
    runs = tmp_path / "runs"
    procs = [_serve("--runs", str(runs)) for _ in range(2)]
    try:
        lines = [p.stdout.readline() for p in procs]
        files = [re.search(r"recording to (\S+);", line).group(1) for line in lines]
        assert files[0] != files[1]
        assert all(p.poll() is None for p in procs)
        # stop only once both have recorded a tick (a loaded machine may take a while)
        urls = [re.search(r"live at (http://\S+)/", line).group(1) for line in lines]
        _until(lambda: all(requests.get(f"{u}/api/status", timeout=5).json().get("tick", 0) > 0
                           for u in urls), every=0.1)
    finally:
        for p in procs:
            p.send_signal(signal.SIGINT)
        codes = [p.wait(timeout=20) for p in procs]
        for p in procs:
            p.stdout.close()
            p.stderr.close()
    assert codes == [0, 0]
    for f in files:
        assert assert_sound(f) is not None
        assert leftovers(f) == [""]


def test_a_tick_that_raises_shows_failed_keeps_the_viewer_and_exits_1(tmp_path):
    """A bug inside tick 40: the viewer's status says failed (and why) while the page is still
    served; Ctrl-C then exits 1; the run replays ticks 0..39, unfinished, its last status failed."""
    out = tmp_path / "live.sqlite"
    proc = _serve("--speed", "max", "--out", str(out), TOWN_TEST_CRASH_AT_TICK="40")
    try:
        url = re.search(r"live at (http://\S+)/", proc.stdout.readline()).group(1)
        status = {}

        def failed():
            status.update(requests.get(f"{url}/api/status", timeout=5).json())
            return status["state"] == "failed"

        _until(failed, every=0.1)
        assert "injected bug at tick 40" in status["reason"]
        assert requests.get(f"{url}/", timeout=5).status_code == 200  # the viewer stays
        assert proc.poll() is None
        line = next(line for line in proc.stderr if line.startswith("town:"))
        assert "injected bug at tick 40" in line and "keeps ticks 0..39" in line
    finally:
        proc.send_signal(signal.SIGINT)
        code = proc.wait(timeout=20)
        proc.stdout.close()
        proc.stderr.close()
    assert code == 1
    assert assert_sound(out) == 39
    with RunReader(out) as reader:
        assert reader.meta["finished"] is False
        states = [e.data["state"] for e in reader.events(kinds=[EventKind.STATUS])]
        assert states[-1] == "failed" and "finished" not in states
        assert reader.snapshots()[-1][0] <= 39


def test_ctrl_c_during_a_first_tick_that_outlasts_the_stop_says_one_line(tmp_path):
    """Ctrl-C while the first tick works 6 s (as Smallville's first tick can on a busy machine):
    the stop gives up on the tick after 3 s, the run keeps its snapshot before tick 0, and stderr
    holds only "stopping" (the abandoned tick's failure to write to the closed file was logged
    with two tracebacks)."""
    out = tmp_path / "live.sqlite"
    proc = _serve("--out", str(out), TOWN_TEST_SLOW_TICK_S="6")
    try:
        assert "is live at" in proc.stdout.readline()
        time.sleep(0.5)  # inside the first tick
    finally:
        proc.send_signal(signal.SIGINT)
        _, err = proc.communicate(timeout=30)
    assert err == "town: stopping after this tick ...\n", err[-3000:]
    assert proc.returncode == 0
    assert integrity(out) == "ok"
    with RunReader(out) as reader:
        assert reader.last_tick is None and [tick for tick, _, _ in reader.snapshots()] == [-1]
