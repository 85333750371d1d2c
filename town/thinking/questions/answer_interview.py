"""Answer an interviewer's question from retrieved memories (Park et al. 2023 §6.1)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, ClassVar

from pydantic import BaseModel, Field

from ..views import MemoryView, PlanItemView
from .base import Question
from .character import as_itself, in_first_person, keeps_to_the_persona
from .checks import own_words
from .sense import ANSWER_PATTERN
from .writing import whole_sentences

__all__ = ["SENTENCES", "InterviewAnswer", "AnswerInterview", "in_sentences"]

#: Sentences an interview answer holds at most (the prompt asks for one to three).
SENTENCES = 3


class InterviewAnswer(BaseModel):
    """An interview answer in the persona's voice; ``evidence``: ids of the memories it used.

    ``evidence`` is optional (a model is not asked for it: the request's shape leaves it out).
    ``answer`` is bounded in sentences, as the prompt asks (one to three): a model's keeps its
    first :data:`SENTENCES` whole sentences (:func:`in_sentences`).
    """

    answer: str = Field(min_length=1, max_length=1000, json_schema_extra={"sentences": SENTENCES})
    evidence: list[int] | None = None


def in_sentences(q: AnswerInterview, a: InterviewAnswer, prompt: str) -> InterviewAnswer:
    """The answer's first :data:`SENTENCES` whole sentences (a part cut off after them left out)."""
    return a.model_copy(update={"answer": whole_sentences(a.answer, SENTENCES)})


@dataclass(frozen=True, kw_only=True)
class AnswerInterview(Question[InterviewAnswer]):
    """Answer an interviewer's question from retrieved memories (Park et al. 2023 §6.1).

    ``now`` is the game time asked at ("YYYY-MM-DD HH:MM:SS"; empty: unknown), ``routine`` the
    persona file's routine, ``people`` the names of the town's personas (to recognise them),
    ``ties`` the persona file's relationships, ``pronouns`` the people's pronouns.
    """

    template: ClassVar[str] = "answer_interview"
    answer_model = InterviewAnswer
    purpose: ClassVar[str] = "interview"
    checks = (own_words, in_sentences, in_first_person, as_itself, keeps_to_the_persona)
    question: str
    memories: tuple[MemoryView, ...] = ()
    now: str = ""
    routine: tuple[PlanItemView, ...] = ()
    people: tuple[str, ...] = ()
    #: (full name, the persona file's description of them: "my husband, who runs the pharmacy counter").
    ties: tuple[tuple[str, str], ...] = ()
    #: (full name, its file's pronoun: "she", "he", "they"), for retelling what one told of oneself.
    pronouns: tuple[tuple[str, str], ...] = ()
    extra: dict = field(default_factory=dict)

    def narrow(self, schema: dict[str, Any]) -> None:
        """The answer is whole sentences of words (:data:`.sense.ANSWER_PATTERN`)."""
        schema["properties"]["answer"]["pattern"] = ANSWER_PATTERN
