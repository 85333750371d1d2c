"""A model's reply -> the question's answer: JSON found and decoded, the answer model, its checks.

A reply is invalid when it holds no JSON object, when its text may not enter the town (a lone
surrogate, a NUL), when it fails the answer model (the schema), or when it fails one of the
question's own checks (``Question.checks``: the town's places, objects and memory ids, text
that is the model's own; :mod:`town.thinking.questions.checks`). An invalid answer is retried
and, after N failures, replaced by the scripted answer.
"""

from __future__ import annotations

import json
import re
from typing import cast

from pydantic import ValidationError

from ..text import text_problem
from .questions import A, InvalidAnswer, Question

__all__ = ["InvalidAnswer", "parse_answer", "MAX_ANSWER_CHARS"]

#: Most characters of a model's reply text. The longest answer the answer models allow, a
#: decomposition of 24 steps with 200-character descriptions and their addresses, is about
#: 8,000 characters, and under 32,000 with every character of its text written as a ``\uXXXX``
#: escape; a longer reply is padding or a runaway, and invalid.
MAX_ANSWER_CHARS = 32768

_FENCE = re.compile(r"^```(?:json)?\s*|\s*```$", re.I)


def parse_answer(question: Question[A], text: str | None, prompt: str = "") -> A:
    """Parse a model's reply into ``type(question).answer_model`` and run the question's checks.

    Accepts the JSON object alone, inside a Markdown code fence, or surrounded by prose (the
    first ``{`` to the last ``}``). ``prompt`` is the rendered prompt, to reject echoes of it.

    Raises:
        InvalidAnswer: unparsable (``unparsable=True``), too long or holding text that may not
            enter the town (``check`` ""), schema-invalid (``check`` "schema"), or rejected by a
            check of the question's (``check``: its name).
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
        raise InvalidAnswer(f"schema: {where}: {first['msg']}", check="schema") from exc
    return question.check(answer, prompt)


def _check_unicode(text: str, what: str) -> None:
    """Refuse text that may not enter the town (:func:`town.text.text_problem`): a lone surrogate
    (from a ``\\ud800`` escape, or CESU bytes the JSON decoder let through), or a NUL.

    Raises:
        InvalidAnswer: naming ``what`` and the problem.
    """
    problem = text_problem(text)
    if problem is not None:
        raise InvalidAnswer(f"{what} {problem}")
