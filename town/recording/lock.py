"""One writer per run file: an advisory lock held while a process writes a run.

The lock is ``flock`` on a side file ``<run>.lock`` (never on the database itself: closing any
other descriptor of the database would drop SQLite's POSIX locks in this process). A second
writer, ``resume`` or ``fork``-into of a run that another process is writing is refused with a
clear message instead of cutting or interleaving what is being recorded.
"""

from __future__ import annotations

import fcntl
import os
from pathlib import Path

from town.errors import RecordingError
from town.recording.database import storage_note

__all__ = ["WriterLock"]


class WriterLock:
    """Hold the writer lock of run file ``path`` until :meth:`release`.

    Raises:
        RecordingError: when another process holds it (naming its pid), or the lock file
            cannot be created or written (read-only storage, a full disk: then no lock file is
            left behind).
    """

    def __init__(self, path: str | Path):
        self.path = Path(f"{path}.lock")
        self._fd: int | None
        try:
            self._fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
        except OSError as exc:
            raise RecordingError(f"cannot lock run file {path}: {exc.strerror}{storage_note(self.path)}") from None
        try:
            fcntl.flock(self._fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = os.pread(self._fd, 32, 0).decode(errors="replace").strip() or "?"
            os.close(self._fd)
            raise RecordingError(
                f"run file {path} is being written by another process (pid {holder}); wait for it "
                "to finish or stop it (Ctrl-C) first") from None
        try:
            os.ftruncate(self._fd, 0)
            os.pwrite(self._fd, str(os.getpid()).encode(), 0)
        except OSError as exc:  # a full disk takes the file but not its pid; the lock is ours to drop
            self.path.unlink(missing_ok=True)
            os.close(self._fd)
            self._fd = None
            raise RecordingError(f"cannot lock run file {path}: {exc.strerror}{storage_note(self.path)}") from None

    def release(self) -> None:
        """Drop the lock and remove the lock file (idempotent)."""
        if self._fd is None:
            return
        self.path.unlink(missing_ok=True)
        os.close(self._fd)
        self._fd = None
