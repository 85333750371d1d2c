"""Plan a day from the routine and the retrieved memories (Park et al. 2023 §4.3).

The answer is the day's changes to the routine (blocks added, routine blocks dropped), which
:meth:`DayPlanAnswer.day` applies. An appointment enters the plan only when a retrieved memory's
text states it, with a time: the schema offers only the stated start times and the places the
memories name.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, replace
from datetime import date, datetime
from typing import Any, ClassVar

from pydantic import BaseModel, Field

from ...textevent import event_day, place_in, place_names, stated_times
from ...world.objects import use_of
from ..schema import enum_at, ids_among
from ..views import MemoryView, PlanItemView
from ..words import content_words
from .base import Question
from .checks import WORDS, InvalidAnswer, match_option, own_words, time_of_day
from .decompose_task import DecomposeTask, StepAnswer, StepsAnswer
from .sense import DESCRIPTION_PATTERN, not_copied, plain_descriptions

__all__ = ["MAX_ADDED", "BLOCK_MINUTES", "PlanItemAnswer", "EventChoice", "DayPlanAnswer", "PlanDay",
           "added_blocks", "routine_numbers", "a_day_left", "on_the_stated_day", "fits_its_place",
           "changes_the_routine", "first_steps"]

#: The most blocks a day plan's answer adds.
MAX_ADDED = 4
#: Lengths of a day plan's added block, in game minutes.
BLOCK_MINUTES = [15, 30, 45, 60, 90, 120, 180, 240, 300, 360, 480]


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
    ``steps``: when the question offers the routine block at hand (``PlanDay.first``), its next
    minutes as 5-15 minute actions, as a ``DecomposeTask`` answers them; else None.
    """

    add: list[PlanItemAnswer] = Field(max_length=MAX_ADDED)
    drop: list[int] = Field(max_length=12)
    events: list[EventChoice] | None = None  # the scripted rule's decisions (a model is not asked)
    steps: list[StepAnswer] | None = Field(default=None, max_length=24)  # asked only with PlanDay.first

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


# ---------------------------------------------------------------- the answer's checks
def added_blocks(q: PlanDay, a: DayPlanAnswer, prompt: str) -> DayPlanAnswer:
    """Each added block is at an offered place (resolved to its full address) and runs between
    two times of day 00:00-24:00, its start before its end.

    Added blocks that overlap are not an error: :meth:`DayPlanAnswer.day` applies them in time
    order, the later one cutting into the earlier, as it cuts into the routine.
    """
    places = q.offered()
    added: list[PlanItemAnswer] = []
    for i, item in enumerate(a.add):
        place = match_option(item.place, places)
        if place is None:
            raise InvalidAnswer(f"add[{i}].place: {item.place!r} is not a place of this plan")
        start = time_of_day(item.start, f"add[{i}].start")
        end = time_of_day(item.end, f"add[{i}].end")
        if not start < end:
            raise InvalidAnswer(f"add[{i}]: {item.start}-{item.end} starts at the end of the day")
        added.append(item.model_copy(update={"place": place}))
    return a.model_copy(update={"add": added})


def routine_numbers(q: PlanDay, a: DayPlanAnswer, prompt: str) -> DayPlanAnswer:
    """Dropped blocks are numbers of the routine's blocks, each named once: SmolLM2 dropped
    Isabella Rodriguez's "[12, 3, 7, 8, 4, 6, 9, 5, 6, 7]" with nothing added, the numbers
    counted off rather than blocks skipped for a reason."""
    bad = [n for n in a.drop if not 1 <= n <= len(q.routine)]
    if bad:
        raise InvalidAnswer(f"drop: {bad} are not routine block numbers 1-{len(q.routine)}")
    twice = sorted({n for n in a.drop if a.drop.count(n) > 1})
    if twice:
        raise InvalidAnswer(f"drop: {twice} named more than once; list each skipped block once")
    return a


def a_day_left(q: PlanDay, a: DayPlanAnswer, prompt: str) -> DayPlanAnswer:
    """The changes leave a day to live (not every block dropped with nothing added)."""
    try:
        a.day(q.routine)
    except ValueError as exc:
        raise InvalidAnswer(f"the plan is empty: {exc}") from None
    return a


def _stated_start(text: str) -> str | None:
    """The start ("HH:MM", down to the quarter hour) of the first time or range ``text`` states."""
    found = stated_times(text)
    if found is None:
        return None
    t = found[0]
    return f"{t.hour:02d}:{t.minute - t.minute % 15:02d}"


