"""The one retrieval score of the memory stream (Park et al. 2023 §4.1; docs/design, §1).

``score_i = w_rec * rec_i + w_imp * imp_i + w_rel * rel_i`` where each part is min-max
normalised to [0, 1] over all eligible records (0.5 for all when max == min), recency is
``0.995 ** hours since last access`` (per game hour), importance the stored 1-10 and relevance
the cosine of the query and record embeddings. The top k are returned, ties going to the newer
``created`` and then the higher id, together with the next :data:`RUNNERS_UP` records.

:func:`rank` is a pure function over arrays, used by the replay weight lab, which re-ranks a
recorded retrieval over a reconstructed stream. Its core, :func:`rank_block`, is what
:class:`~town.memory.stream.MemoryStream` calls with a work block it keeps, so both score alike.

A last access later than ``now`` (a caller scoring "as of" an earlier time than a record was
last retrieved, or a clock set back) counts as 0 hours: recency is then 1, the most a record can
have, never ``0.995`` raised to a negative power (above 1). :func:`rank` clamps; nothing is
refused, so the weight lab can re-rank any recorded retrieval.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import NamedTuple

import numpy as np

from town.errors import MemoryStreamError

__all__ = [
    "RECENCY_DECAY", "RUNNERS_UP", "BLOCK_ROWS", "HOURS", "RECENCY_PART", "IMPORTANCE_PART",
    "RELEVANCE_PART", "RELEVANCE", "TOTAL", "RECENCY", "Ranking", "WorkBlock", "rank", "rank_block", "normalise",
    "check_weights", "check_k",
]

#: Recency decay per game hour (Park et al. 2023 §4.1).
RECENCY_DECAY = 0.995
#: How many records after the top k a ranking (and so a trace) also reports.
RUNNERS_UP = 5
_LN_DECAY = math.log(RECENCY_DECAY)
# The reductions themselves: ``array.min()`` goes through a Python-level wrapper first.
_least, _most = np.minimum.reduce, np.maximum.reduce


#: Rows of the ``(BLOCK_ROWS, n) float64`` work block a ranking is computed in (:func:`rank_block`):
#: hours since last access, the three normalised parts, the raw relevance and the total score;
#: a :class:`Ranking`'s rows add the raw recency (:data:`RECENCY`), for its m records only.
HOURS, RECENCY_PART, IMPORTANCE_PART, RELEVANCE_PART, RELEVANCE, TOTAL, RECENCY = range(7)
BLOCK_ROWS = 6


class Ranking(NamedTuple):
    """The best ``m = min(n, k + RUNNERS_UP)`` records of a scoring, best first.

    A named tuple rather than a frozen dataclass: every retrieval makes one, and a frozen
    dataclass's ``__init__`` (``object.__setattr__`` per field) costs three times as much.

    Attributes:
        positions: ``(m,) int64`` indices into the arrays given to :func:`rank` (columns of the block).
        n_top: how many of them are the top k (``min(k, n)``); the rest are runners-up.
        weights: the (recency, importance, relevance) weights scored with.
        rows: ``(BLOCK_ROWS + 1, m) float64``: the work block's columns of the m records (rows
            :data:`HOURS` ... :data:`TOTAL`) and their raw recency (:data:`RECENCY`); the
            properties below are views of it.
    """

    positions: np.ndarray
    n_top: int
    weights: tuple[float, float, float]
    rows: np.ndarray

    @property
    def hours(self) -> np.ndarray:
        """``(m,) float64`` game hours since last access, negative ones clamped to 0."""
        return self.rows[HOURS]

    @property
    def recency(self) -> np.ndarray:
        """``(m,) float64`` raw recency ``0.995 ** hours``, in (0, 1]."""
        return self.rows[RECENCY]

    @property
    def parts(self) -> np.ndarray:
        """``(m, 3) float64`` normalised (recency, importance, relevance) in [0, 1]."""
        return self.rows[RECENCY_PART : RELEVANCE_PART + 1].T

    @property
    def contributions(self) -> np.ndarray:
        """``(m, 3) float64`` ``weights * parts``."""
        return self.parts if self.weights == (1.0, 1.0, 1.0) else self.parts * self.weights

    @property
    def total(self) -> np.ndarray:
        """``(m,) float64`` score, the row sums of ``contributions``."""
        return self.rows[TOTAL]


class WorkBlock:
    """A ``(BLOCK_ROWS, n) float64`` work block for :func:`rank_block`, and views of its rows.

    The views are made once, since making one costs about as much as a small ufunc call and a
    ranking reads eight; the stream keeps its block (and the importance row) until a write.

    Args:
        parent: a C-contiguous ``(BLOCK_ROWS, capacity)`` float64 array, ``capacity >= n``.
        n: records; the block is the parent's first n columns.

    Attributes:
        parent, n: as given. The best columns are read from the parent: ``take`` from the
            n-column view (not contiguous when n < capacity) first copies the whole block.
        hours, recency_part, importance_part, relevance_part, relevance, total: the block's
            rows :data:`HOURS` ... :data:`TOTAL`.
        bounded: rows :data:`HOURS` and :data:`RELEVANCE` as one ``(2, n)`` view.
    """

    __slots__ = ("parent", "n", "hours", "recency_part", "importance_part", "relevance_part",
                 "relevance", "total", "bounded")

    def __init__(self, parent: np.ndarray, n: int):
        self.parent, self.n = parent, n
        block = parent[:, :n]
        (self.hours, self.recency_part, self.importance_part, self.relevance_part, self.relevance,
         self.total) = block
        self.bounded = block[HOURS : RELEVANCE + 1 : RELEVANCE - HOURS]


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
    rec, imp, rel = values  # compared one by one: a generator costs more than the rest here
    if not (0 <= rec <= MAX_WEIGHT and 0 <= imp <= MAX_WEIGHT and 0 <= rel <= MAX_WEIGHT):
        # NaN fails both comparisons
        raise MemoryStreamError(f"weights: must be finite, >= 0 and <= {MAX_WEIGHT:g}, got {weights!r}")
    if not (rec or imp or rel):
        raise MemoryStreamError(f"weights: must not all be zero, got {weights!r}")
    return rec, imp, rel


def check_k(k: object) -> int:
    """Validate the number of records to retrieve.

    Raises:
        MemoryStreamError: naming ``k`` unless it is an int >= 1.
    """
    if isinstance(k, bool) or not isinstance(k, (int, np.integer)) or k < 1:
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
    w = check_weights(weights)
    k = check_k(k)
    n = len(hours)
    if not len(importance) == len(relevance) == len(created) == len(ids) == n:
        raise MemoryStreamError("rank: hours, importance, relevance, created and ids differ in length")
    work = WorkBlock(np.empty((BLOCK_ROWS, n)), n)
    work.hours[...] = hours
    work.importance_part[...] = normalise(np.asarray(importance))
    keys = np.array([ids, created])  # one dtype: float64 when created is (ids are exact in it)
    return rank_block(work, relevance=np.asarray(relevance), keys=keys, weights=w, k=k)


def rank_block(
    work: WorkBlock,
    *,
    relevance: np.ndarray,
    keys: np.ndarray,
    weights: tuple[float, float, float],
    k: int,
) -> Ranking:
    """:func:`rank` over a work block the caller filled, with weights and k already checked.

    The stream keeps one block per persona (importance never changes between writes, so its
    normalised row stays) and calls this directly: a stream of a few thousand records spends
    most of a retrieval in the fixed cost per call rather than in the arithmetic
    (benchmarks/retrieval.py). So every part is written in place into a row of the block, each
    score is ``(w_rec*rec + w_imp*imp) + w_rel*rel`` in that order of rounding (a weight of 1
    skips its product, which would be exact), and one gather reads the best ``m`` columns.

    Args:
        work: the block, with its rows ``hours`` (game hours since last access; negative ones
            are clamped to 0 here, in place) and ``importance_part`` (:func:`normalise` of the
            importance) filled; the other rows are overwritten.
        relevance: ``(n,)`` cosine similarity of query and record.
        keys: ``(2, n)`` rows: record ids, then any key increasing with the creation time
            (one array, so that the candidates' keys are read in one gather).
        weights: (recency, importance, relevance) from :func:`check_weights`.
        k: from :func:`check_k`.

    Returns:
        The :class:`Ranking` of the best ``min(n, k + RUNNERS_UP)`` records.
    """
    n, hours = work.n, work.hours
    if n == 0:
        return Ranking(positions=np.empty(0, np.int64), n_top=0, weights=weights,
                       rows=np.empty((BLOCK_ROWS + 1, 0)))
    work.relevance[...] = relevance  # widened to float64 (exactly)
    bounded = work.bounded  # both rows bounded in one call each
    (low, rel_low), (high, rel_high) = _least(bounded, axis=1).tolist(), _most(bounded, axis=1).tolist()
    if low < 0:  # a last access after now counts as now
        np.maximum(hours, 0.0, out=hours)
        low, high = _least(hours), _most(hours)
    _recency_part(hours, low, high, out=work.recency_part)
    _rescale(work.relevance, rel_low, rel_high, out=work.relevance_part)
    # w * part is the part itself when w is 1 (the product is exact), so skip those products.
    w_rec, w_imp, w_rel = weights
    rec, imp, rel = work.recency_part, work.importance_part, work.relevance_part
    score = work.total
    np.add(rec if w_rec == 1.0 else rec * w_rec, imp if w_imp == 1.0 else imp * w_imp, out=score)
    score += rel if w_rel == 1.0 else rel * w_rel
    m = min(n, k + RUNNERS_UP)
    if m < n:
        selected = score.copy()
        selected.partition(n - m)
        cand = (score >= selected[n - m]).nonzero()[0]  # all tied with the m-th are candidates
    else:
        cand = np.arange(n)
    # Best first: the last m of the ascending (score, created, id) order, reversed (ids are unique).
    ids, created = keys[:, cand]
    order = np.lexsort((ids, created, score[cand]))[: -m - 1 : -1]
    pos = cand[order]
    rows = np.empty((BLOCK_ROWS + 1, len(pos)))
    work.parent.take(pos, axis=1, out=rows[:BLOCK_ROWS])
    recency = rows[RECENCY]
    np.multiply(rows[HOURS], _LN_DECAY, out=recency)
    np.exp(recency, out=recency)  # 0.995 ** hours
    return Ranking(positions=pos, n_top=min(k, n), weights=weights, rows=rows)


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
    _rescale(values, np.float64(_least(values)), np.float64(_most(values)), out=out)


def _rescale(values: np.ndarray, low: float, high: float, *, out: np.ndarray) -> None:
    """Write ``(values - low) / (high - low)`` into ``out`` (float64); 0.5 for all when equal."""
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
