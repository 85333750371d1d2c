"""Shortest walking paths on the tile grid: networkx A* over 4-neighbour moves, cached.

Each move to an orthogonal neighbour costs 1, so a path of ``n`` tiles takes ``n - 1`` moves.
The Manhattan distance is an admissible heuristic on such a grid, so A* returns a shortest path.
"""

from __future__ import annotations

from collections import OrderedDict

import networkx as nx

from ..errors import WorldError
from .tilemap import Tile, TileMap

__all__ = ["Pathfinder"]


def _manhattan(a: Tile, b: Tile) -> int:
    return abs(a[0] - b[0]) + abs(a[1] - b[1])


class Pathfinder:
    """Paths between walkable tiles of one :class:`TileMap`.

    Args:
        tilemap: the map; its walls never change, so paths are cached per ``(start, goal)``.
        cache_size: how many paths to keep (least recently used are dropped).
    """

    def __init__(self, tilemap: TileMap, *, cache_size: int = 20000):
        self._map = tilemap
        graph: nx.Graph[tuple[int, int]] = nx.Graph()
        tiles = tilemap.walkable_tiles()
        graph.add_nodes_from(tiles)
        for x, y in tiles:
            for nb in ((x + 1, y), (x, y + 1)):
                if tilemap.walkable(*nb):
                    graph.add_edge((x, y), nb)
        self._graph = graph
        self._component = {
            t: i for i, comp in enumerate(nx.connected_components(graph)) for t in comp
        }
        self._cache: OrderedDict[tuple[Tile, Tile], tuple[Tile, ...]] = OrderedDict()
        self._cache_size = cache_size
        self.hits = 0
        self.misses = 0

    def _describe(self, tile: Tile) -> str:
        return f"{list(tile)} ({self._map.address_at(*tile) or 'wall'})"

    def _check(self, tile: Tile, role: str) -> Tile:
        tile = (int(tile[0]), int(tile[1]))
        if not self._map.walkable(*tile):
            inside = 0 <= tile[0] < self._map.width and 0 <= tile[1] < self._map.height
            where = "a wall" if inside else "outside the map"
            raise WorldError(f"path {role} {list(tile)} is {where}, not a walkable tile")
        return tile

    def reachable(self, a: Tile, b: Tile) -> bool:
        """True if a path joins walkable tiles ``a`` and ``b``.

        Raises:
            WorldError: if either tile is not walkable.
        """
        return self._component[self._check(a, "start")] == self._component[self._check(b, "goal")]

    def path(self, start: Tile, goal: Tile) -> list[Tile]:
        """A shortest 4-neighbour path, both ends included (``[start]`` when they are equal).

        Returns:
            list of ``(x, y)`` tiles; consecutive tiles differ by one step.

        Raises:
            WorldError: if an end is not walkable, or no path joins them (naming both tiles and
                their addresses).
        """
        start, goal = self._check(start, "start"), self._check(goal, "goal")
        key = (start, goal)
        cached = self._cache.get(key)
        if cached is not None:
            self.hits += 1
            self._cache.move_to_end(key)
            return list(cached)
        if self._component[start] != self._component[goal]:
            raise WorldError(f"no path from {self._describe(start)} to {self._describe(goal)}")
        self.misses += 1
        found = tuple(nx.astar_path(self._graph, start, goal, heuristic=_manhattan))
        self._cache[key] = found
        if len(self._cache) > self._cache_size:
            self._cache.popitem(last=False)
        return list(found)
