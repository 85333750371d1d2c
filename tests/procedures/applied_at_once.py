"""A mind context for the procedure tests whose effects are applied as soon as they are made.

As one persona deciding alone in a sequential run: each event is published (numbered) at once,
and a change to the town library is made at once, by the simulation's own apply step.
"""

from __future__ import annotations

from datetime import datetime
from types import SimpleNamespace

from town.clock import GameClock
from town.config import load_config
from town.events import Event, EventBus
from town.mind import MindContext, Services
from town.mind.effects import Outbox
from town.simulation.apply import Applier


class AppliedAtOnce(Outbox):
    """An outbox that hands each effect to ``apply`` as soon as it is added."""

    def __init__(self, apply: Applier):
        super().__init__()
        self._apply = apply

    def note(self, *args, **kwargs):
        note = super().note(*args, **kwargs)
        self._flush()
        return note

    def add(self, effect) -> None:
        super().add(effect)
        self._flush()

    def _flush(self) -> None:
        effects, self.effects = self.effects, []
        self._apply(effects)


def context(start: datetime, *, world=None, seed: int = 1) -> tuple[MindContext, list[Event]]:
    """A MindContext at ``start`` (tick 0), the scripted backend; the events it published."""
    from town.scripted import ScriptedBackend

    clock, bus, events = GameClock(start, 10), EventBus(), []
    bus.subscribe(events.append)
    config = SimpleNamespace(seed=seed, procedures=load_config().procedures)
    ctx = MindContext(Services(world=world, backend=ScriptedBackend(), config=config, names={},
                               seconds_per_tick=10), 0, start)
    ctx.out = AppliedAtOnce(Applier(bus, clock, {}, lambda cid: None))
    return ctx, events
