"""The map's declared layout: sectors, arenas, objects and obstacles, parsed and checked.

This is the YAML map format documented in ``docs/scenario-files.md`` (Tiled maps are turned into
the same form by :mod:`town.world.tiled`). Geometry is in tiles: ``rect: [x, y, w, h]`` with
``(x, y)`` the top-left tile, x to the right, y down.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from .fields import Fields

__all__ = ["Rect", "ObjectSpec", "ArenaSpec", "SectorSpec", "ObstacleSpec", "MapSpec", "parse_map"]

#: Largest map side in tiles (pathfinding and the viewer stay fast well below this).
MAX_SIDE = 1000

_COLOR = re.compile(r"^#[0-9a-fA-F]{6}$")
DEFAULT_SECTOR_COLOR = "#d8cfc0"
#: What a sector is, for the viewer's drawing only ("" draws it plainly): a home, a shop (cafes,
#: pubs and other places people buy things), a workplace, a school or a park.
SECTOR_KINDS = ("", "home", "shop", "work", "school", "park")


@dataclass(frozen=True, kw_only=True)
class Rect:
    """A rectangle of tiles: top-left ``(x, y)``, ``w`` by ``h`` tiles (all ints, w, h >= 1)."""

    x: int
    y: int
    w: int
    h: int

    def contains(self, x: int, y: int) -> bool:
        """True if tile ``(x, y)`` lies inside (outline included)."""
        return self.x <= x < self.x + self.w and self.y <= y < self.y + self.h

    def within(self, other: Rect) -> bool:
        """True if every tile of this rectangle lies inside ``other``."""
        return (
            other.x <= self.x
            and other.y <= self.y
            and self.x + self.w <= other.x + other.w
            and self.y + self.h <= other.y + other.h
        )

    def overlaps(self, other: Rect) -> bool:
        """True if the two rectangles share a tile."""
        return (
            self.x < other.x + other.w
            and other.x < self.x + self.w
            and self.y < other.y + other.h
            and other.y < self.y + self.h
        )

    def on_outline(self, x: int, y: int) -> bool:
        """True if ``(x, y)`` is a tile of this rectangle's one-tile border."""
        return self.contains(x, y) and (
            x in (self.x, self.x + self.w - 1) or y in (self.y, self.y + self.h - 1)
        )

    def cells(self) -> list[tuple[int, int]]:
        """All tiles, row by row."""
        return [
            (x, y) for y in range(self.y, self.y + self.h) for x in range(self.x, self.x + self.w)
        ]

    def outline(self) -> list[tuple[int, int]]:
        """The border tiles, row by row."""
        return [c for c in self.cells() if self.on_outline(*c)]

    def to_list(self) -> list[int]:
        """``[x, y, w, h]``."""
        return [self.x, self.y, self.w, self.h]


@dataclass(frozen=True, kw_only=True)
class ObjectSpec:
    """A game object: tiles personas stand on to use it; ``capacity`` users at once (>= 1)."""

    name: str
    rect: Rect
    capacity: int = 1


@dataclass(frozen=True, kw_only=True)
class ArenaSpec:
    """A room; with ``walls`` its outline blocks movement except at ``doors``."""

    name: str
    rect: Rect
    walls: bool
    doors: tuple[tuple[int, int], ...]
    objects: tuple[ObjectSpec, ...]


@dataclass(frozen=True, kw_only=True)
class SectorSpec:
    """A building or outdoor area; with ``walls`` its outline blocks movement except at doors."""

    name: str
    rect: Rect
    color: str
    label: str
    walls: bool
    doors: tuple[tuple[int, int], ...]
    arenas: tuple[ArenaSpec, ...]
    kind: str = ""


@dataclass(frozen=True, kw_only=True)
class ObstacleSpec:
    """A blocked area with no address (a pond, a hedge)."""

    name: str
    rect: Rect
    color: str


@dataclass(frozen=True, kw_only=True)
class MapSpec:
    """A whole map as declared: ``width`` x ``height`` tiles, sectors, obstacles, extra walls.

    ``collision`` (optional) holds ``height`` rows of ``width`` characters, ``#`` for a wall tile
    (added to the walls drawn by sector and arena outlines).
    """

    world: str
    width: int
    height: int
    sectors: tuple[SectorSpec, ...]
    obstacles: tuple[ObstacleSpec, ...]
    collision: tuple[str, ...] | None


