"""What a backend is shown of a persona's memories and plan: plain, frozen views.

A :class:`MemoryView` is a retrieved memory without provenance; a :class:`PlanItemView` one
block of a plan. Questions carry them to a backend, and a day plan's answer turns the routine's
blocks into the day's (:meth:`town.thinking.answers.DayPlanAnswer.day`).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import time

from ..memory.fact import Decided, Fact, PlanItem

__all__ = ["MemoryView", "PlanItemView", "FactView", "routine_views"]


@dataclass(frozen=True, kw_only=True)
class MemoryView:
    """A retrieved memory as shown to a backend: id, text, kind, importance, creation time, and
    what it states as the persona understood it (``fact``, None where it understood no statement)
    and who told it (``tellers``, full names, oldest first; none: its own); a plan memory's
    blocks (``plan_items``) and its decisions about events (``decisions``, with their reasons).

    Only what the persona remembers: no provenance, no evaluation metadata.
    """

    id: int
    content: str
    kind: str
    importance: int
    created: str = ""
    fact: Fact | None = None
    tellers: tuple[str, ...] = ()
    plan_items: tuple[PlanItem, ...] = ()
    decisions: tuple[Decided, ...] = ()


@dataclass(frozen=True, kw_only=True)
class PlanItemView:
    """One block of a plan: ``start``/``end`` as "HH:MM" (game time), what, where."""

    start: str
    end: str
    description: str
    place: str
    task: str | None = None


@dataclass(frozen=True, kw_only=True)
class FactView:
    """What a line states, as plain strings: a scripted speaker's dialogue act (what it put into
    words), or a listener's reading of a line. Empty strings where the line does not say.

    Attributes:
        act: base-form verb phrase ("hold a vigil"); empty when the line states nothing.
        subject: who does it (a full name). place: a place's name. start, end: "YYYY-MM-DD HH:MM".
        host: the host's full name. invited: names, or ("everyone",). question: the line asks it.
        part: the part of the day an event was told by, no clock time said
        (:attr:`town.memory.fact.Fact.part`), else "". cancelled: the event told is called off
        (:attr:`town.memory.fact.Fact.cancelled`). closed: the place is closed then
        (:attr:`town.memory.fact.Fact.closed`). moved: the event told is moved to its start or
        place (:attr:`town.memory.fact.Fact.moved`). price: what it costs, as said
        (:attr:`town.memory.fact.Fact.price`), else "". done: the act is told as done
        (:attr:`town.memory.fact.Fact.done`). secret: told in confidence
        (:attr:`town.memory.fact.Fact.secret`).
    """

    act: str = ""
    subject: str = ""
    place: str = ""
    start: str = ""
    end: str = ""
    host: str = ""
    invited: tuple[str, ...] = ()
    question: bool = False
    part: str = ""
    cancelled: bool = False
    closed: bool = False
    moved: bool = False
    price: str = ""
    done: bool = False
    secret: bool = False


def routine_views(routine) -> tuple[PlanItemView, ...]:
    """A persona file's routine (:class:`town.scenario.RoutineItem` blocks) as plan views:
    "HH:MM" times, a block ending at midnight ending "24:00"; ``description`` is the activity."""
    return tuple(PlanItemView(start=f"{r.start:%H:%M}",
                              end="24:00" if r.end == time(0) and r.start != time(0) else f"{r.end:%H:%M}",
                              description=r.activity, place=r.place, task=r.task) for r in routine)
