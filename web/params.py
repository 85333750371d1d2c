"""Request parameters of the JSON API, checked: a bad value is a 400 naming the parameter."""

from __future__ import annotations

import math

from flask import abort, request

__all__ = ["MAX_LIMIT", "fail", "int_arg", "limit_arg", "weights_arg"]

#: The largest ``limit`` a list endpoint accepts.
MAX_LIMIT = 500


def fail(code: int, message: str):
    """Abort the request with ``code`` and ``message`` (JSON ``{"error"}`` under /api/)."""
    abort(code, description=message)


def int_arg(name: str, default: int | None = None, *, low: int | None = None,
            high: int | None = None) -> int | None:
    """Query parameter ``name`` as an int in [low, high] (``default`` when absent or empty)."""
    raw = request.args.get(name)
    if raw is None or raw == "":
        return default
    try:
        value = int(raw)
    except ValueError:
        fail(400, f"{name}: must be an integer, got {raw!r}")
    if (low is not None and value < low) or (high is not None and value > high):
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
