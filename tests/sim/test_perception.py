"""Perception sees the own arena within the vision radius; a conversation needs both awake and in sight."""

from __future__ import annotations

from pathlib import Path

import pytest

from town.config import load_config
from town.events import EventKind
from town.mind.perceive import Appearance, arena_of, in_sight
from town.scenario import load_scenario
from town.simulation import Simulation

THE_VILLE = Path(__file__).resolve().parents[2] / "personas" / "the_ville"
DORM = "the_ville:Dorm for Oak Hill College"


def view(pid, x, y, address, kind="do"):
    """A snapshot view of persona ``pid`` standing at (x, y) on a tile of ``address``."""
    return Appearance(id=pid, name=pid, x=x, y=y, arena=arena_of(address), action="reading", kind=kind, address=address,
                conversation=None)


@pytest.mark.parametrize(("a", "b", "seen"), [
    # same room, 3 tiles apart: seen
    (view("k", 24, 2, f"{DORM}:Klaus Mueller's room:bed"),
     view("m", 27, 2, f"{DORM}:Klaus Mueller's room:computer"), True),
    # the rooms on either side of one wall, 2 tiles apart: not seen (same sector, other arena)
    (view("k", 28, 4, f"{DORM}:Klaus Mueller's room"), view("m", 30, 4, f"{DORM}:Maria Lopez's room"), False),
    # one room, 10 tiles apart: the whole room is in sight
    (view("k", 25, 10, f"{DORM}:common room"), view("m", 35, 12, f"{DORM}:common room:dining table"), True),
    # on the street, 4 tiles apart: seen; 5 apart: not; the street and a sector's open ground differ
    (view("k", 20, 20, "the_ville"), view("m", 24, 16, "the_ville"), True),
    (view("k", 20, 20, "the_ville"), view("m", 25, 20, "the_ville"), False),
    (view("k", 20, 20, "the_ville"), view("m", 21, 20, "the_ville:Johnson Park"), False),
    (view("k", 40, 20, "the_ville:Johnson Park"), view("m", 44, 20, "the_ville:Johnson Park"), True),
])
def test_in_sight_is_the_own_arena(a, b, seen):
    """Sight needs the same arena; outside arenas also a Chebyshev distance <= 4; both ways round."""
    assert in_sight(a, b, 4) is seen
    assert in_sight(b, a, 4) is seen


@pytest.fixture(scope="module")
def first_tick():
    """the_ville after its first tick (07:00), and the events of that tick.

    Klaus's routine says shower, Maria's says sleep; both start in their beds, in rooms on
    either side of a wall.
    """
    sim = Simulation(load_scenario(THE_VILLE), load_config(None, {"embedder": "hashing"}))
    events = []
    sim.bus.subscribe(events.append)  # from here on: what the first tick writes, not the seeding
    sim.step()
    yield sim, events
    sim.close()


def test_no_one_talks_from_bed_through_a_wall_at_tick_0(first_tick):
    """No conversation starts at tick 0: Maria is asleep by routine and Klaus is in another room."""
    sim, events = first_tick
    assert len(sim.conversations) == 0
    assert all(p.conversation is None for p in sim.personas.values())
    assert not [e for e in events if e.kind in (EventKind.CHAT, EventKind.CONVERSATION)]
    assert not [e for e in events if e.kind is EventKind.ACTION and e.data["kind"] == "talk"]


def test_sleeping_or_walled_off_personas_are_not_observed(first_tick):
    """Neither of Klaus and Maria remembers seeing the other at tick 0."""
    sim, events = first_tick
    klaus, maria = sim.personas["klaus_mueller"], sim.personas["maria_lopez"]
    assert "maria_lopez" not in klaus.observed and "klaus_mueller" not in maria.observed
    written = [e for e in events if e.kind is EventKind.MEMORY]
    assert written  # the tick did write memories (plans, own actions)
    for pid, other in (("klaus_mueller", "Maria Lopez"), ("maria_lopez", "Klaus Mueller")):
        assert not [e.data["content"] for e in written
                    if e.persona == pid and e.data["content"].startswith(other)]
