"""Resume and fork at a snapshot, on the run file alone (docs/design, §4).

:func:`newest_snapshot` reads the snapshot to continue from without changing anything, so every
check can run before :func:`truncate_after_snapshot` (resume: one transaction) or
:func:`fork_copy` (fork) writes. All return the snapshot ``(tick, seq, state)`` to restore: the
caller passes ``state`` to ``Simulation.set_state``, starts its bus at ``seq``
(``EventBus(start_seq=seq)``) and its clock after ``tick``, and writes on with
``RunWriter.append(path)`` (``Simulation.from_run`` does all of this).
"""

from __future__ import annotations

import json
import sqlite3
from datetime import datetime
from pathlib import Path
from typing import Any

from town.errors import RecordingError
from town.recording.database import about_storage, connect, damaged, decode, failure, guarded, open_run
from town.recording.lock import WriterLock
from town.recording.schema import format_time
from town.recording.snapshots import read_state

__all__ = ["newest_snapshot", "truncate_after_snapshot", "fork_copy"]

Snapshot = tuple[int, int, dict[str, Any]]


def _drop_after(conn: sqlite3.Connection, tick: int, seq: int) -> None:
    """Delete everything recorded after tick ``tick`` / event ``seq`` (caller's transaction)."""
    for table in ("frames", "snapshots", "snapshot_parts"):
        conn.execute(f"DELETE FROM {table} WHERE tick > ?", (tick,))
    for table in ("events", "memories", "retrievals"):
        conn.execute(f"DELETE FROM {table} WHERE seq > ?", (seq,))
    # a vector is stored when first referred to, so those after the cut have the highest ids
    (last,) = conn.execute("SELECT MAX(v) FROM (SELECT MAX(vector) AS v FROM memories"
                           " UNION ALL SELECT MAX(vector) FROM retrievals)").fetchone()
    conn.execute("DELETE FROM vectors WHERE id > ?", (-1 if last is None else last,))


def _set_meta(conn: sqlite3.Connection, **values: Any) -> None:
    conn.executemany(
        "INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)",
        [(key, json.dumps(value)) for key, value in values.items()],
    )


def _snapshot(conn: sqlite3.Connection, path: Path, where: str, params: tuple, wanted: str = "") -> Snapshot:
    """The newest snapshot matching ``where``; ``wanted`` says in words what was asked for."""
    row = conn.execute(
        f"SELECT tick, seq, state FROM snapshots {where} ORDER BY tick DESC LIMIT 1", params
    ).fetchone()
    if row is None:
        first = conn.execute("SELECT time FROM snapshots ORDER BY tick LIMIT 1").fetchone()
        if first is None:
            raise RecordingError(f"{path}: the run has no snapshot to continue from")
        raise RecordingError(f"{path}: no snapshot {wanted}; its first snapshot is at {first[0]}")
    try:
        state = read_state(lambda sql, args: conn.execute(sql, args).fetchall(), row[0], row[2],
                           lambda raw, what: decode(path, raw, what))
    except KeyError as exc:
        raise damaged(path, exc.args[0]) from None
    return row[0], row[1], state


def _where(at: int | datetime | None) -> tuple[str, tuple, str]:
    """(SQL condition, its parameters, the same in words) for "at or before ``at``"."""
    if at is None:
        return "", (), ""
    if isinstance(at, datetime):
        return "WHERE time <= ?", (format_time(at),), f"at or before {format_time(at)}"
    return "WHERE tick <= ?", (int(at),), f"at or before tick {int(at)}"


def newest_snapshot(path: str | Path, at: int | datetime | None = None) -> Snapshot:
    """The newest snapshot of a run (at or before ``at``: a tick or a game datetime); read only.

    Returns:
        ``(tick, seq, state)`` of the snapshot.

    Raises:
        RecordingError: when the file is not a readable run or has no such snapshot.
    """
    path = Path(path)
    conn = open_run(path, read_only=True)
    try:
        with guarded(path):
            return _snapshot(conn, path, *_where(at))
    finally:
        conn.close()


