"""Request parameters and bodies of the JSON API, checked: a bad value is a 400 naming the parameter.

Every integer from a request (query parameter or ``<int:...>`` URL part) is held to the range of
a SQLite INTEGER, so no value reaches the run file that SQLite cannot bind (OverflowError). A
JSON body is at most :data:`MAX_BODY` bytes (413 beyond, before it is read), nested at most
:data:`MAX_DEPTH` deep, and every text in it passes :func:`town.text.check_text` (a 400 naming
the field), so the simulation never sees a lone surrogate or a NUL.
"""

from __future__ import annotations

import json
import math
import re
from typing import Any

from flask import abort, request
from werkzeug.exceptions import RequestEntityTooLarge
from werkzeug.routing import IntegerConverter

from town.errors import ConfigError
from town.text import check_texts

__all__ = ["MAX_BODY", "MAX_DEPTH", "MAX_INT", "MAX_LIMIT", "MIN_INT", "SqlIntConverter", "fail", "json_depth",
           "int_arg", "json_body", "limit_arg", "weights_arg"]

#: The largest request body, in bytes (Flask's ``MAX_CONTENT_LENGTH``; Socket.IO's own buffer
#: is 1,000,000 bytes too).
MAX_BODY = 1_000_000

#: The deepest nesting of arrays and objects a JSON body may have (the API's bodies are flat).
MAX_DEPTH = 8

#: A JSON string (with its escapes), or one bracket of an array or object.
_TOKENS = re.compile(rb'"(?:[^"\\]|\\.)*"|[\[\]{}]')

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


def json_depth(raw: bytes, limit: int = MAX_DEPTH) -> int:
    """The deepest nesting of ``[`` and ``{`` in the JSON text ``raw`` (brackets inside strings
    do not count); stops counting past ``limit``."""
    depth = deepest = 0
    for token in _TOKENS.finditer(raw):
        mark = token.group()
        if mark in (b"[", b"{"):
            depth += 1
            deepest = max(deepest, depth)
            if deepest > limit:
                break
        elif mark in (b"]", b"}"):
            depth -= 1
    return deepest


def json_body(hint: str) -> dict[str, Any]:
    """The request's JSON object body, checked before and after parsing.

    Args:
        hint: the body expected, for the error, e.g. ``'{"text": ...}'``.

    Returns:
        The parsed object.

    Raises:
        werkzeug.exceptions.HTTPException: 413 for a body over :data:`MAX_BODY` bytes (a chunked one
            of that many or more, which the server cuts at the limit); 400 for
            one that is not JSON, not UTF-8, not an object, nested deeper than
            :data:`MAX_DEPTH`, or holds an unfit text (naming its field).
    """
    if not request.is_json:
        fail(400, f"send JSON {hint}")
    raw = request.get_data(cache=True)  # at most MAX_CONTENT_LENGTH bytes, else 413
    if request.content_length is None and len(raw) >= MAX_BODY:  # chunked: cut at the limit, not refused
        raise RequestEntityTooLarge()
    if json_depth(raw) > MAX_DEPTH:
        fail(400, f"body: nested more than {MAX_DEPTH} deep; send JSON {hint}")
    try:
        body = json.loads(raw)
    except ValueError as exc:  # not JSON, or not UTF-8
        fail(400, f"body: not JSON ({' '.join(str(exc).split())}); send JSON {hint}")
    if not isinstance(body, dict):
        fail(400, f"send JSON {hint}")
    try:
        return check_texts(body)
    except ConfigError as exc:
        fail(400, str(exc))
