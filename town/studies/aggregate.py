"""A study's measures over seeds: the mean and a 95% bootstrap confidence interval.

The interval is the percentile bootstrap (Efron & Tibshirani 1993, ch. 13): resample the seeds'
values with replacement :data:`RESAMPLES` times, take each resample's mean, and read the 2.5th
and 97.5th percentiles of those means. The generator has a fixed seed and the values come in seed
order, so the same runs give the same interval, bit for bit, whatever order they finished in.
With a few seeds the interval is narrow and rough (3 seeds have 10 distinct resamples): read it
with its seed count.
"""

from __future__ import annotations

from typing import Any

import numpy as np

__all__ = ["CONFIDENCE", "RESAMPLES", "bootstrap_mean", "bootstrap_difference", "summarise"]

CONFIDENCE = 0.95
RESAMPLES = 10_000
_RNG_SEED = 0


def _percentiles(means: np.ndarray) -> tuple[float, float]:
    tail = (1 - CONFIDENCE) / 2 * 100
    low, high = np.percentile(means, [tail, 100 - tail])
    return float(low), float(high)


def bootstrap_mean(values: list[float]) -> dict[str, Any]:
    """The mean of ``values`` and its percentile-bootstrap interval.

    Returns:
        ``{"mean", "low", "high", "n"}``; ``low`` and ``high`` are None for fewer than two values
        (one seed says nothing of the spread), and everything but ``n`` is None for none.
    """
    n = len(values)
    if n == 0:
        return {"mean": None, "low": None, "high": None, "n": 0}
    data = np.asarray(values, dtype=np.float64)
    mean = float(data.mean())
    if n < 2:
        return {"mean": mean, "low": None, "high": None, "n": n}
    rng = np.random.default_rng(_RNG_SEED)
    means = data[rng.integers(0, n, size=(RESAMPLES, n))].mean(axis=1)
    low, high = _percentiles(means)
    return {"mean": mean, "low": low, "high": high, "n": n}


def bootstrap_difference(a: list[float], b: list[float]) -> dict[str, Any]:
    """mean(b) - mean(a) and its interval, each sample resampled on its own (independent seeds).

    Returns:
        ``{"difference", "low", "high"}``; the interval is None unless both have two values or more.
    """
    if not a or not b:
        return {"difference": None, "low": None, "high": None}
    x, y = np.asarray(a, dtype=np.float64), np.asarray(b, dtype=np.float64)
    difference = float(y.mean() - x.mean())
    if len(x) < 2 or len(y) < 2:
        return {"difference": difference, "low": None, "high": None}
    rng = np.random.default_rng(_RNG_SEED)
    means_x = x[rng.integers(0, len(x), size=(RESAMPLES, len(x)))].mean(axis=1)
    means_y = y[rng.integers(0, len(y), size=(RESAMPLES, len(y)))].mean(axis=1)
    low, high = _percentiles(means_y - means_x)
    return {"difference": difference, "low": low, "high": high}


def summarise(runs: dict[int, dict[str, float | None]]) -> dict[str, dict[str, Any]]:
    """Per measure, :func:`bootstrap_mean` over the seeds' values (None values left out).

    Args:
        runs: seed -> that run's measures (:func:`town.studies.task.measures`).

    Returns:
        measure -> ``{"mean", "low", "high", "n"}``, measures in first-seen order, seeds in
        ascending order.
    """
    names: dict[str, None] = {}
    for seed in sorted(runs):
        names.update(dict.fromkeys(runs[seed]))
    return {m: bootstrap_mean([v for s in sorted(runs) if (v := runs[s].get(m)) is not None]) for m in names}
