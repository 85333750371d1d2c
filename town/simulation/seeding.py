"""Seeding a new run: each persona's memories and relationships from its persona file (tick 0)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..mind import remember_many
from ..perspective import meaning
from ..textevent import place_names

if TYPE_CHECKING:
    from .core import Simulation

__all__ = ["RELATIONSHIP_IMPORTANCE", "seed"]

#: Importance of a relationship seeded from a persona file (known background, Park et al. 2023
#: §4.1's mundane end of the scale).
RELATIONSHIP_IMPORTANCE = 3


def seed(sim: Simulation) -> None:
    """Write each persona's seeded memories and relationships (tick 0).

    A relationship from the persona file is long-known background, not news: it is written
    with importance ``RELATIONSHIP_IMPORTANCE`` instead of being rated.
    """
    seeded: dict[str, list[dict[str, Any]]] = {}
    places = place_names(sim.tilemap.addresses())
    for pid, p in sim.personas.items():
        items = [dict(kind=m.kind, content=m.content, importance=m.importance, probe=m.probe,
                      **meaning(m.content, places)) for m in p.spec.memories]
        for rel in p.spec.relationships:
            other = sim.ctx.names.get(rel.persona, rel.persona)
            items.append(dict(kind="observation", subject=rel.persona,
                              content=_relationship_sentence(other, rel.description),
                              importance=RELATIONSHIP_IMPORTANCE))
        seeded[pid] = items
    every = [item for items in seeded.values() for item in items]
    sim._embed_ahead([item["content"] for item in every],
                     [item["content"] for item in every if item.get("importance") is None])
    for pid, items in seeded.items():
        remember_many(sim.personas[pid], sim.ctx, items)  # the rest rated in one request per persona


def _relationship_sentence(other: str, description: str) -> str:
    """"Klaus Mueller is a regular at the cafe" from a persona file's relationship description."""
    if description[:2].lower() in ("a ", "an", "my", "th"):
        return f"{other} is {description}"
    return f"About {other}: {description}"
