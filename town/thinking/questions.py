"""The typed questions the mind asks, and the shapes of their answers.

Each question is a frozen dataclass holding everything needed to answer it (no back-references
into the simulation), so any backend can answer it: the scripted rules, or a language model
that renders the question's Jinja2 template (``<template>.j2``) and returns JSON validated
against ``answer_model``. ``seed`` makes scripted answers deterministic per question.

Questions follow Park et al. 2023: importance (poignancy) rating §4.1, reflection focal points
and insights §4.2, day -> hour -> action planning §4.3, reacting and dialogue §4.3.2.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field, replace
from typing import ClassVar

from pydantic import BaseModel, Field

from ..textevent import stated_times

__all__ = [
    "MemoryView",
    "PlanItemView",
    "Question",
    "RateImportance",
    "RateImportances",
    "ImportancesAnswer",
    "PlanDay",
    "DecomposeTask",
    "ChoosePlace",
    "NextAction",
    "DecideToTalk",
    "NextLine",
    "SummariseConversation",
    "FocalPoints",
    "Insights",
    "AnswerInterview",
    "ImportanceAnswer",
    "DayPlanAnswer",
    "StepsAnswer",
    "StepAnswer",
    "PlaceAnswer",
    "TalkAnswer",
    "LineAnswer",
    "SummaryAnswer",
    "FocalPointsAnswer",
    "InsightsAnswer",
    "InterviewAnswer",
]


# ---------------------------------------------------------------- context shared by questions
@dataclass(frozen=True, kw_only=True)
class MemoryView:
    """A retrieved memory as shown to a backend: id, text, kind, importance, creation time.

    Only what the persona remembers: no provenance, no evaluation metadata.
    """

    id: int
    content: str
    kind: str
    importance: int
    created: str = ""


@dataclass(frozen=True, kw_only=True)
class PlanItemView:
    """One block of a plan: ``start``/``end`` as "HH:MM" (game time), what, where."""

    start: str
    end: str
    description: str
    place: str
    task: str | None = None


@dataclass(frozen=True, kw_only=True)
class Question:
    """Base of all questions.

    Attributes:
        persona: persona id asking (for accounting and the prompt).
        persona_name: full name.
        persona_summary: identity in one paragraph (traits, background, lifestyle).
        seed: integer seed that makes the scripted answer deterministic.
    """

    template: ClassVar[str] = ""
    persona: str
    persona_name: str
    persona_summary: str = ""
    seed: int = 0

    def context(self) -> dict:
        """The fields as a dict, for rendering the question's template."""
        return asdict(self)


# ---------------------------------------------------------------- answers (validated JSON)
class ImportanceAnswer(BaseModel):
    """Poignancy 1-10 (Park et al. 2023 §4.1)."""

    importance: int = Field(ge=1, le=10)


class ImportancesAnswer(BaseModel):
    """Poignancy 1-10 of each memory of a list, in the list's order (Park et al. 2023 §4.1)."""

    ratings: list[int] = Field(min_length=1, max_length=40)


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


class DayPlanAnswer(BaseModel):
    """Today's changes to the routine (Park et al. 2023 §4.3 plans from the routine).

    ``add``: blocks added today; an added block replaces the routine for its time (a moved block
    is dropped and added again). ``drop``: 1-based numbers of routine blocks skipped today; the
    block before a dropped one runs on until the next. Both empty: the routine unchanged.
    """

    add: list[PlanItemAnswer] = Field(max_length=4)
    drop: list[int] = Field(max_length=12)

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
    """An interview answer in the persona's voice."""

    answer: str = Field(min_length=1, max_length=1000)


# ---------------------------------------------------------------- questions
@dataclass(frozen=True, kw_only=True)
class RateImportance(Question):
    """Rate the poignancy of a memory 1-10 (routine 1-3, social plans and news 5-8)."""

    template: ClassVar[str] = "rate_importance"
    answer_model: ClassVar[type[BaseModel]] = ImportanceAnswer
    content: str
    kind: str


