"""Generated towns: ``town generate --personas N --seed S --out personas/<name>``.

:func:`generate_town` writes an ordinary town folder (``docs/scenario-files.md``): a YAML map of
houses, workplaces, colleges, shops, cafes, pubs and parks between streets
(:mod:`town.generator.townmap`), one persona file per resident with a routine that fits its role
(:mod:`town.generator.residents`), relationships (households, co-workers, friends), two pieces of
news told in plain text in one resident's memories, and their evaluation probes. The same ``N``
and seed always give the same files; no model is needed.
"""

from __future__ import annotations

import random
import re
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import yaml

from ..errors import ConfigError
from .residents import Resident, describe, make_residents, routine_for
from .townmap import Lot, lay_out

__all__ = ["generate_town", "START", "MAX_RESIDENTS"]

#: Game start of every generated town (a Monday).
START = datetime(2023, 2, 13, 7, 0)

#: The most residents a generated town may have. Each household gets a house lot and every lot
#: a 12 x 10 tile cell on a square grid, which must fit the map's 1000 x 1000 tiles (83 x 83
#: cells): with a house for every resident (no household shared) and the workplaces, parks and
#: colleges of 5,000 residents that is about 5,500 lots, so any seed fits.
MAX_RESIDENTS = 5000


def _nearest(home: Lot, lots: list[Lot]) -> Lot:
    return min(lots, key=lambda lot: (abs(lot.x - home.x) + abs(lot.y - home.y), lot.name))


def _dump(path: Path, data: Any, header: str) -> None:
    text = yaml.safe_dump(data, sort_keys=False, allow_unicode=True, width=120, default_flow_style=None)
    path.write_text(f"# {header} (schema: docs/scenario-files.md)\n{text}", encoding="utf-8")


def _news(people: list[Resident], lots: list[Lot], world: str, rng: random.Random) -> tuple[dict, list[dict]]:
    """Two pieces of news in plain text, each seeded in one resident's memory, with their probes.

    Returns:
        (persona id -> seeded memories to add, the probes).
    """
    day = START + timedelta(days=1)
    pubs = sorted((lot for lot in lots if lot.kind == "pub"), key=lambda lot: lot.name)
    parks = sorted((lot for lot in lots if lot.kind == "park"), key=lambda lot: lot.name)
    pub, park = pubs[0], parks[0]
    hosts = sorted((p for p in people if p.work is pub), key=lambda p: p.id) or people
    host = hosts[0]
    teller = rng.choice([p for p in people if p is not host] or people)
    quiz = (f"I am organising a quiz night at {pub.name} on {day:%A}, {day:%B} {day.day}, from 7pm to 9pm, "
            "and everyone is welcome.")
    works = f"The council is replanting {park.name} next month, so its lawn will be fenced off for a while."
    memories = {host.id: [{"content": quiz, "importance": 7, "probe": "quiz_night"}],
                teller.id: [{"content": works, "importance": 5, "probe": "park_works"}]}
    probes: list[dict[str, Any]] = [
        {"name": "quiz_night", "question": "Did you hear about a quiz night?",
         "facts": ["quiz", re.escape(pub.name).replace("\\ ", " ")],
         "gathering": {"place": f"{world}:{pub.name}", "start": f"{day:%Y-%m-%d} 19:00",
                       "end": f"{day:%Y-%m-%d} 21:00", "host": host.id}},
        {"name": "park_works", "question": f"Did you hear anything about {park.name}?",
         "facts": ["replant", "fenced|lawn"]},  # "lawn" alone: any sighting in the park
    ]
    return memories, probes


def generate_town(n: int, seed: int, out: str | Path, *, force: bool = False) -> dict[str, Any]:
    """Write a town of ``n`` residents into the folder ``out``.

    Args:
        n: number of personas (>= 1).
        seed: the seed of every random choice (names included).
        out: the town folder; its name (lower-cased) becomes the map's world name.
        force: replace the files of an existing town folder.

    Returns:
        ``{"folder", "personas", "sectors", "size": [w, h], "probes": [names]}``.

    Raises:
        ConfigError: if ``n`` is not 1..:data:`MAX_RESIDENTS`, or ``out`` exists and is not
            empty (without ``force``).
    """
    folder = Path(out)
    if not 1 <= n <= MAX_RESIDENTS:
        raise ConfigError(f"must be 1 to {MAX_RESIDENTS:,} residents (a generated map holds no more), "
                          f"got {n:,}", field="--personas")
    if folder.exists() and any(folder.iterdir()) and not force:
        raise ConfigError("the folder exists and is not empty; choose another --out or pass --force",
                          file=folder)
    world = re.sub(r"[^a-z0-9_]+", "_", folder.name.lower()).strip("_") or "town"
    rng = random.Random(seed)
    people, lots = make_residents(n, rng, faker_seed=seed)
    layout = lay_out(lots, world, rng)
    public = {kind: [lot for lot in lots if lot.kind == kind] for kind in ("cafe", "pub", "market", "park")}
    seeded, probes = _news(people, lots, world, rng)
    folder.mkdir(parents=True, exist_ok=True)
    for old in folder.glob("*.yaml"):
        old.unlink()
    _dump(folder / "map.yaml", layout, f"A generated town of {n} residents, seed {seed}")
    _dump(folder / "town.yaml", {"name": folder.name.replace("_", " ").title(), "start": f"{START:%Y-%m-%d %H:%M}"},
          "A generated town")
    _dump(folder / "probes.yaml", {"probes": probes}, "Evaluation probes, read only by `evaluate`")
    for p in people:
        nearest = {kind: _nearest(p.home, lots_) for kind, lots_ in public.items()}
        p.bed = p.home.places[p.bed]
        spec = {"name": p.name, "age": p.age, **describe(p), "traits": list(p.traits)}
        spec = {"name": spec["name"], "age": spec["age"], "emoji": spec["emoji"], "traits": spec["traits"],
                "background": spec["background"], "lifestyle": spec["lifestyle"], "home": p.bed,
                "routine": routine_for(p, nearest, rng),
                "relationships": [{"persona": other, "description": text} for other, text in p.relationships]}
        if p.id in seeded:
            spec["memories"] = seeded[p.id]
        _dump(folder / f"{p.id}.yaml", spec, f"A generated resident of {folder.name}")
    return {"folder": str(folder), "personas": len(people), "sectors": len(lots), "size": layout["size"],
            "probes": [pr["name"] for pr in probes]}
