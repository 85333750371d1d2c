"""Tiled JSON maps (``.tmj``) turned into the YAML map document, read with pytiled-parser.

Conventions (see docs/scenario-files.md): a tile layer named ``collision`` (any case) marks
walls (any non-empty tile); object layers hold rectangles (or points, one tile) whose Tiled
class is ``sector``, ``arena``, ``object`` or ``obstacle``. Layers may sit in group layers (their
offsets add up). An arena belongs to the sector containing it, an object to the arena containing
it. Properties: ``color``/``label``/``kind`` on sectors, ``color`` on obstacles, ``capacity`` on
objects. The world name is the map property ``world`` (default: the file stem).

Anything else Tiled can express but a tile grid of rectangles cannot (isometric or hexagonal
maps, ellipses, polygons, polylines, text, tile objects, rotation, infinite maps, a tile layer
without data) is refused with one line naming the file and the layer or object.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytiled_parser
from pytiled_parser import tiled_object

from ..errors import ConfigError
from ..files import read_bounded
from .layout import MAX_SIDE, Rect

__all__ = ["tiled_map_document"]

_KINDS = ("sector", "arena", "object", "obstacle")
#: Tiled object shapes that are not a tile rectangle, by the name users see in Tiled.
_SHAPES = {
    tiled_object.Ellipse: "an ellipse",
    tiled_object.Polygon: "a polygon",
    tiled_object.Polyline: "a polyline",
    tiled_object.Text: "a text object",
    tiled_object.Tile: "a tile object",
}
_FIX = "draw a rectangle aligned to the tile grid (or a point for one tile)"


def _where(layer: str, obj: Any) -> str:
    return f"layer {layer!r}, object {obj.name!r} (id {obj.id})"


def _rect(obj: Any, offset: tuple[float, float], tw: float, th: float, path: Path, layer: str) -> Rect:
    """The tile rectangle of a rectangle or point object (pixel coordinates + layer offsets)."""
    where = _where(layer, obj)
    for shape, label in _SHAPES.items():
        if isinstance(obj, shape):
            raise ConfigError(f"is {label}; {_FIX}", file=path, field=where)
    if obj.rotation:
        raise ConfigError(f"is rotated by {obj.rotation:g} degrees; {_FIX}", file=path, field=where)
    x, y = (obj.coordinates.x + offset[0]) / tw, (obj.coordinates.y + offset[1]) / th
    w, h = obj.size.width / tw, obj.size.height / th
    if isinstance(obj, tiled_object.Point) or (w == 0 and h == 0):  # a point: one tile
        return Rect(x=int(x // 1), y=int(y // 1), w=1, h=1)
    if any(v != int(v) for v in (x, y, w, h)) or w < 1 or h < 1:
        raise ConfigError(f"is not aligned to the {tw}x{th} px tile grid; {_FIX}", file=path, field=where)
    return Rect(x=int(x), y=int(y), w=int(w), h=int(h))


def _value(v: Any) -> Any:
    """A property value as YAML would give it; a Tiled ``color`` property becomes "#rrggbb"."""
    if isinstance(v, pytiled_parser.Color):
        return f"#{v.red:02x}{v.green:02x}{v.blue:02x}"
    return v if isinstance(v, str | int | float | bool) else str(v)


def _props(obj: Any) -> dict[str, Any]:
    return {k: _value(v) for k, v in obj.properties.items()}


def _raw_layers(layers: Any, path: Path, where: str = "layers") -> Iterator[dict]:
    """Every layer of the raw JSON, group layers' children included (depth first)."""
    if not isinstance(layers, list):
        raise ConfigError(f"must be a list of layers, got {layers!r}", file=path, field=where)
    for i, layer in enumerate(layers):
        if not isinstance(layer, dict):
            raise ConfigError("a layer is not a JSON object", file=path, field=f"layers[{i}]")
        _check_types(layer, ("name", "type", "class"), ("offsetx", "offsety"), path, f"layer {layer.get('name')!r}")
        yield layer
        if layer.get("type") == "group":
            yield from _raw_layers(layer.get("layers", []), path, f"layer {layer.get('name')!r}")


def _check_types(item: dict, texts: tuple[str, ...], numbers: tuple[str, ...], path: Path, where: str) -> None:
    """Refuse a field of a layer or object that pytiled-parser would crash on (or misread) for its
    type: ``texts`` must be text and ``numbers`` finite numbers, where given (``"name": null``
    was an AttributeError, ``"rotation": "x"`` a ValueError).

    Raises:
        ConfigError: naming the file, ``where`` and the field.
    """
    for key in texts:
        if key in item and not isinstance(item[key], str):
            raise ConfigError(f"{key} must be text, got {item[key]!r}", file=path, field=where)
    for key in numbers:
        value = item.get(key, 0)
        if type(value) not in (int, float) or not math.isfinite(value):
            raise ConfigError(f"{key} must be a finite number, got {value!r}", file=path, field=where)


