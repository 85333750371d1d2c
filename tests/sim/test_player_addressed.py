"""A persona may address a player, by the same decision as anyone: the player, who has no mind,
is taken to accept; the persona's first line greets the player as its memory allows; the talk
then waits for the player's line, which the persona answers; a silent player is left after
``PATIENCE_MINUTES``.

Worked out by hand from the_ville's files: at tick 30 (Monday 13 February, 07:05, 10 s a tick)
Isabella is walking to the market; Ada is set down on her tile, the nearest one she sees. Her
seeded plan for the Valentine's Day party is news worth telling (importance 5 or more, not
about Ada), so the scripted DecideToTalk says yes to anyone in sight, a stranger included.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from player_inputs import add_player, move_player, player_says, remove_player
from town.config import load_config
from town.errors import ConfigError
from town.events import EventKind
from town.scripted.voice import CLOSINGS
from town.player import PATIENCE_MINUTES
from town.scenario import load_scenario
from town.simulation import Simulation
from town.simulation.conversations import waits_for_player

THE_VILLE = Path(__file__).resolve().parents[2] / "personas" / "the_ville"
ISABELLA = "isabella_rodriguez"


def _ada_by_isabella(knows: bool):
    """the_ville after 30 ticks, Ada on Isabella's tile; Isabella told of Ada first when ``knows``."""
    sim = Simulation(load_scenario(THE_VILLE), load_config(None, {"embedder": "hashing"}))
    seen: list = []
    sim.bus.subscribe(seen.append)
    sim.run(30)
    pid = add_player(sim, "Ada")
    if knows:
        sim.whisper(ISABELLA, "Ada is my cousin; she is visiting from Lisbon this week.")
    isabella = sim.personas[ISABELLA]
    sim.personas[pid].place(isabella.x, isabella.y)
    return sim, seen, pid


def _chat(seen, speaker):
    return [e for e in seen if e.kind is EventKind.CHAT and e.data["speaker"] == speaker]


def test_a_persona_who_knows_the_player_addresses_it_waits_for_its_line_and_answers_it():
    sim, seen, pid = _ada_by_isabella(knows=True)
    sim.step()  # tick 30: she decides to talk, Ada accepts without a mind, she speaks first
    (first,) = _chat(seen, ISABELLA)
    assert (first.tick, first.data["listener"]) == (30, pid)
    # 07:05 and a memory naming Ada that is no sighting (the whisper), but no talk with her yet:
    # one of the greetings by name that claim no earlier talk (scripted_talk.greeting)
    assert first.data["line"] in {"Good morning, Ada!", "Hi Ada, good morning.", "Good morning, Ada. How are you?"}
    talks = {e.persona: e.data for e in seen if e.kind is EventKind.ACTION and e.data["kind"] == "talk"}
    assert talks[ISABELLA]["with"] == pid and talks[ISABELLA]["decision"] is not None
    assert talks[pid]["with"] == ISABELLA and talks[pid]["decision"] is None  # no mind decided
    conv = sim.conversations[talks[pid]["conversation"]]
    assert (conv.a, conv.b) == (ISABELLA, pid)

    state = sim.get_state()  # a player and its talk belong to the live session, not to a snapshot
    assert pid not in state["personas"] and state["conversations"] == []
    assert state["personas"][ISABELLA]["conversation"] is None

    sim.run(6)  # three line ticks: it is Ada's turn, so nobody speaks
    assert waits_for_player(conv, sim.players) and len(_chat(seen, ISABELLA)) == 1 and conv.lines[-1][0] == ISABELLA

    player_says(sim, pid, "Hi Isabella! Is anything happening this week?", ISABELLA)  # at tick 37
    sim.run(2)  # tick 38, her next line tick (30 + 2k)
    answer = _chat(seen, ISABELLA)[-1]
    assert (answer.tick, answer.data["listener"]) == (38, pid)
    # a question for news: her seeded party memory, said relative to Monday 13 February
    # (in her voice: a lead-in and Ada's name may frame it)
    assert "I am planning a Valentine's Day party at Hobbs Cafe tomorrow from 5pm to 7pm" in answer.data["line"]
    assert len(conv.lines) == 3 and waits_for_player(conv, sim.players)

    player_says(sim, pid, "Thanks, bye!", ISABELLA)
    sim.run(2)  # tick 40: she takes leave too, and that ends the talk
    bye = _chat(seen, ISABELLA)[-1]
    assert bye.tick == 40 and bye.data["line"] in {c.format(first="Ada") for c in CLOSINGS}
    (over,) = [e for e in seen if e.kind is EventKind.CONVERSATION]
    assert over.data["end_tick"] == 40 and len(over.data["lines"]) == 5


