"""Tests of town.runner: wall-clock pacing, pause/step/speed, failures, status events."""

from __future__ import annotations

import threading
from datetime import datetime

import pytest

from town.clock import GameClock
from town.errors import ConfigError
from town.events import Event, EventBus, EventKind
from town.runner import Runner, check_speed, pacing
from town.simulation.inputs import Inputs, Whisper


class CountingSimulation:
    """A stand-in simulation: each step advances the clock and publishes one FRAME."""

    def __init__(self, fail_at: int | None = None):
        self.bus = EventBus()
        self.clock = GameClock(datetime(2023, 2, 13, 7, 0), seconds_per_tick=10)
        self.fail_at = fail_at
        self.step_threads: set[str] = set()
        self.inputs = Inputs()
        self.applied: list[tuple[int, str]] = []  # (tick, whisper text) in the order applied

    def drain_inputs(self) -> None:
        self.inputs.drain(lambda inp: self.applied.append((self.clock.tick, inp.text)), lambda *_: 0, self.clock.tick)

    def step(self) -> int:
        """Advance one tick (raising at ``fail_at``)."""
        self.step_threads.add(threading.current_thread().name)
        if self.fail_at is not None and self.clock.tick == self.fail_at:
            raise RuntimeError("boom")
        tick = self.clock.advance(1)
        self.bus.publish(Event(kind=EventKind.FRAME, tick=tick, time=self.clock.now,
                               data={"personas": {}}))
        return tick


def statuses(bus: EventBus) -> list[dict]:
    """Subscribe to ``bus`` and return the (growing) list of STATUS event data."""
    seen: list[dict] = []
    bus.subscribe(lambda e: seen.append(e.data) if e.kind is EventKind.STATUS else None)
    return seen


def wait_until(predicate, timeout: float = 10.0) -> bool:
    """Poll ``predicate`` (a liveness bound, not a timing assertion)."""
    done = threading.Event()
    for _ in range(int(timeout / 0.01)):
        if predicate():
            return True
        done.wait(0.01)
    return predicate()


def test_pause_stops_ticks():
    """After pause() returns, no tick happens however long we wait."""
    sim = CountingSimulation()
    runner = Runner(sim, speed=None)
    runner.start()
    assert wait_until(lambda: sim.clock.tick >= 5)
    runner.pause()
    frozen = sim.clock.tick
    threading.Event().wait(0.2)
    assert sim.clock.tick == frozen
    assert runner.status()["state"] == "paused"
    runner.stop()


def test_step_advances_exactly_n_ticks():
    """step(1) moves exactly one tick (10 game seconds), step(3) exactly three."""
    sim = CountingSimulation()
    runner = Runner(sim, speed=8, paused=True)
    runner.start()
    assert runner.step(1) == 1
    assert sim.clock.tick == 1
    assert runner.status()["time"] == "2023-02-13 07:00:10"
    assert runner.step(3) == 4
    threading.Event().wait(0.1)
    assert sim.clock.tick == 4
    runner.stop()


def test_step_refused_while_running():
    """Stepping is only for a paused runner."""
    sim = CountingSimulation()
    runner = Runner(sim, speed=1)
    runner.start()
    with pytest.raises(ConfigError, match="pause before stepping"):
        runner.step(1)
    runner.stop()


@pytest.mark.parametrize("bad", [0, 0.5, 65, -1, float("nan"), float("inf"), "fast", True, [8]])
def test_speed_validation_rejects(bad):
    """Speeds outside 1..64 (or not numbers, or not 'max') raise ConfigError naming speed."""
    runner = Runner(CountingSimulation())
    with pytest.raises(ConfigError, match="speed"):
        runner.set_speed(bad)
    with pytest.raises(ConfigError, match="speed"):
        Runner(CountingSimulation(), speed=bad)


@pytest.mark.parametrize(("given", "expected"), [(1, 1.0), (64, 64.0), ("16", 16.0), (None, None),
                                                 ("max", None)])
def test_speed_validation_accepts(given, expected):
    """1..64 and None/'max' are accepted and normalised."""
    assert check_speed(given) == expected


def test_advances_with_no_viewer_and_finishes_at_until_tick():
    """With nobody subscribed the runner runs on its own thread to until_tick, then finishes."""
    sim = CountingSimulation()
    runner = Runner(sim, speed=None, until_tick=50)
    seen = statuses(sim.bus)
    runner.start()
    assert runner.wait(10)
    assert sim.clock.tick == 50
    assert runner.status()["state"] == "finished"
    assert [s["state"] for s in seen] == ["running", "finished"]
    assert sim.step_threads == {"town-runner"}


def test_status_events_follow_pause_resume_speed():
    """Each change of state or speed is published once, from the runner's thread."""
    sim = CountingSimulation()
    seen = statuses(sim.bus)
    runner = Runner(sim, speed=64)
    runner.start()
    assert wait_until(lambda: len(seen) == 1)
    runner.pause()
    assert wait_until(lambda: len(seen) == 2)
    runner.set_speed(None)
    assert wait_until(lambda: len(seen) == 3)
    runner.resume()
    assert wait_until(lambda: len(seen) == 4)
    runner.stop()
    assert [(s["state"], s["speed"]) for s in seen] == [
        ("running", 64.0), ("paused", 64.0), ("paused", None), ("running", None), ("stopped", None)]


