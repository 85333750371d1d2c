"""What a run's embedder was asked to embed: how many texts repeat, and how many differ only in
a name, a time or who told them.

Run: ``.venv/bin/python benchmarks/query_forms.py RUN.sqlite``

Reads the run's ``retrievals`` (each retrieval's query) and ``memories`` (each memory's text)
and prints, per retrieval purpose and for memories:

- texts: how many were embedded or looked up (one per retrieval, one per memory);
- distinct: how many different texts, and per game hour on average (what the embedding cache,
  ``CachedEmbedder``, must hold to hit on a repeat within the hour);
- forms: distinct texts once names (capitalised words after a sentence's first), clock times and
  dates are masked; for memories also once the chain of who told it is dropped
  (:func:`town.hearsay.unwrap`, so "Maria told me that S" and "Klaus told me that S" are one
  statement).

A cache keyed by text already hits on every repeat; the forms say how much more a key that
ignores names or times would save, at the cost of a vector that no longer says who or when.
Figures only; no assertions.
"""

from __future__ import annotations

import argparse
import re
import sqlite3
import sys
from collections import defaultdict
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from town.hearsay import unwrap  # noqa: E402

_TIME = re.compile(r"\b\d{1,2}(:\d\d)?\s*(am|pm)?\b|\b(today|tomorrow|yesterday|tonight)\b", re.I)
_DATE = re.compile(r"\b(Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday|January|February|March|April|"
                   r"May|June|July|August|September|October|November|December)\b,?")
_NAME = re.compile(r"(?<![.!?:]\s)(?<!^)\b(?!I\b)[A-Z][\w'’-]*")


def form(text: str) -> str:
    """``text`` with dates, times and names masked (``#``, ``@``, ``N``)."""
    return _NAME.sub("N", _TIME.sub("@", _DATE.sub("#", text)))


def main(argv: list[str] | None = None) -> int:
    """Print the table for the run file given."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("run", type=Path)
    args = ap.parse_args(argv)
    if not args.run.is_file():
        print(f"{args.run}: no such run file", file=sys.stderr)
        return 2
    db = sqlite3.connect(f"file:{args.run}?mode=ro", uri=True)
    rows: dict[str, list[tuple[str, str]]] = defaultdict(list)
    for purpose, query, t in db.execute("SELECT purpose, query, time FROM retrievals"):
        rows[f"query: {purpose}"].append((query, t[:13]))
    for content, t in db.execute("SELECT content, created FROM memories"):
        rows["memory"].append((content, (t or "")[:13]))
    print(f"{'texts of':<22} {'texts':>9} {'distinct':>9} {'per hour':>9} {'forms':>9} {'statements':>10}")
    for name in sorted(rows):
        texts = rows[name]
        by_hour: dict[str, set[str]] = defaultdict(set)
        for text, hour in texts:
            by_hour[hour].add(text)
        distinct = {text for text, _ in texts}
        per_hour = sum(map(len, by_hour.values())) / max(len(by_hour), 1)
        forms = {form(text) for text in distinct}
        statements = len({form(unwrap(text)[1]) for text in distinct}) if name == "memory" else None
        print(f"{name:<22} {len(texts):>9,} {len(distinct):>9,} {per_hour:>9,.0f} {len(forms):>9,} "
              f"{'' if statements is None else f'{statements:,}':>10}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
