"""Talking from memory text: what is said comes from the speaker's retrieval, and the listener
keeps the words said (Park et al. 2023 §4.3.2)."""

from __future__ import annotations

from datetime import datetime
from functools import partial

from mind_events import retrieval_ids

from town.events import EventKind
from town.memory import MemoryKind
from town.mind.converse import TALK_COOLDOWN_HOURS, WHOLE_MEMORIES, Conversation, accept_talk, want_to_talk, whole_side
from town.mind.perceive import Appearance
from town.simulation.conversations import turn
from town.simulation.decide import open_whole
from town.simulation.jobs import think
from town.reading import read_fact
from town.textevent import find_event, place_names

QUIZ = "I am hosting a quiz at Corner Cafe tomorrow from 6pm to 8pm."
TONIGHT = "I am hosting a quiz at Corner Cafe tonight from 6pm to 8pm."


def _bob_view(sim) -> Appearance:
    bob = sim.personas["bob"]
    return Appearance(id="bob", name="Bob Brown", x=bob.x, y=bob.y, arena="w:Bob's flat:bob room",
                action="reading a book", kind="do", address="w:Bob's flat:bob room:armchair", conversation=None)


def _talk(sim, lines: int) -> Conversation:
    """Ann and Bob talk: at most ``lines`` lines, a line every 2 ticks, each side's summary at the end."""
    conv = sim.conversations.open("ann", "bob", None, None)

    def side_by_side(works):  # the summaries, one after the other
        return [think(sim.services, sim.clock.tick, sim.clock.now, work) for work in works]

    for _ in range(lines):
        sim.clock.advance(2)
        if sim.think(partial(turn, conv, sim.personas, side=side_by_side)):
            sim.conversations.close(conv.id, shown=True)
            break
    return conv


def test_shared_ids_are_among_the_cited_retrieval_and_the_listener_keeps_the_words(tiny, events):
    """Ann knows two things worth telling but retrieval returns one memory per line (k = 1).
    Every CHAT's ``shared`` ids are among the ids its cited retrieval returned, and for each line
    that shared something Bob now remembers it: a line stating no fact as Ann said it, quoted
    ('Ann Able said to me: "... My sister Cara ..."'), never shifted into Bob's person."""
    sim = tiny(**{"retrieval.k": 1})
    seen = events(sim)
    ann = sim.personas["ann"]
    t = datetime(2023, 2, 13, 7)
    ann.stream.add(kind=MemoryKind.OBSERVATION, content=QUIZ, created=t, importance=7)
    ann.stream.add(kind=MemoryKind.OBSERVATION, content="My sister Cara got engaged to her "
                   "long-time partner.", created=t, importance=9)
    ann.stream.add(kind=MemoryKind.OBSERVATION, content="Bob Brown is my neighbour.", created=t,
                   importance=3)
    _talk(sim, 8)
    chats = [e for e in seen if e.kind is EventKind.CHAT]
    assert chats
    shared_lines = [c for c in chats if c.data["shared"]]
    assert shared_lines, [c.data["line"] for c in chats]
    for c in chats:
        assert set(c.data["shared"]) <= set(retrieval_ids(seen, c.data["retrieval"])), c.data
    heard = [r.content for r in sim.personas["bob"].stream.records() if r.kind is MemoryKind.CHAT]
    assert all(h.startswith("Ann Able told me that ") for h in heard if "told me" in h), heard
    for c in shared_lines:
        if "sister Cara" in c.data["line"]:
            assert f'Ann Able said to me: "{c.data["line"]}"' in heard


def _ann_holds(sim, text: str) -> None:
    """Ann remembers ``text`` (07:00 on 13 Feb) with its fact, read at its edge as a whisper is."""
    places = place_names(sim.world.tilemap.addresses())
    created = datetime(2023, 2, 13, 7)
    fact = read_fact(text, created, places, [p.name for p in sim.personas.values()], "Ann Able")
    sim.personas["ann"].stream.add(kind=MemoryKind.OBSERVATION, content=text, created=created, importance=7,
                                   fact=fact)


