"""Rate one memory's poignancy 1-10 (Park et al. 2023 §4.1): the question and its answer."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from pydantic import BaseModel, Field

from .base import Question

__all__ = ["ImportanceAnswer", "RateImportance"]


class ImportanceAnswer(BaseModel):
    """Poignancy 1-10 (Park et al. 2023 §4.1)."""

    importance: int = Field(ge=1, le=10)


@dataclass(frozen=True, kw_only=True)
class RateImportance(Question[ImportanceAnswer]):
    """Rate the poignancy of a memory 1-10 (routine 1-3, social plans and news 5-8)."""

    template: ClassVar[str] = "rate_importance"
    answer_model = ImportanceAnswer
    purpose: ClassVar[str] = "importance"
    content: str
    kind: str
