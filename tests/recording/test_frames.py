"""Frames stored as keyframes and changes: what is stored, and that every tick reads back whole."""

from __future__ import annotations

import json
import sqlite3
import zlib

import pytest

from town.errors import RecordingError
from town.events import EventKind
from town.recording.frames import KEYFRAME_TICKS, apply_delta, frame_delta
from town.recording.reader import RunReader


def test_a_delta_holds_only_what_changed_and_applies_back():
    """Ana walks one tile (x changes), Bo says a line, Cy leaves, Di arrives: the delta holds
    exactly those changes, and applying it to the frame before gives the frame after."""
    before = {"personas": {"ana": {"x": 1, "y": 2, "speech": None}, "bo": {"x": 5, "y": 5, "speech": None},
                           "cy": {"x": 0, "y": 0, "speech": None}}}
    after = {"personas": {"ana": {"x": 2, "y": 2, "speech": None}, "bo": {"x": 5, "y": 5, "speech": "Hi!"},
                          "di": {"x": 9, "y": 9, "speech": None}}}
    delta = frame_delta(before, after)
    assert delta == {"personas": {"ana": {"x": 2}, "bo": {"speech": "Hi!"}, "di": {"x": 9, "y": 9, "speech": None}},
                     "gone": ["cy"]}
    assert apply_delta(before, delta) == after
    assert before["personas"]["ana"]["x"] == 1  # the frame before is not changed
    assert frame_delta(after, after) == {"personas": {}}


def _publish(run, ticks, moves):
    """``ticks`` frames of 10 people standing still but for ``moves(tick)`` (ids that step)."""
    people = {f"p{i}": {"x": i, "y": 0, "address": f"town:house {i}", "action": "reading", "emoji": "z",
                        "speech": None, "conversation": None} for i in range(10)}
    frames = []
    for tick in range(ticks):
        for pid in moves(tick):
            people[pid] = {**people[pid], "x": people[pid]["x"] + 1}
        frame = {"personas": {pid: dict(f) for pid, f in people.items()}}
        run.publish(EventKind.FRAME, None, frame)
        run.clock.advance()
        frames.append(frame)
    return frames


def test_a_still_town_stores_a_keyframe_every_keyframe_ticks_and_empty_changes_between(synthetic):
    """Nobody moves for 150 ticks: each tick stores the empty change, which costs nothing to read,
    so keyframes fall every 60 ticks (0, 60, 120); every frame reads back."""
    run = synthetic()
    frames = _publish(run, 150, lambda t: [])
    conn = sqlite3.connect(run.writer.path)
    rows = conn.execute("SELECT tick, base, data FROM frames ORDER BY tick").fetchall()
    assert [t for t, base, _ in rows if base == t] == [0, KEYFRAME_TICKS, 2 * KEYFRAME_TICKS]
    assert all(json.loads(zlib.decompress(d)) == {"personas": {}} for t, base, d in rows if base != t)
    with RunReader(run.writer.path) as reader:
        assert all(reader.frame(t)["personas"] == frames[t]["personas"] for t in (0, 59, 60, 149))


def test_a_quiet_town_stores_small_changes_and_reads_every_range_back(synthetic):
    """Ten people, one of whom steps every other tick: a stored change holds only that step (the
    7th row: p3's 4th step, to x = 7) or nothing; every frame, and every range across keyframes,
    reads back as published."""
    run = synthetic()
    ticks = 2 * KEYFRAME_TICKS + KEYFRAME_TICKS // 2
    frames = _publish(run, ticks, lambda t: ["p3"] if t % 2 else [])
    conn = sqlite3.connect(run.writer.path)
    rows = conn.execute("SELECT tick, base, data FROM frames ORDER BY tick").fetchall()
    assert rows[7][1] != 7 and json.loads(zlib.decompress(rows[7][2])) == {"personas": {"p3": {"x": 7}}}
    assert rows[8][1] != 8 and json.loads(zlib.decompress(rows[8][2])) == {"personas": {}}
    with RunReader(run.writer.path) as reader:
        for tick in range(ticks):
            assert reader.frame(tick)["personas"] == frames[tick]["personas"], tick
        for start, end in ((0, ticks - 1), (55, 125), (KEYFRAME_TICKS, KEYFRAME_TICKS), (59, 61)):
            got = reader.frames(start, end)
            assert [f["tick"] for f in got] == list(range(start, end + 1))
            assert all(f["personas"] == frames[f["tick"]]["personas"] for f in got)


def test_a_busy_town_stores_a_keyframe_before_its_changes_outweigh_it(synthetic):
    """When everyone moves every tick, the changes since a keyframe reach its size within a few
    ticks, and a new keyframe starts: reading any frame never decodes more stored bytes than twice
    its keyframe, and every frame reads back."""
    run = synthetic()
    frames = _publish(run, 90, lambda t: [f"p{i}" for i in range(10)])
    conn = sqlite3.connect(run.writer.path)
    rows = conn.execute("SELECT tick, base, length(data) FROM frames ORDER BY tick").fetchall()
    size = {t: n for t, _, n in rows}
    keyframes = [t for t, base, _ in rows if base == t]
    assert 10 < len(keyframes) < 90  # neither every frame whole nor 60 changes in a row
    for tick, base, _ in rows:
        assert sum(size[t] for t in range(base + 1, tick + 1)) <= size[base]
    with RunReader(run.writer.path) as reader:
        assert all(reader.frame(t)["personas"] == frames[t]["personas"] for t in range(90))


def test_a_change_whose_keyframe_is_gone_is_refused(synthetic):
    """A change row whose keyframe row is missing is a damaged file, named as such."""
    run = synthetic()
    _publish(run, 5, lambda t: ["p1"])
    run.writer.close()
    conn = sqlite3.connect(run.writer.path)
    (tick, base), = conn.execute("SELECT tick, base FROM frames WHERE tick = 3").fetchall()
    assert base < tick  # a change
    conn.execute("DELETE FROM frames WHERE tick = ?", (base,))
    conn.commit()
    conn.close()
    with RunReader(run.writer.path) as reader, pytest.raises(RecordingError, match="not a town run file.*tick"):
        reader.frame(3)
