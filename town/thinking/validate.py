"""Checks of a model's answer beyond its JSON schema: the town's places, objects and memory ids.

A language model can return well-formed JSON naming a place that does not exist, citing a memory
it was never shown, or a plan block ending at 27:90. Those answers are *invalid* exactly like
unparsable ones: the caller retries and, after N failures, falls back to the scripted answer.

A named place or object is accepted when it equals one of the question's options, ignoring case,
or is the unique option it ends with (``"cafe:counter"`` for
``"the_ville:Hobbs Cafe:cafe:counter"``); it is then replaced by the full option.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable

from pydantic import BaseModel, ValidationError

from ..errors import ThinkingError
from .questions import ChoosePlace, DecomposeTask, Insights, NextLine, PlanDay, Question

__all__ = ["InvalidAnswer", "parse_answer", "check_answer", "match_option"]


class InvalidAnswer(ThinkingError):
    """A model's answer is unparsable (``unparsable=True``) or fails its schema or domain check."""

    def __init__(self, reason: str, *, unparsable: bool = False):
        super().__init__(reason)
        self.unparsable = unparsable


_FENCE = re.compile(r"^```(?:json)?\s*|\s*```$", re.I)


def parse_answer(question: Question, text: str | None) -> BaseModel:
    """Parse a model's reply into ``type(question).answer_model`` and run the domain checks.

    Accepts the JSON object alone, inside a Markdown code fence, or surrounded by prose (the
    first ``{`` to the last ``}``).

    Raises:
        InvalidAnswer: unparsable (``unparsable=True``), schema-invalid or domain-invalid.
    """
    raw = _FENCE.sub("", (text or "").strip())
    start, end = raw.find("{"), raw.rfind("}")
    if start < 0 or end <= start:
        raise InvalidAnswer(f"no JSON object in the reply {raw[:80]!r}", unparsable=True)
    try:
        data = json.loads(raw[start : end + 1])
    except json.JSONDecodeError as exc:
        raise InvalidAnswer(f"unparsable JSON ({exc.msg} at {exc.pos})", unparsable=True) from exc
    try:
        answer = type(question).answer_model.model_validate(data)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"]) or "(root)"
        raise InvalidAnswer(f"schema: {where}: {first['msg']}") from exc
    return check_answer(question, answer)


def match_option(value: str, options: Iterable[str]) -> str | None:
    """The option ``value`` names (exact, case-insensitive, or unique ``:``-suffix), else None."""
    options = list(dict.fromkeys(options))
    low = value.strip().lower()
    exact = [o for o in options if o.lower() == low]
    if exact:
        return exact[0]
    tail = [o for o in options if o.lower().endswith(":" + low)]
    return tail[0] if len(tail) == 1 else None


def _minutes(hm: str, field: str) -> int:
    h, m = int(hm[:2]), int(hm[3:])
    if m >= 60 or h > 24 or (h == 24 and m):
        raise InvalidAnswer(f"{field}: {hm!r} is not a time of day 00:00-24:00")
    return h * 60 + m


def check_answer(question: Question, answer: BaseModel) -> BaseModel:
    """Domain-check ``answer`` to ``question``; returns it with names resolved to full options.

    Checks: PlanDay places among the routine and offered places, times 00:00-24:00 with
    start < end and no overlap; DecomposeTask objects among ``objects``; ChoosePlace among
    ``candidates``; NextLine ``shared`` and Insights ``evidence`` among the shown memory ids.

    Raises:
        InvalidAnswer: naming the field and the bad value.
    """
    if isinstance(question, PlanDay):
        places = [r.place for r in question.routine] + list(question.places)
        items, last_end = [], 0
        for i, item in enumerate(answer.items):
            place = match_option(item.place, places)
            if place is None:
                raise InvalidAnswer(f"items[{i}].place: {item.place!r} is not a place of this plan")
            start = _minutes(item.start, f"items[{i}].start")
            end = _minutes(item.end, f"items[{i}].end")
            if not start < end or start < last_end:
                raise InvalidAnswer(
                    f"items[{i}]: {item.start}-{item.end} is empty, reversed or "
                    "overlaps the block before"
                )
            last_end = end
            items.append(item.model_copy(update={"place": place}))
        return answer.model_copy(update={"items": items})
    if isinstance(question, DecomposeTask):
        objects = list(question.objects) or [question.place]
        steps = []
        for i, step in enumerate(answer.steps):
            obj = match_option(step.object, objects)
            if obj is None:
                raise InvalidAnswer(
                    f"steps[{i}].object: {step.object!r} is not an object at {question.place}"
                )
            steps.append(step.model_copy(update={"object": obj}))
        return answer.model_copy(update={"steps": steps})
    if isinstance(question, ChoosePlace):
        place = match_option(answer.place, question.candidates)
        if place is None:
            raise InvalidAnswer(f"place: {answer.place!r} is not one of the candidate places")
        return answer.model_copy(update={"place": place})
    if isinstance(question, NextLine):
        unknown = set(answer.shared) - {m.id for m in question.memories}
        if unknown:
            raise InvalidAnswer(f"shared: memory ids {sorted(unknown)} were not shown")
        return answer
    if isinstance(question, Insights):
        shown = {m.id for m in question.memories}
        for i, insight in enumerate(answer.insights):
            unknown = set(insight.evidence) - shown
            if unknown:
                raise InvalidAnswer(
                    f"insights[{i}].evidence: memory ids {sorted(unknown)} were not shown"
                )
        return answer
    return answer
