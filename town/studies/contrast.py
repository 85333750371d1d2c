"""Two studies side by side: ``compare DIR_A DIR_B`` on two study folders.

For every condition both studies ran (by name) and every measure: each study's mean and interval,
and the difference of the means (B - A) with its percentile-bootstrap interval, each study's
seeds resampled on their own (:func:`town.studies.aggregate.bootstrap_difference`). An interval
that excludes 0 says the two differ beyond what their seeds' spread explains. Reads the folders'
``study.json``; writes nothing.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from ..errors import ConfigError
from .aggregate import bootstrap_difference

__all__ = ["is_study", "read_study", "contrast"]


def is_study(path: str | Path) -> bool:
    """Whether ``path`` is a folder (a study's; :func:`read_study` checks it holds one)."""
    return Path(path).is_dir()


def read_study(folder: str | Path) -> dict[str, Any]:
    """The compared part of the study in ``folder`` (its ``study.json``).

    Raises:
        ConfigError: naming the file when it is missing or is not a study report.
    """
    path = Path(folder) / "study.json"
    try:
        report = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise ConfigError(f"{path} not found: is {folder} a study's folder (`study` or `sweep` --out)?") from None
    except (ValueError, UnicodeDecodeError) as exc:
        raise ConfigError(f"{path}: not a study report ({exc})") from None
    if (not isinstance(report, dict) or not isinstance(report.get("conditions"), dict)
            or not isinstance(report.get("seeds"), list) or not isinstance(report.get("hours"), int | float)):
        raise ConfigError(f"{path}: not a study report (no conditions, seeds or hours); re-run the study to write one")
    for name, c in report["conditions"].items():
        if not (isinstance(c, dict) and isinstance(c.get("summary"), dict) and isinstance(c.get("runs"), dict)
                and all(isinstance(v, dict) for v in (*c["runs"].values(), *c["summary"].values()))):
            raise ConfigError(f"{path}: condition {name!r} has no summary or runs; re-run the study to write them")
    return report


def contrast(a: dict[str, Any], b: dict[str, Any]) -> dict[str, Any]:
    """Study ``b`` against study ``a``.

    Returns:
        ``{"a", "b": {"town", "hours", "seeds"}, "only_a", "only_b": [condition], "conditions":
        {name: {measure: {"a", "b": {"mean", "low", "high", "n"}, "difference", "low", "high"}}}}``
        for the conditions and measures both hold.
    """
    out: dict[str, Any] = {side: {k: r.get(k) for k in ("town", "hours", "seeds")} for side, r in (("a", a), ("b", b))}
    ca, cb = a["conditions"], b["conditions"]
    out["only_a"] = [c for c in ca if c not in cb]
    out["only_b"] = [c for c in cb if c not in ca]
    out["conditions"] = {}
    for name in (c for c in ca if c in cb):
        rows = {}
        for measure in (m for m in ca[name]["summary"] if m in cb[name]["summary"]):
            values = [[v for run in c[name]["runs"].values() if (v := run.get(measure)) is not None] for c in (ca, cb)]
            rows[measure] = {"a": ca[name]["summary"][measure], "b": cb[name]["summary"][measure],
                             **bootstrap_difference(*values)}
        out["conditions"][name] = rows
    return out
