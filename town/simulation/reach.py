"""Who could affect whom, and when: the run-ahead scheduler's rule (ARCHITECTURE.md, "Running ahead").

A persona sees another only in the same arena: anywhere in the same room, within the vision
radius (Chebyshev tiles) on open ground (``perceive.in_sight``). It talks only to one it sees, and
walks at most one tile a tick (``Persona.walk``). So each persona has a *region* at a tick: the
bounding box of its room, or its own tile on open ground; two personas can see each other only
if the Chebyshev gap between their regions is at most the radius, and a persona ``d`` ticks
behind can close that gap by at most ``d`` tiles.

A *cluster* is a set of personas at the same tick, closed under "regions within the radius"
and "in one conversation": it decides, invites and talks together, on a snapshot of its own
members (anyone a member could see is a member). A cluster at tick ``t`` may run once every
persona still behind it, at tick ``u < t``, is farther from each member's region than
``radius + (t - u)`` tiles: nothing such a persona does before reaching ``t`` can come into a
member's sight, and no member can come into its sight at the ticks it has still to run (the
gap shrinks by at most one tile a tick on each side). Personas in sight of one another are
therefore always at the same tick, and the result of every tick is the one a tick-synchronous
run gives.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

__all__ = ["gaps", "ready_clusters"]


def gaps(boxes: np.ndarray) -> np.ndarray:
    """Chebyshev gaps between regions.

    Args:
        boxes: ``(n, 4)`` integer regions ``(x0, y0, x1, y1)``, inclusive.

    Returns:
        ``(n, n)`` int64: tiles between region i and region j (0 when they touch or overlap).
    """
    x0, y0, x1, y1 = (boxes[:, k].astype(np.int64) for k in range(4))
    dx = np.maximum(0, np.maximum(x0[None, :] - x1[:, None], x0[:, None] - x1[None, :]))
    dy = np.maximum(0, np.maximum(y0[None, :] - y1[:, None], y0[:, None] - y1[None, :]))
    return np.maximum(dx, dy)


def ready_clusters(ticks: np.ndarray, running: np.ndarray, boxes: np.ndarray, partner: Sequence[int],
                   radius: int, barrier: int) -> list[tuple[int, list[int]]]:
    """The clusters that may run their tick now.

    Args:
        ticks: ``(n,)`` the tick each persona runs next (a running one: the tick it runs).
        running: ``(n,)`` bool, whether its cluster's job runs now.
        boxes: ``(n, 4)`` each persona's region at its tick (:func:`gaps`).
        partner: each persona's conversation partner's index, or -1.
        radius: the vision radius in tiles.
        barrier: no cluster runs this tick or later (everyone meets there).

    Returns:
        ``(tick, member indices ascending)`` of every cluster that may run, ordered by tick,
        then first member.
    """
    n = len(ticks)
    if n == 0:
        return []
    gap = gaps(boxes)
    out = []
    for t in sorted({int(t) for t, busy in zip(ticks, running) if not busy and t < barrier}):
        at = np.flatnonzero(ticks == t)
        near = gap[np.ix_(at, at)] <= radius
        index = {int(i): k for k, i in enumerate(at)}
        for k, i in enumerate(at):
            j = partner[int(i)]
            if j >= 0 and j in index:
                near[k, index[j]] = near[index[j], k] = True
        behind = np.flatnonzero(ticks < t)
        seen = np.zeros(len(at), dtype=bool)
        for start in range(len(at)):
            if seen[start]:
                continue
            members, todo = [], [start]
            seen[start] = True
            while todo:  # the connected component of ``start``
                k = todo.pop()
                members.append(k)
                for m in np.flatnonzero(near[k] & ~seen):
                    seen[m] = True
                    todo.append(int(m))
            cluster = np.sort(at[members])
            if running[cluster].any():
                continue
            if behind.size and not (gap[np.ix_(cluster, behind)] > radius + (t - ticks[behind])).all():
                continue
            out.append((t, [int(i) for i in cluster]))
    return out
