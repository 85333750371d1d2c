"""Reflection, acting and perceiving on the tiny town: each decision rests on what retrieval
returned (Park et al. 2023 §4.2, §4.3)."""

from __future__ import annotations

from datetime import datetime
from functools import partial

import pytest
from mind_events import retrieval_ids

from town.events import EventKind
from town.memory import MemoryKind
from town.mind import maybe_reflect, perceive, remember
from town.mind.perceive import Appearance
from town.thinking.questions import DecomposeTask, MemoryView
from town.scripted import ScriptedBackend

MEMORIES = (
    ("Bob Brown plays the piano at Corner Cafe every evening.", 6),
    ("Bob Brown told me the piano at Corner Cafe is out of tune.", 6),
    ("Bob Brown and I talked about music for an hour at Corner Cafe.", 7),
    ("I read a book about music history in my armchair.", 4),
    ("The park has new benches.", 2),
)


def test_insights_cite_two_or_more_retrieved_memories_and_copy_none(tiny, events):
    """Every insight's evidence is a subset of its retrieval's ids with at least two ids, and no
    insight's text contains (or equals) any memory's text."""
    sim = tiny()
    seen = events(sim)
    ann = sim.personas["ann"]
    for i, (text, importance) in enumerate(MEMORIES):
        ann.stream.add(kind=MemoryKind.OBSERVATION, content=text,
                       created=datetime(2023, 2, 13, 7 + 2 * i), importance=importance)
    ann.gain_importance(1000)
    assert sim.think(partial(maybe_reflect, ann))
    (reflection,) = [e for e in seen if e.kind is EventKind.REFLECTION]
    insights = reflection.data["insights"]
    assert insights
    for insight in insights:
        returned = set(retrieval_ids(seen, insight["retrieval"]))
        assert len(set(insight["evidence"])) >= 2 and set(insight["evidence"]) <= returned, insight
        assert not any(text in insight["content"] for text, _ in MEMORIES), insight["content"]


def _steps(memories=()):
    q = DecomposeTask(persona="ann", persona_name="Ann Able", seed=11, task="spend time at the cafe",
                      place="w:Corner Cafe:cafe", start="10:00", minutes=30,
                      objects=("w:Corner Cafe:cafe:piano", "w:Corner Cafe:cafe:table",
                               "w:Corner Cafe:cafe:counter"), memories=memories)
    return [s.object for s in ScriptedBackend().ask(q).steps]


def test_reflection_waits_until_new_memories_reach_its_threshold(tiny, events):
    """Park et al. 2023 §4.2: a persona reflects once the importance of its new memories sums to
    the threshold (150). Worked by hand: 18 memories of importance 8 and one of 5 sum to 149, no
    reflection; one more of importance 1 makes 150, and Ann reflects (the sum starts again at 0)."""
    sim = tiny()
    seen = events(sim)
    ann = sim.personas["ann"]
    assert sim.config.reflection.threshold == 150
    for i, importance in enumerate([8] * 18 + [5]):
        sim.think(lambda ctx, i=i, importance=importance: remember(
            ann, ctx, kind="observation", content=f"Bob Brown plays song {i} at Corner Cafe.", importance=importance))
    assert ann.importance_acc == 149
    assert sim.think(partial(maybe_reflect, ann)) is False
    assert not [e for e in seen if e.kind in (EventKind.REFLECTION, EventKind.RETRIEVAL)]
    sim.think(lambda ctx: remember(ann, ctx, kind="observation", content="The park has new benches.", importance=1))
    assert sim.think(partial(maybe_reflect, ann)) is True
    assert [e.kind for e in seen].count(EventKind.REFLECTION) == 1 and ann.importance_acc == 0


def test_the_act_retrieval_changes_the_decomposition():
    """A retrieved memory naming the counter sends the first step there, whatever the seed's
    choice without it (which, for seed 11, is not the counter)."""
    memory = MemoryView(id=1, content="The counter at the cafe has fresh croissants today.",
                        kind="observation", importance=4, created="2023-02-13 09:00:00")
    without = _steps()
    assert without[0] != "w:Corner Cafe:cafe:counter"
    assert _steps((memory,))[0] == "w:Corner Cafe:cafe:counter"


def test_perceiving_a_change_of_action_leaves_an_observation(tiny):
    """Ann sees Bob (same room) reading: one observation naming him, where he is and his
    activity as written; seeing the same action again adds nothing."""
    sim = tiny()
    ann, bob = sim.personas["ann"], sim.personas["bob"]
    me = Appearance(id="ann", name="Ann Able", x=ann.x, y=ann.y, arena="w:Ann's home:ann room",
              action="reading", kind="do", address="w:Ann's home:ann room:armchair", conversation=None)
    him = Appearance(id="bob", name="Bob Brown", x=ann.x + 1, y=ann.y, arena="w:Ann's home:ann room",
               action="read a book", kind="do", address="w:Ann's home:ann room:armchair",
               conversation=None)
    snapshot = {"ann": me, "bob": him}
    assert [v.id for v in sim.think(lambda ctx: perceive(ann, ctx, snapshot))] == ["bob"]
    sim.think(lambda ctx: perceive(ann, ctx, snapshot))
    observed = [r.content for r in ann.stream.records() if r.kind is MemoryKind.OBSERVATION]
    assert observed == ["Bob Brown is at the armchair of the ann room in Ann's home: read a book."]
    assert bob.stream.records() == []


