"""What a player says spreads like any news: Ada tells Klaus about a jazz night tonight; Klaus
tells Maria, in words that name who told them (one level: the chain
of tellers is in ``source``), "tonight" kept as the date it meant."""

from __future__ import annotations

from pathlib import Path

from player_inputs import add_player, move_player, player_says
from town.config import load_config
from town.scenario import load_scenario
from town.simulation import Simulation

THE_VILLE = Path(__file__).resolve().parents[2] / "personas" / "the_ville"
NEWS = "a jazz night at The Rose and Crown Pub"


def _first(p, text):
    return next((r for r in p.stream.records() if text in r.content), None)


def test_a_players_words_are_retold_from_person_to_person():
    sim = Simulation(load_scenario(THE_VILLE), load_config(None, {"embedder": "hashing"}))
    sim.run(30)
    pid = add_player(sim, "Ada")
    klaus, maria = (sim.personas[q] for q in ("klaus_mueller", "maria_lopez"))
    me = sim.personas[pid]
    me.place(klaus.x, klaus.y)  # set down next to him (walking up is the browser test's)
    player_says(sim, pid, f"There is {NEWS} tonight at 8 pm.", "klaus_mueller")
    sim.run(2)
    away = next(t for t in ((me.x + 1, me.y), (me.x - 1, me.y), (me.x, me.y + 1), (me.x, me.y - 1))
                if sim.tilemap.walkable(*t))
    move_player(sim, pid, *away)  # Ada walks off: the talk ends
    # at most 26 game hours: with sight limited to the own arena, Isabella (cooking in the cafe's
    # kitchen at lunch) no longer talks to Maria through the wall, so their meeting comes later
    for _ in range(26 * 360):
        sim.step()
        if _first(maria, NEWS) is not None:
            break
    heard = _first(klaus, NEWS)
    said = "there is a jazz night at The Rose and Crown Pub on Monday, February 13 at 8pm."  # realised from the fact: a start alone, no end made up
    assert heard.content == f"Ada told me that {said}" and heard.source is None
    # Klaus tells Maria (at 12:03 in this run; when he meets Isabella at 13:02 he tells her of the
    # market's closure, which both hold once, from the news): one level in words
    for other in (maria,):
        from_klaus = _first(other, NEWS)
        assert from_klaus.content == f"Klaus Mueller told me that {said}"
        assert from_klaus.source == ("klaus_mueller", heard.id)
    assert _first(me, NEWS) is None  # nobody tells Ada her own news back
