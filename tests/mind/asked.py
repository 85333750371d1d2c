"""The stand-in persona a mind test asks questions of: its routine from plain rows, and one
question asked of the scripted answerer with its fields (:class:`AnswerInterview`)."""

from __future__ import annotations

from town.scripted import ScriptedBackend
from town.thinking.questions import AnswerInterview, InterviewAnswer, PlanItemView


def routine(*rows: tuple) -> tuple[PlanItemView, ...]:
    """A routine from (start, end, description, place[, task]) rows ("HH:MM" times)."""
    return tuple(PlanItemView(start=r[0], end=r[1], description=r[2], place=r[3], task=r[4] if len(r) > 4 else None)
                 for r in rows)


def ask(question: str, **fields) -> InterviewAnswer:
    """The scripted answer to ``question`` asked of the persona ``fields`` describe."""
    return ScriptedBackend().ask(AnswerInterview(question=question, **fields))
