"""Progress on slow runs: the pace in game minutes per wall minute, and what a waiting tick asks.

A run at one tick a wall minute (a fake wall clock that moves 60 s a tick) shows 10 game seconds
per 60 wall seconds, 0.167 game minutes per wall minute, not "0 ticks/s". A first tick whose
model answers slowly says, within the quiet time (scaled down from 10 s), what the model is
asked: everyone plans the day.
"""

from __future__ import annotations

import re

import pytest

from town.cli import main, progress
from town.simulation import Simulation


def test_the_pace_and_what_is_asked_by_hand():
    """3 ticks of 10 s in 180 wall s: 30 / 180 = 0.1667 game min a wall min, shown "0.167";
    60 ticks in 1 s: 600. The latest template still waited on is what a line names."""
    assert progress.pace_text(progress.pace(3, 10, 180.0)) == "0.167"
    assert progress.pace_text(progress.pace(60, 10, 1.0)) == "600"
    live = [("rate_importances", 3, 3), ("plan_day", 2, 3), ("decompose_task", 1, 1)]
    assert progress.doing(live) == "planning the day: 2 of 3 personas"
    assert progress.doing(live[:1]) == "rating new memories: 3 of 3 personas"
    assert progress.doing([]) is None


def test_a_run_at_one_tick_a_minute_shows_a_non_zero_pace(tmp_path, monkeypatch, capsys):
    """Each tick takes 60 wall seconds of a fake clock: every plain line (3 ticks, one each) says
    0.167 game min/min."""
    clock = [0.0]
    step = Simulation.step

    def slow_step(self):
        step(self)
        clock[0] += 60.0

    monkeypatch.setattr(progress, "now", lambda: clock[0])
    monkeypatch.setattr(Simulation, "step", slow_step)
    code = main(["simulate", "--town", "the_ville", "--hours", "0.0084", "--embedder", "hashing",
                 "--out", str(tmp_path / "slow.sqlite")])
    err = capsys.readouterr().err
    assert code == 0, err
    paces = re.findall(r"tick (\d) of 3 \(\d+%\), ([\d.,]+) game min/min$", err, re.M)
    assert paces == [("1", "0.167"), ("2", "0.167"), ("3", "0.167")]


@pytest.mark.timeout(300)
def test_a_slow_first_tick_says_what_the_model_is_asked(fake_server, api_key, tmp_path, monkeypatch, capsys):
    """Every answer takes 0.4 s on a one-slot server and the quiet time is 0.3 s (10 s scaled):
    while the first tick waits, a line says the personas are planning the day, "N of 3"."""
    monkeypatch.setenv("TOWN_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setattr(progress, "QUIET_S", 0.3)
    monkeypatch.setattr(progress, "EVERY_S", 0.4)
    server = fake_server(latency_s=0.4, slots=1)
    code = main(["simulate", "--town", "the_ville", "--hours", "0.0028", "--backend", "openai", "--base-url",
                 server.base_url, "--model", server.model, "--api-key-env", api_key,
                 "--out", str(tmp_path / "first.sqlite")])
    err = capsys.readouterr().err
    assert code == 0, err
    said = re.findall(r"^town: Mon 13 Feb 07:00, tick 0: planning the day: ([0-3]) of 3 personas "
                      r"\(this tick has waited \d+ s\)$", err, re.M)
    assert said, err
