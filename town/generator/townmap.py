"""The map of a generated town: a grid of lots (houses, workplaces, parks) between streets.

Every lot is one cell of ``CELL_W`` x ``CELL_H`` tiles: a sector of at most 10 x 8 tiles and a
street two tiles wide around it (everything outside the sectors is street, address ``<world>``:
the yard of a small house too), so every door opens on the street grid and every place is
reachable. A house holds one household: one bed per resident (capacity 1), a kitchen with a
stove, a dining table and a sofa; it is as large as its household (a cottage of 7 x 7 tiles for
one, 8 x 8 for two or three, 10 x 8 for four), set at the front of its lot (the door on the street
below) and painted one of :data:`HOUSE_COLORS`, both picked by a hash of its name so that the
town's other random choices stay as they were. Workplaces hold objects whose capacity fits the
staff and the customers who come. Each sector has a ``kind`` (home, shop, work, school, park) that
tells the viewer how to draw it.

The output is the ``map.yaml`` mapping documented in ``docs/scenario-files.md``.
"""

from __future__ import annotations

import math
import random
import zlib
from dataclasses import dataclass, field
from typing import Any

__all__ = ["CELL_W", "CELL_H", "Lot", "WORKPLACE_KINDS", "HOUSE_COLORS", "lay_out"]

#: Tiles per lot: a 10 x 8 sector plus a street of 2 tiles between neighbouring sectors.
CELL_W, CELL_H = 12, 10
_SECTOR_W, _SECTOR_H = 10, 8

#: What each kind of workplace holds: arena -> [(object name, [dx, dy, w, h], capacity)], with
#: offsets inside the sector. ``staff`` is how many residents work there by day.
WORKPLACE_KINDS: dict[str, dict[str, Any]] = {
    "cafe": {"color": "#e8c98f", "staff": 3, "arenas": {"cafe": [
        ("counter", [1, 1, 3, 1], 3), ("coffee machine", [5, 1, 2, 1], 2),
        ("tables", [1, 3, 8, 3], 30)]}},
    "pub": {"color": "#c9a27e", "staff": 3, "arenas": {"pub": [
        ("bar", [1, 1, 5, 1], 4), ("tables", [1, 3, 8, 3], 30)]}},
    "market": {"color": "#b9d1a0", "staff": 3, "arenas": {"store": [
        ("checkout", [1, 1, 3, 1], 3), ("grocery shelves", [1, 3, 8, 3], 30)]}},
    "bookshop": {"color": "#d7c3a5", "staff": 2, "arenas": {"shop": [
        ("counter", [1, 1, 2, 1], 2), ("bookshelves", [1, 3, 8, 3], 20)]}},
    "pharmacy": {"color": "#cfe3e0", "staff": 2, "arenas": {"shop": [
        ("counter", [1, 1, 2, 1], 2), ("medicine shelves", [1, 3, 8, 3], 12)]}},
    "bakery": {"color": "#ecd9b0", "staff": 6, "arenas": {"bakehouse": [
        ("oven", [1, 1, 4, 1], 6), ("counter", [6, 1, 2, 1], 2), ("flour shelves", [1, 3, 8, 3], 6)]}},
    "office": {"color": "#c3c8d6", "staff": 24, "arenas": {"office": [
        ("desks", [1, 1, 8, 4], 32), ("meeting table", [2, 6, 4, 1], 8)]}},
    "college": {"color": "#c9b79c", "staff": 2, "arenas": {
        "classroom": [("blackboard", [1, 1, 4, 1], 2), ("student desks", [1, 2, 4, 5], 40)],
        "library": [("bookshelves", [6, 1, 3, 1], 10), ("study tables", [6, 2, 3, 5], 40)]}},
    "park": {"color": "#a8cf8e", "staff": 0, "walls": False, "arenas": {"green": [
        ("benches", [1, 1, 8, 1], 16), ("garden", [1, 3, 8, 2], 20), ("lawn", [1, 6, 8, 1], 30)]}},
}
#: How the viewer draws each kind of lot (the map's sector ``kind``).
_DRAWN_AS = {"house": "home", "cafe": "shop", "pub": "shop", "market": "shop", "bookshop": "shop",
             "pharmacy": "shop", "bakery": "shop", "office": "work", "college": "school", "park": "park"}
#: Wall colours of houses.
HOUSE_COLORS = ("#e6d5c3", "#f0d9b5", "#e8c4b8", "#d9c7a8", "#cfd8c4", "#d6cfe3", "#f2e3c6", "#c9d6df")
#: A house's (width, height) in tiles by the beds it holds.
_HOUSE_SIZES = {1: (7, 7), 2: (8, 8), 3: (8, 8), 4: (10, 8)}


