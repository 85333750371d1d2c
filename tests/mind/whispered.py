"""A the_ville run with one whisper given through the Runner, as the viewer's whisper box does."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from pathlib import Path
from typing import Any

from town.config import load_config
from town.runner import Runner
from town.scenario import load_scenario
from town.simulation import Simulation

#: The_ville's first tick (13 Feb 2023, 07:00); a tick is 10 game seconds.
START = datetime(2023, 2, 13, 7, 0)


def tick_at(when: datetime) -> int:
    """The tick (10 game seconds each from :data:`START`) that ``when`` falls in."""
    return int((when - START).total_seconds()) // 10


def whispered_run(path: Path, persona: str, text: str, *, at: datetime, until: datetime,
                  after: Callable[[Simulation], Any] | None = None) -> tuple[Any, Any]:
    """Simulate the_ville into ``path`` up to ``until``, whispering ``text`` to ``persona`` at
    ``at``. Returns (the whisper's memory, ``after(sim)`` read before the simulation closes, or
    None)."""
    sim = Simulation(load_scenario("the_ville"), load_config(None, {}), run_path=path)
    runner = Runner(sim, speed=None, paused=True, until_tick=tick_at(until))
    runner.start()
    runner.step(tick_at(at), timeout=300)
    memory = runner.call(lambda: sim.whisper(persona, text))
    runner.resume()
    assert runner.wait(timeout=900)
    runner.stop()
    seen = after(sim) if after is not None else None
    sim.close()
    return memory, seen