def _check_raw(path: Path) -> None:
    """Refuse, with one line, what pytiled-parser would crash on or silently misread.

    Raises:
        ConfigError: for text that is not JSON (e.g. cut short), a document that is not a Tiled
            map, an orientation other than orthogonal, an infinite map, a width or height that
            is not a whole number of tiles from 1 to ``MAX_SIDE``, a tile width or height that is
            not a whole number of pixels >= 1, layers or objects that are not lists of JSON
            objects, a name, type or class that is not text, a position, size, offset or
            rotation that is not a finite number, a layer with only one of offsetx/offsety, or a
            tile layer without data.
    """
    try:
        raw = json.loads(read_bounded(path))
    except UnicodeDecodeError as exc:
        raise ConfigError(f"not UTF-8 text: {exc.reason}", file=path) from None
    except json.JSONDecodeError as exc:
        raise ConfigError(f"not valid JSON: {exc.msg} at line {exc.lineno}, column {exc.colno} "
                          "(is the file cut short? save it again from Tiled)", file=path) from None
    if not isinstance(raw, dict) or raw.get("type") != "map":
        raise ConfigError('not a Tiled map (its JSON has no "type": "map"); export the map as JSON '
                          "from Tiled", file=path)
    orientation = raw.get("orientation")
    if orientation != "orthogonal":
        raise ConfigError(f"{orientation!r} maps are not supported; use an orthogonal map (Map > "
                          "Map Properties > Orientation)", file=path, field="orientation")
    if raw.get("infinite"):
        raise ConfigError("infinite Tiled maps are not supported; save a fixed-size map "
                          "(Map > Map Properties > Infinite off)", file=path, field="infinite")
    for key in ("width", "height"):  # checked before the collision grid of width x height is built
        side = raw.get(key)
        if type(side) is not int or not 1 <= side <= MAX_SIDE:
            raise ConfigError(f"must be a whole number of tiles from 1 to {MAX_SIDE}, got {side!r}",
                              file=path, field=key)
    for key in ("tilewidth", "tileheight"):  # every object's pixels are divided by them
        side = raw.get(key)
        if type(side) is not int or side < 1:
            raise ConfigError(f"must be a whole number of pixels >= 1, got {side!r}", file=path, field=key)
    for layer in _raw_layers(raw.get("layers", []), path):
        if ("offsetx" in layer) != ("offsety" in layer):  # pytiled-parser needs both
            raise ConfigError("has only one of offsetx and offsety; give both", file=path,
                              field=f"layer {layer.get('name')!r}")
        if layer.get("type") == "tilelayer":
            _check_tiles(layer, raw, path)
        if layer.get("type") == "objectgroup":
            objects = layer.get("objects", [])
            if not isinstance(objects, list) or not all(isinstance(o, dict) for o in objects):
                raise ConfigError('"objects" must be a list of JSON objects', file=path,
                                  field=f"layer {layer.get('name')!r}")
            for obj in objects:
                _check_types(obj, ("name", "type", "class"), ("x", "y", "width", "height", "rotation"), path,
                             f"layer {layer.get('name')!r}, object {obj.get('name')!r} (id {obj.get('id')})")


def _check_tiles(layer: dict, raw: dict, path: Path) -> None:
    """Refuse a tile layer whose ``data`` is no grid of tiles.

    Raises:
        ConfigError: naming the file and the layer, for no data, data that is neither a list of
            tile ids nor a base64 string (``"encoding": "base64"``), or a list whose length is
            not the layer's width x height, or that holds anything but whole numbers >= 0.
    """
    where = f"layer {layer.get('name')!r}"
    data = layer.get("data")
    if data is None:
        raise ConfigError("tile layer has no data; draw on it or delete it", file=path, field=where)
    if isinstance(data, str):
        if layer.get("encoding") != "base64":
            raise ConfigError(f'"data" is text but "encoding" is {layer.get("encoding")!r}, not "base64"; '
                              "save the map again from Tiled (Tile Layer Format: CSV or Base64)",
                              file=path, field=where)
        return
    if not isinstance(data, list):
        raise ConfigError(f'"data" must be a list of tile ids, got {type(data).__name__}; save the map '
                          "again from Tiled", file=path, field=where)
    width, height = layer.get("width", raw.get("width")), layer.get("height", raw.get("height"))
    if type(width) is not int or type(height) is not int or len(data) != width * height:
        raise ConfigError(f'"data" holds {len(data)} tile ids, not width x height = {width} x {height}; '
                          "save the map again from Tiled", file=path, field=where)
    bad = next((gid for gid in data if type(gid) is not int or gid < 0), None)
    if bad is not None:
        raise ConfigError(f'"data" holds {bad!r}, not a tile id (a whole number >= 0)', file=path,
                          field=where)


