"""An episode: one attempt at a task, tracked step by step and verified by the world at the end.

The world verifies each step as it starts (place reachable and open, object present and free);
at the end the task's goal condition is checked: every planned step was carried out, in order,
at the intended place (docs/design, §2). Only a verified success may be saved as a procedure.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, replace
from typing import Any

from ..world.address import is_within

__all__ = ["Episode", "Outcome", "StepFailure"]


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

    def next_planned(self) -> dict[str, Any] | None:
        """The next planned step not yet carried out, or None."""
        return self.planned[self.done] if self.done < len(self.planned) else None

    def step_done(self, description: str, obj: str) -> Episode:
        """The episode after a step started at its place; counts it if it is the next planned one."""
        nxt = self.next_planned()
        if nxt is not None and nxt["description"] == description and nxt["object"] == obj:
            return replace(self, done=self.done + 1)
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
        return Outcome.SUCCESS, f"all {len(self.planned)} steps carried out at {self.place}"

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
        }

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Episode:
        """Inverse of :meth:`to_dict`."""
        return cls(**{**d, "planned": tuple(dict(s) for s in d["planned"])})
