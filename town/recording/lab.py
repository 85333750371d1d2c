"""The replay weight lab: re-rank a recorded retrieval with other weights or k (docs/design, §4, §5).

The retrieval is re-scored over the persona's memory stream as it was at that moment
(:meth:`RunReader.stream_as_of`) with the recorded query embedding, through the same scoring
function the live stream uses (:func:`town.memory.scoring.rank`, Park et al. 2023 §4.1). With
the recorded weights and k it reproduces the recorded top k.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

import numpy as np

from town.memory.columns import to_seconds
from town.memory.scoring import Ranking, rank
from town.memory.trace import CandidateScore, candidates_from
from town.memory.vectors import VectorIndex
from town.recording.reader import RunReader
from town.recording.schema import parse_time
from town.recording.streams import RecordedStream

__all__ = ["rescore", "score_stream", "stream_ages"]

def stream_ages(stream: RecordedStream, now: datetime) -> tuple[np.ndarray, np.ndarray]:
    """The time columns :func:`score_stream` ranks a recorded stream by, at game time ``now``.

    Returns:
        ``(hours, created)``: ``(n,) float`` game hours from each record's last access to
        ``now``, and ``(n,) int64`` a key rising with creation time (seconds).
    """
    hours = np.array([(now - t).total_seconds() / 3600.0 for t in stream.last_accessed])
    created = np.array([to_seconds(t) for t in stream.created], np.int64)
    return hours, created


def score_stream(stream: RecordedStream, query: np.ndarray, *, now: datetime,
                 weights: Sequence[float], k: int, index: VectorIndex | None = None,
                 ages: tuple[np.ndarray, np.ndarray] | None = None) -> tuple[Ranking, list[CandidateScore]]:
    """Score a recorded stream for a query as the live stream would (Park et al. 2023 §4.1).

    Args:
        stream: the stream as it was (``RunReader.stream_as_of``).
        query: ``(d,)`` float32 query embedding (normalised here).
        now: game time of the retrieval (recency = 0.995 ** game hours since last access).
        weights: (recency, importance, relevance), finite, >= 0, not all zero.
        k: records in the top (>= 1).
        index: the stream's embeddings already in a :class:`VectorIndex` (ids in stream order),
            to score many queries against one stream without rebuilding it.
        ages: :func:`stream_ages` of the stream at ``now``, to score many queries at one time
            without recomputing them.

    Returns:
        The :class:`Ranking` and its candidates (top k, then up to 5 runners-up).

    Raises:
        MemoryStreamError: for bad weights or k.
    """
    hours, created = stream_ages(stream, now) if ages is None else ages
    query = np.asarray(query, dtype=np.float32)
    query = query / np.linalg.norm(query)
    relevance = np.empty(0, np.float32)
    if len(stream.ids):
        # The live stream's own FAISS kernel, so float rounding (and so exact ties) match.
        if index is None:
            index = VectorIndex(stream.embeddings.shape[1])
            index.add(stream.embeddings, stream.ids)
        relevance = index.relevance(query)
    ranking = rank(hours=hours, importance=stream.importance, relevance=relevance,
                   created=created, ids=stream.ids, weights=weights, k=k)
    pos = ranking.positions
    candidates = candidates_from(
        ranking, ids=stream.ids[pos].tolist(), contents=[stream.contents[i] for i in pos],
        importance=stream.importance[pos].tolist())
    return ranking, list(candidates)


def rescore(
    reader: RunReader, retrieval_seq: int, *, weights: Sequence[float], k: int
) -> dict[str, Any]:
    """Re-rank the recorded retrieval ``retrieval_seq`` with ``weights`` and ``k``.

    Args:
        reader: the run.
        retrieval_seq: seq of a recorded retrieval event.
        weights: (recency, importance, relevance), finite, >= 0, not all zero.
        k: records in the top (>= 1).

    Returns:
        ``{"seq", "persona", "query", "game_time", "weights", "k", "n_scored", "candidates",
        "top", "recorded_top", "entered", "left"}``: ``candidates`` are the new top k then the
        runners-up, each a ``CandidateScore.to_dict()``; ``top`` their ids; ``entered`` the ids
        in the new top k but not the recorded one, ``left`` the reverse (both best first).

    Raises:
        RecordingError: when ``retrieval_seq`` is not a recorded retrieval.
        MemoryStreamError: for bad weights or k.
    """
    trace = reader.retrieval(retrieval_seq)
    stream = reader.stream_as_of(trace["persona"], retrieval_seq)
    _, scored = score_stream(stream, trace["query_embedding"], now=parse_time(trace["game_time"]),
                             weights=weights, k=k)
    candidates = [c.to_dict() for c in scored]
    top = [c["id"] for c in candidates if c["in_top_k"]]
    recorded = list(trace["returned"])
    return {
        "seq": int(retrieval_seq),
        "persona": trace["persona"],
        "query": trace["query"],
        "game_time": trace["game_time"],
        "weights": [float(w) for w in weights],
        "k": int(k),
        "n_scored": len(stream.ids),
        "candidates": candidates,
        "top": top,
        "recorded_top": recorded,
        "entered": [i for i in top if i not in recorded],
        "left": [i for i in recorded if i not in top],
    }
