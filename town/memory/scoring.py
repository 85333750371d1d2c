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

__all__ = ["RECENCY_DECAY", "RUNNERS_UP", "Ranking", "rank", "normalise", "check_weights", "check_k"]

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
        values = tuple(map(float, weights))
    except (TypeError, ValueError):
        raise MemoryStreamError(f"weights: must be three numbers, got {weights!r}") from None
    if len(values) != 3:
        raise MemoryStreamError(
            f"weights: must be (recency, importance, relevance), got {weights!r}"
        )
    if not all(0 <= w <= MAX_WEIGHT for w in values):  # NaN fails both comparisons
        raise MemoryStreamError(f"weights: must be finite, >= 0 and <= {MAX_WEIGHT:g}, got {weights!r}")
    if not any(values):
        raise MemoryStreamError(f"weights: must not all be zero, got {weights!r}")
    return values


def check_k(k: object) -> int:
    """Validate the number of records to retrieve.

    Raises:
        MemoryStreamError: naming ``k`` unless it is an int >= 1.
    """
    if isinstance(k, bool) or not isinstance(k, int | np.integer) or k < 1:
        raise MemoryStreamError(f"k: must be an int >= 1, got {k!r}")
    return int(k)


def rank(
    *,
    hours: np.ndarray,
    importance: np.ndarray,
    relevance: np.ndarray,
    created: np.ndarray,
    ids: np.ndarray,
    weights: Sequence[float],
    k: int,
    importance_part: np.ndarray | None = None,
) -> Ranking:
    """Score every eligible record and return the top k plus the next runners-up.

    Every record's score is computed (exact retrieval), in as few numpy calls as the formula
    allows, since a stream of a few thousand records spends most of a retrieval in the fixed
    cost per call rather than in the arithmetic (benchmarks/retrieval.py): the three parts are
    written in place into the rows of one ``(3, n)`` array, each score is
    ``(w_rec*rec + w_imp*imp) + w_rel*rel`` in that order of rounding (a weight of 1 skips its
    product, which would be exact), and only the best ``m`` columns are gathered for the trace.

    Args:
        hours: ``(n,) float64`` game hours from each record's last access to now; a negative
            value (last access after now) counts as 0 hours, i.e. recency 1.
        importance: ``(n,)`` importance 1-10.
        relevance: ``(n,)`` cosine similarity of query and record.
        created: ``(n,)`` any key increasing with the creation time (e.g. game hours).
        ids: ``(n,)`` record ids.
        weights: (recency, importance, relevance) weights, finite, >= 0, not all zero.
        k: records in the top (>= 1); fewer are returned when n < k.
        importance_part: ``(n,) float64`` :func:`normalise` of ``importance``, when the caller
            keeps it (the stream does, between writes: importance never changes); computed
            here when None.

    Returns:
        The :class:`Ranking` of the best ``min(n, k + RUNNERS_UP)`` records.

    Raises:
        MemoryStreamError: for bad weights or k, or arrays of different lengths.
    """
    w = check_weights(weights)
    k = check_k(k)
    n = len(hours)
    if not len(importance) == len(relevance) == len(created) == len(ids) == n or (
        importance_part is not None and len(importance_part) != n
    ):
        raise MemoryStreamError(
            "rank: hours, importance (and importance_part), relevance, created and ids differ"
            " in length"
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
    hours = np.asarray(hours, dtype=np.float64)
    low, high = hours.min(), hours.max()
    if low < 0:  # a last access after now counts as now
        hours = np.maximum(hours, 0.0)
        low, high = hours.min(), hours.max()
    parts = np.empty((3, n))
    _recency_part(hours, low, high, out=parts[0])
    if importance_part is None:
        _minmax(np.asarray(importance), out=parts[1])
    else:
        parts[1] = importance_part
    _minmax(np.asarray(relevance), out=parts[2])
    # w * part is the part itself when w is 1 (the product is exact), so skip those products.
    rec, imp, rel = (part if weight == 1.0 else part * weight for part, weight in zip(parts, w))
    score = rec + imp
    score += rel
    m = min(n, k + RUNNERS_UP)
    if m < n:
        threshold = np.partition(score, n - m)[n - m]
        cand = (score >= threshold).nonzero()[0]  # every record tied with the m-th is a candidate
    else:
        cand = np.arange(n)
    total = score[cand]
    # Best first: the reverse of the ascending (score, created, id) order (ids are unique).
    order = np.lexsort((np.asarray(ids)[cand], np.asarray(created)[cand], total))[::-1][:m]
    pos = cand[order]
    top_hours = hours[pos]
    top_parts = parts[:, pos].T
    return Ranking(
        positions=pos,
        n_top=min(k, n),
        hours=top_hours,
        recency=np.exp(_LN_DECAY * top_hours),
        parts=top_parts,
        contributions=top_parts if w == (1.0, 1.0, 1.0) else top_parts * w,
        total=total[order],
    )


def normalise(values: np.ndarray) -> np.ndarray:
    """``(n,) float64`` min-max normalised ``values`` in [0, 1]; 0.5 for all when max == min."""
    out = np.empty(len(values))
    if len(values):
        _minmax(np.asarray(values), out=out)
    return out


def _minmax(values: np.ndarray, *, out: np.ndarray) -> None:
    """Write ``values`` min-max normalised to [0, 1] into ``out`` (float64).

    All get 0.5 when max == min. The bounds are float64 before subtracting, so float32
    relevances are widened (exactly) rather than subtracted in float32.
    """
    low, high = np.float64(values.min()), np.float64(values.max())
    if high == low:
        out.fill(0.5)
        return
    np.subtract(values, low, out=out)
    out /= high - low


def _recency_part(hours: np.ndarray, low: float, high: float, *, out: np.ndarray) -> None:
    """Write min-max normalised ``0.995 ** hours`` into ``out``, anchored at the newest access.

    ``low`` and ``high`` are the least and most of ``hours``.
    ``(r - r_min) / (r_max - r_min)`` with ``r = 0.995 ** h`` equals
    ``(0.995 ** (h - h_min) - 0.995 ** span) / (1 - 0.995 ** span)``, ``span = h_max - h_min``:
    the factor ``0.995 ** h_min`` cancels, so nothing under- or overflows for any span of hours
    (written with ``expm1`` so that the newest access gets exactly 1 and the oldest exactly 0).
    """
    if high == low:
        out.fill(0.5)
        return
    floor = math.expm1(_LN_DECAY * (high - low))  # 0.995 ** span - 1, exact for tiny spans
    np.subtract(hours, low, out=out)
    out *= _LN_DECAY
    np.expm1(out, out=out)
    out -= floor
    out /= -floor
