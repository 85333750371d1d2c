"""Decide whether to start a conversation with a perceived persona (Park et al. 2023 §4.3.2)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from pydantic import BaseModel

from ..views import MemoryView
from .base import Question
from .character import as_itself, declines_in_character
from .checks import own_words
from .sense import REASON_PATTERN, not_copied

__all__ = ["TalkAnswer", "DecideToTalk"]


class TalkAnswer(BaseModel):
    """Whether to start a conversation, and why."""

    talk: bool
    reason: str = ""


@dataclass(frozen=True, kw_only=True)
class DecideToTalk(Question[TalkAnswer]):
    """Decide whether to start a conversation with a perceived persona (§4.3.2).

    ``invited`` is True when the other persona asked to talk and this one decides whether to
    accept; ``memories`` are the retrieved memories not yet told to the other persona; ``now``
    is the game time ("YYYY-MM-DD HH:MM:SS").
    """

    template: ClassVar[str] = "decide_to_talk"
    answer_model = TalkAnswer
    purpose: ClassVar[str] = "react"
    checks = (own_words, declines_in_character, as_itself, not_copied)
    other: str
    other_name: str
    other_action: str
    own_action: str
    relationship: str = ""
    memories: tuple[MemoryView, ...] = ()
    invited: bool = False
    now: str = ""

    def narrow(self, schema: dict[str, Any]) -> None:
        """The reason is a few words (:data:`.sense.REASON_PATTERN`)."""
        schema["properties"]["reason"]["pattern"] = REASON_PATTERN
