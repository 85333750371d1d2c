"""A tick's jobs in a pool: events in job order, and a line started ahead of the step's end."""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor

from town.simulation.jobs import in_order, run_with_followers


class Context:
    """The two methods the jobs module uses, as MindContext has them: held events, then flushed."""

    def __init__(self) -> None:
        self.local = threading.local()
        self.published: list[str] = []

    def publish(self, text: str) -> None:
        buffer = getattr(self.local, "buffer", None)
        (self.published if buffer is None else buffer).append(text)

    def buffered(self, work):
        self.local.buffer = []
        try:
            return work(), self.local.buffer
        finally:
            self.local.buffer = None

    def flush(self, events) -> None:
        self.published.extend(events)


def test_events_come_out_in_job_order_whatever_finishes_first():
    """The second job finishes first (the first waits for it); events still read a, b."""
    ctx, second_done = Context(), threading.Event()

    def first():
        assert second_done.wait(5)
        ctx.publish("a")
        return 1

    def second():
        ctx.publish("b")
        second_done.set()
        return 2

    with ThreadPoolExecutor(2) as pool:
        assert in_order(pool, ctx, [first, second]) == [1, 2]
    assert ctx.published == ["a", "b"]


def test_a_follower_starts_once_its_jobs_are_done_not_the_whole_step():
    """The follower of "a" runs while "slow" still waits, and only after "a" has finished.

    "slow" finishes only once the follower has run: with the step as a barrier (the follower
    started after every job), it would time out. The follower's events are held for the caller.
    """
    ctx, followed = Context(), threading.Event()
    a_done = threading.Event()

    def a():
        ctx.publish("a")
        a_done.set()
        return "a"

    def slow():
        ctx.publish("slow")
        return followed.wait(5)

    def line():
        ctx.publish("line")
        followed.set()
        return a_done.is_set()

    with ThreadPoolExecutor(3) as pool:
        results, ahead = run_with_followers(pool, ctx, {"a": a, "slow": slow}, {"line": (["a"], line)})
        assert results == ["a", True]  # "slow" saw the line said before it ended
        assert ahead["line"].result() == (True, ["line"])  # "a" had finished; events held back
    assert ctx.published == ["a", "slow"]


def test_a_follower_of_a_failed_job_fails_with_its_error():
    """A decision that raised: the line that waited for it is not said, and reports the error."""
    ctx, said = Context(), []

    def broken():
        raise ValueError("no answer")

    with ThreadPoolExecutor(2) as pool:
        try:
            run_with_followers(pool, ctx, {"x": broken}, {"line": (["x"], lambda: said.append(1))})
        except ValueError:
            pass
        else:
            raise AssertionError("the job's error was not raised")
    assert said == []


def test_who_may_be_invited_is_read_from_the_ticks_snapshot(monkeypatch):
    """A persona the snapshot shows talking is not invited, though its conversation has ended.

    A line said ahead may end a conversation before the invitations are formed; a sequential
    run forms them first. So the snapshot decides, and the two orders agree.
    """
    from dataclasses import replace

    from town.config import load_config
    from town.mind import View
    from town.scenario import load_scenario
    from town.simulation import Simulation, conversations

    sim = Simulation(load_scenario("the_ville"), load_config(None, {"embedder": "hashing"}))
    a, b = list(sim.personas)[:2]
    here = View(id=a, name=a, x=1, y=1, arena="w:s:a", action="reading", kind="idle",
                address="w:s:a", conversation=None)
    asked = []
    monkeypatch.setattr(conversations, "answer_invitation", lambda sim, a, b: asked.append((a, b)))
    free = {a: here, b: replace(here, id=b, name=b)}
    conversations.start_conversations(sim, [(a, b, 1)], free, radius=4)
    assert asked == [(a, b)]
    talking = {a: here, b: replace(here, id=b, name=b, conversation=7)}
    conversations.start_conversations(sim, [(a, b, 1)], talking, radius=4)
    assert asked == [(a, b)]
    sim.close()
