"""A settings validation error as one line: pydantic's first error -> a ConfigError naming the field.

The reasons read as the hand-written checks always did ("must be an integer, got 'ten'",
"unknown setting; allowed: k, weights"); the first error is the one a reader meets first: at
each table its unknown keys, then its settings in order, then the table's own value checks.
"""

from __future__ import annotations

import enum
from typing import Any

from pydantic import BaseModel, ValidationError
from pydantic_core import ErrorDetails

from ..errors import ConfigError

__all__ = ["config_error", "is_table"]

#: What a setting of each type must be, by pydantic's error type.
_EXPECTED = {
    "int_type": "an integer",
    "float_type": "a number",
    "string_type": "a text",
    "bool_type": "true or false",
    "model_type": "a table of settings",
    "datetime_type": "a game time like '2023-02-13 07:00'",
}

#: What each list setting must be (a tuple type alone does not say how many).
_LISTS = {"weights": "a list of 3 numbers", "more_base_urls": "a list of texts"}


def is_table(kind: Any) -> bool:
    """True if ``kind`` (a setting's type) is a table of settings (a pydantic model)."""
    return isinstance(kind, type) and issubclass(kind, BaseModel)


def _setting_type(root: type[BaseModel], loc: tuple[int | str, ...]) -> Any:
    """The type of the setting at ``loc`` (names of tables, then of the setting) below ``root``."""
    kind: Any = root
    for part in loc:
        kind = kind.model_fields[part].annotation
    return kind


def _dotted(loc: tuple[int | str, ...]) -> str:
    return "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in loc).lstrip(".")


def _first(errors: list[ErrorDetails]) -> ErrorDetails:
    """The error met first: within each table, unknown keys come before the settings' errors."""

    def rank(err: ErrorDetails) -> list[tuple[int, int]]:
        loc, extra = err["loc"], err["type"] == "extra_forbidden"
        return [
            (0 if extra and depth == len(loc) - 1 else 1,
             next(i for i, e in enumerate(errors) if e["loc"][: depth + 1] == loc[: depth + 1]))
            for depth in range(len(loc))
        ]

    return min(errors, key=rank)


def config_error(exc: ValidationError, root: type[BaseModel], file: str | None) -> ConfigError:
    """The first error of ``exc`` (validating ``root`` from a dict) as a :class:`ConfigError`.

    A table's own checks raise a ConfigError naming a setting of the table: it gets the table's
    dotted path and ``file``. A setting's parser (the game-time text) raises its ConfigError as
    the parser words it.
    """
    err = _first(exc.errors())
    loc, kind = err["loc"], err["type"]
    field = _dotted(loc)
    if kind == "value_error":
        raised = err["ctx"]["error"]
        if not is_table(_setting_type(root, loc)):
            return raised
        return ConfigError(raised.reason, file=file, field=_dotted((*loc, raised.field)))
    if kind == "missing":
        return ConfigError("missing setting", file=file, field=field)
    if kind == "extra_forbidden":
        allowed = ", ".join(_setting_type(root, loc[:-1]).model_fields)
        return ConfigError(f"unknown setting; allowed: {allowed}", file=file, field=field)
    if kind == "enum":
        members: type[enum.Enum] = _setting_type(root, loc)
        expected = "one of " + ", ".join(repr(m.value) for m in members)
    elif kind == "tuple_type":
        expected = _LISTS[str(loc[-1])]
    else:
        expected = _EXPECTED.get(kind, err["msg"])
    return ConfigError(f"must be {expected}, got {err['input']!r}", file=file, field=field)
