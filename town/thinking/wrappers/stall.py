"""Pausing every model call while the server is down, and resuming when it answers again.

:class:`StallGuard` pauses all calls after N consecutive unavailable-server failures, publishes
STATUS "stalled", re-checks the server, and publishes STATUS "running" when it answers again.
It is the gate every attempt and every wait passes, so :meth:`StallGuard.cancel` (a stop
request) ends all of them at once with :class:`~town.errors.RunStopped`, and with its
``on_cancel`` (the model's ``cancel``) the requests in flight too.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable

from ...errors import RunStopped
from ..model import CallOutcome

__all__ = ["StallGuard"]

log = logging.getLogger(__name__)


class StallGuard:
    """Pauses every call while the model server is down, and resumes when it answers again.

    After ``threshold`` consecutive attempts whose outcome is *unavailable* (timeout, 5xx,
    connection error) the guard is stalled: it publishes STATUS ``{"state": "stalled"}``, and
    every :meth:`wait` blocks. One waiting thread checks the server every ``recheck_interval_s``
    wall seconds; when a check succeeds it publishes STATUS ``{"state": "running"}`` and releases
    all. The simulation thus pauses mid-tick, keeps everything recorded, and never crashes.

    Args:
        threshold: consecutive unavailable attempts that stall (``max_consecutive_failures``).
        check_server: raises when the server does not answer (``ModelBackend.check_server``).
        on_status: ``on_status(state, reason)`` publishes a STATUS event
            (``CallRecorder.status``), or None.
        recheck_interval_s: wall seconds between checks while stalled.
        on_cancel: called by :meth:`cancel` to end what no wait of the guard's holds: the
            model's requests in flight (``ModelBackend.cancel``), or None.
    """

    def __init__(
        self,
        *,
        threshold: int,
        check_server: Callable[[], None],
        on_status: Callable[[str, str], None] | None = None,
        recheck_interval_s: float = 2.0,
        on_cancel: Callable[[], None] | None = None,
    ):
        self.threshold = int(threshold)
        self.check_server = check_server
        self.on_status = on_status
        self.recheck_interval_s = float(recheck_interval_s)
        self.on_cancel = on_cancel
        self._cond = threading.Condition()
        self._failures = 0
        self._stalled = False
        self._probing = False
        self._since = 0.0
        self._cancelled = threading.Event()
        self.stalls = 0

    def cancel(self) -> None:
        """End every wait now, the requests in flight (``on_cancel``) too, and refuse further
        attempts (a stop request; not undone): the waiting calls raise :class:`RunStopped`."""
        self._cancelled.set()
        with self._cond:
            self._cond.notify_all()
        if self.on_cancel is not None:
            self.on_cancel()

    def check(self) -> None:
        """Raise :class:`RunStopped` once :meth:`cancel` was called."""
        if self._cancelled.is_set():
            raise RunStopped("stopped while waiting for the model server")

    def sleep(self, seconds: float) -> None:
        """Sleep ``seconds`` wall seconds, ended early by :meth:`cancel`.

        Raises:
            RunStopped: when cancelled (before or during the sleep).
        """
        if self._cancelled.wait(max(0.0, seconds)):
            self.check()

    @property
    def stalled(self) -> bool:
        """True while calls are paused."""
        with self._cond:
            return self._stalled

    def report(self, outcome: CallOutcome, error: str = "") -> None:
        """Count an attempt's outcome; the ``threshold``-th unavailable one in a row stalls.

        ``error`` is the attempt's one-line reason, named in the "stalled" STATUS event (a run
        stopped inside its first tick keeps nothing else of its failed calls)."""
        with self._cond:
            if not outcome.unavailable:
                self._failures = 0
                return
            self._failures += 1
            if self._stalled or self._failures < self.threshold:
                return
            self._stalled, self._since = True, time.monotonic()
            self.stalls += 1
            failures = self._failures
        log.warning("model server stalled after %d consecutive failures", failures)
        self._status(
            "stalled",
            f"{failures} consecutive failed model calls (the last: {outcome.value}"
            f"{': ' + error[:160] if error else ''}); "
            f"re-checking every {self.recheck_interval_s:g} s",
        )

    def wait(self) -> None:
        """Return at once unless stalled; else block until a check succeeds.

        Raises:
            RunStopped: after :meth:`cancel` (at once, also while blocked).
        """
        while True:
            self.check()
            with self._cond:
                if not self._stalled:
                    return
                if self._probing:
                    self._cond.wait(timeout=self.recheck_interval_s)
                    continue
                self._probing = True
            try:
                self.check_server()
                ok = True
            except Exception as exc:  # any failure to answer means: still down
                log.debug("server check failed: %s", exc)
                ok = False
            with self._cond:
                self._probing = False
                if ok:
                    down = time.monotonic() - self._since
                    self._stalled, self._failures = False, 0
                    self._cond.notify_all()
            if ok:
                self._status("running", f"the model server answers again after {down:.1f} s")
                return
            self.sleep(self.recheck_interval_s)

    def _status(self, state: str, reason: str) -> None:
        if self.on_status is not None:
            self.on_status(state, reason)
