"""A ranking cut to the records a retrieval keeps: some only, and one record per fact.

The plan's retrieval returns at most one record of each fact (:meth:`~town.memory.fact.Fact.key`:
subject, act, place, start), so that one event told by many, or told and then summarised,
cannot crowd the rest of what the persona knows out of its top k.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from town.memory.fact import FactKey
from town.memory.record import MemoryRecord
from town.memory.scoring import RUNNERS_UP, Ranking

__all__ = ["kept"]


def kept(ranking: Ranking, ranked: Sequence[MemoryRecord], k: int, *, one_per_fact: bool,
         among: Callable[[MemoryRecord], bool] | None) -> Ranking:
    """``ranking`` cut to its best ``k`` records (and :data:`RUNNERS_UP` more) that are kept.

    Args:
        ranking: a ranking of the records ``ranked``, best first (one per position).
        ranked: the records in ranking order.
        k: the top's size (>= 1).
        one_per_fact: skip a record whose fact a better scored record already holds.
        among: keep only records for which this is true (None: all).

    Returns:
        A :class:`Ranking` of the kept positions, in the same order, with their rows.
    """
    keep: list[int] = []
    facts: set[FactKey] = set()
    for j, record in enumerate(ranked):
        if among is not None and not among(record):
            continue
        if one_per_fact and record.fact is not None:
            if record.fact.key() in facts:
                continue
            facts.add(record.fact.key())
        keep.append(j)
        if len(keep) == k + RUNNERS_UP:
            break
    return Ranking(positions=ranking.positions[keep], n_top=min(k, len(keep)), weights=ranking.weights,
                   rows=ranking.rows[:, keep])
