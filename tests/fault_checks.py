"""Shared by the fault tests: inject a full disk or a crash, and check the run file left behind.

:func:`full_disk` wraps every connection ``town.recording.database.connect`` opens so that
writes fail with SQLite's own "database or disk is full" error from a chosen point on: no
special mount is needed. Run as a script (``python tests/fault_checks.py ARGS``), this module
runs the `town` command line with the faults named by the environment (``TOWN_TEST_FULL_AT``,
``TOWN_TEST_CRASH_AT_TICK``, ``TOWN_TEST_KILL_AT_TICK``, ``TOWN_TEST_SLOW_START_S``,
``TOWN_TEST_SLOW_TICK_S``), for the tests that need a process of their own.
"""

from __future__ import annotations

import os
import sqlite3
import sys
from pathlib import Path

WRITES = ("INSERT", "UPDATE", "DELETE", "CREATE", "REPLACE")


class _Disk:
    """When the disk fills: ``writes`` write statements succeed, or the frame of ``tick`` fails."""

    def __init__(self, writes: int | None = None, tick: int | None = None):
        self.writes, self.tick, self.full = writes, tick, False

    def check(self, sql: str, params=()) -> None:
        words = sql.lstrip().upper()
        if not words.startswith(WRITES):
            return
        if self.tick is not None and words.startswith("INSERT OR REPLACE INTO FRAMES") \
                and params and params[0] >= self.tick:
            self.full = True
        if self.writes is not None:
            self.full = self.full or self.writes <= 0
            self.writes -= 1
        if self.full:
            raise sqlite3.OperationalError("database or disk is full")


class _FullConnection:
    """A sqlite3 connection whose writes fail once the disk is full (everything else delegated)."""

    def __init__(self, conn: sqlite3.Connection, disk: _Disk):
        self._conn, self._disk = conn, disk

    def execute(self, sql, params=()):
        self._disk.check(sql, params)
        return self._conn.execute(sql, params)

    def executemany(self, sql, rows):
        self._disk.check(sql)
        return self._conn.executemany(sql, rows)

    def executescript(self, script):
        self._disk.check(script)
        return self._conn.executescript(script)

    def __enter__(self):
        return self._conn.__enter__()

    def __exit__(self, *exc):
        return self._conn.__exit__(*exc)

    def __getattr__(self, name):
        return getattr(self._conn, name)


def full_disk(writes: int | None = None, tick: int | None = None):
    """A replacement for ``town.recording.database.connect`` whose run files fill the disk:
    after ``writes`` write statements, or at the frame of tick ``tick`` (and every write after)."""
    from town.recording import database

    connect = database.connect
    disk = _Disk(writes, tick)
    return lambda path: _FullConnection(connect(path), disk)


def crash_at(tick: int) -> None:
    """From now on (in this process) tick ``tick`` raises RuntimeError (a bug inside a tick)."""
    from town.mind import act

    decide = act.decide_action

    def crashing(p, ctx, *rest):
        if ctx.tick >= tick:
            raise RuntimeError(f"injected bug at tick {ctx.tick}")
        return decide(p, ctx, *rest)

    import town.simulation.decide

    town.simulation.decide.decide_action = crashing


def kill_at(tick: int) -> None:
    """From now on (in this process) the process kills itself (SIGKILL) inside tick ``tick``."""
    import signal

    import town.simulation.decide
    from town.mind import act

    decide = act.decide_action

    def killing(p, ctx, *rest):
        if ctx.tick >= tick:
            os.kill(os.getpid(), signal.SIGKILL)
        return decide(p, ctx, *rest)

    town.simulation.decide.decide_action = killing


def slow_start(seconds: float) -> None:
    """From now on (in this process) seeding a new run's memories takes ``seconds`` longer."""
    import time

    import town.simulation.core

    seed = town.simulation.core.seed

    def slow(*args, **kwargs):
        time.sleep(seconds)
        seed(*args, **kwargs)

    town.simulation.core.seed = slow


