"""Text from outside `town`, checked once where it enters.

Every text that comes from outside (an HTTP body, a Socket.IO message, a command-line argument,
a persona or town file) passes :func:`check_text` at its entry point, so the simulation never
holds text it cannot embed, record or print. A text is refused when it:

- is not Unicode text that UTF-8 can encode: a lone surrogate (``"\\ud800"`` in JSON or YAML, or
  bytes that are not UTF-8 in a command-line argument, which Python reads as surrogates), or
- holds a NUL character (SQLite and the tokenizer would cut it there).

Typed text (a whisper, a player's line or name) also passes :func:`typed_text`: its spaces are
collapsed, and a text that shows nothing (only spaces, zero-width, bidi or other format
characters) is refused as empty.

The town files' own limits (length per field, no line breaks in short fields) are checked on top
by :class:`town.world.fields.Fields` (docs/scenario-files.md, "Text limits").
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterator
from typing import Any

from .errors import ConfigError

__all__ = ["check_text", "check_texts", "text_problem", "is_blank", "typed_text"]

#: Letters that draw nothing though Unicode calls them letters or marks: the combining grapheme
#: joiner and the Hangul fillers.
_FILLERS = frozenset("\u034f\u115f\u1160\u3164\uffa0")


def text_problem(value: str) -> str | None:
    """What makes ``value`` unfit to enter the town, or None when it is fit.

    Returns:
        e.g. "is not valid UTF-8 text (a lone surrogate U+D800 at character 6)" or "must not
        contain NUL".
    """
    try:
        value.encode("utf-8")
    except UnicodeEncodeError as exc:
        code = ord(value[exc.start])
        return (f"is not valid UTF-8 text (character {exc.start}: U+{code:04X}, a lone surrogate "
                "or a byte that is not UTF-8)")
    if "\x00" in value:
        return "must not contain NUL"
    return None


def check_text(value: str, field: str, *, file: object | None = None) -> str:
    """Return ``value`` if it is fit to enter the town (:func:`text_problem`).

    Raises:
        ConfigError: naming ``file`` (if any), ``field`` and what is wrong.
    """
    problem = text_problem(value)
    if problem is not None:
        raise ConfigError(problem, file=file, field=field)
    return value


def _texts(value: Any, field: str) -> Iterator[tuple[str, str]]:
    if isinstance(value, str):
        yield field, value
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from _texts(key, field or "(a key)")
            yield from _texts(item, f"{field}.{key}" if field else str(key))
    elif isinstance(value, list | tuple):
        for i, item in enumerate(value):
            yield from _texts(item, f"{field}[{i}]")


def check_texts(value: Any, field: str = "") -> Any:
    """Return ``value`` (parsed JSON or YAML) if every text in it, keys included, is fit.

    Args:
        value: text, numbers, lists and mappings, nested.
        field: the dotted name of ``value`` ("" for a whole body); items are named
            ``field.key`` and ``field[i]``.

    Raises:
        ConfigError: naming the first unfit text's field.
    """
    for name, text in _texts(value, field):
        check_text(text, name or "(the text)")
    return value


def is_blank(value: str) -> bool:
    """True when ``value`` shows nothing: only spaces and separators (Unicode categories Z),
    control and format characters (Cc, Cf: zero-width spaces and joiners, bidi marks, embeddings
    and isolates, the byte order mark) and fillers."""
    return all(c.isspace() or unicodedata.category(c) in ("Cc", "Cf", "Zs", "Zl", "Zp") or c in _FILLERS
               for c in value)


def typed_text(value: str, field: str, *, limit: int) -> str:
    """A text someone typed (a whisper, a line, a name), spaces collapsed, if it is fit and shows something.

    Raises:
        ConfigError: naming ``field`` when the text is unfit (:func:`text_problem`), shows nothing
            (:func:`is_blank`), or is longer than ``limit`` characters.
    """
    text = " ".join(check_text(value, field).split())
    if is_blank(text):
        raise ConfigError(f"is empty (nothing but spaces, zero-width or bidi characters); type 1-{limit} "
                          "characters", field=field)
    if len(text) > limit:
        raise ConfigError(f"is {len(text)} characters long; type 1-{limit}", field=field)
    return text