def _layers(layers: list, offset: tuple[float, float] = (0.0, 0.0)) -> Iterator[tuple[Any, tuple[float, float]]]:
    """Every non-group layer with its total pixel offset (group offsets add up), depth first."""
    for layer in layers:
        at = (offset[0] + (layer.offset.x if layer.offset else 0),
              offset[1] + (layer.offset.y if layer.offset else 0))
        if isinstance(layer, pytiled_parser.LayerGroup):
            yield from _layers(layer.layers or [], at)
        else:
            yield layer, at


def tiled_map_document(path: str | Path) -> dict[str, Any]:
    """Read a Tiled JSON map into the YAML map document that :func:`parse_map` checks.

    Returns:
        ``{"world", "size", "sectors": [...], "obstacles": [...], "collision": [rows]}``.

    Raises:
        ConfigError: naming the file and the layer or object, for a file that is not a Tiled
            JSON map, a map that is not orthogonal or is infinite, a tile layer without data, an
            object that is not a grid-aligned, unrotated rectangle or point, an unknown object
            class, or an arena/object that no sector/arena contains.
    """
    path = Path(path)
    _check_raw(path)
    try:
        tmap = pytiled_parser.parse_map(path)
    except Exception as exc:  # pytiled-parser raises KeyError/ValueError/... on bad files
        raise ConfigError(f"not a readable Tiled JSON map: {exc!r}", file=path) from exc
    width, height = int(tmap.map_size.width), int(tmap.map_size.height)  # tiles (typed float by pytiled)
    tw, th = tmap.tile_size.width, tmap.tile_size.height
    found: dict[str, list[tuple[Any, Rect, str]]] = {k: [] for k in _KINDS}
    walls: set[tuple[int, int]] = set()
    for layer, offset in _layers(tmap.layers):
        if isinstance(layer, pytiled_parser.TileLayer) and layer.name.strip().lower() == "collision":
            if offset != (0, 0):
                raise ConfigError("a collision layer may not be offset; set its offset to 0, 0",
                                  file=path, field=f"layer {layer.name!r}")
            rows = layer.data or []
            if len(rows) != height or any(len(row) != width for row in rows):  # e.g. short base64
                raise ConfigError(f"its tiles do not fill the {width} x {height} map; save the map again "
                                  "from Tiled", file=path, field=f"layer {layer.name!r}")
            walls.update((x, y) for y, row in enumerate(rows) for x, gid in enumerate(row) if gid)
        elif isinstance(layer, pytiled_parser.ObjectLayer):
            for obj in layer.tiled_objects:
                kind = (obj.class_ or "").lower()
                if kind not in _KINDS:
                    raise ConfigError(f"has class {obj.class_!r}; use one of {', '.join(_KINDS)}",
                                      file=path, field=_where(layer.name, obj))
                found[kind].append((obj, _rect(obj, offset, tw, th, path, layer.name), layer.name))
    collision = ["".join("#" if (x, y) in walls else "." for x in range(width)) for y in range(height)]
    sectors = []
    for obj, rect, _ in found["sector"]:
        sectors.append(
            {
                "name": obj.name,
                "rect": rect.to_list(),
                "walls": False,
                "arenas": [],
                **{k: v for k, v in _props(obj).items() if k in ("color", "label", "kind")},
            }
        )
    arenas: list[tuple[Rect, dict]] = []
    for obj, rect, layer in found["arena"]:
        arena = {"name": obj.name, "rect": rect.to_list(), "objects": []}
        owner = next(
            (s for s in sectors if rect.within(Rect(**dict(zip("xywh", s["rect"]))))), None
        )
        if owner is None:
            raise ConfigError("this arena lies in no sector rectangle", file=path,
                              field=_where(layer, obj))
        owner["arenas"].append(arena)
        arenas.append((rect, arena))
    for obj, rect, layer in found["object"]:
        owner = next((a for r, a in arenas if rect.within(r)), None)
        if owner is None:
            raise ConfigError("this object lies in no arena rectangle", file=path,
                              field=_where(layer, obj))
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
        for obj, rect, _ in found["obstacle"]
    ]
    world = tmap.properties.get("world", path.stem) if tmap.properties else path.stem
    return {
        "world": world,
        "size": [width, height],
        "sectors": sectors,
        "obstacles": obstacles,
        "collision": collision,
    }
