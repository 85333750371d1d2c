"""town.clock: the world clock (ticks <-> game time) and clock_text.

Every figure below is worked out by hand from 10 game seconds a tick: 6 ticks a minute, 360 an
hour, 8,640 a day.
"""

from __future__ import annotations

from datetime import datetime

import pytest

from town.clock import GameClock, clock_text
from town.errors import ConfigError

#: the_ville's start (personas/the_ville/town.yaml).
START = datetime(2023, 2, 13, 7, 0)


@pytest.mark.parametrize(("minutes", "text"), [(0, "00:00"), (7 * 60 + 5, "07:05"), (23 * 60 + 59, "23:59"),
                                               (24 * 60, "24:00")])
def test_clock_text(minutes, text):
    """Two digits each; 1440 minutes is the day's end, 24:00."""
    assert clock_text(minutes) == text


def test_tick_and_time_at_the_start():
    """Tick 0 is the start; one tick later is 10 game seconds later; a minute is 6 ticks."""
    clock = GameClock(START, 10)
    assert (clock.tick, clock.now) == (0, START)
    assert clock.time_of(1) == datetime(2023, 2, 13, 7, 0, 10)
    assert clock.ticks_for(minutes=1) == 6 and clock.time_of(6) == datetime(2023, 2, 13, 7, 1)
    assert clock.advance() == 1 and clock.now == datetime(2023, 2, 13, 7, 0, 10)


def test_tick_and_time_across_midnight():
    """From 23:59:50 one tick is midnight, the next day's date; a day is 8,640 ticks; from
    07:00, 17 hours (6,120 ticks) is midnight."""
    clock = GameClock(datetime(2023, 2, 13, 23, 59, 50), 10)
    assert clock.advance() == 1 and clock.now == datetime(2023, 2, 14, 0, 0)
    assert clock.ticks_for(hours=24) == 8640
    morning = GameClock(START, 10)
    assert morning.time_of(8640) == datetime(2023, 2, 14, 7, 0)
    assert morning.ticks_for(hours=17) == 6120 and morning.time_of(6120) == datetime(2023, 2, 14, 0, 0)
    assert morning.time_of(6119) == datetime(2023, 2, 13, 23, 59, 50)


def test_tick_and_time_at_the_end_of_a_run():
    """A 36-hour run of the_ville has 12,960 ticks, 0..12,959; the last starts at 18:59:50 on the
    second day, and the next (where a resumed run goes on) at 19:00."""
    clock = GameClock(START, 10)
    ticks = clock.ticks_for(hours=36)
    assert ticks == 12960
    assert clock.advance(ticks - 1) == 12959
    assert clock.now == datetime(2023, 2, 14, 18, 59, 50)
    resumed = GameClock(START, 10)
    resumed.set_state({**clock.get_state(), "tick": clock.tick + 1})
    assert resumed.now == datetime(2023, 2, 14, 19, 0)


def test_other_tick_lengths_and_bad_clocks():
    """A 60-second tick makes an hour 60 ticks; the clock never runs backwards or starts wrong."""
    clock = GameClock(START, 60)
    assert clock.ticks_for(hours=1) == 60 and clock.time_of(60) == datetime(2023, 2, 13, 8, 0)
    assert clock.ticks_for(minutes=1.5) == 1  # rounded down
    with pytest.raises(ValueError, match="cannot go back"):
        clock.advance(-1)
    for bad in ({"seconds_per_tick": 0}, {"tick": -1}):
        with pytest.raises(ConfigError):
            GameClock(START, **bad)
    with pytest.raises(ConfigError, match="1900 and 2999"):
        GameClock(datetime(1800, 1, 1), 10)


def test_game_hours_are_shown_to_two_decimals_at_most():
    """A span of ticks: 15,659 ticks of 10 s are 43.4972 game hours, shown as 43.5 (once shown as
    "43.4972 game hours")."""
    from town.analysis.compare import span_text
    from town.clock import hours_text

    assert hours_text(15_659 * 10 / 3600) == "43.5 game hours"
    assert hours_text(1) == "1 game hour" and hours_text(36) == "36 game hours"
    assert hours_text(179 * 10 / 3600) == "0.5 game hours" and hours_text(0.25) == "0.25 game hours"
    assert span_text({"start": "2023-02-13 07:00:00", "end": "2023-02-15 02:29:50", "hours": 15_659 * 10 / 3600}) == (
        "2023-02-13 07:00 -> 2023-02-15 02:29 (43.5 game hours)")


def test_a_fork_to_its_parents_end_says_its_hours_rounded(tmp_path, capsys):
    """`fork` without --hours of a 179-tick run (0.497222 game hours) says "0.5 game hours"."""
    from web.cli import main

    parent, fork = tmp_path / "p.sqlite", tmp_path / "f.sqlite"
    assert main(["simulate", "--hours", "0.4975", "--out", str(parent), "--quiet", "--embedder", "hashing"]) == 0
    capsys.readouterr()
    assert main(["fork", str(parent), "--at", "2023-02-13T07:00", "--out", str(fork), "--quiet"]) == 0
    err = capsys.readouterr().err
    assert "the fork runs 0.5 game hours, to the end of" in err, err
