"""RunReader: seek, event filters, traces, the stream as of an event, snapshots, live reading."""

from __future__ import annotations

import sqlite3
from datetime import datetime

import numpy as np
import pytest

from town.errors import RecordingError
from town.events import EventKind
from town.recording.reader import RunReader


def test_frame_returns_what_was_written(synthetic):
    """frame(t) is the FRAME data of tick t; frames(a, b) is the inclusive range."""
    run = synthetic()
    for _ in range(20):
        run.end_tick()
    reader = RunReader(run.writer.path)
    assert (reader.first_tick, reader.last_tick) == (0, 19)
    for tick in (0, 7, 19):
        frame = reader.frame(tick)
        assert frame["personas"] == run.frames[tick]["personas"]
        assert frame["time"] == f"2023-02-13 07:{tick * 10 // 60:02d}:{tick * 10 % 60:02d}"
    assert [f["tick"] for f in reader.frames(3, 5)] == [3, 4, 5]
    with pytest.raises(RecordingError, match="no frame at tick 20"):
        reader.frame(20)


def test_events_filter_by_kind_persona_ticks_seq_and_limit(synthetic):
    """Each filter keeps exactly the events a hand filter of the published list keeps."""
    run = synthetic()
    for tick in range(6):
        run.memory("ana", f"ana sees thing {tick}", 3)
        if tick % 2:
            run.memory("bo", f"bo sees thing {tick}", 4)
            run.publish(EventKind.CHAT, "bo", {"conversation": 1, "speaker": "bo",
                                               "listener": "ana", "line": "hi", "shared": []})
        run.end_tick()
    reader = RunReader(run.writer.path)
    published = [e for e in run.published if e.kind is not EventKind.FRAME]

    def seqs(events):
        return [e.seq for e in events]

    assert seqs(reader.events()) == seqs(published)
    assert seqs(reader.events(kinds=["memory"], persona="bo")) == [
        e.seq for e in published if e.kind is EventKind.MEMORY and e.persona == "bo"]
    assert seqs(reader.events(kinds=[EventKind.CHAT])) == [
        e.seq for e in published if e.kind is EventKind.CHAT]
    assert seqs(reader.events(since_tick=2, until_tick=3)) == [
        e.seq for e in published if 2 <= e.tick <= 3]
    cut = published[3].seq
    assert seqs(reader.events(after_seq=cut, limit=2)) == [e.seq for e in published[4:6]]
    assert seqs(reader.events(limit=1, newest_first=True)) == [published[-1].seq]
    assert reader.events(kinds=["frame"]) == []
    first = reader.event(published[0].seq)
    assert first.data["content"] == "ana sees thing 0" and first.time == datetime(2023, 2, 13, 7)


def test_stream_as_of_reconstructs_last_accessed_by_hand(synthetic):
    """Hand-worked: importance-only retrievals return known ids at known times."""
    run = synthetic()
    run.memory("ana", "m0", 2)                      # tick 0, 07:00:00
    run.memory("ana", "m1", 5)
    run.memory("bo", "not ana's", 9)
    run.end_tick()
    r1 = run.retrieve("ana", weights=(0, 1, 0), k=1)  # tick 1, 07:00:10 -> returns m1
    run.end_tick()
    run.memory("ana", "m2", 9)                      # tick 2, 07:00:20
    run.end_tick()
    r3 = run.retrieve("ana", weights=(0, 1, 0), k=1)  # tick 3, 07:00:30 -> returns m2
    run.end_tick()
    r4 = run.retrieve("ana", weights=(0, 1, 0), k=2)  # tick 4, 07:00:40 -> returns m2, m1
    after = run.end_tick()
    reader = RunReader(run.writer.path)
    assert reader.retrieval(r1.seq)["returned"] == [1]
    assert reader.retrieval(r4.seq)["returned"] == [2, 1]

    def at(second):
        return datetime(2023, 2, 13, 7, 0, second)

    before_r1 = reader.stream_as_of("ana", r1.seq)
    assert before_r1.ids.tolist() == [0, 1]
    assert before_r1.last_accessed == [at(0), at(0)]
    before_r3 = reader.stream_as_of("ana", r3.seq)
    assert before_r3.ids.tolist() == [0, 1, 2]
    assert before_r3.last_accessed == [at(0), at(10), at(20)]
    assert before_r3.created == [at(0), at(0), at(20)]
    assert before_r3.importance.tolist() == [2, 5, 9]
    before_r4 = reader.stream_as_of("ana", r4.seq)
    assert before_r4.last_accessed == [at(0), at(10), at(30)]
    end = reader.stream_as_of("ana", after.seq + 1)
    assert end.last_accessed == [at(0), at(40), at(40)]
    assert end.embeddings.dtype == np.float32 and end.embeddings.shape == (3, 8)
    np.testing.assert_array_equal(end.embeddings[2], run.vectors["ana"][2])
    records = reader.memories("ana", as_of_seq=r4.seq)
    assert [(r["id"], r["last_accessed"]) for r in records] == [
        (2, "2023-02-13 07:00:30"), (1, "2023-02-13 07:00:10"), (0, "2023-02-13 07:00:00")]
    assert [r["id"] for r in reader.memories("ana", q="M1")] == [1]
    lazy = reader.records_as_of("ana", r4.seq)  # the same records, by id, decoded when read
    assert (len(lazy), lazy[1]["last_accessed"], lazy[2]["content"]) == (3, "2023-02-13 07:00:10", "m2")
    assert dict(lazy) == {r["id"]: r for r in records}
    assert [r["content"] for r in reader.memories("bo")] == ["not ana's"]


