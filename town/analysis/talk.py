"""How a recorded run's talk and memories read: counts of the defects a person would notice.

Each count is over the run file's events, never written to it:

- ``deep_hearsay``: memories or lines reporting hearsay more than one level deep in words
  (:func:`town.hearsay.depth` > 1);
- ``echoes``: lines sharing six or more consecutive lower-case words with the partner's line
  just before (:func:`town.perspective.shared_run`);
- ``leaks``: observations and actions sharing six such words with an earlier memory that was
  heard, whispered or seeded (a persona file's);
- ``greetings``: first lines whose part of day is wrong for the clock ("Good morning" at 18:04),
  or that claim a first meeting after a recorded talk of the pair, or "again" before any;
- ``past_goodbyes``: last lines naming a plan item ("at 08:00") earlier than their time;
- ``second_person_whispers``: whispers kept in the second person ("You want ...");
- ``lines``, ``distinct_lines`` (distinct over all lines, greetings and goodbyes included),
  ``most_said`` (how often the most repeated line is said), ``pair_day_repeats`` (lines a
  speaker says to the same listener a second time on one game day), ``reflections`` and
  ``distinct_reflections`` (distinct reflections' texts over all);
- ``event_lines`` (lines said at an event: by a speaker whose last action is at the place of a
  fact held in the run, with a start and an end, between them) and ``event_mentions`` (the share
  of those naming the event's noun, its place, its host or someone whose last action is there);
- ``heard_sightings``: heard memories whose statement is a routine sighting, with ``heard``
  (all heard memories) and ``memories_per_persona_day``: memories written (the persona files'
  included) over personas times the game days the run spans, from its first event's tick to its last
  one's, inclusive (a 12-hour run is half a day).

:func:`sample_lines` picks lines at random with a fixed seed, good and bad alike, for a person to
read (docs/evaluation.md's "what the talk looks like").

Usage: ``python -m town.analysis.talk RUN.sqlite`` prints the counts as JSON;
``python -m town.analysis.talk RUN.sqlite --sample 20 --seed 1`` prints 20 lines instead, one a
row: ``time  speaker -> listener: line``.
"""

from __future__ import annotations

import argparse
import json
import random
import re
import sqlite3
from collections import Counter
from datetime import datetime

from ..hearsay import depth
from ..perspective import lower_words
from ..scripted.talk import sighting

__all__ = ["talk_counts", "sample_lines"]

_PART = {"morning": range(5, 12), "afternoon": range(12, 17), "evening": range(17, 24)}


def _grams(text: str, n: int = 6) -> set[tuple[str, ...]]:
    w = lower_words(text)
    return {tuple(w[i:i + n]) for i in range(len(w) - n + 1)}


def _bad_greeting(line: str, at: datetime, met_before: bool) -> bool:
    m = re.search(r"\bgood (morning|afternoon|evening)\b|^(morning|evening)\b", line, re.I)
    if m and at.hour not in _PART[(m.group(1) or m.group(2)).lower()]:
        return True
    if re.search(r"\bwe(?:'ve| have)n?'?t? (?:met|never met)|don't think we've met", line, re.I) and met_before:
        return True
    return bool(re.search(r"\bagain\b|haven't talked since", line)) and not met_before


def _names(db: sqlite3.Connection) -> dict[str, str]:
    """Persona id -> name, from the run's meta ``personas`` (ids stand for names when absent)."""
    row = db.execute("select value from meta where key = 'personas'").fetchone()
    listed = json.loads(row[0]) if row else {}
    if isinstance(listed, dict):
        return {str(k): str(v.get("name", k)) if isinstance(v, dict) else str(k) for k, v in listed.items()}
    return {str(p["id"]): str(p.get("name", p["id"])) for p in listed if isinstance(p, dict)}


