"""A persona: identity from its file, its current state, and its memory stream.

Its state changes only through :class:`Persona`'s methods, and converts to JSON with
:meth:`Persona.get_state` for snapshots; the memory stream has its own state. The class is one
owner: every kind of change to a persona is one of its methods, checking what must hold.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict, dataclass, replace
from datetime import datetime
from types import MappingProxyType
from typing import Any, TypeVar

from .memory import MemoryStream
from .procedures import ProceduralMemory
from .scenario import PersonaSpec

__all__ = ["Action", "PlanBlock", "Step", "Persona"]

T = TypeVar("T")


@dataclass(frozen=True, kw_only=True)
class Action:
    """What a persona is doing now.

    Attributes:
        description: e.g. "brew coffee".
        address: where (full ``world:sector:arena:object`` address).
        emoji: a short glyph for the viewer.
        start_tick: tick it started.
        end_tick: tick it ends (exclusive); the mind decides anew at ``end_tick``.
        kind: "do" | "walk" | "sleep" | "talk".
        task: the plan block's task it serves, if any.
        decision: seq of the retrieval event that preceded the decision (0 if none).
    """

    description: str
    address: str
    emoji: str
    start_tick: int
    end_tick: int
    kind: str = "do"
    task: str | None = None
    decision: int = 0


@dataclass(frozen=True, kw_only=True)
class PlanBlock:
    """A block of the day plan (Park et al. 2023 §4.3): game datetimes, what, where."""

    start: datetime
    end: datetime
    description: str
    place: str
    task: str | None = None

    def to_dict(self) -> dict[str, Any]:
        """JSON-able dict (times as ISO strings)."""
        return {**asdict(self), "start": self.start.isoformat(sep=" "), "end": self.end.isoformat(sep=" ")}

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> PlanBlock:
        """Inverse of :meth:`to_dict`."""
        return cls(**{**d, "start": datetime.fromisoformat(d["start"]),
                      "end": datetime.fromisoformat(d["end"])})


@dataclass(frozen=True, kw_only=True)
class Step:
    """One 5-15 minute action of a decomposed plan chunk: what, at which object, how long.

    ``importance`` is the rating (1-10) of the observation its start writes, rated with the
    chunk's other steps (None: rated when it starts).
    """

    description: str
    object: str
    minutes: int
    task: str | None = None
    importance: int | None = None


Tile = tuple[int, int]
#: The kinds of action a persona starts with :meth:`Persona.start` (a talk is entered instead).
STARTED_KINDS = ("do", "walk", "sleep")


def _changes(method: Callable[..., T]) -> Callable[..., T]:
    """A :class:`Persona` method that may assign its fields (nothing else may)."""

    @functools.wraps(method)
    def changing(self: Persona, *args: Any, **kwargs: Any) -> T:
        object.__setattr__(self, "_changing", self._changing + 1)
        try:
            return method(self, *args, **kwargs)
        finally:
            object.__setattr__(self, "_changing", self._changing - 1)

    return changing


class Persona:
    """Identity (``spec``, from the persona file), memory stream, procedural memory, and state.

    The state changes only through the methods below, one per kind of change, each checking what
    must hold; assigning a field from outside them raises ``AttributeError``, and the containers
    are read-only views (tuples, mappings). Two parts (docs/design, §3):

    - what the town sees, changed by the simulation's apply step: ``x, y``, ``action``,
      ``path``, ``pending``, ``conversation``, ``speech`` (:meth:`place`, :meth:`start`,
      :meth:`walk`, :meth:`enter_conversation`, :meth:`leave_conversation`, :meth:`say`,
      :meth:`fall_silent`);
    - its mind, changed by the job that thinks for it: ``plan``, ``plan_date``, ``steps``,
      ``needs_replan``, ``importance_acc``, ``unrated``, ``observed``, ``cooldown``, ``told``, ``said`` (and the memory
      stream and procedural memory, which have their own methods).

    Attributes:
        spec: the validated persona file.
        stream: the persona's memory stream (Park et al. 2023 §4.1).
        procedures: the persona's procedural memory (docs/design, §2), or None (a player).
        x, y: tile position.
        action: the current action, or None when the mind must decide.
        path: remaining tiles to walk, in order.
        pending: the step the persona is walking to, started on arrival.
        conversation: id of the conversation the persona is in, or None.
        speech: the line spoken this tick (for the viewer), or None.
        plan: today's plan blocks; ``plan_date`` its date (ISO) or "".
        steps: remaining steps of the current plan chunk.
        needs_replan: something heard changes today's plan (react, §4.3.1).
        importance_acc: summed importance since the last reflection (§4.2, threshold 150).
        unrated: new memories not yet in the stream, each a JSON-able dict (its ``at`` game time
            and :func:`~town.mind.context.remember`'s arguments), waiting for one rating request
            (``importance = "deferred"``); their importance is unknown until then.
        observed: other persona id -> what was last seen of them, their action and its place
            (``town.mind.perceive.sighting``: changes only are observations); own id -> the
            last sentence written of one's own action.
        cooldown: other persona id -> tick before which they will not start another talk.
        told: persona id -> statements that persona knows from us (passed on to them, or
            heard from them): not told to them again.
        said: persona id -> (game day "YYYY-MM-DD", the lines said to them that day, in order):
            no line is said twice to one person in a day.
    """

    __slots__ = ("spec", "stream", "procedures", "x", "y", "action", "path", "pending", "conversation", "speech",
                 "plan", "plan_date", "steps", "needs_replan", "importance_acc", "unrated", "observed", "cooldown",
                 "told", "said", "_observed", "_cooldown", "_told", "_said", "_changing")

    spec: PersonaSpec
    stream: MemoryStream
    procedures: ProceduralMemory | None
    x: int
    y: int
    action: Action | None
    path: tuple[Tile, ...]
    pending: Step | None
    conversation: int | None
    speech: str | None
    plan: tuple[PlanBlock, ...]
    plan_date: str
    steps: tuple[Step, ...]
    needs_replan: bool
    importance_acc: int
    unrated: tuple[Mapping[str, Any], ...]
    observed: Mapping[str, str]
    cooldown: Mapping[str, int]
    told: Mapping[str, tuple[str, ...]]
    said: Mapping[str, tuple[str, tuple[str, ...]]]
    _changing: int  # > 0 while a method of this persona runs (its fields may be assigned)

    def __init__(self, spec: PersonaSpec, stream: MemoryStream, procedures: ProceduralMemory | None = None):
        object.__setattr__(self, "_changing", 0)
        self._init(spec, stream, procedures)

    @_changes
    def _init(self, spec: PersonaSpec, stream: MemoryStream, procedures: ProceduralMemory | None) -> None:
        self.spec, self.stream, self.procedures = spec, stream, procedures
        self.x = self.y = 0
        self.action, self.path, self.pending, self.conversation, self.speech = None, (), None, None, None
        self.plan, self.plan_date, self.steps, self.needs_replan, self.importance_acc = (), "", (), False, 0
        self.unrated = ()
        self._observed: dict[str, str] = {}
        self._cooldown: dict[str, int] = {}
        self._told: dict[str, tuple[str, ...]] = {}
        self.observed, self.cooldown = MappingProxyType(self._observed), MappingProxyType(self._cooldown)
        self.told = MappingProxyType(self._told)
        self._said: dict[str, tuple[str, tuple[str, ...]]] = {}
        self.said = MappingProxyType(self._said)

    def __setattr__(self, name: str, value: Any) -> None:
        if not self._changing:
            raise AttributeError(f"{name!r} of persona {self.spec.id!r} changes only through the Persona's "
                                 "methods (start, walk, enter_conversation, ...)")
        object.__setattr__(self, name, value)

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"{name!r} of persona {self.spec.id!r} cannot be deleted")

    def __repr__(self) -> str:
        return f"Persona({self.spec.id!r}, at=({self.x}, {self.y}), action={self.action!r})"

    @property
    def id(self) -> str:
        """The persona id (file stem)."""
        return self.spec.id

    @property
    def name(self) -> str:
        """Full name."""
        return self.spec.name

    @property
    def asleep(self) -> bool:
        """True while the current action is sleeping."""
        return self.action is not None and self.action.kind == "sleep"

    def summary(self) -> str:
        """One paragraph of identity for questions (traits, background, lifestyle)."""
        return self.spec.summary()

    # ------------------------------------------------------------------ what the town sees
    @_changes
    def place(self, x: int, y: int) -> None:
        """Stand on tile (x, y): at home when the town starts, or where a player is set down.

        Raises:
            ValueError: for a negative or non-integer tile.
        """
        if not (isinstance(x, int) and isinstance(y, int)) or x < 0 or y < 0:
            raise ValueError(f"{self.id}: ({x!r}, {y!r}) is no tile")
        self.x, self.y = x, y

    @_changes
    def start(self, action: Action, *, path: tuple[Tile, ...] = (), pending: Step | None = None) -> None:
        """Start ``action``, walking ``path`` first; ``pending`` is started on arrival (a walk's step).

        Raises:
            ValueError: for a talk (entered with :meth:`enter_conversation`), an action that ends
                before it starts, or a step waited for by anything but a walk.
        """
        if action.kind not in STARTED_KINDS:
            raise ValueError(f"{self.id}: an action of kind {action.kind!r} is not started (one of {STARTED_KINDS})")
        if action.end_tick < action.start_tick:
            raise ValueError(f"{self.id}: {action.description!r} ends (tick {action.end_tick}) before it "
                             f"starts (tick {action.start_tick})")
        if pending is not None and action.kind != "walk":
            raise ValueError(f"{self.id}: only a walk waits to start a step on arrival")
        self.action, self.path, self.pending = action, tuple(path), pending

    @_changes
    def walk(self) -> None:
        """Take one step along the path (one tile per tick); none while talking."""
        if self.path and self.conversation is None:
            (self.x, self.y), self.path = self.path[0], self.path[1:]

    @_changes
    def enter_conversation(self, conversation: int, action: Action, resume: Step | None = None) -> None:
        """Stop and talk: join ``conversation`` doing ``action`` (a talk); ``resume`` is the rest of
        the action it interrupts, the first step after it.

        Raises:
            ValueError: when already in a conversation, or ``action`` is not a talk.
        """
        if self.conversation is not None:
            raise ValueError(f"{self.id} is in conversation {self.conversation} already")
        if action.kind != "talk":
            raise ValueError(f"{self.id}: a conversation is entered talking, not {action.kind!r}")
        self.conversation, self.path, self.action = conversation, (), action
        if resume is not None:
            self.steps = (resume, *self.steps)

    @_changes
    def renumber(self, seqs: Mapping[int, int]) -> None:
        """Give the action's ``decision`` its event's seq, when ``seqs`` maps the number it has
        (the run-ahead scheduler numbers events when their tick is recorded)."""
        if self.action is not None and self.action.decision in seqs:
            self.action = replace(self.action, decision=seqs[self.action.decision])

    @_changes
    def leave_conversation(self, conversation: int) -> None:
        """Leave ``conversation``: its talk is over and the mind decides anew.

        Raises:
            ValueError: when not in that conversation.
        """
        if self.conversation != conversation:
            raise ValueError(f"{self.id} is not in conversation {conversation} (in {self.conversation})")
        self.conversation, self.action = None, None

    @_changes
    def say(self, line: str) -> None:
        """Say ``line`` (shown this tick)."""
        self.speech = line

    @_changes
    def fall_silent(self) -> None:
        """Say nothing any more."""
        self.speech = None

    # ------------------------------------------------------------------ its mind
    @_changes
    def note_seen(self, other: str, what: str) -> None:
        """Note what ``other`` (or the persona itself) was last seen doing."""
        self._observed[other] = what

    @_changes
    def gain_importance(self, importance: int) -> None:
        """Add a new memory's importance to the sum that triggers reflection.

        Raises:
            ValueError: for a negative importance.
        """
        if importance < 0:
            raise ValueError(f"{self.id}: importance {importance} is below 0")
        self.importance_acc += importance

    @_changes
    def defer_memory(self, memory: Mapping[str, Any]) -> None:
        """Keep a new memory, JSON-able, until its importance is rated (``importance = "deferred"``:
        :func:`town.mind.context.rate_unrated` writes it to the stream)."""
        self.unrated = (*self.unrated, MappingProxyType(dict(memory)))

    @_changes
    def take_unrated(self) -> list[dict[str, Any]]:
        """The memories waiting for their rating, oldest first; none wait afterwards."""
        taken, self.unrated = [dict(m) for m in self.unrated], ()
        return taken

    @_changes
    def reflected(self) -> None:
        """The persona reflected: the sum starts again from 0."""
        self.importance_acc = 0

    @_changes
    def adopt_plan(self, blocks: Sequence[PlanBlock], date: str) -> None:
        """Today's plan is ``blocks`` (dated ``date``, ISO): its steps are to be made anew.

        Raises:
            ValueError: for no block, a block ending before it starts, or a date that is not ISO.
        """
        if not blocks:
            raise ValueError(f"{self.id}: a day plan has at least one block")
        if any(b.end < b.start for b in blocks):
            raise ValueError(f"{self.id}: a plan block ends before it starts")
        datetime.strptime(date, "%Y-%m-%d")
        self.plan, self.plan_date, self.steps, self.needs_replan = tuple(blocks), date, (), False

    @_changes
    def must_replan(self) -> None:
        """Something heard changes today's plan: plan anew at the next decision."""
        self.needs_replan = True

    @_changes
    def set_steps(self, steps: Sequence[Step]) -> None:
        """The steps of the current plan chunk are ``steps`` (none: the chunk is dropped)."""
        self.steps = tuple(steps)

    @_changes
    def next_step(self) -> Step:
        """Take the next step of the chunk.

        Raises:
            ValueError: when no step is left.
        """
        if not self.steps:
            raise ValueError(f"{self.id} has no step left")
        step, self.steps = self.steps[0], self.steps[1:]
        return step

    @_changes
    def cool_down(self, other: str, until: int) -> None:
        """Start no talk with ``other`` before tick ``until``."""
        self._cooldown[other] = int(until)

    @_changes
    def knows_told(self, other: str, statement: str) -> None:
        """``other`` knows ``statement`` from this persona (told it, or heard it from them)."""
        self._told[other] = (*self._told.get(other, ()), statement)

    @_changes
    def says_to(self, other: str, day: str, line: str) -> None:
        """This persona said ``line`` to ``other`` on game day ``day`` ("YYYY-MM-DD"); an earlier
        day's lines are forgotten."""
        held = self._said.get(other)
        lines = held[1] if held is not None and held[0] == day else ()
        self._said[other] = (day, (*lines, line))

    def said_today(self, other: str, day: str) -> tuple[str, ...]:
        """The lines said to ``other`` on game day ``day`` ("YYYY-MM-DD"), in order."""
        held = self._said.get(other)
        return held[1] if held is not None and held[0] == day else ()

    # ------------------------------------------------------------------ state
    def get_state(self) -> dict[str, Any]:
        """JSON-able state, without the memory stream (snapshotted separately)."""
        return {
            "x": self.x, "y": self.y,
            "action": None if self.action is None else asdict(self.action),
            "path": [list(p) for p in self.path],
            "steps": [asdict(s) for s in self.steps],
            "plan": [b.to_dict() for b in self.plan],
            "plan_date": self.plan_date,
            "conversation": self.conversation,
            "cooldown": dict(self._cooldown),
            "importance_acc": self.importance_acc,
            "observed": dict(self._observed),
            "speech": self.speech,
            "needs_replan": self.needs_replan,
            "pending": None if self.pending is None else asdict(self.pending),
            "procedures": None if self.procedures is None else self.procedures.get_state(),
            "told": {k: list(v) for k, v in self._told.items()},
            "said": {k: [day, list(lines)] for k, (day, lines) in self._said.items()},
            # only while some wait: a run that rates at once keeps the state it always had
            **({"unrated": [dict(m) for m in self.unrated]} if self.unrated else {}),
        }

    @_changes
    def set_state(self, state: dict[str, Any]) -> None:
        """Restore from :meth:`get_state` output."""
        self.x, self.y = int(state["x"]), int(state["y"])
        self.action = None if state["action"] is None else Action(**state["action"])
        self.path = tuple((int(x), int(y)) for x, y in state["path"])
        self.steps = tuple(Step(**s) for s in state["steps"])
        self.plan = tuple(PlanBlock.from_dict(b) for b in state["plan"])
        self.plan_date = state["plan_date"]
        self.conversation = state["conversation"]
        self._cooldown.clear()
        self._cooldown.update({k: int(v) for k, v in state["cooldown"].items()})
        self.importance_acc = int(state["importance_acc"])
        self.unrated = tuple(MappingProxyType(dict(m)) for m in state.get("unrated", ()))  # none before deferral
        self._observed.clear()
        self._observed.update(state["observed"])
        self.speech = state["speech"]
        self.needs_replan = bool(state["needs_replan"])
        self.pending = None if state["pending"] is None else Step(**state["pending"])
        if self.procedures is not None and state.get("procedures") is not None:
            self.procedures.set_state(state["procedures"])
        self._told.clear()
        self._told.update({k: tuple(v) for k, v in state["told"].items()})
        self._said.clear()  # a run recorded before lines were kept holds none
        self._said.update({k: (str(day), tuple(lines)) for k, (day, lines) in state.get("said", {}).items()})