def test_retrieval_returns_the_full_trace(synthetic):
    """retrieval(seq) gives back the published trace, candidates and query vector included."""
    run = synthetic()
    for i in range(8):
        run.memory("ana", f"memory {i}", i + 1)
    run.end_tick()
    event = run.retrieve("ana", k=3, purpose="converse", query="what about bo?")
    run.end_tick()
    reader = RunReader(run.writer.path)
    trace = reader.retrieval(event.seq)
    published = event.data
    for key in ("persona", "purpose", "query", "weights", "k", "n_scored", "candidates"):
        assert trace[key] == published[key]
    np.testing.assert_array_equal(trace["query_embedding"], published["query_embedding"])
    assert trace["returned"] == [c["id"] for c in published["candidates"][:3]]
    assert reader.event(event.seq).data["candidates"] == published["candidates"]
    (summary,) = reader.retrievals("ana", purpose="converse")
    assert summary["seq"] == event.seq and "candidates" not in summary
    assert reader.retrievals("ana", purpose="react") == []
    with pytest.raises(RecordingError, match="not a recorded retrieval"):
        reader.retrieval(1)


def test_snapshot_round_trip(synthetic):
    """snapshot_at_or_before returns the newest snapshot not after the tick, state intact."""
    run = synthetic()
    run.memory("ana", "hello", 3)
    run.end_tick()
    run.end_tick()
    run.snapshot()  # after tick 1
    state_1 = {"tick": 1, "personas": {"ana": {"records": {"0": run.records["ana"][0]}}, "bo": {"records": {}}},
               "world": {"rng": "opaque"}}
    seq_1 = run.bus.seq
    run.end_tick()
    run.snapshot()  # after tick 2
    reader = RunReader(run.writer.path)
    assert reader.snapshot_at_or_before(0) is None
    assert reader.snapshot_at_or_before(1) == (1, seq_1, state_1)
    assert reader.snapshot_at_or_before(100)[0] == 2
    assert [s[0] for s in reader.snapshots()] == [1, 2]


def test_a_snapshot_stores_only_the_parts_that_changed(synthetic):
    """Three snapshots: ana writes a memory before each, bo only before the third, the world never
    changes. The parts table holds ana's state three times, bo's twice and the world's once,
    and each snapshot reads back as the whole state it was given."""
    run = synthetic()
    given = {}
    for tick in range(3):
        run.memory("ana", f"ana notices {tick}", 3)
        if tick == 2:
            run.memory("bo", "bo notices", 4)
        run.end_tick()
        given[tick] = run.snapshot()
    conn = sqlite3.connect(run.writer.path)
    stored = conn.execute("SELECT part, tick FROM snapshot_parts ORDER BY part, tick").fetchall()
    assert stored == [("persona:ana", 0), ("persona:ana", 1), ("persona:ana", 2), ("persona:bo", 0),
                      ("persona:bo", 2), ("world", 0)]
    with RunReader(run.writer.path) as reader:
        for tick, state in given.items():
            assert reader.snapshot_at_or_before(tick)[2] == state
        assert reader.snapshot_at_or_before(1)[2]["personas"]["bo"] == {"records": {}}