def truncate_after_snapshot(path: str | Path, tick: int | None = None) -> Snapshot:
    """Cut a run back to its newest snapshot (or the one after tick ``tick``), for resume.

    Frames, events, memories, retrievals, vectors and snapshots after the snapshot are deleted in one
    transaction, and the run is marked unfinished and open (meta ``finished``, ``closed``).

    Returns:
        ``(tick, seq, state)`` of the snapshot: its last tick, last event seq, and state dict.

    Raises:
        RecordingError: when the file is not a readable run, has no snapshot, or another
            process is writing it.
    """
    path = Path(path)
    lock = WriterLock(path)  # never cut a run another process is writing
    try:
        conn = open_run(path)
        try:
            # never append to a damaged run: a page the resume would not read may still be bad
            (check,) = conn.execute("PRAGMA quick_check(1)").fetchone()
            if check != "ok":
                raise damaged(path, " ".join(check.replace("*** in database main ***", "").split()))
            with conn:
                where, params, wanted = ("", (), "") if tick is None else ("WHERE tick = ?", (tick,), f"at tick {tick}")
                tick, seq, state = _snapshot(conn, path, where, params, wanted)
                _drop_after(conn, tick, seq)
                _set_meta(conn, finished=False, closed=False)
        except sqlite3.DatabaseError as exc:
            raise failure(path, exc, "cut back") from None
        finally:
            conn.close()
    finally:
        lock.release()
    return tick, seq, state


def fork_copy(src: str | Path, dst: str | Path, at: int | datetime) -> Snapshot:
    """Start a new run ``dst`` from ``src``'s newest snapshot at or before ``at``.

    Everything up to that snapshot is copied; meta ``parent`` names the source run, the
    snapshot tick, seq and game time, and holds the source's ``config`` (the settings its ticks up
    to the snapshot were made with) and its own ``parent`` (a fork of a fork).

    Args:
        src: the parent run file (may still be being written).
        dst: the new run file; must not exist.
        at: a tick, or a game datetime.

    Returns:
        ``(tick, seq, state)`` of the snapshot the fork starts from.

    Raises:
        RecordingError: when ``dst`` exists, ``src`` is not a readable run, or it has no
            snapshot at or before ``at``.
    """
    src, dst = Path(src), Path(dst)
    if dst.exists():
        raise RecordingError(f"cannot fork into {dst}: the file already exists")
    try:
        dst.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise RecordingError(f"cannot fork into {dst}: {exc.strerror}") from None
    lock = WriterLock(dst)
    try:
        return _fork(src, dst, at)
    finally:
        lock.release()


def _fork(src: Path, dst: Path, at: int | datetime) -> Snapshot:
    where, params, wanted = _where(at)
    source = open_run(src, read_only=True)  # a fork only reads its parent (which may be on read-only storage)
    try:
        with guarded(src):
            tick, seq, state = _snapshot(source, src, where, params, wanted)
            (time,) = source.execute("SELECT time FROM snapshots WHERE tick = ?", (tick,)).fetchone()
            before = {key: decode(src, row[0], f"meta {key!r}") for key in ("config", "parent")
                      if (row := source.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone())}
        with guarded(dst, "create"):
            target = connect(dst)
        try:
            source.backup(target)
        except sqlite3.DatabaseError as exc:
            target.close()
            raise _fork_failure(src, dst, exc) from None
    finally:
        source.close()
    try:
        with target:
            _drop_after(target, tick, seq)
            _set_meta(target, finished=False, closed=False, created=datetime.now().isoformat(timespec="seconds"),
                      parent={"run": src.stem, "tick": tick, "seq": seq, "time": time, **before})
        target.execute("VACUUM")
    except sqlite3.DatabaseError as exc:
        raise _fork_failure(src, dst, exc) from None
    finally:
        target.close()
    return tick, seq, state


def _fork_failure(src: Path, dst: Path, exc: sqlite3.DatabaseError) -> RecordingError:
    """A storage failure is the fork's own file; damaged contents came from the parent's pages."""
    return failure(dst, exc, "write") if about_storage(exc) else damaged(src, exc)
