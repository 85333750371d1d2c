"""Resume (truncate to the newest snapshot) and fork (copy up to a snapshot) on run files."""

from __future__ import annotations

import sqlite3
from datetime import datetime

import pytest

from town.errors import RecordingError
from town.recording.continuation import fork_copy, truncate_after_snapshot
from town.recording.reader import RunReader

TABLE_DUMPS = {
    "frames": "SELECT tick, time, seq, base, data FROM frames ORDER BY tick",
    "events": "SELECT * FROM events ORDER BY seq",
    "memories": "SELECT m.persona, m.id, m.seq, m.tick, m.created, m.kind, m.importance, m.content, m.probe,"
                " v.vector FROM memories m JOIN vectors v ON v.id = m.vector ORDER BY m.persona, m.id",
    "retrievals": "SELECT r.seq, r.persona, r.tick, r.time, r.purpose, r.query, r.returned,"
                  " r.candidates, v.vector FROM retrievals r"
                  " JOIN vectors v ON v.id = r.vector"
                  " ORDER BY r.seq",
    "snapshots": "SELECT * FROM snapshots ORDER BY tick",
    "snapshot_parts": "SELECT * FROM snapshot_parts ORDER BY part, tick",
    "vectors": "SELECT id, vector FROM vectors ORDER BY id",
}


def dump(path):
    """Every row of every content table (not meta)."""
    conn = sqlite3.connect(path)
    try:
        return {table: conn.execute(sql).fetchall() for table, sql in TABLE_DUMPS.items()}
    finally:
        conn.close()


def play(run, ticks, snapshot_after=()):
    """Ticks of memories and retrievals (deterministic for a seed), snapshots after some ticks."""
    for _ in range(ticks):
        tick = run.tick
        run.memory("ana", f"ana notices {tick}", 1 + tick % 10)
        if tick % 3 == 0:
            run.memory("bo", f"bo notices {tick}", 2)
        if tick >= 2:
            run.retrieve("ana", k=2)
        run.end_tick()
        if tick in snapshot_after:
            run.snapshot()


def test_truncate_after_snapshot_leaves_exactly_the_pre_snapshot_run(synthetic):
    """Cut back to the newest snapshot == a twin run that stopped right after that snapshot."""
    full = synthetic(name="full", seed=3)
    play(full, 10, snapshot_after=(1, 4))
    twin = synthetic(name="twin", seed=3)
    play(twin, 5, snapshot_after=(1, 4))
    snapshot_seq = twin.bus.seq
    full.writer.close()
    twin.writer.close()
    assert dump(full.writer.path) != dump(twin.writer.path)
    tick, seq, state = truncate_after_snapshot(full.writer.path)
    assert (tick, seq) == (4, snapshot_seq)
    assert state["tick"] == 4 and state["personas"]["ana"]["records"]["4"]["content"] == "ana notices 4"
    assert dump(full.writer.path) == dump(twin.writer.path)
    reader = RunReader(full.writer.path)
    assert reader.last_tick == 4 and reader.meta["finished"] is False
    assert sqlite3.connect(full.writer.path).execute("PRAGMA integrity_check").fetchone() == ("ok",)


def test_truncate_without_snapshot_is_refused(synthetic):
    """A run with no snapshot cannot be resumed."""
    run = synthetic()
    play(run, 2)
    run.writer.close()
    with pytest.raises(RecordingError, match="no snapshot"):
        truncate_after_snapshot(run.writer.path)


def test_fork_copy_equals_the_parent_up_to_the_fork_snapshot(synthetic, tmp_path):
    """Fork at tick 7 starts from the tick-4 snapshot; content == parent up to it; parent kept."""
    parent = synthetic(name="parent", seed=5)
    play(parent, 10, snapshot_after=(1, 4, 8))
    twin = synthetic(name="twin", seed=5)
    play(twin, 5, snapshot_after=(1, 4))
    parent.writer.close()
    twin.writer.close()
    before = dump(parent.writer.path)
    fork = tmp_path / "fork.sqlite"
    tick, seq, state = fork_copy(parent.writer.path, fork, 7)
    assert (tick, seq, state["tick"]) == (4, twin.bus.seq, 4)
    assert dump(fork) == dump(twin.writer.path)
    assert dump(parent.writer.path) == before
    meta = RunReader(fork).meta
    assert meta["parent"] == {"run": "parent", "tick": 4, "seq": seq, "time": "2023-02-13 07:00:40"}
    assert meta["finished"] is False
    with pytest.raises(RecordingError, match="already exists"):
        fork_copy(parent.writer.path, fork, 7)
    early = datetime(2023, 2, 13, 7, 0, 39)
    tick, _, _ = fork_copy(parent.writer.path, tmp_path / "early.sqlite", early)
    assert tick == 1
    with pytest.raises(RecordingError, match="no snapshot at or before tick 0; its first snapshot is at "
                       "2023-02-13 07:00:10") as err:
        fork_copy(parent.writer.path, tmp_path / "none.sqlite", 0)
    assert "WHERE" not in str(err.value) and "?" not in str(err.value)
