"""RunWriter: refusing to overwrite, float32 vector blobs, query-vector sharing, crash safety."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import numpy as np
import pytest

from town.errors import RecordingError
from town.recording.reader import RunReader
from town.recording.writer import RunWriter

REPO = Path(__file__).resolve().parents[2]


def test_refuses_to_overwrite_an_existing_run(synthetic, tmp_path):
    """A second writer on the same path is refused unless told to overwrite."""
    run = synthetic(name="taken")
    run.end_tick()
    run.writer.close()
    with pytest.raises(RecordingError, match="taken.sqlite already exists"):
        RunWriter(tmp_path / "taken.sqlite", {"town": "x"})
    RunWriter(tmp_path / "taken.sqlite", {"town": "x"}, overwrite=True).close()
    reader = RunReader(tmp_path / "taken.sqlite")
    assert reader.last_tick is None and reader.meta["town"] == "x"


def test_vectors_are_float32_blobs_never_json_each_stored_once(synthetic):
    """Embeddings are 4*d-byte blobs; event JSON holds no vector; a vector is kept once, whether
    two memories (of two personas) or a memory and a query share it."""
    run = synthetic()
    vector = np.arange(8, dtype=np.float32) / 10
    run.memory("ana", "a", 3, vector=vector)
    run.memory("ana", "b", 4)
    run.memory("bo", "a", 3, vector=vector)  # bo saw the same thing: the same embedding
    query = run.unit()
    run.retrieve("ana", vector=query)
    run.end_tick()
    run.retrieve("ana", vector=query)
    run.retrieve("bo", vector=vector)  # a query worded as a memory
    run.end_tick()
    conn = sqlite3.connect(run.writer.path)
    rows = conn.execute("SELECT m.persona, m.vector, typeof(v.vector), length(v.vector), v.vector FROM memories m"
                        " JOIN vectors v ON v.id = m.vector ORDER BY m.seq").fetchall()
    assert [(p, t, n) for p, _, t, n, _ in rows] == [("ana", "blob", 32)] * 2 + [("bo", "blob", 32)]
    np.testing.assert_array_equal(np.frombuffer(rows[0][4], "<f4"), vector)
    assert rows[0][1] == rows[2][1] != rows[1][1]
    with_vectors = "SELECT COUNT(*) FROM events WHERE data LIKE '%embedding%'"
    assert conn.execute(with_vectors).fetchone() == (0,)
    # the memories' two vectors and the one new query vector; the repeated query and the query
    # equal to a memory's vector add none
    assert conn.execute("SELECT COUNT(*) FROM vectors").fetchone() == (3,)
    assert [r for r, in conn.execute("SELECT vector FROM retrievals ORDER BY seq")] == [3, 3, rows[0][1]]


def test_close_marks_finished_and_append_reopens(synthetic):
    """close() sets meta finished; append() reopens the file for writing and clears it."""
    run = synthetic()
    run.end_tick()
    run.writer.close()
    assert RunReader(run.writer.path).meta["finished"] is True
    writer = RunWriter.append(run.writer.path)
    assert RunReader(run.writer.path).meta["finished"] is False
    writer.close()
    with pytest.raises(RecordingError, match="closed"):
        run.writer.handle(run.published[0])


def test_closed_says_whether_the_newest_snapshot_holds_the_last_tick(synthetic):
    """meta ``closed``: true when the file is closed with a snapshot of its last tick (a clean
    stop: ``finished`` false), false when a tick was recorded after the snapshot; append clears it."""
    stopped = synthetic(name="stopped")
    stopped.end_tick()
    stopped.end_tick()
    stopped.snapshot()  # after tick 1, the last tick
    stopped.writer.close(finished=False)
    meta = RunReader(stopped.writer.path).meta
    assert (meta["finished"], meta["closed"]) == (False, True)
    writer = RunWriter.append(stopped.writer.path)
    assert RunReader(stopped.writer.path).meta["closed"] is False
    writer.close(finished=False)  # no tick since the snapshot: closed again
    assert RunReader(stopped.writer.path).meta["closed"] is True

    cut = synthetic(name="cut")
    cut.end_tick()
    cut.snapshot()  # after tick 0
    cut.end_tick()  # tick 1 recorded after it
    cut.writer.close(finished=False)
    meta = RunReader(cut.writer.path).meta
    assert (meta["finished"], meta["closed"]) == (False, False)


CHILD = textwrap.dedent("""
    import sys
    from datetime import datetime, timedelta
    import numpy as np
    from town.events import Event, EventBus, EventKind
    from town.recording.writer import RunWriter

    bus = EventBus()
    writer = RunWriter(sys.argv[1], {"town": "crash"})
    bus.subscribe(writer.handle)
    start = datetime(2023, 2, 13, 7)
    tick = 0
    while True:
        now = start + timedelta(seconds=10 * tick)
        for p in ("ana", "bo", "cy"):
            record = {"id": tick, "persona": p, "kind": "observation", "content": f"t{tick}",
                      "created": now.strftime("%Y-%m-%d %H:%M:%S"),
                      "last_accessed": now.strftime("%Y-%m-%d %H:%M:%S"), "importance": 3,
                      "probe": None, "embedding": np.full(384, tick, np.float32)}
            bus.publish(Event(kind=EventKind.MEMORY, tick=tick, time=now, persona=p, data=record))
        frame = {"personas": {p: {"x": tick, "y": 0} for p in ("ana", "bo", "cy")}}
        bus.publish(Event(kind=EventKind.FRAME, tick=tick, time=now, data=frame))
        tick += 1
""")


def test_sigkill_leaves_a_run_readable_to_its_last_committed_tick(tmp_path):
    """Kill -9 mid-run: the file passes integrity_check and replays every committed tick whole."""
    path = tmp_path / "crash.sqlite"
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    child = subprocess.Popen([sys.executable, "-c", CHILD, str(path)], env=env)
    try:
        for _ in range(600):  # wait (up to ~60 s) until some ticks are committed
            time.sleep(0.1)
            if path.exists() and child.poll() is None:
                try:
                    with RunReader(path) as reader:
                        if (reader.last_tick or 0) >= 40:
                            break
                except RecordingError:
                    continue
        assert child.poll() is None, "the writer process died on its own"
    finally:
        child.send_signal(signal.SIGKILL)
        child.wait()
    assert child.returncode == -signal.SIGKILL
    conn = sqlite3.connect(path)
    assert conn.execute("PRAGMA integrity_check").fetchone() == ("ok",)
    conn.close()
    reader = RunReader(path)
    last = reader.last_tick
    assert last >= 40
    assert [f["tick"] for f in reader.frames(0, last + 10)] == list(range(last + 1))
    assert reader.frame(last)["personas"]["cy"] == {"x": last, "y": 0}
    memories = reader.events(kinds=["memory"])
    assert len(memories) == 3 * (last + 1)  # whole ticks only: nothing after the last frame
    assert max(e.tick for e in memories) == last
    stream = reader.stream_as_of("bo", 10**9)
    np.testing.assert_array_equal(stream.embeddings[:, 0], np.arange(last + 1, dtype=np.float32))
