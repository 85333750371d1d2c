"""A mind step's independent jobs run at once, and their events come out in job order."""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor
from datetime import datetime

from town.clock import GameClock
from town.events import EventBus, EventKind
from town.mind.context import MindContext


def _ctx(side):
    return MindContext(world=None, backend=None, bus=EventBus(), clock=GameClock(datetime(2023, 2, 13, 7), 10),
                       config=None, names={}, side=side)


def _jobs(ctx: MindContext, both_running: threading.Barrier | None):
    """Two jobs that each publish two events; with a barrier, neither ends until both started."""
    def job(name):
        def run():
            ctx.publish(EventKind.STATUS, None, {"who": name, "step": 1})
            if both_running is not None:
                both_running.wait(timeout=5)  # BrokenBarrierError if they ran one after another
            ctx.publish(EventKind.STATUS, None, {"who": name, "step": 2})
            return name
        return run
    return [job("a"), job("b")]


def test_jobs_overlap_and_publish_in_job_order():
    """Each job waits for the other to start, so the call returns only if they overlapped."""
    seen = []
    with ThreadPoolExecutor(max_workers=2) as side:
        ctx = _ctx(side)
        ctx.bus.subscribe(lambda e: seen.append((e.data["who"], e.data["step"])))
        results = ctx.side_by_side(_jobs(ctx, threading.Barrier(2)))
    assert results == ["a", "b"]
    # as if run one after another: all of a's events, then all of b's, numbered in that order
    assert seen == [("a", 1), ("a", 2), ("b", 1), ("b", 2)]


def test_inside_held_back_work_the_events_join_the_outer_buffer():
    """Inside a persona's held-back work, the jobs' events wait with it and keep job order."""
    with ThreadPoolExecutor(max_workers=2) as side:
        ctx = _ctx(side)
        seen = []
        ctx.bus.subscribe(lambda e: seen.append(e.seq))
        result, held = ctx.buffered(lambda: ctx.side_by_side(_jobs(ctx, threading.Barrier(2))))
        assert seen == []  # nothing published while the outer work is held back
        ctx.flush(held)
    assert result == ["a", "b"]
    assert [e.data["who"] for e, _ in held] == ["a", "a", "b", "b"]
    assert seen == [1, 2, 3, 4]


def test_without_threads_the_jobs_run_one_after_another():
    """A run without a thread pool (the scripted backend) runs them in turn, same events."""
    ctx = _ctx(None)
    order = []
    ctx.bus.subscribe(lambda e: order.append((e.data["who"], e.data["step"])))
    assert ctx.side_by_side(_jobs(ctx, None)) == ["a", "b"]
    assert order == [("a", 1), ("a", 2), ("b", 1), ("b", 2)]
