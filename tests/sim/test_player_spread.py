"""What a player says spreads like any news: Ada tells Klaus about a jazz night tonight; Klaus
tells Maria, Maria tells Isabella, each in words that name who told them."""

from __future__ import annotations

from pathlib import Path

from town.config import load_config
from town.player import add_player, move_player, player_says
from town.scenario import load_scenario
from town.simulation import Simulation

THE_VILLE = Path(__file__).resolve().parents[2] / "personas" / "the_ville"
NEWS = "There is a jazz night at The Rose and Crown Pub"


def _first(p, text):
    return next((r for r in p.stream.records() if text in r.content), None)


def test_a_players_words_are_retold_from_person_to_person():
    sim = Simulation(load_scenario(THE_VILLE), load_config(None, {"embedder": "hashing"}))
    sim.run(30)
    pid = add_player(sim, "Ada")
    klaus, maria, isabella = (sim.personas[q] for q in ("klaus_mueller", "maria_lopez", "isabella_rodriguez"))
    me = sim.personas[pid]
    me.x, me.y = klaus.x, klaus.y  # set down next to him (walking up is the browser test's)
    player_says(sim, pid, f"{NEWS} tonight at 8 pm.", "klaus_mueller")
    sim.run(2)
    away = next(t for t in ((me.x + 1, me.y), (me.x - 1, me.y), (me.x, me.y + 1), (me.x, me.y - 1))
                if sim.tilemap.walkable(*t))
    move_player(sim, pid, *away)  # Ada walks off: the talk ends
    # at most 26 game hours: with sight limited to the own arena, Isabella (cooking in the cafe's
    # kitchen at lunch) no longer talks to Maria through the wall, so their meeting comes later
    for _ in range(26 * 360):
        sim.step()
        if _first(isabella, NEWS) is not None:
            break
    heard = _first(klaus, NEWS)
    assert heard.content == f'Ada told me: "{NEWS} tonight at 8 pm."' and heard.source is None
    from_klaus, from_maria = _first(maria, NEWS), _first(isabella, NEWS)
    assert from_klaus.content.startswith(f'Klaus Mueller told me: "Ada told me: "{NEWS}')
    assert from_klaus.source[0] == "klaus_mueller"
    assert from_maria.content.startswith(f'Maria Lopez told me: "Klaus Mueller told me: "Ada told me: "{NEWS}')
    assert from_maria.source == ("maria_lopez", from_klaus.id)
    assert _first(me, NEWS) is None  # nobody tells Ada her own news back