def test_while_a_player_talks_the_runner_goes_at_the_talk_pace_unless_it_is_off():
    """At speed 64 (max too), a town whose player talks goes at TALK_SPEED, 1 tick a wall second:
    at most 3 ticks in 1.2 s, where 64 ticks a second would make ~77; the status and a STATUS
    event say ``slowed``. With the talk pace off (the control), it goes at its speed again."""
    sim = CountingSimulation()
    sim.player_talking = True  # Simulation.player_talking
    seen = statuses(sim.bus)
    runner = Runner(sim, speed=None)
    runner.start()
    try:
        assert wait_until(lambda: runner.status()["slowed"])
        start = sim.clock.tick
        threading.Event().wait(1.2)
        assert sim.clock.tick - start <= 3
        assert runner.status()["talk_pace"] is True
        assert any(s["slowed"] for s in seen)
        runner.set_talk_pace(False)
        assert wait_until(lambda: not runner.status()["slowed"])
        start = sim.clock.tick
        assert wait_until(lambda: sim.clock.tick - start >= 50, timeout=5.0)
    finally:
        runner.stop()
    quiet = CountingSimulation()  # nobody talks: never slowed
    runner = Runner(quiet, speed=64)
    runner.start()
    assert wait_until(lambda: quiet.clock.tick >= 50, timeout=5.0)
    runner.stop()
    assert runner.status()["slowed"] is False


def test_failure_in_a_tick_stops_with_reason():
    """An exception inside step() ends the runner in state failed, naming the exception."""
    sim = CountingSimulation(fail_at=3)
    seen = statuses(sim.bus)
    runner = Runner(sim, speed=None)
    runner.start()
    assert runner.wait(10)
    status = runner.status()
    assert (status["state"], status["reason"], status["tick"]) == ("failed", "RuntimeError: boom", 3)
    assert seen[-1]["state"] == "failed"


def test_until_tick_must_not_be_negative():
    """A negative until_tick is a ConfigError naming the field."""
    with pytest.raises(ConfigError, match="until_tick"):
        Runner(CountingSimulation(), until_tick=-1)


def test_the_pacer_goes_on_after_the_clock_jumps_ahead(monkeypatch):
    """At 2 ticks a second: tick 1 is due 0.5 s after tick 0. After a jump to tick 200 (a run-ahead
    town settled many ticks at once) the next tick is due at once, not 99.5 s later, and tick 201
    0.5 s after it. At 0.1 ticks a second a tick 10 s away is an ordinary wait, not a jump."""
    now = [100.0]
    monkeypatch.setattr(pacing.time, "monotonic", lambda: now[0])
    pacer = pacing.Pacer()
    assert pacer.delay(0, 2.0) == 0.0
    assert pacer.delay(1, 2.0) == pytest.approx(0.5)
    now[0] += 0.5
    assert pacer.delay(200, 2.0) == 0.0
    assert pacer.delay(201, 2.0) == pytest.approx(0.5)
    slow = pacing.Pacer()
    assert slow.delay(0, 0.1) == 0.0
    assert slow.delay(1, 0.1) == pytest.approx(10.0)


class GatedSimulation(CountingSimulation):
    """Each tick waits for ``gate`` (a tick stuck on a slow model, or a run-ahead town settling)."""

    def __init__(self):
        super().__init__()
        self.gate = threading.Event()
        self.in_tick = threading.Event()

    def step(self) -> int:
        self.drain_inputs()  # as Simulation.step: the queue first
        self.in_tick.set()
        self.gate.wait()
        return super().step()


def test_an_input_answers_at_once_and_is_applied_between_ticks_in_order():
    """While a tick is stuck, submit answers with ids 1, 2, 3 at once; the three are applied after
    that tick ends, in the order they came, all at the next tick, before it runs; paused, an
    input is applied without a step."""
    sim = GatedSimulation()
    runner = Runner(sim, speed=None)
    runner.start()
    assert sim.in_tick.wait(5)
    ids = [runner.submit(Whisper(persona="p", text=t)) for t in ("one", "two", "three")]
    assert ids == [1, 2, 3] and sim.applied == [] and sim.clock.tick == 0  # the tick still waits
    sim.gate.set()
    assert wait_until(lambda: len(sim.applied) == 3)
    assert sim.applied == [(1, "one"), (1, "two"), (1, "three")]
    assert [sim.inputs.outcome(i)["state"] for i in ids] == ["done"] * 3
    runner.pause()
    paused_at = sim.clock.tick
    runner.submit(Whisper(persona="p", text="four"))
    assert wait_until(lambda: len(sim.applied) == 4)
    assert sim.applied[-1] == (paused_at, "four") and sim.clock.tick == paused_at
    runner.stop()
    with pytest.raises(ConfigError, match="^input: the run is over"):
        runner.submit(Whisper(persona="p", text="five"))


def test_at_most_256_inputs_wait_and_the_oldest_outcomes_are_forgotten_past_1000():
    """A viewer cannot queue without bound: the 257th waiting input is one line; applied, the
    queue takes more; outcomes are kept for the newest 1,000 inputs."""
    from town.simulation.inputs import KEPT, MAX_PENDING

    inputs = Inputs()
    ids = [inputs.submit(Whisper(persona="p", text=str(i))) for i in range(MAX_PENDING)]
    with pytest.raises(ConfigError, match=r"^input: 256 inputs wait already; try again in a moment$"):
        inputs.submit(Whisper(persona="p", text="one more"))
    inputs.drain(lambda inp: inp.text, lambda *_: 0, 7)
    assert inputs.pending == 0 and inputs.outcome(ids[-1]) == {"id": 256, "state": "done", "tick": 7, "result": "255"}
    for i in range(KEPT - 1):
        inputs.submit(Whisper(persona="p", text=str(i)))
        inputs.drain(lambda inp: inp.text, lambda *_: 0, 8)
    assert inputs.outcome(ids[0]) is None and inputs.outcome(ids[-1])["result"] == "255"  # the newest 1,000 kept
    inputs.submit(Whisper(persona="p", text="last"))
    assert inputs.outcome(ids[-1]) is None and inputs.outcome(1256) == {"id": 1256, "state": "queued"}
