"""The study's statistics: means and percentile-bootstrap intervals checked against exact enumeration."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from town.studies.aggregate import RESAMPLES, bootstrap_difference, bootstrap_mean, summarise
from town.studies.contrast import contrast


def exact_interval(values: list[float]) -> tuple[float, float]:
    """The 2.5th and 97.5th percentiles of the means of all n^n resamples (each equally likely)."""
    means = [float(np.mean(r)) for r in itertools.product(values, repeat=len(values))]
    low, high = np.percentile(means, [2.5, 97.5])
    return float(low), float(high)


def test_two_seeds_give_their_own_values_as_the_interval():
    """Two values a < b: resample means are a, (a+b)/2, b with 1/4, 1/2, 1/4; 25% > 2.5% at each end."""
    s = bootstrap_mean([0.4, 0.6])
    assert s == {"mean": pytest.approx(0.5), "low": 0.4, "high": 0.6, "n": 2}


def test_three_seeds_span_their_extremes():
    """Three values: all-min and all-max resamples have 1/27 = 3.7% each, more than 2.5%."""
    s = bootstrap_mean([0.2, 0.9, 0.5])
    assert (s["low"], s["high"]) == (pytest.approx(0.2), pytest.approx(0.9))
    assert s["mean"] == pytest.approx(1.6 / 3)


def test_five_seeds_match_the_exact_bootstrap_distribution():
    """5^5 = 3125 resamples enumerated; the Monte Carlo interval of 10,000 draws is within 0.02."""
    values = [0.53, 0.60, 0.73, 0.67, 0.80]
    low, high = exact_interval(values)
    s = bootstrap_mean(values)
    assert abs(s["low"] - low) < 0.02 and abs(s["high"] - high) < 0.02
    assert low > min(values) and high < max(values)  # narrower than the range: a real interval
    assert RESAMPLES == 10_000


def test_one_seed_has_no_interval_and_none_has_no_mean():
    assert bootstrap_mean([0.7]) == {"mean": 0.7, "low": None, "high": None, "n": 1}
    assert bootstrap_mean([]) == {"mean": None, "low": None, "high": None, "n": 0}


def test_equal_values_give_a_point_interval():
    assert bootstrap_mean([1.0, 1.0, 1.0]) == {"mean": 1.0, "low": 1.0, "high": 1.0, "n": 3}


def test_difference_of_two_studies():
    """a = [0, 1], b = [2, 3]: means of a are 0, .5, 1 (1/4, 1/2, 1/4), of b 2, 2.5, 3; the difference
    is 1 with probability 1/16 = 6.25% > 2.5%, so the interval is [1, 3]; the difference 2."""
    assert bootstrap_difference([0.0, 1.0], [2.0, 3.0]) == {"difference": 2.0, "low": 1.0, "high": 3.0}
    assert bootstrap_difference([0.5], [0.7, 0.9])["low"] is None
    assert bootstrap_difference([], [1.0])["difference"] is None


def test_summary_ignores_the_order_runs_finished_in():
    """The same runs given in any order give the same summary, bit for bit; None is left out."""
    runs = {0: {"plans": 0.6, "came:party": None}, 1: {"plans": 0.8, "came:party": 3.0},
            2: {"plans": 0.73, "came:party": 5.0}, 3: {"plans": 0.53}, 4: {"plans": 0.67}}
    shuffled = {4: runs[4], 2: runs[2], 0: runs[0], 3: runs[3], 1: runs[1]}
    assert summarise(runs) == summarise(shuffled)
    assert summarise(runs)["came:party"]["n"] == 2
    assert summarise(runs)["came:party"]["mean"] == 4.0
    assert list(summarise(runs)) == ["plans", "came:party"]
    assert summarise(runs)["plans"] == bootstrap_mean([0.6, 0.8, 0.73, 0.53, 0.67])  # in seed order


def test_contrast_of_two_studies():
    """Conditions both hold are compared measure by measure; the others are listed by side."""
    def study(values: dict[str, list[float]]) -> dict:
        conditions = {c: {"runs": {str(i): {"memory": v} for i, v in enumerate(vs)},
                          "summary": {"memory": bootstrap_mean(vs)}} for c, vs in values.items()}
        return {"town": "the_ville", "hours": 12, "seeds": [0, 1], "conditions": conditions}

    report = contrast(study({"full": [0.0, 1.0], "no-reflection": [1.0, 1.0]}),
                      study({"full": [2.0, 3.0], "no-planning": [0.5, 0.5]}))
    assert report["only_a"] == ["no-reflection"] and report["only_b"] == ["no-planning"]
    assert report["conditions"]["full"]["memory"]["difference"] == 2.0
    assert (report["conditions"]["full"]["memory"]["low"], report["conditions"]["full"]["memory"]["high"]) == (1.0, 3.0)


def test_a_run_killed_before_its_settings_were_written_is_made_again(tmp_path):
    """CI, 2026-12-07: a Ray worker killed right after it created its run file (only the schema
    version in its meta) left the retried task refusing "... was recorded with other settings;
    choose another --out". By hand: such a file holds no configuration, so it is the task's own,
    damaged (the settings wanted), unfinished; a file of no run at all still has none."""
    from town.recording.database import create_run
    from town.studies.task import _recorded

    run = tmp_path / "full-s0.sqlite"
    create_run(run).close()
    assert _recorded(run, {"seed": 0}) == (False, {"seed": 0})
    assert _recorded(run, None) == (False, None)
