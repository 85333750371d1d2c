"""Answering from the cache of resolved answers, asking the model only on a miss.

:class:`CachingBackend` answers from the SQLite cache (:mod:`town.thinking.cache`) when it can;
the same question asked twice at once waits for the first asking.
"""

from __future__ import annotations

import threading
from typing import cast

from ..backend import ThinkingBackend
from ..cache import AnswerCache, CachedAnswer, cache_key
from ..questions import A, Question
from .recorder import CallRecorder
from .retrying import RetryingBackend

__all__ = ["CachingBackend"]


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
        self.name = inner.name
        self.pool_size = inner.pool_size
        self._lock = threading.Lock()
        self._in_flight: dict[str, threading.Lock] = {}

    def ask(self, question: Question[A]) -> A:
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
                    return cast(A, type(question).answer_model.model_validate(hit.answer))
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
                return cast(A, resolved.answer)  # resolved with the question's model
        finally:
            with self._lock:
                self._in_flight.pop(key, None)

    def close(self) -> None:
        """Close the inner backend and the cache."""
        self.inner.close()
        self.cache.close()
