"""What the persona panel shows, read from the run file (never from a persona object).

Only the persona's identity (its spec: static scenario data) comes from the simulation (live) or
from the run's meta and town folder (replay). Every function can show the run as of a tick: the
frame of that tick, the plans and retrievals made up to it, and the memory stream as it was at
the end of it (records written by then, each with its last access as of then).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from town.events import EventKind
from town.recording.reader import RunReader

__all__ = ["IDENTITY_FIELDS", "spec_dict", "seq_after_tick", "current", "todays_plan",
           "memory_rows", "persona_panel"]

#: Identity fields shown for a persona (from its scenario file).
IDENTITY_FIELDS = ("id", "name", "age", "emoji", "traits", "background", "lifestyle", "home")
#: Memory fields the panel shows.
MEMORY_FIELDS = ("id", "kind", "content", "importance", "created", "last_accessed", "tick", "seq")


def spec_dict(spec: Any) -> dict[str, Any]:
    """A persona spec's (or identity mapping's) identity fields as a JSON-able dict."""
    if isinstance(spec, Mapping):
        source = spec
    elif hasattr(spec, "to_dict"):
        source = spec.to_dict()
    else:
        source = {f: getattr(spec, f, None) for f in IDENTITY_FIELDS}
    out = {}
    for field in IDENTITY_FIELDS:
        value = source.get(field)
        out[field] = list(value) if isinstance(value, tuple) else value
    return out


def seq_after_tick(reader: RunReader, tick: int) -> int:
    """The seq just after the last event of ``tick`` (events with a smaller seq happened by its end).

    Use it as ``as_of_seq`` to see the memory stream as it was at the end of ``tick``.
    """
    last = reader.events(until_tick=int(tick), newest_first=True, limit=1)
    return (last[0].seq if last else 0) + 1


def current(reader: RunReader, persona: str, tick: int | None = None) -> dict[str, Any] | None:
    """The persona's entry in the frame of ``tick`` (default: the latest committed), with tick/time.

    None when there is no frame yet, or the persona is not in it.

    Raises:
        RecordingError: when the run has no frame at ``tick``.
    """
    tick = reader.last_tick if tick is None else tick
    if tick is None:
        return None
    frame = reader.frame(tick)
    entry = frame.get("personas", {}).get(persona)
    if entry is None:
        return None
    return {"tick": frame["tick"], "time": frame["time"], **entry}


def todays_plan(reader: RunReader, persona: str,
                until_tick: int | None = None) -> dict[str, Any] | None:
    """The latest day plan of the persona made by ``until_tick``, with the latest hour plan.

    Returns:
        ``{"date", "level", "items": [{"start", "end", "description", "address"}], "tick",
        "hourly": {"tick", "items"}|None}`` or None before the first plan.
    """
    plans = reader.events(kinds=[EventKind.PLAN], persona=persona, until_tick=until_tick,
                          limit=50, newest_first=True)
    day = next((p for p in plans if p.data.get("level") == "day"), None)
    hour = next((p for p in plans if p.data.get("level") == "hour"), None)
    if day is None and hour is None:
        return None
    base = day or hour
    return {"date": base.data.get("date"), "level": base.data.get("level"), "tick": base.tick,
            "items": base.data.get("items", []),
            "hourly": None if hour is None or hour is base else
            {"tick": hour.tick, "items": hour.data.get("items", [])}}


def memory_rows(records: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The shown fields of memory records (as :meth:`RunReader.memories` returns them)."""
    return [{f: r.get(f) for f in MEMORY_FIELDS} for r in records]


def persona_panel(reader: RunReader | None, spec: Any, *, tick: int | None = None,
                  memories: int = 12, retrievals: int = 12) -> dict[str, Any]:
    """Everything the persona panel shows, as of the end of ``tick`` (default: now).

    Returns:
        ``{"identity", "now": {tick, time, x, y, address, action, emoji, speech, ...}|None,
        "plan": see :func:`todays_plan`, "memories": [...] newest first, "retrievals": [...]
        newest first}``; the last three are empty before the run file has data.

    Raises:
        RecordingError: when the run has no frame at ``tick``.
    """
    identity = spec_dict(spec)
    pid = identity["id"]
    if reader is None:
        return {"identity": identity, "now": None, "plan": None, "memories": [], "retrievals": []}
    as_of = None if tick is None else seq_after_tick(reader, tick)
    return {
        "identity": identity,
        "now": current(reader, pid, tick),
        "plan": todays_plan(reader, pid, tick),
        "memories": memory_rows(reader.memories(pid, limit=memories, as_of_seq=as_of)),
        "retrievals": reader.retrievals(pid, until_tick=tick, limit=retrievals),
    }
