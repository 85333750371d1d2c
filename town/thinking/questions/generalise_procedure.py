"""Name a reusable procedure made of a task's verified steps (Voyager, Wang et al. 2023; docs/design, §2)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from pydantic import BaseModel, Field

from .base import Question

__all__ = ["TITLE_PATTERN", "ProcedureAnswer", "GeneraliseProcedure"]

#: A procedure's name or kind of task: words, ``{parameters}``, ``'``, ``,`` and ``-``; no
#: addresses (``:``), times, digits, code or line breaks, which SmolLM2 wrote there.
TITLE_PATTERN = "^[A-Za-z{}' ,-]{1,80}$"


class ProcedureAnswer(BaseModel):
    """A generalised procedure's name and when it applies, with ``{parameters}`` for values.

    The steps are not asked for: a procedure keeps exactly the steps the world verified,
    generalised by substitution (:func:`town.procedures.generalise_steps`), so a model writing
    them again could only copy them or get them wrong (SmolLM2 did both, and ran out of tokens).
    """

    name: str = Field(min_length=1, max_length=120)
    when: str = Field(min_length=1, max_length=300)


@dataclass(frozen=True, kw_only=True)
class GeneraliseProcedure(Question[ProcedureAnswer]):
    """Name a reusable procedure made of a task's verified steps (Voyager, Wang et al. 2023).

    ``steps`` are the concrete steps carried out (dicts with description, object, minutes);
    ``parameters`` pairs each parameter name with the concrete value it replaces (e.g.
    ``("place", "the_ville:Hobbs Cafe:cafe:counter")``). The answer is the procedure's name and
    when it applies, with those values written as ``{name}``; the saved steps are the verified
    ones with the same substitution (:mod:`town.mind.practice.learn`).
    """

    template: ClassVar[str] = "generalise_procedure"
    answer_model = ProcedureAnswer
    purpose: ClassVar[str] = "generalise_procedure"  # procedural memory: no module of the paper's
    task: str
    place: str
    steps: tuple[dict, ...]
    parameters: tuple[tuple[str, str], ...]

    def narrow(self, schema: dict[str, Any]) -> None:
        """The name and the kind of task match :data:`TITLE_PATTERN`."""
        for text in ("name", "when"):
            schema["properties"][text] = {"type": "string", "pattern": TITLE_PATTERN}
