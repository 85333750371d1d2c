"""An event moved to another day is planned on its new day, told as moved, and answered as such.

Whispered to Isabella Rodriguez at 08:00 on Monday 13 Feb (my own words, 2026-12-07): "I've moved
my Valentine's Day party to Wednesday, same time". Before, it was read as "postpone the party
until" with no day: she hosted the party on Tuesday and no one heard of Wednesday. Worked by
hand: her file's party is Hobbs Cafe, Tuesday 14 Feb 17:00-19:00, so the move is that party on
Wednesday 15 Feb 17:00-19:00 (a day alone keeps its hours, :meth:`town.memory.fact.Fact.placed`):
no day plan for the 14th holds it, hers for the 15th hosts it then, and what she tells names
Wednesday and Hobbs Cafe.
"""

from __future__ import annotations

from datetime import datetime

import pytest
from whispered import whispered_run

from town.events import EventKind
from town.recording import RunReader

MOVE = "I've moved my Valentine's Day party to Wednesday, same time"


@pytest.fixture(scope="module")
def moved_run(tmp_path_factory):
    """The_ville from 13 Feb 07:00 to 15 Feb 18:00, the whisper given at 08:00 via the Runner."""
    path = tmp_path_factory.mktemp("moved") / "run.sqlite"
    whispered_run(path, "isabella_rodriguez", MOVE, at=datetime(2023, 2, 13, 8), until=datetime(2023, 2, 15, 18))
    return path


def _blocks(path, day: str) -> dict[str, list[tuple[str, str, str]]]:
    with RunReader(path) as r:
        plans = [e for e in r.events(kinds=[EventKind.PLAN]) if e.data["level"] == "day" and e.data["date"] == day]
    return {e.persona: [(i["start"][11:16], i["end"][11:16], i["description"]) for i in e.data["items"]] for e in plans}


def test_the_party_is_planned_on_its_new_day_not_its_old_one(moved_run):
    tuesday, wednesday = _blocks(moved_run, "2023-02-14"), _blocks(moved_run, "2023-02-15")
    assert set(tuesday) == set(wednesday) == {"isabella_rodriguez", "klaus_mueller", "maria_lopez"}
    assert not [b for blocks in tuesday.values() for b in blocks if "party" in b[2].lower()]
    assert ("17:00", "19:00", "host the Valentine's Day party at Hobbs Cafe") in wednesday["isabella_rodriguez"]


def test_the_move_is_told_with_its_new_day_and_place(moved_run):
    with RunReader(moved_run) as r:
        lines = [e.data["line"] for e in r.events(kinds=[EventKind.CHAT]) if e.persona == "isabella_rodriguez"]
    told = [line for line in lines if "moved the Valentine's Day party: it is now at Hobbs Cafe" in line]
    assert told and all("from 5pm to 7pm" in line for line in told)
    assert not [line for line in lines if "postpone the party until" in line]


def test_asked_whether_it_is_still_on_the_host_says_it_has_been_moved(moved_run, capsys):
    from town.cli import main

    assert main(["interview", str(moved_run), "--persona", "Isabella Rodriguez", "--at", "2023-02-14 12:00",
                 "Is your party still on?"]) == 0
    assert ("It has been moved. I have moved the Valentine's Day party: it is now at Hobbs Cafe tomorrow from 5pm to 7pm."
            in " ".join(capsys.readouterr().out.split()))