def test_summary_and_personas(synthetic):
    """summary() reports the run's town, personas, span, ticks and backend."""
    run = synthetic(name="morning")
    for _ in range(7):
        run.end_tick()
    reader = RunReader(run.writer.path)
    summary = reader.summary()
    assert summary["name"] == "morning" and summary["town"] == "tiny"
    assert summary["personas"] == ["ana", "bo"] == reader.personas()
    assert (summary["start"], summary["end"]) == ("2023-02-13 07:00:00", "2023-02-13 07:01:00")
    assert (summary["first_tick"], summary["last_tick"], summary["ticks"]) == (0, 6, 7)
    assert summary["backend"] == "scripted" and summary["finished"] is False
    assert summary["size_bytes"] > 0


def test_reader_follows_a_run_being_written_tick_by_tick(synthetic):
    """A reader opened during the run sees each tick once its frame commits it, not before."""
    run = synthetic()
    run.end_tick()
    reader = RunReader(run.writer.path)
    assert reader.last_tick == 0
    run.memory("ana", "pending", 3)
    assert reader.events(kinds=["memory"]) == []  # tick 1 not committed yet
    run.end_tick()
    assert reader.last_tick == 1
    assert [e.data["content"] for e in reader.events(kinds=["memory"])] == ["pending"]


def _damage(path, sql, *params):
    """Run one UPDATE on a closed run file (a damaged copy)."""
    import sqlite3

    conn = sqlite3.connect(path)
    with conn:
        conn.execute(sql, params)
    conn.close()


def test_meta_value_that_is_not_json_is_refused_on_open_naming_file_and_key(synthetic):
    """A meta value that is not JSON makes RunReader() fail naming the file and that key."""
    run = synthetic()
    run.end_tick()
    run.writer.close()
    _damage(run.writer.path, "UPDATE meta SET value = '{{' WHERE key = 'personas'")
    with pytest.raises(RecordingError) as err:
        RunReader(run.writer.path)
    assert str(run.writer.path) in str(err.value) and "meta 'personas'" in str(err.value)


def test_damaged_frame_and_snapshot_blobs_name_file_and_what(synthetic):
    """A frame or snapshot blob that is not zlib JSON is a RecordingError saying which one.

    A frame row after a keyframe holds the change from the tick before, so a damaged row takes
    the frames after it up to the next keyframe with it; the frames before it still read."""
    run = synthetic()
    for _ in range(3):
        run.end_tick()
    run.snapshot()
    run.writer.close()
    path = run.writer.path
    _damage(path, "UPDATE frames SET data = ? WHERE tick = 1", b"not zlib")
    _damage(path, "UPDATE snapshots SET state = ?", b"not zlib")
    with RunReader(path) as reader:
        (snap_tick, _, _), = reader.snapshots()
        assert reader.frame(0)["tick"] == 0  # the frame before still reads
        with pytest.raises(RecordingError, match=rf"{path}.*frame at tick 1"):
            reader.frame(1)
        with pytest.raises(RecordingError, match=rf"{path}.*frame at tick 1"):
            reader.frames(0, 2)
        with pytest.raises(RecordingError, match=rf"{path}.*snapshot at tick {snap_tick}"):
            reader.snapshot_at_or_before(10)


def test_run_without_ticks_has_no_frame_to_give(synthetic):
    """Before the first frame, frame(last_tick) (= frame(None)) says the run has no tick yet."""
    run = synthetic()
    with RunReader(run.writer.path) as reader:
        assert reader.last_tick is None
        with pytest.raises(RecordingError, match=rf"{run.writer.path} has no recorded tick yet"):
            reader.frame(reader.last_tick)


def test_event_counts_and_the_simulate_summary_equal_a_count_of_every_event(party_run, capsys):
    """SQLite's counts per (persona, kind) equal counting the decoded events one by one (brute
    force), and the summary simulate prints after a run shows those counts and each persona's
    conversations (counted here from the CONVERSATION events' participants)."""
    from collections import Counter

    from town.cli.drive import _print_summary
    from town.events import EventKind

    kinds = (EventKind.MEMORY, EventKind.RETRIEVAL, EventKind.REFLECTION)
    with RunReader(party_run) as reader:
        counted = reader.event_counts(kinds)
        every = reader.events()
        personas = reader.personas()
    brute = Counter((e.persona, e.kind.value) for e in every if e.kind in kinds)
    assert counted == brute and sum(brute.values()) > 0
    talks = Counter(p for e in every if e.kind is EventKind.CONVERSATION for p in e.data["participants"])
    _print_summary(party_run, 1.0)
    rows = {line.split("│")[1].strip(): [c.strip() for c in line.split("│")[2:6]]
            for line in capsys.readouterr().out.splitlines() if line.count("│") == 6}
    assert rows == {p: [str(brute[(p, k.value)]) for k in kinds] + [str(talks[p])] for p in personas}
