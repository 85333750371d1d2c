"""A new event, never in any scenario file, spreads by conversation; each who hears it decides, with a reason.

Whispered to Maria Lopez at 08:00 on 13 Feb through the Runner (as the viewer's whisper box
does): a board-game morning at The Rose and Crown Pub "tomorrow from 10am to noon". No routine
puts anyone at the pub in the morning, so someone there on 14 Feb 10:00-12:00 came because they
heard of it, planned it from the words and went (Park et al. 2023 §7.1's party, on new text).
"""

from __future__ import annotations

from datetime import datetime

import pytest
from whispered import tick_at, whispered_run

from town.events import EventKind
from town.recording import RunReader
from town.scenario import load_scenario

WHISPER = ("I am organising a board-game morning at The Rose and Crown Pub tomorrow from 10am to "
           "noon; everyone is welcome")
PUB = "the_ville:The Rose and Crown Pub"


@pytest.fixture(scope="module")
def whisper_run(tmp_path_factory):
    """The_ville from 13 Feb 07:00 to 14 Feb 12:00, the whisper given at 08:00 via the Runner."""
    path = tmp_path_factory.mktemp("whisper") / "run.sqlite"
    memory, _ = whispered_run(path, "maria_lopez", WHISPER, at=datetime(2023, 2, 13, 8), until=datetime(2023, 2, 14, 12))
    return path, memory


def test_no_routine_covers_the_pub_that_morning():
    """The setting is fair: nobody's routine has The Rose and Crown Pub between 10:00 and 12:00."""
    scenario = load_scenario("the_ville")
    for spec in scenario.personas:
        for r in spec.routine:
            at_pub = r.place.startswith(PUB)
            overlaps = r.start.hour < 12 and (r.end.hour >= 10 or r.end.hour == 0)
            assert not (at_pub and overlaps), (spec.id, r)


def test_board_game_morning_spreads_and_each_who_heard_decides_with_a_reason(whisper_run):
    """By 00:00 on 14 Feb Klaus and Isabella heard it in a conversation from Maria, and each day
    plan decided on it from the memory stating it (cited by one of the plan's retrievals), with
    its reason: both work then elsewhere (Klaus reads at the library until 12:00, Isabella serves
    at Hobbs Cafe until 12:00), so both decline naming the clash. The memory's fact and tellers
    say Maria told it: a decision that read "Maria Lopez asked me: I am organising ..." as the
    persona's own plan went. Maria, the host, plans it as her own and is at the pub >= 30 game
    minutes between 10:00 and 12:00."""
    path, _ = whisper_run
    with RunReader(path) as r:
        frames = r.frames(tick_at(datetime(2023, 2, 14, 10)), tick_at(datetime(2023, 2, 14, 12)) - 1)
        decided = {}
        for pid in ("klaus_mueller", "isabella_rodriguez", "maria_lopez"):
            plans = [e for e in r.events(kinds=[EventKind.PLAN], persona=pid)
                     if e.data["level"] == "day" and e.data["date"] == "2023-02-14"]
            for e in plans:
                returned = set(r.retrieval(e.data["retrieval"])["returned"])
                if "events_retrieval" in e.data:
                    returned |= set(r.retrieval(e.data["events_retrieval"])["returned"])
                for choice in e.data.get("events", ()):
                    if choice["place"] == PUB:
                        assert set(choice["evidence"]) <= returned
                        decided[pid] = (choice["go"], choice["reason"])
            if pid != "maria_lopez":
                heard = [m for m in r.memories(pid, kind="chat") if "Rose and Crown Pub" in m["content"]
                         and m["conversation"] is not None]
                assert heard, pid
        minutes = sum(10 for f in frames if (f["personas"]["maria_lopez"]["address"] or "").startswith(PUB)) / 60
    assert decided == {
        "klaus_mueller": (False, "I have to read articles about housing prices at Oak Hill College until 12:00"),
        "isabella_rodriguez": (False, "I have to brew coffee and serve the morning customers at Hobbs Cafe until 12:00"),
        "maria_lopez": (True, "it is my own plan"),
    }
    assert minutes >= 30
