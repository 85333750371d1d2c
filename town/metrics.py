"""Measures over a recorded run (Park et al. 2023 §7): information diffusion, attendance.

All functions read a :class:`town.recording.RunReader` only; nothing needs the simulation.
"""

from __future__ import annotations

from datetime import datetime

from .events import EventKind

__all__ = ["minutes_at", "heard_via_conversation", "plans_including"]


def minutes_at(reader, place: str, start: datetime, end: datetime) -> dict[str, float]:
    """Game minutes each persona spent on tiles of ``place`` (address prefix) in [start, end).

    Counted from the recorded frames: each frame is one tick of ``seconds_per_tick`` seconds.

    Returns:
        persona id -> game minutes (0.0 for personas never there).
    """
    spt = int(reader.meta.get("seconds_per_tick", 10))
    t0 = datetime.fromisoformat(reader.meta["start"])
    first = max(0, int((start - t0).total_seconds() // spt))
    last = int((end - t0).total_seconds() // spt) - 1
    out = {pid: 0.0 for pid in reader.personas()}
    if last < first:
        return out
    prefix = place if place.endswith(":") else place + ":"
    for frame in reader.frames(first, last):
        for pid, st in frame["personas"].items():
            address = st.get("address") or ""
            if address == place or address.startswith(prefix):
                out[pid] = out.get(pid, 0.0) + spt / 60
    return out


def heard_via_conversation(reader, tag: str) -> dict[str, list[dict]]:
    """Memories tagged ``tag`` that reached each persona through a conversation.

    Returns:
        persona id -> list of {"memory", "seq", "tick", "conversation", "source", "content"}
        for chat memories carrying the tag and a provenance source.
    """
    out: dict[str, list[dict]] = {}
    for e in reader.events(kinds=[EventKind.MEMORY]):
        d = e.data
        if d.get("kind") == "chat" and tag in (d.get("tags") or ()) and d.get("source"):
            out.setdefault(e.persona, []).append({
                "memory": d["id"], "seq": e.seq, "tick": e.tick, "conversation": d.get("conversation"),
                "source": d["source"], "content": d["content"]})
    return out


def plans_including(reader, persona: str, date: str, text: str) -> bool:
    """True if a day plan of ``persona`` for ``date`` (ISO) has a block mentioning ``text``."""
    for e in reader.events(kinds=[EventKind.PLAN], persona=persona):
        if e.data.get("level") == "day" and e.data.get("date") == date:
            if any(text.lower() in (b.get("description") or "").lower() or text.lower() in (b.get("place") or "").lower()
                   for b in e.data["items"]):
                return True
    return False
