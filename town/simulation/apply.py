"""The apply step: a tick's effects made real in the order given, every event numbered here.

The jobs of a tick (``town.simulation.jobs``) hand back typed effects (``town.mind.effects``);
:class:`Applier` takes them in the order the simulation gives — the decisions in persona order,
then the invitations in pair order, then the lines in conversation order — publishes each event
on the bus (which numbers it), writes into an event the numbers of the events it cites, starts
actions, adds lines to their conversations, ends conversations, and changes the town library.
Nothing else in a tick publishes a persona's event or changes what personas share.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import replace
from typing import Any

from ..clock import GameClock
from ..events import Event, EventBus, EventKind
from ..mind import Conversation
from ..mind.effects import Cite, Ended, Line, LibraryChange, Note, Outbox, Place, Start
from ..persona import Action, Persona

__all__ = ["Applier", "action_data"]


def action_data(a: Action) -> dict[str, Any]:
    """An ACTION event's data for a started action."""
    return {"description": a.description, "address": a.address, "emoji": a.emoji, "kind": a.kind,
            "start": a.start_tick, "end": a.end_tick, "task": a.task, "decision": a.decision}


class Applier:
    """Applies effects to the simulation's owners, numbering events on its bus.

    Args:
        bus: the event bus (numbers events, hands them to the recorder and viewers).
        clock: the world clock (events are stamped with its tick and time).
        personas: persona id -> persona.
        conversation: conversation id -> the open conversation.
        library: takes each change to the town library instead of making it now (the run-ahead
            scheduler makes them when their tick is recorded); None: made now.
    """

    def __init__(self, bus: EventBus, clock: GameClock, personas: Mapping[str, Persona],
                 conversation: Callable[[int], Conversation], library: Callable[[LibraryChange], None] | None = None):
        self._bus, self._clock, self._personas, self._conversation = bus, clock, personas, conversation
        self._library = library
        self._numbers: dict[Note, int] = {}

    def new_tick(self) -> None:
        """Forget the numbers of the last tick's notes (a tick's notes cite only that tick's)."""
        self._numbers.clear()

    def publish(self, kind: EventKind, persona: str | None, data: dict[str, Any]) -> int:
        """Publish an event of the simulation's own, stamped with the tick; its seq."""
        return self._bus.publish(Event(kind=kind, tick=self._clock.tick, time=self._clock.now,
                                       persona=persona, data=data)).seq

    def seq(self, cite: Cite | None) -> int | None:
        """The seq of a cited event (a note applied this tick, or a seq already)."""
        return self._numbers[cite] if isinstance(cite, Note) else cite

    def __call__(self, effects: Iterable[Any]) -> None:
        """Apply ``effects`` in order.

        Raises:
            KeyError: for a note citing one not applied before it this tick (a job's bug).
        """
        for effect in effects:
            if isinstance(effect, Note):
                data = _cited(effect.data, effect.cites, self._numbers) if effect.cites else effect.data
                self._numbers[effect] = self.publish(effect.kind, effect.persona, data)
            elif isinstance(effect, Start):
                action = replace(effect.action, decision=self._numbers[effect.decision]
                                 if isinstance(effect.decision, Note) else effect.decision)
                self._personas[effect.persona].start(action, path=effect.path, pending=effect.pending)
                self.publish(EventKind.ACTION, effect.persona, action_data(action))
            elif isinstance(effect, Line):
                conv = self._conversation(effect.conversation)
                conv.add_line(effect.speaker, effect.text, effect.statements,
                              None if effect.retrieval is None else effect.shared)
                self._personas[effect.speaker].say(effect.text)
                self.publish(EventKind.CHAT, effect.speaker, {
                    "conversation": effect.conversation, "speaker": effect.speaker,
                    "listener": effect.listener, "line": effect.text, "shared": list(effect.shared),
                    "retrieval": self.seq(effect.retrieval)})
            elif isinstance(effect, Ended):
                for pid in effect.participants:
                    self._personas[pid].leave_conversation(effect.conversation)
            elif isinstance(effect, LibraryChange) and self._library is not None:
                self._library(effect)
            elif isinstance(effect, LibraryChange):
                out = Outbox()
                effect.change(out)
                self(out.effects)
            else:
                raise TypeError(f"not an effect: {effect!r}")


def _cited(data: dict[str, Any], cites: tuple[Place, ...], numbers: Mapping[Note, int]) -> dict[str, Any]:
    """``data`` with the note at each place in ``cites`` replaced by its seq (containers copied)."""
    data = dict(data)
    for place in cites:
        keys = (place,) if isinstance(place, str) else place
        holder: Any = data
        for key in keys[:-1]:
            inner = holder[key]
            holder[key] = inner = dict(inner) if isinstance(inner, dict) else list(inner)
            holder = inner
        value = holder[keys[-1]]
        holder[keys[-1]] = numbers[value] if isinstance(value, Note) else value
    return data
