"""RunWriter: the event-bus subscriber that records a run into its SQLite file (docs/design, §4).

Subscribe it to the simulation's bus (``bus.subscribe(writer.handle)``). The events of a tick
are held in memory and written and committed together when the tick's FRAME event (published
last in every tick) arrives, so a killed process leaves a file that replays up to its last whole
tick. A STATUS event is written and committed at once, from whatever thread publishes it, so the
file tells a stalled or rate-limited run while its tick is still waiting.

A write that fails (e.g. SQLite's "database or disk is full") rolls back the tick, closes the
file and raises one :class:`~town.errors.RecordingError` saying which tick the file still holds;
the writer then drops further events (``broken``).
"""

from __future__ import annotations

import json
import sqlite3
import threading
from datetime import datetime
from pathlib import Path
from typing import Any

from town.errors import RecordingError
from town.events import VECTOR_KEYS, Event, EventKind
from town.recording.database import create_run, decode, failure, open_run
from town.recording.frames import FrameLog
from town.recording.lock import WriterLock
from town.recording.schema import digest_of, format_time, pack_json, pack_vector
from town.recording.snapshots import PartLog, split
from town.recording.traces import pack_candidates

__all__ = ["RunWriter", "retrieval_summary"]


def retrieval_summary(trace: dict[str, Any]) -> dict[str, Any]:
    """The events-table form of a retrieval trace: everything but candidates and vectors.

    Adds ``"returned"``: the ids of the top k (candidates with ``in_top_k``), best first.
    """
    summary = {k: v for k, v in trace.items() if k != "candidates" and k not in VECTOR_KEYS}
    summary["returned"] = [c["id"] for c in trace.get("candidates", ()) if c["in_top_k"]]
    return summary


