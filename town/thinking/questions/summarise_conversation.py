"""Summarise a finished conversation in one sentence, from this persona's view."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from pydantic import BaseModel, Field

from .base import Question

__all__ = ["SummaryAnswer", "SummariseConversation"]


class SummaryAnswer(BaseModel):
    """One-sentence summary of a conversation."""

    summary: str = Field(min_length=1, max_length=400)


@dataclass(frozen=True, kw_only=True)
class SummariseConversation(Question[SummaryAnswer]):
    """Summarise a finished conversation in one sentence, from this persona's view."""

    template: ClassVar[str] = "summarise_conversation"
    answer_model = SummaryAnswer
    purpose: ClassVar[str] = "chat"
    other_name: str
    history: tuple[tuple[str, str], ...]