def test_retelling_says_the_absolute_date(tiny, events):
    """Ann heard "tomorrow" on Monday 13 Feb; telling Bob, she names Tuesday, February 14, and
    Bob's memory, realised from the fact, states 14 Feb 18:00-20:00 at the cafe on any later day."""
    sim = tiny()
    ann = sim.personas["ann"]
    _ann_holds(sim, QUIZ)
    _talk(sim, 8)
    (heard,) = [r for r in sim.personas["bob"].stream.records() if r.kind is MemoryKind.CHAT
                and "quiz" in r.content and " told me " in r.content]
    assert heard.content == "Ann Able told me that they are hosting a quiz at Corner Cafe on Tuesday, February 14 from 6pm to 8pm."
    places = place_names(sim.world.tilemap.addresses())
    event = find_event(heard.content, datetime(2023, 2, 16, 9), places)
    assert (event.place, event.start, event.end) == (
        "w:Corner Cafe", datetime(2023, 2, 14, 18), datetime(2023, 2, 14, 20))


def test_hearing_an_event_for_today_makes_the_listener_replan(tiny):
    """"tonight from 6pm to 8pm" told at 07:00 is an event today: Bob must replan; the same
    news for tomorrow is not (the next day's plan will read it)."""
    for text, replan in ((TONIGHT, True), (QUIZ, False)):
        sim = tiny()
        _ann_holds(sim, text)
        _talk(sim, 8)
        assert sim.personas["bob"].needs_replan is replan, text


def test_the_talk_decision_depends_on_retrieved_memories(tiny):
    """With news to tell Bob, Ann starts a conversation at each of 10 ticks; with nothing
    retrieved she starts one at no more than 3 (a stranger is rarely addressed)."""
    def tries(with_news: bool) -> int:
        sim = tiny()
        ann = sim.personas["ann"]
        if with_news:
            ann.stream.add(kind=MemoryKind.OBSERVATION, content=QUIZ,
                           created=datetime(2023, 2, 13, 7), importance=7)
        talks = 0
        for _ in range(10):
            sim.clock.advance(400)
            ann.cool_down("bob", 0)
            talks += sim.think(lambda ctx: want_to_talk(ann, ctx, [_bob_view(sim)])) is not None
        return talks

    assert tries(True) == 10
    assert tries(False) <= 3


def test_one_request_decides_to_talk_and_writes_the_whole_talk(tiny, events):
    """Talking whole, Ann's sighting of Bob is one request (``open_whole``): with news to tell
    him she starts at each of 10 sightings, the exchange written with her first (its lines cite
    her retrieval and Bob's, both made for it), and cools down toward him 3 game hours: 1,080
    ticks of 10 s; with nothing retrieved she starts at no more than 3 (as DecideToTalk's rule:
    a stranger is addressed with chance 0.05), and each decline cools her down 1 hour, 360 ticks,
    with no exchange written."""
    def sightings(with_news: bool) -> tuple[int, list]:
        sim = tiny()
        sim.step()  # both plan the day (a decline goes on with the plan)
        seen = events(sim)
        ann, bob = sim.personas["ann"], sim.personas["bob"]
        if with_news:
            ann.stream.add(kind=MemoryKind.OBSERVATION, content=QUIZ, created=datetime(2023, 2, 13, 7), importance=7)
        talks, cooled = 0, []

        def side_by_side(works):
            return [think(sim.services, sim.clock.tick, sim.clock.now, work) for work in works]

        for _ in range(10):
            sim.clock.advance(400)
            ann.cool_down("bob", 0)
            before = len(seen)
            opening = sim.think(partial(open_whole, ann, bob, sim.personas, side=side_by_side))
            cooled.append(ann.cooldown["bob"] - sim.clock.tick)
            retrievals = {e.persona: e.seq for e in seen[before:] if e.kind is EventKind.RETRIEVAL}
            assert set(retrievals) == {"ann", "bob"}
            if opening is not None:
                talks += 1
                assert opening.script[0]["speaker"] == "ann" and opening.written == "whole"
                assert [pid for pid, _ in opening.retrievals] == ["ann", "bob"]
        return talks, cooled

    talks, cooled = sightings(True)
    assert talks == 10 and cooled == [TALK_COOLDOWN_HOURS * 360] * 10 == [1080] * 10
    talks, cooled = sightings(False)
    assert talks <= 3 and cooled.count(360) == 10 - talks and cooled.count(1080) == talks


