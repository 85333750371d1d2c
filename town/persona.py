"""A persona: identity from its file, its current state, and its memory stream.

State is private to the mind modules (``town.mind``) and converts to JSON with
:meth:`Persona.get_state` for snapshots; the memory stream has its own state.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from datetime import datetime
from typing import Any, SupportsInt

from .memory import MemoryStream
from .procedures import ProceduralMemory
from .scenario import PersonaSpec

__all__ = ["Action", "PlanBlock", "Step", "Persona"]


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
        decision: seq of the retrieval event that preceded the decision (0 if none); while that
            event is held back (personas deciding side by side), a ``town.mind.context.SeqRef``
            that ``int()`` turns into the seq once the event is published.
    """

    description: str
    address: str
    emoji: str
    start_tick: int
    end_tick: int
    kind: str = "do"
    task: str | None = None
    decision: SupportsInt = 0


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


@dataclass
class Persona:
    """Identity (``spec``, from the persona file), memory stream, and mutable state.

    Attributes:
        spec: the validated persona file.
        stream: the persona's memory stream (Park et al. 2023 §4.1).
        x, y: tile position.
        action: the current action, or None when the mind must decide.
        path: remaining tiles to walk, in order.
        steps: remaining steps of the current plan chunk.
        plan: today's plan blocks; ``plan_date`` its date (ISO) or "".
        conversation: id of the conversation the persona is in, or None.
        cooldown: other persona id -> tick before which they will not start another talk.
        importance_acc: summed importance since the last reflection (§4.2, threshold 150).
        observed: other persona id -> what was last seen of them, their action and its place
            (``town.mind.perceive.sighting``: changes only are observations); own id -> the
            last sentence written of one's own action.
        speech: the line spoken this tick (for the viewer), or None.
        needs_replan: set when something heard changes today's plan (react, §4.3.1).
        pending: the step the persona is walking to, started on arrival.
        procedures: the persona's procedural memory (docs/design, §2), or None (a player).
        told: persona id -> statements that persona knows from us (passed on to them, or
            heard from them): not told to them again.
    """

    spec: PersonaSpec
    stream: MemoryStream
    x: int = 0
    y: int = 0
    action: Action | None = None
    path: list[tuple[int, int]] = field(default_factory=list)
    steps: list[Step] = field(default_factory=list)
    plan: list[PlanBlock] = field(default_factory=list)
    plan_date: str = ""
    conversation: int | None = None
    cooldown: dict[str, int] = field(default_factory=dict)
    importance_acc: int = 0
    observed: dict[str, str] = field(default_factory=dict)
    speech: str | None = None
    needs_replan: bool = False
    pending: Step | None = None
    procedures: ProceduralMemory | None = None
    told: dict[str, list[str]] = field(default_factory=dict)

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
            "cooldown": dict(self.cooldown),
            "importance_acc": self.importance_acc,
            "observed": dict(self.observed),
            "speech": self.speech,
            "needs_replan": self.needs_replan,
            "pending": None if self.pending is None else asdict(self.pending),
            "procedures": None if self.procedures is None else self.procedures.get_state(),
            "told": {k: list(v) for k, v in self.told.items()},
        }

    def set_state(self, state: dict[str, Any]) -> None:
        """Restore from :meth:`get_state` output."""
        self.x, self.y = int(state["x"]), int(state["y"])
        self.action = None if state["action"] is None else Action(**state["action"])
        self.path = [tuple(p) for p in state["path"]]
        self.steps = [Step(**s) for s in state["steps"]]
        self.plan = [PlanBlock.from_dict(b) for b in state["plan"]]
        self.plan_date = state["plan_date"]
        self.conversation = state["conversation"]
        self.cooldown = {k: int(v) for k, v in state["cooldown"].items()}
        self.importance_acc = int(state["importance_acc"])
        self.observed = dict(state["observed"])
        self.speech = state["speech"]
        self.needs_replan = bool(state["needs_replan"])
        self.pending = None if state["pending"] is None else Step(**state["pending"])
        if self.procedures is not None and state.get("procedures") is not None:
            self.procedures.set_state(state["procedures"])
        self.told = {k: list(v) for k, v in state["told"].items()}
