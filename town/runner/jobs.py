"""Work for the runner's thread: callables queued from any thread, run between two ticks.

Every call to ``Simulation.step`` and every event the runner publishes happens on the runner's
thread, so the subscribers (the run writer, the viewer) always see one thread. Work that must
touch the simulation from elsewhere (a viewer's whisper) is queued here and run by that thread.
"""

from __future__ import annotations

import threading
from collections import deque
from collections.abc import Callable
from typing import Any

__all__ = ["JobQueue"]


class _Job:
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


class JobQueue:
    """The runner's job queue (a part of :class:`~town.runner.runner.Runner`).

    Uses the runner's condition ``_cond`` (it guards ``_jobs``, ``_busy`` and ``_exited``), and
    its ``_thread``: before the thread starts or after it ended, a job runs at once.
    """

    _cond: threading.Condition
    _jobs: deque[_Job]
    _thread: threading.Thread | None
    _exited: bool
    _busy: bool

    def call(self, fn: Callable[[], Any], timeout: float = 30.0) -> Any:
        """Run ``fn()`` on the runner's thread between two ticks and return its result.

        Running or paused, the runner takes the job before its next tick (a paused runner wakes
        for it and stays paused). Before the runner starts or after it ended, nothing steps the
        simulation, so ``fn`` runs at once on the calling thread.

        Args:
            fn: a callable without arguments (e.g. ``lambda: sim.whisper(pid, text)``).
            timeout: wall seconds to wait for the runner to take the job.

        Returns:
            What ``fn`` returned.

        Raises:
            TimeoutError: when the runner did not run the job within ``timeout`` (it then will
                not run it).
            Exception: whatever ``fn`` raised.
        """
        job = _Job(fn)
        with self._cond:
            queued = self._thread is not None and not self._exited
            if queued:
                self._jobs.append(job)
                self._cond.notify_all()
        if not queued:
            job.run()
        elif not job.done.wait(timeout):
            with self._cond:
                if job in self._jobs:
                    self._jobs.remove(job)
                    raise TimeoutError(f"the runner did not take the job within {timeout:g} s")
            job.done.wait()
        if job.error is not None:
            raise job.error
        return job.result

    def _run_jobs(self) -> None:
        """Run the queued jobs (on the runner's thread, between ticks)."""
        while True:
            with self._cond:
                if not self._jobs:
                    return
                job = self._jobs.popleft()
                self._busy = True
            try:
                job.run()
            finally:
                with self._cond:
                    self._busy = False
                    self._cond.notify_all()