class RunWriter:
    """Writes one run file as the run goes.

    Args:
        path: the ``.sqlite`` file to create.
        meta: JSON-able run description (scenario, town, personas, seed, backend, config,
            versions, start); stored key by key in the ``meta`` table.
        overwrite: replace an existing file at ``path`` (default: refuse).

    Raises:
        RecordingError: when ``path`` exists and ``overwrite`` is false, or it cannot be created.
    """

    def __init__(self, path: str | Path, meta: dict[str, Any], *, overwrite: bool = False):
        self.path = Path(path)
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise RecordingError(f"cannot create run file {self.path}: {exc.strerror}") from None
        self._writer_lock = WriterLock(self.path)
        try:
            if self.path.exists():
                if not overwrite:
                    raise RecordingError(
                        f"run file {self.path} already exists; pick another name, resume it, or "
                        "pass overwrite"
                    )
                for suffix in ("", "-wal", "-shm"):
                    Path(f"{self.path}{suffix}").unlink(missing_ok=True)
            self._conn = create_run(self.path)
        except RecordingError:
            self._writer_lock.release()
            raise
        self._init_state()
        meta = {**meta, "created": datetime.now().isoformat(timespec="seconds"), "finished": False,
                "closed": False}
        try:
            self._set_meta(meta)
        except sqlite3.Error as exc:  # e.g. the disk is full: leave nothing behind
            self._conn.close()
            for suffix in ("", "-wal", "-shm"):
                Path(f"{self.path}{suffix}").unlink(missing_ok=True)
            self._writer_lock.release()
            raise RecordingError(f"cannot create run file {self.path}: {exc}") from None

    def _init_state(self, conn_state: bool = False) -> None:
        """Fresh bookkeeping; ``conn_state``: read what the file holds already (append)."""
        self._lock = threading.Lock()
        self._closed = False
        self._broken: str | None = None
        self._pending: list[Event] = []
        self._last_tick: int | None = None
        self._frames = FrameLog()  # the last frame written: the next is stored as the change from it
        self._vector_ids: dict[bytes, int] = {}  # digest -> vectors.id of what this writer stored
        self._parts = PartLog(self._conn if conn_state else None)
        if conn_state:
            self._load_last_frame()

    def _load_last_frame(self) -> None:
        """Take the run's last frames (from their keyframe on) from the file, to write on after them."""
        row = self._conn.execute("SELECT tick, base FROM frames ORDER BY tick DESC LIMIT 1").fetchone()
        if row is None:
            return
        rows = self._conn.execute("SELECT tick, base, data FROM frames WHERE tick BETWEEN ? AND ? ORDER BY tick",
                                  (row[1], row[0])).fetchall()
        try:
            self._frames.load(rows, lambda raw, what: decode(self.path, raw, what))
        except ValueError as exc:
            raise RecordingError(f"{self.path} is not a town run file (or is damaged): {exc}") from None
        self._last_tick = row[0]

    @classmethod
    def append(cls, path: str | Path) -> RunWriter:
        """Reopen an existing run to write on (after resume or fork); marks it unfinished and open.

        Raises:
            RecordingError: when the file is missing, damaged or of another schema version.
        """
        writer = cls.__new__(cls)
        writer.path = Path(path)
        writer._writer_lock = WriterLock(writer.path)
        try:
            writer._conn = open_run(writer.path)
        except RecordingError:
            writer._writer_lock.release()
            raise
        try:
            writer._init_state(conn_state=True)
            writer._set_meta({"finished": False, "closed": False})
        except (sqlite3.Error, RecordingError) as exc:
            writer._conn.close()
            writer._writer_lock.release()
            if isinstance(exc, RecordingError):
                raise
            raise failure(writer.path, exc, "write") from None
        return writer

    @property
    def broken(self) -> str | None:
        """Why the file could not be written (then the writer is closed), or None."""
        return self._broken

    def _fail(self, exc: sqlite3.Error) -> RecordingError:
        """Roll back what the tick wrote, close the file and say what it still holds."""
        self._pending.clear()
        try:
            self._conn.rollback()
        except sqlite3.Error:
            pass
        self._conn.close()
        self._writer_lock.release()
        self._closed = True
        held = ("no tick yet" if self._last_tick is None
                else f"ticks up to {self._last_tick}, the last one committed")
        self._broken = (f"cannot write run file {self.path}: {exc}; it holds {held} "
                        "(replay it, or resume it once there is room)")
        return RecordingError(self._broken)

    def discard_tick(self) -> None:
        """Drop the events of the tick in progress (it failed or was interrupted)."""
        with self._lock:
            self._pending.clear()

    def _set_meta(self, meta: dict[str, Any]) -> None:
        with self._conn:
            self._conn.executemany(
                "INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)",
                [(key, json.dumps(value)) for key, value in meta.items()],
            )

    def set_meta(self, **values: Any) -> None:
        """Add or replace meta keys (JSON-able values), committed at once."""
        with self._lock:
            self._set_meta(values)

    def handle(self, event: Event) -> None:
        """Record one event; a FRAME event commits its tick.

        Raises:
            RecordingError: when the writer is closed or the file cannot be written.
        """
        with self._lock:
            if self._broken is not None:
                return  # the failure was raised once; nothing more can be written
            if self._closed:
                raise RecordingError(
                    f"run file {self.path} is closed; cannot record {event.kind.value}"
                )
            if event.kind not in (EventKind.FRAME, EventKind.STATUS):
                self._pending.append(event)
                return
            try:
                if event.kind is EventKind.FRAME:
                    self._write_pending()
                self._write(event)
                self._conn.commit()
            except sqlite3.Error as exc:
                raise self._fail(exc) from None
            if event.kind is EventKind.FRAME:
                self._last_tick = event.tick

    def _write_pending(self) -> None:
        pending, self._pending = self._pending, []
        for event in pending:
            self._write(event)

    def _write(self, event: Event) -> None:
        time = format_time(event.time)
        if event.kind is EventKind.FRAME:
            self._write_frame(event, time)
            return
        data = {k: v for k, v in event.data.items() if k not in VECTOR_KEYS}
        if event.kind is EventKind.RETRIEVAL:
            summary = retrieval_summary(data)
            self._write_retrieval(event, time, data, summary["returned"])
            data = summary
        elif event.kind is EventKind.MEMORY:
            self._conn.execute(
                "INSERT INTO memories (persona, id, seq, tick, created, kind, importance, content,"
                " probe, vector) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (data["persona"], data["id"], event.seq, event.tick, data["created"], data["kind"],
                 data["importance"], data["content"], data.get("probe"),
                 self._vector_id(event.data["embedding"])),
            )
        self._conn.execute(
            "INSERT INTO events (seq, tick, time, kind, persona, data) VALUES (?, ?, ?, ?, ?, ?)",
            (event.seq, event.tick, time, event.kind.value, event.persona,
             json.dumps(data, separators=(",", ":"))),
        )

    def _write_frame(self, event: Event, time: str) -> None:
        """A keyframe, or the change from the frame before (``town.recording.frames.FrameLog``)."""
        base, blob = self._frames.row(event.tick, event.data)
        self._conn.execute(
            "INSERT OR REPLACE INTO frames (tick, time, seq, base, data) VALUES (?, ?, ?, ?, ?)",
            (event.tick, time, event.seq, base, blob),
        )

    def _vector_id(self, vector: Any) -> int:
        """The ``vectors`` id of an embedding, stored now if the file does not hold it yet."""
        blob = pack_vector(vector)
        digest = digest_of(blob)
        known = self._vector_ids.get(digest)
        if known is None:
            self._conn.execute("INSERT OR IGNORE INTO vectors (digest, vector) VALUES (?, ?)", (digest, blob))
            (known,) = self._conn.execute("SELECT id FROM vectors WHERE digest = ?", (digest,)).fetchone()
            self._vector_ids[digest] = known
        return known

    def _write_retrieval(
        self, event: Event, time: str, trace: dict[str, Any], returned: list[int]
    ) -> None:
        self._conn.execute(
            "INSERT INTO retrievals (seq, persona, tick, time, purpose, query, returned,"
            " candidates, vector) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (event.seq, trace["persona"], event.tick, time, trace["purpose"], trace["query"],
             json.dumps(returned), pack_candidates(trace["candidates"]),
             self._vector_id(event.data["query_embedding"])),
        )

    def snapshot(self, tick: int, time: datetime, seq: int, state: dict[str, Any]) -> None:
        """Store the simulation state after tick ``tick``, incrementally, and commit.

        The head of the state is written every time; each part (a persona, the world, the town
        library: ``town.recording.snapshots``) only when it differs from the part as last
        stored.

        Args:
            tick: the last tick the state includes.
            time: game datetime of that tick.
            seq: the last event seq the state includes (the bus's ``seq``).
            state: JSON-able ``Simulation.get_state()``.

        Raises:
            RecordingError: when the writer is closed or the file cannot be written.
        """
        with self._lock:
            if self._broken is not None:
                raise RecordingError(self._broken)
            if self._closed:
                raise RecordingError(f"run file {self.path} is closed; cannot snapshot tick {tick}")
            head, parts = split(state)
            try:
                with self._conn:
                    self._write_pending()
                    self._conn.executemany(
                        "INSERT OR REPLACE INTO snapshot_parts (part, tick, state) VALUES (?, ?, ?)",
                        [(part, tick, blob) for part, blob in self._parts.changed(parts)])
                    self._conn.execute(
                        "INSERT OR REPLACE INTO snapshots (tick, time, seq, state)"
                        " VALUES (?, ?, ?, ?)",
                        (tick, format_time(time), seq, pack_json(head)),
                    )
            except sqlite3.Error as exc:
                raise self._fail(exc) from None

    def close(self, *, finished: bool = True) -> None:
        """Write what is pending, mark the run ``finished`` and ``closed`` in meta, and close the file.

        Meta ``closed`` is true when the newest snapshot holds the last recorded tick (a clean
        end or stop: resume loses nothing); false when ticks were recorded after it (an
        interrupted tick, a failure), which resume cuts back.

        Idempotent; after a write failure (``broken``) it does nothing.

        Raises:
            RecordingError: when the file cannot be written (the writer is closed anyway).
        """
        with self._lock:
            if self._closed:
                return
            try:
                with self._conn:
                    self._write_pending()
                self._set_meta({"finished": finished, "closed": self._snapshot_is_last()})
                self._conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            except sqlite3.Error as exc:
                raise self._fail(exc) from None
            self._conn.close()
            self._writer_lock.release()
            self._closed = True

    def _snapshot_is_last(self) -> bool:
        """Whether the newest snapshot is at or after the last frame (-1: before any tick)."""
        (frame,), = self._conn.execute("SELECT MAX(tick) FROM frames").fetchall()
        (snap,), = self._conn.execute("SELECT MAX(tick) FROM snapshots").fetchall()
        return snap is not None and snap >= (-1 if frame is None else frame)

    def __enter__(self) -> RunWriter:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
