"""The shapes of the backends' answers: pydantic models a model's JSON is validated against.

Each question names its answer model (``answer_model``); a language model's reply is parsed into
it (:mod:`town.thinking.validate`), and the scripted backend builds it directly. Field limits
(lengths, ranges) are the schema a constrained request sends (:mod:`town.thinking.schema`).

Answers follow Park et al. 2023: importance (poignancy) §4.1, reflection focal points and
insights §4.2, day -> hour -> action planning §4.3, reacting and dialogue §4.3.2.
"""

from __future__ import annotations

from dataclasses import replace

from pydantic import BaseModel, Field

from .views import PlanItemView

__all__ = [
    "ImportanceAnswer",
    "ImportancesAnswer",
    "PlanItemAnswer",
    "EventChoice",
    "DayPlanAnswer",
    "StepAnswer",
    "StepsAnswer",
    "PlaceAnswer",
    "TalkAnswer",
    "LineAnswer",
    "SummaryAnswer",
    "FocalPointsAnswer",
    "InsightAnswer",
    "InsightsAnswer",
    "InterviewAnswer",
    "ProcedureAnswer",
]


class ImportanceAnswer(BaseModel):
    """Poignancy 1-10 (Park et al. 2023 §4.1)."""

    importance: int = Field(ge=1, le=10)


#: The most memories one :class:`ImportancesAnswer` rates (a longer list is asked in parts).
MAX_RATINGS = 40


class ImportancesAnswer(BaseModel):
    """Poignancy 1-10 of each memory of a list, in the list's order (Park et al. 2023 §4.1)."""

    ratings: list[int] = Field(min_length=1, max_length=MAX_RATINGS)


class PlanItemAnswer(BaseModel):
    """One block added to the day: its start ("HH:MM", game time), length in game minutes, what, where."""

    start: str = Field(pattern=r"^[0-9]{2}:[0-9]{2}$")
    minutes: int = Field(ge=5, le=1440)
    description: str = Field(min_length=1, max_length=120)
    place: str = Field(min_length=1)

    @property
    def end(self) -> str:
        """``start`` + ``minutes`` as "HH:MM", at most "24:00"."""
        h, m = int(self.start[:2]), int(self.start[3:])
        total = min(24 * 60, h * 60 + m + self.minutes)
        return f"{total // 60:02d}:{total % 60:02d}"


class EventChoice(BaseModel):
    """Whether the persona goes to an event a retrieved memory states, and why.

    ``place`` is the event's address, ``start``/``end`` "YYYY-MM-DD HH:MM"; ``evidence`` the ids
    of the memories stating it; ``clash`` the routine block it clashes with ("HH:MM-HH:MM what at
    where"), if any.
    """

    place: str
    start: str
    end: str
    go: bool
    reason: str
    evidence: list[int]
    clash: str | None = None


class DayPlanAnswer(BaseModel):
    """Today's changes to the routine (Park et al. 2023 §4.3 plans from the routine).

    ``add``: blocks added today; an added block replaces the routine for its time (a moved block
    is dropped and added again). ``drop``: 1-based numbers of routine blocks skipped today; the
    block before a dropped one runs on until the next. Both empty: the routine unchanged.
    """

    add: list[PlanItemAnswer] = Field(max_length=4)
    drop: list[int] = Field(max_length=12)
    events: list[EventChoice] | None = None  # the scripted rule's decisions (a model is not asked)

    def day(self, routine: tuple[PlanItemView, ...]) -> list[PlanItemView]:
        """The day these changes make of ``routine``: blocks in time order covering 00:00-24:00.

        Raises:
            ValueError: when every routine block is dropped and nothing is added.
        """
        blocks: list[PlanItemView] = []
        early = None  # start of leading dropped blocks: the first kept block starts there
        for i, r in enumerate(routine, 1):
            if i in self.drop:
                if blocks:
                    blocks[-1] = replace(blocks[-1], end=r.end)  # the block before runs on
                else:
                    early = early or r.start
                continue
            blocks.append(replace(r, start=early) if early else r)
            early = None
        for a in sorted(self.add, key=lambda a: a.start):
            cut = []
            for b in blocks:
                if b.end <= a.start or b.start >= a.end:
                    cut.append(b)
                    continue
                if b.start < a.start:
                    cut.append(replace(b, end=a.start))
                if b.end > a.end:
                    cut.append(replace(b, start=a.end))
            cut.append(PlanItemView(start=a.start, end=a.end, description=a.description, place=a.place))
            blocks = sorted(cut, key=lambda b: b.start)
        if not blocks:
            raise ValueError("every routine block is dropped and nothing is added")
        return blocks


class StepAnswer(BaseModel):
    """One 5-15 minute action of a decomposed task; ``object`` is a full address."""

    description: str = Field(min_length=1, max_length=200)
    object: str = Field(min_length=1)
    minutes: int = Field(ge=1, le=1440)


class StepsAnswer(BaseModel):
    """The decomposition of a task into actions (Park et al. 2023 §4.3)."""

    steps: list[StepAnswer] = Field(min_length=1, max_length=24)


class PlaceAnswer(BaseModel):
    """A chosen place (a full address)."""

    place: str = Field(min_length=1)


class TalkAnswer(BaseModel):
    """Whether to start a conversation, and why."""

    talk: bool
    reason: str = ""


class LineAnswer(BaseModel):
    """The next utterance; ``shared`` cites the memory ids whose content it passes on."""

    line: str = Field(min_length=1, max_length=1000)
    shared: list[int] = Field(default_factory=list)
    end: bool = False


class SummaryAnswer(BaseModel):
    """One-sentence summary of a conversation."""

    summary: str = Field(min_length=1, max_length=400)


class FocalPointsAnswer(BaseModel):
    """High-level questions to reflect on (Park et al. 2023 §4.2)."""

    questions: list[str] = Field(min_length=1, max_length=5)


class InsightAnswer(BaseModel):
    """One insight and the memory ids it rests on."""

    text: str = Field(min_length=1, max_length=400)
    evidence: list[int] = Field(min_length=1)


class InsightsAnswer(BaseModel):
    """Insights drawn from retrieved memories (Park et al. 2023 §4.2)."""

    insights: list[InsightAnswer] = Field(min_length=1, max_length=5)


class InterviewAnswer(BaseModel):
    """An interview answer in the persona's voice; ``evidence``: ids of the memories it used.

    ``evidence`` is optional (a model is not asked for it: the request's shape leaves it out).
    """

    answer: str = Field(min_length=1, max_length=1000)
    evidence: list[int] | None = None


# ---------------------------------------------------------------- procedural memory (docs/design, §2)
class ProcedureAnswer(BaseModel):
    """A generalised procedure's name and when it applies, with ``{parameters}`` for values.

    The steps are not asked for: a procedure keeps exactly the steps the world verified,
    generalised by substitution (:func:`town.procedures.generalise_steps`), so a model writing
    them again could only copy them or get them wrong (SmolLM2 did both, and ran out of tokens).
    """

    name: str = Field(min_length=1, max_length=120)
    when: str = Field(min_length=1, max_length=300)
