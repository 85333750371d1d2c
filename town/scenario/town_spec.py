"""What the town folder declares beyond its personas: probes, gatherings, timed events, the Scenario.

Probes and gatherings are read only by the evaluation; timed events only by the simulation. A
mind never sees them (it reads :mod:`town.scenario.persona_spec`).
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

from ..clock import TIME_FORMAT
from ..world import TileMap
from .persona_spec import PersonaSpec

__all__ = ["Gathering", "Probe", "NetworkProbe", "EventType", "TimedEvent", "Scenario"]


@dataclass(frozen=True, kw_only=True)
class Gathering:
    """An event people may attend: at ``place`` from ``start`` to ``end`` (game datetimes).

    ``host`` is the persona id of the organiser, if the probe names one.
    """

    place: str
    start: datetime
    end: datetime
    host: str | None = None


@dataclass(frozen=True, kw_only=True)
class Probe:
    """An evaluation probe for one piece of news (``probes.yaml``; Park et al. 2023 §7.1).

    Read only by the evaluation: the mind never sees a probe. Seeded memories, whispers and news
    events may name the probe they seed (``probe:``), so the evaluation can follow provenance.

    Attributes:
        name: ``[a-z0-9_]+``, unique in the town.
        question: what an interviewer asks ("Did you hear about a party?").
        facts: regular expressions (case-insensitive); an answer knows the news when all match.
        gathering: the event's place and window, for attendance, if the news is an event.
        paper: the paper's figures for this item (``citation`` and, optionally,
            ``diffusion: {start, end}`` as shares and ``attendance: {invited, came}``).
    """

    name: str
    question: str
    facts: tuple[str, ...]
    gathering: Gathering | None = None
    paper: dict[str, Any] | None = None


@dataclass(frozen=True, kw_only=True)
class NetworkProbe:
    """How the evaluation asks about relationships (``probes.yaml`` ``network``; Park et al. 2023 §7.1.2).

    Attributes:
        question: what each persona is asked about each other one; ``{name}`` stands for the
            other's full name.
        paper: the paper's figures (``citation`` and, optionally, ``density: {start, end}``).
    """

    question: str = "Do you know {name}?"
    paper: dict[str, Any] | None = None


class EventType(str, enum.Enum):
    """Kinds of timed scenario events."""

    CLOSE_PLACE = "close_place"
    OPEN_PLACE = "open_place"
    WHISPER = "whisper"
    NEWS = "news"


@dataclass(frozen=True, kw_only=True)
class TimedEvent:
    """A scenario event firing at game time ``at``.

    ``fields`` by type: close_place/open_place ``{"place", "reason"|None}``; whisper
    ``{"persona", "text", "probe": str|None, "importance": int|None}``; news ``{"text",
    "personas": [ids] (``"all"`` expanded), "probe": str|None}``.
    """

    at: datetime
    type: EventType
    fields: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        """JSON-able ``{"at": "YYYY-MM-DD HH:MM", "type", **fields}``."""
        return {"at": self.at.strftime(TIME_FORMAT), "type": self.type.value, **self.fields}


@dataclass(frozen=True, kw_only=True)
class Scenario:
    """A loaded, checked town."""

    name: str
    folder: Path
    start: datetime
    tilemap: TileMap
    personas: tuple[PersonaSpec, ...]
    events: tuple[TimedEvent, ...] = ()
    probes: tuple[Probe, ...] = ()
    network: NetworkProbe = NetworkProbe()

    def persona(self, persona_id: str) -> PersonaSpec:
        """The persona with this id.

        Raises:
            KeyError: if there is none.
        """
        for p in self.personas:
            if p.id == persona_id:
                return p
        raise KeyError(persona_id)

