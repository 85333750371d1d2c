"""Checks of a model's answer beyond its JSON schema: the town's places, objects and memory ids.

A language model can return well-formed JSON naming a place that does not exist, citing a memory
it was never shown, or a plan block ending at 27:90. Those answers are *invalid* exactly like
unparsable ones: the caller retries and, after N failures, falls back to the scripted answer.

A named place or object is accepted when it equals one of the question's options, ignoring case,
or is the unique option it ends with (``"cafe:counter"`` for
``"the_ville:Hobbs Cafe:cafe:counter"``); it is then replaced by the full option.

Text a model wrote must be its own: placeholder or ellipsis text (``"..."``, ``"<one of the
objects>"``), a copy of one of the prompt's own instruction sentences, a chat line that only
recites a memory id (``"7: Klaus Mueller is ..."``), a field holding its own name (``"reason":
"reason"``), and memory ids ``shared`` on a line that says nothing are all invalid.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from typing import cast

from pydantic import BaseModel, ValidationError

from ..errors import ThinkingError
from ..text import text_problem
from .answers import (
    DayPlanAnswer,
    ImportancesAnswer,
    InsightsAnswer,
    LineAnswer,
    PlaceAnswer,
    PlanItemAnswer,
    StepAnswer,
    StepsAnswer,
)
from .questions import (
    A,
    ChoosePlace,
    DecomposeTask,
    Insights,
    NextAction,
    NextLine,
    PlanDay,
    Question,
    RateImportances,
)

__all__ = ["InvalidAnswer", "parse_answer", "check_answer", "match_option", "MAX_ANSWER_CHARS"]

#: Most characters of a model's reply text. The longest answer the answer models allow, a
#: decomposition of 24 steps with 200-character descriptions and their addresses, is about
#: 8,000 characters, and under 32,000 with every character of its text written as a ``\uXXXX``
#: escape; a longer reply is padding or a runaway, and invalid.
MAX_ANSWER_CHARS = 32768


class InvalidAnswer(ThinkingError):
    """A model's answer is unparsable (``unparsable=True``) or fails its schema or domain check."""

    def __init__(self, reason: str, *, unparsable: bool = False):
        super().__init__(reason)
        self.unparsable = unparsable


_FENCE = re.compile(r"^```(?:json)?\s*|\s*```$", re.I)


def parse_answer(question: Question[A], text: str | None, prompt: str = "") -> A:
    """Parse a model's reply into ``type(question).answer_model`` and run the domain checks.

    Accepts the JSON object alone, inside a Markdown code fence, or surrounded by prose (the
    first ``{`` to the last ``}``). ``prompt`` is the rendered prompt, to reject echoes of it.

    Raises:
        InvalidAnswer: unparsable (``unparsable=True``), schema-invalid or domain-invalid.
    """
    if text is not None and len(text) > MAX_ANSWER_CHARS:
        raise InvalidAnswer(f"a reply of {len(text)} characters (at most {MAX_ANSWER_CHARS})")
    _check_unicode(text or "", "the reply")
    raw = _FENCE.sub("", (text or "").strip())
    start, end = raw.find("{"), raw.rfind("}")
    if start < 0 or end <= start:
        raise InvalidAnswer(f"no JSON object in the reply {raw[:80]!r}", unparsable=True)
    try:
        data = json.loads(raw[start : end + 1], strict=False)  # a raw newline in a string is fine
    except json.JSONDecodeError as exc:
        raise InvalidAnswer(f"unparsable JSON ({exc.msg} at {exc.pos})", unparsable=True) from exc
    _check_unicode(json.dumps(data, ensure_ascii=False), "the answer")  # "\ud800" escapes decoded
    try:
        answer = cast(A, type(question).answer_model.model_validate(data))  # the model of A
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"]) or "(root)"
        raise InvalidAnswer(f"schema: {where}: {first['msg']}") from exc
    _check_texts(answer, prompt)
    return check_answer(question, answer)


def _check_unicode(text: str, what: str) -> None:
    """Refuse text that may not enter the town (:func:`town.text.text_problem`): a lone surrogate
    (from a ``\\ud800`` escape, or CESU bytes the JSON decoder let through), or a NUL.

    Raises:
        InvalidAnswer: naming ``what`` and the problem.
    """
    problem = text_problem(text)
    if problem is not None:
        raise InvalidAnswer(f"{what} {problem}")


#: Text that is no content: ellipses, "<...>" placeholders, "TODO", punctuation alone.
_PLACEHOLDER = re.compile(r"^\W*$|^\s*(\.\.\.|…)|<[^<>]*>|^\s*(todo|tbd|n/?a|none|string|text)\s*$", re.I)
#: A chat line opening with a memory id ("7: ...", "7. ...", "[7] ...").
_RECITED = re.compile(r"^\s*\[?\d+\]?\s*[:.)-]\s")
_WORDS = re.compile(r"[a-z0-9']+")
#: Fields holding one of the question's options (checked against them, not as free text).
_OPTION_FIELDS = frozenset({"place", "object", "start", "end"})


def _instructions(prompt: str) -> list[str]:
    """The prompt's own sentences (not its lists of memories, places or lines), normalised."""
    out = []
    for line in prompt.splitlines():
        if not line.strip() or line.lstrip().startswith("-") or re.match(r"^\s*\d+\.", line):
            continue
        for sentence in re.split(r"(?<=[.?!])\s+", line):
            words = _WORDS.findall(sentence.lower())
            if len(words) >= 5:
                out.append(" ".join(words))
    return out


