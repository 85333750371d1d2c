"""What the events benchmark measures, read from a run file only (``benchmarks/events.py``).

Per event (a whispered memory carrying the event's ``probe`` key, which is measurement-only):

- **host planned**: a day plan of the host for the event's date has a block at the event's place
  (the address or under it) overlapping at least half of the event; **for it** when that block's
  ``evidence`` holds a memory leading back to the whisper (not there by routine);
- **host attended**: the host spent at least half of the event on tiles of the place;
- **heard by**: personas other than the host holding a memory whose provenance leads back to the
  whispered memory (``town.analysis.provenance.knowledge``: ``source`` chains, plan evidence);
- **planned by**: personas other than the host with such a block whose ``evidence`` holds one of
  those memories (planned for this event, not there by routine);
- **attended by**: of those, the ones 30 game minutes or more at the place in the event's window
  (``town.analysis.attendance``);
- **declined**: personas whose day plan decided not to go (``events[i].go`` false, with its
  ``reason``) on evidence leading back to the event.

And per run (:func:`memory_stats`): memories per persona per game day, and the share of new
memories that repeat one the persona already holds. A memory's fact is its ``fact`` field when
the run file has one; else its statement: the words inside the teller wrappers ("X told me that
S" -> S, ``town.hearsay.unwrap``) without a talk summary's "I talked with X: " lead, lower-cased,
spaces collapsed, end punctuation dropped.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from datetime import datetime
from typing import Any

from town.analysis.attendance import attendance
from town.analysis.moments import minutes_at, start_seq
from town.analysis.provenance import knowledge, leads_to, load_memories
from town.events import EventKind

__all__ = ["Gathering", "at", "day_plans", "measure_event", "aggregate", "fact_key", "memory_stats"]

_TALKED = re.compile(r"^I talked with [^:]+: ")  # a talk summary's lead (measurement only)


class Gathering(dict):
    """One event of a set: ``name`` (the probe key), ``kind``, ``host``, ``place``, ``start``,
    ``end`` (datetimes), ``phrasing`` and ``set``; a dict so it writes to JSON as it is."""

    @property
    def minutes(self) -> float:
        """The event's length in game minutes."""
        return (self["end"] - self["start"]).total_seconds() / 60


def day_plans(reader) -> dict[str, list[dict]]:
    """Every day PLAN event's data by persona, in seq order (a plan remade later comes later)."""
    out: dict[str, list[dict]] = {}
    for e in reader.events(kinds=[EventKind.PLAN]):
        if e.data.get("level") == "day" and e.persona is not None:
            out.setdefault(e.persona, []).append(e.data)
    return out


def _overlap_minutes(item: dict, start: datetime, end: datetime) -> float:
    a, b = max(start, datetime.fromisoformat(item["start"])), min(end, datetime.fromisoformat(item["end"]))
    return max(0.0, (b - a).total_seconds() / 60)


def _at_place(address: str, place: str) -> bool:
    return address == place or address.startswith(place + ":")


def _blocks(plans: list[dict], ev: Gathering) -> list[dict]:
    """The blocks of plans for the event's date at its place covering at least half of it."""
    date = ev["start"].date().isoformat()
    return [item for plan in plans if plan.get("date") == date for item in plan.get("items", ())
            if _at_place(item.get("place") or "", ev["place"])
            and _overlap_minutes(item, ev["start"], ev["end"]) >= ev.minutes / 2]


def measure_event(reader, ev: Gathering, *, memories: dict | None = None,
                  plans: dict[str, list[dict]] | None = None) -> dict[str, Any]:
    """The measures of one event in a run (module docstring).

    Args:
        reader: a ``town.recording.RunReader``.
        ev: the event; ``ev["name"]`` is the probe key its whisper carried.
        memories: ``load_memories(reader)``, shared between the events of one run.
        plans: :func:`day_plans` of the run, shared likewise.

    Returns:
        ``{"name", "kind", "phrasing", "set", "host", "host_planned": bool, "host_planned_for_it": bool,
        "host_attended": bool,
        "host_minutes", "heard_by": [pid], "planned_by": [pid], "attended_by": [pid],
        "there_anyway": [pid] (30+ minutes there without planning it), "declined": {pid: reason}}``.
    """
    memories = load_memories(reader) if memories is None else memories
    plans = day_plans(reader) if plans is None else plans
    tag, host = ev["name"], ev["host"]
    verdict = leads_to(memories, tag)
    heard = sorted(p for p in knowledge(reader, tag, memories=memories) if p != host)
    planned, declined = [], {}
    for pid, mine in sorted(plans.items()):
        if pid == host:
            continue
        if any(verdict.get((pid, int(i))) for b in _blocks(mine, ev) for i in b.get("evidence") or ()):
            planned.append(pid)
        for choice in (c for plan in mine for c in plan.get("events") or ()):
            if not choice.get("go") and any(verdict.get((pid, int(i))) for i in choice.get("evidence") or ()):
                declined[pid] = choice.get("reason") or ""
    came = attendance(reader, tag, place=ev["place"], start=ev["start"], end=ev["end"], host=host,
                      memories=memories)["attended"]
    host_minutes = minutes_at(reader, ev["place"], ev["start"], ev["end"]).get(host, 0.0)
    hosts = _blocks(plans.get(host, []), ev)
    return {"name": tag, "kind": ev["kind"], "phrasing": ev["phrasing"], "set": ev["set"], "host": host,
            "host_planned": bool(hosts),
            "host_planned_for_it": any(verdict.get((host, int(i))) for b in hosts for i in b.get("evidence") or ()),
            "host_attended": host_minutes >= ev.minutes / 2, "host_minutes": round(host_minutes, 1),
            "heard_by": heard, "planned_by": planned, "attended_by": [p for p in came if p in planned],
            "there_anyway": [p for p in came if p not in planned],
            "declined": {p: r for p, r in declined.items() if p not in planned}}