def slow_tick(seconds: float) -> None:
    """From now on (in this process) the first tick works ``seconds`` longer before its own work,
    publishing an event every 20 ms as a busy tick writes its memories: a first tick of a large
    town on a busy machine, which nothing a stop does can cut short."""
    import time

    import town.simulation.core
    from town.events import EventKind

    step = town.simulation.core.Simulation._step

    def slow(sim):
        if sim.clock.tick == 0:
            end = time.monotonic() + seconds
            while time.monotonic() < end:
                sim.apply.publish(EventKind.SCENARIO, None, {"type": "busy"})
                time.sleep(0.02)
        return step(sim)

    town.simulation.core.Simulation._step = slow


def integrity(path: Path) -> str:
    """``PRAGMA integrity_check`` of a run file ("ok" when sound)."""
    conn = sqlite3.connect(path)
    try:
        return conn.execute("PRAGMA integrity_check").fetchone()[0]
    finally:
        conn.close()


def assert_sound(path: Path) -> int | None:
    """Assert the run file passes ``integrity_check`` and opens in replay; its last tick.

    Replay here is the viewer's: the replay page, the run's summary and (if it has ticks) its
    last frame, served by the app that ``town replay`` serves.
    """
    from web import create_app, live

    path = Path(path)
    assert integrity(path) == "ok"
    app = create_app({"RUNS_DIR": str(path.parent), "TESTING": True})
    try:
        client = app.test_client()
        assert client.get(f"/replay/{path.stem}").status_code == 200
        summary = client.get(f"/api/runs/{path.stem}")
        assert summary.status_code == 200, summary.get_json()
        last = summary.get_json().get("last_tick")
        if last is not None:
            frame = client.get(f"/api/runs/{path.stem}/frames/{last}")
            assert frame.status_code == 200 and frame.get_json()["tick"] == last
        return last
    finally:
        live(app).close()


def assert_replays_and_resumes(path: Path, ticks: int = 3) -> int:
    """:func:`assert_sound`, then resume the run in process from its newest snapshot for
    ``ticks`` ticks, and check again; returns the tick the resumed run reached.

    For the tests where outside input reached a run: whatever was refused, the run file is whole,
    replays, and goes on.
    """
    from town.recording import newest_snapshot
    from town.simulation import Simulation

    assert_sound(path)
    sim = Simulation.from_run(path, newest_snapshot(path))
    try:
        start = sim.clock.tick
        sim.run(ticks)
        reached = sim.clock.tick
    finally:
        sim.close()
    assert reached == start + ticks
    assert assert_sound(path) == reached - 1  # the frame of the last tick simulated
    return reached


def leftovers(path: Path) -> list[str]:
    """The run file and side files (``-wal``, ``-shm``, ``.lock``) that exist."""
    return [s for s in ("", "-wal", "-shm", ".lock") if Path(f"{path}{s}").exists()]


if __name__ == "__main__":
    if os.environ.get("TOWN_TEST_FULL_AT"):
        from town.recording import database

        database.connect = full_disk(tick=int(os.environ["TOWN_TEST_FULL_AT"]))
    if os.environ.get("TOWN_TEST_CRASH_AT_TICK"):
        crash_at(int(os.environ["TOWN_TEST_CRASH_AT_TICK"]))
    if os.environ.get("TOWN_TEST_SLOW_START_S"):
        slow_start(float(os.environ["TOWN_TEST_SLOW_START_S"]))
    if os.environ.get("TOWN_TEST_KILL_AT_TICK"):
        kill_at(int(os.environ["TOWN_TEST_KILL_AT_TICK"]))
    if os.environ.get("TOWN_TEST_SLOW_TICK_S"):
        slow_tick(float(os.environ["TOWN_TEST_SLOW_TICK_S"]))
    from web.cli import main

    sys.exit(main(sys.argv[1:]))