@dataclass(frozen=True, kw_only=True)
class RateImportances(Question):
    """Rate the poignancy of several new memories 1-10 in one request: a list in, a list out.

    ``items`` are (kind, content) pairs; the answer's ``ratings`` follow their order. One
    request per batch of memories written together, instead of one per memory (§4.1's prompt,
    :class:`RateImportance`, stays available by configuration).
    """

    template: ClassVar[str] = "rate_importances"
    answer_model: ClassVar[type[BaseModel]] = ImportancesAnswer
    items: tuple[tuple[str, str], ...]


@dataclass(frozen=True, kw_only=True)
class PlanDay(Question):
    """Plan a day from the routine, adjusted by what the retrieved memories say (§4.3).

    An appointment enters the plan only when a retrieved memory's text states it.
    """

    template: ClassVar[str] = "plan_day"
    answer_model: ClassVar[type[BaseModel]] = DayPlanAnswer
    date: str
    routine: tuple[PlanItemView, ...]
    memories: tuple[MemoryView, ...] = ()
    places: tuple[str, ...] = ()

    def offered(self) -> list[str]:
        """The places an added block may use: the routine's, and those a retrieved memory names.

        A change comes from a remembered appointment, so a place of ``places`` is offered only
        when its name (the address's last part, e.g. "Hobbs Cafe") appears in a memory's text.
        Keeping the list short keeps the prompt and the answer's grammar small.
        """
        text = " ".join(m.content.lower() for m in self.memories)
        named = [p for p in self.places if p.rsplit(":", 1)[-1].lower() in text]
        return list(dict.fromkeys([r.place for r in self.routine] + named))

    def stated_starts(self) -> list[str]:
        """Start times ("HH:MM", down to the quarter hour) that the retrieved memories state.

        Only an appointment a memory states, with a time, changes the routine, so these are the
        times an added block may start at; none means the answer keeps the routine as it is.
        Times are read by :func:`town.textevent.stated_times` (the first time or range of each
        memory).
        """
        starts = []
        for m in self.memories:
            found = stated_times(m.content)
            if found is not None:
                t = found[0]
                starts.append(f"{t.hour:02d}:{t.minute - t.minute % 15:02d}")
        return sorted(set(starts))

    def context(self) -> dict:
        """The fields, ``offered`` (places an added block may use) and ``starts`` (its start times)."""
        return {**asdict(self), "offered": self.offered(), "starts": self.stated_starts()}


@dataclass(frozen=True, kw_only=True)
class DecomposeTask(Question):
    """Decompose a plan block into 5-15 minute actions at objects of its place (§4.3).

    ``procedures`` are reliable procedures of the persona's own that retrieval brought back for
    the task and that fit in ``minutes``: ``{"name", "steps": [{description, object, minutes}]}``
    each, steps filled in for this place. The answer may repeat one's steps as a part of the task
    (Voyager's skills as building blocks, Wang et al. 2023).
    """

    template: ClassVar[str] = "decompose_task"
    answer_model: ClassVar[type[BaseModel]] = StepsAnswer
    task: str
    place: str
    start: str
    minutes: int
    objects: tuple[str, ...]
    memories: tuple[MemoryView, ...] = ()
    procedures: tuple[dict, ...] = ()


@dataclass(frozen=True, kw_only=True)
class ChoosePlace(Question):
    """Choose where to do a task when its usual place cannot be used (e.g. it is closed)."""

    template: ClassVar[str] = "choose_place"
    answer_model: ClassVar[type[BaseModel]] = PlaceAnswer
    task: str
    usual_place: str
    reason: str
    candidates: tuple[str, ...]


@dataclass(frozen=True, kw_only=True)
class NextAction(Question):
    """Without a plan (Park et al. 2023 §6.2's planning ablation): what to do now.

    For at most ``max_minutes``, from what the persona sees and the memories retrieved for
    "what should I do now?".

    ``habit`` is the persona file's routine entry for this hour (a person knows their habits),
    ``seen`` what it perceives ("Maria Lopez is eating lunch at ..."), ``objects`` the objects
    at the habit's place and at home, one of which the answer uses.
    """

    template: ClassVar[str] = "next_action"
    answer_model: ClassVar[type[BaseModel]] = StepAnswer
    now: str
    habit: PlanItemView
    seen: tuple[str, ...]
    objects: tuple[str, ...]
    max_minutes: int
    memories: tuple[MemoryView, ...] = ()


