"""The act phase follows the day plan: a block at another place takes the persona there."""

from __future__ import annotations

from datetime import datetime

from town.events import EventKind
from town.persona import Action, PlanBlock

HOME = "w:Ann's home:ann room:armchair"


def _plan(ann, *, park_from: int) -> None:
    """Ann's day: reading at home, then the park from ``park_from`` o'clock to 16:00, then home."""
    day = datetime(2023, 2, 13)
    ann.adopt_plan([
        PlanBlock(start=day.replace(hour=0), end=day.replace(hour=park_from), description="read a book",
                  place=HOME, task="read"),
        PlanBlock(start=day.replace(hour=park_from), end=day.replace(hour=16),
                  description="go to Green Park for the bake sale", place="w:Green Park"),
        PlanBlock(start=day.replace(hour=16), end=day.replace(day=14), description="read a book",
                  place=HOME, task="read"),
    ], "2023-02-13")


def test_a_block_elsewhere_cuts_the_running_action_and_takes_the_persona_there(tiny, events):
    """At 13:50 Ann starts reading for three hours (an action of the 07:00-14:00 block running to
    16:50); the 14:00 block is at Green Park, so by 14:20 she is in the park doing its task, the
    PLAN 'block' event naming the task left behind. Without the cut she would read until 16:50
    (worked out from the ticks: 180 game minutes = 1080 ticks of 10 s)."""
    sim = tiny()
    seen = events(sim)
    ann = sim.personas["ann"]
    sim.run(sim.clock.ticks_for(hours=6, minutes=50))  # Monday 13:50
    _plan(ann, park_from=14)
    tick = sim.clock.tick
    ann.start(Action(description="reading", address=HOME, emoji="📖", start_tick=tick,
                     end_tick=tick + 1080, kind="do", task="read"))
    sim.run(sim.clock.ticks_for(minutes=30))  # 14:20
    assert sim.world.tilemap.address_at(ann.x, ann.y).startswith("w:Green Park")
    assert ann.action.task == "go to Green Park for the bake sale"
    (left,) = [e for e in seen if e.kind is EventKind.PLAN and e.data["level"] == "block"]
    assert left.data["left"] == "read" and left.data["place"] == "w:Green Park"
    assert left.time == datetime(2023, 2, 13, 14, 0)


def test_a_block_at_the_same_place_lets_the_action_run(tiny, events):
    """A block change at the same place (home -> home) does not cut the running action."""
    sim = tiny()
    seen = events(sim)
    ann = sim.personas["ann"]
    sim.run(sim.clock.ticks_for(hours=6, minutes=50))
    day = datetime(2023, 2, 13)
    ann.adopt_plan([PlanBlock(start=day, end=day.replace(hour=14), description="read a book", place=HOME, task="read"),
                    PlanBlock(start=day.replace(hour=14), end=day.replace(day=14), description="write letters",
                              place=HOME, task="write")], "2023-02-13")
    tick = sim.clock.tick
    reading = Action(description="reading", address=HOME, emoji="📖", start_tick=tick, end_tick=tick + 1080,
                     kind="do", task="read")
    ann.start(reading)
    sim.run(sim.clock.ticks_for(minutes=30))
    assert ann.action.description == "reading" and ann.action.end_tick == tick + 1080
    assert not [e for e in seen if e.kind is EventKind.PLAN and e.data["level"] == "block"]
