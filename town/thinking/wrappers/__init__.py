"""What surrounds a model backend: two wrappers with its interface, and two parts beside them.

The wrappers (retrying, caching) have the ``ThinkingBackend`` interface (after Concordia); the
recorder and the stall guard are not backends: the wrappers use them, and
:func:`town.backends.make_backend` hands them to the run as separate objects. One module
each:

- :mod:`.recorder`: :class:`CallRecorder` turns every call into a MODEL_CALL event (template,
  purpose, persona, tick, tokens in and out, latency, cache hit, outcome); totals are counted
  from the recorded events.
- :mod:`.stall`: :class:`StallGuard` pauses all calls after N consecutive unavailable-server
  failures, publishes STATUS "stalled", re-checks the server, and publishes STATUS "running" when
  it answers again. It is the gate every attempt and every wait passes, so
  :meth:`StallGuard.cancel` (a stop request) ends all of them at once with
  :class:`~town.errors.RunStopped`, and the model's requests in flight with them.
- :mod:`.retrying`: :class:`RetryingBackend` retries one question with tenacity backoff
  (honouring Retry-After, shown as STATUS "rate_limited" when longer than
  :data:`RATE_LIMIT_NOTICE_S`) and falls back to the scripted answer after ``max_retries``
  retries, recording the fallback. When every one of ``max_consecutive_fallbacks`` questions in a
  row falls back, it raises ThinkingError naming the cause: the model is not answering at all (a
  wrong URL or model gives HTTP 404 to every request).
- :mod:`.caching`: :class:`CachingBackend` answers from the SQLite cache of resolved answers when
  it can.
- :mod:`.calibrated`: :class:`CalibratedBackend` keeps the model's importance ratings, the
  embedded rater's, or a blend, as the start-up check settled (:mod:`town.thinking.calibration`).

The usual stack (see :func:`town.backends.make_backend`)::

    CalibratedBackend(CachingBackend(RetryingBackend(OpenAIBackend(...), fallback=ScriptedBackend(),
                                                     recorder=, stall=), recorder=, ...), calibration)

All are thread-safe: the simulation asks questions from a pool of ``pool_size`` threads.
"""

from .caching import CachingBackend
from .calibrated import CalibratedBackend
from .recorder import CallRecorder, Publish
from .retrying import RATE_LIMIT_NOTICE_S, Resolution, RetryingBackend
from .stall import StallGuard

__all__ = [
    "Publish",
    "CallRecorder",
    "StallGuard",
    "Resolution",
    "RetryingBackend",
    "CachingBackend",
    "CalibratedBackend",
    "RATE_LIMIT_NOTICE_S",
]