def test_an_insight_held_already_is_not_written_again(tiny, events):
    """Ann sees Bob at Corner Cafe on two mornings and reflects after each: the second
    reflection draws the first one's insight ("I see Bob at Corner Cafe on Monday, February 13: ...",
    one day's sightings two hours apart, three visits: no habit yet, "today" written as its date) again,
    which is among the 100 most recent memories it reads, so it is not written a second time."""
    sim = tiny()
    seen = events(sim)
    ann = sim.personas["ann"]

    def mornings(day: int) -> None:
        for i, (text, importance) in enumerate(MEMORIES):
            ann.stream.add(kind=MemoryKind.OBSERVATION, content=text,
                           created=datetime(2023, 2, day, 7 + 2 * i), importance=importance)
        ann.gain_importance(1000)
        assert sim.think(partial(maybe_reflect, ann))

    mornings(13)
    mornings(14)
    first, second = [e.data["insights"] for e in seen if e.kind is EventKind.REFLECTION]
    assert [i["content"] for i in first] == ["I see Bob at Corner Cafe on Monday, February 13: 3 times so far, first at 07:00."]
    assert {i["content"] for i in second}.isdisjoint({i["content"] for i in first}), second
    held = [r.content for r in ann.stream.last_records(100) if r.kind is MemoryKind.REFLECTION]
    assert len(held) == len(set(held))


def test_an_insight_a_mind_repeats_is_not_written_again(tiny, events):
    """A mind that answers the second reflection with the first one's insight word for word (as a
    model may: the engine, not the scripted mind, must keep it out): Ann's stream then holds it once."""
    from town.thinking.answers import InsightAnswer, InsightsAnswer
    from town.thinking.questions import Insights

    sim = tiny()
    ann = sim.personas["ann"]
    for i, (text, importance) in enumerate(MEMORIES):
        ann.stream.add(kind=MemoryKind.OBSERVATION, content=text,
                       created=datetime(2023, 2, 13, 7, i), importance=importance)
    ask = sim.backend.ask

    def the_same_insight(q):
        if isinstance(q, Insights):
            ids = [m.id for m in q.memories if m.kind != "reflection"][:2]
            return InsightsAnswer(insights=[InsightAnswer(text="Bob Brown's music fills Corner Cafe.", evidence=ids)])
        return ask(q)

    sim.backend.ask = the_same_insight
    for _ in range(2):
        ann.gain_importance(1000)
        assert sim.think(partial(maybe_reflect, ann))
    held = [r.content for r in ann.stream.records() if r.kind is MemoryKind.REFLECTION]
    assert held == ["Bob Brown's music fills Corner Cafe."]


def test_an_insight_keeps_the_date_it_meant(tiny, events):
    """The clock is Monday 13 Feb 07:00, so an insight saying "today" is stored as "on Monday,
    February 13": read on the 15th, it does not say the concert is that day."""
    from town.thinking.answers import InsightAnswer, InsightsAnswer
    from town.thinking.questions import Insights

    sim = tiny()
    ann = sim.personas["ann"]
    for i, (text, importance) in enumerate(MEMORIES):
        ann.stream.add(kind=MemoryKind.OBSERVATION, content=text,
                       created=datetime(2023, 2, 13, 6, i), importance=importance)
    ann.gain_importance(1000)
    ask = sim.backend.ask

    def insight_today(q):
        if isinstance(q, Insights):
            ids = [m.id for m in q.memories][:2]
            return InsightsAnswer(insights=[InsightAnswer(text="Bob's piano concert today is all I hear about.",
                                                          evidence=ids)])
        return ask(q)

    sim.backend.ask = insight_today
    assert sim.think(partial(maybe_reflect, ann))
    held = [r.content for r in ann.stream.records() if r.kind is MemoryKind.REFLECTION]
    assert held == ["Bob's piano concert on Monday, February 13 is all I hear about."]


def _bob(action: str, obj: str = "armchair") -> Appearance:
    """Bob as Ann sees him in her room, doing ``action`` at ``obj``."""
    return Appearance(id="bob", name="Bob Brown", x=2, y=1, arena="w:Ann's home:ann room", action=action, kind="do",
                address=f"w:Ann's home:ann room:{obj}", conversation=None)


