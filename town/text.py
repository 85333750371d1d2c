"""Text from outside `town`, checked once where it enters.

Every text that comes from outside (an HTTP body, a Socket.IO message, a command-line argument,
a persona or town file) passes :func:`check_text` at its entry point, so the simulation never
holds text it cannot embed, record or print. A text is refused when it:

- is not Unicode text that UTF-8 can encode: a lone surrogate (``"\\ud800"`` in JSON or YAML, or
  bytes that are not UTF-8 in a command-line argument, which Python reads as surrogates), or
- holds a NUL character (SQLite and the tokenizer would cut it there), or
- holds any other control character but tab, line feed and carriage return (ESC, BEL, backspace,
  DEL, the C1 controls): a whisper of ``"\x1b[31m"`` was stored and printed raw by ``inspect``
  and ``interview``, driving the terminal of whoever read the run.

Typed text (a whisper, a player's line or name) also passes :func:`typed_text`: its spaces are
collapsed, and a text that shows nothing (only spaces, zero-width, bidi or other format
characters) is refused as empty.

The town files' own limits (length per field, no line breaks in short fields) are checked on top
by :class:`town.world.fields.Fields` (docs/scenario-files.md, "Text limits").
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterator
from typing import Any

from .errors import ConfigError

__all__ = ["check_text", "check_texts", "text_problem", "hidden_problem", "is_blank", "typed_text"]

#: Letters that draw nothing though Unicode calls them letters or marks: the combining grapheme
#: joiner and the Hangul fillers.
_FILLERS = frozenset("\u034f\u115f\u1160\u3164\uffa0")

#: The C0 and C1 control characters and DEL but tab, line feed and carriage return (and NUL,
#: refused on its own): a terminal printing one may move the cursor, recolour, retitle or worse.
_CONTROL = re.compile("[\x01-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]")


def text_problem(value: str) -> str | None:
    """What makes ``value`` unfit to enter the town, or None when it is fit.

    Returns:
        e.g. "is not valid UTF-8 text (a lone surrogate U+D800 at character 6)", "must not
        contain NUL" or "holds a control character (character 2: U+001B); ...".
    """
    try:
        value.encode("utf-8")
    except UnicodeEncodeError as exc:
        code = ord(value[exc.start])
        return (f"is not valid UTF-8 text (character {exc.start}: U+{code:04X}, a lone surrogate "
                "or a byte that is not UTF-8)")
    if "\x00" in value:
        return "must not contain NUL"
    control = _CONTROL.search(value)
    if control is not None:
        return (f"holds a control character (character {control.start()}: U+{ord(control.group()):04X}); "
                "only tab and line breaks may be in a text")
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
    return all(c.isspace() or unicodedata.category(c) == "Zs" or _draws_nothing(c) for c in value)


def _draws_nothing(c: str) -> bool:
    """Whether ``c`` draws nothing of its own: a control or format character (zero-width spaces
    and joiners, bidi marks, embeddings, overrides and isolates, the byte order mark), a line or
    paragraph separator, or a filler."""
    return unicodedata.category(c) in ("Cc", "Cf", "Zl", "Zp") or c in _FILLERS


def hidden_problem(value: str) -> str | None:
    """What makes ``value`` unfit for a name, or None: a character that draws nothing or reorders
    the text around it (:func:`is_blank`'s, as whispers are checked), so that a name could read
    as another or hide text in chat lines.

    Returns:
        e.g. "holds a character that draws nothing or reorders the text (character 6: U+202E
        RIGHT-TO-LEFT OVERRIDE)".
    """
    for i, c in enumerate(value):
        if _draws_nothing(c):
            return (f"holds a character that draws nothing or reorders the text (character {i}: "
                    f"U+{ord(c):04X} {unicodedata.name(c, 'unnamed')})")
    return None


#: Bidi embeddings, overrides and isolates (U+202A-U+202E, U+2066-U+2069): they reorder how the
#: text around them is drawn, so a typed text could show one thing and hold another.
_REORDERING = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")

#: Combining marks kept on one letter; more are stacked marks drawn over the lines around.
MAX_MARKS = 3


def _plain(text: str) -> str:
    """``text`` without bidi reordering controls and with at most :data:`MAX_MARKS` combining
    marks (Unicode categories Mn, Me) on a letter."""
    kept: list[str] = []
    marks = 0
    for c in text:
        if c in _REORDERING:
            continue
        marks = marks + 1 if unicodedata.category(c) in ("Mn", "Me") else 0
        if marks <= MAX_MARKS:
            kept.append(c)
    return "".join(kept)


def typed_text(value: str, field: str, *, limit: int) -> str:
    """A text someone typed (a whisper, a line, a name), if it is fit and shows something: spaces
    collapsed, bidi reordering controls dropped, stacked combining marks cut to :data:`MAX_MARKS`.

    Raises:
        ConfigError: naming ``field`` when the text is unfit (:func:`text_problem`), shows nothing
            (:func:`is_blank`), or is longer than ``limit`` characters.
    """
    text = " ".join(_plain(check_text(value, field)).split())
    if is_blank(text):
        raise ConfigError(f"is empty (nothing but spaces, zero-width or bidi characters); type 1-{limit} "
                          "characters", field=field)
    if len(text) > limit:
        raise ConfigError(f"is {len(text)} characters long; type 1-{limit}", field=field)
    return text
