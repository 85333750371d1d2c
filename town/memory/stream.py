"""A persona's memory stream: records, a FAISS index of their embeddings, exact retrieval.

Park et al. 2023 §4.1 retrieval, as fixed in docs/design, §1: every record is scored (no
"over-fetch by vector, then re-rank"), so the result equals a brute-force scan. Vectors live
only in the persona's FAISS index (:class:`~town.memory.vectors.VectorIndex`), which also
computes every relevance; the numbers per record sit in :class:`~town.memory.columns.Columns`
aligned with the index's storage order; :func:`~town.memory.scoring.rank_block` scores them.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from datetime import datetime
from typing import Any

import numpy as np

from town.embedding import Embedder
from town.errors import MemoryStreamError
from town.memory.columns import Columns, to_seconds
from town.memory.fact import Decided, Fact, FactKey, PlanItem
from town.memory.record import (
    MemoryKind,
    MemoryRecord,
    check_content,
    check_importance,
    format_time,
    parse_kind,
)
from town.memory.stream_state import StreamState
from town.memory.distinct import kept
from town.memory.scoring import BLOCK_ROWS, WorkBlock, check_k, check_weights, normalise, rank_block
from town.memory.trace import RetrievalTrace, candidates_from
from town.memory.vectors import VectorIndex

__all__ = ["MemoryStream"]


class MemoryStream(StreamState):
    """The memory stream of one persona (Park et al. 2023 §4.1).

    Args:
        persona: persona id that owns the stream.
        embedder: embeds record contents and queries; its ``dim`` fixes the index dimension.
    """

    def __init__(self, persona: str, embedder: Embedder):
        self.persona = persona
        self._embedder = embedder
        self._dim = int(embedder.dim)
        self._reset(VectorIndex(self._dim))

    def _reset(self, index: VectorIndex) -> None:
        self._index = index
        self._records: dict[int, MemoryRecord] = {}
        self._columns = Columns()
        # rank_block's work block, and its first n columns with the importance row filled,
        # until a write (importance never changes)
        self._block = np.empty((BLOCK_ROWS, 0))
        self._view: WorkBlock | None = None
        # (tick, time, ids) per retrieval; the time is formatted when the log is read (a
        # restored log keeps its text)
        self._access_log: list[tuple[int, datetime | str, list[int]]] = []
        self._next_id = 0
        self._facts: dict[FactKey, int] = {}  # Fact.key() -> the one record holding that fact

    def __len__(self) -> int:
        return len(self._records)

    def _embed(self, texts: Sequence[str]) -> np.ndarray:
        """Embed via the embedder; refuses vectors of another dimension than the stream's."""
        vectors = self._embedder.embed(list(texts))
        return self._index.check(vectors, len(texts), f"embedder {self._embedder.name!r}")

    def add(
        self,
        *,
        kind: MemoryKind,
        content: str,
        created: datetime,
        importance: int,
        evidence: Sequence[int] = (),
        subject: str | None = None,
        predicate: str | None = None,
        object: str | None = None,
        conversation: int | None = None,
        source: tuple[str, int] | None = None,
        probe: str | None = None,
        fact: Fact | None = None,
        tellers: Sequence[tuple[str, datetime]] = (),
        plan_items: Sequence[PlanItem] = (),
        decisions: Sequence[Decided] = (),
    ) -> MemoryRecord:
        """Write one record (``last_accessed = created``) and index its embedded content.

        Returns:
            The new record, with the next id (0, 1, 2, ...).

        Raises:
            MemoryStreamError: naming the field, for importance outside 1-10 or not an int,
                empty content, or an embedding of the wrong dimension.
        """
        fields = dict(locals())  # exactly the keyword arguments above
        del fields["self"]
        (record,) = self.add_many([fields])
        return record

    def add_many(
        self, items: Sequence[Mapping[str, Any]], *, embeddings: np.ndarray | None = None
    ) -> list[MemoryRecord]:
        """Write several records at once (the bulk path for seeding and benchmarks).

        Args:
            items: keyword arguments of :meth:`add`, one mapping per record.
            embeddings: ``(n, d) float32`` unit rows to index instead of embedding the contents.

        Raises:
            MemoryStreamError: as :meth:`add`; nothing is written when any item is bad.
        """
        for item in items:
            check_importance(item.get("importance"))
            check_content(item.get("content"))
        if embeddings is None:
            vectors = self._embed([item["content"] for item in items])
        else:
            vectors = self._index.check(embeddings, len(items), "the given embeddings")
        records = []
        for offset, item in enumerate(items):
            fields = dict(item)
            fields["kind"] = parse_kind(fields["kind"])
            fields["evidence"] = tuple(fields.get("evidence", ()))
            records.append(
                MemoryRecord(
                    id=self._next_id + offset,
                    persona=self.persona,
                    last_accessed=fields["created"],
                    **fields,
                )
            )
        ids = np.array([r.id for r in records], dtype=np.int64)
        stamps = [to_seconds(r.created) for r in records]
        self._index.add(vectors, ids)
        self._columns.extend(ids, stamps, stamps, [r.importance for r in records],
                             [r.content for r in records])
        self._view = None
        self._records.update((r.id, r) for r in records)
        self._index_facts(records)
        self._next_id += len(records)
        return records

    def _index_facts(self, records: Sequence[MemoryRecord]) -> None:
        for r in records:
            if r.fact is not None and r.kind is not MemoryKind.REFLECTION:
                self._facts.setdefault(r.fact.key(), r.id)

    def holding(self, key: FactKey) -> MemoryRecord | None:
        """The record holding the fact whose :meth:`~town.memory.fact.Fact.key` is ``key``
        (the oldest, when several were written before facts were kept once), else None."""
        record_id = self._facts.get(key)
        return None if record_id is None else self._records[record_id]

    def retold(self, record_id: int, *, teller: str | None, now: datetime,
               importance: int | None = None) -> MemoryRecord:
        """Hearing a held fact again: add ``(teller, now)`` to its tellers, set its
        ``last_accessed`` to ``now`` and its importance to ``importance`` if that is higher.

        Returns:
            The replaced record (same id; no new record, no new vector).

        Raises:
            MemoryStreamError: for an unknown id or an importance outside 1-10.
        """
        old = self.get(record_id)
        rise = old.importance if importance is None else max(old.importance, importance)
        tellers = old.tellers if teller is None else (*old.tellers, (teller, now))
        new = old.with_fields(tellers=tellers, last_accessed=now, importance=rise)
        self._records[record_id] = new
        cols = self._columns
        (pos,) = np.flatnonzero(cols.ids == record_id)[:1]
        cols.touch(np.array([pos]), to_seconds(now))
        if rise != old.importance:
            cols.importance[pos] = rise
            self._view = None
        return new

    def remove(self, ids: Sequence[int]) -> None:
        """Delete records and their vectors; the other ids stay as they are.

        Raises:
            MemoryStreamError: naming an id that is not in the stream.
        """
        for record_id in ids:
            self.get(record_id)
        doomed = np.array(sorted(set(ids)), dtype=np.int64)
        self._index.remove(doomed)
        self._columns.keep(~np.isin(self._columns.ids, doomed))
        self._view = None
        for record_id in doomed:
            del self._records[int(record_id)]
        self._facts = {key: i for key, i in self._facts.items() if i in self._records}

    def get(self, record_id: int) -> MemoryRecord:
        """The record with this id.

        Raises:
            MemoryStreamError: when there is none.
        """
        try:
            return self._records[int(record_id)]
        except (KeyError, TypeError, ValueError):
            raise MemoryStreamError(
                f"id: no memory record {record_id!r} in {self.persona}'s stream"
            ) from None

    def records(self) -> list[MemoryRecord]:
        """All records, oldest id first."""
        return list(self._records.values())

    def last_records(self, n: int) -> list[MemoryRecord]:
        """The ``n`` most recently written records, oldest first."""
        return list(self._records.values())[-n:] if n > 0 else []

    def since(self, start: datetime) -> Iterator[MemoryRecord]:
        """The records created at or after ``start``, newest first (records are written in game-time
        order: this reads back from the newest as far as ``start``, at the cost of what it yields)."""
        for record in reversed(self._records.values()):
            if record.created < start:
                return
            yield record

    def vector(self, record_id: int) -> np.ndarray:
        """The record's ``(d,) float32`` embedding, read back from FAISS.

        Raises:
            MemoryStreamError: when there is no such record.
        """
        self.get(record_id)
        return self._index.vector(record_id)

    def access_log(self) -> list[dict[str, Any]]:
        """Every access change, in order: ``{"tick", "time", "ids"}`` per retrieval.

        Replaying it over the records' ``created`` rebuilds ``last_accessed`` at any tick.
        """
        return [
            {"tick": tick, "time": time if isinstance(time, str) else format_time(time), "ids": list(ids)}
            for tick, time, ids in self._access_log
        ]

    def index_ids(self) -> np.ndarray:
        """``(n,) int64`` record ids in the FAISS index's storage order."""
        return self._index.ids()

    def retrieve(
        self,
        query: str,
        *,
        now: datetime,
        k: int = 10,
        weights: Sequence[float] = (1.0, 1.0, 1.0),
        purpose: str,
        tick: int = 0,
        query_embedding: np.ndarray | None = None,
        one_per_fact: bool = False,
        among: Callable[[MemoryRecord], bool] | None = None,
    ) -> tuple[list[MemoryRecord], RetrievalTrace]:
        """Exact retrieval: score every record, return the top k (Park et al. 2023 §4.1).

        Args:
            query: the query text (embedded unless ``query_embedding`` is given).
            now: game datetime of the retrieval; the returned records get ``last_accessed = now``.
            k: records to return (>= 1).
            weights: (recency, importance, relevance), finite, >= 0, not all zero.
            purpose: why the mind retrieves; stored in the trace.
            tick: simulation tick; stored in the trace and the access log.
            query_embedding: a precomputed ``(d,) float32`` unit query vector.
            one_per_fact: return at most one record per fact (:meth:`Fact.key`): the best scored
                record of a fact stands for it, the others are skipped, so one fact held in
                several records (a told memory and a talk's summary of it) cannot fill the top k.
            among: only records for which this is true are returned (scored as usual, the
                parts normalised over every record).

        Returns:
            The top k records, best first, and the :class:`RetrievalTrace`.

        Raises:
            MemoryStreamError: for bad weights or k, or a query vector of the wrong dimension.
        """
        weights = check_weights(weights)
        k = check_k(k)
        if query_embedding is None:
            query_embedding = self._embed([query])[0]
        query_embedding = np.asarray(query_embedding, dtype=np.float32)
        relevance = self._index.relevance(query_embedding)
        cols = self._columns
        now_s = to_seconds(now)
        work = self._work_block()
        hours = work.hours
        np.subtract(now_s, cols.accessed, out=hours)
        hours /= 3600.0
        ranking = rank_block(work, relevance=relevance, keys=cols.ints[:2], weights=weights,
                             k=k if not one_per_fact and among is None else len(cols))
        if one_per_fact or among is not None:
            ranked = [self._records[i] for i in self._columns.ints[0, ranking.positions].tolist()]
            ranking = kept(ranking, ranked, k, one_per_fact=one_per_fact, among=among)
        pos, n_top = ranking.positions, ranking.n_top
        ids, importance = cols.ints[::2, pos].tolist()
        candidates = candidates_from(
            ranking, ids=ids, contents=cols.contents[pos].tolist(), importance=importance
        )
        records = self._records
        top_ids = ids[:n_top]
        cols.touch(pos[:n_top], now_s)
        top = [records[i].accessed(now) for i in top_ids]
        records.update(zip(top_ids, top))
        self._access_log.append((int(tick), now, top_ids))
        trace = RetrievalTrace.of(
            persona=self.persona,
            tick=int(tick),
            game_time=now,
            purpose=purpose,
            query=query,
            weights=weights,
            k=k,
            n_scored=len(relevance),
            query_embedding=query_embedding,
            candidates=candidates,
        )
        return top, trace

    def _work_block(self) -> WorkBlock:
        """The ``(BLOCK_ROWS, n)`` work block for :func:`rank_block`, its importance row filled."""
        if self._view is None:  # the first retrieval after a write
            cols = self._columns
            if self._block.shape[1] < len(cols):
                self._block = np.empty((BLOCK_ROWS, cols.capacity))
            self._view = WorkBlock(self._block, len(cols))
            self._view.importance_part[...] = normalise(cols.importance)
        return self._view
