"""Rate several new memories 1-10 in one request, a list in and a list out (Park et al. 2023 §4.1)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from pydantic import BaseModel, Field

from .base import Question
from .checks import InvalidAnswer, own_words

__all__ = ["MAX_RATINGS", "ImportancesAnswer", "RateImportances", "one_rating_each"]

#: The most memories one :class:`ImportancesAnswer` rates (a longer list is asked in parts).
MAX_RATINGS = 40


class ImportancesAnswer(BaseModel):
    """Poignancy 1-10 of each memory of a list, in the list's order (Park et al. 2023 §4.1)."""

    ratings: list[int] = Field(min_length=1, max_length=MAX_RATINGS)


def one_rating_each(q: RateImportances, a: ImportancesAnswer, prompt: str) -> ImportancesAnswer:
    """One 1-10 rating for each memory of the list."""
    if len(a.ratings) != len(q.items) or not all(1 <= r <= 10 for r in a.ratings):
        raise InvalidAnswer(f"ratings: {a.ratings} is not one 1-10 rating for each of the "
                            f"{len(q.items)} memories")
    return a


@dataclass(frozen=True, kw_only=True)
class RateImportances(Question[ImportancesAnswer]):
    """Rate the poignancy of several new memories 1-10 in one request: a list in, a list out.

    ``items`` are (kind, content) pairs; the answer's ``ratings`` follow their order. One
    request per batch of memories written together, instead of one per memory (§4.1's prompt,
    :class:`~.rate_importance.RateImportance`, stays available by configuration).
    """

    template: ClassVar[str] = "rate_importances"
    answer_model = ImportancesAnswer
    purpose: ClassVar[str] = "importance"
    checks = (own_words, one_rating_each)
    items: tuple[tuple[str, str], ...]

    def narrow(self, schema: dict[str, Any]) -> None:
        """Exactly one 1-10 rating per memory."""
        ratings = schema["properties"]["ratings"]
        ratings["items"] = {"type": "integer", "enum": list(range(1, 11))}
        ratings["minItems"] = ratings["maxItems"] = len(self.items)
