"""A player tells Isabella their name, then asks three questions; each answer answers it from
the memory retrieved for it (the persona's file for her work), in the first person.

Worked out by hand from the_ville's files: Isabella's file says she "owns and runs Hobbs Cafe",
and her seeded memory plans a Valentine's Day party at Hobbs Cafe on February 14 from 5pm to
7pm; the player asks on Monday 13 February, so "tomorrow evening" is that party.
"""

from __future__ import annotations

import sys
from pathlib import Path

from player_inputs import add_player, player_says
from town.config import load_config
from town.events import EventKind
from town.scenario import load_scenario
from town.simulation import Simulation

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "mind"))  # a dependency ships a top-level `tests`
from mind_events import retrieval_ids  # noqa: E402

THE_VILLE = Path(__file__).resolve().parents[2] / "personas" / "the_ville"


def test_a_players_questions_are_answered_from_what_was_retrieved():
    sim = Simulation(load_scenario(THE_VILLE), load_config(None, {"embedder": "hashing"}))
    seen = []
    sim.bus.subscribe(seen.append)
    sim.run(30)
    pid = add_player(sim, "Ada")
    isabella = sim.personas["isabella_rodriguez"]
    me = sim.personas[pid]
    me.place(isabella.x, isabella.y)

    def ask(text: str) -> tuple[str, list[int]]:
        player_says(sim, pid, text, "isabella_rodriguez")
        for _ in range(6):
            sim.step()
            said = [e for e in seen if e.kind is EventKind.CHAT and e.data["speaker"] == isabella.id]
            if said and said[-1].seq > asked[0]:
                return said[-1].data["line"], retrieval_ids(seen, said[-1].data["retrieval"])
        raise AssertionError(f"no answer to {text!r}")

    asked = [0]
    asked[0] = seen[-1].seq
    ask("Hello Isabella, my name is Ada.")
    name = next(r for r in isabella.stream.records() if r.content == 'Ada said to me: "Hello Isabella, my name is Ada."')
    asked[0] = seen[-1].seq
    line, ids = ask("What's my name?")
    assert line == "Your name is Ada: you told me." and name.id in ids
    asked[0] = seen[-1].seq
    line, ids = ask("What are you doing tomorrow evening?")
    party = next(r for r in isabella.stream.records() if r.content.startswith("I am planning a Valentine's"))
    assert party.id in ids
    assert line == ("I am planning a Valentine's Day party at Hobbs Cafe tomorrow from 5pm to 7pm, "
                    "and I want to invite everyone.")
    asked[0] = seen[-1].seq
    line, _ = ask("Where do you work?")
    assert line.startswith("I own and run Hobbs Cafe")


def test_a_player_who_says_who_they_are_is_met_by_name_and_never_told_their_own_words():
    """As found with two players: "Hi Isabella! I am Bo. What is happening this week?" was
    answered "Bo told me that What is happening this week?." (his own words back), and nobody
    was met by name. Now she meets him by the name he gave and answers with her news: the
    party memory of her file, said relative to Monday 13 February ("tomorrow"); a question about
    what none of her memories says gets "I don't know", never his question back."""
    sim = Simulation(load_scenario(THE_VILLE), load_config(None, {"embedder": "hashing"}))
    seen = []
    sim.bus.subscribe(seen.append)
    sim.run(30)
    pid = add_player(sim, "Bo")
    isabella = sim.personas["isabella_rodriguez"]
    sim.personas[pid].place(isabella.x, isabella.y)
    player_says(sim, pid, "Hi Isabella! I am Bo. What is happening this week?", "isabella_rodriguez")
    sim.step()
    player_says(sim, pid, "Thanks! Who runs the pharmacy?", "isabella_rodriguez")  # nothing she knows
    sim.run(2)
    said = [e.data["line"] for e in seen if e.kind is EventKind.CHAT and e.data["speaker"] == isabella.id]
    assert len(said) == 2 and said[0].startswith("Nice to meet you, Bo! ")  # then her voice's lead-in, maybe
    assert ("I am planning a Valentine's Day party at Hobbs Cafe tomorrow from 5pm to 7pm, and everyone is "
            "welcome") in said[0] and "What is happening" not in said[0]
    assert said[1] == "I don't know anything about that."  # the one answerer's (town.scripted.interview)
