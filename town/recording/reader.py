"""RunReader: replay, seek and inspect a recorded run (docs/design, §4).

Reads only the run file (no model, no network). It can read a run while its
:class:`~town.recording.writer.RunWriter` is still writing it: each call is its own WAL read
transaction and sees every tick committed so far.
"""

from __future__ import annotations

import reprlib
import sqlite3
import threading
import zlib
from collections import Counter
from collections.abc import Iterable
from datetime import datetime
from pathlib import Path
from typing import Any

from town.errors import RecordingError
from town.events import Event, EventKind
from town.recording.database import damaged, decode, failure, open_run, where_given
from town.recording.frames import FrameHistory
from town.recording.schema import parse_time, unpack_vector
from town.recording.snapshots import read_state
from town.recording.streams import StreamHistory
from town.recording.traces import unpack_candidates

__all__ = ["RunReader"]


def _dicts(value: Any) -> bool:
    return isinstance(value, dict) and all(isinstance(v, dict) for v in value.values())


def _time(value: Any) -> bool:
    try:
        datetime.fromisoformat(value)
    except (TypeError, ValueError):
        return False
    return True


#: What the meta values every command reads must be (a value edited by hand, or a file of another
#: program that looks like a run, was a TypeError, KeyError or ZeroDivisionError traceback):
#: key -> (test, what it must be).
_META_KINDS: dict[str, tuple[Any, str]] = {
    "scenario": (lambda v: isinstance(v, str) and v != "", "a town folder's path"),
    "ablate": (lambda v: isinstance(v, str), "text"),
    "config": (lambda v: isinstance(v, dict), "a JSON object"),
    "personas": (lambda v: bool(v) and (_dicts(v) or isinstance(v, list) and all(
        isinstance(p, str) or isinstance(p, dict) and "id" in p for p in v)),
        "persona objects by id (or a list of ids)"),
    "start": (_time, "a game time like '2023-02-13 07:00:00'"),
    "persona_files": (_dicts, "an object of persona file objects"),
    "seconds_per_tick": (lambda v: type(v) is int and 1 <= v <= 3600, "a whole number of game seconds, 1-3600"),
}


