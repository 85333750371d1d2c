"""News travels on from those who heard it, not only from the one it was whispered to.

A hand-built town of three: Ann Able (the host) spends the day at the Corner Cafe, Bob Brown
has breakfast there until 09:00 and then sits in Green Park, Cat Cole stays at home until 09:30
and then sits in the park. Ann never goes to the park and Cat never to the cafe, so Cat can hear
Ann's news only from Bob (Park et al. 2023 §7.1.1: the party spread second-hand, 1 -> 12).

Ann is whispered at 07:00 on Monday 13 February "I am hosting a quiz night at Corner Cafe on
Friday at 6pm". Worked by hand (``town.mind.weigh``): to Ann it is her own event, 8; to Bob, told
it by Ann, it is someone else's event with no invitation and more than 36 game hours ahead, 4,
so it would stay with him (news is what rates 5 or more); told as news, it rates 5 (``NEWS``),
and Bob passes it on to Cat in the park. Cat's memory names Bob as its teller, Bob's record as
its source, and Ann as who hosts it.
"""

from __future__ import annotations

import pytest
import yaml

from town.config import load_config
from town.events import EventKind
from town.scenario import load_scenario
from town.simulation import Simulation

MAP = {
    "world": "w",
    "size": [22, 9],
    "sectors": [
        {"name": "Ann's home", "rect": [0, 0, 5, 4], "doors": [[2, 3]],
         "arenas": [{"name": "ann room", "rect": [1, 1, 3, 2], "objects": [{"name": "bed", "at": [1, 1]}]}]},
        {"name": "Bob's flat", "rect": [5, 0, 5, 4], "doors": [[7, 3]],
         "arenas": [{"name": "bob room", "rect": [6, 1, 3, 2], "objects": [{"name": "bed", "at": [6, 1]}]}]},
        {"name": "Cat's house", "rect": [16, 0, 6, 4], "doors": [[18, 3]],
         "arenas": [{"name": "cat room", "rect": [17, 1, 4, 2],
                     "objects": [{"name": "bed", "at": [17, 1]}, {"name": "armchair", "at": [19, 1]}]}]},
        {"name": "Corner Cafe", "rect": [10, 0, 6, 4], "doors": [[12, 3]],
         "arenas": [{"name": "cafe", "rect": [11, 1, 4, 2],
                     "objects": [{"name": "table", "at": [13, 2]}, {"name": "counter", "at": [14, 1]}]}]},
        {"name": "Green Park", "rect": [0, 5, 22, 4], "doors": [[3, 5]],
         "arenas": [{"name": "lawn", "rect": [1, 6, 20, 2], "objects": [{"name": "bench", "at": [4, 6]},
                                                                        {"name": "fountain", "at": [5, 6]}]}]},
    ],
}

QUIZ = "I am hosting a quiz night at Corner Cafe on Friday at 6pm"
SAID = "Ann Able is hosting a quiz night at Corner Cafe on Friday, February 17 at 6pm"


def _person(name: str, home: str, day: list[tuple[str, str, str, str]]) -> dict:
    routine = [{"start": "00:00", "end": "07:00", "activity": "sleeping", "place": f"w:{home}:bed"}]
    routine += [{"start": a, "end": b, "activity": what, "place": place} for a, b, what, place in day]
    return {"name": name, "age": 30, "traits": ["calm"], "background": "b", "lifestyle": "l",
            "home": f"w:{home}:bed", "routine": routine}


@pytest.fixture(scope="module")
def quiz_run(tmp_path_factory):
    """The three-person town from 07:00 to 13:00, Ann whispered the quiz night at 07:00."""
    folder = tmp_path_factory.mktemp("three")
    (folder / "map.yaml").write_text(yaml.safe_dump(MAP))
    (folder / "town.yaml").write_text("name: Three\nstart: '2023-02-13 07:00'\n")
    people = {
        "ann": _person("Ann Able", "Ann's home:ann room",
                       [("07:00", "24:00", "serve customers", "w:Corner Cafe:cafe:counter")]),
        "bob": _person("Bob Brown", "Bob's flat:bob room",
                       [("07:00", "09:00", "have breakfast", "w:Corner Cafe:cafe:table"),
                        ("09:00", "24:00", "read on the bench", "w:Green Park:lawn:bench")]),
        "cat": _person("Cat Cole", "Cat's house:cat room",
                       [("07:00", "09:30", "read a book", "w:Cat's house:cat room:armchair"),
                        ("09:30", "24:00", "feed the ducks", "w:Green Park:lawn:fountain")]),
    }
    people["ann"]["pronouns"] = "she/her"
    for pid, spec in people.items():
        (folder / f"{pid}.yaml").write_text(yaml.safe_dump(spec))
    sim = Simulation(load_scenario(folder), load_config(None, {"embedder": "hashing"}), seed_memories=False)
    seen: list = []
    sim.bus.subscribe(seen.append)
    sim.whisper("ann", QUIZ)
    sim.run(6 * 360)
    return sim, seen


def test_news_heard_from_the_host_is_passed_on_to_someone_who_never_met_her(quiz_run):
    sim, seen = quiz_run
    talks = [e.data["participants"] for e in seen if e.kind == EventKind.CONVERSATION]
    assert not any(set(t) == {"ann", "cat"} for t in talks)  # Cat never talked with Ann
    ann, bob, cat = (sim.personas[x] for x in ("ann", "bob", "cat"))
    own = next(r for r in ann.stream.records() if r.kind.value == "whisper")
    assert own.importance == 8  # her own event (weigh.OWN)
    from_ann = [r for r in bob.stream.records() if r.fact is not None and r.fact.act == "host a quiz night"]
    from_bob = [r for r in cat.stream.records() if r.fact is not None and r.fact.act == "host a quiz night"]
    assert len(from_ann) == 1 and len(from_bob) == 1  # one memory per fact, whoever tells it again
    heard, passed = from_ann[0], from_bob[0]
    assert heard.content == f"Ann Able told me that she is hosting a quiz night at Corner Cafe on Friday, February 17 at 6pm."
    assert [t for t, _ in heard.tellers] == ["Ann Able"] and heard.source == ("ann", own.id)
    assert heard.importance == 5  # 4 as someone else's event, raised to news: told as news
    assert passed.content == f"Bob Brown told me that {SAID}."
    assert [t for t, _ in passed.tellers] == ["Bob Brown"] and passed.source == ("bob", heard.id)
    assert passed.importance == 5


def test_the_same_news_is_told_once_to_each_person(quiz_run):
    """Every line passing on the quiz night goes to a listener who was not told it by that
    speaker before: each (speaker, listener) pair shares the quiz-night memory once at most."""
    sim, seen = quiz_run
    quiz = {pid: {r.id for r in p.stream.records() if r.fact is not None and r.fact.act == "host a quiz night"}
            for pid, p in sim.personas.items()}
    told = [(e.data["speaker"], e.data["listener"]) for e in seen if e.kind == EventKind.CHAT
            and set(e.data.get("shared", ())) & quiz[e.data["speaker"]]]
    assert ("ann", "bob") in told and ("bob", "cat") in told
    assert len(told) == len(set(told))
