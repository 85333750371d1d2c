"""Many viewers, and none: the simulation never waits on a viewer, and viewers that keep up at
x8 miss no frame. These run a real server on loopback (no browser needed)."""

from __future__ import annotations

import logging
import threading

import pytest
import socketio

pytestmark = pytest.mark.slow


class Viewer:
    """A python-socketio client that records the tick of every frame it receives."""

    def __init__(self, url: str):
        self.ticks: list[int] = []
        self.client = socketio.Client()
        self.client.on("frame", lambda frame: self.ticks.append(frame["tick"]))
        self.client.connect(url, transports=["websocket"], wait_timeout=10)


def test_ten_viewers_for_a_minute_at_x8(live_town, caplog):
    """10 viewers, 60 wall seconds: each sees strictly increasing ticks with no gap, up to date."""
    caplog.set_level(logging.ERROR)
    town = live_town(speed=8)
    viewers = [Viewer(town.url) for _ in range(10)]
    threading.Event().wait(60)
    town.runner.pause()
    last_frame = town.runner.status()["tick"] - 1
    threading.Event().wait(2)  # frames in flight arrive (liveness bound)
    for viewer in viewers:
        viewer.client.disconnect()
    assert town.runner.status()["state"] == "paused"
    assert last_frame >= 8 * 30  # x8 for a minute: far more than half the ticks happened
    for viewer in viewers:
        ticks = viewer.ticks
        assert ticks, "a viewer received no frame"
        assert all(b == a + 1 for a, b in zip(ticks, ticks[1:])), "gap or duplicate or reorder"
        assert ticks[-1] == last_frame
    assert [r for r in caplog.records if r.levelno >= logging.ERROR] == []


def test_no_viewer_the_town_runs_on(live_town):
    """With no client at all, 5 wall seconds at x8 advance the clock."""
    town = live_town(speed=8)
    start = town.runner.status()["tick"]
    threading.Event().wait(5)
    assert town.runner.status()["tick"] > start + 8
    assert town.runner.status()["state"] == "running"
