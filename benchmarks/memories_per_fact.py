"""Memories per persona per game day, and the share repeating a statement already held.

Reads one or more run files (any town, any version with a ``memories`` table). A memory after
tick 0 repeats a held statement when its statement (the words after "X told me that",
"Did you hear?" or "I talked with X:", lower-cased, punctuation dropped) equals that of an
earlier memory of the same persona. Also counts the chat memories and their repeats, the bare
"I talked with X" summaries and the tellers added to held records (RETOLD events) instead of
copies. The figures are in docs/performance.md ("Memories per fact")::

    .venv/bin/python run.py simulate --town smallville --hours 36 --out /tmp/s36.sqlite --quiet
    .venv/bin/python benchmarks/memories_per_fact.py /tmp/s36.sqlite
"""

from __future__ import annotations

import argparse
import json
import re
import sqlite3

from town.hearsay import unwrap

_SUMMARY = re.compile(r"^I talked with [^:]+:\s*")
_NEWS = re.compile(r"^Did you hear\?\s*")
_BARE = re.compile(r"I talked with [^:]+?\.?")


def statement(text: str) -> str:
    """The statement a memory's words hold, lower-cased words joined by spaces."""
    text = _NEWS.sub("", unwrap(_SUMMARY.sub("", text))[1])
    return " ".join(re.findall(r"[a-z0-9']+", text.lower()))


def measure(path: str) -> dict[str, float]:
    """The figures of one run file."""
    db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    rows = db.execute("SELECT persona, tick, content, kind FROM memories ORDER BY seq").fetchall()
    seconds = json.loads(db.execute("SELECT value FROM meta WHERE key='seconds_per_tick'").fetchone()[0])
    (last,) = db.execute("SELECT MAX(tick) FROM frames").fetchone()
    (retold,) = db.execute("SELECT COUNT(*) FROM events WHERE kind = 'retold'").fetchone()
    days = (last + 1) * seconds / 86400
    held: dict[str, set[str]] = {}
    n = repeats = chats = chat_repeats = bare = 0
    for persona, tick, content, kind in rows:
        said = statement(content)
        known = held.setdefault(persona, set())
        if tick > 0:
            n += 1
            repeats += said in known
            chats += kind == "chat"
            chat_repeats += kind == "chat" and said in known
            bare += bool(_BARE.fullmatch(content))
        known.add(said)
    return {"personas": len(held), "game_days": days, "memories": n,
            "per_persona_day": n / max(len(held), 1) / days, "repeats": repeats,
            "repeat_share": repeats / max(n, 1), "chats": chats, "chat_repeats": chat_repeats,
            "bare_summaries": bare, "retold": retold}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("runs", nargs="+", help="run files (.sqlite)")
    for path in parser.parse_args().runs:
        m = measure(path)
        print(f"{path}: {m['personas']} personas, {m['game_days']:.2f} game days, {m['memories']} memories "
              f"after tick 0 = {m['per_persona_day']:.1f} per persona per game day; repeating a held "
              f"statement {m['repeats']} ({m['repeat_share']:.1%}); chat {m['chats']} (repeats "
              f"{m['chat_repeats']}); bare 'I talked with X' {m['bare_summaries']}; tellers added "
              f"(RETOLD) {m['retold']}")


if __name__ == "__main__":
    main()
