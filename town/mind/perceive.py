"""Perception: what a persona sees of the others this tick (Park et al. 2023 §4, "perceive").

A persona sees awake personas in the same sector or within the vision radius (tiles). A change
in what someone is doing becomes an observation memory; walking is seen but not remembered.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..persona import Persona
from .act import place_label
from .context import MindContext, gerund, remember_many

__all__ = ["View", "perceive"]


@dataclass(frozen=True, kw_only=True)
class View:
    """What others can see of a persona at the start of a tick (the shared snapshot)."""

    id: str
    name: str
    x: int
    y: int
    sector: str
    action: str
    kind: str
    address: str
    conversation: int | None


def perceive(p: Persona, ctx: MindContext, snapshot: dict[str, View]) -> list[View]:
    """Observe the others visible to ``p``; remember changes; return them nearest first.

    Returns:
        Visible, awake personas (not ``p``), sorted by (distance in tiles, id).
    """
    if p.asleep:
        return []
    me = snapshot[p.id]
    radius = ctx.config.perception.vision_radius
    seen, new = [], []
    for other in snapshot.values():
        if other.id == p.id or other.kind == "sleep":
            continue
        dist = max(abs(other.x - me.x), abs(other.y - me.y))
        if dist > radius and not (other.sector and other.sector == me.sector):
            continue
        seen.append((dist, other.id, other))
        if other.kind in ("walk", "talk") or p.observed.get(other.id) == other.action:
            continue
        p.observed[other.id] = other.action
        new.append(dict(kind="observation", subject=other.id,
                        content=f"{other.name} is {gerund(other.action)} at {place_label(other.address)}."))
    remember_many(p, ctx, new)  # a tick's observations are rated together
    return [v for _, _, v in sorted(seen)]