def test_a_side_of_a_whole_talk_shows_its_best_four_memories(tiny):
    """Ann holds 9 memories, none about Bob nor told him, and retrieves 10: her side of a talk
    written whole shows 4 (``WHOLE_MEMORIES``), the 4 her retrieval ranked first, in its order."""
    sim = tiny()
    ann = sim.personas["ann"]
    for n in range(9):
        ann.stream.add(kind=MemoryKind.OBSERVATION, content=f"I painted picture number {n} of the park.",
                       created=datetime(2023, 2, 13, 6, n), importance=1 + n % 9)
    side, note = sim.think(lambda ctx: whole_side(ann, sim.personas["bob"], ctx))
    best = sorted((c for c in note.data["candidates"] if c["in_top_k"]), key=lambda c: c["rank"])
    assert WHOLE_MEMORIES == 4 and len(best) == 9
    assert [m.id for m in side.memories] == [c["id"] for c in best[:4]]


def test_a_whole_talk_offers_only_the_names_its_sides_hold():
    """A kept item may name only the people and places the two sides and their memories name:
    "Hobbs Cafe" and "cafe" (a whole word of it, any case) and "library" are named, "pub" is
    not ("public" is another word), "Klaus Mueller" is given (a side), "Maria Lopez" named; in
    the options' order."""
    from town.mind.converse import _named_in
    texts = ['Maria Lopez said to me: "See you at Hobbs Cafe."', "I read in the public library."]
    assert _named_in(("Isabella Rodriguez", "Klaus Mueller", "Maria Lopez"), texts, {"Klaus Mueller"}) == (
        "Klaus Mueller", "Maria Lopez")
    assert _named_in(("Hobbs Cafe", "cafe", "library", "pub"), texts, set()) == ("Hobbs Cafe", "cafe", "library")


def test_the_addressed_side_decides_from_its_own_retrieval(tiny):
    """Bob, asked by Ann, accepts at each of 10 ticks when he has news for her; with nothing
    retrieved he declines at least once."""
    def accepted(with_news: bool) -> int:
        sim = tiny()
        bob = sim.personas["bob"]
        if with_news:
            bob.stream.add(kind=MemoryKind.OBSERVATION, content=QUIZ,
                           created=datetime(2023, 2, 13, 7), importance=7)
        n = 0
        for _ in range(10):
            sim.clock.advance(400)
            n += sim.think(lambda ctx: accept_talk(bob, ctx, "ann", "Ann Able"))[0]
        return n

    assert accepted(True) == 10
    assert accepted(False) < 10


def test_a_pair_with_nothing_new_talks_briefly(tiny, events):
    """Once Ann has told Bob her news, a second conversation shares nothing: a greeting, a
    question, its answer, a goodbye."""
    sim = tiny()
    seen = events(sim)
    sim.personas["ann"].stream.add(kind=MemoryKind.OBSERVATION, content=QUIZ,
                                   created=datetime(2023, 2, 13, 7), importance=7)
    _talk(sim, 8)
    first = len([e for e in seen if e.kind is EventKind.CHAT])
    conv = _talk(sim, 8)
    again = [e for e in seen if e.kind is EventKind.CHAT][first:]
    assert len(conv.lines) <= 4 and all(not e.data["shared"] for e in again)



def test_an_event_under_way_is_no_longer_news():
    """Worked by hand: heard on 13 Feb, "tomorrow from 6pm to 8pm" is 14 Feb 18:00. At 17:59 it is
    still news; at 18:00, and on the 15th, it has begun or passed and is not told. A memory that
    states no day is news at any hour."""
    from town.thinking.questions import MemoryView
    from town.scripted.talk import worth_telling

    quiz = MemoryView(id=1, kind="chat", importance=7, created="2023-02-13 09:00:00",
                      content="Cat Cole told me that Bob Brown is hosting a quiz at Corner Cafe tomorrow from 6pm to 8pm.")
    bench = MemoryView(id=2, kind="observation", importance=6, created="2023-02-13 09:00:00",
                       content="The park has new benches painted green by the council.")
    told = {at: [m.id for m in worth_telling([quiz, bench], now=datetime.fromisoformat(at))]
            for at in ("2023-02-14 17:59", "2023-02-14 18:00", "2023-02-15 09:00")}
    assert told == {"2023-02-14 17:59": [1, 2], "2023-02-14 18:00": [2], "2023-02-15 09:00": [2]}
