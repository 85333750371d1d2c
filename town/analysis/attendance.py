"""Attendance (Park et al. 2023 §7.1.3): who was invited to a gathering and who came.

Invited = received the item through a conversation or a whisper (a provenance chain from the
probe key; the host excluded); came = on tiles of the gathering place for at least
``min_minutes`` game minutes inside its time window.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from .moments import minutes_at
from .provenance import leads_to, load_memories

__all__ = ["attendance"]


def attendance(reader, tag: str, *, place: str, start: datetime, end: datetime,
               host: str | None = None, min_minutes: float = 30.0,
               memories: dict | None = None) -> dict[str, Any]:
    """Who was invited to a gathering and who came (Park et al. 2023 §7.1.3).

    Args:
        reader: the run.
        tag: the gathering's probe name.
        place: its address (prefix), e.g. ``"smallville:Hobbs Cafe"``.
        start: the gathering's first game datetime.
        end: the game datetime it ends (exclusive).
        host: the host's persona id (never counted as invited or as a guest).
        min_minutes: game minutes at the place inside the window that count as attending.
        memories: :func:`load_memories` output, to share one load between measures.

    Returns:
        ``{"tag", "place", "start", "end", "host", "invited": [pid], "attended": [pid]
        (guests: not the host), "invited_attended": [pid], "minutes": {pid: game minutes}}``;
        invited = the first memory leading to ``tag`` that came by conversation or whisper
        was written before ``end``.
    """
    memories = load_memories(reader) if memories is None else memories
    verdict = leads_to(memories, tag)
    spt = int(reader.meta.get("seconds_per_tick", 10))
    t0 = datetime.fromisoformat(reader.meta["start"])
    end_tick = int((end - t0).total_seconds() // spt)
    invited = sorted({m.persona for key, m in memories.items()
                      if verdict[key] and m.tick < end_tick and m.persona != host
                      and (m.source is not None or (m.kind == "whisper" and not m.evidence))})
    minutes = minutes_at(reader, place, start, end)
    attended = sorted(p for p, mins in minutes.items() if mins >= min_minutes and p != host)
    return {"tag": tag, "place": place, "start": start.isoformat(sep=" "),
            "end": end.isoformat(sep=" "), "host": host, "min_minutes": min_minutes,
            "invited": invited, "attended": attended,
            "invited_attended": [p for p in attended if p in invited],
            "minutes": {p: round(v, 2) for p, v in sorted(minutes.items())}}
