"""Name a reusable procedure made of a task's verified steps (Voyager, Wang et al. 2023; docs/design, §2)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, ClassVar

from pydantic import BaseModel, Field

from ..words import content_words
from .base import Question
from .checks import InvalidAnswer, own_words

__all__ = ["TITLE_PATTERN", "ProcedureAnswer", "GeneraliseProcedure", "names_a_task"]

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


#: A ``{parameter}`` written in a title.
_PARAMETER = re.compile(r"\{[^{}]*\}")
#: Words naming a kind of place rather than a task ("{persona}'s room").
_PLACE_WORDS = frozenset("room rooms home house apartment flat place area spot kitchen bedroom bathroom office "
                         "cafe shop store dorm".split())


def names_a_task(q: GeneraliseProcedure, a: ProcedureAnswer, prompt: str) -> ProcedureAnswer:
    """The name and ``when`` each say something of the task: a word besides ``{parameters}``, the
    names of its places (down to the room: an object's name may name a task, "study table") and
    of the persona, and words for a kind of place (not "{persona}",
    "{persona}'s room" or "Hobbs Cafe", which other personas would take from the town library).

    Raises:
        InvalidAnswer: naming the field and its text.
    """
    places = [address.rsplit(":", 1)[0] if address.count(":") > 1 else address  # not the object's name
              for address in (q.place, *(v for _, v in q.parameters))]
    known = content_words(" ".join([*places, q.persona_name]).replace("_", " ")) | _PLACE_WORDS
    for field in ("name", "when"):
        text = getattr(a, field)
        if not content_words(_PARAMETER.sub(" ", text).replace(":", " ")) - known:
            raise InvalidAnswer(f"{field}: {text[:60]!r} names a place or a placeholder, not a task")
    return a


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
    checks = (own_words, names_a_task)
    task: str
    place: str
    steps: tuple[dict, ...]
    parameters: tuple[tuple[str, str], ...]

    def narrow(self, schema: dict[str, Any]) -> None:
        """The name and the kind of task match :data:`TITLE_PATTERN`."""
        for text in ("name", "when"):
            schema["properties"][text] = {"type": "string", "pattern": TITLE_PATTERN}