def _rect(f: Fields, value: Any, field: str) -> Rect:
    x, y, w, h = f.ints(value, 4, field, what="[x, y, w, h] in tiles")
    if w < 1 or h < 1:
        raise f.error(field, f"width and height must be >= 1, got {value!r}")
    return Rect(x=x, y=y, w=w, h=h)


def _object_rect(f: Fields, data: dict, field: str) -> Rect:
    if ("at" in data) == ("rect" in data):
        raise f.error(field, "give exactly one of 'at: [x, y]' or 'rect: [x, y, w, h]'")
    if "at" in data:
        x, y = f.ints(data["at"], 2, f"{field}.at", what="[x, y] in tiles")
        return Rect(x=x, y=y, w=1, h=1)
    return _rect(f, data["rect"], f"{field}.rect")


def _doors(
    f: Fields, data: dict, field: str, rect: Rect, walls: bool
) -> tuple[tuple[int, int], ...]:
    doors = f.get(data, "doors", list, field, default=[])
    if doors and not walls:
        raise f.error(f"{field}.doors", "a place without walls has no doors (set 'walls: true')")
    out = []
    for i, d in enumerate(doors):
        x, y = f.ints(d, 2, f"{field}.doors[{i}]", what="[x, y] in tiles")
        if not rect.on_outline(x, y):
            raise f.error(
                f"{field}.doors[{i}]",
                f"door {[x, y]} is not on the outline of rect {rect.to_list()}",
            )
        out.append((x, y))
    return tuple(out)


def _unique(f: Fields, names: list[str], field: str, what: str) -> None:
    seen: set[str] = set()
    for i, name in enumerate(names):
        if name in seen:
            raise f.error(f"{field}[{i}].name", f"duplicate {what} name {name!r}")
        seen.add(name)


def _check_name(f: Fields, data: dict, field: str) -> str:
    name = f.get(data, "name", str, field)
    if ":" in name:
        raise f.error(f"{field}.name", f"a name may not contain ':', got {name!r}")
    return name.strip()


def _object(f: Fields, data: Any, field: str, arena: Rect) -> ObjectSpec:
    f.mapping(data, field, ("name", "at", "rect", "capacity"))
    name = _check_name(f, data, field)
    rect = _object_rect(f, data, field)
    if not rect.within(arena):
        raise f.error(
            field, f"object {name!r} at {rect.to_list()} lies outside its arena {arena.to_list()}"
        )
    capacity = f.get(data, "capacity", int, field, default=1)
    if capacity < 1:
        raise f.error(f"{field}.capacity", f"must be >= 1, got {capacity}")
    return ObjectSpec(name=name, rect=rect, capacity=capacity)


def _arena(f: Fields, data: Any, field: str, sector: Rect) -> ArenaSpec:
    f.mapping(data, field, ("name", "rect", "walls", "doors", "objects"))
    name = _check_name(f, data, field)
    rect = _rect(f, f.get(data, "rect", list, field), f"{field}.rect")
    if not rect.within(sector):
        raise f.error(
            f"{field}.rect",
            f"arena {name!r} {rect.to_list()} lies outside its sector {sector.to_list()}",
        )
    walls = f.get(data, "walls", bool, field, default=False)
    doors = _doors(f, data, field, rect, walls)
    raw = f.get(data, "objects", list, field, default=[])
    objects = tuple(_object(f, o, f"{field}.objects[{i}]", rect) for i, o in enumerate(raw))
    _unique(f, [o.name for o in objects], f"{field}.objects", "object")
    return ArenaSpec(name=name, rect=rect, walls=walls, doors=doors, objects=objects)


def _color(f: Fields, data: dict, field: str, default: str) -> str:
    color = f.get(data, "color", str, field, default=default)
    if not _COLOR.match(color):
        raise f.error(f"{field}.color", f"must be '#rrggbb', got {color!r}")
    return color


