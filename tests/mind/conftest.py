"""A tiny hand-built town for the mind's unit tests: two people, a cafe, a park.

Map (16 x 9 tiles, world ``w``): ``w:Ann's home`` (room with a bed), ``w:Bob's flat`` (room
with a bed), ``w:Corner Cafe`` (arena ``cafe`` with a piano and a table), ``w:Green Park``.
Ann Able and Bob Brown sleep until 07:00 and then read at home all day; nobody's routine goes
to the cafe. The clock starts on Monday 2023-02-13 07:00; memories are added by each test.
"""

from __future__ import annotations

import pytest
import yaml

from town.config import load_config
from town.scenario import load_scenario
from town.simulation import Simulation

MAP = {
    "world": "w",
    "size": [16, 9],
    "sectors": [
        {"name": "Ann's home", "rect": [0, 0, 5, 4], "doors": [[2, 3]],
         "arenas": [{"name": "ann room", "rect": [1, 1, 3, 2],
                     "objects": [{"name": "bed", "at": [1, 1]}, {"name": "armchair", "at": [3, 1]}]}]},
        {"name": "Bob's flat", "rect": [5, 0, 5, 4], "doors": [[7, 3]],
         "arenas": [{"name": "bob room", "rect": [6, 1, 3, 2],
                     "objects": [{"name": "bed", "at": [6, 1]}, {"name": "armchair", "at": [8, 1]}]}]},
        {"name": "Corner Cafe", "rect": [10, 0, 6, 4], "doors": [[12, 3]],
         "arenas": [{"name": "cafe", "rect": [11, 1, 4, 2],
                     "objects": [{"name": "piano", "at": [11, 1]}, {"name": "table", "at": [13, 2]},
                                 {"name": "counter", "at": [14, 1]}]}]},
        {"name": "Green Park", "rect": [0, 5, 16, 4], "doors": [[3, 5]]},
    ],
}


def _person(name: str, home: str) -> dict:
    return {
        "name": name, "age": 30, "traits": ["calm"], "background": "b", "lifestyle": "l",
        "home": f"w:{home}:bed",
        "routine": [
            {"start": "00:00", "end": "07:00", "activity": "sleeping", "place": f"w:{home}:bed"},
            {"start": "07:00", "end": "24:00", "activity": "read a book", "place": f"w:{home}:armchair"},
        ],
    }


@pytest.fixture
def tiny(tmp_path):
    """Factory: ``tiny(**config)`` -> a Simulation of the tiny town (hashing embedder, no seeds)."""
    folder = tmp_path / "tiny"
    folder.mkdir()
    (folder / "map.yaml").write_text(yaml.safe_dump(MAP))
    (folder / "town.yaml").write_text("name: Tiny\nstart: '2023-02-13 07:00'\n")
    (folder / "ann.yaml").write_text(yaml.safe_dump(_person("Ann Able", "Ann's home:ann room")))
    (folder / "bob.yaml").write_text(yaml.safe_dump(_person("Bob Brown", "Bob's flat:bob room")))

    def make(**overrides):
        config = load_config(None, {"embedder": "hashing", **overrides})
        return Simulation(load_scenario(folder), config, seed_memories=False)

    return make


@pytest.fixture
def events():
    """Factory: ``events(sim)`` -> a list that collects every event the simulation publishes."""
    def collect(sim):
        seen = []
        sim.bus.subscribe(seen.append)
        return seen
    return collect
