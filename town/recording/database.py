"""Opening run files: connection settings and the checks that a file is a readable run.

Every way into a run file (writer, reader, resume, fork) goes through :func:`open_run`, so a
missing, foreign, damaged or newer file gets the same clear :class:`~town.errors.RecordingError`;
every SQLite error met later on a run file becomes one through :func:`failure` (the reader's
queries, :func:`guarded` around resume, fork and writing on), which tells a damaged file from
storage that refuses (read-only, no permission, full). :func:`where_given` builds the optional
filters of the reader's queries.
"""

from __future__ import annotations

import json
import os
import sqlite3
import zlib
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any
from urllib.parse import quote

from town.errors import RecordingError
from town.recording.schema import DDL, SCHEMA_VERSION, TABLES, unpack_json

__all__ = ["connect", "create_run", "open_run", "stored_version", "damaged", "about_storage", "failure", "guarded",
           "storage_note", "decode", "where_given"]

#: SQLite result codes about where the file lives, not what it holds (``sqlite_errorname`` prefixes)
_STORAGE_CODES = ("SQLITE_READONLY", "SQLITE_CANTOPEN", "SQLITE_IOERR", "SQLITE_FULL", "SQLITE_PERM",
                  "SQLITE_BUSY", "SQLITE_LOCKED", "SQLITE_NOMEM", "SQLITE_AUTH")
#: below this many free bytes the disk holding a run counts as full (SQLite needs room for a page)
_NEARLY_FULL = 1 << 20

def connect(path: Path) -> sqlite3.Connection:
    """Open ``path`` in WAL mode with per-commit durability against process crashes.

    ``synchronous=NORMAL`` in WAL mode never loses a committed transaction when the process is
    killed (only on power loss), which is the guarantee docs/design, §4 asks for. Every page read
    has its cell pointers checked (``cell_size_check``): a damaged page is an error, never rows
    read from past the page's end.
    """
    conn = sqlite3.connect(str(path), check_same_thread=False, timeout=30.0)
    try:
        conn.execute("PRAGMA cell_size_check=ON")
        conn.execute("PRAGMA journal_mode=WAL")
        conn.execute("PRAGMA synchronous=NORMAL")
    except sqlite3.Error:
        conn.close()
        raise
    return conn


def _connect_read_only(path: Path) -> sqlite3.Connection:
    """Open ``path`` for reading on storage this process cannot write (a read-only mount).

    A WAL database needs a writable ``-shm`` beside it, so the normal open fails there. SQLite's
    ``mode=ro`` works when the ``-shm`` and ``-wal`` files already exist; otherwise the file is
    opened ``immutable=1``, which is safe because no writer can exist in a read-only directory
    and, with no ``-wal`` file, every committed transaction is in the main file.

    Raises:
        RecordingError: when an un-checkpointed ``-wal`` file sits beside the run but SQLite
            cannot read it on this storage (opening immutable would silently drop its commits).
        sqlite3.Error: when the file cannot be opened at all.
    """
    uri = f"file:{quote(str(path.resolve()))}"
    conn = sqlite3.connect(f"{uri}?mode=ro", uri=True, check_same_thread=False)
    try:
        conn.execute("PRAGMA cell_size_check=ON")
        conn.execute("SELECT COUNT(*) FROM sqlite_master").fetchone()
        return conn
    except sqlite3.OperationalError as exc:
        conn.close()
        wal = Path(f"{path}-wal")
        if wal.exists() and wal.stat().st_size > 0:
            raise RecordingError(
                f"{path}: on read-only storage with an un-checkpointed {wal.name} that SQLite "
                f"cannot read there ({exc}); copy the run and its -wal file to writable storage"
            ) from None
    conn = sqlite3.connect(f"{uri}?immutable=1", uri=True, check_same_thread=False)
    conn.execute("PRAGMA cell_size_check=ON")
    return conn


def damaged(path: Path, reason: object) -> RecordingError:
    """The error for a file that exists but is not a readable run."""
    return RecordingError(f"{path} is not a town run file (or is damaged): {reason}")


