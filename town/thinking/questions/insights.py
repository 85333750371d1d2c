"""Draw insights about a focal point, each citing evidence memory ids (Park et al. 2023 §4.2)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from pydantic import BaseModel, Field

from ..schema import ids_among
from ..views import MemoryView
from .base import Question
from .checks import ids_shown, own_words
from .sense import not_copied

__all__ = ["InsightAnswer", "InsightsAnswer", "Insights", "evidence_shown"]


class InsightAnswer(BaseModel):
    """One insight and the memory ids it rests on."""

    text: str = Field(min_length=1, max_length=400)
    evidence: list[int] = Field(min_length=1)


class InsightsAnswer(BaseModel):
    """Insights drawn from retrieved memories (Park et al. 2023 §4.2)."""

    insights: list[InsightAnswer] = Field(min_length=1, max_length=5)


def evidence_shown(q: Insights, a: InsightsAnswer, prompt: str) -> InsightsAnswer:
    """Each insight's evidence is among the memories shown."""
    shown = {m.id for m in q.memories}
    for i, insight in enumerate(a.insights):
        ids_shown(insight.evidence, shown, f"insights[{i}].evidence")
    return a


@dataclass(frozen=True, kw_only=True)
class Insights(Question[InsightsAnswer]):
    """Draw insights about a focal point, each citing evidence memory ids (§4.2).

    ``people``: the names of the town's personas; ``places``: the map's sector and arena addresses
    (to recognise them in the text); ``now``: the game time ("YYYY-MM-DD HH:MM:SS"); ``ties``: the
    persona file's relationships, (full name, description: "my son, who studies music theory");
    ``home``: the sector of the persona's home ("Artist's co-living space").
    """

    template: ClassVar[str] = "insights"
    answer_model = InsightsAnswer
    purpose: ClassVar[str] = "reflect"
    checks = (own_words, evidence_shown, not_copied)
    focal_point: str
    memories: tuple[MemoryView, ...]
    n: int = 2
    people: tuple[str, ...] = ()
    places: tuple[str, ...] = ()
    now: str = ""
    ties: tuple[tuple[str, str], ...] = ()
    home: str = ""

    def narrow(self, schema: dict[str, Any]) -> None:
        """Evidence cites the memories shown."""
        ids_among(schema["properties"]["insights"]["items"]["properties"]["evidence"],
                  [m.id for m in self.memories])
