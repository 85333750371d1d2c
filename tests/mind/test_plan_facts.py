"""The day plan from memories' facts: one record per fact in its retrieval, and every event of
the day the persona knows of (its own commitments too), whatever its retrieval ranks first."""

from __future__ import annotations

from datetime import datetime
from functools import partial

from mind_events import retrieval_ids

from town.events import EventKind
from town.memory import MemoryKind
from town.memory.fact import Fact
from town.mind import plan_day

QUIZ = Fact(subject="Bob Brown", act="host a quiz", place="w:Corner Cafe", start=datetime(2023, 2, 14, 18),
            end=datetime(2023, 2, 14, 20), host="Bob Brown", invited=("everyone",))
SALE = Fact(subject="Ann Able", act="hold a bake sale", place="w:Green Park", start=datetime(2023, 2, 14, 10),
            end=datetime(2023, 2, 14, 12), host="Ann Able", invited=("everyone",))


def _ann_knows(sim):
    """Ann's stream: her own bake sale, whispered early and rated low (1); then six records of
    Bob's quiz (told, retold, summarised: importance 9) and fourteen fresher plain
    observations, so that a retrieval with copies puts the quiz first and six times."""
    ann = sim.personas["ann"]
    ann.stream.add(kind=MemoryKind.WHISPER, content="I am holding a bake sale at Green Park tomorrow from 10am "
                   "to noon, and everyone is welcome.", created=datetime(2023, 2, 13, 7), importance=1, fact=SALE)
    copies = [ann.stream.add(kind=MemoryKind.CHAT, content=f"Someone {i} told me that Bob Brown is hosting a quiz "
                             "at Corner Cafe on February 14 from 6pm to 8pm.", created=datetime(2023, 2, 13, 20, i),
                             importance=9, fact=QUIZ) for i in range(6)]
    for i in range(14):
        ann.stream.add(kind=MemoryKind.OBSERVATION, content=f"Plans for the day: a plant {i} needs water.",
                       created=datetime(2023, 2, 13, 21, i), importance=5)
    return ann, copies


def _plan(tiny, events):
    sim = tiny()
    seen = events(sim)
    ann, copies = _ann_knows(sim)
    sim.clock.advance(sim.clock.ticks_for(hours=17))  # Tuesday 14 Feb 00:00
    sim.think(partial(plan_day, ann))
    (plan,) = [e for e in seen if e.kind is EventKind.PLAN]
    return sim, seen, ann, copies, plan


def test_the_plan_retrieval_holds_one_record_per_fact(tiny, events):
    """Of the six quiz records the plan's top k holds exactly one (the best scored: the newest,
    all else equal), and no two records of its top share a fact key."""
    sim, seen, ann, copies, plan = _plan(tiny, events)
    top = retrieval_ids(seen, plan.data["retrieval"])
    facts = [ann.stream.get(i).fact.key() for i in top if ann.stream.get(i).fact is not None]
    assert len(facts) == len(set(facts))
    assert [i for i in top if i in {c.id for c in copies}] == [copies[-1].id]


def test_the_persona_s_own_commitment_is_in_its_plan_though_its_retrieval_ranks_it_out(tiny, events):
    """Ann's bake sale (importance 1, 17 hours old) is outside the plan retrieval's top 10, but
    the day's events retrieval brings it: her plan holds 10:00-12:00 at Green Park, its evidence
    the whisper, and the quiz 18:00-20:00 at Corner Cafe."""
    sim, seen, ann, copies, plan = _plan(tiny, events)
    (own,) = [r for r in ann.stream.records() if r.fact == SALE]
    assert own.id not in retrieval_ids(seen, plan.data["retrieval"])
    assert own.id in retrieval_ids(seen, plan.data["events_retrieval"])
    blocks = [(i["start"], i["end"], i["place"], i["description"], i["evidence"]) for i in plan.data["items"]
              if i["evidence"]]
    assert blocks == [
        ("2023-02-14 10:00:00", "2023-02-14 12:00:00", "w:Green Park", "hold a bake sale at Green Park", [own.id]),
        ("2023-02-14 18:00:00", "2023-02-14 20:00:00", "w:Corner Cafe", "go to Bob Brown's quiz at Corner Cafe",
         [copies[-1].id]),
    ]
    reasons = {e["place"]: e["reason"] for e in plan.data["events"]}
    assert reasons["w:Green Park"] == "it is my own plan"


def test_a_day_of_five_events_plans_four_and_declines_the_last_with_its_reason(tiny, events):
    """Five events at Green Park, 08:00, 10:00, ... 16:00 (an hour each, Bob's, open): a day plan's
    answer adds at most four blocks, so the first four (in retrieval order, all free) go in and
    the fifth is declined saying why."""
    sim = tiny()
    seen = events(sim)
    ann = sim.personas["ann"]
    for n, hour in enumerate((8, 10, 12, 14, 16)):
        ann.stream.add(kind=MemoryKind.CHAT, content=f"Bob Brown told me about event {n}.",
                       created=datetime(2023, 2, 13, 9, n), importance=6, tellers=(("Bob Brown", datetime(2023, 2, 13, 9)),),
                       fact=Fact(subject="Bob Brown", act=f"hold event {n}", place="w:Green Park",
                                 start=datetime(2023, 2, 14, hour), end=datetime(2023, 2, 14, hour + 1),
                                 host="Bob Brown", invited=("everyone",)))
    sim.clock.advance(sim.clock.ticks_for(hours=17))
    sim.think(partial(plan_day, ann))
    (plan,) = [e for e in seen if e.kind is EventKind.PLAN]
    went = [e for e in plan.data["events"] if e["go"]]
    declined = [e["reason"] for e in plan.data["events"] if not e["go"]]
    assert len(went) == 4 and declined == ["I already have 4 other plans that day"]
    assert len([i for i in plan.data["items"] if i["evidence"]]) == 4
