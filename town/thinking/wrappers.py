"""Wrappers around a model backend, each with the ``ThinkingBackend`` interface (after Concordia).

- :class:`CallRecorder` turns every call into a MODEL_CALL event (template, purpose, persona,
  tick, tokens in and out, latency, cache hit, outcome) and keeps running totals.
- :class:`StallGuard` pauses all calls after N consecutive unavailable-server failures, publishes
  STATUS "stalled", re-checks the server, and publishes STATUS "running" when it answers again.
  It is the gate every attempt and every wait passes, so :meth:`StallGuard.cancel` (a stop
  request) ends all of them at once with :class:`~town.errors.RunStopped`.
- :class:`RetryingBackend` retries one question with tenacity backoff (honouring Retry-After,
  shown as STATUS "rate_limited" when longer than :data:`RATE_LIMIT_NOTICE_S`) and falls back to
  the scripted answer after ``max_retries`` retries, recording the fallback. When every one of
  ``max_consecutive_fallbacks`` questions in a row falls back, it raises ThinkingError naming the
  cause: the model is not answering at all (a wrong URL or model gives HTTP 404 to every request).
- :class:`CachingBackend` answers from the SQLite cache of resolved answers when it can.

The usual stack (see :func:`town.thinking.factory.make_backend`)::

    CachingBackend(RetryingBackend(OpenAIBackend(...), fallback=ScriptedBackend(), ...), ...)

All are thread-safe: the simulation asks questions from a pool of ``pool_size`` threads.
"""

from __future__ import annotations

import collections
import logging
import random
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import tenacity
from pydantic import BaseModel

from ..errors import RunStopped, ThinkingError
from ..events import EventKind
from .backend import ThinkingBackend
from .cache import AnswerCache, CachedAnswer, cache_key
from .model import PURPOSES, Attempt, CallOutcome, ModelBackend
from .questions import Question

__all__ = [
    "Publish",
    "CallRecorder",
    "StallGuard",
    "Resolution",
    "RetryingBackend",
    "CachingBackend",
    "RATE_LIMIT_NOTICE_S",
]

#: A Retry-After wait longer than this (wall seconds) is published as STATUS "rate_limited".
RATE_LIMIT_NOTICE_S = 10.0

log = logging.getLogger(__name__)

#: ``publish(kind, persona, data)``: publishes an event stamped with the current tick and time
#: (``MindContext.publish`` has this shape).
Publish = Callable[[EventKind, "str | None", dict], Any]


