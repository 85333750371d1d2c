"""What a thing costs travels with the news of it and is answered by those who heard it.

Whispered to Isabella Rodriguez at 08:00 on Monday 13 Feb (a fresh user's words, 2026-12-07):
"Yoga class in Johnson Park next Monday at 7am, only $3, tell everyone". Before, the $3 stayed in
her whisper's words: Maria, told of the class, answered "how much does it cost?" without it. Worked
by hand: the class is Johnson Park, Monday 20 Feb 07:00, $3; whoever hears of it holds the price.
"""

from __future__ import annotations

from datetime import datetime

import pytest
from whispered import whispered_run

from town.events import EventKind
from town.recording import RunReader

YOGA = "Yoga class in Johnson Park next Monday at 7am, only $3, tell everyone"


@pytest.fixture(scope="module")
def yoga_run(tmp_path_factory):
    """The_ville from 13 Feb 07:00 to 14 Feb 12:00, the whisper given at 08:00 via the Runner."""
    path = tmp_path_factory.mktemp("price") / "run.sqlite"
    whispered_run(path, "isabella_rodriguez", YOGA, at=datetime(2023, 2, 13, 8), until=datetime(2023, 2, 14, 12))
    return path


def test_those_told_of_the_class_hold_its_price(yoga_run):
    with RunReader(yoga_run) as r:
        heard = {e.persona: e.data["fact"] for e in r.events(kinds=[EventKind.MEMORY])
                 if e.persona != "isabella_rodriguez" and (e.data.get("fact") or {}).get("act") == "be a yoga class"}
    assert heard, "someone hears of the yoga class"
    assert all((f["place"], f["start"], f["price"]) == ("the_ville:Johnson Park", "2023-02-20 07:00:00", "$3")
               for f in heard.values()), heard


def test_asked_how_much_one_who_heard_says_the_price(yoga_run, capsys):
    from town.cli import main

    with RunReader(yoga_run) as r:
        who = next(e.persona for e in r.events(kinds=[EventKind.MEMORY])
                   if e.persona != "isabella_rodriguez" and (e.data.get("fact") or {}).get("act") == "be a yoga class")
    assert main(["interview", str(yoga_run), "--persona", who, "--at", "2023-02-14 11:00",
                 "How much does the yoga class cost?"]) == 0
    assert "It costs $3, as far as I know." in " ".join(capsys.readouterr().out.split())
