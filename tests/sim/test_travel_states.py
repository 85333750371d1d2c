"""What a frame says a persona is doing matches where it is: "walking to <building>" only outside
that building, and an action's retrieval query names its place once."""

from __future__ import annotations

from pathlib import Path

from town.config import load_config
from town.events import EventKind
from town.scenario import load_scenario
from town.simulation import Simulation

THE_VILLE = Path(__file__).resolve().parents[2] / "personas" / "the_ville"


def test_walking_to_a_building_only_while_outside_it_and_queries_name_a_place_once(tmp_path):
    sim = Simulation(load_scenario(THE_VILLE), load_config(None, {"embedder": "hashing"}))
    sectors = {s["name"] for s in sim.tilemap.to_dict()["sectors"]}
    seen = []
    sim.bus.subscribe(seen.append)
    sim.run(3 * 360)  # 07:00-10:00: everyone leaves home at least once
    walks = inside = 0
    for e in seen:
        if e.kind is not EventKind.FRAME:
            continue
        for p in e.data["personas"].values():
            target = p["action"].removeprefix("walking to ")
            if target in sectors:
                walks += 1
                here = (p["address"] or "").split(":")
                inside += len(here) > 1 and here[1] == target
    assert walks > 100 and inside == 0
    queries = [e.data["query"] for e in seen if e.kind is EventKind.RETRIEVAL and e.data["purpose"] == "act"]
    assert queries and all(q.count(s) <= 1 for q in queries for s in sectors)
