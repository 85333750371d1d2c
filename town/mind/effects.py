"""What a mind step hands back: typed effects, which the simulation applies in a fixed order.

A job of the tick (a persona's decision, the answer to an invitation, a conversation's line, a
side's summary of a finished conversation) thinks on the tick's snapshot and changes only the
minds it thinks for (their memory streams, plans, what they noted), through their own methods.
Everything that others can see or share is returned instead, in the order the job meant it:

- :class:`Note`: an event (a memory written, a retrieval, a plan, a procedure used...); the apply
  step numbers it, so a job never knows a seq. An event that cites another of its job's events
  (an ACTION its retrieval, a CHAT the retrieval behind the line) holds that :class:`Note` at the
  places ``cites`` names, and the apply step writes the number there.
- :class:`Start`: an action started (with the path to walk and the step waited for on arrival).
- :class:`Line`: a line said in a conversation; :class:`Ended`: a conversation over.
- :class:`LibraryChange`: a change to the shared town library, which notes its own events.

The apply step (``town.simulation.apply``) takes a tick's jobs in persona order (then invitation
order, then conversation order), so a run is the same whether the jobs ran one by one or at once.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..events import EventKind
from ..persona import Action, Step

__all__ = ["Note", "Cite", "Start", "Line", "Ended", "LibraryChange", "Effect", "Outbox"]

#: Where in an event's data a cited note stands: a top-level key, or keys and indices inward.
Place = str | tuple[str | int, ...]


@dataclass(frozen=True, eq=False)
class Note:
    """An event to publish, stamped with the tick and numbered when applied.

    Attributes:
        kind: the event's kind.
        persona: whose event it is (None: the town's).
        data: its data; at each place in ``cites``, a :class:`Note` of the same job.
        cites: places in ``data`` that hold another note, replaced by that note's seq.
    """

    kind: EventKind
    persona: str | None
    data: dict[str, Any]
    cites: tuple[Place, ...] = ()


#: An event a decision rests on: the seq of one published before the job, or a note of the job.
Cite = int | Note


@dataclass(frozen=True)
class Start:
    """``persona`` starts ``action`` (its ``decision`` is ``decision``'s seq once applied).

    Attributes:
        persona: who.
        action: the action; its ``decision`` is replaced by the seq of ``decision``.
        decision: the retrieval the choice rests on.
        path: the tiles to walk, in order (empty: it is there).
        pending: the step started on arrival at the end of a walk, else None.
    """

    persona: str
    action: Action
    decision: Cite
    path: tuple[tuple[int, int], ...] = ()
    pending: Step | None = None


@dataclass(frozen=True)
class Line:
    """``speaker`` says ``text`` to ``listener`` in conversation ``conversation``.

    Attributes:
        shared: ids of the speaker's memories the line passes on.
        statements: what those memories state (so nobody says them again in this conversation).
        retrieval: the retrieval behind the line (None: a player's words), or its seq.
    """

    conversation: int
    speaker: str
    listener: str
    text: str
    shared: tuple[int, ...] = ()
    statements: tuple[str, ...] = ()
    retrieval: Cite | None = None


@dataclass(frozen=True)
class Ended:
    """Conversation ``conversation`` is over: both of ``participants`` leave it."""

    conversation: int
    participants: tuple[str, str]


@dataclass(frozen=True)
class LibraryChange:
    """A change to the town library, made when applied, in order; ``change(out)`` notes its events."""

    change: Callable[[Outbox], None]


Effect = Note | Start | Line | Ended | LibraryChange


class Outbox:
    """A job's effects, in the order the job made them."""

    __slots__ = ("effects",)

    def __init__(self) -> None:
        self.effects: list[Effect] = []

    def note(self, kind: EventKind, persona: str | None, data: dict[str, Any], *,
             cites: tuple[Place, ...] = ()) -> Note:
        """Add an event; returns it, for a later event or decision to cite."""
        note = Note(kind=kind, persona=persona, data=data, cites=cites)
        self.effects.append(note)
        return note

    def add(self, effect: Effect) -> None:
        """Add a :class:`Start`, :class:`Line`, :class:`Ended` or :class:`LibraryChange`."""
        self.effects.append(effect)

    def extend(self, effects: list[Effect]) -> None:
        """Add another job's effects after these (a step's independent parts, in their order)."""
        self.effects.extend(effects)
