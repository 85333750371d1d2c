"""Saving and restoring a memory stream's state (a part of :class:`~town.memory.stream.MemoryStream`).

A run's snapshot keeps only a stream's counters: its file holds every record, embedding and access
already (docs/design, §4); a saved stream outside a run keeps them all, with its FAISS index.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any

import numpy as np

from town.embedding import Embedder
from town.errors import MemoryStreamError
from town.memory.columns import Columns, to_seconds
from town.memory.record import MemoryRecord
from town.memory.vectors import VectorIndex

__all__ = ["StreamState"]


class StreamState(ABC):
    """``get_state`` / ``set_state`` of :class:`~town.memory.stream.MemoryStream`, which holds
    the attributes declared here."""

    persona: str
    _embedder: Embedder
    _dim: int
    _index: VectorIndex
    _records: dict[int, MemoryRecord]
    _columns: Columns
    _access_log: list[tuple[int, datetime | str, list[int]]]
    _next_id: int

    @abstractmethod
    def _reset(self, index: VectorIndex) -> None: ...

    @abstractmethod
    def _index_facts(self, records: Sequence[MemoryRecord]) -> None: ...

    @abstractmethod
    def access_log(self) -> list[dict[str, Any]]: ...

    def get_state(self, *, vectors: bool = True) -> dict[str, Any]:
        """JSON-able state: records, access log, the FAISS index (base64) and embedder name/dim.

        Args:
            vectors: include the records, the FAISS index and the access log. Without them (a
                run's snapshot: its file holds every record, embedding and access already)
                none is computed, and the state is the same size however long the stream;
                :meth:`set_state` then takes the records (in the state) and the vectors from
                the caller.
        """
        state: dict[str, Any] = {
            "persona": self.persona,
            "embedder": self._embedder.name,
            "dim": self._dim,
            "next_id": self._next_id,
        }
        if vectors:
            state["records"] = [r.to_dict() for r in self._records.values()]
            state["access_log"] = self.access_log()
            state["index"] = self._index.to_base64()
        return state

    def set_state(self, state: Mapping[str, Any],
                  vectors: tuple[np.ndarray, np.ndarray] | None = None) -> None:
        """Restore a state from :meth:`get_state`.

        Args:
            state: the state with its ``records`` (oldest id first); without ``vectors`` it must
                hold the ``index``.
            vectors: ids ``(n,) int64`` and embeddings ``(n, d) float32`` of the records, to
                index instead of the state's ``index``; the access log then starts empty
                unless the state holds one.

        Raises:
            MemoryStreamError: when the state's dim differs from the embedder's (naming both),
                or its index and records disagree.
        """
        if int(state["dim"]) != self._dim:
            raise MemoryStreamError(
                f"dim: the saved stream holds dim {state['dim']} vectors (embedder "
                f"{state.get('embedder')!r}) but the embedder {self._embedder.name!r} gives dim "
                f"{self._dim}; use the same embedder"
            )
        if vectors is None:
            index = VectorIndex.from_base64(state["index"], self._dim)
        else:
            ids, embeddings = vectors
            index = VectorIndex(self._dim)
            if len(ids):
                index.add(np.ascontiguousarray(embeddings, dtype=np.float32), np.asarray(ids, dtype=np.int64))
        records = {r.id: r for r in map(MemoryRecord.from_dict, state["records"])}
        order = index.ids()
        if sorted(order.tolist()) != sorted(records):
            raise MemoryStreamError("index: the saved FAISS index and records hold different ids")
        self._reset(index)
        self._records = records
        self._index_facts(list(records.values()))
        rows = [records[i] for i in order.tolist()]
        stamps = [(to_seconds(r.created), to_seconds(r.last_accessed)) for r in rows]
        created, accessed = zip(*stamps) if stamps else ((), ())
        self._columns.extend(order, created, accessed, [r.importance for r in rows],
                             [r.content for r in rows])
        self._access_log = [
            (int(e["tick"]), str(e["time"]), [int(i) for i in e["ids"]]) for e in state.get("access_log", ())
        ]
        self._next_id = int(state["next_id"])
