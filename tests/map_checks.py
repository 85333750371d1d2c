"""A brute-force reference for map tests: which walkable tiles a flood fill reaches."""

from __future__ import annotations

from collections import deque


def reachable_from(tilemap, start) -> set[tuple[int, int]]:
    """Every walkable tile joined to ``start`` by 4-neighbour moves (a plain breadth-first search)."""
    seen, todo = {start}, deque([start])
    while todo:
        x, y = todo.popleft()
        for nb in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)):
            if nb not in seen and tilemap.walkable(*nb):
                seen.add(nb)
                todo.append(nb)
    return seen
