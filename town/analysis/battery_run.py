"""Running the interview battery on a recorded run (Park et al. 2023 §6.1).

Ask every persona, grade the answers against the run, write battery.json.
"""

from __future__ import annotations

import json
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

from ..files import write_atomically
from .battery import ask_battery
from .grading import grade
from .recorded import tick_at

__all__ = ["default_at", "run_battery", "write_battery"]


def default_at(reader) -> datetime:
    """The interview time by default: the run's middle, on the whole hour before it.

    Plan questions then ask about hours the run recorded after the interview.
    """
    start = datetime.fromisoformat(reader.meta["start"])
    spt = int(reader.meta.get("seconds_per_tick", 10))
    middle = start + timedelta(seconds=(reader.last_tick or 0) * spt / 2)
    return max(start, middle.replace(minute=0, second=0, microsecond=0))


def run_battery(run: str | Path, *, at: datetime | str | None = None, backend=None, embedder=None,
                out_dir: str | Path | None = None) -> tuple[dict[str, Any], Path]:
    """Ask, grade (:func:`town.analysis.grading.grade`) and write ``<run>.evaluation/battery.json``.

    Args:
        run: the run file (only read).
        at: interview time (default :func:`default_at`).
        backend: answers (default: the scripted backend, :func:`town.analysis.recorded.run_backend`).
        embedder: embeds questions (default: the run's).
        out_dir: where battery.json goes (default ``<run>.evaluation/``).

    Returns:
        (the battery with ``summary`` and each answer's ``grade``, the JSON path).
    """
    from ..recording import RunReader
    from ..scenario import load_scenario

    with RunReader(run) as reader:
        scenario = load_scenario(reader.meta["scenario"])
        when = default_at(reader) if at is None else tick_at(reader, at)[0]
        result = ask_battery(reader, scenario, when, backend=backend, embedder=embedder)
        result["ablate"] = reader.summary()["ablate"]
        result["summary"] = grade(result, reader, scenario)
    out = Path(out_dir) if out_dir else Path(run).with_suffix(".evaluation")
    return result, write_battery(result, out)


def write_battery(result: dict[str, Any], out_dir: str | Path) -> Path:
    """Write ``battery.json`` into ``out_dir`` (created), whole or not at all; returns its path.

    Raises:
        RecordingError: naming the file when it cannot be written (a full disk).
    """
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    return write_atomically(out / "battery.json", json.dumps(result, indent=1))
