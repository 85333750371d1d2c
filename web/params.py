"""Request parameters of the JSON API, checked: a bad value is a 400 naming the parameter.

Every integer from a request (query parameter or ``<int:...>`` URL part) is held to the range of
a SQLite INTEGER, so no value reaches the run file that SQLite cannot bind (OverflowError).
"""

from __future__ import annotations

import math

from flask import abort, request
from werkzeug.routing import IntegerConverter

__all__ = ["MAX_INT", "MAX_LIMIT", "MIN_INT", "SqlIntConverter", "fail", "int_arg", "limit_arg",
           "weights_arg"]

#: The range of a SQLite INTEGER (64-bit signed): the bounds of every integer parameter.
MIN_INT, MAX_INT = -(2**63), 2**63 - 1

#: The largest ``limit`` a list endpoint accepts.
MAX_LIMIT = 500


def fail(code: int, message: str):
    """Abort the request with ``code`` and ``message`` (JSON ``{"error"}`` under /api/)."""
    abort(code, description=message)


class SqlIntConverter(IntegerConverter):
    """The app's ``<int:...>`` URL converter: 0..:data:`MAX_INT`; a larger number matches no route (404)."""

    def __init__(self, url_map, *args, **kwargs):
        kwargs.setdefault("max", MAX_INT)
        super().__init__(url_map, *args, **kwargs)


def int_arg(name: str, default: int | None = None, *, low: int | None = None,
            high: int | None = None) -> int | None:
    """Query parameter ``name`` as an int in [low, high] (``default`` when absent or empty).

    ``low`` and ``high`` default to :data:`MIN_INT` and :data:`MAX_INT`, the SQLite INTEGER range.
    """
    low = MIN_INT if low is None else max(low, MIN_INT)
    high = MAX_INT if high is None else min(high, MAX_INT)
    raw = request.args.get(name)
    if raw is None or raw == "":
        return default
    try:
        value = int(raw)
    except ValueError:
        fail(400, f"{name}: must be an integer, got {raw!r}")
    if not low <= value <= high:
        fail(400, f"{name}: must be between {low} and {high}, got {value}")
    return value


def limit_arg(default: int) -> int:
    """The ``limit`` query parameter, 1..:data:`MAX_LIMIT`."""
    return int_arg("limit", default, low=1, high=MAX_LIMIT)


def weights_arg(name: str = "w") -> tuple[float, float, float] | None:
    """Query parameter ``name`` as three finite weights >= 0 ("1,0.5,1"), or None when absent."""
    raw = request.args.get(name)
    if not raw:
        return None
    try:
        values = tuple(float(v) for v in raw.split(","))
    except ValueError:
        fail(400, f"{name}: expected three numbers 'recency,importance,relevance', got {raw!r}")
    if len(values) != 3 or not all(math.isfinite(v) and v >= 0 for v in values):
        fail(400, f"{name}: expected three finite numbers >= 0, got {raw!r}")
    return values
