"""Crash safety, resume and fork of real runs, driven through the CLI as a user would."""

from __future__ import annotations

import signal
import sqlite3
import subprocess
import sys
import time

from cli_helpers import REPO, run_cli

from town.recording import RunReader

TABLES = ("frames", "events", "memories", "retrievals")


def _rows(path, table, *, after_seq=None, after_tick=None, upto=None):
    """Rows of ``table`` ordered by their key; ``upto=(tick, seq)`` keeps what came up to then."""
    key = "tick" if table == "frames" else "seq"
    where = []
    if after_tick is not None and table == "frames":
        where.append(f"tick > {int(after_tick)}")
    if after_seq is not None and table != "frames":
        where.append(f"seq > {int(after_seq)}")
    if upto is not None:
        where.append(f"{key} <= {int(upto[0] if table == 'frames' else upto[1])}")
    sql = f"SELECT * FROM {table}" + (f" WHERE {' AND '.join(where)}" if where else "")
    conn = sqlite3.connect(path)
    try:
        return conn.execute(sql + f" ORDER BY {key}").fetchall()
    finally:
        conn.close()


def _simulate(out, hours, *extra):
    done = run_cli("simulate", "--hours", str(hours), "--out", str(out), "--quiet", "--embedder", "hashing", *extra)
    assert done.returncode == 0, done.stderr


def test_sigkill_mid_run_then_resume_equals_uninterrupted(tmp_path):
    """A SIGKILLed run passes integrity_check, replays to its last tick, and resumes to the same
    contents as an uninterrupted run with the same seed (from the snapshot on)."""
    whole, killed = tmp_path / "whole.sqlite", tmp_path / "killed.sqlite"
    proc = subprocess.Popen([sys.executable, str(REPO / "run.py"), "simulate", "--hours", "48", "--out", str(killed),
                             "--quiet", "--embedder", "hashing"], cwd=REPO,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:  # wait until at least two snapshots are committed
        time.sleep(0.2)
        try:
            with RunReader(killed) as r:
                if len(r.snapshots()) >= 3:
                    break
        except Exception:
            continue
    proc.send_signal(signal.SIGKILL)
    proc.wait(timeout=30)
    conn = sqlite3.connect(killed)
    assert conn.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
    conn.close()
    with RunReader(killed) as r:
        last = r.last_tick
        assert last is not None and 0 < last < 48 * 360 - 1, "the run was not killed mid-run"
        assert r.frame(last)["tick"] == last and r.frame(0)["tick"] == 0
        assert not r.meta["finished"]
        snap_tick, snap_seq, _ = r.snapshot_at_or_before(last)
    done = run_cli("resume", str(killed), "--hours", "2", "--quiet")
    assert done.returncode == 0, done.stderr
    _simulate(whole, (snap_tick + 1 + 720) / 360)
    for table in TABLES:
        assert _rows(killed, table) == _rows(whole, table), table


def test_fork_keeps_the_past_and_differs_after_with_another_seed(tmp_path):
    """A fork's contents up to the fork time equal the parent's; with the same configuration it
    continues identically, without --hours to the parent's end, and says so; with another seed or
    other retrieval weights it differs after."""
    parent = tmp_path / "parent.sqlite"
    _simulate(parent, 6)
    same, seeded, weighted = (tmp_path / f"{n}.sqlite" for n in ("same", "seeded", "weighted"))
    said = {}
    for out, extra in ((same, []), (seeded, ["--seed", "99", "--hours", "3"]),
                       (weighted, ["--set", "retrieval.weights=0,0,1", "--hours", "3"])):
        done = run_cli("fork", str(parent), "--at", "2023-02-13 09:30", "--out", str(out), "--quiet", *extra)
        assert done.returncode == 0, done.stderr
        said[out] = done.stderr
    # 09:30 forks from the snapshot after 08:59:50 (tick 719); the parent ends at 13:00, its tick 6 * 360 - 1
    assert said[same] == (f"town: the fork runs 4 game hours, to the end of {parent} (2023-02-13 13:00); "
                          "--hours N runs N game hours instead\n")
    assert said[seeded] == said[weighted] == ""
    with RunReader(same) as r, RunReader(parent) as p:
        assert r.last_tick == p.last_tick == 2159
    with RunReader(same) as r:
        assert r.meta["parent"]["run"] in ("parent", "parent.sqlite", str(parent))
        tick, seq = r.meta["parent"]["tick"], r.meta["parent"]["seq"]
    assert tick == 2 * 360 - 1  # the newest snapshot at or before 09:30 is the one after 08:59:50
    for child in (same, seeded, weighted):
        for table in TABLES:
            assert _rows(child, table, upto=(tick, seq)) == _rows(parent, table, upto=(tick, seq))
    # Same configuration: the 3 game hours after the fork replay the parent's exactly.
    def no_status(rows):  # the fork's closing STATUS "finished" is its own
        return [r for r in rows if r[3:4] != ("status",)]

    last = (tick + 1440, max(r[0] for r in no_status(_rows(same, "events"))))
    assert last[1] > seq
    for table in TABLES:
        assert no_status(_rows(same, table)) == no_status(_rows(parent, table, upto=last)), table
    for child in (seeded, weighted):
        assert _rows(child, "events", after_seq=seq) != _rows(same, "events", after_seq=seq)
        with RunReader(child) as r:
            assert r.meta["config"]["seed"] == (99 if child is seeded else 0)


def test_a_run_being_written_cannot_be_resumed_or_written_twice(tmp_path):
    """While a simulation writes a run, `resume` on it and a second writer are refused with one
    line, and nothing is cut; once the writer is gone (even killed), resume works."""
    live = tmp_path / "live.sqlite"
    proc = subprocess.Popen([sys.executable, str(REPO / "run.py"), "simulate", "--hours", "48", "--out", str(live),
                             "--quiet", "--embedder", "hashing"], cwd=REPO,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            time.sleep(0.2)
            try:
                with RunReader(live) as r:
                    if len(r.snapshots()) >= 2:
                        break
            except Exception:
                continue
        done = run_cli("resume", str(live), "--hours", "1", "--quiet")
        assert done.returncode == 2, done.stderr
        assert "being written by another process" in done.stderr and done.stderr.count("\n") == 1
        with RunReader(live) as r:
            before = r.last_tick
        time.sleep(1.0)
        with RunReader(live) as r:
            assert r.last_tick > before  # the writer goes on, nothing was cut
            assert [t for t, _, _ in r.snapshots()] == sorted(t for t, _, _ in r.snapshots())
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=30)
    done = run_cli("resume", str(live), "--hours", "0.5", "--quiet")
    assert done.returncode == 0, done.stderr
