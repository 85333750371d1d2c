"""The tick's snapshot: how every persona appears at the tick's start, and what each one sees.

Every decision of a tick is made on this one snapshot (Park et al. 2023 §4), never on what
another persona's decision changed: where each persona stands and what it is doing
(:class:`~town.mind.perceive.Appearance`), and each persona's look at the others
(``perceive.look``: who is in sight, what changed since it last noted them). The rest of what a
decision reads is fixed for the tick too: the clock, the world's closed places (they change only
at a tick's start, on the timeline), and the town library, read as at the tick's start
(``ProcedureLibrary.reads_as_of_now``); a persona's own mind is its own.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass
from datetime import datetime

from ..mind import Appearance
from ..mind.perceive import SightIndex, arena_of, look
from ..mind.plan import is_sleep
from ..persona import Persona
from ..world import TileMap

__all__ = ["Snapshot", "appearances", "take"]

#: A persona's look at the others: (awake personas in sight, nearest first; observations to write).
Look = tuple[list[Appearance], list[dict]]


@dataclass(frozen=True)
class Snapshot:
    """The tick as its decisions see it.

    Attributes:
        tick: the tick.
        now: its game time.
        appearances: persona id -> how it appears at the tick's start.
        looks: persona id -> its look at the others (the personas with a mind).
    """

    tick: int
    now: datetime
    appearances: Mapping[str, Appearance]
    looks: Mapping[str, Look]


def appearances(personas: Mapping[str, Persona], tilemap: TileMap, now: datetime) -> dict[str, Appearance]:
    """Each persona's place and action as at the start of the tick."""
    out = {}
    minute = now.hour * 60 + now.minute
    for pid, p in personas.items():
        a = p.action
        address = tilemap.address_at(p.x, p.y) or ""
        if a is None:  # not decided yet (the first tick): what the routine says
            routine = p.spec.routine_at(minute).activity
            action, kind = routine, "sleep" if is_sleep(routine) else "idle"
        else:
            action, kind = a.description, a.kind
        out[pid] = Appearance(id=pid, name=p.name, x=p.x, y=p.y, arena=arena_of(address), action=action,
                              kind=kind, address=a.address if a else address, conversation=p.conversation)
    return out


def take(personas: Mapping[str, Persona], minds: Collection[str], tilemap: TileMap, tick: int, now: datetime,
         radius: int) -> Snapshot:
    """The snapshot of tick ``tick``.

    Args:
        personas: persona id -> persona, in persona order.
        minds: the ids of those who decide (the players look at nobody).
        tilemap: the town's map.
        tick: the tick.
        now: its game time.
        radius: the vision radius in tiles.
    """
    seen = appearances(personas, tilemap, now)
    sight = SightIndex(seen, radius)
    return Snapshot(tick=tick, now=now, appearances=seen,
                    looks={pid: look(personas[pid], seen, radius, index=sight) for pid in minds})
