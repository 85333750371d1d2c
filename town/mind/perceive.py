"""Perception: what a persona sees of the others this tick (Park et al. 2023 §4, "perceive").

A persona sees the awake personas of its own arena: the whole room (an arena is one room or one
open area), but nobody through the walls between rooms. Outside any arena (a street, a sector's
open ground) it sees those on the same kind of ground within the vision radius (tiles). Like
the paper's code, perception stays within the persona's arena. :func:`in_sight` is the one
rule: a faster search for candidates (e.g. a spatial index by arena and by tile) must still pass
each candidate through it.

As in Park et al. 2023's code, a persona attends to the nearest few it sees
(``perception.attention``, their ``att_bandwidth`` of 3; :func:`attended`), and a change in
what one of them is doing, or where, becomes an observation memory unless the same observation
(the same person, action and place) is among the persona's recent ones: those written in the
last ``perception.retention_hours`` game hours (:func:`retained`). Their code keeps an event only
when it is not among the persona's ``retention`` (5) latest; a window in game time does the same
in a crowd, where a room of 40 people cycling through their routines' steps passes far more than
5 observations between two repeats. Walking and talking are seen but not remembered, nor is
someone between two acts (``idle``: a talk just ended and nothing is chosen yet, where the
snapshot can show only its routine's words, not what it does): an observation says what the
person does. Everyone in sight may still be talked to.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta

from ..config import PerceptionConfig
from ..memory import MemoryKind
from ..memory.times import format_time
from ..persona import Persona
from .act import doing_sentence
from .context import MindContext, observing, remember_later

__all__ = ["Appearance", "SightIndex", "look", "perceive", "arena_of", "in_sight", "awake", "sighting", "attended",
           "retained"]


@dataclass(frozen=True, kw_only=True)
class Appearance:
    """What others can see of a persona at the start of a tick (the shared snapshot).

    ``arena`` is :func:`arena_of` the tile it stands on; ``address`` is where its action is
    (the target of a walk); ``kind`` is the action's kind ("sleep" before the first action when
    the routine says so).
    """

    id: str
    name: str
    x: int
    y: int
    arena: str
    action: str
    kind: str
    address: str
    conversation: int | None


def arena_of(address: str) -> str:
    """The arena part of a tile's address: "w:Cafe:cafe:counter" -> "w:Cafe:cafe".

    Shorter addresses (a sector's open ground, the street) are their own arena; "" is off the map.
    """
    return ":".join(address.split(":")[:3])


def awake(view: Appearance) -> bool:
    """Whether the snapshot shows ``view``'s persona awake (not sleeping, nor due to by routine)."""
    return view.kind != "sleep"


def in_sight(me: Appearance, other: Appearance, radius: int) -> bool:
    """Whether ``other`` is within sight of ``me``.

    In an arena: anywhere in the same arena. Outside any arena: the same ground (the street, or
    one sector's open ground) within ``radius`` tiles.

    Args:
        me: the looking persona's view of this tick's snapshot.
        other: the other persona's view.
        radius: the vision radius in tiles (Chebyshev distance, ``perception.vision_radius``).
    """
    if not me.arena or me.arena != other.arena:
        return False
    return me.arena.count(":") >= 2 or max(abs(other.x - me.x), abs(other.y - me.y)) <= radius


class SightIndex:
    """The awake personas of a snapshot, bucketed so that finding who is in sight costs O(nearby).

    Rooms (three-part arenas) are one bucket each; open ground (the street, a sector's open
    area) is cut into squares of ``radius`` tiles per arena, and a persona there looks in the
    3 x 3 squares around its own. Every candidate still passes :func:`in_sight`, so the result is
    the same as scanning everyone (Park et al. 2023's perception, without its quadratic cost).

    Args:
        snapshot: persona id -> :class:`Appearance` at the start of the tick.
        radius: the vision radius in tiles (``perception.vision_radius``).
    """

    def __init__(self, snapshot: Mapping[str, Appearance], radius: int):
        self.radius = max(1, int(radius))
        self._buckets: dict[tuple, list[Appearance]] = {}
        for view in snapshot.values():
            if view.arena and awake(view):
                self._buckets.setdefault(self._key(view, view.x, view.y), []).append(view)

    def _key(self, view: Appearance, x: int, y: int) -> tuple:
        if view.arena.count(":") >= 2:
            return (view.arena,)
        return (view.arena, x // self.radius, y // self.radius)

    def near(self, me: Appearance) -> list[Appearance]:
        """Awake personas that may be in sight of ``me`` (a superset; :func:`in_sight` decides)."""
        if not me.arena:
            return []
        if me.arena.count(":") >= 2:
            return self._buckets.get((me.arena,), [])
        cx, cy = me.x // self.radius, me.y // self.radius
        return [v for dx in (-1, 0, 1) for dy in (-1, 0, 1)
                for v in self._buckets.get((me.arena, cx + dx, cy + dy), ())]


#: Kinds of action seen but not remembered (nothing done at a place to tell of).
UNREMEMBERED = ("walk", "talk", "idle")


def sighting(view: Appearance) -> str:
    """What a persona notes of another to tell a change: the action and where it is done.

    The value of ``Persona.observed``: "read a book @ w:Ann's home:ann room:armchair".
    """
    return f"{view.action} @ {view.address}"


def retained(p: Persona, now: datetime, hours: float) -> set[str]:
    """The persona's recent observations: the contents of those written in the last ``hours``,
    in its stream or still unrated (``Persona.unrated``: their contents are known).

    Args:
        p: the persona.
        now: the game time of the tick.
        hours: the retention window in game hours (``perception.retention_hours``; 0: none).

    Returns:
        Their contents (an observation's content names the person, the action and the place).
    """
    if hours <= 0:
        return set()
    start = now - timedelta(hours=hours)
    unrated = {m["content"] for m in p.unrated
               if m["kind"] == MemoryKind.OBSERVATION.value and m["at"] >= format_time(start)}
    return unrated | {r.content for r in p.stream.since(start) if r.kind is MemoryKind.OBSERVATION}


def attended(seen: list[Appearance], attention: int) -> list[Appearance]:
    """The ones among ``seen`` (nearest first) a persona attends to: the nearest ``attention``
    (0: all). Park et al. 2023's code perceives only its ``att_bandwidth`` (3) nearest events."""
    return seen[:attention] if attention > 0 else seen


def look(p: Persona, snapshot: Mapping[str, Appearance], perception: PerceptionConfig, *, now: datetime,
         index: SightIndex | None = None) -> tuple[list[Appearance], list[dict]]:
    """What ``p`` sees this tick, without remembering it yet (a pure function of the snapshot
    and the persona's memory).

    Args:
        p: the persona looking (its ``observed`` says what it already noted of each other).
        snapshot: persona id -> :class:`Appearance` at the start of the tick.
        perception: the vision radius (tiles), how many of the nearest it attends to
            (:func:`attended`) and the retention window (:func:`retained`).
        now: the game time of the tick.
        index: the tick's :class:`SightIndex` of ``snapshot`` (without it, everyone is checked).

    Returns:
        (awake personas in sight, nearest first by (distance in tiles, id); the observation
        memories a change in what the attended ones do, or where, makes: keyword arguments of
        ``remember``).
    """
    me = snapshot[p.id]
    if p.asleep or not awake(me):
        return [], []
    near = []
    for other in (snapshot.values() if index is None else index.near(me)):
        if other.id == p.id or not awake(other) or not in_sight(me, other, perception.vision_radius):
            continue
        near.append((max(abs(other.x - me.x), abs(other.y - me.y)), other.id, other))
    seen = [v for _, _, v in sorted(near)]
    new: list[dict] = []
    recent: set[str] | None = None
    for other in attended(seen, perception.attention):
        if other.kind in UNREMEMBERED or p.observed.get(other.id) == sighting(other):
            continue
        content = doing_sentence(other.name, other.action, other.address)
        if recent is None:
            recent = retained(p, now, perception.retention_hours)
        if content not in recent:
            new.append(dict(kind="observation", subject=other.id, content=content))
    return seen, new


def perceive(p: Persona, ctx: MindContext, snapshot: Mapping[str, Appearance], *,
             index: SightIndex | None = None, looked: tuple[list[Appearance], list[dict]] | None = None) -> list[Appearance]:
    """Observe the others visible to ``p``; remember changes; return them nearest first.

    A persona asleep, or whose routine says it sleeps before its first action, sees nobody.

    Args:
        p: the persona perceiving.
        ctx: the mind's context.
        snapshot: persona id -> :class:`Appearance` at the start of the tick.
        index: the tick's :class:`SightIndex` of ``snapshot``.
        looked: :func:`look` already done for ``p`` this tick (the simulation looks for everyone
            first, to embed the tick's new observations in one batch).

    Returns:
        Awake personas (not ``p``) :func:`in_sight` of ``p``, sorted by (distance in tiles, id).
    """
    perception = ctx.config.perception
    seen, new = looked if looked is not None else look(p, snapshot, perception, now=ctx.now, index=index)
    for view in attended(seen, perception.attention):
        if view.kind not in UNREMEMBERED:
            p.note_seen(view.id, sighting(view))
    if observing(ctx):  # the observation ablation perceives nothing into memory
        remember_later(p, ctx, new)  # a tick's observations are rated together, or later
    return seen
