"""Tiled JSON maps (``.tmj``) turned into the YAML map document, read with pytiled-parser.

Conventions (see docs/scenario-files.md): a tile layer named ``collision`` marks walls (any
non-empty tile); object layers hold rectangles whose Tiled class is ``sector``, ``arena``,
``object`` or ``obstacle``. An arena belongs to the sector containing it, an object to the arena
containing it. Properties: ``color``/``label`` on sectors and obstacles, ``capacity`` on objects.
The world name is the map property ``world`` (default: the file stem).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytiled_parser

from ..errors import ConfigError
from .layout import Rect

__all__ = ["tiled_map_document"]

_KINDS = ("sector", "arena", "object", "obstacle")


def _rect(obj: Any, tw: int, th: int, path: Path) -> Rect:
    x, y = obj.coordinates.x / tw, obj.coordinates.y / th
    w, h = obj.size.width / tw, obj.size.height / th
    if w == 0 and h == 0:  # a point: one tile
        return Rect(x=int(x), y=int(y), w=1, h=1)
    if any(v != int(v) for v in (x, y, w, h)) or w < 1 or h < 1:
        raise ConfigError(
            f"rectangle {obj.name!r} is not aligned to the {tw}x{th} px tile grid",
            file=path,
            field=f"objects[id={obj.id}]",
        )
    return Rect(x=int(x), y=int(y), w=int(w), h=int(h))


def _props(obj: Any) -> dict[str, Any]:
    return {
        k: (v if isinstance(v, str | int | float | bool) else str(v))
        for k, v in obj.properties.items()
    }


def tiled_map_document(path: str | Path) -> dict[str, Any]:
    """Read a Tiled JSON map into the YAML map document that :func:`parse_map` checks.

    Returns:
        ``{"world", "size", "sectors": [...], "obstacles": [...], "collision": [rows]}``.

    Raises:
        ConfigError: for a file Tiled-parser cannot read, an infinite map, an unknown object
            class, or an arena/object that no sector/arena contains.
    """
    path = Path(path)
    try:
        tmap = pytiled_parser.parse_map(path)
    except Exception as exc:  # pytiled-parser raises KeyError/ValueError/... on bad files
        raise ConfigError(f"not a readable Tiled JSON map: {exc!r}", file=path) from exc
    if tmap.infinite:
        raise ConfigError("infinite Tiled maps are not supported; save a fixed-size map", file=path)
    width, height = tmap.map_size.width, tmap.map_size.height
    tw, th = tmap.tile_size.width, tmap.tile_size.height
    found: dict[str, list[tuple[Any, Rect]]] = {k: [] for k in _KINDS}
    collision = ["." * width] * height
    for layer in tmap.layers:
        if isinstance(layer, pytiled_parser.TileLayer) and layer.name == "collision":
            collision = ["".join("#" if gid else "." for gid in row) for row in layer.data]
        elif isinstance(layer, pytiled_parser.ObjectLayer):
            for obj in layer.tiled_objects:
                kind = (obj.class_ or "").lower()
                if kind not in _KINDS:
                    raise ConfigError(
                        f"object {obj.name!r} has class {obj.class_!r}; use one of "
                        f"{', '.join(_KINDS)}",
                        file=path,
                        field=f"objects[id={obj.id}]",
                    )
                found[kind].append((obj, _rect(obj, tw, th, path)))
    sectors = []
    for obj, rect in found["sector"]:
        sectors.append(
            {
                "name": obj.name,
                "rect": rect.to_list(),
                "walls": False,
                "arenas": [],
                **{k: v for k, v in _props(obj).items() if k in ("color", "label")},
            }
        )
    arenas: list[tuple[Rect, dict]] = []
    for obj, rect in found["arena"]:
        arena = {"name": obj.name, "rect": rect.to_list(), "objects": []}
        owner = next(
            (s for s in sectors if rect.within(Rect(**dict(zip("xywh", s["rect"]))))), None
        )
        if owner is None:
            raise ConfigError(
                f"arena {obj.name!r} lies in no sector", file=path, field=f"objects[id={obj.id}]"
            )
        owner["arenas"].append(arena)
        arenas.append((rect, arena))
    for obj, rect in found["object"]:
        owner = next((a for r, a in arenas if rect.within(r)), None)
        if owner is None:
            raise ConfigError(
                f"object {obj.name!r} lies in no arena", file=path, field=f"objects[id={obj.id}]"
            )
        item = {"name": obj.name, "rect": rect.to_list()}
        if "capacity" in obj.properties:
            item["capacity"] = obj.properties["capacity"]
        owner["objects"].append(item)
    obstacles = [
        {
            "name": obj.name,
            "rect": rect.to_list(),
            **{k: v for k, v in _props(obj).items() if k == "color"},
        }
        for obj, rect in found["obstacle"]
    ]
    world = tmap.properties.get("world", path.stem) if tmap.properties else path.stem
    return {
        "world": world,
        "size": [width, height],
        "sectors": sectors,
        "obstacles": obstacles,
        "collision": collision,
    }
