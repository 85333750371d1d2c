"""Without a plan (Park et al. 2023 §6.2's planning ablation): what to do now, for how long."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from ..schema import enum_at
from ..views import MemoryView, PlanItemView
from .base import Question
from .checks import InvalidAnswer, match_option, own_words
from .decompose_task import StepAnswer, step_minutes
from .sense import not_copied, plain_descriptions

__all__ = ["NextAction", "an_object_shown"]


def an_object_shown(q: NextAction, a: StepAnswer, prompt: str) -> StepAnswer:
    """The action uses one of the objects shown (resolved to its full address); its minutes are
    cut to ``max_minutes``."""
    obj = match_option(a.object, q.objects)
    if obj is None:
        raise InvalidAnswer(f"object: {a.object!r} is not one of the objects shown")
    return a.model_copy(update={"object": obj, "minutes": min(a.minutes, q.max_minutes)})


@dataclass(frozen=True, kw_only=True)
class NextAction(Question[StepAnswer]):
    """Without a plan (Park et al. 2023 §6.2's planning ablation): what to do now.

    For at most ``max_minutes``, from what the persona sees and the memories retrieved for
    "what should I do now?".

    ``habit`` is the persona file's routine entry for this hour (a person knows their habits),
    ``seen`` what it perceives ("Maria Lopez is eating lunch at ..."), ``objects`` the objects
    at the habit's place and at home, one of which the answer uses; ``workplaces`` the sectors
    it works at (:func:`town.world.objects.workplaces`: staff there, a guest elsewhere).
    """

    template: ClassVar[str] = "next_action"
    answer_model = StepAnswer
    purpose: ClassVar[str] = "act"
    checks = (own_words, an_object_shown, not_copied, plain_descriptions)
    now: str
    habit: PlanItemView
    seen: tuple[str, ...]
    objects: tuple[str, ...]
    max_minutes: int
    memories: tuple[MemoryView, ...] = ()
    workplaces: tuple[str, ...] = ()

    def narrow(self, schema: dict[str, Any]) -> None:
        """One of the objects shown, for :func:`~.decompose_task.step_minutes` of the time it
        may fill."""
        enum_at(schema, ("object",), list(self.objects))
        enum_at(schema, ("minutes",), step_minutes(self.max_minutes))
