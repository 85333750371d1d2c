"""Choose where to do a task when its usual place cannot be used: the question and its answer."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from pydantic import BaseModel, Field

from ..schema import enum_at
from .base import Question
from .checks import InvalidAnswer, match_option, own_words

__all__ = ["PlaceAnswer", "ChoosePlace", "a_candidate"]


class PlaceAnswer(BaseModel):
    """A chosen place (a full address)."""

    place: str = Field(min_length=1)


def a_candidate(q: ChoosePlace, a: PlaceAnswer, prompt: str) -> PlaceAnswer:
    """The place is one of the candidates (resolved to its full address)."""
    place = match_option(a.place, q.candidates)
    if place is None:
        raise InvalidAnswer(f"place: {a.place!r} is not one of the candidate places")
    return a.model_copy(update={"place": place})


@dataclass(frozen=True, kw_only=True)
class ChoosePlace(Question[PlaceAnswer]):
    """Choose where to do a task when its usual place cannot be used (e.g. it is closed)."""

    template: ClassVar[str] = "choose_place"
    answer_model = PlaceAnswer
    purpose: ClassVar[str] = "act"
    checks = (own_words, a_candidate)
    task: str
    usual_place: str
    reason: str
    candidates: tuple[str, ...]

    def narrow(self, schema: dict[str, Any]) -> None:
        """The place is one of the candidates."""
        enum_at(schema, ("place",), list(self.candidates))
