"""Frames stored as keyframes and changes: what is stored, and that every tick reads back whole."""

from __future__ import annotations

import json
import sqlite3
import zlib

import pytest

from town.errors import RecordingError
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


def test_rows_are_keyframes_every_keyframe_ticks_and_changes_between(synthetic):
    """Over 2.5 keyframe periods every frame, and every range of frames across keyframes, reads
    back as published; a row is whole only at ticks 0, 60, 120, and a row between holds the two
    fields the synthetic run changes each tick (x and action) for each persona."""
    run = synthetic()
    ticks = 2 * KEYFRAME_TICKS + KEYFRAME_TICKS // 2
    for _ in range(ticks):
        run.end_tick()
    conn = sqlite3.connect(run.writer.path)
    rows = conn.execute("SELECT tick, base, data FROM frames ORDER BY tick").fetchall()
    assert [t for t, base, _ in rows if base == t] == [0, KEYFRAME_TICKS, 2 * KEYFRAME_TICKS]
    assert all(base == t - t % KEYFRAME_TICKS for t, base, _ in rows)
    stored = json.loads(zlib.decompress(rows[7][2]))
    assert stored == {"personas": {p: {"x": run.frames[7]["personas"][p]["x"],
                                       "action": run.frames[7]["personas"][p]["action"]} for p in run.personas}}
    with RunReader(run.writer.path) as reader:
        for tick in range(ticks):
            assert reader.frame(tick)["personas"] == run.frames[tick]["personas"], tick
        for start, end in ((0, ticks - 1), (55, 125), (KEYFRAME_TICKS, KEYFRAME_TICKS), (59, 61)):
            got = reader.frames(start, end)
            assert [f["tick"] for f in got] == list(range(start, end + 1))
            assert all(f["personas"] == run.frames[f["tick"]]["personas"] for f in got)


def test_a_change_whose_keyframe_is_gone_is_refused(synthetic):
    """A delta row whose keyframe row is missing is a damaged file, named as such."""
    run = synthetic()
    for _ in range(5):
        run.end_tick()
    run.writer.close()
    conn = sqlite3.connect(run.writer.path)
    conn.execute("DELETE FROM frames WHERE tick = 0")
    conn.commit()
    conn.close()
    with RunReader(run.writer.path) as reader, pytest.raises(RecordingError, match="not a town run file.*tick 1"):
        reader.frame(3)
