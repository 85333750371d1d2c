"""A question the mind asks: what it shows, the answer it wants, and the rules that answer obeys.

A question is a frozen dataclass holding everything needed to answer it (no back-references into
the simulation), so any backend can answer it: the scripted rules, or a language model that
renders the question's Jinja2 template (``prompts/<template>.j2``) and returns JSON validated
against ``answer_model``. ``Question[A]`` is answered by an ``A``: ``backend.ask(PlanDay(...))``
is a ``DayPlanAnswer``. ``seed`` makes scripted answers deterministic per question.

Each question type carries its own rules, in its own module:

- ``answer_model``: the pydantic model of ``A`` (field limits are the schema's bounds);
- :meth:`Question.narrow`: the answer's JSON schema narrowed to this request (the offered
  places, objects and memory ids as enums), so a server decoding under it can only produce an
  answer the checks accept;
- ``checks``: the answer checks, run in order by :meth:`Question.check`
  (:mod:`.checks`: each names itself in the rejection it makes), then those every question
  runs on its free text (:data:`.writing.WRITING`: labels, another language, filler);
- ``purpose``: the decision it serves, the ``purpose`` of its MODEL_CALL events.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, replace
from typing import Any, ClassVar, Generic, TypeVar, cast

from pydantic import BaseModel

from ..schema import model_schema
from .checks import AnswerCheck, InvalidAnswer, own_words
from .writing import WRITING

__all__ = ["A", "Question"]

#: The answer model of a question.
A = TypeVar("A", bound=BaseModel)


@dataclass(frozen=True, kw_only=True)
class Question(Generic[A]):
    """Base of all questions; ``A`` is the answer's type (the subclass's ``answer_model``).

    Attributes:
        persona: persona id asking (for accounting and the prompt).
        persona_name: full name.
        persona_summary: identity in one paragraph (traits, background, lifestyle).
        seed: integer seed that makes the scripted answer deterministic.
    """

    #: The prompt template's name (``prompts/<template>.j2``) and the schema's title.
    template: ClassVar[str] = ""
    #: The pydantic model of ``A``.
    answer_model: ClassVar[type[BaseModel]]
    #: The decision the question serves (Park et al. 2023's modules: importance, plan, act, ...).
    purpose: ClassVar[str] = ""
    #: The answer checks, in the order they run; the first one to reject names itself.
    checks: ClassVar[tuple[AnswerCheck, ...]] = (own_words,)
    persona: str
    persona_name: str
    persona_summary: str = ""
    seed: int = 0

    def context(self) -> dict:
        """The fields as a dict, for rendering the question's template."""
        return asdict(self)

    def fewer_memories(self) -> Question[A] | None:
        """This question with its lowest-scored memory left out (the last of ``memories``, which
        come best first), or None when it shows none: a prompt over its budget drops them one by
        one (``ModelBackend.fitted``)."""
        memories = getattr(self, "memories", ())
        return replace(self, memories=memories[:-1]) if memories else None  # type: ignore[call-arg]

    def narrow(self, schema: dict[str, Any]) -> None:
        """Narrow ``schema`` (the answer model's, in the portable subset) to this request, in
        place. Default: nothing to narrow."""

    def answer_schema(self) -> dict[str, Any]:
        """The JSON schema of this request's answer: the answer model's, titled with the
        template, narrowed by :meth:`narrow`."""
        schema = model_schema(self.answer_model)
        schema["title"] = self.template
        self.narrow(schema)
        return schema

    def check(self, answer: A, prompt: str = "", rules: tuple[AnswerCheck, ...] | None = None) -> A:
        """Run ``checks`` (or ``rules``) in order, then :data:`.writing.WRITING`; the answer with
        names resolved to the full options.

        ``prompt`` is the rendered prompt (to reject echoes of it).

        Raises:
            InvalidAnswer: from the first check that rejects, its ``check`` the check's name.
        """
        for rule in (*(self.checks if rules is None else rules), *WRITING):
            try:
                answer = cast(A, rule(self, answer, prompt))  # a check returns the answer's model
            except InvalidAnswer as exc:
                exc.check = exc.check or rule.__name__
                raise
        return answer
