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
        self._boxes: dict[str, tuple[int, int, int, int]] = {}

    def box(self, arena: str) -> tuple[int, int, int, int]:
        """``(x0, y0, x1, y1)``: the bounding box of room ``arena``'s tiles, inclusive."""
        found = self._boxes.get(arena)
        if found is None:
            tiles = np.array(list(self._tilemap.tiles(arena))).reshape(-1, 2)
            found = self._boxes[arena] = ((*tiles.min(axis=0).tolist(), *tiles.max(axis=0).tolist())
                                          if len(tiles) else (HORIZON * 4,) * 2 + (-HORIZON * 4,) * 2)
        return found

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

    Array work per distinct tick: sight within each arena's group at once (a room whole, open
    ground by a pairwise Chebyshev matrix), and the walk of everyone behind against every member
    (one field lookup per room), so a town of 1,000 costs milliseconds per call.

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
    ticks, running, where = np.asarray(ticks), np.asarray(running, dtype=bool), np.asarray(where)
    if len(ticks) == 0:
        return []
    rooms = np.array([a.count(":") >= 2 for a in arenas], dtype=bool)
    out: list[tuple[int, list[int]]] = []
    for t in sorted({int(t) for t in ticks[~running & (ticks < barrier)]}):
        at = np.flatnonzero(ticks == t)
        label = _clusters(at, where, arenas, rooms, partner, radius)
        blocked = running[at] | ~_out_of_reach(t, at, ticks, where, arenas, rooms, radius, reach)
        bad = set(label[blocked].tolist())
        members: dict[int, list[int]] = {}
        for first, i in zip(label.tolist(), at.tolist()):
            if first not in bad:
                members.setdefault(first, []).append(i)
        out.extend((t, members[first]) for first in sorted(members))
    return out


def _clusters(at: np.ndarray, where: np.ndarray, arenas: Sequence[str], rooms: np.ndarray,
              partner: Sequence[int], radius: int) -> np.ndarray:
    """``(len(at),)`` each persona's cluster, named by its smallest member: the components of
    "in sight of each other (the same arena; a room whole, open ground within ``radius``) or in
    one conversation" among ``at`` (ascending indices at one tick)."""
    label = at.copy()
    groups: dict[str, list[int]] = {}
    for k, i in enumerate(at.tolist()):
        if arenas[i]:
            groups.setdefault(arenas[i], []).append(k)
    for arena, ks in groups.items():
        pos = np.array(ks)
        if rooms[at[pos[0]]]:
            label[pos] = label[pos].min()
            continue
        tiles = where[at[pos]]
        near = np.abs(tiles[:, None, :] - tiles[None, :, :]).max(axis=2) <= radius
        lab = label[pos]
        while True:  # each takes the smallest label in sight until none changes
            grown = np.where(near, lab[None, :], lab.max() + 1).min(axis=1)
            if (grown == lab).all():
                break
            lab = grown
        label[pos] = lab
    index = {i: k for k, i in enumerate(at.tolist())}
    root = {int(x): int(x) for x in label}

    def find(x: int) -> int:
        while root[x] != x:
            root[x] = root[root[x]]
            x = root[x]
        return x

    for k, i in enumerate(at.tolist()):
        if partner[i] >= 0 and partner[i] in index:
            a, b = find(int(label[k])), find(int(label[index[partner[i]]]))
            root[max(a, b)] = min(a, b)
    return np.array([find(int(x)) for x in label], dtype=at.dtype)


def _out_of_reach(t: int, at: np.ndarray, ticks: np.ndarray, where: np.ndarray, arenas: Sequence[str],
                  rooms: np.ndarray, radius: int, reach: Reach) -> np.ndarray:
    """``(len(at),)`` bool: whether every persona behind tick ``t`` needs more steps than it has
    ticks to run to come into sight of each of ``at`` (into its room; within ``radius`` of it on
    open ground)."""
    behind = np.flatnonzero(ticks < t)
    ok = np.ones(len(at), dtype=bool)
    if behind.size == 0:
        return ok
    slack = t - ticks[behind]
    bx, by = where[behind, 0], where[behind, 1]
    is_room = rooms[at]
    names = sorted({arenas[i] for i in at[is_room].tolist()})
    if names:
        # a walk into a room is at least the Manhattan distance to its bounding box: only the
        # pairs that bound does not rule out are looked up in the room's walking distances
        box = np.array([reach.box(a) for a in names])  # (rooms, 4): x0, y0, x1, y1
        dx = np.maximum(0, np.maximum(box[:, :1] - bx[None, :], bx[None, :] - box[:, 2:3]))
        dy = np.maximum(0, np.maximum(box[:, 1:2] - by[None, :], by[None, :] - box[:, 3:]))
        near = np.minimum(dx + dy, HORIZON) <= slack[None, :]  # (rooms, behind)
        fine = {a: not row.any() or bool((reach.to_room(a)[bx[row], by[row]] > slack[row]).all())
                for a, row in zip(names, near)}
        ok[is_room] = [fine[arenas[i]] for i in at[is_room].tolist()]
    open_ = np.flatnonzero(~is_room)
    if open_.size:
        gap = np.abs(where[at[open_]][:, None, :] - where[behind][None, :, :]).max(axis=2) - radius
        ok[open_] = (np.maximum(0, gap) > slack[None, :]).all(axis=1)
    return ok
