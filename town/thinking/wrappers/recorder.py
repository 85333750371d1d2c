"""Recording model calls: one MODEL_CALL event per call, and the model's STATUS events.

:class:`CallRecorder` turns every call into a MODEL_CALL event (template, purpose, persona, tick,
tokens in and out, latency, cache hit, outcome; totals are counted from the recorded
events); the stall guard and the retrying wrapper publish their STATUS events
(stalled, rate_limited, running) through it.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

from ...events import EventKind
from ..model import Attempt, CallOutcome
from ..questions import Question

__all__ = ["Publish", "CallRecorder"]

#: ``publish(kind, persona, data)``: publishes an event stamped with the current tick and time
#: (``MindContext.publish`` has this shape).
Publish = Callable[[EventKind, "str | None", dict], Any]


class CallRecorder:
    """Publishes one MODEL_CALL event per call (thread-safe).

    Event data: ``template, purpose, tokens_in, tokens_out, latency_ms, cache_hit, outcome,
    request`` (True for an HTTP attempt), ``attempt`` (1-based within the question, 0 when no
    request) and ``error``; an HTTP attempt also carries ``estimated`` (its tokens are an
    estimate: the server reported none), ``dropped_memories`` (left out to fit the prompt
    budget), ``endpoint`` (the server it went to) and ``check`` (for a rejected answer, the answer
    check that rejected it: ``Attempt.check``). The persona is the event's persona; the tick is stamped by
    ``publish``. It also publishes the stall guard's STATUS events.

    Args:
        publish: the event publisher; None keeps events until :meth:`bind` gives one (the
            simulation's bus exists only after the backend was built and checked).
    """

    def __init__(self, publish: Publish | None = None):
        self._publish = publish
        self._announce: Publish | None = None
        self._pending: list[tuple[EventKind, str | None, dict]] = []
        self._lock = threading.Lock()
        # since :meth:`mark`, per template in the order first asked: (personas asked, answered)
        self._live: dict[str, tuple[set[str], set[str]]] = {}

    def asking(self, question: Question) -> None:
        """Note that ``question`` goes to the model now (for :meth:`live`; nothing is published)."""
        with self._lock:
            self._live.setdefault(question.template, (set(), set()))[0].add(question.persona)

    def mark(self) -> None:
        """Start :meth:`live`'s count afresh (a new tick)."""
        with self._lock:
            self._live = {}

    def live(self) -> list[tuple[str, int, int]]:
        """What the model was asked since :meth:`mark`: (template, personas answered, personas
        asked), in the order the templates were first asked."""
        with self._lock:
            return [(t, len(done), len(asked)) for t, (asked, done) in self._live.items()]

    def bind(self, publish: Publish, *, announce: Publish | None = None) -> None:
        """Publish through ``publish`` from now on; events kept so far are published first.

        Args:
            publish: for MODEL_CALL events (``MindContext.publish``: held back with the
                persona's other events while it decides).
            announce: for STATUS events, published at once from whatever thread notices
                (``Simulation.announce``), so viewers and the run file learn of a stall while
                the tick still waits; default ``publish``.
        """
        with self._lock:
            self._publish, pending, self._pending = publish, self._pending, []
            self._announce = announce
        for event in pending:
            publish(*event)

    def status(self, state: str, reason: str) -> None:
        """Publish STATUS ``{"state": state, "reason": reason, "source": "model"}`` (town-wide).

        ``source`` tells the runner this is the model's health (stalled, rate_limited, running
        again), not its own state.
        """
        data = {"state": state, "reason": reason, "source": "model"}
        with self._lock:
            announce = self._announce
        if announce is not None:
            announce(EventKind.STATUS, None, data)
        else:
            self._send(EventKind.STATUS, None, data)

    def _send(self, kind: EventKind, persona: str | None, data: dict) -> None:
        with self._lock:
            publish = self._publish
            if publish is None:
                self._pending.append((kind, persona, data))
                return
        publish(kind, persona, data)

    def attempt(self, a: Attempt, *, number: int) -> None:
        """Record HTTP attempt number ``number`` (1-based) of a question."""
        self._emit(
            a.template,
            a.purpose,
            a.persona,
            outcome=a.outcome,
            request=True,
            attempt=number,
            tokens_in=a.tokens_in,
            tokens_out=a.tokens_out,
            latency_ms=a.latency_ms,
            error=a.error,
            extra={"estimated": a.estimated, "dropped_memories": a.dropped, "endpoint": a.endpoint,
                   "check": a.check},
        )

    def resolved(
        self, question: Question, *, fallback: bool, cache_hit: bool, error: str = ""
    ) -> None:
        """Record how a question was resolved.

        Publishes an event only when no request was made for it just now: a fallback to the
        scripted answer, or an answer (valid or fallback) from the cache.
        """
        with self._lock:
            asked, done = self._live.setdefault(question.template, (set(), set()))
            asked.add(question.persona)
            done.add(question.persona)
        if fallback or cache_hit:
            self._emit(
                question.template,
                question.purpose,
                question.persona,
                request=False,
                attempt=0,
                outcome=CallOutcome.FALLBACK if fallback else CallOutcome.OK,
                cache_hit=cache_hit,
                error=error,
            )

    def _emit(
        self,
        template: str,
        purpose: str,
        persona: str,
        *,
        outcome: CallOutcome,
        request: bool,
        attempt: int,
        tokens_in: int = 0,
        tokens_out: int = 0,
        latency_ms: float = 0.0,
        cache_hit: bool = False,
        error: str = "",
        extra: dict | None = None,
    ) -> None:
        self._send(
            EventKind.MODEL_CALL,
            persona,
            {
                "template": template,
                "purpose": purpose,
                "tokens_in": tokens_in,
                "tokens_out": tokens_out,
                "latency_ms": latency_ms,
                "cache_hit": cache_hit,
                "outcome": outcome.value,
                "request": request,
                "attempt": attempt,
                "error": error,
                **(extra or {}),
            },
        )
