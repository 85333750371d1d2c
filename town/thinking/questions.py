"""The typed questions the mind asks, each naming the shape of its answer.

Each question is a frozen dataclass holding everything needed to answer it (no back-references
into the simulation), so any backend can answer it: the scripted rules, or a language model
that renders the question's Jinja2 template (``<template>.j2``) and returns JSON validated
against ``answer_model`` (:mod:`town.thinking.answers`). ``Question[A]`` is answered by an ``A``:
``backend.ask(PlanDay(...))`` is a :class:`~town.thinking.answers.DayPlanAnswer`. ``seed`` makes
scripted answers deterministic per question.

Questions follow Park et al. 2023: importance (poignancy) rating §4.1, reflection focal points
and insights §4.2, day -> hour -> action planning §4.3, reacting and dialogue §4.3.2.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import ClassVar, Generic, TypeVar

from pydantic import BaseModel

from ..textevent import stated_times
from .answers import (
    DayPlanAnswer,
    FocalPointsAnswer,
    ImportanceAnswer,
    ImportancesAnswer,
    InsightsAnswer,
    InterviewAnswer,
    LineAnswer,
    PlaceAnswer,
    ProcedureAnswer,
    StepAnswer,
    StepsAnswer,
    SummaryAnswer,
    TalkAnswer,
)
from .views import MemoryView, PlanItemView

__all__ = [
    "MemoryView",
    "PlanItemView",
    "Question",
    "RateImportance",
    "RateImportances",
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
    "GeneraliseProcedure",
]
# The answer models stay importable from here for the modules that still name them so; their
# home is town.thinking.answers.

#: The answer model of a question.
A = TypeVar("A", bound=BaseModel)


@dataclass(frozen=True, kw_only=True)
class Question(Generic[A]):
    """Base of all questions; ``A`` is the answer's type (the subclass's ``answer_model``).

    Attributes:
        persona: persona id asking (for accounting and the prompt).
        persona_name: full name.
        persona_summary: identity in one paragraph (traits, background, lifestyle).
        seed: integer seed that makes the scripted answer deterministic.
    """

    template: ClassVar[str] = ""
    answer_model: ClassVar[type[BaseModel]]
    persona: str
    persona_name: str
    persona_summary: str = ""
    seed: int = 0

    def context(self) -> dict:
        """The fields as a dict, for rendering the question's template."""
        return asdict(self)


# ---------------------------------------------------------------- questions
@dataclass(frozen=True, kw_only=True)
class RateImportance(Question[ImportanceAnswer]):
    """Rate the poignancy of a memory 1-10 (routine 1-3, social plans and news 5-8)."""

    template: ClassVar[str] = "rate_importance"
    answer_model = ImportanceAnswer
    content: str
    kind: str


@dataclass(frozen=True, kw_only=True)
class RateImportances(Question[ImportancesAnswer]):
    """Rate the poignancy of several new memories 1-10 in one request: a list in, a list out.

    ``items`` are (kind, content) pairs; the answer's ``ratings`` follow their order. One
    request per batch of memories written together, instead of one per memory (§4.1's prompt,
    :class:`RateImportance`, stays available by configuration).
    """

    template: ClassVar[str] = "rate_importances"
    answer_model = ImportancesAnswer
    items: tuple[tuple[str, str], ...]


@dataclass(frozen=True, kw_only=True)
class PlanDay(Question[DayPlanAnswer]):
    """Plan a day from the routine, adjusted by what the retrieved memories say (§4.3).

    An appointment enters the plan only when a retrieved memory's text states it. ``attend_seed``
    is the persona's seed for deciding whether to go to an event: one per persona and run, not
    per question, so the day plan and a spoken reply to an invitation draw alike.
    """

    template: ClassVar[str] = "plan_day"
    answer_model = DayPlanAnswer
    date: str
    routine: tuple[PlanItemView, ...]
    memories: tuple[MemoryView, ...] = ()
    places: tuple[str, ...] = ()
    attend_seed: int = 0

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
class DecomposeTask(Question[StepsAnswer]):
    """Decompose a plan block into 5-15 minute actions at objects of its place (§4.3).

    ``procedures`` are reliable procedures of the persona's own that retrieval brought back for
    the task and that fit in ``minutes``: ``{"name", "steps": [{description, object, minutes}]}``
    each, steps filled in for this place. The answer may repeat one's steps as a part of the task
    (Voyager's skills as building blocks, Wang et al. 2023).
    """

    template: ClassVar[str] = "decompose_task"
    answer_model = StepsAnswer
    task: str
    place: str
    start: str
    minutes: int
    objects: tuple[str, ...]
    memories: tuple[MemoryView, ...] = ()
    procedures: tuple[dict, ...] = ()


@dataclass(frozen=True, kw_only=True)
class ChoosePlace(Question[PlaceAnswer]):
    """Choose where to do a task when its usual place cannot be used (e.g. it is closed)."""

    template: ClassVar[str] = "choose_place"
    answer_model = PlaceAnswer
    task: str
    usual_place: str
    reason: str
    candidates: tuple[str, ...]


