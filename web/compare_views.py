"""The study's views (Blueprint ``compare``): two saved runs side by side, and a run's battery.

Pages: ``GET /compare/<a>/<b>`` (:func:`town.analysis.compare.compare`); ``GET /battery/<name>``: the
interview battery written by ``evaluate --battery`` (``<run>.evaluation/battery.json``), each
answer with its grade and retrieved memories. API: ``GET /api/compare/<a>/<b>`` (404 for an
unknown or refused name, 422 for a damaged run or runs of different towns) and
``GET /api/runs/<name>/battery`` (``{"battery": battery.json or null, "ask": the command that
writes it, naming the run's own file}``; 404 only for an unknown run). Runs are only read, by
name through :func:`web.run_files.open_named`.
"""

from __future__ import annotations

import json
import shlex
from pathlib import Path

from flask import Blueprint, jsonify, render_template

from town.analysis.compare import compare

from .params import fail
from .run_files import open_named

__all__ = ["bp"]

bp = Blueprint("compare", __name__)


@bp.get("/compare/<a>/<b>")
def compare_page(a: str, b: str):
    """The comparison page (the data comes from the API)."""
    with open_named(a), open_named(b):
        pass  # 404 / 422 before the page is served
    return render_template("compare.html", a=a, b=b)


@bp.get("/api/compare/<a>/<b>")
def compare_api(a: str, b: str):
    """:func:`town.analysis.compare.compare` of runs ``a`` and ``b``."""
    with open_named(a) as ra, open_named(b) as rb:
        if ra.meta.get("town") != rb.meta.get("town"):
            fail(422, f"{a} is of {ra.meta.get('town')!r} but {b} of {rb.meta.get('town')!r}")
        return jsonify(compare(ra, rb))


def battery_of(name: str) -> tuple[dict | None, str]:
    """The run's ``battery.json`` (``<run>.evaluation/``) or None, and the command that writes it.

    The command names the run file as found in the runs folder: relative to the working
    directory when it lies inside it (``runs/x.sqlite``), else in full (``demo --runs DIR``).
    """
    with open_named(name) as reader:
        run = Path(reader.path)
    try:
        shown = run.resolve().relative_to(Path.cwd().resolve())
    except ValueError:
        shown = run
    ask = f"python run.py evaluate {shlex.quote(str(shown))} --battery"
    path = run.with_suffix(".evaluation") / "battery.json"
    if not path.is_file():
        return None, ask
    try:
        return json.loads(path.read_text()), ask
    except (OSError, ValueError) as exc:
        fail(422, f"{path}: not a readable battery ({exc})")


@bp.get("/api/runs/<name>/battery")
def battery_api(name: str):
    """The run's graded interview battery, or null when it has none yet (not an HTTP error)."""
    battery, ask = battery_of(name)
    return jsonify({"battery": battery, "ask": ask})


@bp.get("/battery/<name>")
def battery_page(name: str):
    """The run's battery: every answer with its grade and the memories it was given."""
    battery, ask = battery_of(name)
    return render_template("battery.html", name=name, battery=battery, ask=ask)
