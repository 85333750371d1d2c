"""Planning from memory text: an event enters the day plan only when a retrieved memory states it."""

from __future__ import annotations

from datetime import datetime, timedelta
from functools import partial

from mind_events import retrieval_ids

from town.events import EventKind
from town.memory import MemoryKind
from town.mind import plan_day
from town.thinking.questions import MemoryView, PlanDay, PlanItemView
from town.scripted import ScriptedBackend

ROUTINE = (PlanItemView(start="00:00", end="07:00", description="sleeping", place="w:Ann's home:ann room:bed"),
           PlanItemView(start="07:00", end="24:00", description="read a book",
                        place="w:Ann's home:ann room:armchair"))
PLACES = ("w:Ann's home", "w:Corner Cafe", "w:Corner Cafe:cafe", "w:Green Park")
QUIZ = 'Bob Brown told me: "I am hosting a quiz at Corner Cafe tomorrow from 6pm to 8pm."'


def _ask(*memories: MemoryView):
    q = PlanDay(persona="ann", persona_name="Ann Able", date="2023-02-14", routine=ROUTINE,
                memories=memories, places=PLACES)
    return [(i.start, i.end, i.place) for i in ScriptedBackend().ask(q).day(ROUTINE)]


def _view(content: str, created: str = "2023-02-13 12:00:00", id: int = 4) -> MemoryView:
    return MemoryView(id=id, content=content, kind="chat", importance=6, created=created)


def test_a_retrieved_memory_stating_the_event_puts_it_into_the_plan():
    """Heard on Monday 13 Feb: "tomorrow from 6pm to 8pm" is Tuesday 14 Feb 18:00-20:00; the
    reading block is cut around it (worked out by hand)."""
    assert _ask(_view(QUIZ)) == [
        ("00:00", "07:00", "w:Ann's home:ann room:bed"),
        ("07:00", "18:00", "w:Ann's home:ann room:armchair"),
        ("18:00", "20:00", "w:Corner Cafe"),
        ("20:00", "24:00", "w:Ann's home:ann room:armchair"),
    ]


def test_an_empty_retrieval_leaves_the_routine():
    assert _ask() == [(r.start, r.end, r.place) for r in ROUTINE]


def test_a_memory_without_a_time_or_place_or_for_another_day_adds_nothing():
    routine = [(r.start, r.end, r.place) for r in ROUTINE]
    assert _ask(_view('Bob Brown told me: "I am hosting a quiz at Corner Cafe tomorrow."')) == routine
    assert _ask(_view('Bob Brown told me: "I am hosting a quiz tomorrow from 6pm to 8pm."')) == routine
    # Heard on Tuesday, "tomorrow" is Wednesday: nothing on the 14th.
    assert _ask(_view(QUIZ, created="2023-02-14 09:00:00")) == routine


def test_plan_day_cites_its_retrieval_and_the_memory_that_put_the_event_in(tiny, events):
    """Through the mind: the PLAN event names the plan_day retrieval, and the cafe block's
    evidence is exactly the quiz memory, which that retrieval returned."""
    sim = tiny()
    seen = events(sim)
    ann = sim.personas["ann"]
    ann.stream.add(kind=MemoryKind.OBSERVATION, content="The park has new benches.",
                   created=datetime(2023, 2, 13, 9), importance=2)
    quiz = ann.stream.add(kind=MemoryKind.CHAT, content=QUIZ, created=datetime(2023, 2, 13, 12),
                          importance=6)
    sim.clock.advance(sim.clock.ticks_for(hours=24))  # Tuesday 14 Feb 07:00
    sim.think(partial(plan_day, ann))
    (plan,) = [e for e in seen if e.kind is EventKind.PLAN]
    assert quiz.id in retrieval_ids(seen, plan.data["retrieval"])
    cafe = [i for i in plan.data["items"] if i["place"] == "w:Corner Cafe"]
    assert [(i["start"], i["end"], i["evidence"]) for i in cafe] == [
        ("2023-02-14 18:00:00", "2023-02-14 20:00:00", [quiz.id])]
    assert all(i["evidence"] == [] for i in plan.data["items"] if i["place"] != "w:Corner Cafe")
    assert ann.plan[2].start == datetime(2023, 2, 14, 18) and ann.plan[2].end - ann.plan[2].start == timedelta(hours=2)
    # the plan memory keeps its blocks as fields: the quiz block 18:00-20:00 at the cafe among them
    (memory,) = [r for r in ann.stream.records() if r.kind is MemoryKind.PLAN]
    assert [(i.start, i.end, i.place) for i in memory.plan_items] == [(b.start, b.end, b.place) for b in ann.plan]
    assert (datetime(2023, 2, 14, 18), datetime(2023, 2, 14, 20), "w:Corner Cafe") in [
        (i.start, i.end, i.place) for i in memory.plan_items]
