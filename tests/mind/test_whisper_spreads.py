"""A new event, never in any scenario file, spreads by conversation and is weighed by who hears it.

Whispered to Maria Lopez at 08:00 on 13 Feb through the Runner (as the viewer's whisper box
does): a board-game morning at The Rose and Crown Pub "tomorrow from 10am to noon". No routine
puts anyone at the pub in the morning, so someone there on 14 Feb 10:00-12:00 came because they
heard of it, planned it from the words and went (Park et al. 2023 §7.1's party, on new text).
"""

from __future__ import annotations

from datetime import datetime

import pytest

from town.config import load_config
from town.events import EventKind
from town.recording import RunReader
from town.runner import Runner
from town.scenario import load_scenario
from town.simulation import Simulation

WHISPER = ("I am organising a board-game morning at The Rose and Crown Pub tomorrow from 10am to "
           "noon; everyone is welcome")
PUB = "the_ville:The Rose and Crown Pub"
START = datetime(2023, 2, 13, 7, 0)


def _tick(when: datetime) -> int:
    return int((when - START).total_seconds()) // 10


@pytest.fixture(scope="module")
def whisper_run(tmp_path_factory):
    """The_ville from 13 Feb 07:00 to 14 Feb 12:00, the whisper given at 08:00 via the Runner."""
    path = tmp_path_factory.mktemp("whisper") / "run.sqlite"
    sim = Simulation(load_scenario("the_ville"), load_config(None, {}), run_path=path)
    runner = Runner(sim, speed=None, paused=True, until_tick=_tick(datetime(2023, 2, 14, 12)))
    runner.start()
    runner.step(_tick(datetime(2023, 2, 13, 8)), timeout=300)
    memory = runner.call(lambda: sim.whisper("maria_lopez", WHISPER))
    runner.resume()
    assert runner.wait(timeout=900)
    runner.stop()
    sim.close()
    return path, memory


def test_no_routine_covers_the_pub_that_morning():
    """The setting is fair: nobody's routine has The Rose and Crown Pub between 10:00 and 12:00."""
    scenario = load_scenario("the_ville")
    for spec in scenario.personas:
        for r in spec.routine:
            at_pub = r.place.startswith(PUB)
            overlaps = r.start.hour < 12 and (r.end.hour >= 10 or r.end.hour == 0)
            assert not (at_pub and overlaps), (spec.id, r)


def test_board_game_morning_spreads_and_klaus_or_isabella_weigh_it(whisper_run):
    """By 12:00 on 14 Feb Klaus or Isabella heard it in a conversation and their day plan weighed
    it from a memory stating it (the PLAN's event evidence is among its retrieval's ids): it went
    (>= 30 game minutes at the pub between 10:00 and 12:00) or declined over the routine block it
    clashes with (both have work then: Klaus reads at the college, Isabella serves at the cafe)."""
    path, _ = whisper_run
    with RunReader(path) as r:
        frames = r.frames(_tick(datetime(2023, 2, 14, 10)), _tick(datetime(2023, 2, 14, 12)) - 1)
        ok = []
        for pid in ("klaus_mueller", "isabella_rodriguez"):
            heard = [m for m in r.memories(pid, kind="chat") if "Rose and Crown Pub" in m["content"]
                     and m["conversation"] is not None]
            plans = [e for e in r.events(kinds=[EventKind.PLAN], persona=pid)
                     if e.data["level"] == "day" and e.data["date"] == "2023-02-14"]
            minutes = sum(10 for f in frames
                          if (f["personas"][pid]["address"] or "").startswith(PUB)) / 60
            weighed = []
            for e in plans:
                for event in e.data.get("events", []):
                    if event["place"] == PUB and event["start"] == "2023-02-14 10:00" and event["evidence"]:
                        assert set(event["evidence"]) <= set(r.retrieval(e.data["retrieval"])["returned"])
                        weighed.append(event["go"] and minutes >= 30 or not event["go"] and event["clash"])
            ok.append((pid, bool(heard), bool(weighed) and all(weighed)))
        assert any(h and w for _, h, w in ok), ok
