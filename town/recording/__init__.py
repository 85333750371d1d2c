"""Run recording (docs/design, §4): one SQLite file per run, written as it goes, read for replay.

Parts:
    schema: the tables, ``SCHEMA_VERSION`` and the column codecs (zlib JSON, float32 blobs).
    database: opening and validating run files; :func:`stored_version` of any run file.
    frames: frames as keyframes and changes.
    snapshots: incremental snapshots (a state in parts, each stored when it changed).
    writer: :class:`RunWriter`, the event-bus subscriber that records a run.
    reader: :class:`RunReader` (seek, events, traces, snapshots).
    streams: a persona's memory stream as of an event (:class:`RecordedStream`), read through the reader.
    lab: :func:`rescore`, the replay weight lab.
    runs: :func:`resolve_run` and :func:`list_runs` for the runs folder.
    continuation: :func:`newest_snapshot`, :func:`truncate_after_snapshot` (resume) and
        :func:`fork_copy` (fork).
"""

from town.recording.continuation import fork_copy, newest_snapshot, truncate_after_snapshot
from town.recording.database import stored_version
from town.recording.lab import rescore
from town.recording.reader import RunReader
from town.recording.runs import list_runs, resolve_run
from town.recording.schema import SCHEMA_VERSION
from town.recording.streams import RecordedStream
from town.recording.writer import RunWriter

__all__ = [
    "SCHEMA_VERSION",
    "stored_version",
    "RunWriter",
    "RunReader",
    "RecordedStream",
    "rescore",
    "resolve_run",
    "list_runs",
    "newest_snapshot",
    "truncate_after_snapshot",
    "fork_copy",
]