def test_a_newcomer_is_greeted_as_a_stranger_and_a_silent_one_is_left_after_the_persona_s_patience():
    sim, seen, pid = _ada_by_isabella(knows=False)
    sim.step()
    (first,) = _chat(seen, ISABELLA)
    # she has only seen Ada (an observation), and Ada is none of the town's people: no name
    assert first.data["line"] == "Good morning! I don't think we've met. I'm Isabella."
    # line at tick 30; the wait is noted at tick 31's start and runs out 20 game minutes later
    ticks = PATIENCE_MINUTES * 60 // sim.clock.seconds_per_tick
    assert ticks == 120
    sim.run(ticks)  # through tick 150: still waiting
    assert not [e for e in seen if e.kind is EventKind.CONVERSATION] and sim.personas[pid].conversation is not None
    sim.step()  # tick 151
    (over,) = [e for e in seen if e.kind is EventKind.CONVERSATION]
    assert (over.data["start_tick"], over.data["end_tick"]) == (30, 31 + 120)
    assert over.data["lines"] == [[ISABELLA, "Good morning! I don't think we've met. I'm Isabella."]]
    # she never heard the name, so she does not remember it
    assert over.data["summary"][ISABELLA] == "I talked with someone new in town"
    assert sim.personas[ISABELLA].conversation is None and sim.personas[pid].conversation is None


def test_a_player_on_its_way_is_not_stopped():
    sim, seen, pid = _ada_by_isabella(knows=True)
    me = sim.personas[pid]
    far = max((t for t in sim.tilemap.walkable_tiles()),
              key=lambda t: abs(t[0] - me.x) + abs(t[1] - me.y))
    move_player(sim, pid, *far)
    sim.step()
    assert not _chat(seen, ISABELLA) and me.conversation is None


def test_a_silent_player_the_persona_knows_is_remembered_by_name():
    """Told of Ada (the whisper, retrieved for the summary), Isabella remembers the silent talk
    as one with Ada, not with someone new."""
    sim, seen, pid = _ada_by_isabella(knows=True)
    sim.run(1 + 1 + PATIENCE_MINUTES * 60 // sim.clock.seconds_per_tick)  # through tick 151
    (over,) = [e for e in seen if e.kind is EventKind.CONVERSATION]
    assert over.data["end_tick"] == 151 and over.data["summary"][ISABELLA] == "I talked with Ada"


def test_a_players_conversation_is_numbered_by_its_tick_and_the_rank_of_the_one_addressed():
    """the_ville's own personas in id order: isabella_rodriguez 0, klaus_mueller 1, maria_lopez 2
    (n = 3; a player is not ranked). Ada addresses Isabella before tick 30: a player's talk,
    30 * 6 + 3 + 0 + 1 = 184. She leaves (the talk ends) and joins again before that tick: a
    second talk with Isabella would be 184 again, so it is refused in one line naming ``to``.
    After tick 30 it is 31 * 6 + 3 + 0 + 1 = 190 (a talk Isabella opened at tick 30 would have
    been 30 * 6 + 0 + 1 = 181: the two kinds never share an id)."""
    sim, _, pid = _ada_by_isabella(knows=False)
    assert player_says(sim, pid, "Hello!", ISABELLA) == 184
    remove_player(sim, pid)
    pid = add_player(sim, "Ada")
    isabella = sim.personas[ISABELLA]
    sim.personas[pid].place(isabella.x, isabella.y)
    with pytest.raises(ConfigError) as refused:
        player_says(sim, pid, "Hello again!", ISABELLA)
    assert refused.value.field == "to" and "after the next tick" in str(refused.value)
    sim.step()
    isabella = sim.personas[ISABELLA]
    sim.personas[pid].place(isabella.x, isabella.y)
    assert player_says(sim, pid, "Hello again!", ISABELLA) == 190
