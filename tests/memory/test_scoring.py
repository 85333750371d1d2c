"""Tests of town.memory.scoring: hand-worked scores, min-max edge cases, ties, validation."""

from __future__ import annotations

import math

import numpy as np
import pytest

from town.errors import MemoryStreamError
from town.memory.scoring import rank


def _rank(hours, importance, relevance, *, weights=(1.0, 1.0, 1.0), k=10, created=None, ids=None):
    n = len(hours)
    return rank(
        hours=np.asarray(hours, float),
        importance=np.asarray(importance, float),
        relevance=np.asarray(relevance, float),
        created=np.arange(n) if created is None else np.asarray(created),
        ids=np.arange(n) if ids is None else np.asarray(ids),
        weights=weights,
        k=k,
    )


def test_recency_after_24_game_hours_is_0_8867():
    """0.995 ** 24 = 0.8867 (Park et al. 2023: decay 0.995 per game hour)."""
    ranking = _rank([24.0, 0.0], [5, 5], [0.3, 0.3], k=1)
    raw = dict(zip(ranking.positions.tolist(), ranking.recency.tolist()))
    assert round(raw[0], 4) == 0.8867
    assert raw[1] == 1.0


def test_three_records_worked_by_hand():
    """Normalised parts and totals of a three-record example, worked out in the comments."""
    # A: 0 h, importance 2, relevance 0.2 ; B: 10 h, 8, 0.5 ; C: 24 h, 5, 0.8
    # raw recency: A 1, B 0.995**10 = 0.9511101, C 0.995**24 = 0.8866535
    # recency part: A (1-0.8866535)/(1-0.8866535) = 1, C 0,
    #               B (0.9511101-0.8866535)/(1-0.8866535) = 0.0644566/0.1133465 = 0.5686689
    # importance part: (2-2)/6 = 0, (8-2)/6 = 1, (5-2)/6 = 0.5
    # relevance part: (0.2-0.2)/0.6 = 0, (0.5-0.2)/0.6 = 0.5, (0.8-0.2)/0.6 = 1
    # weights (1,1,1): A 1+0+0 = 1, B 0.5686689+1+0.5 = 2.0686689, C 0+0.5+1 = 1.5 -> B, C, A
    ranking = _rank([0.0, 10.0, 24.0], [2, 8, 5], [0.2, 0.5, 0.8], k=2)
    assert ranking.positions.tolist() == [1, 2, 0]
    assert ranking.n_top == 2
    np.testing.assert_allclose(ranking.total, [2.0686689, 1.5, 1.0], atol=1e-6)
    np.testing.assert_allclose(ranking.parts[0], [0.5686689, 1.0, 0.5], atol=1e-6)
    # weights (2,1,0.5): A 2*1 = 2, B 2*0.5686689+1+0.25 = 2.3873377, C 0+0.5+0.5 = 1 -> B, A, C
    ranking = _rank([0.0, 10.0, 24.0], [2, 8, 5], [0.2, 0.5, 0.8], weights=(2, 1, 0.5), k=1)
    assert ranking.positions.tolist() == [1, 0, 2]
    np.testing.assert_allclose(ranking.total, [2.3873377, 2.0, 1.0], atol=1e-6)
    np.testing.assert_allclose(ranking.contributions[0], [1.1373377, 1.0, 0.25], atol=1e-6)


def test_equal_parts_normalise_to_one_half():
    """When max == min a part is 0.5 for every record."""
    ranking = _rank([3.0, 3.0, 3.0], [4, 4, 4], [0.1, 0.1, 0.1], weights=(1, 2, 3), k=3)
    np.testing.assert_array_equal(ranking.parts, np.full((3, 3), 0.5))
    np.testing.assert_allclose(ranking.total, [3.0, 3.0, 3.0])


def test_ties_go_to_newer_created_then_higher_id():
    """Equal scores rank by created (newer first), then id (higher first)."""
    ranking = _rank([1.0] * 4, [5] * 4, [0.5] * 4, k=2, created=[10, 30, 30, 20], ids=[7, 3, 9, 8])
    assert ranking.positions.tolist() == [2, 1, 3, 0]  # (30, id 9), (30, id 3), 20, 10


def test_large_hour_spans_neither_overflow_nor_lose_order():
    """A span of 200,000 game hours (0.995**h underflows) still ranks the newest first."""
    ranking = _rank([0.0, 1.0, 200_000.0], [5, 5, 5], [0.5, 0.5, 0.5], weights=(1, 0, 0), k=3)
    assert ranking.positions.tolist() == [0, 1, 2]
    np.testing.assert_allclose(ranking.parts[:, 0], [1.0, 0.995, 0.0], atol=1e-12)
    assert all(math.isfinite(v) for v in ranking.total)


def test_k_larger_than_n_returns_everything_and_empty_input_returns_nothing():
    """K > n returns all records as top; no records give an empty ranking."""
    ranking = _rank([1.0, 2.0], [1, 2], [0.0, 1.0], k=50)
    assert ranking.n_top == 2 and len(ranking.positions) == 2
    empty = _rank([], [], [], k=3)
    assert empty.n_top == 0 and empty.positions.size == 0


def test_runners_up_are_the_next_five():
    """With 20 records and k=3 the ranking holds 3 top and 5 runners-up, in score order."""
    ranking = _rank([0.0] * 20, [5] * 20, np.linspace(0, 1, 20), weights=(0, 0, 1), k=3)
    assert ranking.positions.tolist() == list(range(19, 11, -1))
    assert ranking.n_top == 3


@pytest.mark.parametrize(
    "weights", [(-1, 1, 1), (0, 0, 0), (math.nan, 1, 1), (math.inf, 1, 1), (1, 1), ("a", 1, 1)]
)
def test_bad_weights_are_refused(weights):
    """Weights must be three finite numbers >= 0, not all zero."""
    with pytest.raises(MemoryStreamError, match="weights"):
        _rank([1.0], [1], [0.5], weights=weights)


@pytest.mark.parametrize("k", [0, -3, 2.5, True])
def test_bad_k_is_refused(k):
    """K must be an int >= 1."""
    with pytest.raises(MemoryStreamError, match="k: "):
        _rank([1.0], [1], [0.5], k=k)


def test_last_access_after_now_counts_as_zero_hours():
    """A future last access is clamped to 0 h: raw recency 1, never 0.995 ** -24 = 1.1279."""
    # A: accessed 24 h after now (hours -24), B: now (0 h), C: 24 h ago.
    # Clamped hours 0, 0, 24 -> raw recency 1, 1, 0.995**24 = 0.8866535; recency parts 1, 1, 0.
    ranking = _rank([-24.0, 0.0, 24.0], [5, 5, 5], [0.5, 0.5, 0.5], weights=(1, 0, 0), k=3)
    by_pos = {p: i for i, p in enumerate(ranking.positions.tolist())}
    assert ranking.recency[by_pos[0]] == 1.0
    assert ranking.hours[by_pos[0]] == 0.0
    assert ranking.parts[by_pos[0], 0] == ranking.parts[by_pos[1], 0] == 1.0
    assert ranking.parts[by_pos[2], 0] == pytest.approx(0.0, abs=1e-12)
    assert ranking.recency.max() <= 1.0
