"""The runner: a Simulation stepped tick by tick in its own thread, paced and controlled (docs/design, §5).

The simulation never waits on a viewer: viewers subscribe to the bus and must not block. The
runner's state (running, paused, stopped, finished, failed, and the model's health) is published
as STATUS events and read by :meth:`Runner.status`.
"""

from __future__ import annotations

import enum
import logging
import threading
from collections import deque
from collections.abc import Callable
from typing import Any

from ..errors import ConfigError, RunStopped, TownError
from ..events import Event, EventKind
from .calls import CallQueue, Steppable
from .pacing import TALK_SPEED, Pacer, check_speed

__all__ = ["Runner", "RunnerState", "Steppable", "STOP_GRACE_S"]

logger = logging.getLogger(__name__)

#: Wall seconds :meth:`Runner.stop` lets a tick end by itself before it cancels the model calls
#: the tick waits on (``Simulation.cancel``).
STOP_GRACE_S = 2.0


class RunnerState(str, enum.Enum):
    """Where a runner is (the ``state`` of its status).

    ``stalled`` and ``rate_limited`` are the model's health while running: a tick is waiting
    for a model server that does not answer, or that asked to wait longer than 10 s (HTTP 429).
    """

    NEW = "new"
    RUNNING = "running"
    STALLED = "stalled"
    RATE_LIMITED = "rate_limited"
    PAUSED = "paused"
    STOPPED = "stopped"
    FINISHED = "finished"
    FAILED = "failed"


