"""The one retrieval score of the memory stream (Park et al. 2023 §4.1; docs/design, §1).

``score_i = w_rec * rec_i + w_imp * imp_i + w_rel * rel_i`` where each part is min-max
normalised to [0, 1] over all eligible records (0.5 for all when max == min), recency is
``0.995 ** hours since last access`` (per game hour), importance the stored 1-10 and relevance
the cosine of the query and record embeddings. The top k are returned, ties going to the newer
``created`` and then the higher id, together with the next :data:`RUNNERS_UP` records.

:func:`rank` is a pure function over arrays, shared by :class:`~town.memory.stream.MemoryStream`
and the replay weight lab, which re-ranks a recorded retrieval over a reconstructed stream.

A last access later than ``now`` (a caller scoring "as of" an earlier time than a record was
last retrieved, or a clock set back) counts as 0 hours: recency is then 1, the most a record can
have, never ``0.995`` raised to a negative power (above 1). :func:`rank` clamps; nothing is
refused, so the weight lab can re-rank any recorded retrieval.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from town.errors import MemoryStreamError

__all__ = ["RECENCY_DECAY", "RUNNERS_UP", "Ranking", "rank", "check_weights", "check_k"]

#: Recency decay per game hour (Park et al. 2023 §4.1).
RECENCY_DECAY = 0.995
#: How many records after the top k a ranking (and so a trace) also reports.
RUNNERS_UP = 5
_LN_DECAY = math.log(RECENCY_DECAY)


@dataclass(frozen=True, kw_only=True)
class Ranking:
    """The best ``m = min(n, k + RUNNERS_UP)`` records of a scoring, best first.

    Attributes:
        positions: ``(m,) int64`` indices into the arrays given to :func:`rank`.
        n_top: how many of them are the top k (``min(k, n)``); the rest are runners-up.
        hours: ``(m,) float64`` game hours since last access, negative ones clamped to 0.
        recency: ``(m,) float64`` raw recency ``0.995 ** hours``, in (0, 1].
        parts: ``(m, 3) float64`` normalised (recency, importance, relevance) in [0, 1].
        contributions: ``(m, 3) float64`` ``weights * parts``.
        total: ``(m,) float64`` score, the row sums of ``contributions``.
    """

    positions: np.ndarray
    n_top: int
    hours: np.ndarray
    recency: np.ndarray
    parts: np.ndarray
    contributions: np.ndarray
    total: np.ndarray


#: Largest weight accepted: larger ones only overflow the weighted sum (each part is in [0, 1]).
MAX_WEIGHT = 1e6


def check_weights(weights: Sequence[float]) -> tuple[float, float, float]:
    """Validate (recency, importance, relevance) weights.

    Returns:
        The weights as three floats.

    Raises:
        MemoryStreamError: naming ``weights`` unless they are three numbers in [0, MAX_WEIGHT],
            not all zero.
    """
    try:
        values = tuple(float(w) for w in weights)
    except (TypeError, ValueError):
        raise MemoryStreamError(f"weights: must be three numbers, got {weights!r}") from None
    if len(values) != 3:
        raise MemoryStreamError(
            f"weights: must be (recency, importance, relevance), got {weights!r}"
        )
    if not all(math.isfinite(w) and 0 <= w <= MAX_WEIGHT for w in values):
        raise MemoryStreamError(f"weights: must be finite, >= 0 and <= {MAX_WEIGHT:g}, got {weights!r}")
    if not any(values):
        raise MemoryStreamError(f"weights: must not all be zero, got {weights!r}")
    return values  # type: ignore[return-value]


def check_k(k: object) -> int:
    """Validate the number of records to retrieve.

    Raises:
        MemoryStreamError: naming ``k`` unless it is an int >= 1.
    """
    if isinstance(k, bool) or not isinstance(k, int | np.integer) or k < 1:
        raise MemoryStreamError(f"k: must be an int >= 1, got {k!r}")
    return int(k)


def _minmax(values: np.ndarray) -> np.ndarray:
    """Min-max normalise to [0, 1]; 0.5 for all when max == min."""
    low, high = values.min(), values.max()
    if high == low:
        return np.full(values.shape, 0.5)
    return (values - low) / (high - low)


def _recency_part(hours: np.ndarray) -> np.ndarray:
    """Min-max normalised ``0.995 ** hours``, computed anchored at the newest access.

    ``(r - r_min) / (r_max - r_min)`` with ``r = 0.995 ** h`` equals
    ``(0.995 ** (h - h_min) - 0.995 ** span) / (1 - 0.995 ** span)``, ``span = h_max - h_min``:
    the factor ``0.995 ** h_min`` cancels, so nothing under- or overflows for any span of hours
    (written with ``expm1`` so that the newest access gets exactly 1 and the oldest exactly 0).
    """
    low, high = hours.min(), hours.max()
    if high == low:
        return np.full(hours.shape, 0.5)
    floor = math.expm1(_LN_DECAY * (high - low))  # 0.995 ** span - 1, exact for tiny spans
    return (np.expm1(_LN_DECAY * (hours - low)) - floor) / -floor


def rank(
    *,
    hours: np.ndarray,
    importance: np.ndarray,
    relevance: np.ndarray,
    created: np.ndarray,
    ids: np.ndarray,
    weights: Sequence[float],
    k: int,
) -> Ranking:
    """Score every eligible record and return the top k plus the next runners-up.

    Args:
        hours: ``(n,) float64`` game hours from each record's last access to now; a negative
            value (last access after now) counts as 0 hours, i.e. recency 1.
        importance: ``(n,)`` importance 1-10.
        relevance: ``(n,)`` cosine similarity of query and record.
        created: ``(n,)`` any key increasing with the creation time (e.g. game hours).
        ids: ``(n,)`` record ids.
        weights: (recency, importance, relevance) weights, finite, >= 0, not all zero.
        k: records in the top (>= 1); fewer are returned when n < k.

    Returns:
        The :class:`Ranking` of the best ``min(n, k + RUNNERS_UP)`` records.

    Raises:
        MemoryStreamError: for bad weights or k, or arrays of different lengths.
    """
    w = np.asarray(check_weights(weights))
    k = check_k(k)
    n = len(hours)
    if not len(importance) == len(relevance) == len(created) == len(ids) == n:
        raise MemoryStreamError(
            "rank: hours, importance, relevance, created and ids differ in length"
        )
    if n == 0:
        empty = np.empty((0, 3))
        return Ranking(
            positions=np.empty(0, np.int64),
            n_top=0,
            hours=np.empty(0),
            recency=np.empty(0),
            parts=empty,
            contributions=empty,
            total=np.empty(0),
        )
    hours = np.maximum(np.asarray(hours, dtype=np.float64), 0.0)  # a future access is "now"
    rec = _recency_part(hours)
    imp = _minmax(np.asarray(importance, dtype=np.float64))
    rel = _minmax(np.asarray(relevance, dtype=np.float64))
    score = w[0] * rec + w[1] * imp + w[2] * rel
    m = min(n, k + RUNNERS_UP)
    threshold = np.partition(score, n - m)[n - m]
    cand = np.flatnonzero(score >= threshold)  # every record tied with the m-th is a candidate
    created_key = np.asarray(created, dtype=np.float64)[cand]
    order = np.lexsort((-np.asarray(ids)[cand], -created_key, -score[cand]))[:m]
    pos = cand[order].astype(np.int64)
    parts = np.column_stack([rec[pos], imp[pos], rel[pos]])
    contributions = parts * w
    return Ranking(
        positions=pos,
        n_top=min(k, n),
        hours=hours[pos],
        recency=np.exp(_LN_DECAY * hours[pos]),
        parts=parts,
        contributions=contributions,
        total=score[pos],
    )
