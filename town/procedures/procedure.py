"""The procedure value object of procedural memory (docs/design, §2; after Voyager, Wang et al. 2023).

A procedure says *how* to do something: a ``when`` text (what is embedded and matched against a
task), ordered steps whose texts hold ``{parameter}`` templates, and its track record
(successes, failures) from which the Laplace-smoothed reliability follows. A step may name
another procedure instead of an action (composition).
"""

from __future__ import annotations

import enum
import re
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Any

from ..errors import ProcedureError

__all__ = [
    "ProcedureError",
    "ProcedureStatus",
    "ProcedureStep",
    "Procedure",
    "laplace_reliability",
    "parameters_of",
    "fill",
]

_PARAM = re.compile(r"\{([a-z_][a-z0-9_]*)\}")


class ProcedureStatus(str, enum.Enum):
    """Where a procedure stands for retrieval (docs/design, §2)."""

    ACTIVE = "active"  # reliability >= the retrieval threshold
    BELOW_THRESHOLD = "below threshold"  # kept, not retrieved until it recovers
    PRUNED = "pruned"  # marked by a pruning rule, kept for the record, never retrieved


def laplace_reliability(successes: int, failures: int) -> float:
    """``(successes + 1) / (successes + failures + 2)``: Laplace's rule of succession.

    A procedure never used scores 1/2; one saved from a verified success (1, 0) scores 2/3.

    Raises:
        ProcedureError: for a negative count.
    """
    if successes < 0 or failures < 0:
        raise ProcedureError(f"successes/failures must be >= 0, got {successes}/{failures}")
    return (successes + 1) / (successes + failures + 2)


def parameters_of(text: str) -> set[str]:
    """The ``{parameter}`` names used in ``text``."""
    return set(_PARAM.findall(text))


def fill(text: str, values: dict[str, str]) -> str:
    """Replace each ``{parameter}`` in ``text`` by ``values[parameter]``.

    Raises:
        ProcedureError: naming the parameter that has no value.
    """

    def one(m: re.Match) -> str:
        if m.group(1) not in values:
            raise ProcedureError(f"no value for parameter {{{m.group(1)}}} in {text!r}")
        return values[m.group(1)]

    return _PARAM.sub(one, text)


def _require(ok: bool, fieldname: str, why: str) -> None:
    if not ok:
        raise ProcedureError(f"procedure field {fieldname!r}: {why}")


@dataclass(frozen=True, kw_only=True)
class ProcedureStep:
    """One step: an action (``description`` at ``object`` for ``minutes``) or a sub-procedure.

    Attributes:
        description: what to do, may hold ``{parameters}`` (e.g. "brew coffee at {place}").
        object: the object address template (e.g. "{place}", "{home}:kitchen:stove").
        minutes: game minutes the step takes (>= 1).
        procedure: name of another procedure to expand here instead (composition); when set,
            the other fields are empty/0.
    """

    description: str = ""
    object: str = ""
    minutes: int = 0
    procedure: str | None = None

    def __post_init__(self) -> None:
        if self.procedure is not None:
            _require(
                bool(self.procedure) and not (self.description or self.object or self.minutes),
                "steps[].procedure",
                "a step naming a procedure has no description/object/minutes",
            )
        else:
            _require(bool(self.description), "steps[].description", "must not be empty")
            _require(bool(self.object), "steps[].object", "must not be empty")
            _require(
                isinstance(self.minutes, int) and self.minutes >= 1,
                "steps[].minutes",
                f"must be an int >= 1, got {self.minutes!r}",
            )

    def parameters(self) -> set[str]:
        """The parameters this step's texts use (none for a sub-procedure step)."""
        return parameters_of(self.description) | parameters_of(self.object)

    def to_dict(self) -> dict[str, Any]:
        """JSON-able dict: ``{"procedure": name}`` or ``{"description", "object", "minutes"}``."""
        if self.procedure is not None:
            return {"procedure": self.procedure}
        return {"description": self.description, "object": self.object, "minutes": self.minutes}

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> ProcedureStep:
        """Inverse of :meth:`to_dict`.

        Raises:
            ProcedureError: for unknown keys or bad values.
        """
        unknown = set(d) - {"description", "object", "minutes", "procedure"}
        _require(not unknown, "steps[]", f"unknown keys {sorted(unknown)}")
        return cls(**d)


