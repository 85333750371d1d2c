"""What the persona panel shows, read from the run file (never from a persona object).

Only the persona's identity (its spec: static scenario data) comes from the simulation.
"""

from __future__ import annotations

from typing import Any

from town.events import EventKind
from town.recording.reader import RunReader

__all__ = ["IDENTITY_FIELDS", "spec_dict", "current", "todays_plan", "memory_rows", "persona_panel"]

#: Identity fields shown for a persona (from its scenario file).
IDENTITY_FIELDS = ("id", "name", "age", "emoji", "traits", "background", "lifestyle", "home")
#: Memory fields the panel shows.
MEMORY_FIELDS = ("id", "kind", "content", "importance", "created", "last_accessed", "tick", "seq")


def spec_dict(spec: Any) -> dict[str, Any]:
    """A persona spec's identity fields as a JSON-able dict (lists for tuples)."""
    source = spec.to_dict() if hasattr(spec, "to_dict") else {f: getattr(spec, f, None)
                                                              for f in IDENTITY_FIELDS}
    out = {}
    for field in IDENTITY_FIELDS:
        value = source.get(field)
        out[field] = list(value) if isinstance(value, tuple) else value
    return out


def current(reader: RunReader, persona: str) -> dict[str, Any] | None:
    """The persona's entry in the latest committed frame plus its tick/time, or None."""
    last = reader.last_tick
    if last is None:
        return None
    frame = reader.frame(last)
    entry = frame.get("personas", {}).get(persona)
    if entry is None:
        return None
    return {"tick": frame["tick"], "time": frame["time"], **entry}


def todays_plan(reader: RunReader, persona: str) -> dict[str, Any] | None:
    """The latest day plan of the persona, with the latest hour plan if any.

    Returns:
        ``{"date", "items": [{"start", "end", "description", "address"}], "tick",
        "hourly": {...}|None}`` or None before the first plan.
    """
    plans = reader.events(kinds=[EventKind.PLAN], persona=persona, limit=50, newest_first=True)
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


def persona_panel(reader: RunReader | None, spec: Any, *, memories: int = 12,
                  retrievals: int = 12) -> dict[str, Any]:
    """Everything the persona panel shows.

    Returns:
        ``{"identity", "now": {tick, time, x, y, address, action, emoji, speech, ...}|None,
        "plan": see :func:`todays_plan`, "memories": [...], "retrievals": [...]}``; the last
        three are empty before the run file has data.
    """
    identity = spec_dict(spec)
    pid = identity["id"]
    if reader is None:
        return {"identity": identity, "now": None, "plan": None, "memories": [], "retrievals": []}
    return {
        "identity": identity,
        "now": current(reader, pid),
        "plan": todays_plan(reader, pid),
        "memories": memory_rows(reader.memories(pid, limit=memories)),
        "retrievals": reader.retrievals(pid, limit=retrievals),
    }