def talk_counts(path: str) -> dict:
    """The counts of the module docstring for the run file at ``path``."""
    db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        events = db.execute("select seq, time, kind, persona, data from events where kind in "
                            "('memory','chat','conversation','action','whisper') order by seq").fetchall()
        names = _names(db)
        first_tick, last_tick = db.execute("select min(tick), max(tick) from events").fetchone()
        spt = db.execute("select value from meta where key = 'seconds_per_tick'").fetchone()
    finally:
        db.close()
    counts: dict[str, float] = dict(deep_hearsay=0, echoes=0, leaks=0, greetings=0, past_goodbyes=0,
                  second_person_whispers=0, heard=0, heard_sightings=0)
    spoken: Counter[str] = Counter()
    said_to: Counter[tuple[str, str, str, str]] = Counter()
    reflections: list[str] = []
    happenings: dict[tuple[str, str], tuple[str, str, set[str]]] = {}  # (place, start) -> (end, noun, hosts)
    where: dict[str, str] = {}  # persona -> its last action's address
    at_event = [0, 0]  # lines said at an event, those naming it or someone there
    sources: set[tuple[str, ...]] = set()
    lines: dict[int, list[tuple[str, str, datetime]]] = {}
    met: set[frozenset] = set()
    written: dict[str, int] = {}
    seeding = True  # the memories written before the first action are the persona files'
    for _, time, kind, persona, raw in events:
        d = json.loads(raw)
        at = datetime.fromisoformat(time)
        if kind == "memory":
            written[persona] = written.get(persona, 0) + 1
            content = d["content"]
            counts["deep_hearsay"] += depth(content) > 1
            heard = d["kind"] == "chat" and " told me" in content and not content.startswith("I talked")
            if heard:
                counts["heard"] += 1
                counts["heard_sightings"] += sighting(content)
            if d["kind"] == "reflection":
                reflections.append(content)
            fact = d.get("fact") or {}
            if fact.get("place") and fact.get("start") and fact.get("end"):
                end, _, hosts = happenings.get((fact["place"], fact["start"]), ("", "", set()))
                hosts |= {h.split()[0] for h in (fact.get("host"), fact.get("subject")) if h}
                happenings[(fact["place"], fact["start"])] = (max(end, fact["end"]), fact["act"].split()[-1], hosts)
            if d["kind"] == "whisper" and re.search(r"\b(?:you|your)\b", content, re.I):
                counts["second_person_whispers"] += 1
            if heard or d["kind"] == "whisper" or (seeding and d["kind"] != "plan" and not sighting(content)):
                sources |= _grams(content)
            elif d["kind"] == "observation":
                counts["leaks"] += bool(_grams(content) & sources)
        elif kind == "action":
            seeding = False
            where[persona] = d.get("address", "")
            counts["leaks"] += bool(_grams(d.get("description", "")) & sources)
        elif kind == "chat":
            conv = lines.setdefault(d["conversation"], [])
            counts["deep_hearsay"] += depth(d["line"]) > 1
            if conv and conv[-1][0] != d["speaker"] and _grams(conv[-1][1]) & _grams(d["line"]):
                counts["echoes"] += 1
            if not conv:
                pair = frozenset((d["speaker"], d["listener"]))
                counts["greetings"] += _bad_greeting(d["line"], at, pair in met)
            conv.append((d["speaker"], d["line"], at))
            stamp = f"{at:%Y-%m-%d %H:%M:%S}"
            for (place, start), (end, noun, hosts) in happenings.items():
                if start <= stamp <= end and where.get(d["speaker"], "").startswith(place + ":"):
                    there = {names.get(p, p).split()[0] for p, a in where.items() if a.startswith(place + ":")}
                    marks = {noun, place.rsplit(":", 1)[-1], *hosts, *there}
                    at_event[0] += 1
                    at_event[1] += any(re.search(rf"\b{re.escape(w)}\b", d["line"], re.I) for w in marks if w)
                    break
            spoken[d["line"]] += 1
            said_to[(f"{at:%Y-%m-%d}", d["speaker"], d["listener"], d["line"])] += 1
        elif kind == "conversation":
            met.add(frozenset(d["participants"]))
            last = lines.get(d["conversation"], [])
            if last:
                said = re.search(r"\bat (\d\d:\d\d)\.?$", last[-1][1])
                counts["past_goodbyes"] += bool(said and said.group(1) < f"{last[-1][2]:%H:%M}")
    counts.update(event_lines=at_event[0], event_mentions=round(at_event[1] / at_event[0], 3) if at_event[0] else 1.0)
    n = sum(spoken.values())
    counts.update(lines=n, distinct_lines=round(len(spoken) / n, 3) if n else 1.0,
                  most_said=max(spoken.values(), default=0),
                  pair_day_repeats=sum(k - 1 for k in said_to.values()), reflections=len(reflections),
                  distinct_reflections=round(len(set(reflections)) / len(reflections), 3) if reflections else 1.0)
    days = (last_tick - first_tick + 1) * json.loads(spt[0] if spt else "10") / 86400 if events else 1.0
    counts["memories_per_persona_day"] = round(sum(written.values()) / (max(1, len(written)) * days), 1)
    return counts


def sample_lines(path: str, n: int = 20, seed: int = 1) -> list[tuple[str, str, str, str]]:
    """``n`` conversation lines of the run at ``path`` drawn uniformly with ``random.Random(seed)``.

    Returns:
        (game time "YYYY-MM-DD HH:MM", speaker id, listener id, line) in the run's order; all the
        lines when the run holds ``n`` or fewer.
    """
    db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        rows = db.execute("select time, data from events where kind = 'chat' order by seq").fetchall()
    finally:
        db.close()
    picked = sorted(random.Random(seed).sample(range(len(rows)), min(n, len(rows))))
    out = []
    for i in picked:
        d = json.loads(rows[i][1])
        out.append((rows[i][0][:16].replace("T", " "), d["speaker"], d["listener"], d["line"]))
    return out


if __name__ == "__main__":  # pragma: no cover - a measuring aid
    cli = argparse.ArgumentParser(prog="python -m town.analysis.talk", description=__doc__.split("\n")[0])
    cli.add_argument("run", help="a run file (.sqlite)")
    cli.add_argument("--sample", type=int, default=0, help="print this many random lines instead of the counts")
    cli.add_argument("--seed", type=int, default=1, help="the sample's seed")
    args = cli.parse_args()
    if args.sample:
        for at, speaker, listener, line in sample_lines(args.run, args.sample, args.seed):
            print(f"{at}  {speaker} -> {listener}: {line}")
    else:
        print(json.dumps(talk_counts(args.run), indent=1))
