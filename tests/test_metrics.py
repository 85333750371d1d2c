"""Evaluation measures on a hand-built run (values worked out in tests/handbuilt_run.py)."""

from __future__ import annotations

import pytest
from handbuilt_run import PARTY, build_run

from town import metrics
from town.recording import RunReader


@pytest.fixture
def reader(tmp_path):
    """The hand-built run, open for reading."""
    with RunReader(build_run(tmp_path / "hand.sqlite")) as r:
        yield r


def test_diffusion_follows_provenance_chains(reader):
    """Party: 1/4 at the start, 2/4 after hour 1, 3/4 from hour 2; c's forged tag does not count."""
    d = metrics.diffusion(reader, "party")
    assert (d["start_count"], d["end_count"], d["personas"]) == (1, 3, 4)
    assert [p["count"] for p in d["series"]] == [1, 2, 3, 3]
    assert [p["share"] for p in d["series"]] == [0.25, 0.5, 0.75, 0.75]
    assert d["series"][1]["time"] == "2023-02-14 17:00:00"
    assert set(d["knowers"]) == {"a", "b", "d"}


def test_knowledge_onset_says_how_it_came(reader):
    """A by seed, b by conversation from a#0 at tick 1, d by whisper at tick 8."""
    k = metrics.knowledge(reader, "party")
    assert (k["a"].via, k["a"].memory, k["a"].tick) == ("seed", 0, 0)
    assert (k["b"].via, k["b"].source, k["b"].tick) == ("conversation", ("a", 0), 1)
    assert (k["d"].via, k["d"].memory, k["d"].tick) == ("whisper", 1, 8)


def test_density_counts_mutual_naming_only(reader):
    """1 of 6 pairs at the start (a-b), 2 of 6 once d names c at tick 9; c->d alone is no edge."""
    d = metrics.density(reader)
    assert (d["edges_start"], d["edges_end"]) == (1, 2)
    assert d["start"] == pytest.approx(1 / 6) and d["end"] == pytest.approx(2 / 6)
    assert [p["count"] for p in d["series"]] == [1, 1, 2, 2]
    assert d["edges"] == [["a", "b"], ["c", "d"]]


def test_attendance_invited_and_thirty_minutes(reader):
    """Invited b (conversation) and d (whisper); b (30 min) and c (60 min) came; host excluded."""
    a = metrics.attendance(reader, "party", host="a", **PARTY)
    assert a["invited"] == ["b", "d"]
    assert a["attended"] == ["b", "c"]
    assert a["invited_attended"] == ["b"]
    assert a["minutes"] == {"a": 60.0, "b": 30.0, "c": 60.0, "d": 20.0}


def test_cost_per_persona_per_game_hour(reader):
    """Over 3 game hours: a 2 calls / 240 tokens, b 1 call / 60 tokens (a cache hit)."""
    c = metrics.cost(reader)
    assert c["hours"] == pytest.approx(3.0)
    assert c["personas"]["a"]["calls_per_hour"] == pytest.approx(2 / 3)
    assert c["personas"]["a"]["tokens_per_hour"] == pytest.approx(80.0)
    assert c["personas"]["b"]["cache_hits"] == 1
    assert c["personas"]["c"]["calls"] == 0
    assert c["total"]["tokens_per_hour"] == pytest.approx(100.0)
