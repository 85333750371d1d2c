"""The replay weight lab: re-rank a recorded retrieval with other weights or k (DESIGN §6, §7).

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

from town.memory.scoring import rank
from town.memory.trace import CandidateScore
from town.recording.reader import RunReader
from town.recording.schema import parse_time

__all__ = ["rescore"]

_EPOCH = datetime(2000, 1, 1)


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
    now = parse_time(trace["game_time"])
    hours = np.array([(now - t).total_seconds() / 3600.0 for t in stream.last_accessed])
    created = np.array([(t - _EPOCH).total_seconds() / 3600.0 for t in stream.created])
    query = np.asarray(trace["query_embedding"], dtype=np.float32)
    query = query / np.linalg.norm(query)
    relevance = stream.embeddings @ query if len(stream.ids) else np.empty(0, np.float32)
    ranking = rank(hours=hours, importance=stream.importance, relevance=relevance,
                   created=created, ids=stream.ids, weights=weights, k=k)
    candidates = [
        CandidateScore(
            rank=j + 1,
            id=int(stream.ids[pos]),
            content=stream.contents[pos],
            hours=float(hours[pos]),
            recency=float(ranking.recency[j]),
            importance=int(stream.importance[pos]),
            relevance=float(relevance[pos]),
            recency_part=float(ranking.parts[j, 0]),
            importance_part=float(ranking.parts[j, 1]),
            relevance_part=float(ranking.parts[j, 2]),
            recency_score=float(ranking.contributions[j, 0]),
            importance_score=float(ranking.contributions[j, 1]),
            relevance_score=float(ranking.contributions[j, 2]),
            total=float(ranking.total[j]),
            in_top_k=j < ranking.n_top,
        ).to_dict()
        for j, pos in enumerate(ranking.positions.tolist())
    ]
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
