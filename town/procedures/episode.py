"""An episode: one attempt at a task, tracked step by step and verified by the world at the end.

The world verifies each step as it starts (place reachable and open, object present and free);
at the end the task's goal condition is checked: every planned step was carried out, in order,
at the intended place, and the task's own goal (a :class:`Goal` from the persona file's routine,
e.g. "a stove used for at least 10 minutes") held in the world (docs/design, §2). Only a verified
success may be saved as a procedure.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field, replace
from typing import Any

from ..world.address import is_within

__all__ = ["Episode", "Goal", "Outcome", "StepFailure"]


class Outcome(str, enum.Enum):
    """How an episode ended."""

    SUCCESS = "success"  # every step executable and the goal condition held
    FAILURE = "failure"  # a step could not be carried out (counts against a followed procedure)
    UNVERIFIED = "unverified"  # no step failed but the goal condition did not hold (not counted)


class StepFailure(str, enum.Enum):
    """Why the world refused a step."""

    UNREACHABLE = "unreachable"  # no walking path to it
    CLOSED = "closed"  # its place is closed
    MISSING = "missing"  # the object is not on the map
    BUSY = "busy"  # the object is used by others up to its capacity


@dataclass(frozen=True, kw_only=True)
class Goal:
    """A task's goal condition the world checks: an object of a kind used long enough.

    Attributes:
        uses: the object's name, the last part of its address (e.g. "stove", "grocery shelf").
        minutes: least game minutes of carried-out steps at such an object (>= 1). A step counts
            with its planned minutes once it has started there (one cut short by a conversation
            still counts whole).
    """

    uses: str
    minutes: int

    def check(self, used: dict[str, int]) -> str | None:
        """None if ``used`` (object address -> game minutes) meets the goal, else why not."""
        got = sum(m for obj, m in used.items() if obj.rsplit(":", 1)[-1] == self.uses)
        if got >= self.minutes:
            return None
        return f"goal not met: {self.uses} used {got} of {self.minutes} minutes"

    def to_dict(self) -> dict[str, Any]:
        """``{"uses", "minutes"}``."""
        return {"uses": self.uses, "minutes": self.minutes}


@dataclass(frozen=True, kw_only=True)
class Episode:
    """One attempt at a task.

    Attributes:
        task: the plan block's task, e.g. "buy supplies".
        place: the intended place (the plan block's place, an address).
        values: parameter -> concrete value used (``persona``, ``home``, ``place``).
        planned: the concrete steps, each ``{"description", "object", "minutes"}``.
        done: how many planned steps have been carried out, in order.
        procedure: the procedure followed, or None when the backend decomposed the task.
        library: "persona" or "town": where the followed procedure lives (None if none).
        failure: ``{"step", "object", "reason"}`` of the step that failed, or None.
        start_tick: tick the episode began.
        goal: the task's goal condition, or None (only the steps are checked).
        used: object address -> game minutes of the steps carried out there.
        calls: ``(procedure, lo, hi)`` for each sub-procedure of a followed composite procedure:
            it covers ``planned[lo:hi]``.
    """

    task: str
    place: str
    values: dict[str, str]
    planned: tuple[dict[str, Any], ...]
    done: int = 0
    procedure: str | None = None
    library: str | None = None
    failure: dict[str, Any] | None = None
    start_tick: int = 0
    goal: Goal | None = None
    used: dict[str, int] = field(default_factory=dict)
    calls: tuple[tuple[str, int, int], ...] = ()

    def next_planned(self) -> dict[str, Any] | None:
        """The next planned step not yet carried out, or None."""
        return self.planned[self.done] if self.done < len(self.planned) else None

    def step_done(self, description: str, obj: str) -> Episode:
        """The episode after a step started at its place; counts it if it is the next planned one."""
        nxt = self.next_planned()
        if nxt is not None and nxt["description"] == description and nxt["object"] == obj:
            used = {**self.used, obj: self.used.get(obj, 0) + int(nxt["minutes"])}
            return replace(self, done=self.done + 1, used=used)
        return self

    def failed(self, description: str, obj: str, reason: StepFailure) -> Episode:
        """The episode after the world refused a step."""
        return replace(self, failure={"step": description, "object": obj, "reason": reason.value})

    def verify(self) -> tuple[Outcome, str]:
        """Check the goal condition: (outcome, reason in words)."""
        if self.failure is not None:
            f = self.failure
            return Outcome.FAILURE, f"step {f['step']!r} failed: {f['object']} is {f['reason']}"
        if self.done < len(self.planned):
            return Outcome.UNVERIFIED, f"{self.done} of {len(self.planned)} steps carried out"
        away = [s["object"] for s in self.planned if not is_within(s["object"], self.place)]
        if away:
            return (
                Outcome.UNVERIFIED,
                f"done away from the intended place {self.place} (at {away[0]})",
            )
        unmet = None if self.goal is None else self.goal.check(self.used)
        if unmet is not None:
            return Outcome.UNVERIFIED, unmet
        return Outcome.SUCCESS, f"all {len(self.planned)} steps carried out at {self.place}"

    def call_outcomes(self) -> list[tuple[str, Outcome]]:
        """How each sub-procedure of a followed composite fared, for feedback at both levels.

        A sub-procedure succeeds with the episode; when the episode failed it fails if the failed
        step is one of its own, succeeds if all its steps were done before, and is not judged if
        the failure came before it started. Nothing is judged for an unverified episode.
        """
        outcome, _ = self.verify()
        out = []
        for name, lo, hi in self.calls:
            if outcome is Outcome.SUCCESS or (outcome is Outcome.FAILURE and self.done >= hi):
                out.append((name, Outcome.SUCCESS))
            elif outcome is Outcome.FAILURE and lo <= self.done:
                out.append((name, Outcome.FAILURE))
        return out

    def to_dict(self) -> dict[str, Any]:
        """JSON-able dict."""
        return {
            "task": self.task,
            "place": self.place,
            "values": dict(self.values),
            "planned": [dict(s) for s in self.planned],
            "done": self.done,
            "procedure": self.procedure,
            "library": self.library,
            "failure": None if self.failure is None else dict(self.failure),
            "start_tick": self.start_tick,
            "goal": None if self.goal is None else self.goal.to_dict(),
            "used": dict(self.used),
            "calls": [list(c) for c in self.calls],
        }

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Episode:
        """Inverse of :meth:`to_dict`."""
        goal = d.get("goal")
        return cls(**{
            **d,
            "planned": tuple(dict(s) for s in d["planned"]),
            "goal": None if goal is None else Goal(**goal),
            "used": dict(d.get("used", {})),
            "calls": tuple((str(n), int(lo), int(hi)) for n, lo, hi in d.get("calls", ())),
        })
