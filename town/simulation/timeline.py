"""The timeline: a town file's timed events (closures, whispers, news) and whispers from outside.

Each timed event is fired at the start of the first tick whose time has reached it, in file
order, and published as a SCENARIO event (measurement and replay only: no decision reads it). A
whisper (from the town file or the viewer) is an inner-voice memory of one persona.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from datetime import datetime
from typing import Any, TypeVar

from ..events import EventKind
from ..mind import MindContext, observe, remember
from ..persona import Persona
from ..perspective import inner_voice, meaning
from ..reading import cased_names, read_fact, spelled_out
from ..scenario import TimedEvent
from ..world import World

__all__ = ["Timeline"]

T = TypeVar("T")


class Timeline:
    """Owns which timed events have fired, and fires the due ones and whispers.

    Args:
        events: the town file's timed events, in time order.
        world: the world (places close and open).
        personas: persona id -> persona.
        places: the map's place names (``textevent.place_names``: a whisper's stated place).
        think: runs a mind step now and applies its effects (``Simulation.think``).
        publish: publishes an event of the simulation's own.
    """

    def __init__(self, events: Sequence[TimedEvent], world: World, personas: Mapping[str, Persona],
                 places: dict[str, str], think: Callable[[Callable[[MindContext], Any]], Any],
                 publish: Callable[..., int]):
        self._events = tuple(events)
        self._next = 0
        self._world, self._personas, self._places = world, personas, places
        self._think, self._publish = think, publish

    @property
    def fired(self) -> int:
        """How many timed events have fired (the run state's ``next_event``)."""
        return self._next

    def set_fired(self, n: int) -> None:
        """Restore :attr:`fired`."""
        self._next = int(n)

    def next_at(self) -> datetime | None:
        """When the next timed event not fired yet is due (None: none is left)."""
        return self._events[self._next].at if self._next < len(self._events) else None

    def fire_due(self, now: datetime) -> None:
        """Fire the timed events due by ``now`` that have not fired yet."""
        while self._next < len(self._events) and self._events[self._next].at <= now:
            ev = self._events[self._next]
            self._next += 1
            self._fire(ev)

    def _names(self) -> tuple[str, ...]:
        """Full names of the town's people (a typed text's subject is one of them)."""
        return tuple(p.name for p in self._personas.values())

    def whisper(self, persona: str, text: str, *, probe: str | None = None,
                importance: int | None = None) -> int:
        """Inject an inner-voice memory (kind ``whisper``) into a persona; returns its id.

        ``probe`` names the evaluation probe the whisper seeds (measurement only; no decision
        reads it). ``importance`` is rated like any memory's when None.

        Raises:
            KeyError: for an unknown persona id.
        """
        p = self._personas[persona]
        thought = inner_voice(cased_names(spelled_out(text), self._names()))  # "ur dog got loose": "my dog got loose"

        def whispered(ctx: MindContext) -> int:
            fact = read_fact(thought, ctx.now, self._places, self._names(), p.name)  # typed: read here, once
            record = remember(p, ctx, kind="whisper", content=thought, probe=probe, importance=importance,
                              fact=fact, **meaning(thought, self._places))
            ctx.out.note(EventKind.WHISPER, persona, {"text": text, "memory": record.id})
            return record.id

        return self._think(whispered)

    def _fire(self, ev: TimedEvent) -> None:
        kind = ev.type.value
        data: dict[str, Any] = {"type": kind, "at": ev.at.isoformat(sep=" ")}
        fields = dict(ev.fields)
        data.update({k: v for k, v in fields.items() if isinstance(v, (str, int, float, list, tuple, type(None)))})
        if kind == "close_place":
            self._world.close(fields["place"])
        elif kind == "open_place":
            self._world.open(fields["place"])
        elif kind == "whisper":
            self.whisper(fields["persona"], fields["text"], probe=fields.get("probe"),
                         importance=fields.get("importance"))
        elif kind == "news":
            targets = fields.get("personas") or "all"
            ids = sorted(self._personas) if targets == "all" else list(targets)

            def told(ctx: MindContext) -> None:
                for pid in ids:
                    observe(self._personas[pid], ctx, fields["text"], probe=fields.get("probe"),
                            fact=read_fact(fields["text"], ctx.now, self._places, self._names()))

            self._think(told)
        self._publish(EventKind.SCENARIO, None, data)
