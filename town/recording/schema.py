"""The SQLite schema of a run file (docs/design, §4) and the codecs for its columns.

One run is one SQLite file in WAL mode, written a tick per transaction by
:class:`~town.recording.writer.RunWriter` and read by :class:`~town.recording.reader.RunReader`.

Tables (``SCHEMA_VERSION`` 2):

- ``meta(key, value)``: JSON values (scenario, town, personas, seed, backend, config, versions,
  start, created, finished, closed, parent, schema_version). ``finished``: the run reached the
  end it was asked for; ``closed``: the file was closed with a snapshot of its last tick (a
  clean end, or a clean stop such as Ctrl-C on ``serve``); neither: still being written, or
  stopped inside a tick (resume cuts back to the newest snapshot).
- ``frames(tick, time, seq, data)``: one row per tick, ``data`` the FRAME event's data as
  zlib-compressed JSON. A frame of 25 personas is ~5 kB of JSON and ~1 kB compressed, so a full
  frame per tick (no keyframes + deltas) keeps seeking a primary-key lookup and the file small.
- ``events(seq, tick, time, kind, persona, data)``: every other event, ``data`` JSON without
  vectors. A retrieval's row holds its summary (no candidates); the full trace is in
  ``retrievals``.
- ``memories(persona, id, seq, tick, created, kind, importance, content, probe, embedding)``:
  one row per MEMORY event, the embedding a ``(d,) float32`` blob, for fast stream reconstruction;
  ``probe`` names the evaluation probe a seeded memory seeds (NULL for almost all rows).
- ``retrievals(seq, persona, tick, time, purpose, query, returned, candidates, vector)``: the
  ids the retrieval returned (its ``last_accessed`` changes), the zlib-compressed candidate list,
  and the query embedding, stored once per distinct vector in ``query_vectors`` (queries repeat
  tick after tick, so this roughly halves the size of a long run).
- ``snapshots(tick, time, seq, state)``: full simulation state, zlib-compressed JSON.
"""

from __future__ import annotations

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
    "format_time",
    "parse_time",
    "pack_json",
    "unpack_json",
    "pack_vector",
    "unpack_vector",
]

#: Version of the layout below; a reader refuses any other.
SCHEMA_VERSION = 2

#: Game datetimes are stored as text in this format (sorts as time).
TIME_FORMAT = "%Y-%m-%d %H:%M:%S"

TABLES = ("meta", "frames", "events", "memories", "retrievals", "query_vectors", "snapshots")

DDL = """
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE frames (
    tick INTEGER PRIMARY KEY, time TEXT NOT NULL, seq INTEGER NOT NULL, data BLOB NOT NULL);
CREATE TABLE events (
    seq INTEGER PRIMARY KEY, tick INTEGER NOT NULL, time TEXT NOT NULL, kind TEXT NOT NULL,
    persona TEXT, data TEXT NOT NULL);
CREATE INDEX events_kind_persona_tick ON events (kind, persona, tick);
CREATE INDEX events_persona_tick ON events (persona, tick);
CREATE INDEX events_tick ON events (tick);
CREATE TABLE memories (
    persona TEXT NOT NULL, id INTEGER NOT NULL, seq INTEGER NOT NULL, tick INTEGER NOT NULL,
    created TEXT NOT NULL, kind TEXT NOT NULL, importance INTEGER NOT NULL,
    content TEXT NOT NULL, probe TEXT, embedding BLOB NOT NULL);
CREATE UNIQUE INDEX memories_persona_id ON memories (persona, id);
CREATE INDEX memories_seq ON memories (seq);
CREATE TABLE query_vectors (
    id INTEGER PRIMARY KEY, digest BLOB NOT NULL UNIQUE, vector BLOB NOT NULL);
CREATE TABLE retrievals (
    seq INTEGER PRIMARY KEY, persona TEXT NOT NULL, tick INTEGER NOT NULL, time TEXT NOT NULL,
    purpose TEXT NOT NULL, query TEXT NOT NULL, returned TEXT NOT NULL,
    candidates BLOB NOT NULL, vector INTEGER NOT NULL REFERENCES query_vectors (id));
CREATE INDEX retrievals_persona_seq ON retrievals (persona, seq);
CREATE TABLE snapshots (
    tick INTEGER PRIMARY KEY, time TEXT NOT NULL, seq INTEGER NOT NULL, state BLOB NOT NULL);
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
    return json.loads(zlib.decompress(blob))


def pack_vector(vector: Any) -> bytes:
    """``(d,)`` vector (numpy or list) -> little-endian float32 bytes."""
    return np.asarray(vector, dtype="<f4").reshape(-1).tobytes()


def unpack_vector(blob: bytes) -> np.ndarray:
    """Inverse of :func:`pack_vector`: a ``(d,) float32`` array (a copy, writable)."""
    return np.frombuffer(blob, dtype="<f4").astype(np.float32)
