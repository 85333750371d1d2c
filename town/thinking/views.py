"""What a backend is shown of a persona's memories and plan: plain, frozen views.

A :class:`MemoryView` is a retrieved memory without provenance; a :class:`PlanItemView` one
block of a plan. Questions carry them to a backend, and a day plan's answer turns the routine's
blocks into the day's (:meth:`town.thinking.answers.DayPlanAnswer.day`).
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["MemoryView", "PlanItemView"]


@dataclass(frozen=True, kw_only=True)
class MemoryView:
    """A retrieved memory as shown to a backend: id, text, kind, importance, creation time.

    Only what the persona remembers: no provenance, no evaluation metadata.
    """

    id: int
    content: str
    kind: str
    importance: int
    created: str = ""


@dataclass(frozen=True, kw_only=True)
class PlanItemView:
    """One block of a plan: ``start``/``end`` as "HH:MM" (game time), what, where."""

    start: str
    end: str
    description: str
    place: str
    task: str | None = None
