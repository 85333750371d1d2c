"""Work for the runner's thread: the town's inputs and callables queued from any thread.

Every call to ``Simulation.step`` and every event the runner publishes happens on the runner's
thread, so the subscribers (the run writer, the viewer) always see one thread. What people
outside do (a viewer's whisper, a player's move) is an input (``town.simulation.inputs``):
:meth:`CallQueue.submit` queues it and answers at once, and the runner's thread applies the
queued inputs between two ticks (``Simulation.drain_inputs``), paused or running. A callable
(:meth:`CallQueue.call`, tests and tools) runs there too, and its caller waits for it.
"""

from __future__ import annotations

import threading
from collections import deque
from collections.abc import Callable
from typing import Any, Protocol

from ..clock import GameClock
from ..errors import ConfigError
from ..events import EventBus
from ..simulation.inputs import Done, Input, Inputs

__all__ = ["CallQueue", "Steppable"]


class _Call:
    """A callable waiting to run on the runner's thread, and its result."""

    def __init__(self, fn: Callable[[], Any]):
        self.fn = fn
        self.done = threading.Event()
        self.result: Any = None
        self.error: BaseException | None = None

    def run(self) -> None:
        try:
            self.result = self.fn()
        except Exception as exc:  # noqa: BLE001 - handed back to the caller of Runner.call
            self.error = exc
        finally:
            self.done.set()


class Steppable(Protocol):
    """What the runner needs of a simulation: a bus, a clock, its inputs, ``step()``,
    ``drain_inputs()`` and ``cancel()``."""

    bus: EventBus
    clock: GameClock
    inputs: Inputs

    def drain_inputs(self) -> None:
        """Apply the queued inputs, between ticks."""

    def step(self) -> int:
        """Advance one tick, publishing its events; return the new tick."""

    def cancel(self) -> None:
        """End the waits of the tick in progress (it then raises ``RunStopped``)."""


class CallQueue:
    """The runner's queue of calls (a part of :class:`~town.runner.runner.Runner`).

    Uses the runner's condition ``_cond`` (it guards ``_calls``, ``_busy`` and ``_exited``), and
    its ``_thread``: before the thread starts or after it ended, a call runs at once.
    """

    _sim: Steppable
    _cond: threading.Condition
    _calls: deque[_Call]
    _thread: threading.Thread | None
    _exited: bool
    _busy: bool

    def call(self, fn: Callable[[], Any], timeout: float = 30.0) -> Any:
        """Run ``fn()`` on the runner's thread between two ticks and return its result.

        Running or paused, the runner takes the call before its next tick (a paused runner wakes
        for it and stays paused). Before the runner starts or after it ended, nothing steps the
        simulation, so ``fn`` runs at once on the calling thread.

        Args:
            fn: a callable without arguments (e.g. ``lambda: sim.whisper(pid, text)``).
            timeout: wall seconds to wait for the runner to take the call.

        Returns:
            What ``fn`` returned.

        Raises:
            TimeoutError: when the runner did not run the call within ``timeout`` (it then will
                not run it).
            Exception: whatever ``fn`` raised.
        """
        call = _Call(fn)
        with self._cond:
            queued = self._thread is not None and not self._exited
            if queued:
                self._calls.append(call)
                self._cond.notify_all()
        if not queued:
            call.run()
        elif not call.done.wait(timeout):
            with self._cond:
                if call in self._calls:
                    self._calls.remove(call)
                    raise TimeoutError(f"the runner did not take the call within {timeout:g} s")
            call.done.wait()
        if call.error is not None:
            raise call.error
        return call.result

    def submit(self, inp: Input, done: Done | None = None) -> int:
        """Queue an input for the simulation (``Simulation.inputs``) and wake the runner; its id, at once.

        The runner's thread applies it before the next tick, paused or running (``done`` is then
        called, :meth:`~town.simulation.inputs.Inputs.submit`); before the runner starts, at its
        first tick.

        Raises:
            ConfigError: naming ``input`` when the runner's thread has ended (the run is over),
                or too many inputs wait.
        """
        with self._cond:
            if self._exited:
                raise ConfigError("the run is over: nothing more happens in it", field="input")
            input_id = self._sim.inputs.submit(inp, done)
            self._cond.notify_all()
        return input_id

    def _run_calls(self) -> None:
        """Run the queued calls (on the runner's thread, between ticks)."""
        while True:
            with self._cond:
                if not self._calls:
                    return
                call = self._calls.popleft()
                self._busy = True
            try:
                call.run()
            finally:
                with self._cond:
                    self._busy = False
                    self._cond.notify_all()
