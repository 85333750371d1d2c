"""A scenario event that closes the whole town: nobody has anywhere to go, nothing crashes.

Each persona whose place is closed and who finds no other open place waits where it is (an
ACTION "waiting here: ..." during which it does not move) and says so in a memory.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from fault_checks import assert_sound

from town.config import load_config
from town.events import EventKind
from town.recording import RunReader
from town.scenario import load_scenario
from town.simulation import Simulation

VILLE = Path(__file__).resolve().parents[2] / "personas" / "the_ville"
CLOSE_ALL = """events:
  - at: "2023-02-13 07:05"
    type: close_place
    place: "the_ville"
    reason: "the whole town is closed"
"""


def test_closing_the_whole_town_makes_people_wait_where_they_are(tmp_path):
    """The town closes at 07:05: the hour runs to its end, everyone waits in place and says so."""
    town = tmp_path / "closed"
    shutil.copytree(VILLE, town)
    (town / "events.yaml").write_text(CLOSE_ALL)
    run = tmp_path / "closed.sqlite"
    sim = Simulation(load_scenario(town), load_config(None, {"embedder": "hashing"}), run_path=run)
    try:
        sim.run(sim.clock.ticks_for(hours=1))  # 07:00-08:00: the town closes at tick 30
    finally:
        sim.close()
    assert assert_sound(run) == 359
    with RunReader(run) as reader:
        waits = [e for e in reader.events(kinds=[EventKind.ACTION])
                 if e.data["description"].startswith("waiting here: nowhere is open")]
        said = [e for e in reader.events(kinds=[EventKind.MEMORY])
                if "is waiting: nowhere is open" in e.data["content"]]
        assert {e.persona for e in waits} == set(sim.personas)  # everyone had to wait
        assert {e.persona for e in said} == set(sim.personas)  # and said so
        for e in waits:
            assert e.tick >= 30
            ticks = range(e.data["start"], min(e.data["end"], 360))
            spots = {(reader.frame(t)["personas"][e.persona]["x"], reader.frame(t)["personas"][e.persona]["y"])
                     for t in ticks}
            assert len(spots) == 1, (e.persona, e.data)
