"""The record step of a tick: its frame (what the viewer draws), and when a snapshot is due.

The frame is the tick's last event; a snapshot of the whole state (``state.state_of``) follows
every ``recording.snapshot_every_hours`` game hours, between ticks only.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..persona import Persona
from ..world import TileMap

__all__ = ["frame", "snapshot_due"]


def frame(personas: Mapping[str, Persona], tilemap: TileMap) -> dict[str, dict[str, Any]]:
    """Per persona: position, address, action, emoji, kind, target, speech, conversation."""
    out = {}
    for pid, p in personas.items():
        a = p.action
        out[pid] = {"x": p.x, "y": p.y, "address": tilemap.address_at(p.x, p.y),
                    "action": a.description if a else "idle", "emoji": a.emoji if a else "🙂",
                    "kind": a.kind if a else "idle", "target": a.address if a else None,
                    "speech": p.speech, "conversation": p.conversation}
    return out


def snapshot_due(ticks_done: int, every_hours: float, seconds_per_tick: int) -> bool:
    """Whether a snapshot is due once ``ticks_done`` ticks have run (one every ``every_hours``)."""
    every = max(1, int(round(every_hours * 3600 / seconds_per_tick)))
    return ticks_done % every == 0