class CallRecorder:
    """Publishes one MODEL_CALL event per call and keeps running totals (thread-safe).

    Event data: ``template, purpose, tokens_in, tokens_out, latency_ms, cache_hit, outcome,
    request`` (True for an HTTP attempt), ``attempt`` (1-based within the question, 0 when no
    request) and ``error``; an HTTP attempt also carries ``estimated`` (its tokens are an
    estimate: the server reported none), ``dropped_memories`` (left out to fit the prompt
    budget) and ``endpoint`` (the server it went to). The persona is the event's persona; the tick is stamped by
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

    def bind(self, publish: Publish, *, announce: Publish | None = None) -> None:
        """Publish through ``publish`` from now on; events kept so far are published first.

        Args:
            publish: for MODEL_CALL events (``MindContext.publish``: held back with the
                persona's other events while it decides).
            announce: for STATUS events, published at once from whatever thread notices
                (``MindContext.announce``), so viewers and the run file learn of a stall while
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
            a.persona,
            outcome=a.outcome,
            request=True,
            attempt=number,
            tokens_in=a.tokens_in,
            tokens_out=a.tokens_out,
            latency_ms=a.latency_ms,
            error=a.error,
            extra={"estimated": a.estimated, "dropped_memories": a.dropped, "endpoint": a.endpoint},
        )

    def resolved(
        self, question: Question, *, fallback: bool, cache_hit: bool, error: str = ""
    ) -> None:
        """Record how a question was resolved.

        Publishes an event only when no request was made for it just now: a fallback to the
        scripted answer, or an answer (valid or fallback) from the cache.
        """
        if fallback or cache_hit:
            self._emit(
                question.template,
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
                "purpose": PURPOSES.get(template, template),
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
    """

    def __init__(
        self,
        *,
        threshold: int,
        check_server: Callable[[], None],
        on_status: Callable[[str, str], None] | None = None,
        recheck_interval_s: float = 2.0,
    ):
        self.threshold = int(threshold)
        self.check_server = check_server
        self.on_status = on_status
        self.recheck_interval_s = float(recheck_interval_s)
        self._cond = threading.Condition()
        self._failures = 0
        self._stalled = False
        self._probing = False
        self._since = 0.0
        self._cancelled = threading.Event()
        self.stalls = 0

    def cancel(self) -> None:
        """End every wait now and refuse further attempts (a stop request; not undone)."""
        self._cancelled.set()
        with self._cond:
            self._cond.notify_all()

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

    def report(self, outcome: CallOutcome) -> None:
        """Count an attempt's outcome; the ``threshold``-th unavailable one in a row stalls."""
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
            f"{failures} consecutive failed model calls ({outcome.value}); "
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


@dataclass(frozen=True, kw_only=True)
class Resolution:
    """A question's resolved answer and whether it is the scripted fallback."""

    answer: BaseModel
    fallback: bool


class RetryingBackend(ThinkingBackend):
    """Retries a model's failed attempts with backoff, then falls back to the scripted answer.

    Retried: timeouts, 429 (waiting the server's Retry-After), 5xx, connection errors,
    unparsable and invalid answers. Not retried: other 4xx. Waits grow exponentially from
    ``backoff_s`` with up to ``backoff_s`` of jitter, capped at ``max_backoff_s``.

    Args:
        model: the model backend (one request per attempt).
        fallback: answers a question when the model could not (the scripted backend).
        recorder: records every attempt and every fallback.
        max_retries: retries after the first attempt (so ``max_retries + 1`` attempts at most).
        stall: pauses attempts while the server is down, or None.
        backoff_s, max_backoff_s: wall seconds of the exponential backoff.
        max_retry_after_s: longest Retry-After honoured, wall seconds.
        max_consecutive_fallbacks: questions in a row that may fall back before the run stops
            (0: never).
    """

    def __init__(
        self,
        model: ModelBackend,
        *,
        fallback: ThinkingBackend,
        recorder: CallRecorder,
        max_retries: int = 3,
        stall: StallGuard | None = None,
        backoff_s: float = 1.0,
        max_backoff_s: float = 30.0,
        max_retry_after_s: float = 60.0,
        max_consecutive_fallbacks: int = 20,
    ):
        self.model = model
        self.fallback = fallback
        self.recorder = recorder
        self.max_retries = int(max_retries)
        self.stall = stall
        self.name = model.name
        self.pool_size = model.pool_size
        self.max_retry_after_s = float(max_retry_after_s)
        self._backoff = tenacity.wait_exponential_jitter(
            multiplier=backoff_s, max=max_backoff_s, jitter=backoff_s
        )
        self.max_consecutive_fallbacks = int(max_consecutive_fallbacks)
        self._fallbacks: list[str] = []  # why each question of the current streak fell back
        self._streak_lock = threading.Lock()
        self._local = threading.local()  # per thread: waiting out a long Retry-After

    def cache_identity(self, question: Question):
        """The model's cache identity of ``question`` (see ``ModelBackend.cache_identity``)."""
        return self.model.cache_identity(question)

    def _wait(self, state: tenacity.RetryCallState) -> float:
        retry_after = state.outcome.result().retry_after_s
        if retry_after is not None:
            seconds = min(retry_after, self.max_retry_after_s)
            if seconds > RATE_LIMIT_NOTICE_S:
                self._local.rate_limited = True
                self.recorder.status("rate_limited", f"the model server asked to wait {seconds:.0f} s "
                                     "(HTTP 429); the run goes on after the wait")
            return seconds + random.uniform(0, 0.05)
        return self._backoff(state)

    def _sleep(self, seconds: float) -> None:
        """Tenacity's sleep between attempts; a stop request (the stall guard) ends it."""
        try:
            if self.stall is not None:
                self.stall.sleep(seconds)
            else:
                time.sleep(seconds)
        finally:
            if getattr(self._local, "rate_limited", False):
                self._local.rate_limited = False
                self.recorder.status("running", "the rate-limit wait is over")

    def _count(self, fallback: bool, why: str) -> None:
        """Count a resolved question; too many fallbacks in a row stop the run.

        Raises:
            ThinkingError: at the ``max_consecutive_fallbacks``-th fallback in a row, naming the
                most common failure of the streak.
        """
        limit = self.max_consecutive_fallbacks
        with self._streak_lock:
            if not fallback:
                self._fallbacks.clear()
                return
            self._fallbacks.append(why)
            if limit < 1 or len(self._fallbacks) < limit:
                return
            reasons = collections.Counter(self._fallbacks)
            self._fallbacks.clear()
        (cause, n), = reasons.most_common(1)
        share = "every request" if n == limit else f"{n} of them"
        hint = ("; a wrong --base-url or --model usually gives HTTP 404" if "HTTP 404" in cause
                else "")
        raise ThinkingError(
            f"the model answered none of the last {limit} questions, all fell back to the scripted "
            f"answer ({share}: {cause}){hint}; the run stops "
            "(backend.max_consecutive_fallbacks = 0 never stops)")

    def resolve(self, question: Question) -> Resolution:
        """The model's valid answer after retries, or the scripted answer (recorded as fallback).

        Raises:
            ThinkingError: only when the prompt template cannot be rendered.
        """
        number = 0

        def one() -> Attempt:
            nonlocal number
            if self.stall is not None:
                self.stall.wait()  # also: RunStopped after a stop request
            result = self.model.attempt(question)
            number += 1
            self.recorder.attempt(result, number=number)
            if self.stall is not None:
                self.stall.report(result.outcome)
            return result

        last: Attempt = tenacity.Retrying(
            stop=tenacity.stop_after_attempt(self.max_retries + 1),
            wait=self._wait,
            retry=tenacity.retry_if_result(lambda a: a.outcome.retryable),
            retry_error_callback=lambda state: state.outcome.result(),
            sleep=self._sleep,
        )(one)
        if last.answer is not None:
            self.recorder.resolved(question, fallback=False, cache_hit=False)
            self._count(False, "")
            return Resolution(answer=last.answer, fallback=False)
        self.recorder.resolved(
            question,
            fallback=True,
            cache_hit=False,
            error=f"after {number} attempts: {last.outcome.value}",
        )
        self._count(True, last.error or last.outcome.value)
        return Resolution(answer=self.fallback.ask(question), fallback=True)

    def ask(self, question: Question) -> BaseModel:
        """The resolved answer (see :meth:`resolve`)."""
        return self.resolve(question).answer

    def close(self) -> None:
        """Close the model and the fallback."""
        self.model.close()
        self.fallback.close()


class CachingBackend(ThinkingBackend):
    """Answers from an :class:`AnswerCache` of resolved answers; asks ``inner`` on a miss.

    The same question asked twice at once waits for the first asking (so a cold run and a warm
    re-run see the same answer for equal prompts). A cached fallback is answered by the
    fallback backend again (the scripted answer is deterministic for the same question).

    Args:
        inner: the retrying backend.
        cache: the cache file.
        recorder: records cache hits.
    """

    def __init__(self, inner: RetryingBackend, *, cache: AnswerCache, recorder: CallRecorder):
        self.inner = inner
        self.cache = cache
        self.recorder = recorder
        self.stall = inner.stall
        self.name = inner.name
        self.pool_size = inner.pool_size
        self._lock = threading.Lock()
        self._in_flight: dict[str, threading.Lock] = {}

    def ask(self, question: Question) -> BaseModel:
        """The cached resolved answer, or the inner backend's (then cached).

        Raises:
            ThinkingError: only when the prompt template cannot be rendered.
        """
        parts = self.inner.cache_identity(question)
        key = cache_key(*parts)
        with self._lock:
            gate = self._in_flight.setdefault(key, threading.Lock())
        try:
            with gate:
                hit = self.cache.get(key)
                if hit is not None:
                    self.recorder.resolved(question, fallback=hit.fallback, cache_hit=True)
                    if hit.fallback:
                        return self.inner.fallback.ask(question)
                    return type(question).answer_model.model_validate(hit.answer)
                resolved = self.inner.resolve(question)
                self.cache.put(
                    key,
                    parts,
                    CachedAnswer(
                        answer=None
                        if resolved.fallback
                        else resolved.answer.model_dump(mode="json"),
                        fallback=resolved.fallback,
                    ),
                )
                return resolved.answer
        finally:
            with self._lock:
                self._in_flight.pop(key, None)

    def close(self) -> None:
        """Close the inner backend and the cache."""
        self.inner.close()
        self.cache.close()
