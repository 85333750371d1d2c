"""A study owns its folder: one study at a time, and it removes only the run files it recorded.

- :func:`open_folder` checks ``--out`` (creatable, no symlink loop) before anything is planned.
- :func:`hold` takes the folder's lock for a whole study (its runs and its report): the
  writer lock of :mod:`town.recording.lock` on ``<out>/study.json``, so a second study into the
  folder refuses in one line naming the first's pid.
- :func:`claim` records a run as the study's before its file is created
  (``<out>/<name>.evaluation/run.json``, written atomically); :func:`owned` reads that record.
  A run file without it is someone else's: the study never removes or overwrites it.
- :func:`check_reports` refuses a report file (``study.json``, ``study.md`` ...) that no study
  wrote: a study's reports are its own when the folder's ``study-timing.json``, written first, is
  a study's (:data:`REPORTS`).
- :func:`remove_own` removes an unfinished run of the study under that run's writer lock, so a
  run another process is writing (a ``resume`` of it, a worker still alive) is never cut.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from ..errors import ConfigError, RecordingError
from ..files import open_folder, write_atomically
from ..recording.lock import WriterLock

__all__ = ["open_folder", "hold", "claim", "owned", "remove_own", "claim_path", "check_reports", "REPORTS"]

#: The report files a study writes into its folder; the timing file, written first, records them.
REPORTS = ("study-timing.json", "study.json", "study.md", "study.png")


@contextmanager
def hold(out: Path) -> Iterator[None]:
    """Hold the study folder ``out`` (the writer lock on ``<out>/study.json``) while the body runs.

    Raises:
        ConfigError: naming ``--out`` when another study holds it (with its pid).
    """
    try:
        lock = WriterLock(out / "study.json")
    except RecordingError:
        try:
            holder = (out / "study.json.lock").read_text().strip() or "?"
        except OSError:
            holder = "?"
        raise ConfigError(f"{out} is in use by another study (pid {holder}); wait for it to finish or choose "
                          "another --out", field="--out") from None
    try:
        yield
    finally:
        lock.release()


def _study_timing(path: Path) -> bool:
    """Whether ``path`` is a study's ``study-timing.json`` (a JSON object with its ``workers`` and its ``runs`` by name)."""
    try:
        timing = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError, UnicodeDecodeError):
        return False
    return isinstance(timing, dict) and "workers" in timing and isinstance(timing.get("runs"), dict)


def check_reports(out: Path) -> None:
    """Refuse report files in ``out`` that no study wrote: any of :data:`REPORTS` present while
    ``<out>/study-timing.json`` is missing or not a study's.

    Raises:
        ConfigError: naming the first such file, which is left as it is.
    """
    present = [out / name for name in REPORTS if (out / name).exists() or (out / name).is_symlink()]
    if present and not _study_timing(out / REPORTS[0]):
        raise ConfigError(f"{present[0]} is not a report a study wrote; it is left as it is: move it or choose "
                          "another --out", field="--out")


def claim_path(run: Path) -> Path:
    """``<out>/<name>.evaluation/run.json``: the record that the study made run file ``<out>/<name>.sqlite``."""
    return run.with_suffix(".evaluation") / "run.json"


def claim(run: Path, task: dict[str, Any]) -> None:
    """Record run file ``run`` as the study's (the task's identity, ``task``), before it is created.

    Raises:
        RecordingError: naming the record when it cannot be written.
    """
    path = claim_path(run)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise RecordingError(f"cannot write {path}: {exc.strerror or exc}") from None
    write_atomically(path, json.dumps({"run": run.name, "task": task}, indent=1))


def owned(run: Path, task: dict[str, Any]) -> bool:
    """Whether the study recorded run file ``run`` as its own (:func:`claim`) for the task ``task``."""
    try:
        record = json.loads(claim_path(run).read_text(encoding="utf-8"))
    except (OSError, ValueError, UnicodeDecodeError):
        return False
    return isinstance(record, dict) and record.get("task") == task and record.get("run") == run.name


def remove_own(run: Path) -> None:
    """Remove the study's unfinished run file ``run`` and its side files, holding its writer lock.

    Raises:
        RecordingError: when another process is writing it (naming the pid).
    """
    lock = WriterLock(run)
    try:
        for suffix in ("", "-wal", "-shm"):
            Path(f"{run}{suffix}").unlink(missing_ok=True)
    finally:
        lock.release()
