"""`--run-ahead` with fractional hours records exactly the ticks asked for.

Run-ahead lets personas who cannot affect each other run ahead of the clock; at the run's end
everyone is brought to the tick of the one furthest ahead, so without the end set no persona may
run past it. the_ville at 10 game seconds a tick: 0.5 h is ticks 0..179 and 0.25 h ticks 0..89,
for simulate, resume (0.25 h, then 0.25 h more), fork (from the snapshot at 0.25 h, 0.25 h more)
and a study's run (0.25 h).
"""

from __future__ import annotations

from datetime import datetime, timedelta

import pytest

from town.cli.main import main
from town.recording import RunReader

OPTIONS = ("--town", "the_ville", "--embedder", "hashing", "--run-ahead", "--quiet")


def _ticks(path) -> tuple[int | None, int | None]:
    with RunReader(path) as reader:
        return reader.first_tick, reader.last_tick


@pytest.fixture(scope="module")
def quarter(tmp_path_factory):
    """A 0.25-hour run-ahead run of the_ville."""
    out = tmp_path_factory.mktemp("quarter") / "quarter.sqlite"
    assert main(["simulate", *OPTIONS, "--hours", "0.25", "--out", str(out)]) == 0
    return out


def test_simulate_records_the_hours_asked_for(quarter, tmp_path):
    assert _ticks(quarter) == (0, 89)
    out = tmp_path / "half.sqlite"
    assert main(["simulate", *OPTIONS, "--hours", "0.5", "--out", str(out)]) == 0
    assert _ticks(out) == (0, 179)


def test_resume_and_fork_record_the_hours_asked_for(quarter, tmp_path):
    with RunReader(quarter) as reader:
        assert reader.snapshots()[-1][0] == 89  # (tick, game time, seq): the run's end
        at = datetime.fromisoformat(reader.meta["start"]) + timedelta(minutes=15)
    fork = tmp_path / "fork.sqlite"
    assert main(["fork", str(quarter), "--at", f"{at:%Y-%m-%d %H:%M}", "--out", str(fork), "--hours", "0.25",
                 "--quiet"]) == 0
    assert _ticks(fork) == (0, 179)
    resumed = tmp_path / "resumed.sqlite"
    resumed.write_bytes(quarter.read_bytes())
    assert main(["resume", str(resumed), "--hours", "0.25", "--quiet"]) == 0
    assert _ticks(resumed) == (0, 179)


def test_a_study_run_records_the_hours_asked_for(tmp_path):
    out = tmp_path / "study"
    assert main(["study", *OPTIONS, "--conditions", "full", "--hours", "0.25", "--out", str(out)]) == 0
    assert _ticks(out / "full-s0.sqlite") == (0, 89)
