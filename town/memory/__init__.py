"""The memory stream of a persona (Park et al. 2023 §4.1; docs/design, §1).

Parts:
    record: :class:`MemoryRecord` (frozen) and :class:`MemoryKind`.
    fact: :class:`Fact`, what a record states as its persona understood it, and :class:`PlanItem`.
    times: how records write game datetimes.
    scoring: :func:`rank`, the one retrieval score (min-max normalised recency, importance and
        relevance, weighted; ties to the newer record), shared with the replay weight lab.
    trace: :class:`RetrievalTrace` and :class:`CandidateScore`, why each memory was retrieved.
    columns: the per-record numbers kept aligned with the FAISS index (internal).
    stream: :class:`MemoryStream`, records + a FAISS index per persona + exact retrieval, one
        record per fact (``holding``, ``retold``); stream_state: its saved state.
"""

from town.memory.fact import Decided, Fact, PlanItem
from town.memory.record import MemoryKind, MemoryRecord
from town.memory.scoring import RECENCY_DECAY, RUNNERS_UP, Ranking, check_k, check_weights, rank
from town.memory.stream import MemoryStream
from town.memory.trace import CandidateScore, RetrievalTrace

__all__ = [
    "Fact",
    "PlanItem",
    "Decided",
    "MemoryKind",
    "MemoryRecord",
    "MemoryStream",
    "RetrievalTrace",
    "CandidateScore",
    "Ranking",
    "rank",
    "check_weights",
    "check_k",
    "RECENCY_DECAY",
    "RUNNERS_UP",
]
