"""The town's world: tile map, named places, object state and pathfinding.

Parts:
    address: :class:`Address` (``world:sector:arena:object``) and :func:`is_within`.
    layout: the declared map (:class:`MapSpec` and its sectors, arenas, objects) and its checks.
    tilemap: :class:`TileMap` (walls, addresses per tile) and :func:`load_tilemap` (YAML / .tmj).
    tiled: Tiled JSON maps read through pytiled-parser.
    pathfinding: :class:`Pathfinder` (networkx A*, cached).
    world: :class:`World` (closed places, object occupancy, tile choice, paths).
"""

from .address import Address, is_within
from .layout import MapSpec, Rect
from .pathfinding import Pathfinder
from .tilemap import TileMap, load_tilemap
from .world import World

__all__ = [
    "Address",
    "is_within",
    "MapSpec",
    "Rect",
    "Pathfinder",
    "TileMap",
    "load_tilemap",
    "World",
]
