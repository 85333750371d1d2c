"""Seeding a new run: each persona's memories and relationships from its persona file (tick 0)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from functools import partial
from typing import Any

from ..mind import MindContext, remember_many
from ..persona import Persona
from ..perspective import meaning
from ..reading import read_fact
from ..textevent import place_names
from ..world import TileMap

__all__ = ["RELATIONSHIP_IMPORTANCE", "seed"]

#: Importance of a relationship seeded from a persona file (known background, Park et al. 2023
#: §4.1's mundane end of the scale).
RELATIONSHIP_IMPORTANCE = 3


def seed(personas: Mapping[str, Persona], names: Mapping[str, str], tilemap: TileMap,
         embed_ahead: Callable[[list[str], list[str]], None], think: Callable[[Callable[[MindContext], Any]], Any]) -> None:
    """Write each persona's seeded memories and relationships (tick 0).

    A relationship from the persona file is long-known background, not news: it is written
    with importance ``RELATIONSHIP_IMPORTANCE`` instead of being rated.

    Args:
        personas: persona id -> persona, in persona order.
        names: persona id -> full name.
        tilemap: the town's map (its place names).
        embed_ahead: embeds (and rates, scripted) the memories before any is written
            (``Simulation._embed_ahead``).
        think: runs a mind step and applies its effects (``Simulation.think``).
    """
    seeded: dict[str, list[dict[str, Any]]] = {}
    places = place_names(tilemap.addresses())
    for pid, p in personas.items():
        items = [dict(kind=m.kind, content=m.content, importance=m.importance, probe=m.probe, typed=True,
                      **meaning(m.content, places)) for m in p.spec.memories]
        for rel in p.spec.relationships:
            other = names.get(rel.persona, rel.persona)
            items.append(dict(kind="observation", subject=rel.persona,
                              content=_relationship_sentence(other, rel.description),
                              importance=RELATIONSHIP_IMPORTANCE))
        seeded[pid] = items
    every = [item for items in seeded.values() for item in items]
    embed_ahead([item["content"] for item in every],
                [item["content"] for item in every if item.get("importance") is None])
    for pid, items in seeded.items():  # the rest rated in one request per persona
        think(partial(_remember_many, personas[pid], items, places, tuple(names.values())))


def _remember_many(p: Persona, items: list[dict[str, Any]], places: dict[str, str], roster: tuple[str, ...],
                   ctx: MindContext) -> None:
    """Remember ``items``; a persona file's memory (``typed``) is read at this edge for its fact."""
    read = [dict(item, fact=read_fact(item["content"], ctx.now, places, roster, p.name)) if item.pop("typed", False)
            else item for item in (dict(i) for i in items)]
    remember_many(p, ctx, read)


def _relationship_sentence(other: str, description: str) -> str:
    """"Klaus Mueller is a regular at the cafe" from a persona file's relationship description."""
    if description[:2].lower() in ("a ", "an", "my", "th"):
        return f"{other} is {description}"
    return f"About {other}: {description}"
