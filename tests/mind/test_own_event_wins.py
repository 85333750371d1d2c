"""A persona's own event wins where another's overlaps it.

Whispered to Klaus Mueller at 08:00 on Monday 13 Feb (a tester's words): "I'm playing a concert at
Johnson Park on the 14th at 6pm". Klaus also hears of Isabella's Valentine's Day party (Hobbs Cafe,
17:00-19:00) and decides to go; his day plan for the 14th put the party last and it covered his
own concert, so he never played it. Worked by hand: his own concert holds 18:00-19:00 and the
party keeps 17:00-18:00; Maria, a guest of both, goes to his concert, not "to play a concert".
"""

from __future__ import annotations

from datetime import datetime

import pytest
from whispered import whispered_run

from town.events import EventKind
from town.recording import RunReader


@pytest.fixture(scope="module")
def concert_run(tmp_path_factory):
    """The_ville from 13 Feb 07:00 to 14 Feb 01:00, the whisper given at 08:00 via the Runner."""
    path = tmp_path_factory.mktemp("concert") / "run.sqlite"
    whispered_run(path, "klaus_mueller", "I'm playing a concert at Johnson Park on the 14th at 6pm",
                  at=datetime(2023, 2, 13, 8), until=datetime(2023, 2, 14, 1))
    return path


def _evening(path, pid: str) -> list[tuple[str, str]]:
    with RunReader(path) as r:
        (plan,) = [e for e in r.events(kinds=[EventKind.PLAN], persona=pid)
                   if e.data["level"] == "day" and e.data["date"] == "2023-02-14"][-1:]
    return [(i["start"][11:16], i["description"]) for i in plan.data["items"] if "17:00" <= i["start"][11:16] < "19:00"]


def test_the_hosts_own_concert_wins_the_hour_it_overlaps(concert_run):
    assert _evening(concert_run, "klaus_mueller") == [
        ("17:00", "go to Isabella Rodriguez's Valentine's Day party at Hobbs Cafe"),
        ("18:00", "play a concert at Johnson Park")]


def test_a_guest_goes_to_the_concert(concert_run):
    assert ("18:00", "go to Klaus Mueller's concert at Johnson Park") in _evening(concert_run, "maria_lopez")