def _sector(f: Fields, data: Any, field: str, size: Rect) -> SectorSpec:
    f.mapping(data, field, ("name", "rect", "color", "label", "kind", "walls", "doors", "arenas"))
    name = _check_name(f, data, field)
    kind = f.get(data, "kind", str, field, default="")
    if kind not in SECTOR_KINDS:
        raise f.error(f"{field}.kind", f"must be one of {', '.join(k for k in SECTOR_KINDS if k)}, got {kind!r}")
    rect = _rect(f, f.get(data, "rect", list, field), f"{field}.rect")
    if not rect.within(size):
        raise f.error(
            f"{field}.rect",
            f"sector {name!r} {rect.to_list()} lies outside the map {size.to_list()}",
        )
    walls = f.get(data, "walls", bool, field, default=True)
    doors = _doors(f, data, field, rect, walls)
    raw = f.get(data, "arenas", list, field, default=[])
    arenas = tuple(_arena(f, a, f"{field}.arenas[{i}]", rect) for i, a in enumerate(raw))
    _unique(f, [a.name for a in arenas], f"{field}.arenas", "arena")
    return SectorSpec(
        name=name,
        rect=rect,
        color=_color(f, data, field, DEFAULT_SECTOR_COLOR),
        label=f.get(data, "label", str, field, default=name),
        walls=walls,
        doors=doors,
        arenas=arenas,
        kind=kind,
    )


def _collision(f: Fields, data: dict, width: int, height: int) -> tuple[str, ...] | None:
    rows = f.get(data, "collision", list, default=None)
    if rows is None:
        return None
    if len(rows) != height:
        raise f.error("collision", f"must have {height} rows (the map's height), got {len(rows)}")
    for i, row in enumerate(rows):
        if not isinstance(row, str) or len(row) != width or set(row) - {"#", "."}:
            raise f.error(f"collision[{i}]", f"must be {width} characters of '#' (wall) or '.'")
    return tuple(rows)


def parse_map(data: Any, f: Fields) -> MapSpec:
    """Check a parsed map document and return its :class:`MapSpec`.

    Args:
        data: the YAML document (a mapping; see docs/scenario-files.md).
        f: the field reader of the map file.

    Raises:
        ConfigError: naming the file and the dotted field (e.g. ``sectors[2].arenas[0].rect``).
    """
    f.mapping(data, "", ("world", "size", "sectors", "obstacles", "collision"))
    world = f.get(data, "world", str)
    if ":" in world:
        raise f.error("world", f"may not contain ':', got {world!r}")
    width, height = f.ints(f.get(data, "size", list), 2, "size", what="[width, height] in tiles")
    if width < 1 or height < 1:
        raise f.error("size", f"must be positive, got {[width, height]}")
    if width > MAX_SIDE or height > MAX_SIDE:
        raise f.error("size", f"at most {MAX_SIDE} x {MAX_SIDE} tiles, got {[width, height]}")
    size = Rect(x=0, y=0, w=width, h=height)
    raw = f.get(data, "sectors", list)
    sectors = tuple(_sector(f, s, f"sectors[{i}]", size) for i, s in enumerate(raw))
    _unique(f, [s.name for s in sectors], "sectors", "sector")
    for i, a in enumerate(sectors):
        for b in sectors[:i]:
            if a.rect.overlaps(b.rect):
                raise f.error(f"sectors[{i}].rect", f"sector {a.name!r} overlaps sector {b.name!r}")
    obstacles = []
    for i, o in enumerate(f.get(data, "obstacles", list, default=[])):
        field = f"obstacles[{i}]"
        f.mapping(o, field, ("name", "rect", "color"))
        rect = _rect(f, f.get(o, "rect", list, field), f"{field}.rect")
        if not rect.within(size):
            raise f.error(f"{field}.rect", f"{rect.to_list()} lies outside the map")
        obstacles.append(
            ObstacleSpec(
                name=_check_name(f, o, field), rect=rect, color=_color(f, o, field, "#7a9cc6")
            )
        )
    return MapSpec(
        world=world.strip(),
        width=width,
        height=height,
        sectors=sectors,
        obstacles=tuple(obstacles),
        collision=_collision(f, data, width, height),
    )