@dataclass(frozen=True, kw_only=True)
class Procedure:
    """A reusable way of doing a task (docs/design, §2).

    Attributes:
        name: unique within its library.
        when: when it applies; embedded and matched against tasks.
        steps: the ordered steps (at least one).
        successes: verified successful uses (1 when saved from a verified success).
        failures: failed uses.
        created: game datetime it was saved.
        last_used: game datetime of the last use (``created`` until first used).
        below_since: game datetime its reliability last fell below the retrieval threshold, or
            None while at or above it (pruning rule 3).
        pruned: the pruning rule that removed it (a :class:`~town.procedures.pruning.PruneRule`
            value), or None.
        pruned_at: game datetime it was pruned, or None.
    """

    name: str
    when: str
    steps: tuple[ProcedureStep, ...]
    successes: int = 1
    failures: int = 0
    created: datetime
    last_used: datetime
    below_since: datetime | None = None
    pruned: str | None = None
    pruned_at: datetime | None = None

    def __post_init__(self) -> None:
        _require(bool(self.name and self.name.strip()), "name", "must not be empty")
        _require(bool(self.when and self.when.strip()), "when", "must not be empty")
        _require(len(self.steps) >= 1, "steps", "needs at least one step")
        _require(
            all(isinstance(s, ProcedureStep) for s in self.steps),
            "steps",
            "must be ProcedureStep values",
        )
        _require(
            isinstance(self.successes, int) and self.successes >= 0,
            "successes",
            f"must be an int >= 0, got {self.successes!r}",
        )
        _require(
            isinstance(self.failures, int) and self.failures >= 0,
            "failures",
            f"must be an int >= 0, got {self.failures!r}",
        )

    @property
    def reliability(self) -> float:
        """Laplace-smoothed success rate, see :func:`laplace_reliability`."""
        return laplace_reliability(self.successes, self.failures)

    @property
    def uses(self) -> int:
        """Successes + failures."""
        return self.successes + self.failures

    def parameters(self) -> set[str]:
        """The parameters its own steps and ``when`` use (not those of sub-procedures)."""
        return set().union(parameters_of(self.when), *(s.parameters() for s in self.steps))

    def with_counts(self, *, successes: int, failures: int, **changes: Any) -> Procedure:
        """A copy with new counts (and any other field changes)."""
        return replace(self, successes=successes, failures=failures, **changes)

    def to_dict(self) -> dict[str, Any]:
        """JSON-able dict (datetimes ISO, ``reliability`` and ``uses`` included for readers)."""
        iso = lambda t: None if t is None else t.isoformat(sep=" ")  # noqa: E731
        return {
            "name": self.name,
            "when": self.when,
            "steps": [s.to_dict() for s in self.steps],
            "successes": self.successes,
            "failures": self.failures,
            "reliability": self.reliability,
            "uses": self.uses,
            "created": iso(self.created),
            "last_used": iso(self.last_used),
            "below_since": iso(self.below_since),
            "pruned": self.pruned,
            "pruned_at": iso(self.pruned_at),
        }

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Procedure:
        """Inverse of :meth:`to_dict` (derived keys ``reliability``/``uses`` are ignored).

        Raises:
            ProcedureError: for a missing field or a bad value, naming the field.
        """
        try:
            parse = lambda t: None if t is None else datetime.fromisoformat(t)  # noqa: E731
            return cls(
                name=d["name"],
                when=d["when"],
                steps=tuple(ProcedureStep.from_dict(s) for s in d["steps"]),
                successes=int(d["successes"]),
                failures=int(d["failures"]),
                created=datetime.fromisoformat(d["created"]),
                last_used=datetime.fromisoformat(d["last_used"]),
                below_since=parse(d.get("below_since")),
                pruned=d.get("pruned"),
                pruned_at=parse(d.get("pruned_at")),
            )
        except KeyError as e:
            raise ProcedureError(f"procedure field {e.args[0]!r}: missing") from None
        except (TypeError, ValueError) as e:
            if isinstance(e, ProcedureError):
                raise
            raise ProcedureError(f"procedure {d.get('name')!r}: {e}") from None
