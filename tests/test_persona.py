"""A persona changes only through its own methods, each checking what must hold."""

from __future__ import annotations

from datetime import datetime

import pytest

from town.config import load_config
from town.embedding import HashingEmbedder
from town.events import EventKind
from town.memory import MemoryStream
from town.persona import Action, Persona, PlanBlock, Step
from town.scenario import load_scenario
from town.simulation import Simulation

FIELDS = ("spec", "stream", "procedures", "x", "y", "action", "path", "pending", "conversation", "speech", "plan",
          "plan_date", "steps", "needs_replan", "importance_acc", "unrated", "observed", "cooldown", "told",
          "said", "_observed", "_cooldown", "_told", "_said", "_changing")


def _persona() -> Persona:
    spec = load_scenario("the_ville").personas[0]
    return Persona(spec, MemoryStream(spec.id, HashingEmbedder(dim=16)))


def _action(kind="do", start=0, end=5) -> Action:
    return Action(description="reading", address="w:s:a:o", emoji="📖", start_tick=start, end_tick=end, kind=kind)


def test_every_field_is_assigned_only_by_the_personas_methods():
    """Assigning any slot (public or private) from outside raises AttributeError naming it, and
    the containers are read-only: a path and steps are tuples, the mappings refuse items."""
    p = _persona()
    assert set(FIELDS) == set(Persona.__slots__)
    for name in FIELDS:
        with pytest.raises(AttributeError, match=f"'{name}' of persona"):
            setattr(p, name, getattr(p, name))
    with pytest.raises(AttributeError):
        del p.x
    for mapping in (p.observed, p.cooldown, p.told, p.said):
        with pytest.raises(TypeError):
            mapping["maria_lopez"] = 1  # type: ignore[index]
    assert p.path == () and p.steps == () and p.plan == ()
    p.place(3, 4)  # through a method it changes
    assert (p.x, p.y) == (3, 4)


def test_lines_said_are_kept_per_listener_for_one_day_and_survive_state():
    """Two lines to Maria on the 13th are both kept, in order; Klaus's are apart; a line on the
    14th forgets the 13th's; get_state/set_state returns the same (a resume says no line twice)."""
    p = _persona()
    p.says_to("maria_lopez", "2023-02-13", "Hi Maria.")
    p.says_to("maria_lopez", "2023-02-13", "Bye Maria.")
    p.says_to("klaus_mueller", "2023-02-13", "Hi Klaus.")
    assert p.said_today("maria_lopez", "2023-02-13") == ("Hi Maria.", "Bye Maria.")
    assert p.said_today("maria_lopez", "2023-02-14") == ()
    q = _persona()
    q.set_state(p.get_state())
    assert q.said_today("klaus_mueller", "2023-02-13") == ("Hi Klaus.",)
    p.says_to("maria_lopez", "2023-02-14", "Morning!")
    assert p.said_today("maria_lopez", "2023-02-14") == ("Morning!",)
    assert p.said_today("maria_lopez", "2023-02-13") == ()


def test_the_methods_check_what_must_hold():
    """A talk is entered, not started; a conversation is entered once and left by its own id;
    a step is waited for only by a walk; no step is taken from none; a plan has a block."""
    p = _persona()
    with pytest.raises(ValueError, match="not started"):
        p.start(_action(kind="talk"))
    with pytest.raises(ValueError, match="ends .* before it starts"):
        p.start(_action(start=5, end=4))
    step = Step(description="read", object="w:s:a:o", minutes=10)
    with pytest.raises(ValueError, match="only a walk"):
        p.start(_action(), pending=step)
    p.start(_action(kind="walk"), path=((1, 0), (2, 0)), pending=step)
    p.walk()
    assert (p.x, p.y, p.path) == (1, 0, ((2, 0),))
    p.enter_conversation(7, _action(kind="talk"), resume=step)
    assert (p.conversation, p.path, p.steps) == (7, (), (step,))
    p.walk()
    assert (p.x, p.y) == (1, 0)  # nobody walks while talking
    with pytest.raises(ValueError, match="in conversation 7 already"):
        p.enter_conversation(8, _action(kind="talk"))
    with pytest.raises(ValueError, match="not in conversation 8"):
        p.leave_conversation(8)
    p.leave_conversation(7)
    assert p.conversation is None and p.action is None
    assert p.next_step() == step
    with pytest.raises(ValueError, match="no step left"):
        p.next_step()
    with pytest.raises(ValueError, match="at least one block"):
        p.adopt_plan([], "2023-02-13")
    with pytest.raises(ValueError):
        p.adopt_plan([PlanBlock(start=datetime(2023, 2, 13, 8), end=datetime(2023, 2, 13, 9),
                                description="read", place="w")], "13 Feb")
    with pytest.raises(ValueError, match="below 0"):
        p.gain_importance(-1)
    p.knows_told("maria_lopez", "the party is on Friday")
    p.knows_told("maria_lopez", "the cafe opens at 8")
    assert p.told == {"maria_lopez": ("the party is on Friday", "the cafe opens at 8")}


def test_the_ville_runs_two_game_hours_with_the_guard_on(tmp_path):
    """720 ticks of the_ville: personas walk, act and talk (every change through a method), the
    state round-trips, and the guard is still on afterwards."""
    sim = Simulation(load_scenario("the_ville"), load_config(None, {"embedder": "hashing"}))
    seen = []
    sim.bus.subscribe(lambda e: seen.append(e.kind))
    start = {pid: (p.x, p.y) for pid, p in sim.personas.items()}
    sim.run(sim.clock.ticks_for(hours=2))
    assert seen.count(EventKind.ACTION) > 20 and EventKind.CHAT in seen
    assert any((p.x, p.y) != start[pid] for pid, p in sim.personas.items())
    state = sim.get_state(vectors=True)
    sim.set_state(state)
    assert sim.get_state(vectors=True) == state
    p = sim.personas["isabella_rodriguez"]
    with pytest.raises(AttributeError):
        p.action = None
    sim.close()