def storage_note(path: Path) -> str:
    """What is known to stop writing beside ``path``, as " (...)": its folder on read-only storage,
    no permission to write it, or under 1 MiB free on its disk; "" when none of these holds (a
    folder on a filesystem of no blocks, such as /proc, is no full disk)."""
    folder = path.parent
    try:
        disk = os.statvfs(folder)
    except OSError:
        return ""
    if disk.f_flag & os.ST_RDONLY:
        return f" ({folder} is on read-only storage)"
    if not os.access(folder, os.W_OK) or (path.exists() and not os.access(path, os.W_OK)):
        return f" (no permission to write {path if os.access(folder, os.W_OK) else folder})"
    free = disk.f_bavail * disk.f_frsize
    if disk.f_blocks and free < _NEARLY_FULL:  # a pseudo filesystem (/proc, /sys) has no blocks at all
        return f" (the disk holding it is full: {free:,} bytes free)"
    return ""


def about_storage(exc: sqlite3.Error) -> bool:
    """Whether a SQLite error is about where the file lives (read-only, permission, full, I/O,
    busy), not about what it holds."""
    return str(getattr(exc, "sqlite_errorname", "")).startswith(_STORAGE_CODES)


def failure(path: Path, exc: sqlite3.Error, doing: str = "read") -> RecordingError:
    """The one line for a SQLite error met on run file ``path``.

    Args:
        path: the run file.
        exc: the error (its ``sqlite_errorname`` tells the storage from the contents).
        doing: what was being done, for a storage failure: "read", "write", "cut back", ...

    Returns:
        For the storage (read-only, permission, full, I/O, busy): "cannot DOING run file PATH:
        REASON (WHY)" with :func:`storage_note`; for the contents (a malformed page, not a
        database, a foreign table): "PATH is not a town run file (or is damaged): REASON".
    """
    if about_storage(exc):
        return RecordingError(f"cannot {doing} run file {path}: {exc}{storage_note(path)}")
    return damaged(path, exc)


@contextmanager
def guarded(path: Path, doing: str = "read") -> Iterator[None]:
    """Turn a SQLite error raised inside into :func:`failure`'s one line about ``path``."""
    try:
        yield
    except sqlite3.DatabaseError as exc:
        raise failure(path, exc, doing) from None


def decode(path: Path, raw: str | bytes, what: str) -> Any:
    """A stored value: JSON text (``str``) or zlib-compressed JSON (``bytes``, frames, snapshots).

    Args:
        path: the run file (for the message).
        raw: the column's value.
        what: what the value is, for the message, e.g. ``"meta 'personas'"``, ``"snapshot at tick
            360"``.

    Raises:
        RecordingError: "PATH is not a town run file (or is damaged): WHAT: REASON" when the value
            does not decode.
    """
    try:
        return unpack_json(raw) if isinstance(raw, bytes) else json.loads(raw)
    except (zlib.error, ValueError, TypeError) as exc:
        raise damaged(path, f"{what}: {exc}") from None


def where_given(where: list[str], params: list[Any], clauses: Iterable[tuple[str, Any]]) -> None:
    """Add each ``(clause, value)`` whose value is not None to a query's ``where`` and ``params``."""
    for clause, value in clauses:
        if value is not None:
            where.append(clause)
            params.append(value)


def create_run(path: Path) -> sqlite3.Connection:
    """Create the tables of a new run file at ``path`` (which must not exist).

    Raises:
        RecordingError: naming the file when it cannot be created; the file and its ``-wal``
            and ``-shm`` are then removed (nothing half-made is left, e.g. on a full disk).
    """
    conn = None
    try:
        conn = connect(path)
        with conn:
            conn.executescript(DDL)
            conn.execute(
                "INSERT INTO meta (key, value) VALUES ('schema_version', ?)",
                (json.dumps(SCHEMA_VERSION),),
            )
    except sqlite3.Error as exc:
        if conn is not None:
            conn.close()
        for suffix in ("", "-wal", "-shm"):
            Path(f"{path}{suffix}").unlink(missing_ok=True)
        raise RecordingError(f"cannot create run file {path}: {exc}") from None
    return conn


def _check_size(conn: sqlite3.Connection, path: Path) -> None:
    """Refuse a file shorter than its header says (a truncated copy).

    Read through SQLite, never with ``open()``: closing any other descriptor of the file would
    drop this process's POSIX locks on it, and a writer in the same process (the live viewer
    reads the run it writes) would then corrupt it when another process opens it.
    """
    # With a -wal file present the run is open (or was killed): a checkpoint may be extending
    # the file right now, so its size says nothing; the WAL holds the newest pages anyway.
    if Path(f"{path}-wal").exists():
        return
    page_size = conn.execute("PRAGMA page_size").fetchone()[0]
    pages = conn.execute("PRAGMA page_count").fetchone()[0]
    size = path.stat().st_size
    if size < page_size * pages:
        raise damaged(path, f"truncated ({size} bytes, header says {page_size * pages})")