def _stating(q: PlanDay, item: PlanItemAnswer) -> list[MemoryView]:
    """The retrieved memories that state an added block's event: those whose fact starts at the
    block's start (to the quarter hour) or whose act shares a topic word with the block's
    description (place names aside: "start the party" and "plan a Valentine's Day party"), and,
    for a memory made without a fact, those whose words state that start."""
    where = content_words(" ".join(p.replace(":", " ") for p in q.places))
    said = content_words(item.description) - where
    out = []
    for m in q.memories:
        if m.fact is None:
            if _stated_start(m.content) == item.start:
                out.append(m)
            continue
        start = m.fact.start
        at = f"{start.hour:02d}:{start.minute - start.minute % 15:02d}" if start is not None else None
        if at == item.start or (start is not None and said & (content_words(m.fact.act) - where)):
            out.append(m)
    return out


def _day_of(m: MemoryView) -> date | None:
    """The day the event ``m`` states is on: its fact's start, else (no fact) the day its words name."""
    if m.fact is not None:
        return m.fact.start.date() if m.fact.start is not None else None
    return event_day(m.content, datetime.fromisoformat(m.created)) if m.created else None


def _place_of(m: MemoryView, names: dict[str, str]) -> str | None:
    """The place the event ``m`` states: its fact's place as an address, else (no fact) the place its words name."""
    if m.fact is not None:
        place = m.fact.place
        return place if place is None or ":" in place else names.get(place.lower())
    return place_in(m.content, names)


def on_the_stated_day(q: PlanDay, a: DayPlanAnswer, prompt: str) -> DayPlanAnswer:
    """An added block is for today: when the memories stating its event name its day, one of
    them names today (a party planned for tomorrow is not added to today's plan).
    """
    for i, item in enumerate(a.add):
        days = {day for m in _stating(q, item) if (day := _day_of(m)) is not None}
        if days and date.fromisoformat(q.date) not in days:
            said = ", ".join(f"{d:%Y-%m-%d}" for d in sorted(days))
            raise InvalidAnswer(f"add[{i}]: {item.description[:60]!r} is on {said}, as the memories "
                                f"stating it say, not today ({q.date})")
    return a


#: Activities that need an object of their own kind, by the words that say them.
_NEEDS = {"bed": frozenset({"bed", "bedtime", "sleep", "sleeping", "asleep", "nap", "napping"}),
          "shower": frozenset({"shower", "showers", "showering", "bathe", "bath"}),
          "toilet": frozenset({"toilet", "loo"})}
#: Objects used for nothing but their own activity (one may read in bed, not hold a party in the shower).
_ONLY_FOR = frozenset({"shower", "toilet"})


def _needs(description: str) -> str | None:
    """The kind of object ``description``'s activity needs ("go to bed" -> "bed"), or None."""
    words = set(WORDS.findall(description.lower()))
    return next((kind for kind, said in _NEEDS.items() if words & said), None)


def fits_its_place(q: PlanDay, a: DayPlanAnswer, prompt: str) -> DayPlanAnswer:
    """An added block is at a place its activity fits: at (or inside) the place the memories
    stating its event name, neither at an object used for nothing else (a party at the shower)
    nor, for an activity that needs its own object (sleep), at an object of another kind (a
    grocery shelf).
    """
    names = place_names(tuple(q.places))
    for i, item in enumerate(a.add):
        stated = {p for m in _stating(q, item) if (p := _place_of(m, names)) is not None}
        if stated and not any(item.place == p or item.place.startswith(p + ":") for p in stated):
            raise InvalidAnswer(f"add[{i}].place: {item.description[:60]!r} is at {', '.join(sorted(stated))} "
                                f"in the memories stating it, not at {item.place}")
        use = use_of(item.place.rsplit(":", 1)[-1])
        kind = use.words[0] if use.words else None  # None: not an object of the vocabulary
        needs = _needs(item.description)
        if needs != kind and (kind in _ONLY_FOR or (needs is not None and kind is not None)):
            raise InvalidAnswer(f"add[{i}]: {item.description[:60]!r} does not fit {item.place}, "
                                f"a place to {use.verb}")
    return a


def changes_the_routine(q: PlanDay, a: DayPlanAnswer, prompt: str) -> DayPlanAnswer:
    """An added block changes the day: it does not only repeat the routine block of its time
    (the same activity at the same place, its address perhaps written in)."""
    for i, item in enumerate(a.add):
        said = content_words(item.description) - content_words(item.place.replace(":", " ").replace("_", " "))
        for r in q.routine:
            if r.place == item.place and r.start < item.end and item.start < r.end \
                    and said <= content_words(r.description):
                raise InvalidAnswer(f"add[{i}]: {item.description[:60]!r} only repeats the routine's "
                                    f"{r.start}-{r.end} {r.description!r}")
    return a


