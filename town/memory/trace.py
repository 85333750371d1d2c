"""Retrieval traces: why each memory was (or was nearly) retrieved (docs/design, §1).

A :class:`RetrievalTrace` is published as a ``retrieval`` event: its :meth:`~RetrievalTrace.to_dict`
is the event data, with the query embedding under the key ``"query_embedding"`` (one of
:data:`town.events.VECTOR_KEYS`) only when asked for.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from itertools import repeat
from typing import Any, NamedTuple

import numpy as np

from town.errors import MemoryStreamError
from town.memory.record import format_time, parse_time
from town.memory.scoring import Ranking

__all__ = ["CandidateScore", "PURPOSES", "RetrievalTrace", "candidates_from"]

#: Why a mind retrieves: the ``purpose`` of every retrieval it records (town/mind's ``recall``
#: calls; ``tests/memory/test_trace_purposes.py`` keeps the two in step). `town inspect
#: --purpose` takes these.
PURPOSES = ("act", "chat", "plan_day", "plan_events", "react", "reflect")


class CandidateScore(NamedTuple):
    """One record's score in a retrieval (Park et al. 2023 §4.1).

    A named tuple rather than a dataclass: every retrieval builds k + 5 of them, and a tuple is
    built about ten times faster (immutable all the same).

    Attributes:
        rank: 1-based position in the ranking.
        id: memory record id.
        content: the record's sentence.
        hours: game hours from its last access to the retrieval's time (0 for a later access).
        recency: raw recency ``0.995 ** hours``.
        importance: raw importance 1-10.
        relevance: raw cosine similarity to the query.
        recency_part, importance_part, relevance_part: min-max normalised parts in [0, 1].
        recency_score, importance_score, relevance_score: the parts times their weights.
        total: the score, the sum of the three weighted contributions.
        in_top_k: whether the record was returned (else it is a runner-up).
    """

    rank: int
    id: int
    content: str
    hours: float
    recency: float
    importance: int
    relevance: float
    recency_part: float
    importance_part: float
    relevance_part: float
    recency_score: float
    importance_score: float
    relevance_score: float
    total: float
    in_top_k: bool

    def to_dict(self) -> dict[str, Any]:
        """JSON-able dict of the fields."""
        return dict(zip(self._fields, self))

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> CandidateScore:
        """Inverse of :meth:`to_dict`.

        Raises:
            MemoryStreamError: naming a missing field.
        """
        try:
            return cls(*[d[name] for name in cls._fields])
        except KeyError as exc:
            raise MemoryStreamError(f"candidate score: missing field {exc.args[0]!r}") from None


@dataclass(frozen=True, kw_only=True, eq=False)
class RetrievalTrace:
    """Everything needed to explain, and to re-score, one retrieval.

    Traces compare by identity (they hold a numpy vector); compare ``to_dict()`` instead.

    Attributes:
        persona: persona id whose stream was searched.
        tick: simulation tick of the retrieval.
        game_time: game datetime ("now") of the retrieval.
        purpose: why the mind retrieved, one of :data:`PURPOSES` (e.g. ``"react"``).
        query: the query text.
        weights: (recency, importance, relevance) weights.
        k: records asked for.
        n_scored: records scored (all eligible records of the stream).
        query_embedding: ``(d,) float32`` L2-normalised query vector.
        candidates: the top k then up to 5 runners-up, best first.
    """

    persona: str
    tick: int
    game_time: datetime
    purpose: str
    query: str
    weights: tuple[float, float, float]
    k: int
    n_scored: int
    query_embedding: np.ndarray
    candidates: tuple[CandidateScore, ...]

    @classmethod
    def of(cls, **fields: Any) -> RetrievalTrace:
        """The trace with these attributes (every one of them, by name), made without ``__init__``.

        A frozen dataclass's ``__init__`` sets its ten fields one ``object.__setattr__`` at a
        time, three times the cost of handing it the keyword dict; every retrieval makes a trace.
        """
        trace = object.__new__(cls)
        object.__setattr__(trace, "__dict__", fields)
        return trace

    @property
    def returned_ids(self) -> list[int]:
        """Ids of the top k records, best first."""
        return [c.id for c in self.candidates if c.in_top_k]

    def to_dict(self, *, vectors: bool = False) -> dict[str, Any]:
        """JSON-able dict; with ``vectors`` it adds ``"query_embedding"`` as a numpy vector.

        The event bus and run writer take the vector under that key (see
        :data:`town.events.VECTOR_KEYS`); everything else is plain JSON.
        """
        d: dict[str, Any] = {
            "persona": self.persona,
            "tick": self.tick,
            "game_time": format_time(self.game_time),
            "purpose": self.purpose,
            "query": self.query,
            "weights": list(self.weights),
            "k": self.k,
            "n_scored": self.n_scored,
            "candidates": [c.to_dict() for c in self.candidates],
        }
        if vectors:
            d["query_embedding"] = self.query_embedding
        return d

    @classmethod
    def from_dict(
        cls, d: dict[str, Any], *, query_embedding: np.ndarray | None = None
    ) -> RetrievalTrace:
        """Inverse of :meth:`to_dict`.

        Args:
            d: a dict from :meth:`to_dict`.
            query_embedding: the ``(d,)`` vector when ``d`` has no ``"query_embedding"`` (it is
                stored apart from the JSON in a run).

        Raises:
            MemoryStreamError: naming a missing field, or when no query embedding is given.
        """
        vector = d.get("query_embedding", query_embedding)
        if vector is None:
            raise MemoryStreamError("retrieval trace: query_embedding is missing")
        try:
            return cls(
                persona=str(d["persona"]),
                tick=int(d["tick"]),
                game_time=parse_time(d["game_time"], field="game_time"),
                purpose=str(d["purpose"]),
                query=str(d["query"]),
                weights=tuple(float(w) for w in d["weights"]),  # type: ignore[arg-type]
                k=int(d["k"]),
                n_scored=int(d["n_scored"]),
                query_embedding=np.asarray(vector, dtype=np.float32),
                candidates=tuple(CandidateScore.from_dict(c) for c in d["candidates"]),
            )
        except KeyError as exc:
            raise MemoryStreamError(f"retrieval trace: missing field {exc.args[0]!r}") from None


def candidates_from(
    ranking: Ranking,
    *,
    ids: list[int],
    contents: list[str],
    importance: list[int],
) -> tuple[CandidateScore, ...]:
    """The trace rows of a :class:`~town.memory.scoring.Ranking`, best first.

    The rows are built column by column (one ``tolist`` of the ranking's rows gives seven
    columns), then each zipped row becomes a :class:`CandidateScore` by ``tuple.__new__`` (what
    ``_make`` does, in C): a retrieval builds k + 5 rows, and per-row Python work would cost as
    much as the scoring of a thousand records.

    Args:
        ranking: the ranking of m records.
        ids: the m ranked records' ids, in ranking order (as the lists below).
        contents: their sentences.
        importance: their raw importance 1-10.
    """
    m, n_top = len(ranking.positions), ranking.n_top
    hours, *parts, relevance, total, recency = ranking.rows.tolist()  # rows HOURS ... RECENCY
    weighted = parts if ranking.weights == (1.0, 1.0, 1.0) else ranking.contributions.T.tolist()
    columns = (
        range(1, m + 1), ids, contents, hours, recency, importance, relevance,
        *parts, *weighted, total, [True] * n_top + [False] * (m - n_top),
    )  # fmt: skip
    return tuple(map(tuple.__new__, repeat(CandidateScore, m), zip(*columns)))
