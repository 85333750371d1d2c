"""Who could affect whom, and when: the run-ahead scheduler's rule (ARCHITECTURE.md, "Running ahead").

A persona sees another only in the same arena: anywhere in the same room (a three-part
arena), within the vision radius (Chebyshev tiles) on open ground (``perceive.in_sight``). It
talks only to one it sees, and walks one tile a tick to a 4-neighbour (``Persona.walk``,
``Pathfinder``). So at one tick the personas who could affect each other are exactly those in
sight of each other, and those in one conversation: a *cluster* decides, invites and talks
together, on a snapshot of its own members.

Across ticks the rule is conservative. A persona ``d`` ticks behind can come into sight of a
member in a room only by walking into that room: at least its walking distance to the room
(:class:`Reach`, a breadth-first search around the walls). Of a member on open ground, only by
coming within the radius: at least its Chebyshev distance minus the radius. A cluster at tick
``t`` may run once each persona behind it, at tick ``u < t``, needs more than ``t - u`` steps
to come into any member's sight. Then nothing it does before reaching ``t`` can be seen by a
member at ``t``, and no member at ``t`` could have been seen by it at the ticks it has still
to run (sight is mutual, and the check is made at every tick a member runs). Personas in sight
of one another are therefore always at the same tick, and every tick's result is the one a
tick-synchronous run gives.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from ..world import TileMap

__all__ = ["Reach", "ready_clusters"]

#: Walking distances are counted up to this many steps (farther counts as this far).
HORIZON = 512


class Reach:
    """Walking distances to rooms, worked out once per room on first use.

    Args:
        tilemap: the town's map.
    """

    def __init__(self, tilemap: TileMap):
        self._tilemap = tilemap
        self._walkable = np.zeros((tilemap.width + 2, tilemap.height + 2), dtype=bool)  # a blocked border
        for x, y in tilemap.walkable_tiles():
            self._walkable[x + 1, y + 1] = True
        self._fields: dict[str, np.ndarray] = {}

    def to_room(self, arena: str) -> np.ndarray:
        """``(width, height)`` int32: the fewest 4-neighbour steps from each tile into room
        ``arena`` (0 inside it; :data:`HORIZON` for farther or unreachable)."""
        field = self._fields.get(arena)
        if field is None:
            field = np.full(self._walkable.shape, HORIZON, dtype=np.int32)
            reached = np.zeros(self._walkable.shape, dtype=bool)
            for x, y in self._tilemap.tiles(arena):
                reached[x + 1, y + 1] = True
            field[reached] = 0
            frontier = reached.copy()
            for step in range(1, HORIZON):
                grown = np.zeros_like(frontier)
                grown[1:, :] |= frontier[:-1, :]
                grown[:-1, :] |= frontier[1:, :]
                grown[:, 1:] |= frontier[:, :-1]
                grown[:, :-1] |= frontier[:, 1:]
                frontier = grown & self._walkable & ~reached
                if not frontier.any():
                    break
                reached |= frontier
                field[frontier] = step
            field = field[1:-1, 1:-1]
            self._fields[arena] = field
        return field


def ready_clusters(ticks: np.ndarray, running: np.ndarray, where: np.ndarray, arenas: Sequence[str],
                   partner: Sequence[int], radius: int, barrier: int, reach: Reach) -> list[tuple[int, list[int]]]:
    """The clusters that may run their tick now.

    Args:
        ticks: ``(n,)`` the tick each persona runs next (a running one: the tick it runs).
        running: ``(n,)`` bool, whether its cluster's job runs now.
        where: ``(n, 2)`` its tile at the start of that tick.
        arenas: its arena there ("" off the map; a room has three parts, ``perceive.arena_of``).
        partner: its conversation partner's index, or -1.
        radius: the vision radius in tiles.
        barrier: no cluster runs this tick or later (everyone meets there).
        reach: walking distances to rooms.

    Returns:
        ``(tick, member indices ascending)`` of every cluster that may run, ordered by tick,
        then first member.
    """
    if len(ticks) == 0:
        return []
    rooms = np.array([a.count(":") >= 2 for a in arenas], dtype=bool)
    out = []
    for t in sorted({int(t) for t, busy in zip(ticks, running) if not busy and t < barrier}):
        at = [int(i) for i in np.flatnonzero(ticks == t)]
        behind = np.flatnonzero(ticks < t)
        slack = t - ticks[behind]
        group = {i: i for i in at}  # union-find over those in sight of each other, or talking

        def root(i: int) -> int:
            while group[i] != i:
                group[i] = group[group[i]]
                i = group[i]
            return i

        for k, i in enumerate(at):
            for j in at[k + 1:]:
                if sees(i, j, where, arenas, rooms, radius) or partner[i] == j:
                    group[root(i)] = root(j)
        clusters: dict[int, list[int]] = {}
        for i in at:
            clusters.setdefault(root(i), []).append(i)
        for cluster in sorted(clusters.values()):
            if running[cluster].any():
                continue
            if behind.size and not all((steps(i, behind, where, arenas, rooms, radius, reach) > slack).all()
                                       for i in cluster):
                continue
            out.append((t, cluster))
    return out


def sees(i: int, j: int, where: np.ndarray, arenas: Sequence[str], rooms: np.ndarray, radius: int) -> bool:
    """Whether personas ``i`` and ``j`` could be in sight of each other where they stand (same
    arena; a room whole, open ground within ``radius``)."""
    if not arenas[i] or arenas[i] != arenas[j]:
        return False
    return bool(rooms[i]) or int(np.abs(where[i] - where[j]).max()) <= radius


def steps(i: int, others: np.ndarray, where: np.ndarray, arenas: Sequence[str], rooms: np.ndarray, radius: int,
          reach: Reach) -> np.ndarray:
    """The fewest steps each of ``others`` must walk to come into ``i``'s sight where ``i`` stands."""
    if rooms[i]:
        field = reach.to_room(arenas[i])
        return field[where[others, 0], where[others, 1]]
    return np.maximum(0, np.abs(where[others] - where[i]).max(axis=1) - radius)