class RunReader(StreamHistory, FrameHistory):
    """Read access to one run file.

    Args:
        path: the run's ``.sqlite`` file (also on read-only storage: the reader never writes).

    Raises:
        RecordingError: "run file not found: PATH"; "PATH is not a town run file (or is
            damaged): ..." (also for a meta value that is not JSON, naming its key); or an
            unknown ``schema_version`` (naming both versions).
    """

    def __init__(self, path: str | Path):
        self.path = Path(path)
        self._conn = open_run(self.path, read_only=True)
        self._lock = threading.Lock()
        try:
            self.meta  # noqa: B018 - checks every meta value once, so later reads cannot fail
        except RecordingError:
            self._conn.close()
            raise

    def close(self) -> None:
        """Close the file."""
        with self._lock:
            self._conn.close()

    def __enter__(self) -> RunReader:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _rows(self, sql: str, params: Iterable[Any] = ()) -> list[tuple]:
        with self._lock:
            try:
                return self._conn.execute(sql, tuple(params)).fetchall()
            except sqlite3.DatabaseError as exc:
                raise failure(self.path, exc) from None

    def _decode(self, raw: str | bytes, what: str) -> Any:
        return decode(self.path, raw, what)

    # -- meta and overview ---------------------------------------------------------------

    @property
    def meta(self) -> dict[str, Any]:
        """The run's meta table as a dict (scenario, town, personas, seed, backend, ...).

        Raises:
            RecordingError: naming the file and the key of a value that is not JSON, or not what
                that key holds (:data:`_META_KINDS`).
        """
        meta = {key: self._decode(value, f"meta {key!r}")
                for key, value in self._rows("SELECT key, value FROM meta")}
        for key, (fits, what) in _META_KINDS.items():
            if key in meta and not fits(meta[key]):
                raise damaged(self.path, f"meta {key!r} must be {what}, got {reprlib.repr(meta[key])}")
        return meta

    def personas(self) -> list[str]:
        """Persona ids of the run (from meta ``personas``, else from the last frame)."""
        listed = self.meta.get("personas")
        if isinstance(listed, dict):
            return list(listed)
        if isinstance(listed, list):
            return [p["id"] if isinstance(p, dict) else str(p) for p in listed]
        last = self.last_tick
        return [] if last is None else list(self.frame(last)["personas"])

    def summary(self) -> dict[str, Any]:
        """A runs-page row: name, town, personas, game-time span, ticks, size on disk, backend.

        ``ablate`` names the parts switched off ("" for the full architecture). ``finished``:
        the run reached its end; ``closed``: its file was closed with a snapshot of its last
        tick (a finished run, or one stopped cleanly; runs older than the key count as closed
        only when finished).

        Times are ``"YYYY-MM-DD HH:MM:SS"`` game time; ``size_bytes`` counts the WAL file too.
        """
        meta = self.meta
        (first, last, count), = self._rows("SELECT MIN(tick), MAX(tick), COUNT(*) FROM frames")
        times = self._rows(
            "SELECT (SELECT time FROM frames ORDER BY tick LIMIT 1),"
            " (SELECT time FROM frames ORDER BY tick DESC LIMIT 1)"
        )[0]
        size = sum(
            Path(f"{self.path}{s}").stat().st_size
            for s in ("", "-wal")
            if Path(f"{self.path}{s}").exists()
        )
        return {
            "name": self.path.stem,
            "town": meta.get("town", meta.get("scenario")),
            "scenario": meta.get("scenario"),
            "personas": self.personas(),
            "backend": meta.get("backend"),
            "seed": meta.get("seed"),
            "ablate": meta.get("ablate") or (meta.get("config") or {}).get("ablate") or "",
            "start": times[0],
            "end": times[1],
            "first_tick": first,
            "last_tick": last,
            "ticks": count,
            "size_bytes": size,
            "finished": bool(meta.get("finished")),
            "closed": bool(meta.get("finished") or meta.get("closed")),
            "created": meta.get("created"),
            "parent": ({k: v for k, v in meta["parent"].items() if k in ("run", "tick", "seq", "time")}
                       if isinstance(meta.get("parent"), dict) else None),
            "made_with": self.made_with(),
        }

    def made_with(self) -> dict[str, Any]:
        """What the run was made with, as data: ``{"backend", "model", "base_url", "embedder"}`` (its meta
        ``config``'s; None for what it leaves out). A run file is data: none of it is ever used to connect."""
        recorded = self.meta.get("config")
        backend = recorded.get("backend") if isinstance(recorded, dict) else None
        backend = backend if isinstance(backend, dict) else {}
        return {"backend": str(backend.get("name") or self.meta.get("backend") or "scripted"),
                "model": backend.get("model"), "base_url": backend.get("base_url"),
                "embedder": str(self.meta.get("embedder", "minilm"))}

    # -- frames --------------------------------------------------------------------------

    # -- events --------------------------------------------------------------------------

    def events(
        self,
        kinds: Iterable[EventKind | str] | None = None,
        persona: str | None = None,
        since_tick: int | None = None,
        until_tick: int | None = None,
        limit: int | None = None,
        after_seq: int | None = None,
        *,
        newest_first: bool = False,
    ) -> list[Event]:
        """Recorded events (not frames: see :meth:`frame`), in seq order.

        Args:
            kinds: only these kinds (EventKind or its value); None = all.
            persona: only events of this persona.
            since_tick: only events at or after this tick.
            until_tick: only events at or before this tick.
            limit: at most this many.
            after_seq: only events with seq > this (for paging / following a live run).
            newest_first: return the latest events first.

        Returns:
            Events; a retrieval's ``data`` is its summary (no candidates; see :meth:`retrieval`).
        """
        where: list[str] = []
        params: list[Any] = []
        if kinds is not None:
            values = [EventKind(k).value for k in kinds]
            where.append(f"kind IN ({','.join('?' * len(values))})")
            params += values
        where_given(where, params, (("persona = ?", persona), ("tick >= ?", since_tick),
                                    ("tick <= ?", until_tick), ("seq > ?", after_seq)))
        sql = "SELECT seq, tick, time, kind, persona, data FROM events"
        if where:
            sql += " WHERE " + " AND ".join(where)
        sql += " ORDER BY seq" + (" DESC" if newest_first else "")
        if limit is not None:
            sql += " LIMIT ?"
            params.append(int(limit))
        return [self._event(row) for row in self._rows(sql, params)]

    def event_counts(self, kinds: Iterable[EventKind | str]) -> Counter[tuple[str | None, str]]:
        """How many events of each (persona, kind value) there are, counted by SQLite (no decoding).

        A summary of a 250-persona run reads millions of events; decoding each persona's would
        take minutes where a GROUP BY over the (kind, persona) index takes a second.
        """
        values = [EventKind(k).value for k in kinds]
        rows = self._rows(f"SELECT persona, kind, COUNT(*) FROM events WHERE kind IN "
                          f"({','.join('?' * len(values))}) GROUP BY persona, kind", values)
        return Counter({(persona, kind): n for persona, kind, n in rows})

    def _event(self, row: tuple) -> Event:
        """An events row as an :class:`Event`, every event read goes through here.

        Raises:
            RecordingError: naming the file and the event's seq when a column is damaged (an
                unknown kind such as 'me7ory', a time that is no time, data that is no JSON).
        """
        seq, tick, time, kind, persona, data = row
        try:
            return Event(kind=EventKind(kind), tick=int(tick), time=parse_time(time),
                         persona=None if persona is None else str(persona),
                         data=self._decode(data, f"data of event {seq}"), seq=seq)
        except (ValueError, TypeError) as exc:  # RecordingError (of _decode) is no ValueError
            raise damaged(self.path, f"event {seq}: {exc}") from None

    def event(self, seq: int) -> Event:
        """One event by seq; a retrieval comes with its full trace (as :meth:`retrieval`).

        Raises:
            RecordingError: when no (non-frame) event has that seq.
        """
        rows = self._rows(
            "SELECT seq, tick, time, kind, persona, data FROM events WHERE seq = ?", (int(seq),)
        )
        if not rows:
            raise RecordingError(f"{self.path}: no event with seq {seq}")
        event = self._event(rows[0])
        if event.kind is EventKind.RETRIEVAL:
            event = Event(kind=event.kind, tick=event.tick, time=event.time,
                          persona=event.persona, data=self.retrieval(seq), seq=event.seq)
        return event

    # -- retrievals ----------------------------------------------------------------------

    def retrieval(self, seq: int) -> dict[str, Any]:
        """The full trace of the retrieval event ``seq``.

        Returns:
            ``RetrievalTrace.to_dict()`` plus ``"seq"``, ``"returned"`` (top-k ids, best first)
            and ``"query_embedding"`` (``(d,) float32``).

        Raises:
            RecordingError: when ``seq`` is not a recorded retrieval.
        """
        rows = self._rows(
            "SELECT e.data, r.candidates, v.vector FROM retrievals r JOIN events e USING (seq)"
            " JOIN vectors v ON v.id = r.vector WHERE r.seq = ?",
            (int(seq),),
        )
        if not rows:
            raise RecordingError(f"{self.path}: event {seq} is not a recorded retrieval")
        data, candidates, vector = rows[0]
        trace = self._decode(data, f"data of event {seq}")
        trace["seq"] = int(seq)
        try:
            trace["candidates"] = unpack_candidates(candidates, weights=trace["weights"], k=trace["k"],
                                                    memories=lambda ids: self.contents(trace["persona"], ids))
        except (zlib.error, ValueError, KeyError, TypeError) as exc:
            raise damaged(self.path, f"candidates of retrieval {seq}: {exc!r}") from None
        trace["query_embedding"] = unpack_vector(vector)
        return trace

    def retrievals(
        self,
        persona: str,
        purpose: str | None = None,
        since_tick: int | None = None,
        until_tick: int | None = None,
        limit: int | None = 100,
        *,
        newest_first: bool = True,
    ) -> list[dict[str, Any]]:
        """Summaries of a persona's retrievals (trace without candidates, plus ``seq``).

        Args:
            persona: persona id.
            purpose: only this purpose (e.g. ``"react"``).
            since_tick: only retrievals at or after this tick.
            until_tick: only retrievals at or before this tick.
            limit: at most this many (None = all).
            newest_first: latest first (default) or in seq order.
        """
        where = ["r.persona = ?"]
        params: list[Any] = [persona]
        where_given(where, params, (("r.purpose = ?", purpose), ("r.tick >= ?", since_tick),
                                    ("r.tick <= ?", until_tick)))
        sql = (f"SELECT r.seq, e.data FROM retrievals r JOIN events e USING (seq)"
               f" WHERE {' AND '.join(where)} ORDER BY r.seq {'DESC' if newest_first else 'ASC'}")
        if limit is not None:
            sql += " LIMIT ?"
            params.append(int(limit))
        return [{"seq": seq, **self._decode(data, f"data of event {seq}")}
                for seq, data in self._rows(sql, params)]

    # -- snapshots -----------------------------------------------------------------------

    def snapshots(self) -> list[tuple[int, str, int]]:
        """``(tick, game time, seq)`` of every snapshot, in tick order."""
        return [tuple(r) for r in self._rows("SELECT tick, time, seq FROM snapshots ORDER BY tick")]

    def snapshot_at_or_before(self, tick: int) -> tuple[int, int, dict[str, Any]] | None:
        """The newest snapshot at or before ``tick`` as ``(tick, seq, state)``, or None.

        Raises:
            RecordingError: naming the file and the snapshot's tick when its state is damaged.
        """
        rows = self._rows(
            "SELECT tick, seq, state FROM snapshots WHERE tick <= ? ORDER BY tick DESC LIMIT 1",
            (int(tick),),
        )
        if not rows:
            return None
        snap_tick, seq, head = rows[0]
        try:
            return snap_tick, seq, read_state(self._rows, snap_tick, head, self._decode)
        except KeyError as exc:
            raise damaged(self.path, exc.args[0]) from None