@pytest.mark.parametrize("retention_hours", [2.0, 0.0])
def test_an_observation_among_the_recent_ones_is_not_written_again(tiny, retention_hours):
    """Ann sees Bob read at the armchair, knit there, read there again 30 game minutes later,
    then read at the bed (a new place). With a 2-hour window the second reading at the armchair is
    among her recent observations and adds nothing; after 2 more game hours it counts again.
    Without a window (0) every change is written, as before the window existed."""
    sim = tiny(**{"perception.retention_hours": retention_hours})
    ann = sim.personas["ann"]
    me = Appearance(id="ann", name="Ann Able", x=1, y=1, arena="w:Ann's home:ann room", action="reading", kind="do",
              address="w:Ann's home:ann room:armchair", conversation=None)
    reading = "Bob Brown is at the armchair of the ann room in Ann's home: read a book."
    knitting = "Bob Brown is at the armchair of the ann room in Ann's home: knit a scarf."
    at_bed = "Bob Brown is at the bed of the ann room in Ann's home: read a book."

    def see(bob: Appearance, minutes: int) -> list[str]:
        sim.clock.advance(minutes * 6)  # 6 ticks of 10 s a minute
        before = len(ann.stream)
        sim.think(lambda ctx: perceive(ann, ctx, {"ann": me, "bob": bob}))
        return [r.content for r in ann.stream.records()[before:]]

    assert see(_bob("read a book"), 0) == [reading]
    assert see(_bob("read a book"), 10) == []  # no change
    assert see(_bob("knit a scarf"), 10) == [knitting]
    assert see(_bob("read a book"), 30) == ([] if retention_hours else [reading])
    assert see(_bob("read a book", "bed"), 10) == [at_bed]  # the place is part of what is seen
    assert see(_bob("read a book"), 130) == [reading]  # 3 h after the first: no longer recent


def test_only_the_nearest_attended_to_become_observations(tiny):
    """With attention 2, Ann (at x=1) sees Bob, Cy and Di at 1, 2 and 3 tiles, each starting to
    do something: she writes observations of the nearest two only, and all three are in sight
    (any may be talked to). When Di comes nearest, she notices Di too."""
    sim = tiny(**{"perception.attention": 2})
    ann = sim.personas["ann"]
    me = Appearance(id="ann", name="Ann Able", x=1, y=1, arena="w:Ann's home:ann room", action="reading", kind="do",
              address="w:Ann's home:ann room:armchair", conversation=None)

    def other(pid, name, x):
        return Appearance(id=pid, name=name, x=x, y=1, arena="w:Ann's home:ann room", action="stretch", kind="do",
                    address="w:Ann's home:ann room:bed", conversation=None)

    snapshot = {"ann": me, "bob": other("bob", "Bob Brown", 2), "cy": other("cy", "Cy Cole", 3),
                "di": other("di", "Di Dunn", 4)}
    assert [v.id for v in sim.think(lambda ctx: perceive(ann, ctx, snapshot))] == ["bob", "cy", "di"]
    assert [r.content.split(" is ")[0] for r in ann.stream.records()] == ["Bob Brown", "Cy Cole"]
    snapshot["di"] = other("di", "Di Dunn", 1)  # Di steps up to Ann, Bob is now the third
    sim.think(lambda ctx: perceive(ann, ctx, snapshot))
    assert [r.content.split(" is ")[0] for r in ann.stream.records()] == ["Bob Brown", "Cy Cole", "Di Dunn"]


def test_focal_points_ask_about_common_nouns_not_dates_or_names():
    """The scripted focal points over a plan ("Monday February 13") and a party at Hobbs Cafe:
    once "What do I know about the february?" (the heaviest word, 5 + 6). Worked out by hand:
    without the proper nouns (Monday, February, Valentine, Hobbs, Cafe; Isabella is a person),
    "party" and "planning" weigh 6, every word of the plan 5; ties alphabetical; a topic is a
    thing talked of, a noun after a determiner ("a sociology lecture", not "is planning"), so the
    second is "lecture" (5, before "paper" and "research"); nobody is named in full, so the third
    is the fixed one."""
    from town.thinking.questions import FocalPoints

    memories = (
        MemoryView(id=1, content="My plan for Monday February 13: 08:00 attend a sociology lecture; 13:00 write "
                   "the research paper", kind="plan", importance=5, created="2023-02-13 07:00:00"),
        MemoryView(id=2, content="Isabella is planning a Valentine's party at Hobbs Cafe on February 14",
                   kind="chat", importance=6, created="2023-02-13 09:00:00"),
    )
    answer = ScriptedBackend().ask(FocalPoints(persona="klaus_mueller", persona_name="Klaus Mueller",
                                               persona_summary="", memories=memories,
                                               people=("Klaus Mueller", "Isabella Rodriguez"), n=3))
    assert answer.questions == ["What do I know about the party?", "What do I know about the lecture?",
                                "What have I been spending my time on?"]  # her full name is in neither
