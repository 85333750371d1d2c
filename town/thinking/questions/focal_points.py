"""Pick the salient high-level questions over recent memories (Park et al. 2023 §4.2)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from pydantic import BaseModel, Field

from ..views import MemoryView
from .base import Question
from .checks import own_words
from .sense import not_copied

__all__ = ["FocalPointsAnswer", "FocalPoints"]


class FocalPointsAnswer(BaseModel):
    """High-level questions to reflect on (Park et al. 2023 §4.2)."""

    questions: list[str] = Field(min_length=1, max_length=5)


@dataclass(frozen=True, kw_only=True)
class FocalPoints(Question[FocalPointsAnswer]):
    """Pick the salient high-level questions over recent memories (§4.2).

    ``people`` are the names of the personas this one knows of (to recognise them in the text).
    """

    template: ClassVar[str] = "focal_points"
    answer_model = FocalPointsAnswer
    purpose: ClassVar[str] = "reflect"
    checks = (own_words, not_copied)
    memories: tuple[MemoryView, ...]
    n: int = 3
    people: tuple[str, ...] = ()