@dataclass(frozen=True, kw_only=True)
class NextAction(Question[StepAnswer]):
    """Without a plan (Park et al. 2023 §6.2's planning ablation): what to do now.

    For at most ``max_minutes``, from what the persona sees and the memories retrieved for
    "what should I do now?".

    ``habit`` is the persona file's routine entry for this hour (a person knows their habits),
    ``seen`` what it perceives ("Maria Lopez is eating lunch at ..."), ``objects`` the objects
    at the habit's place and at home, one of which the answer uses.
    """

    template: ClassVar[str] = "next_action"
    answer_model = StepAnswer
    now: str
    habit: PlanItemView
    seen: tuple[str, ...]
    objects: tuple[str, ...]
    max_minutes: int
    memories: tuple[MemoryView, ...] = ()


@dataclass(frozen=True, kw_only=True)
class DecideToTalk(Question[TalkAnswer]):
    """Decide whether to start a conversation with a perceived persona (§4.3.2).

    ``invited`` is True when the other persona asked to talk and this one decides whether to
    accept; ``memories`` are the retrieved memories not yet told to the other persona; ``now``
    is the game time ("YYYY-MM-DD HH:MM:SS").
    """

    template: ClassVar[str] = "decide_to_talk"
    answer_model = TalkAnswer
    other: str
    other_name: str
    other_action: str
    own_action: str
    relationship: str = ""
    memories: tuple[MemoryView, ...] = ()
    invited: bool = False
    now: str = ""


@dataclass(frozen=True, kw_only=True)
class NextLine(Question[LineAnswer]):
    """Say the next line of a conversation, grounded in retrieved memories (§4.3.2).

    ``told`` lists memory ids already passed on to this listener (never repeat them); ``now``
    is the game time of the line ("YYYY-MM-DD HH:MM:SS", the clock a person reads). When the
    partner's last line asks something, ``recalled`` is the whole retrieval for it (memories told
    before or heard from the partner included: "what's my name?" is answered from what they said).
    ``routine`` is the speaker's own file's routine and ``places`` the map's addresses (as
    :class:`PlanDay` carries them, with its ``attend_seed``): an invitation is decided as the day
    plan decides it.
    """

    template: ClassVar[str] = "next_line"
    answer_model = LineAnswer
    listener: str
    listener_name: str
    history: tuple[tuple[str, str], ...] = ()
    memories: tuple[MemoryView, ...] = ()
    told: tuple[int, ...] = ()
    max_lines: int = 8
    now: str = ""
    recalled: tuple[MemoryView, ...] = ()
    routine: tuple[PlanItemView, ...] = ()
    places: tuple[str, ...] = ()
    attend_seed: int = 0


@dataclass(frozen=True, kw_only=True)
class SummariseConversation(Question[SummaryAnswer]):
    """Summarise a finished conversation in one sentence, from this persona's view."""

    template: ClassVar[str] = "summarise_conversation"
    answer_model = SummaryAnswer
    other_name: str
    history: tuple[tuple[str, str], ...]


@dataclass(frozen=True, kw_only=True)
class FocalPoints(Question[FocalPointsAnswer]):
    """Pick the salient high-level questions over recent memories (§4.2).

    ``people`` are the names of the personas this one knows of (to recognise them in the text).
    """

    template: ClassVar[str] = "focal_points"
    answer_model = FocalPointsAnswer
    memories: tuple[MemoryView, ...]
    n: int = 3
    people: tuple[str, ...] = ()


@dataclass(frozen=True, kw_only=True)
class Insights(Question[InsightsAnswer]):
    """Draw insights about a focal point, each citing evidence memory ids (§4.2).

    ``people``: the names of the town's personas; ``places``: the map's sector and arena addresses
    (to recognise them in the text); ``now``: the game time ("YYYY-MM-DD HH:MM:SS").
    """

    template: ClassVar[str] = "insights"
    answer_model = InsightsAnswer
    focal_point: str
    memories: tuple[MemoryView, ...]
    n: int = 2
    people: tuple[str, ...] = ()
    places: tuple[str, ...] = ()
    now: str = ""


@dataclass(frozen=True, kw_only=True)
class AnswerInterview(Question[InterviewAnswer]):
    """Answer an interviewer's question from retrieved memories (Park et al. 2023 §6.1).

    ``now`` is the game time asked at ("YYYY-MM-DD HH:MM:SS"; empty: unknown), ``routine`` the
    persona file's routine, ``people`` the names of the town's personas (to recognise them).
    """

    template: ClassVar[str] = "answer_interview"
    answer_model = InterviewAnswer
    question: str
    memories: tuple[MemoryView, ...] = ()
    now: str = ""
    routine: tuple[PlanItemView, ...] = ()
    people: tuple[str, ...] = ()
    extra: dict = field(default_factory=dict)


# ---------------------------------------------------------------- procedural memory (docs/design, §2)
@dataclass(frozen=True, kw_only=True)
class GeneraliseProcedure(Question[ProcedureAnswer]):
    """Name a reusable procedure made of a task's verified steps (Voyager, Wang et al. 2023).

    ``steps`` are the concrete steps carried out (dicts with description, object, minutes);
    ``parameters`` pairs each parameter name with the concrete value it replaces (e.g.
    ``("place", "the_ville:Hobbs Cafe:cafe:counter")``). The answer is the procedure's name and
    when it applies, with those values written as ``{name}``; the saved steps are the verified
    ones with the same substitution (:mod:`town.mind.practice.learn`).
    """

    template: ClassVar[str] = "generalise_procedure"
    answer_model = ProcedureAnswer
    task: str
    place: str
    steps: tuple[dict, ...]
    parameters: tuple[tuple[str, str], ...]

