"""An event called off is planned by no one, told as called off, and answered as such.

Whispered to Isabella Rodriguez at 08:00 on Monday 13 Feb (a tester's words): "I've decided to
cancel the Valentine's Day party, I'm just too exhausted this week." Before, she still invited
Maria to the party in the same conversation, Klaus replanned and went, and she hosted it. Worked
by hand: her file's party (Hobbs Cafe, 14 Feb 17:00-19:00) is what "the Valentine's Day party"
names (:meth:`town.memory.fact.Fact.calls_off`), so no one's day plan for the 14th holds it, no
line after hers invites anyone to it, and "Is your Valentine's party still on?" is answered no.
"""

from __future__ import annotations

from datetime import datetime

import pytest
from whispered import whispered_run

from town.events import EventKind
from town.recording import RunReader

CANCEL = "I've decided to cancel the Valentine's Day party, I'm just too exhausted this week."


@pytest.fixture(scope="module")
def called_off_run(tmp_path_factory):
    """The_ville from 13 Feb 07:00 to 14 Feb 18:00, the whisper given at 08:00 via the Runner."""
    path = tmp_path_factory.mktemp("called_off") / "run.sqlite"
    whispered_run(path, "isabella_rodriguez", CANCEL, at=datetime(2023, 2, 13, 8), until=datetime(2023, 2, 14, 18))
    return path


def test_no_one_plans_the_party_called_off(called_off_run):
    with RunReader(called_off_run) as r:
        plans = [e for e in r.events(kinds=[EventKind.PLAN]) if e.data["level"] == "day"
                 and e.data["date"] == "2023-02-14"]
    assert {e.persona for e in plans} == {"isabella_rodriguez", "klaus_mueller", "maria_lopez"}
    assert not [i["description"] for e in plans for i in e.data["items"] if "party" in i["description"].lower()]


def test_the_party_is_told_as_called_off_and_never_offered_after(called_off_run):
    with RunReader(called_off_run) as r:
        lines = [(e.time, e.data["line"]) for e in r.events(kinds=[EventKind.CHAT])]
    told = [t for t, line in lines if "party is cancelled" in line]
    assert told, "Maria or Klaus is told the party is cancelled"
    assert not [line for t, line in lines if "party at Hobbs Cafe" in line and "cancelled" not in line]


def test_asked_whether_it_is_still_on_the_host_says_no(called_off_run, capsys):
    from town.cli import main

    assert main(["interview", str(called_off_run), "--persona", "Isabella Rodriguez", "--at", "2023-02-14 12:00",
                 "Is your Valentine's party still on?"]) == 0
    assert "No. I have called off the Valentine's Day party." in " ".join(capsys.readouterr().out.split())
