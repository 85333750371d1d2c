"""Name a reusable procedure made of a task's verified steps (Voyager, Wang et al. 2023; docs/design, §2)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, ClassVar

from pydantic import BaseModel, Field

from ...inflection import base_form
from ..words import PLACE_WORDS, content_words
from .base import Question
from .checks import InvalidAnswer, own_words
from .writing import PARAMETER as _PARAMETER

__all__ = ["ProcedureAnswer", "GeneraliseProcedure", "names_a_task", "names_its_task",
           "no_address", "one_of_the_choices", "SENSE"]

class ProcedureAnswer(BaseModel):
    """A procedure's name and when it applies, each one of the question's :meth:`~GeneraliseProcedure.choices`
    (concrete words: :mod:`town.mind.practice.learn` writes ``{parameters}`` for the values).

    The steps are not asked for: a procedure keeps exactly the steps the world verified,
    generalised by substitution (:func:`town.procedures.generalise_steps`), so a model writing
    them again could only copy them or get them wrong (SmolLM2 did both, and ran out of tokens).
    """

    name: str = Field(min_length=1, max_length=120)
    when: str = Field(min_length=1, max_length=300)




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
    known = content_words(" ".join([*places, q.persona_name]).replace("_", " ")) | PLACE_WORDS
    for field in ("name", "when"):
        text = getattr(a, field)
        if not content_words(_PARAMETER.sub(" ", text).replace(":", " ")) - known:
            raise InvalidAnswer(f"{field}: {text[:60]!r} names a place or a placeholder, not a task")
    return a


def _stems(text: str) -> set[str]:
    """Base forms of the topic words of ``text`` ("showering" -> "shower"), and each word's first
    five letters ("setup", "set up" aside), so "shower" meets "showers" and "showering"."""
    words = content_words(_PARAMETER.sub(" ", text).replace("_", " "))
    return {w for word in words for w in (base_form(word), word[:5])}


def names_its_task(q: GeneraliseProcedure, a: ProcedureAnswer, prompt: str) -> ProcedureAnswer:
    """The name shares a word (its base form) with the task or one of its steps: "Living Room
    Setup" is no name for taking a shower, and another persona would follow it at her sink.

    Raises:
        InvalidAnswer: naming the name and the task.
    """
    done = _stems(" ".join([q.task, *(str(s.get("description", "")) for s in q.steps)]))
    if not (_stems(a.name) - _stems(" ".join(PLACE_WORDS))) & done:
        raise InvalidAnswer(f"name: {a.name[:60]!r} does not name the task {q.task[:60]!r}")
    return a


#: Parts of an address a text may hold before it holds the address ("common room", "dining table").
ADDRESS_PARTS = 2


def no_address(q: GeneraliseProcedure, a: ProcedureAnswer, prompt: str) -> ProcedureAnswer:
    """Neither the name nor ``when`` writes out an address shown (its place or a parameter's value):
    two or more of its parts the task does not name, however joined ("the village-Dorm for Oak
    Hill College, common room-dining table"); a procedure that holds one fits one place only, and
    others read it as their condition.

    Raises:
        InvalidAnswer: naming the field and its text.
    """
    parts = {part.replace("_", " ").lower() for address in (q.place, *(v for _, v in q.parameters))
             if address.count(":") for part in address.split(":")[1:] if len(part) >= 3}
    def holds(text: str, part: str) -> bool:
        return f" {re.sub(r'[^a-z]+', ' ', part).strip()} " in f" {re.sub(r'[^a-z]+', ' ', text.lower())} "

    parts = {part for part in parts if not holds(q.task, part)}  # as the task names them: "the garden of Johnson Park"
    for field in ("name", "when"):
        held = [part for part in parts if holds(getattr(a, field), part)]
        if len(held) >= ADDRESS_PARTS:
            raise InvalidAnswer(f"{field}: {getattr(a, field)[:60]!r} holds an address ({', '.join(sorted(held))})")
    return a


#: What a procedure's name and condition must be, whoever wrote them: the checks a stored
#: procedure passes before it is shared (:func:`town.mind.practice.learn.share`).
SENSE = (own_words, names_a_task, names_its_task, no_address)


def one_of_the_choices(q: GeneraliseProcedure, a: ProcedureAnswer, prompt: str) -> ProcedureAnswer:
    """The name and ``when`` are each one of :meth:`GeneraliseProcedure.choices` (as listed, any
    case), resolved to it: a server that does not hold the answer to the schema's enum may still
    write a title of its own ("The City of Ember" for getting ready).

    Raises:
        InvalidAnswer: naming the field and its text.
    """
    choices = q.choices()
    picked = {}
    for field in ("name", "when"):
        text = getattr(a, field)
        found = next((c for c in choices if c.lower() == text.strip().lower()), None)
        if found is None:
            raise InvalidAnswer(f"{field}: {text[:60]!r} is not one of the listed titles")
        picked[field] = found
    return a.model_copy(update=picked)


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
    checks = (one_of_the_choices, *SENSE)
    task: str
    place: str
    steps: tuple[dict, ...]
    parameters: tuple[tuple[str, str], ...]

    def choices(self) -> tuple[str, ...]:
        """The titles offered for the name and the kind of task: the task in its own words, then
        each step's description (its trailing "(task)" left out), once each, those the checks
        accept; ``(task,)`` when they accept none. A model chooses one for each field instead of
        writing one: SmolLM2-135M, asked for a title of its own, named getting ready "The City
        of Ember" four times in four, and a 0.5B model named a shower "Living Room Setup"."""
        seen: dict[str, str] = {}
        for text in (self.task, *(str(s.get("description", "")) for s in self.steps)):
            text = re.sub(r"\s*\([^()]*\)\s*$", "", text).strip()
            if text and text.lower() not in seen:
                seen[text.lower()] = text
        ok = []
        for text in seen.values():
            try:
                self.check(ProcedureAnswer(name=text, when=text), rules=SENSE)
            except InvalidAnswer:
                continue
            ok.append(text)
        return tuple(ok) or (self.task,)

    def context(self) -> dict:
        """The fields and :meth:`choices`, for the template."""
        return {**super().context(), "choices": self.choices()}

    def narrow(self, schema: dict[str, Any]) -> None:
        """The name and the kind of task are each one of :meth:`choices`."""
        for text in ("name", "when"):
            schema["properties"][text] = {"type": "string", "enum": list(self.choices())}
