"""Retrying a model's failed attempts with backoff, then falling back to the scripted answer.

:class:`RetryingBackend` retries one question with tenacity backoff (honouring Retry-After, shown
as STATUS "rate_limited" when longer than :data:`RATE_LIMIT_NOTICE_S`) and falls back to the
scripted answer after ``max_retries`` retries, recording the fallback. When every one of
``max_consecutive_fallbacks`` questions in a row falls back, it raises ThinkingError naming the
cause: the model is not answering at all (a wrong URL or model gives HTTP 404 to every request).
"""

from __future__ import annotations

import collections
import random
import threading
import time
from dataclasses import dataclass
from typing import cast

import tenacity
from pydantic import BaseModel

from ...errors import ThinkingError
from ..backend import ThinkingBackend
from ..model import Attempt, ModelBackend
from ..questions import A, Question
from .recorder import CallRecorder
from .stall import StallGuard

__all__ = ["Resolution", "RetryingBackend", "RATE_LIMIT_NOTICE_S"]

#: A Retry-After wait longer than this (wall seconds) is published as STATUS "rate_limited".
RATE_LIMIT_NOTICE_S = 10.0


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
        stall: pauses attempts while the server is down, and ends the waits (backoff,
            Retry-After, a stall) when cancelled; or None.
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
        retry_after = _last(state).retry_after_s
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
        self.recorder.asking(question)

        def one() -> Attempt:
            nonlocal number
            if self.stall is not None:
                self.stall.wait()  # also: RunStopped after a stop request
            result = self.model.attempt(question)
            number += 1
            self.recorder.attempt(result, number=number)
            if self.stall is not None:
                self.stall.report(result.outcome, result.error)
            return result

        last: Attempt = tenacity.Retrying(
            stop=tenacity.stop_after_attempt(self.max_retries + 1),
            wait=self._wait,
            retry=tenacity.retry_if_result(lambda a: a.outcome.retryable),
            retry_error_callback=_last,
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

    def ask(self, question: Question[A]) -> A:
        """The resolved answer (see :meth:`resolve`)."""
        return cast(A, self.resolve(question).answer)  # resolve answers with the question's model

    def close(self) -> None:
        """Close the model and the fallback."""
        self.model.close()
        self.fallback.close()


def _last(state: tenacity.RetryCallState) -> Attempt:
    """The attempt tenacity made last (it sets the outcome before it waits or gives up)."""
    assert state.outcome is not None
    return state.outcome.result()