@dataclass
class Lot:
    """One sector of the generated town.

    Attributes:
        kind: "house" or a key of :data:`WORKPLACE_KINDS`.
        name: the sector's name (unique in the town).
        x, y: top-left tile of the sector.
        beds: for a house, how many residents sleep there.
        places: role -> full address, filled by :func:`lay_out` (``"bed 1"``, ``"stove"``,
            ``"tables"``, ...).
    """

    kind: str
    name: str
    x: int = 0
    y: int = 0
    beds: int = 0
    places: dict[str, str] = field(default_factory=dict)


def _house(lot: Lot, world: str) -> dict[str, Any]:
    """A house as large as its household, at the front of its lot: a bedroom row with a bed per
    resident over a kitchen row (stove, dining table, sofa), the door in the middle of the front."""
    w, h = _HOUSE_SIZES[min(4, max(1, lot.beds))]
    pick = zlib.crc32(lot.name.encode("utf-8"))
    x = lot.x + pick % (_SECTOR_W - w + 1)  # somewhere along the front of the lot
    y = lot.y + _SECTOR_H - h
    bedroom_h = 2 if h == 7 else 3
    beds = [{"name": f"bed {i + 1}", "at": [x + 1 + 2 * i, y + 1]} for i in range(lot.beds)]
    for i in range(lot.beds):
        lot.places[f"bed {i + 1}"] = f"{world}:{lot.name}:bedroom:bed {i + 1}"
    row = y + 1 + bedroom_h + 1  # the kitchen's middle row: free rows above and below to walk
    sofa = 3 if w >= 8 else 2
    kitchen = [
        {"name": "stove", "at": [x + 1, row]},
        {"name": "dining table", "rect": [x + 2, row, 2, 1], "capacity": 6},
        {"name": "sofa", "rect": [x + w - 1 - sofa, row, sofa, 1], "capacity": 6},
    ]
    for obj in ("stove", "dining table", "sofa"):
        lot.places[obj] = f"{world}:{lot.name}:kitchen:{obj}"
    return {
        "name": lot.name, "rect": [x, y, w, h], "kind": "home",
        "color": HOUSE_COLORS[(pick // 16) % len(HOUSE_COLORS)],
        "doors": [[x + w // 2, y + h - 1]],
        "arenas": [
            {"name": "bedroom", "rect": [x + 1, y + 1, w - 2, bedroom_h], "objects": beds},
            {"name": "kitchen", "rect": [x + 1, y + 1 + bedroom_h, w - 2, h - 2 - bedroom_h], "objects": kitchen},
        ],
    }


def _workplace(lot: Lot, world: str) -> dict[str, Any]:
    spec = WORKPLACE_KINDS[lot.kind]
    x, y = lot.x, lot.y
    arenas = []
    for arena, objects in spec["arenas"].items():
        objs = []
        for name, (dx, dy, w, h), capacity in objects:
            objs.append({"name": name, "rect": [x + dx, y + dy, w, h], "capacity": capacity})
            lot.places[name] = f"{world}:{lot.name}:{arena}:{name}"
        xs = [dx for _, (dx, _, _, _), _ in objects]
        ws = [dx + w for _, (dx, _, w, _), _ in objects]
        ys = [dy for _, (_, dy, _, _), _ in objects]
        hs = [dy + h for _, (_, dy, _, h), _ in objects]
        arenas.append({"name": arena, "rect": [x + min(xs), y + min(ys), max(ws) - min(xs), max(hs) - min(ys)],
                       "objects": objs})
    sector: dict[str, Any] = {"name": lot.name, "rect": [x, y, _SECTOR_W, _SECTOR_H], "kind": _DRAWN_AS[lot.kind],
                              "color": spec["color"], "arenas": arenas}
    if spec.get("walls", True):
        sector["doors"] = [[x + 4, y + _SECTOR_H - 1]]
    else:
        sector["walls"] = False
    return sector


def lay_out(lots: list[Lot], world: str, rng: random.Random) -> dict[str, Any]:
    """Place the lots on a square-ish grid (shuffled by ``rng``) and build the map mapping.

    Fills each lot's ``x``, ``y`` and ``places``.

    Returns:
        The ``map.yaml`` mapping: ``{"world", "size": [w, h], "sectors": [...]}``.
    """
    order = list(lots)
    rng.shuffle(order)
    cols = max(1, math.ceil(math.sqrt(len(order))))
    rows = math.ceil(len(order) / cols)
    sectors = []
    for i, lot in enumerate(order):
        lot.x = (i % cols) * CELL_W + 1
        lot.y = (i // cols) * CELL_H + 1
        sectors.append(_house(lot, world) if lot.kind == "house" else _workplace(lot, world))
    return {"world": world, "size": [cols * CELL_W, rows * CELL_H], "sectors": sectors}