def open_run(path: str | Path, *, read_only: bool = False) -> sqlite3.Connection:
    """Open an existing run file after checking that it is one this code can read.

    Args:
        path: the run's ``.sqlite`` file.
        read_only: the caller never writes (the reader). When the normal WAL open fails and the
            run's folder is not writable (read-only storage), the file is opened read-only
            instead of being called damaged.

    Returns:
        A connection (WAL mode, usable from several threads under the caller's lock).

    Raises:
        RecordingError: "run file not found: PATH"; "PATH is not a town run file (or is
            damaged): ..." for a foreign, truncated or table-less file; or a message naming both
            versions when its ``schema_version`` is not :data:`SCHEMA_VERSION` (for an older
            file, with the command that makes the run again); on read-only
            storage, one naming an un-checkpointed ``-wal`` file it cannot read.
    """
    path = Path(path)
    if not path.is_file():
        raise RecordingError(f"run file not found: {path}")
    if path.stat().st_size == 0:
        raise damaged(path, "the file is empty")
    try:
        try:
            conn = connect(path)
        except sqlite3.OperationalError:
            if not read_only or os.access(path.parent, os.W_OK):
                raise
            conn = _connect_read_only(path)
        try:
            _check_size(conn, path)
        except RecordingError:
            conn.close()
            raise
        names = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
        row = (conn.execute("SELECT value FROM meta WHERE key='schema_version'").fetchone()
               if "meta" in names else None)
        try:
            version = None if row is None else decode(path, row[0], "meta 'schema_version'")
        except RecordingError:
            conn.close()
            raise
        if row is not None and version != SCHEMA_VERSION:
            message = _other_version(conn, path, version)
            conn.close()
            raise RecordingError(message)
        missing = [t for t in TABLES if t not in names]
        if missing:
            conn.close()
            raise damaged(path, f"missing tables {', '.join(missing)}")
    except sqlite3.DatabaseError as exc:
        raise failure(path, exc, "read" if read_only else "open") from None
    if row is None:
        conn.close()
        raise RecordingError(f"{path}: run file has schema_version None, this town reads schema_version "
                             f"{SCHEMA_VERSION}")
    return conn


def _other_version(conn: sqlite3.Connection, path: Path, version: Any) -> str:
    """The one line refusing a file of another ``schema_version``; for an older one, the
    command that makes the run again (from its own meta: town, game hours, seed)."""
    head = f"{path}: run file has schema_version {version!r}, this town reads schema_version {SCHEMA_VERSION}"
    if not isinstance(version, int) or version > SCHEMA_VERSION:
        return f"{head}; open it with the town version that wrote it"
    try:
        meta = {k: json.loads(v) for k, v in conn.execute(
            "SELECT key, value FROM meta WHERE key IN ('scenario', 'seed', 'seconds_per_tick')")}
        (last,) = conn.execute("SELECT MAX(tick) FROM frames").fetchone()
        hours = (int(last) + 1) * float(meta["seconds_per_tick"]) / 3600
        command = (f"python run.py simulate --town {meta['scenario']} --hours {hours:g} "
                   f"--seed {int(meta['seed'])} --out {path}")
    except (sqlite3.Error, ValueError, TypeError, KeyError):
        command = f"python run.py simulate ... --out {path}"
    return (f"{head} (written by an older town); make the run again, after moving this file away: "
            f"{command}")


def stored_version(path: str | Path) -> Any:
    """The ``schema_version`` a run file says it has (None when it says none or is no run file).

    Reads the meta table only, so it answers for files of any version (the demo asks it of its
    cached run before opening it).
    """
    uri = f"file:{quote(str(Path(path).resolve()))}?mode=ro"
    try:
        conn = sqlite3.connect(uri, uri=True)
    except sqlite3.Error:
        return None
    try:
        row = conn.execute("SELECT value FROM meta WHERE key='schema_version'").fetchone()
        return None if row is None else json.loads(row[0])
    except (sqlite3.Error, ValueError):
        return None
    finally:
        conn.close()
