"""Perception: what a persona sees of the others this tick (Park et al. 2023 §4, "perceive").

A persona sees the awake personas of its own arena: the whole room (an arena is one room or one
open area), but nobody through the walls between rooms. Outside any arena (a street, a sector's
open ground) it sees those on the same kind of ground within the vision radius (tiles). Like
the paper's code, perception stays within the persona's arena. A change in what someone is
doing becomes an observation memory; walking is seen but not remembered. :func:`in_sight` is
the one rule: a faster search for candidates (e.g. a spatial index by arena and by tile) must
still pass each candidate through it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from ..persona import Persona
from .act import doing_sentence
from .context import MindContext, observing, remember_many

__all__ = ["Appearance", "SightIndex", "look", "perceive", "arena_of", "in_sight", "awake"]


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


def look(p: Persona, snapshot: Mapping[str, Appearance], radius: int, *,
         index: SightIndex | None = None) -> tuple[list[Appearance], list[dict]]:
    """What ``p`` sees this tick, without remembering it yet (a pure function of the snapshot).

    Args:
        p: the persona looking (its ``observed`` says what it already noted of each other).
        snapshot: persona id -> :class:`Appearance` at the start of the tick.
        radius: the vision radius in tiles.
        index: the tick's :class:`SightIndex` of ``snapshot`` (without it, everyone is checked).

    Returns:
        (awake personas in sight, nearest first by (distance in tiles, id); the observation
        memories a change in what they do makes: keyword arguments of ``remember``).
    """
    me = snapshot[p.id]
    if p.asleep or not awake(me):
        return [], []
    seen, new = [], []
    for other in (snapshot.values() if index is None else index.near(me)):
        if other.id == p.id or not awake(other) or not in_sight(me, other, radius):
            continue
        dist = max(abs(other.x - me.x), abs(other.y - me.y))
        seen.append((dist, other.id, other))
        if other.kind in ("walk", "talk") or p.observed.get(other.id) == other.action:
            continue
        new.append(dict(kind="observation", subject=other.id,
                        content=doing_sentence(other.name, other.action, other.address)))
    return [v for _, _, v in sorted(seen)], new


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
    seen, new = looked if looked is not None else look(p, snapshot, ctx.config.perception.vision_radius,
                                                       index=index)
    views = {v.id: v for v in seen}
    for item in new:
        p.note_seen(item["subject"], views[item["subject"]].action)
    if observing(ctx):  # the observation ablation perceives nothing into memory
        remember_many(p, ctx, new)  # a tick's observations are rated together
    return seen
