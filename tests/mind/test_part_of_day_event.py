"""An event told by a part of the day, with no clock time, is planned, passed on and answered.

Whispered to Isabella Rodriguez at 08:00 on Monday 13 Feb: "I'm hosting a pancake breakfast at
Hobbs Cafe tomorrow morning, everyone welcome". It was read with no place and no day (no clock
time was said), and Maria, invited, answered with a line about her walks. Read as the morning
of 14 Feb at Hobbs Cafe (:data:`town.textevent.PART_STARTS`: from 10:00), worked by hand from the
routines: Maria has physics classes 09:00-12:00 and Klaus reads at the library 10:00-12:00, so
each declines, naming it; Isabella plans it as her own.
"""

from __future__ import annotations

from datetime import datetime

import pytest
from whispered import whispered_run

from town.events import EventKind
from town.recording import RunReader

WHISPER = "I'm hosting a pancake breakfast at Hobbs Cafe tomorrow morning, everyone welcome"
CAFE = "the_ville:Hobbs Cafe"
MORNING = datetime(2023, 2, 14, 10)


@pytest.fixture(scope="module")
def morning_run(tmp_path_factory):
    """The_ville from 13 Feb 07:00 to 14 Feb 01:00, the whisper given at 08:00 via the Runner."""
    path = tmp_path_factory.mktemp("morning") / "run.sqlite"
    _, held = whispered_run(path, "isabella_rodriguez", WHISPER, at=datetime(2023, 2, 13, 8),
                            until=datetime(2023, 2, 14, 1), after=lambda sim: {
                                pid: [r.fact for r in p.stream.records() if r.fact is not None
                                      and r.fact.place == CAFE and r.fact.start == MORNING]
                                for pid, p in sim.personas.items()})
    return path, held


def test_the_morning_is_held_by_its_part_and_said_so(morning_run):
    """Isabella's own memory and what Maria heard from her hold the event at Hobbs Cafe from
    10:00 on the 14th, told by "morning"; every line telling it says "tomorrow morning" and never
    the 10am no one said."""
    path, held = morning_run
    assert held["isabella_rodriguez"] and held["maria_lopez"]
    assert {f.part for facts in held.values() for f in facts} == {"morning"}
    with RunReader(path) as r:
        lines = [e.data["line"] for e in r.events(kinds=[EventKind.CHAT]) if "pancake" in e.data["line"]]
    assert lines and all("tomorrow morning" in line or "10:00" in line for line in lines)
    assert not any("10am" in line for line in lines)


def test_each_invited_decides_on_the_morning_with_a_reason(morning_run):
    """Maria, invited by Isabella, declines in the talk naming her classes; each who heard it
    decides on it in the day plan for the 14th, with the clash that keeps them away."""
    path, _ = morning_run
    with RunReader(path) as r:
        chats = [(e.persona, e.data["line"]) for e in r.events(kinds=[EventKind.CHAT])]
        invite = next(i for i, (who, line) in enumerate(chats) if who == "isabella_rodriguez" and "pancake" in line)
        assert chats[invite + 1][0] == "maria_lopez" and "physics classes" in chats[invite + 1][1]
        decided = {}
        for pid in ("klaus_mueller", "maria_lopez", "isabella_rodriguez"):
            for e in r.events(kinds=[EventKind.PLAN], persona=pid):
                if e.data["level"] == "day" and e.data["date"] == "2023-02-14":
                    for choice in e.data.get("events", ()):
                        if choice["place"] == CAFE and choice["start"] == "2023-02-14 10:00":
                            decided[pid] = (choice["go"], choice["reason"])
    assert decided["maria_lopez"][0] is False and "physics classes" in decided["maria_lopez"][1]
    assert decided["klaus_mueller"][0] is False and "read" in decided["klaus_mueller"][1]
