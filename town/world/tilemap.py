"""TileMap: the town's grid of tiles, each with a collision flag and an address.

Built from a :class:`~town.world.layout.MapSpec`. A walkable tile carries the deepest address
that covers it: an object tile ``world:sector:arena:object``, other arena tiles
``world:sector:arena``, other sector tiles (doors included) ``world:sector``, and streets
``world``. Wall and obstacle tiles carry no address. Personas stand on object tiles to use them.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ..errors import ConfigError, WorldError
from .address import SEPARATOR
from .fields import Fields, read_yaml
from .layout import MapSpec, parse_map

__all__ = ["TileMap", "load_tilemap", "find_map", "MAP_FILES"]

#: The names a town folder's map file may have, one of them only.
MAP_FILES = ("map.yaml", "map.yml", "map.tmj")

Tile = tuple[int, int]


class TileMap:
    """An immutable grid of ``width`` x ``height`` tiles with addresses and walls.

    Args:
        spec: the checked layout.
        file: the map file (named in errors), if any.

    Raises:
        ConfigError: if two arenas or objects claim the same tile, or an object sits on a wall.
    """

    def __init__(self, spec: MapSpec, *, file: str | Path | None = None):
        self.spec = spec
        self.file = None if file is None else str(file)
        self.world = spec.world
        self.width = spec.width
        self.height = spec.height
        self._walls = self._build_walls(spec)
        self._address: dict[Tile, str] = {}
        self._capacity: dict[str, int] = {}
        self._order: list[str] = []
        self._assign(spec, Fields(file))
        self._addresses = tuple(self._order)
        self._places = tuple(a for a in self._order if a.count(SEPARATOR) in (1, 2))
        self._objects_under: dict[str, list[str]] = {}
        for obj in self._order:
            parts = obj.split(SEPARATOR)
            if len(parts) == 4:
                for depth in range(1, 4):
                    self._objects_under.setdefault(SEPARATOR.join(parts[:depth]), []).append(obj)
        for objs in self._objects_under.values():
            objs.sort()
        self._tiles: dict[str, list[Tile]] = {}
        for (x, y), address in sorted(self._address.items(), key=lambda kv: (kv[0][1], kv[0][0])):
            parts = address.split(SEPARATOR)
            for depth in range(1, len(parts) + 1):
                self._tiles.setdefault(SEPARATOR.join(parts[:depth]), []).append((x, y))

    @staticmethod
    def _build_walls(spec: MapSpec) -> set[Tile]:
        walls: set[Tile] = set()
        doors: set[Tile] = set()
        for s in spec.sectors:
            if s.walls:
                walls.update(s.rect.outline())
                doors.update(s.doors)
            for a in s.arenas:
                if a.walls:
                    walls.update(a.rect.outline())
                    doors.update(a.doors)
        walls -= doors
        for o in spec.obstacles:
            walls.update(o.rect.cells())
        for y, row in enumerate(spec.collision or ()):
            walls.update((x, y) for x, ch in enumerate(row) if ch == "#")
        return walls

    def _assign(self, spec: MapSpec, f: Fields) -> None:
        for x in range(self.width):
            for y in range(self.height):
                if (x, y) not in self._walls:
                    self._address[(x, y)] = spec.world
        for i, s in enumerate(spec.sectors):
            sector = f"{spec.world}{SEPARATOR}{s.name}"
            self._order.append(sector)
            self._paint(s.rect.cells(), sector, None)
            for j, a in enumerate(s.arenas):
                arena = f"{sector}{SEPARATOR}{a.name}"
                self._order.append(arena)
                self._paint(a.rect.cells(), arena, (f, f"sectors[{i}].arenas[{j}].rect", sector))
                for k, o in enumerate(a.objects):
                    obj = f"{arena}{SEPARATOR}{o.name}"
                    field = f"sectors[{i}].arenas[{j}].objects[{k}]"
                    blocked = [c for c in o.rect.cells() if c in self._walls]
                    if blocked:
                        raise f.error(
                            field, f"object {o.name!r} sits on wall tile {list(blocked[0])}"
                        )
                    self._order.append(obj)
                    self._capacity[obj] = o.capacity
                    self._paint(o.rect.cells(), obj, (f, field, arena))

    def _paint(
        self, cells: list[Tile], address: str, check: tuple[Fields, str, str] | None
    ) -> None:
        for c in cells:
            if c in self._walls:
                continue
            if check is not None and self._address[c] != check[2]:
                f, field, _ = check
                raise f.error(
                    field, f"tile {list(c)} of {address!r} is already {self._address[c]!r}"
                )
            self._address[c] = address

    def walkable(self, x: int, y: int) -> bool:
        """True if tile ``(x, y)`` is inside the map and not a wall or obstacle."""
        return 0 <= x < self.width and 0 <= y < self.height and (x, y) not in self._walls

    def address_at(self, x: int, y: int) -> str | None:
        """The deepest address of a walkable tile; None for walls, obstacles and outside the map."""
        return self._address.get((x, y))

    def tiles(self, address: str) -> list[Tile]:
        """Walkable tiles whose address is ``address`` or lies under it, row by row.

        Prefixes match whole parts; an unknown address gives ``[]``.
        """
        return list(self._tiles.get(address, ()))

    def has_address(self, address: str) -> bool:
        """True if ``address`` is the world or a sector, arena or object of this map."""
        return address in self._tiles or address == self.world

    def addresses(self) -> tuple[str, ...]:
        """All sector, arena and object addresses, in the map file's order."""
        return self._addresses

    def places(self) -> tuple[str, ...]:
        """The sector and arena addresses, in the map file's order (no objects)."""
        return self._places

    def objects_under(self, address: str) -> tuple[str, ...]:
        """Object addresses under ``address`` (the world, a sector or an arena), sorted.

        Looked up in an index built with the map, so a town's size does not slow it; ``()``
        for an object, an unknown address, or a place without objects.
        """
        return tuple(self._objects_under.get(address, ()))

    def is_object(self, address: str | None) -> bool:
        """True if ``address`` names a game object (None, a tile without address, never does)."""
        return address in self._capacity

    def capacity(self, address: str) -> int:
        """How many personas can use the object at once.

        Raises:
            WorldError: if ``address`` is not an object of this map.
        """
        if address not in self._capacity:
            raise WorldError(f"{address!r} is not an object of map {self.world!r}")
        return self._capacity[address]

    def walkable_tiles(self) -> list[Tile]:
        """Every walkable tile, row by row."""
        return list(self._tiles.get(self.world, ()))

    def collision_rows(self) -> list[str]:
        """The grid as ``height`` strings of ``width`` chars: ``#`` blocked, ``.`` walkable."""
        return [
            "".join("#" if (x, y) in self._walls else "." for x in range(self.width))
            for y in range(self.height)
        ]

    def to_dict(self) -> dict[str, Any]:
        """JSON-able layout for the viewer.

        Returns:
            ``{"world", "width", "height", "collision": [row strings], "sectors": [{name,
            address, label, kind, color, rect, walls, doors}], "arenas": [{name, address, sector,
            rect, walls, doors}], "objects": [{name, address, arena, rect, capacity}],
            "obstacles": [{name, rect, color}]}``; rects are ``[x, y, w, h]`` in tiles.
        """
        w = self.world
        sectors: list[dict[str, Any]] = []
        arenas: list[dict[str, Any]] = []
        objects: list[dict[str, Any]] = []
        for s in self.spec.sectors:
            sa = f"{w}:{s.name}"
            sectors.append(
                {
                    "name": s.name,
                    "address": sa,
                    "label": s.label,
                    "kind": s.kind,
                    "color": s.color,
                    "rect": s.rect.to_list(),
                    "walls": s.walls,
                    "doors": [list(d) for d in s.doors],
                }
            )
            for a in s.arenas:
                aa = f"{sa}:{a.name}"
                arenas.append(
                    {
                        "name": a.name,
                        "address": aa,
                        "sector": sa,
                        "rect": a.rect.to_list(),
                        "walls": a.walls,
                        "doors": [list(d) for d in a.doors],
                    }
                )
                objects.extend(
                    {
                        "name": o.name,
                        "address": f"{aa}:{o.name}",
                        "arena": aa,
                        "rect": o.rect.to_list(),
                        "capacity": o.capacity,
                    }
                    for o in a.objects
                )
        return {
            "world": w,
            "width": self.width,
            "height": self.height,
            "collision": self.collision_rows(),
            "sectors": sectors,
            "arenas": arenas,
            "objects": objects,
            "obstacles": [
                {"name": o.name, "rect": o.rect.to_list(), "color": o.color}
                for o in self.spec.obstacles
            ],
        }

    @classmethod
    def from_dict(cls, data: Any, *, file: str | Path | None = None) -> TileMap:
        """Build from a parsed YAML map document (see docs/scenario-files.md).

        Raises:
            ConfigError: naming the file and the field at fault.
        """
        return cls(parse_map(data, Fields(file)), file=file)


def find_map(folder: str | Path) -> Path:
    """The map file of a town folder: its one ``map.yaml``, ``map.yml`` or ``map.tmj``.

    Returns:
        The file's path (``map.yaml`` when there is none, so that loading it says it is missing).

    Raises:
        ConfigError: naming the folder and the files when there is more than one.
    """
    folder = Path(folder)
    found = [folder / name for name in MAP_FILES if (folder / name).is_file()]
    if len(found) > 1:
        raise ConfigError(f"holds {' and '.join(p.name for p in found)}: a town has one map file; "
                          "remove or rename the others", file=folder)
    return found[0] if found else folder / "map.yaml"


def load_tilemap(path: str | Path) -> TileMap:
    """Load a map file: YAML (``.yaml``/``.yml``) or Tiled JSON (``.tmj``/``.json``).

    Raises:
        ConfigError: for a missing, unreadable or invalid file, naming it and the field.
    """
    path = Path(path)
    if not path.is_file():
        raise ConfigError("map file not found", file=path)
    if path.suffix in (".tmj", ".json"):
        from .tiled import tiled_map_document

        return TileMap.from_dict(tiled_map_document(path), file=path)
    return TileMap.from_dict(read_yaml(path), file=path)
