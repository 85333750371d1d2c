"""The runs folder: safe name -> file resolution and the list of saved runs (docs/design, §4, §5).

The web app serves only runs inside its runs folder, by name. :func:`resolve_run` is the single
gate between a name from a URL and a path on disk.
"""

from __future__ import annotations

import os
from datetime import datetime
from pathlib import Path
from typing import Any
from urllib.parse import unquote

from town.errors import RecordingError
from town.recording.reader import RunReader

__all__ = ["RUN_SUFFIX", "run_name_problem", "resolve_run", "list_runs", "new_run_path", "remove_run"]

#: File suffix of run files.
RUN_SUFFIX = ".sqlite"


def _decoded(name: str) -> str:
    """Percent-decode until stable (so ``%252e`` cannot smuggle a ``.`` past one decode)."""
    for _ in range(5):
        decoded = unquote(name)
        if decoded == name:
            return name
        name = decoded
    raise RecordingError(f"run name {name!r}: too deeply percent-encoded")


#: The longest file name most file systems take, in bytes (POSIX ``NAME_MAX``): a longer run name
#: can name no run file, and the operating system refuses it (``ENAMETOOLONG``).
NAME_MAX = 255


def _name_bytes(stem: str) -> int:
    return len(f"{stem}{RUN_SUFFIX}".encode("utf-8", "surrogateescape"))


def run_name_problem(path: str | Path) -> str | None:
    """Why a new run file ``path`` could not be served by its name, or None.

    The viewer names a run by its file's stem in URLs and :func:`resolve_run` percent-decodes a
    name before it checks it (``%2f`` is a ``/``), so a stem holding a percent escape, ``/``,
    ``\\``, ``:``, NUL, or starting with ``.``, names another run or none; and no file name
    (nor folder name on the way) may pass ``NAME_MAX`` bytes.
    """
    p = Path(path)
    if p.suffix != RUN_SUFFIX:
        return f"{p}: a run file ends in {RUN_SUFFIX}"
    for part in p.parts:
        size = len(part.encode("utf-8", "surrogateescape"))
        if size > NAME_MAX:
            return f"{part[:40]!r}... is too long ({size} bytes as a file or folder name; at most {NAME_MAX})"
    stem = p.stem
    try:
        same = _decoded(stem) == stem
    except RecordingError:
        same = False
    if not same or any(b in stem for b in ("\\", "\x00", ":")) or stem.startswith(".") or not stem.strip():
        return (f"the run name {stem!r} could not be served by the viewer (it holds a percent escape, '\\', "
                "':' or NUL, or starts with '.'); use letters, digits, '-', '_'")
    return None


def resolve_run(runs_dir: str | Path, name: str) -> Path:
    r"""The file of run ``name`` (``name`` or ``name.sqlite``) inside ``runs_dir``.

    Args:
        runs_dir: the runs folder.
        name: a bare run name, e.g. from a URL.

    Returns:
        The run file's path (it exists and lies directly in ``runs_dir``).

    Raises:
        RecordingError: for a name with ``/``, ``\\``, ``..``, NUL, a drive or absolute path
            (also after percent-decoding), one too long for a file name (``NAME_MAX``, 255
            bytes with ``.sqlite``), one that resolves outside ``runs_dir`` (symlinks), or a
            run that does not exist. The web layer answers 404.
    """
    raw = str(name)
    decoded = _decoded(raw)
    bad = ("/", "\\", "\x00", ":")
    if (not decoded.strip() or any(b in decoded or b in raw for b in bad) or ".." in decoded
            or decoded.startswith(".") or os.path.isabs(decoded)):
        raise RecordingError(f"run name {raw!r} is not allowed: use a bare run name")
    stem = decoded[: -len(RUN_SUFFIX)] if decoded.endswith(RUN_SUFFIX) else decoded
    size = _name_bytes(stem)
    if size > NAME_MAX:
        raise RecordingError(f"run name {stem[:40]!r}... is too long ({size} bytes as a file name; "
                             f"at most {NAME_MAX})")
    root = Path(runs_dir).resolve()
    path = (root / f"{stem}{RUN_SUFFIX}").resolve()
    if path.parent != root:
        raise RecordingError(f"run name {raw!r} is not allowed: it leads outside {root}")
    if not path.is_file():
        raise RecordingError(f"run not found: {stem} (in {root})")
    return path


def list_runs(runs_dir: str | Path) -> list[dict[str, Any]]:
    """Summaries of the runs in ``runs_dir``, newest file first.

    Entries that are not files directly in the folder once symlinks are resolved (a link
    leading elsewhere, a dangling link, a folder named ``*.sqlite``) or whose names the viewer
    cannot serve (:func:`run_name_problem`: ``has%2fslash.sqlite`` was listed and its link
    404'd) are skipped unopened, as :func:`resolve_run` would refuse them.

    Returns:
        :meth:`RunReader.summary` dicts; a damaged file gives ``{"name", "size_bytes",
        "error"}`` instead of failing the list. A missing folder gives ``[]``.
    """
    root = Path(runs_dir)
    if not root.is_dir():
        return []
    inside = root.resolve()
    files = [p for p in root.glob(f"*{RUN_SUFFIX}")  # a name it cannot serve is no run of the viewer's
             if p.resolve().parent == inside and p.resolve().is_file() and run_name_problem(p.name) is None]
    files.sort(key=lambda p: (-p.stat().st_mtime, p.name))
    runs = []
    for path in files:
        try:
            with RunReader(path) as reader:
                runs.append(reader.summary())
        except RecordingError as exc:
            runs.append({"name": path.stem, "size_bytes": path.stat().st_size, "error": str(exc)})
    return runs


def new_run_path(runs_dir: str | Path, now: datetime | None = None) -> Path:
    """A new run file in ``runs_dir`` named after the wall time, unique across processes.

    ``<YYYYmmdd-HHMMSS>.sqlite``, or ``-2``, ``-3``, ... for runs started in the same second.
    The name is reserved by creating its ``.lock`` side file with ``O_EXCL`` (atomic, so two
    processes never both get it); the run's :class:`~town.recording.lock.WriterLock` takes it
    over, and removing the run removes it.

    Raises:
        RecordingError: when the folder cannot be created or written.
    """
    root = Path(runs_dir)
    stamp = f"{now or datetime.now():%Y%m%d-%H%M%S}"
    try:
        root.mkdir(parents=True, exist_ok=True)
        n = 0
        while True:
            n += 1
            path = root / f"{stamp}{'' if n == 1 else f'-{n}'}{RUN_SUFFIX}"
            if path.exists():
                continue
            try:
                os.close(os.open(f"{path}.lock", os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o644))
            except FileExistsError:
                continue
            return path
    except OSError as exc:
        raise RecordingError(f"cannot create a run file in {root}: {exc.strerror}") from None


def remove_run(path: str | Path) -> None:
    """Delete a run file that is not worth keeping, with its WAL and lock side files."""
    for suffix in ("", "-wal", "-shm", ".lock"):
        side = Path(f"{path}{suffix}")
        if side.exists():  # unlinking even a missing file fails on read-only storage
            side.unlink(missing_ok=True)