def _texts(value, where: str, key: str = ""):
    """(where, field name, text) for every free-text string in an answer (a model dump)."""
    if isinstance(value, str):
        yield where, key, value
    elif isinstance(value, dict):
        for k, v in value.items():
            if k not in _OPTION_FIELDS:
                yield from _texts(v, f"{where}.{k}" if where else k, k)
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from _texts(v, f"{where}[{i}]", key)


def _check_texts(answer: BaseModel, prompt: str) -> None:
    """Reject placeholder text, a field's own name, and copies of the prompt's own sentences.

    A copy is a text of five or more words found inside one of the prompt's instruction
    sentences, or a text that opens with the prompt's opening sentence ("You are Isabella
    Rodriguez."), which addresses the persona and is never its answer.
    """
    sentences = _instructions(prompt)
    first = re.split(r"(?<=[.?!])\s", prompt.strip().split("\n", 1)[0], maxsplit=1)[0]
    opening = " ".join(_WORDS.findall(first.lower()))
    for where, key, text in _texts(answer.model_dump(mode="json"), ""):
        if _PLACEHOLDER.search(text) or text.strip(" .\"'").lower() == key.lower():
            raise InvalidAnswer(f"{where}: {text[:60]!r} is placeholder text, not an answer")
        if not re.search(r"[A-Za-z]{2}", text):
            raise InvalidAnswer(f"{where}: {text[:60]!r} holds no words")
        words = " ".join(_WORDS.findall(text.lower()))
        if len(words.split()) >= 5 and any(words in s for s in sentences):
            raise InvalidAnswer(f"{where}: {text[:60]!r} copies the prompt's instructions")
        if len(opening.split()) >= 3 and (words + " ").startswith(opening + " "):
            raise InvalidAnswer(f"{where}: {text[:60]!r} copies the prompt's opening")


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


def check_answer(question: Question[A], answer: A) -> A:
    """Domain-check ``answer`` to ``question``; returns it with names resolved to full options.

    Checks: PlanDay added blocks at routine or offered places, times 00:00-24:00 with start <
    end, dropped numbers among the routine's, a day left to live (added blocks that overlap are
    not an error: ``DayPlanAnswer.day`` applies them in time order, the later one cutting into
    the earlier, as it cuts into the routine);
    RateImportances one 1-10 rating per memory; NextLine lines that speak (no recited id, no
    ids shared by an empty line); DecomposeTask objects among ``objects``; ChoosePlace among
    ``candidates``; NextLine ``shared`` and Insights ``evidence`` among the shown memory ids.

    Raises:
        InvalidAnswer: naming the field and the bad value.
    """
    if isinstance(question, PlanDay) and isinstance(answer, DayPlanAnswer):
        places = question.offered()
        added: list[PlanItemAnswer] = []
        for i, item in enumerate(answer.add):
            place = match_option(item.place, places)
            if place is None:
                raise InvalidAnswer(f"add[{i}].place: {item.place!r} is not a place of this plan")
            start = _minutes(item.start, f"add[{i}].start")
            end = _minutes(item.end, f"add[{i}].end")
            if not start < end:
                raise InvalidAnswer(f"add[{i}]: {item.start}-{item.end} starts at the end of the day")
            added.append(item.model_copy(update={"place": place}))
        bad = [n for n in answer.drop if not 1 <= n <= len(question.routine)]
        if bad:
            raise InvalidAnswer(f"drop: {bad} are not routine block numbers 1-{len(question.routine)}")
        answer = answer.model_copy(update={"add": added})
        try:
            answer.day(question.routine)
        except ValueError as exc:
            raise InvalidAnswer(f"the plan is empty: {exc}") from None
        return answer
    if isinstance(question, RateImportances) and isinstance(answer, ImportancesAnswer):
        if len(answer.ratings) != len(question.items) or not all(1 <= r <= 10 for r in answer.ratings):
            raise InvalidAnswer(f"ratings: {answer.ratings} is not one 1-10 rating for each of the "
                                f"{len(question.items)} memories")
        return answer
    if isinstance(question, DecomposeTask) and isinstance(answer, StepsAnswer):
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
    if isinstance(question, NextAction) and isinstance(answer, StepAnswer):
        obj = match_option(answer.object, question.objects)
        if obj is None:
            raise InvalidAnswer(f"object: {answer.object!r} is not one of the objects shown")
        return answer.model_copy(update={"object": obj,
                                         "minutes": min(answer.minutes, question.max_minutes)})
    if isinstance(question, ChoosePlace) and isinstance(answer, PlaceAnswer):
        place = match_option(answer.place, question.candidates)
        if place is None:
            raise InvalidAnswer(f"place: {answer.place!r} is not one of the candidate places")
        return answer.model_copy(update={"place": place})
    if isinstance(question, NextLine) and isinstance(answer, LineAnswer):
        unknown = set(answer.shared) - {m.id for m in question.memories}
        if unknown:
            raise InvalidAnswer(f"shared: memory ids {sorted(unknown)} were not shown")
        if _RECITED.match(answer.line):
            raise InvalidAnswer(f"line: {answer.line[:60]!r} recites a memory id instead of speaking")
        if answer.shared and len(_WORDS.findall(answer.line.lower())) < 3:
            raise InvalidAnswer(f"shared: ids {answer.shared} on a line that says nothing ({answer.line!r})")
        return answer
    if isinstance(question, Insights) and isinstance(answer, InsightsAnswer):
        shown = {m.id for m in question.memories}
        for i, insight in enumerate(answer.insights):
            unknown = set(insight.evidence) - shown
            if unknown:
                raise InvalidAnswer(
                    f"insights[{i}].evidence: memory ids {sorted(unknown)} were not shown"
                )
        return answer
    return answer
