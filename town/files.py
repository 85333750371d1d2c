"""Reading a town or configuration file within a bound; writing a report file whole or not at
all, into a folder checked before the work.

:func:`read_bounded` reads at most :data:`MAX_FILE_BYTES` of a file given by the user (a persona,
town, map, events or probes file, a Tiled map, a TOML configuration), so that one linked to
``/dev/zero`` or grown to gigabytes is one line, not a process that eats the machine's memory.

:func:`write_atomically` writes a text to a temporary file beside the target, flushes it to disk
and renames it over the target, so a reader (or a crash, or a full disk) never sees half a file:
the target holds the old text or the new one. What cannot be written is one line naming the file.
:func:`open_folder` makes the folder ``--out`` names before a study or an evaluation starts, so
one that cannot be made is refused before the work, not after it.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

from .errors import ConfigError, RecordingError

__all__ = ["MAX_FILE_BYTES", "open_folder", "read_bounded", "stale_part", "write_atomically"]

#: The most bytes a town or configuration file may hold (a generated town of 5,000 residents
#: holds a few MB in its largest file).
MAX_FILE_BYTES = 64 * 1024 * 1024


def read_bounded(path: str | Path, limit: int = MAX_FILE_BYTES) -> str:
    """The UTF-8 text of ``path`` (line breaks read as ``Path.read_text`` reads them), reading
    no more than ``limit`` + 1 bytes.

    Raises:
        ConfigError: naming the file when it holds more than ``limit`` bytes.
        OSError, UnicodeDecodeError: as ``Path.read_text`` raises them, for the caller to name.
    """
    with open(path, "rb") as f:
        data = f.read(limit + 1)
    if len(data) > limit:
        raise ConfigError(f"holds more than {limit:,} bytes; a town or configuration file is at most "
                          f"{limit:,} (is it the file you meant?)", file=path)
    return data.decode("utf-8").replace("\r\n", "\n").replace("\r", "\n")


#: The temporary file :func:`write_atomically` writes beside ``NAME``: ``.NAME.<pid>.part``.
_PART = re.compile(r"^\..+\.(\d+)\.part$")


def open_folder(out: str | Path, what: str = "the study's folder") -> Path:
    """The folder ``out`` (``--out``: ``what`` it is for), made if missing, as an absolute path.

    Raises:
        ConfigError: naming ``--out`` for a symlink loop, a file in the way or a folder that
            cannot be made.
    """
    path = Path(out)
    try:
        path = path.resolve()
        path.mkdir(parents=True, exist_ok=True)
    except RuntimeError:  # Path.resolve on a symlink loop (Python < 3.13)
        raise ConfigError(f"{out} is a symlink loop; give a folder", field="--out") from None
    except OSError as exc:
        raise ConfigError(f"cannot use {out} as {what}: {exc.strerror or exc}", field="--out") from None
    if not path.is_dir():
        raise ConfigError(f"{out} is not a folder", field="--out")
    return path


def stale_part(path: str | Path) -> bool:
    """Whether ``path`` is a temporary file :func:`write_atomically` left when its writer died
    mid-write (its name ``.NAME.<pid>.part``, that process gone: a study worker ended by SIGTERM
    after Ctrl-C), which no one will finish."""
    found = _PART.match(Path(path).name)
    if found is None:
        return False
    try:
        os.kill(int(found.group(1)), 0)
    except (ProcessLookupError, OverflowError):  # gone, or no such pid at all
        return True
    except PermissionError:  # alive, another user's
        return False
    return False


def write_atomically(path: str | Path, text: str) -> Path:
    """Replace ``path`` by ``text`` (UTF-8) in one rename; returns the path.

    Raises:
        RecordingError: "cannot write PATH: <reason>" (a full disk, no permission, a missing
            folder); the temporary file is removed and ``path`` is as it was. An interrupt
            (Ctrl-C) while writing removes the temporary file too, and goes on.
    """
    path = Path(path)
    part = path.with_name(f".{path.name}.{os.getpid()}.part")
    try:
        with open(part, "w", encoding="utf-8") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        os.replace(part, path)
    except OSError as exc:
        part.unlink(missing_ok=True)
        raise RecordingError(f"cannot write {path}: {exc.strerror or exc}") from None
    except BaseException:  # Ctrl-C while writing: no part file left for the next run to trip on
        part.unlink(missing_ok=True)
        raise
    return path
