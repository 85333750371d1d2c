"""Summarise a finished conversation in one sentence, from this persona's view."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, ClassVar

from pydantic import BaseModel, Field

from .base import Question
from .character import as_itself, tells_as_itself
from .checks import InvalidAnswer, own_words
from .sense import SUMMARY_PATTERN, not_copied

__all__ = ["SummaryAnswer", "SummariseConversation", "whole_sentence"]

#: Characters a summary's request allows (:data:`.sense.SUMMARY_PATTERN`'s bound).
SUMMARY_CHARS = 320
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
    checks = (own_words, whole_sentence, tells_as_itself, as_itself, not_copied)
    other_name: str
    history: tuple[tuple[str, str], ...]

    def narrow(self, schema: dict[str, Any]) -> None:
        """The summary is one sentence told as I (:data:`.sense.SUMMARY_PATTERN`), of up to 320
        characters: room to end it before the bound (at 160 SmolLM2's were cut there)."""
        summary = schema["properties"]["summary"]
        summary["maxLength"] = SUMMARY_CHARS
        summary["pattern"] = SUMMARY_PATTERN
