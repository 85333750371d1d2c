"""A persona's memory stream as it was at any moment of a recorded run, rebuilt from the run file.

The memories table holds every record with its embedding, and the retrievals table every
access, so the stream just before any event is the records written before it with the access
time of the last earlier retrieval that returned each (docs/design, §1 and §4).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

import numpy as np

from town.recording.database import damaged, where_given
from town.recording.schema import parse_time, unpack_vector

__all__ = ["RecordedStream", "StreamHistory"]


@dataclass(frozen=True, kw_only=True, eq=False)
class RecordedStream:
    """A persona's memory stream as it was just before one event (for re-scoring).

    Attributes:
        persona: persona id.
        seq: the event the stream is taken just before.
        ids: ``(n,) int64`` record ids in creation order.
        created: ``n`` game datetimes of creation.
        last_accessed: ``n`` game datetimes of last access as of then (``created``, or the time of
            the last earlier retrieval that returned the record).
        importance: ``(n,) int64`` importance 1-10.
        contents: ``n`` sentences.
        embeddings: ``(n, d) float32`` L2-normalised record embeddings.
    """

    persona: str
    seq: int
    ids: np.ndarray
    created: list[datetime]
    last_accessed: list[datetime]
    importance: np.ndarray
    contents: list[str]
    embeddings: np.ndarray



class _Records(Mapping[int, dict[str, Any]]):
    """Record id -> record, made from its row when first looked up (:meth:`StreamHistory.records_as_of`)."""

    def __init__(self, rows: dict[int, tuple[int, int, str | bytes]],
                 make: Callable[[tuple[int, int, str | bytes]], dict[str, Any]]):
        self._rows, self._make = rows, make
        self._made: dict[int, dict[str, Any]] = {}

    def __getitem__(self, memory_id: int) -> dict[str, Any]:
        if memory_id not in self._made:
            self._made[memory_id] = self._make(self._rows[memory_id])
        return self._made[memory_id]

    def __iter__(self) -> Iterator[int]:
        return iter(self._rows)

    def __len__(self) -> int:
        return len(self._rows)


class StreamHistory(ABC):
    """A run's memory streams over time (a part of :class:`~town.recording.reader.RunReader`).

    Reads through the reader's ``_rows`` (SQL rows) and ``_decode`` (a stored JSON value).
    """

    path: Path  #: the run file (for messages)

    @abstractmethod
    def _rows(self, sql: str, params: Iterable[Any] = ()) -> list[tuple]: ...

    @abstractmethod
    def _decode(self, raw: str | bytes, what: str) -> Any: ...

    def _last_access(self, persona: str, before_seq: int | None) -> dict[int, str]:
        """Record id -> time of the last retrieval (seq < before_seq) that returned it."""
        sql = "SELECT seq, time, returned FROM retrievals WHERE persona = ?"
        params: list[Any] = [persona]
        if before_seq is not None:
            sql += " AND seq < ?"
            params.append(int(before_seq))
        accessed: dict[int, str] = {}
        for seq, time, returned in self._rows(sql + " ORDER BY seq", params):
            for memory_id in self._decode(returned, f"returned ids of retrieval {seq}"):
                accessed[memory_id] = time
        for memory_id, record in self._retold(persona, before_seq).items():
            accessed[memory_id] = max(accessed.get(memory_id, ""), record["last_accessed"])
        return accessed

    def _retold(self, persona: str, before_seq: int | None) -> dict[int, dict[str, Any]]:
        """Record id -> the record as last retold (a teller added: a RETOLD event, seq < before_seq)."""
        sql = "SELECT seq, data FROM events WHERE kind = 'retold' AND persona = ?"
        params: list[Any] = [persona]
        if before_seq is not None:
            sql += " AND seq < ?"
            params.append(int(before_seq))
        retold: dict[int, dict[str, Any]] = {}
        for seq, data in self._rows(sql + " ORDER BY seq", params):
            record = self._decode(data, f"data of event {seq}")
            retold[int(record["id"])] = record
        return retold

    def memories(self, persona: str, q: str | None = None, kind: str | None = None, limit: int | None = None,
                 as_of_seq: int | None = None) -> list[dict[str, Any]]:
        """A persona's memory records, newest first, with ``last_accessed`` as of ``as_of_seq``.

        Args:
            persona: persona id.
            q: only records whose content contains this text (case-insensitive).
            kind: only this MemoryKind value (e.g. ``"reflection"``).
            limit: at most this many.
            as_of_seq: the stream just before this event (None = the whole run).

        Returns:
            ``MemoryRecord.to_dict()`` dicts plus ``"seq"`` and ``"tick"`` of their event.
        """
        where = ["m.persona = ?"]
        params: list[Any] = [persona]
        if q:
            escaped = q.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
            where.append("m.content LIKE ? ESCAPE '\\'")
            params.append(f"%{escaped}%")
        where_given(where, params, (("m.kind = ?", kind), ("m.seq < ?", as_of_seq)))
        sql = (f"SELECT m.seq, m.tick, e.data FROM memories m JOIN events e USING (seq)"
               f" WHERE {' AND '.join(where)} ORDER BY m.id DESC")
        if limit is not None:
            sql += " LIMIT ?"
            params.append(int(limit))
        accessed, retold = self._last_access(persona, as_of_seq), self._retold(persona, as_of_seq)
        return [self._record(seq, tick, data, accessed, retold) for seq, tick, data in self._rows(sql, params)]

    def _record(self, seq: int, tick: int, data: str | bytes, accessed: dict[int, str],
                retold: Mapping[int, dict[str, Any]]) -> dict[str, Any]:
        """One memory record from its MEMORY event's data (or its latest RETOLD event's), with
        ``last_accessed`` from ``accessed``."""
        record = self._decode(data, f"data of event {seq}")
        record = dict(retold.get(record["id"], record))
        record["last_accessed"] = accessed.get(record["id"], record["last_accessed"])
        return {**record, "seq": seq, "tick": tick}

    def records_as_of(self, persona: str, seq: int) -> Mapping[int, dict[str, Any]]:
        """The records :meth:`memories` gives with ``as_of_seq=seq``, by id, each decoded when read.

        For a reader that looks up a few of many records (an interview reads its top k): the rows
        are fetched at once, the JSON of each only when its id is first looked up.
        """
        rows = self._rows("SELECT m.id, m.seq, m.tick, e.data FROM memories m JOIN events e USING (seq)"
                          " WHERE m.persona = ? AND m.seq < ?", (persona, int(seq)))
        accessed, retold = self._last_access(persona, seq), self._retold(persona, seq)
        return _Records({i: (s, t, d) for i, s, t, d in rows},
                        lambda row: self._record(*row, accessed, retold))

    def stream_as_of(self, persona: str, seq: int) -> RecordedStream:
        """The persona's memory stream just before event ``seq`` (for re-scoring a retrieval).

        ``last_accessed`` of a record is the time of the last retrieval with a smaller seq that
        returned it, else its ``created`` (docs/design, §1: the returned records' access time is set
        to the retrieval's time).

        Returns:
            A :class:`RecordedStream` of the records written before ``seq``, in id order.
        """
        rows = self._rows(
            "SELECT m.id, m.created, m.importance, m.content, v.vector FROM memories m"
            " JOIN vectors v ON v.id = m.vector WHERE m.persona = ? AND m.seq < ? ORDER BY m.id",
            (persona, int(seq)),
        )
        accessed, retold = self._last_access(persona, seq), self._retold(persona, seq)
        ids = np.array([r[0] for r in rows], dtype=np.int64)
        created = [parse_time(r[1]) for r in rows]
        last = [parse_time(accessed[i]) if i in accessed else c
                for i, c in zip(ids.tolist(), created)]
        embeddings = (np.stack([unpack_vector(r[4]) for r in rows]) if rows
                      else np.empty((0, 0), dtype=np.float32))
        return RecordedStream(
            persona=persona,
            seq=int(seq),
            ids=ids,
            created=created,
            last_accessed=last,
            importance=np.array([retold[r[0]]["importance"] if r[0] in retold else r[2] for r in rows],
                                dtype=np.int64),
            contents=[r[3] for r in rows],
            embeddings=embeddings,
        )

    def stream_records(self, persona: str, seq: int) -> list[dict[str, Any]]:
        """The persona's memory records just before event ``seq``, oldest id first, as
        ``MemoryRecord.to_dict()`` (``last_accessed`` as of then): a snapshot's stream has
        only its counters, and resume and fork take its records from here."""
        accessed, retold = self._last_access(persona, seq), self._retold(persona, seq)
        rows = self._rows("SELECT m.seq, m.tick, e.data FROM memories m LEFT JOIN events e USING (seq)"
                          " WHERE m.persona = ? AND m.seq < ? ORDER BY m.id", (persona, int(seq)))
        records = []
        for memory_seq, tick, data in rows:
            if data is None:  # a damaged events page can hide rows rather than raise
                raise damaged(self.path, f"memory event {memory_seq} is missing from the events table")
            record = self._record(memory_seq, tick, data, accessed, retold)
            del record["seq"], record["tick"]
            records.append(record)
        return records

    def contents(self, persona: str, ids: list[int]) -> dict[int, tuple[str, int]]:
        """Record id -> (content, importance) of some of a persona's records (a trace's candidates)."""
        rows = self._rows(f"SELECT id, content, importance FROM memories WHERE persona = ? AND id IN"
                          f" ({','.join('?' * len(ids))})", (persona, *ids))
        return {i: (content, importance) for i, content, importance in rows}
