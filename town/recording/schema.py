"""The SQLite schema of a run file (docs/design, §4) and the codecs for its columns.

One run is one SQLite file in WAL mode, written a tick per transaction by
:class:`~town.recording.writer.RunWriter` and read by :class:`~town.recording.reader.RunReader`.

Tables (``SCHEMA_VERSION`` 4; 4 added the memories' typed fields: ``fact``, ``tellers``,
``plan_items`` in their MEMORY events; a plan memory's ``decisions`` are there too when it has
any, so files without them read as before):

- ``meta(key, value)``: JSON values (scenario, town, personas, seed, backend, config, versions,
  start, created, finished, closed, parent, schema_version). ``finished``: the run reached the
  end it was asked for; ``closed``: the file was closed with a snapshot of its last tick (a
  clean end, or a clean stop such as Ctrl-C on ``serve``); neither: still being written, or
  stopped inside a tick (resume cuts back to the newest snapshot).
- ``frames(tick, time, seq, base, data)``: one row per tick. A keyframe (``base`` = its own
  tick) holds the whole FRAME data, every other row the change from the tick before; the frame
  of a tick is its keyframe and the changes after it (:mod:`town.recording.frames` says when a
  keyframe starts). ``data`` is zlib JSON.
- ``events(seq, tick, time, kind, persona, data)``: every other event, ``data`` JSON without
  vectors. A retrieval's row holds its summary (no candidates); the full trace is in
  ``retrievals``.
- ``vectors(id, digest, vector)``: every distinct embedding once, a ``(d,) float32`` blob keyed
  by its BLAKE2b digest. Memories and queries refer to it: a sighting many personas remember,
  or a query asked every tick, is stored once.
- ``memories(persona, id, seq, tick, created, kind, importance, content, probe, vector)``: one
  row per MEMORY event and its embedding's ``vectors`` id, for fast stream reconstruction;
  ``probe`` names the evaluation probe a seeded memory seeds (NULL for almost all rows).
- ``retrievals(seq, persona, tick, time, purpose, query, returned, candidates, vector)``: the
  ids the retrieval returned (its ``last_accessed`` changes), the zlib-compressed candidate
  list, and the query embedding's ``vectors`` id.
- ``snapshots(tick, time, seq, state)`` and ``snapshot_parts(part, tick, state)``: the
  simulation's state every ``recording.snapshot_every_hours``, written incrementally. A
  snapshot's row holds the clock, conversations and counters; each persona's state, the world
  and the town library are parts (``persona:<id>``, ``world``, ``town_procedures``), written
  only when they differ from the part as last written, so the state at a snapshot is its row
  and, for each part, the newest version at or before its tick. Memory records, embeddings and
  accesses are not in snapshots: the tables above hold them (:mod:`town.recording.snapshots`).
"""

from __future__ import annotations

import hashlib
import json
import zlib
from datetime import datetime
from functools import lru_cache
from typing import Any

import numpy as np

__all__ = [
    "SCHEMA_VERSION",
    "TABLES",
    "DDL",
    "TIME_FORMAT",
    "digest_of",
    "format_time",
    "parse_time",
    "pack_json",
    "unpack_json",
    "pack_vector",
    "unpack_vector",
    "digest_of",
]

#: Version of the layout below; a reader refuses any other.
SCHEMA_VERSION = 4

#: Game datetimes are stored as text in this format (sorts as time).
TIME_FORMAT = "%Y-%m-%d %H:%M:%S"

TABLES = ("meta", "frames", "events", "vectors", "memories", "retrievals", "snapshots", "snapshot_parts")

DDL = """
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE frames (
    tick INTEGER PRIMARY KEY, time TEXT NOT NULL, seq INTEGER NOT NULL, base INTEGER NOT NULL,
    data BLOB NOT NULL);
CREATE TABLE events (
    seq INTEGER PRIMARY KEY, tick INTEGER NOT NULL, time TEXT NOT NULL, kind TEXT NOT NULL,
    persona TEXT, data TEXT NOT NULL);
CREATE INDEX events_kind_persona_tick ON events (kind, persona, tick);
CREATE INDEX events_persona_tick ON events (persona, tick);
CREATE INDEX events_tick ON events (tick);
CREATE TABLE vectors (id INTEGER PRIMARY KEY, digest BLOB NOT NULL UNIQUE, vector BLOB NOT NULL);
CREATE TABLE memories (
    persona TEXT NOT NULL, id INTEGER NOT NULL, seq INTEGER NOT NULL, tick INTEGER NOT NULL,
    created TEXT NOT NULL, kind TEXT NOT NULL, importance INTEGER NOT NULL,
    content TEXT NOT NULL, probe TEXT, vector INTEGER NOT NULL REFERENCES vectors (id));
CREATE UNIQUE INDEX memories_persona_id ON memories (persona, id);
CREATE INDEX memories_seq ON memories (seq);
CREATE TABLE retrievals (
    seq INTEGER PRIMARY KEY, persona TEXT NOT NULL, tick INTEGER NOT NULL, time TEXT NOT NULL,
    purpose TEXT NOT NULL, query TEXT NOT NULL, returned TEXT NOT NULL,
    candidates BLOB NOT NULL, vector INTEGER NOT NULL REFERENCES vectors (id));
CREATE INDEX retrievals_persona_seq ON retrievals (persona, seq);
CREATE TABLE snapshots (
    tick INTEGER PRIMARY KEY, time TEXT NOT NULL, seq INTEGER NOT NULL, state BLOB NOT NULL);
CREATE TABLE snapshot_parts (
    part TEXT NOT NULL, tick INTEGER NOT NULL, state BLOB NOT NULL, PRIMARY KEY (part, tick));
CREATE INDEX snapshot_parts_tick ON snapshot_parts (tick);
"""


def format_time(value: datetime) -> str:
    """Game datetime -> ``"YYYY-MM-DD HH:MM:SS"`` (the stored form)."""
    return value.strftime(TIME_FORMAT)


@lru_cache(maxsize=65536)
def parse_time(text: str) -> datetime:
    """Inverse of :func:`format_time`.

    Remembers recent texts: a run's events and memories share a few times per tick, and
    ``strptime`` was most of the cost of reading a long run's memories.
    """
    return datetime.strptime(text, TIME_FORMAT)


def pack_json(value: Any) -> bytes:
    """JSON-able value -> zlib-compressed UTF-8 JSON."""
    return zlib.compress(json.dumps(value, separators=(",", ":")).encode(), 6)


def unpack_json(blob: bytes) -> Any:
    """Inverse of :func:`pack_json`.

    Raises:
        zlib.error, ValueError: when the blob is damaged (the reader turns these into
            RecordingError).
    """
    return json.loads(zlib.decompress(blob).decode())  # str: json need not detect the encoding


def pack_vector(vector: Any) -> bytes:
    """``(d,)`` vector (numpy or list) -> little-endian float32 bytes."""
    return np.asarray(vector, dtype="<f4").reshape(-1).tobytes()


def unpack_vector(blob: bytes) -> np.ndarray:
    """Inverse of :func:`pack_vector`: a ``(d,) float32`` array (a copy, writable)."""
    return np.frombuffer(blob, dtype="<f4").astype(np.float32)


def digest_of(blob: bytes) -> bytes:
    """The 16-byte BLAKE2b digest of a stored value (a packed vector's key in ``vectors``)."""
    return hashlib.blake2b(blob, digest_size=16).digest()