def aggregate(rows: list[dict]) -> dict[str, Any]:
    """One table row over measured events: counts of events, and shares or means over them.

    Returns:
        ``{"events": n, "host_planned", "host_planned_for_it", "host_attended", "heard3", "came1"}``
        (shares 0-1 of the events: host planned, and for it, host there half the event, heard by 3
        or more, at least one who planned it and came) and ``{"heard", "planned", "attended",
        "declined"}`` (mean personas per event); all 0 for no rows.
    """
    n = len(rows)

    def share(test) -> float:
        return sum(1 for r in rows if test(r)) / n if n else 0.0

    def mean(key: str) -> float:
        return sum(len(r[key]) for r in rows) / n if n else 0.0

    return {"events": n, "host_planned": share(lambda r: r["host_planned"]),
            "host_planned_for_it": share(lambda r: r.get("host_planned_for_it", False)),
            "host_attended": share(lambda r: r["host_attended"]),
            "heard3": share(lambda r: len(r["heard_by"]) >= 3), "came1": share(lambda r: bool(r["attended_by"])),
            "heard": mean("heard_by"), "planned": mean("planned_by"), "attended": mean("attended_by"),
            "declined": mean("declined")}


def fact_key(data: dict) -> str:
    """What counts as one fact of a MEMORY event's data (module docstring): its ``fact`` field as
    canonical JSON when present, else its normalised statement."""
    if data.get("fact"):
        return json.dumps(data["fact"], sort_keys=True)
    from town.hearsay import unwrap
    statement = _TALKED.sub("", unwrap(data["content"])[1])
    statement = unwrap(statement)[1]
    return re.sub(r"\s+", " ", statement).strip().rstrip(".!?").lower()


def memory_stats(reader) -> dict[str, Any]:
    """Memories per persona per game day and the share of new ones repeating a held fact.

    "New" memories are those written after the start (seq above the start snapshot's); a new
    memory repeats when its :func:`fact_key` equals one its owner held before (seeded or new).

    Returns:
        ``{"personas", "game_hours", "new", "per_persona_day", "repeats", "repeat_share",
        "by_kind": {kind: {"new", "repeats", "repeat_share"}}}``.
    """
    spt = int(reader.meta.get("seconds_per_tick", 10))
    personas = set(reader.personas())
    first, last = reader.first_tick or 0, reader.last_tick or 0
    hours = (last - first + 1) * spt / 3600 if reader.last_tick is not None else 0.0
    seed_until = start_seq(reader)
    held: dict[str, set[str]] = {}
    new: Counter[str] = Counter()
    repeats: Counter[str] = Counter()
    for e in reader.events(kinds=[EventKind.MEMORY]):
        pid = e.data.get("persona", e.persona)
        if pid not in personas:
            continue
        key, mine = fact_key(e.data), held.setdefault(pid, set())
        if e.seq > seed_until:
            new[e.data["kind"]] += 1
            repeats[e.data["kind"]] += key in mine
        mine.add(key)
    total, again = sum(new.values()), sum(repeats.values())
    days = hours / 24
    return {"personas": len(personas), "game_hours": round(hours, 2), "new": total,
            "per_persona_day": round(total / len(personas) / days, 1) if personas and days else 0.0,
            "repeats": again, "repeat_share": round(again / total, 3) if total else 0.0,
            "by_kind": {k: {"new": v, "repeats": repeats[k], "repeat_share": round(repeats[k] / v, 3)}
                        for k, v in sorted(new.items())}}


def at(text: str) -> datetime:
    """"YYYY-MM-DD HH:MM" -> datetime (ValueError names the text)."""
    try:
        return datetime.fromisoformat(str(text))
    except ValueError:
        raise ValueError(f"not a game time 'YYYY-MM-DD HH:MM': {text!r}") from None

