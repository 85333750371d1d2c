"""Helpers for tests that run the command line as a user would."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

#: The repository root (where run.py is).
REPO = Path(__file__).resolve().parents[1]


def run_cli(*args: str, timeout: float = 900) -> subprocess.CompletedProcess:
    """Run ``python run.py ARGS`` from the repository root; returns the CompletedProcess."""
    return subprocess.run([sys.executable, str(REPO / "run.py"), *args], cwd=REPO, capture_output=True,
                          text=True, timeout=timeout)


def same_run(a: Path, b: Path, *options: str) -> subprocess.CompletedProcess:
    """``python scripts/same_run.py [OPTIONS] A B`` from the repository root (prints "same run", exit 0)."""
    return subprocess.run([sys.executable, str(REPO / "scripts" / "same_run.py"), *options, str(a), str(b)],
                          cwd=REPO, capture_output=True, text=True, timeout=300)