def first_steps(q: PlanDay, a: DayPlanAnswer, prompt: str) -> DayPlanAnswer:
    """With the block at hand offered (``q.first``), the answer splits it into steps that pass a
    decomposition's checks (:class:`DecomposeTask`'s, objects resolved to full addresses), its
    memories those of the day plan; without, steps a model wrote anyway are dropped."""
    if q.first is None:
        return a.model_copy(update={"steps": None}) if a.steps is not None else a
    if not a.steps:
        raise InvalidAnswer(f"steps: none for {q.first.task!r}, the block at hand")
    checked = replace(q.first, memories=q.memories).check(StepsAnswer(steps=a.steps), prompt)
    return a.model_copy(update={"steps": checked.steps})


# ---------------------------------------------------------------- the question
@dataclass(frozen=True, kw_only=True)
class PlanDay(Question[DayPlanAnswer]):
    """Plan a day from the routine, adjusted by what the retrieved memories say (§4.3).

    An appointment enters the plan only when a retrieved memory's text states it. ``attend_seed``
    is the persona's seed for deciding whether to go to an event: one per persona and run, not
    per question, so the day plan and a spoken reply to an invitation draw alike. ``first``, when
    set, is the decomposition of the routine block at hand (its ``memories`` empty: the plan's
    are shown), asked in the same request: the answer's ``steps``.
    """

    template: ClassVar[str] = "plan_day"
    answer_model = DayPlanAnswer
    purpose: ClassVar[str] = "plan"
    checks = (own_words, added_blocks, routine_numbers, a_day_left, first_steps, not_copied, plain_descriptions,
              on_the_stated_day, fits_its_place, changes_the_routine)
    date: str
    routine: tuple[PlanItemView, ...]
    memories: tuple[MemoryView, ...] = ()
    places: tuple[str, ...] = ()
    attend_seed: int = 0
    first: DecomposeTask | None = None

    @property
    def task(self) -> str:
        """The task of the block at hand ("" when none is offered): a step may name it
        (:func:`.sense.not_copied`)."""
        return self.first.task if self.first is not None else ""

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
        memory). A memory that puts its event on another day than today (the party tomorrow at
        5pm) states no start: a block added for it is rejected (:func:`on_the_stated_day`), and
        SmolLM2, offered its time, added it in 2 attempts of 4.
        """
        today = date.fromisoformat(self.date)
        return sorted({start for m in self.memories if (start := _stated_start(m.content)) is not None
                       and _day_of(m) in (None, today)})

    def context(self) -> dict:
        """The fields, ``offered`` (places an added block may use) and ``starts`` (its start times)."""
        return {**asdict(self), "offered": self.offered(), "starts": self.stated_starts()}

    def narrow(self, schema: dict[str, Any]) -> None:
        """Added blocks at an offered place, starting at a time a retrieved memory states (at
        most one block per stated time), :data:`BLOCK_MINUTES` long; dropped blocks are routine
        numbers; with no time stated both lists are empty. An added block is described in words
        (:data:`.sense.DESCRIPTION_PATTERN`). With ``first``, ``steps`` as its decomposition's
        schema has them (required)."""
        starts = self.stated_starts()  # no 30:57, and no block no memory states
        enum_at(schema, ("add", "[]", "place"), self.offered())
        enum_at(schema, ("add", "[]", "start"), starts or ["00:00"])
        enum_at(schema, ("add", "[]", "minutes"), BLOCK_MINUTES)
        schema["properties"]["add"]["items"]["properties"]["description"]["pattern"] = DESCRIPTION_PATTERN
        ids_among(schema["properties"]["drop"], list(range(1, len(self.routine) + 1)))
        if not starts:  # no memory states a time: the routine stays as it is
            for changes in ("add", "drop"):
                schema["properties"][changes].update(minItems=0, maxItems=0)
        else:  # one block per stated time at most (two at one time overlap)
            add = schema["properties"]["add"]
            add["maxItems"] = min(add.get("maxItems", len(starts)), len(starts))
        if self.first is not None:  # the block at hand's steps, as its decomposition narrows them
            steps = self.first.answer_schema()["properties"]["steps"]
            schema["properties"]["steps"] = steps
            schema["required"] = [*schema["required"], "steps"]
