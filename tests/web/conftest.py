"""Fixtures for the viewer's tests: a real small Simulation of the_ville (hashing embedder),
paused under a Runner, and an app factory bound to it.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from town.config import load_config
from town.events import Event
from town.runner import Runner
from town.scenario import load_scenario
from town.simulation import Simulation
from web import create_app, live

TOWN = Path(__file__).resolve().parents[2] / "personas" / "the_ville"


@pytest.fixture
def simulation(tmp_path):
    """The three-persona the_ville, recorded to a temporary run file."""
    sim = Simulation(load_scenario(TOWN), load_config(None, {"embedder": "hashing"}),
                     run_path=tmp_path / "live.sqlite")
    yield sim
    sim.close()


@pytest.fixture
def published(simulation) -> list[Event]:
    """Every event the simulation publishes from now on (an independent record)."""
    seen: list[Event] = []
    simulation.bus.subscribe(seen.append)
    return seen


@pytest.fixture
def runner(simulation):
    """A started, paused runner at 'max' speed (tests advance it with step)."""
    r = Runner(simulation, speed=None, paused=True)
    r.start()
    yield r
    r.stop()


@pytest.fixture
def make_app(simulation, runner):
    """Factory: ``make_app(HOST=..., ...)`` -> a test app serving the live run."""
    apps = []

    def make(**config):
        app = create_app({"RUNNER": runner, "RUN_PATH": simulation.run_path, "TESTING": True,
                          **config})
        apps.append(app)
        return app

    yield make
    for app in apps:
        live(app).close()



@pytest.fixture(scope="session")
def recorded(tmp_path_factory):
    """A short real run in its own runs folder, with every event published while it was made.

    Returns ``(runs_dir, name, events)``: the run file is ``runs_dir / f"{name}.sqlite"``.
    """
    runs = tmp_path_factory.mktemp("runs")
    # a lower reflection threshold so the four-hour morning holds reflections to jump to
    config = load_config(None, {"embedder": "hashing", "reflection.threshold": 60})
    sim = Simulation(load_scenario(TOWN), config, run_path=runs / "morning.sqlite")
    events: list[Event] = []
    sim.bus.subscribe(events.append)
    for _ in range(1500):  # 07:00 to 11:10: conversations, a reflection, learned procedures
        sim.step()
    sim.close()
    return runs, "morning", events


@pytest.fixture
def replay_client(recorded):
    """A test client of an app (no live run) serving the recorded run's folder."""
    app = create_app({"RUNS_DIR": str(recorded[0]), "TESTING": True})
    yield app.test_client()
    live(app).close()
