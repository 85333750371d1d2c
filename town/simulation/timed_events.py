"""Timed scenario events: a town file's place closures, whispers and news, fired at their game time.

Each is applied at the start of the first tick whose time has reached it, in file order, and
published as a SCENARIO event (measurement and replay only: no decision reads it).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..events import EventKind
from ..mind import observe
from ..scenario import TimedEvent

if TYPE_CHECKING:
    from .core import Simulation

__all__ = ["fire_scenario_events"]


def fire_scenario_events(sim: Simulation) -> None:
    """Apply the scenario events due by the clock's time that have not fired yet."""
    events = sim.scenario.events
    now = sim.clock.now
    while sim._next_event < len(events) and events[sim._next_event].at <= now:
        ev = events[sim._next_event]
        sim._next_event += 1
        _apply_scenario_event(sim, ev)


def _apply_scenario_event(sim: Simulation, ev: TimedEvent) -> None:
    kind = ev.type.value
    data: dict[str, Any] = {"type": kind, "at": ev.at.isoformat(sep=" ")}
    fields = dict(ev.fields)
    data.update({k: v for k, v in fields.items() if isinstance(v, (str, int, float, list, tuple, type(None)))})
    if kind == "close_place":
        sim.world.close(fields["place"])
    elif kind == "open_place":
        sim.world.open(fields["place"])
    elif kind == "whisper":
        sim.whisper(fields["persona"], fields["text"], probe=fields.get("probe"),
                    importance=fields.get("importance"))
    elif kind == "news":
        targets = fields.get("personas") or "all"
        ids = sorted(sim.personas) if targets == "all" else list(targets)
        for pid in ids:
            observe(sim.personas[pid], sim.ctx, fields["text"], probe=fields.get("probe"))
    sim.ctx.publish(EventKind.SCENARIO, None, data)
