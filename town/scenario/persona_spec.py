"""What a persona's file declares: identity, the usual day, relationships, seed memories.

The only part of a scenario a mind may read: a decision sees the persona's own file, never the
town's probes, gatherings or news. Identity and daily routine follow Park et al. 2023 §3 (seed
descriptions) and §4.3 (plans).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import time
from typing import Any

from ..clock import clock_text
from ..memory.record import MemoryKind
from ..procedures.episode import Goal
from ..world.address import sector_name

__all__ = ["RoutineItem", "Relationship", "SeedMemory", "PersonaSpec", "DAY_MINUTES"]

#: Minutes in a game day: a routine covers 00:00 to 24:00.
DAY_MINUTES = 24 * 60


def _minutes(t: time) -> int:
    return t.hour * 60 + t.minute


@dataclass(frozen=True, kw_only=True)
class RoutineItem:
    """One block of a persona's usual day (game time of day).

    ``end`` of ``00:00`` means midnight at the end of the day (the file says ``"24:00"``); use
    :attr:`start_minutes` / :attr:`end_minutes` (0-1440) to compare.
    """

    start: time
    end: time
    activity: str
    place: str
    task: str | None = None
    goal: Goal | None = None

    @property
    def start_minutes(self) -> int:
        """Minutes after midnight at which the block starts (0-1439)."""
        return _minutes(self.start)

    @property
    def end_minutes(self) -> int:
        """Minutes after midnight at which the block ends (1-1440)."""
        return _minutes(self.end) or DAY_MINUTES

    def to_dict(self) -> dict[str, Any]:
        """JSON-able ``{"start", "end" ("24:00" at day end), "activity", "place", "task", "goal"}``."""
        return {
            "start": clock_text(self.start_minutes),
            "end": clock_text(self.end_minutes),
            "activity": self.activity,
            "place": self.place,
            "task": self.task,
            "goal": None if self.goal is None else self.goal.to_dict(),
        }


@dataclass(frozen=True, kw_only=True)
class Relationship:
    """What a persona knows about another persona at the start."""

    persona: str
    description: str


@dataclass(frozen=True, kw_only=True)
class SeedMemory:
    """A memory a persona starts with; ``importance`` 1-10 (poignancy, Park et al. 2023 §4.1)."""

    content: str
    importance: int
    probe: str | None = None
    kind: MemoryKind = MemoryKind.OBSERVATION


@dataclass(frozen=True, kw_only=True)
class PersonaSpec:
    """A persona's identity as its file declares it (Park et al. 2023 §3.1 seed description)."""

    id: str
    name: str
    age: int
    emoji: str
    traits: tuple[str, ...]
    background: str
    lifestyle: str
    home: str
    routine: tuple[RoutineItem, ...]
    relationships: tuple[Relationship, ...] = ()
    memories: tuple[SeedMemory, ...] = ()
    pronoun: str | None = None  # "she", "he" or "they" (the file's ``pronouns``); None: retold by name

    def routine_at(self, minutes: int) -> RoutineItem:
        """The routine block covering ``minutes`` after midnight (0-1439)."""
        return next(r for r in self.routine if r.start_minutes <= minutes % DAY_MINUTES < r.end_minutes)

    def summary(self) -> str:
        """One paragraph of identity for questions (name, age, traits, background, lifestyle)."""
        return f"{self.name}, {self.age}. Traits: {', '.join(self.traits)}. {self.background} {self.lifestyle}"

    @property
    def home_sector(self) -> str:
        """The sector of the home address ("Isabella Rodriguez's apartment")."""
        return sector_name(self.home)

