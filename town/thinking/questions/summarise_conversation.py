"""Summarise a finished conversation in one sentence, from this persona's view."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import ClassVar

from pydantic import BaseModel, Field

from .base import Question
from .character import tells_as_itself
from .checks import InvalidAnswer, own_words
from .sense import not_copied

__all__ = ["SummaryAnswer", "SummariseConversation", "whole_sentence"]

#: The end of a sentence: ".", "!" or "?", perhaps inside quotes or brackets.
_ENDED = re.compile(r"[.!?][\"'”’)\]]*\s*$")


class SummaryAnswer(BaseModel):
    """One-sentence summary of a conversation."""

    summary: str = Field(min_length=1, max_length=400)


def whole_sentence(q: SummariseConversation, a: SummaryAnswer, prompt: str) -> SummaryAnswer:
    """The summary ends as a sentence ends, not cut off half-way ("... This involves analyzing
    how urban life")."""
    if not _ENDED.search(a.summary):
        raise InvalidAnswer(f"summary: {a.summary[-60:]!r} is cut off: it does not end a sentence")
    return a


@dataclass(frozen=True, kw_only=True)
class SummariseConversation(Question[SummaryAnswer]):
    """Summarise a finished conversation in one sentence, from this persona's view."""

    template: ClassVar[str] = "summarise_conversation"
    answer_model = SummaryAnswer
    purpose: ClassVar[str] = "chat"
    checks = (own_words, whole_sentence, tells_as_itself, not_copied)
    other_name: str
    history: tuple[tuple[str, str], ...]
