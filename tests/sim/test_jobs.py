"""A tick's jobs: run to their effects, mapped over a pool in job order, a line started ahead."""

from __future__ import annotations

import threading
from datetime import datetime

import pytest

from town.clock import GameClock
from town.events import EventBus, EventKind
from town.mind import MindContext, Services
from town.simulation.apply import Applier
from town.simulation.jobs import Pool, note_call, think
from town.scripted import ScriptedBackend


@pytest.fixture
def pool():
    made = Pool(3)
    yield made
    made.close(wait=True)


def test_results_come_back_in_job_order_whatever_finishes_first(pool):
    """The second job finishes first (the first waits for it); the results still read 1, 2."""
    second_done = threading.Event()

    def first():
        assert second_done.wait(5)
        return 1

    def second():
        second_done.set()
        return 2

    assert pool.threaded
    assert pool.map([first, second]) == [1, 2]


def test_a_follower_starts_once_its_jobs_are_done_not_the_whole_step(pool):
    """The follower of "a" runs while "slow" still waits, and only after "a" has finished.

    "slow" finishes only once the follower has run: with the step as a barrier (the follower
    started after every job), it would time out.
    """
    followed, a_done = threading.Event(), threading.Event()

    def a():
        a_done.set()
        return "a"

    def slow():
        return followed.wait(5)

    def line():
        followed.set()
        return a_done.is_set()

    results, ahead = pool.map_ahead({"a": a, "slow": slow}, {"line": (["a"], line)})
    assert results == ["a", True]  # "slow" saw the line said before it ended
    assert ahead["line"].result() is True  # "a" had finished


def test_a_follower_of_a_failed_job_fails_with_its_error(pool):
    """A decision that raised: the line that waited for it is not said, and reports the error."""
    said = []

    def broken():
        raise ValueError("no answer")

    with pytest.raises(ValueError, match="no answer"):
        pool.map_ahead({"x": broken}, {"line": (["x"], lambda: said.append(1))})
    assert said == []


def test_without_threads_jobs_run_one_after_another_and_nothing_starts_ahead():
    """A scripted run's pool: the jobs run in order on the calling thread."""
    order, sequential = [], Pool(1)
    assert not sequential.threaded
    assert sequential.map([lambda: order.append(1) or 1, lambda: order.append(2) or 2]) == [1, 2]
    assert order == [1, 2]
    with pytest.raises(RuntimeError, match="thread pool"):
        sequential.map_ahead({}, {})


def _services():
    return Services(world=None, backend=ScriptedBackend(), config=None, names={}, seconds_per_tick=10)


def test_jobs_side_by_side_overlap_and_their_events_are_numbered_in_job_order(pool):
    """Each job waits for the other to note its first event, so both ran at once; applied in job
    order, the events are numbered a1, a2, b1, b2, as if the jobs had run one after another."""
    clock, bus, seen = GameClock(datetime(2023, 2, 13, 7), 10), EventBus(), []
    bus.subscribe(lambda e: seen.append((e.seq, e.data["who"], e.data["step"])))
    both = threading.Barrier(2)

    def job(name):
        def work(ctx: MindContext):
            ctx.out.note(EventKind.STATUS, None, {"who": name, "step": 1})
            both.wait(timeout=5)  # BrokenBarrierError if they ran one after another
            ctx.out.note(EventKind.STATUS, None, {"who": name, "step": 2})
            return name
        return lambda: think(_services(), 0, clock.now, work)

    thoughts = pool.map_side([job("a"), job("b")])
    assert [t.result for t in thoughts] == ["a", "b"]
    assert seen == []  # nothing is published while the jobs think
    apply = Applier(bus, clock, {}, lambda cid: None)
    for thought in thoughts:
        apply(thought.effects)
    assert seen == [(1, "a", 1), (2, "a", 2), (3, "b", 1), (4, "b", 2)]


def test_a_note_that_cites_another_gets_its_number_when_applied():
    """An ACTION-like event citing its retrieval: the apply step writes the retrieval's seq."""
    clock, bus, seen = GameClock(datetime(2023, 2, 13, 7), 10), EventBus(start_seq=40), []
    bus.subscribe(seen.append)

    def work(ctx: MindContext):
        ctx.out.note(EventKind.STATUS, None, {"first": True})
        retrieval = ctx.out.note(EventKind.RETRIEVAL, "ann", {"query": "q"})
        ctx.out.note(EventKind.REFLECTION, "ann", {"insights": [{"retrieval": retrieval}, {"retrieval": retrieval}]},
                     cites=(("insights", 0, "retrieval"), ("insights", 1, "retrieval")))
        ctx.out.note(EventKind.PLAN, "ann", {"retrieval": retrieval}, cites=("retrieval",))
        return retrieval

    thought = think(_services(), 0, clock.now, work)
    apply = Applier(bus, clock, {}, lambda cid: None)
    apply(thought.effects)
    assert [e.seq for e in seen] == [41, 42, 43, 44]
    assert seen[2].data == {"insights": [{"retrieval": 42}, {"retrieval": 42}]}
    assert seen[3].data == {"retrieval": 42}
    assert apply.seq(thought.result) == 42 and apply.seq(7) == 7


def test_a_model_call_made_in_a_job_is_one_of_its_effects():
    """The recorder's MODEL_CALL event joins the running job's effects in its place; made outside
    any job it is published at once."""
    clock = GameClock(datetime(2023, 2, 13, 7), 10)
    published = []

    def publish(kind, persona, data):
        published.append(data)

    def work(ctx: MindContext):
        ctx.out.note(EventKind.RETRIEVAL, "ann", {"n": 1})
        note_call(EventKind.MODEL_CALL, "ann", {"n": 2}, publish)
        ctx.out.note(EventKind.PLAN, "ann", {"n": 3})

    thought = think(_services(), 0, clock.now, work)
    assert [e.data["n"] for e in thought.effects] == [1, 2, 3] and published == []
    note_call(EventKind.MODEL_CALL, "ann", {"n": 4}, publish)
    assert published == [{"n": 4}]


def test_who_may_be_invited_is_read_from_the_ticks_snapshot():
    """A persona the snapshot shows talking is not invited, though its conversation has ended.

    A line said ahead may end a conversation before the invitations are formed; a sequential
    run forms them first. So the snapshot decides, and the two orders agree.
    """
    from dataclasses import replace

    from town.config import load_config
    from town.mind import Appearance
    from town.scenario import load_scenario
    from town.simulation import Simulation
    from town.simulation.conversations import pairs

    sim = Simulation(load_scenario("the_ville"), load_config(None, {"embedder": "hashing"}), seed_memories=False)
    a, b = list(sim.personas)[:2]
    here = Appearance(id=a, name=a, x=1, y=1, arena="w:s:a", action="reading", kind="idle",
                address="w:s:a", conversation=None)
    free = {a: here, b: replace(here, id=b, name=b)}
    assert pairs([(a, b, 1)], free, 4, sim.personas, frozenset()) == [(a, b, 1)]
    talking = {a: here, b: replace(here, id=b, name=b, conversation=7)}
    assert pairs([(a, b, 1)], talking, 4, sim.personas, frozenset()) == []
    # a player may be invited like anyone, unless it is on its way somewhere
    assert pairs([(a, b, 1)], free, 4, sim.personas, frozenset({b})) == [(a, b, 1)]
    walking = {a: here, b: replace(here, id=b, name=b, kind="walk")}
    assert pairs([(a, b, 1)], walking, 4, sim.personas, frozenset({b})) == []
    assert pairs([(a, b, 1)], walking, 4, sim.personas, frozenset()) == [(a, b, 1)]
    sim.close()