class Runner(CallQueue):
    """Runs a simulation tick by tick at a wall-clock speed, in a daemon thread.

    Args:
        simulation: anything with ``bus``, ``clock`` and ``step()`` (a ``town.simulation.Simulation``).
        speed: ticks per wall second, in [1, 64] (default 8: one game minute of 10 s ticks
            takes 0.75 wall seconds); None runs as fast as possible ("max").
        until_tick: when the simulation's tick reaches it the runner finishes (None: never).
        paused: start in the paused state (``step`` and ``resume`` then drive it).
        talk_pace: while a player is in a conversation (the simulation's ``player_talking``),
            go no faster than :data:`TALK_SPEED`, a pace one can type at (:meth:`set_talk_pace`).

    Raises:
        ConfigError: for a bad speed or a negative ``until_tick``.

    The runner publishes a STATUS event ``{"state", "reason", "speed", "talk_pace", "slowed"}`` whenever its state
    changes, and its status shows the model's health from the STATUS events the backend
    publishes (``"source": "model"``: stalled, rate_limited, running again) as they happen, even
    while a tick waits. An exception inside a tick stops the runner in state ``failed`` with the
    exception as the reason (``error``); a tick cancelled by :meth:`stop` stops it in state
    ``stopped``.
    """

    def __init__(self, simulation: Steppable, *, speed: float | None = 8.0,
                 until_tick: int | None = None, paused: bool = False, talk_pace: bool = True):
        if until_tick is not None and int(until_tick) < 0:
            raise ConfigError(f"must be >= 0, got {until_tick}", field="until_tick")
        self._sim = simulation
        self._speed = check_speed(speed)
        self._talk_pace = bool(talk_pace)
        self._slowed = False
        self._until = None if until_tick is None else int(until_tick)
        self._start_paused = bool(paused)
        self._cond = threading.Condition()
        self._state = RunnerState.NEW
        self._want_pause = self._start_paused
        self._want_stop = False
        self._pending_steps = 0
        self._busy = False
        self._reason = ""
        self._pacer = Pacer()
        self._published: tuple[str, str, float | None, bool, bool] | None = None
        self._thread: threading.Thread | None = None
        self._calls = deque()
        self._exited = False
        self._health: tuple[RunnerState, str] | None = None
        self.error: BaseException | None = None
        simulation.bus.subscribe(self._on_event)

    def _on_event(self, event: Event) -> None:
        """Follow the model's health from the backend's STATUS events (any thread)."""
        if event.kind is not EventKind.STATUS or event.data.get("source") != "model":
            return
        state = event.data.get("state")
        with self._cond:
            if state in (RunnerState.STALLED.value, RunnerState.RATE_LIMITED.value):
                self._health = (RunnerState(state), str(event.data.get("reason", "")))
            else:
                self._health = None

    # -- control (any thread) ------------------------------------------------------------

    def start(self) -> None:
        """Start the runner's thread.

        Raises:
            RuntimeError: if it was started before.
        """
        with self._cond:
            if self._thread is not None:
                raise RuntimeError("the runner was already started")
            self._state = RunnerState.PAUSED if self._start_paused else RunnerState.RUNNING
            self._thread = threading.Thread(target=self._run, name="town-runner", daemon=True)
            self._thread.start()

    def pause(self, timeout: float = 30.0) -> None:
        """Pause after the current tick, and cancel the steps not yet begun (:meth:`step`).

        Returns once no tick is in progress (or after ``timeout`` wall seconds).
        """
        with self._cond:
            if self._state is RunnerState.RUNNING:
                self._want_pause = True
                self._state = RunnerState.PAUSED
            self._pending_steps = 0  # a pause also cancels the steps not yet begun
            self._cond.notify_all()
            self._cond.wait_for(lambda: not self._busy, timeout)

    def resume(self) -> None:
        """Resume running at the current speed (no-op unless paused)."""
        with self._cond:
            if self._state is RunnerState.PAUSED:
                self._want_pause = False
                self._state = RunnerState.RUNNING
                self._pacer.restart()
                self._cond.notify_all()

    @property
    def max_steps(self) -> int:
        """The most ticks :meth:`step` may have pending at once: one game day of ticks
        (8,640 at 10 game seconds a tick)."""
        return max(1, 86_400 // self._sim.clock.seconds_per_tick)

    def step(self, n: int = 1, timeout: float = 60.0) -> int:
        """Advance exactly ``n`` ticks while paused; returns the tick reached.

        The ticks run on the runner's thread. This blocks until they are done, the runner
        fails, stops or is paused again (which cancels the steps not yet begun), or ``timeout``
        wall seconds pass; ``timeout=0`` returns at once (the viewer's step).

        Raises:
            ConfigError: if ``n`` is not an int >= 1, the steps pending would be more than
                :attr:`max_steps` (one game day), or the runner is not paused.
        """
        if isinstance(n, bool) or not isinstance(n, int) or n < 1:
            raise ConfigError(f"must be an int >= 1, got {n!r}", field="step")
        with self._cond:
            if self._state is not RunnerState.PAUSED:
                raise ConfigError(f"pause before stepping (the runner is {self._state.value})",
                                  field="step")
            if self._pending_steps + n > self.max_steps:
                pending = f" ({self._pending_steps} are pending)" if self._pending_steps else ""
                raise ConfigError(f"at most {self.max_steps} ticks (one game day) at a time{pending}, "
                                  f"got {n}", field="step")
            self._pending_steps += n
            self._cond.notify_all()
            self._cond.wait_for(lambda: (self._pending_steps == 0 and not self._busy)
                                or self._state is not RunnerState.PAUSED, timeout)
        return self._sim.clock.tick

    def set_speed(self, speed: float | None) -> None:
        """Set the speed in ticks per wall second (1..64) or None for "max".

        Raises:
            ConfigError: for any other value.
        """
        value = check_speed(speed)
        with self._cond:
            self._speed = value
            self._pacer.restart()
            self._cond.notify_all()

    def set_talk_pace(self, on: bool) -> None:
        """Slow to :data:`TALK_SPEED` while a player talks (``on``), or keep the speed set."""
        with self._cond:
            self._talk_pace = bool(on)
            self._cond.notify_all()

    def _pace(self) -> float | None:
        """(runner's thread, under the lock) The speed of the next tick: the one set, or
        :data:`TALK_SPEED` while a player talks and the talk pace is on; the pacer restarts
        when it changes."""
        slowed = self._talk_pace and bool(getattr(self._sim, "player_talking", False))
        if slowed != self._slowed:
            self._slowed = slowed
            self._pacer.restart()
        if slowed and (self._speed is None or self._speed > TALK_SPEED):
            return TALK_SPEED
        return self._speed

    def stop(self, timeout: float = 30.0, *, grace: float = STOP_GRACE_S) -> bool:
        """Stop after the current tick; wait up to ``timeout`` wall seconds for the thread.

        A tick still going after ``grace`` wall seconds (waiting for a stalled or rate-limited
        model) is cancelled: its waiting model calls end, it is not recorded, and the runner
        stops.

        Returns:
            True if the runner's thread has ended (False: a tick is stuck in a model request
            past ``timeout``; it is abandoned).
        """
        with self._cond:
            self._want_stop = True
            self._cond.notify_all()
            thread = self._thread
        if thread is not None and thread is not threading.current_thread():
            thread.join(min(grace, timeout))
            if thread.is_alive():
                cancel = getattr(self._sim, "cancel", None)
                if cancel is not None:
                    cancel()
                thread.join(max(0.0, timeout - grace))
        with self._cond:
            if self._state in (RunnerState.NEW, RunnerState.RUNNING, RunnerState.PAUSED):
                self._state = RunnerState.STOPPED
        return thread is None or not thread.is_alive()

    def wait(self, timeout: float | None = None) -> bool:
        """Wait for the thread to end (finished, failed or stopped); True if it has."""
        thread = self._thread
        if thread is None:
            return True
        thread.join(timeout)
        return not thread.is_alive()

    @property
    def simulation(self) -> Steppable:
        """The simulation this runner paces."""
        return self._sim

    @property
    def speed(self) -> float | None:
        """Ticks per wall second, or None for "max"."""
        return self._speed

    def status(self) -> dict[str, Any]:
        """JSON-able status.

        Returns:
            ``{"state": "new"|"running"|"stalled"|"rate_limited"|"paused"|"stopped"|"finished"|
            "failed", "reason": str,
            "tick": int, "time": "YYYY-MM-DD HH:MM:SS" game time, "speed": float|None
            (ticks per wall second, None = max), "until_tick": int|None, "talk_pace": bool (slow
            while a player talks), "slowed": bool (slowed now, as a player talks)}``.
        """
        clock = self._sim.clock
        tick = clock.tick
        state, reason = self._state, self._reason
        health = self._health
        if state is RunnerState.RUNNING and health is not None:
            state, reason = health
        return {
            "state": state.value,
            "reason": reason,
            "tick": tick,
            "time": clock.time_of(tick).isoformat(sep=" "),
            "speed": self._speed,
            "until_tick": self._until,
            "talk_pace": self._talk_pace,
            "slowed": self._slowed,
        }

    # -- the runner's thread ---------------------------------------------------------------

    def _run(self) -> None:
        """The thread: the tick loop, then the calls queued while it ended."""
        try:
            self._loop()
        finally:
            with self._cond:
                self._exited = True
            self._run_calls()

    def _loop(self) -> None:
        """Pace ticks until stopped, finished or failed; run queued calls between ticks."""
        while True:
            self._run_calls()
            with self._cond:
                self._publish_status()
                if self._want_stop:
                    self._state = RunnerState.STOPPED
                    self._publish_status()
                    self._cond.notify_all()
                    return
                if self._until is not None and self._sim.clock.tick >= self._until:
                    self._state = RunnerState.FINISHED
                    self._reason = f"reached tick {self._until}"
                    self._publish_status()
                    self._cond.notify_all()
                    return
                if self._calls:
                    continue
                work: Callable[[], object] = self._sim.step
                if self._sim.inputs.pending:
                    work = self._sim.drain_inputs  # applied now, between two ticks, paused or not
                elif self._state is RunnerState.PAUSED:
                    if self._pending_steps == 0:
                        self._cond.wait()
                        continue
                    self._pending_steps -= 1
                else:
                    delay = self._pacer.delay(self._sim.clock.tick, self._pace())
                    if delay > 0:
                        self._cond.wait(delay)
                        continue
                self._busy = True
            try:
                work()
            except Exception as exc:  # noqa: BLE001 - a tick's failure must stop, not vanish
                stopped = isinstance(exc, RunStopped)
                if not isinstance(exc, TownError):  # a bug: keep the traceback for the log
                    logger.exception("tick %d failed; the runner stops", self._sim.clock.tick)
                with self._cond:
                    self._busy = False
                    self.error = None if stopped else exc
                    self._health = None
                    self._state = RunnerState.STOPPED if stopped else RunnerState.FAILED
                    self._reason = (f"stopped inside tick {self._sim.clock.tick}, which is not recorded"
                                    if stopped else f"{type(exc).__name__}: {exc}")
                    self._pending_steps = 0
                    try:
                        self._publish_status()
                    except Exception:  # noqa: BLE001 - a subscriber may be what failed
                        if not self._want_stop:  # after a stop the run file may be closed: the tick was abandoned
                            logger.exception("could not publish the failed status")
                    self._cond.notify_all()
                return
            with self._cond:
                self._busy = False
                self._cond.notify_all()

    def _publish_status(self) -> None:
        """Publish a STATUS event if (state, reason, speed, talk pace, slowed) changed since the last one."""
        key = (self._state.value, self._reason, self._speed, self._talk_pace, self._slowed)
        if key == self._published:
            return
        self._published = key
        clock = self._sim.clock
        self._sim.bus.publish(Event(
            kind=EventKind.STATUS, tick=clock.tick, time=clock.now,
            data={"state": key[0], "reason": key[1], "speed": key[2], "talk_pace": key[3], "slowed": key[4]},
        ))