@dataclass(frozen=True, kw_only=True)
class DecideToTalk(Question):
    """Decide whether to start a conversation with a perceived persona (§4.3.2).

    ``invited`` is True when the other persona asked to talk and this one decides whether to
    accept; ``memories`` are the retrieved memories not yet told to the other persona.
    """

    template: ClassVar[str] = "decide_to_talk"
    answer_model: ClassVar[type[BaseModel]] = TalkAnswer
    other: str
    other_name: str
    other_action: str
    own_action: str
    relationship: str = ""
    memories: tuple[MemoryView, ...] = ()
    invited: bool = False


@dataclass(frozen=True, kw_only=True)
class NextLine(Question):
    """Say the next line of a conversation, grounded in retrieved memories (§4.3.2).

    ``told`` lists memory ids already passed on to this listener (never repeat them).
    """

    template: ClassVar[str] = "next_line"
    answer_model: ClassVar[type[BaseModel]] = LineAnswer
    listener: str
    listener_name: str
    history: tuple[tuple[str, str], ...] = ()
    memories: tuple[MemoryView, ...] = ()
    told: tuple[int, ...] = ()
    max_lines: int = 8


@dataclass(frozen=True, kw_only=True)
class SummariseConversation(Question):
    """Summarise a finished conversation in one sentence, from this persona's view."""

    template: ClassVar[str] = "summarise_conversation"
    answer_model: ClassVar[type[BaseModel]] = SummaryAnswer
    other_name: str
    history: tuple[tuple[str, str], ...]


@dataclass(frozen=True, kw_only=True)
class FocalPoints(Question):
    """Pick the salient high-level questions over recent memories (§4.2).

    ``people`` are the names of the personas this one knows of (to recognise them in the text).
    """

    template: ClassVar[str] = "focal_points"
    answer_model: ClassVar[type[BaseModel]] = FocalPointsAnswer
    memories: tuple[MemoryView, ...]
    n: int = 3
    people: tuple[str, ...] = ()


@dataclass(frozen=True, kw_only=True)
class Insights(Question):
    """Draw insights about a focal point, each citing evidence memory ids (§4.2)."""

    template: ClassVar[str] = "insights"
    answer_model: ClassVar[type[BaseModel]] = InsightsAnswer
    focal_point: str
    memories: tuple[MemoryView, ...]
    n: int = 2


@dataclass(frozen=True, kw_only=True)
class AnswerInterview(Question):
    """Answer an interviewer's question from retrieved memories (Park et al. 2023 §6.1)."""

    template: ClassVar[str] = "answer_interview"
    answer_model: ClassVar[type[BaseModel]] = InterviewAnswer
    question: str
    memories: tuple[MemoryView, ...] = ()
    extra: dict = field(default_factory=dict)


# ---------------------------------------------------------------- procedural memory (docs/design, §2)
class ProcedureAnswer(BaseModel):
    """A generalised procedure: name, when it applies, the steps with ``{parameters}``."""

    name: str = Field(min_length=1, max_length=120)
    when: str = Field(min_length=1, max_length=300)
    steps: list[StepAnswer] = Field(min_length=1, max_length=24)


@dataclass(frozen=True, kw_only=True)
class GeneraliseProcedure(Question):
    """Generalise the verified steps of a task into a reusable procedure (Voyager, Wang et al. 2023).

    ``steps`` are the concrete steps carried out (dicts with description, object, minutes);
    ``parameters`` pairs each parameter name with the concrete value it replaces (e.g.
    ``("place", "the_ville:Hobbs Cafe:cafe:counter")``). The answer keeps the steps, in order,
    with those values written as ``{name}``.
    """

    template: ClassVar[str] = "generalise_procedure"
    answer_model: ClassVar[type[BaseModel]] = ProcedureAnswer
    task: str
    place: str
    steps: tuple[dict, ...]
    parameters: tuple[tuple[str, str], ...]


__all__ += ["GeneraliseProcedure", "ProcedureAnswer"]
