"""Helpers for whole-town runs against a model server: configuration and a recorded run."""

from __future__ import annotations

from pathlib import Path

from fake_server import FakeOpenAIServer

from town.config import load_config
from town.scenario import load_scenario
from town.simulation import Simulation
from town.backends import make_backend


def ville_config(server: FakeOpenAIServer, key_env: str, *, conversation: str = "whole", **backend):
    """the_ville's configuration for the openai backend against ``server`` (hashing embedder;
    ``conversation``: the conversation mode)."""
    over = {
        "conversation.mode": conversation,
        "embedder": "hashing",
        "backend.name": "openai",
        "backend.base_url": server.base_url,
        "backend.model": server.model,
        "backend.api_key_env": key_env,
        "backend.timeout_s": 1.0,
        "backend.max_retries": 3,
    }
    over.update({f"backend.{k}": v for k, v in backend.items()})
    return load_config(None, over)


def run_ville(
    config,
    run_path: Path,
    *,
    hours: float,
    cache_path: Path | None = None,
    recheck_interval_s: float = 0.2,
    during=None,
    before=None,
):
    """Simulate the_ville for ``hours`` game hours, recorded to ``run_path``; returns the sim.

    ``during(sim, tick)`` is called after each tick (e.g. to take the server down);
    ``before(sim)`` once the simulation exists, before its first tick.
    """
    parts = make_backend(
        config, cache_path=cache_path, backoff_s=0.01, recheck_interval_s=recheck_interval_s
    )
    sim = Simulation(load_scenario("the_ville"), config, backend=parts.backend, stall=parts.stall,
                     run_path=run_path)
    sim.bind_recorder(parts.recorder)
    if before is not None:
        before(sim)
    try:
        for _ in range(sim.clock.ticks_for(hours=hours)):
            sim.step()
            if during is not None:
                during(sim, sim.clock.tick)
    finally:
        sim.close()
    return sim
