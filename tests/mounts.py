"""Real storage faults for tests: a tmpfs made read-only or full.

Root ignores file permissions, so only a mount makes storage read-only (remounted ``ro``, as a
read-only disk or share is) or full (a small ``size``) for real. Mounting needs root
(CAP_SYS_ADMIN); elsewhere the tests that need it are skipped. CI runs as root, so there they run.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest


class Mounts:
    """Mount tmpfs folders under ``root`` (:meth:`mount`); all unmounted on leaving the ``with``."""

    def __init__(self, root: Path):
        self.root = Path(root)
        self.folders: list[Path] = []

    def mount(self, size: str | None = None) -> Path:
        """A fresh tmpfs folder (of ``size``, e.g. ``"1m"``); skips the test where mounting fails."""
        folder = self.root / f"mnt{len(self.folders)}"
        folder.mkdir()
        options = ["-o", f"size={size}"] if size else []
        if subprocess.run(["mount", "-t", "tmpfs", *options, "tmpfs", str(folder)], capture_output=True).returncode:
            pytest.skip("cannot mount a tmpfs here (needs root / CAP_SYS_ADMIN)")
        self.folders.append(folder)
        return folder

    def __enter__(self) -> Mounts:
        return self

    def __exit__(self, *exc: object) -> None:
        for folder in reversed(self.folders):
            subprocess.run(["umount", "-l", str(folder)], check=True)


def remount_read_only(folder: Path) -> None:
    """Make the tmpfs at ``folder`` read-only."""
    subprocess.run(["mount", "-o", "remount,ro", str(folder)], check=True)


def fill(folder: Path) -> Path:
    """Fill the tmpfs at ``folder`` to its last block (zeros written until ENOSPC); the filler file."""
    filler = folder / "filler"
    fd = os.open(filler, os.O_WRONLY | os.O_CREAT, 0o644)
    try:
        while True:
            os.write(fd, bytes(4096))
    except OSError:
        pass
    finally:
        os.close(fd)
    assert os.statvfs(folder).f_bavail == 0
    return filler
