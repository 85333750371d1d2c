"""A full disk, injected: a patched connection raises SQLite's "database or disk is full".

At creation nothing may be left behind; mid-run the file replays up to its last committed tick
and the one-line message says which; `serve` prints that one line, no traceback.
"""

from __future__ import annotations

import re
import signal
import subprocess
import sys
import time

import pytest
import requests
from cli_helpers import REPO
from fault_checks import assert_sound, full_disk, leftovers

from town.events import EventKind
from town.errors import RecordingError
from town.recording import RunReader, RunWriter, database
from web.cli import main

ARGS = ("simulate", "--embedder", "hashing", "--quiet")


@pytest.mark.parametrize("writes", [0, 1, 2, 3, 40])
def test_a_full_disk_at_creation_leaves_nothing_behind(tmp_path, monkeypatch, capsys, writes):
    """Full at the tables (0), the schema version (1), the meta (2, 3) or the seeded memories
    (40): exit 2, one line, and no run file, -wal, -shm or .lock; the name can be used again."""
    out = tmp_path / "run.sqlite"
    monkeypatch.setattr(database, "connect", full_disk(writes=writes))
    assert main([*ARGS, "--hours", "0.1", "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "database or disk is full" in err and "Traceback" not in err
    assert leftovers(out) == []
    monkeypatch.undo()  # the disk has room again: the same name works
    assert main([*ARGS, "--hours", "0.1", "--out", str(out)]) == 0
    assert assert_sound(out) == 35


@pytest.mark.parametrize("writes", [0, 1, 2])
def test_a_run_writer_that_cannot_create_its_file_removes_it(tmp_path, monkeypatch, writes):
    """RunWriter itself: full at the tables, schema version or meta -> RecordingError, no files."""
    out = tmp_path / "run.sqlite"
    monkeypatch.setattr(database, "connect", full_disk(writes=writes))
    with pytest.raises(RecordingError, match="database or disk is full"):
        RunWriter(out, {"town": "x"})
    assert leftovers(out) == []


def test_a_full_disk_mid_run_keeps_every_committed_tick(tmp_path, monkeypatch, capsys):
    """Full at the frame of tick 50: exit 2, one line saying the file holds ticks up to 49,
    and the file replays exactly ticks 0..49 with everything they recorded."""
    out = tmp_path / "run.sqlite"
    monkeypatch.setattr(database, "connect", full_disk(tick=50))
    assert main([*ARGS, "--hours", "0.5", "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err
    assert "database or disk is full" in err and "ticks up to 49" in err
    assert leftovers(out) == [""]  # closed: no -wal, -shm or .lock
    assert assert_sound(out) == 49
    with RunReader(out) as reader:
        assert reader.meta["finished"] is False
        assert max(e.tick for e in reader.events()) <= 49
        assert len(reader.frames(0, 49)) == 50


def test_serve_on_a_full_disk_prints_one_line_and_keeps_the_run(tmp_path):
    """serve filling the disk at tick 30: the viewer says failed, stderr has one line naming
    the disk and the ticks kept, no traceback; Ctrl-C then exits 2; the file replays 0..29."""
    out = tmp_path / "live.sqlite"
    proc = subprocess.Popen(
        [sys.executable, str(REPO / "tests" / "fault_checks.py"), "serve", "--port", "0", "--speed",
         "max", "--embedder", "hashing", "--out", str(out)], cwd=REPO, stdout=subprocess.PIPE,
        stderr=subprocess.PIPE, text=True, env={**_env(), "TOWN_TEST_FULL_AT": "30"})
    try:
        url = re.search(r"live at (http://\S+)/", proc.stdout.readline()).group(1)
        status = _wait_for(lambda: requests.get(f"{url}/api/status", timeout=5).json(),
                           lambda s: s["state"] == "failed")
        assert "database or disk is full" in status["reason"]
        line = next(line for line in proc.stderr if line.startswith("town:"))
        assert "database or disk is full" in line and "ticks up to 29" in line
    finally:
        proc.send_signal(signal.SIGINT)
        code = proc.wait(timeout=20)
        rest = proc.stderr.read()
        proc.stdout.close()
        proc.stderr.close()
    assert code == 2
    assert "Traceback" not in rest and [x for x in rest.splitlines() if x.startswith("town:")] == []
    assert assert_sound(out) == 29
    with RunReader(out) as reader:
        states = [e.data["state"] for e in reader.events(kinds=[EventKind.STATUS])]
    assert "finished" not in states


def _env():
    import os

    return {**os.environ, "PYTHONPATH": str(REPO)}


def _wait_for(get, ok, timeout: float = 60.0):
    deadline = time.monotonic() + timeout
    while True:
        value = get()
        if ok(value) or time.monotonic() > deadline:
            return value
        time.sleep(0.1)
