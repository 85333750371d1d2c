"""The controlled study of Park et al. 2023 §6 as one command.

Each condition (the full architecture or an ablation) is simulated with the same town, hours
and seed; every persona of every run is asked the interview battery (:mod:`town.analysis.battery`) at the
same game time, graded against the run's own ground truth (:mod:`town.analysis.grading`) and, when a
judge model is given, ranked from pairwise judgements (:mod:`town.analysis.judge`). The paper's TrueSkill
figures are printed beside the measured ones. Writes ``study.json`` and ``study.png``.
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

from ..config import ABLATIONS
from ..errors import ConfigError

__all__ = ["PAPER_TRUESKILL", "condition_ablate", "run_study", "write_study", "table_rows"]

#: Park et al. 2023 §6.5 (Figure 8): TrueSkill (mu, sigma) of each condition; "human" is the
#: paper's human-written condition, which a simulation cannot reproduce.
PAPER_TRUESKILL = {
    "full": (29.89, 0.72),
    "no-reflection": (26.88, 0.69),
    "no-reflection-planning": (25.64, 0.68),
    "human": (22.95, 0.69),
    "no-observation-reflection-planning": (21.21, 0.70),
}

GRADED = ("self_knowledge", "memory", "plans")


def condition_ablate(name: str) -> str:
    """"full" -> ""; "no-reflection-planning" -> "planning,reflection" (the config key ``ablate``).

    Raises:
        ConfigError: naming ``--conditions`` for a name that is neither "full" nor "no-" followed
            by parts of :data:`town.config.ABLATIONS` joined by "-".
    """
    if name == "full":
        return ""
    parts = name.removeprefix("no-").split("-") if name.startswith("no-") else []
    if not parts or any(p not in ABLATIONS for p in parts):
        raise ConfigError(f"unknown condition {name!r}: use 'full' or 'no-' and parts of "
                          f"{', '.join(ABLATIONS)} joined by '-' (e.g. no-reflection-planning)",
                          field="--conditions")
    return ",".join(sorted(set(parts)))


def _simulate(town: str, hours: float, ablate: str, path: Path, overrides: dict, bar, task) -> float:
    """Simulate one condition into ``path`` with a progress bar; returns wall seconds."""
    from ..config import load_config
    from ..scenario import load_scenario
    from ..simulation import Simulation
    from ..thinking.factory import make_backend

    config = load_config(None, {**overrides, "ablate": ablate})
    scenario = load_scenario(town)
    parts = make_backend(config)
    sim = Simulation(scenario, config, backend=parts.backend, stall=parts.stall, run_path=path)
    sim.bind_recorder(parts.recorder)
    ticks = int(round(hours * 3600 / config.seconds_per_tick))
    started = time.perf_counter()
    bar.update(task, total=ticks)
    bar.start_task(task)
    finished = False
    try:
        for i in range(ticks):
            sim.step()
            if i % 60 == 0 or i == ticks - 1:
                bar.update(task, completed=i + 1)
        finished = True
    finally:
        sim.close(finished=finished)
    return time.perf_counter() - started


def run_study(town: str, hours: float, conditions: list[str], out_dir: str | Path, *,
              overrides: dict | None = None, judge=None, quiet: bool = False) -> dict[str, Any]:
    """Run, interview, grade (and judge) every condition; write ``study.json`` and ``study.png``.

    Args:
        town: town folder or name.
        hours: game hours per condition.
        conditions: names such as "full", "no-reflection" (:func:`condition_ablate`).
        out_dir: folder for ``<condition>.sqlite``, their ``.evaluation/battery.json`` and the study.
        overrides: configuration keys for every condition (seed, embedder, backend...).
        judge: a :class:`town.analysis.judge.Judge`, or None for the automatic grades only.
        quiet: no progress bars.

    Returns:
        The study: ``{"town", "hours", "seed", "at", "conditions": {name: {"ablate", "run",
        "simulate_s", "interview_s", "summary"}}, "ranking": {name: {"mu", "sigma"}} | None,
        "paper": PAPER_TRUESKILL}``.

    Raises:
        ConfigError: for a bad condition, or when a run file of the study exists already.
    """
    from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

    from .battery_run import run_battery

    ablates = {c: condition_ablate(c) for c in conditions}
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    for c in conditions:
        if (out / f"{c}.sqlite").exists():
            raise ConfigError(f"{out / (c + '.sqlite')} exists already; choose another --out", field="--out")
    overrides = dict(overrides or {})
    study: dict[str, Any] = {"town": town, "hours": hours, "seed": overrides.get("seed", 0), "conditions": {},
                             "paper": {k: {"mu": m, "sigma": s} for k, (m, s) in PAPER_TRUESKILL.items()},
                             "paper_citation": "Park et al. 2023 §6.5"}
    batteries = {}
    with Progress(TextColumn("{task.description:<36}"), BarColumn(), TextColumn("{task.completed}/{task.total} ticks"),
                  TimeElapsedColumn(), disable=quiet) as bar:
        tasks = {c: bar.add_task(c, total=1, start=False) for c in conditions}
        for c in conditions:
            path = out / f"{c}.sqlite"
            seconds = _simulate(town, hours, ablates[c], path, overrides, bar, tasks[c])
            started = time.perf_counter()
            battery, _ = run_battery(path)
            batteries[c] = battery
            study["at"] = battery["at"]
            study["conditions"][c] = {"ablate": ablates[c], "run": str(path), "simulate_s": round(seconds, 1),
                                      "interview_s": round(time.perf_counter() - started, 1),
                                      "summary": battery["summary"]}
    study["ranking"] = None
    if judge is not None:
        from ..scenario import load_scenario

        personas = {p.id: (p.name, f"{p.background} {p.lifestyle}") for p in load_scenario(town).personas}
        study["ranking"] = judge.rank(batteries, personas=personas)
    write_study(study, out)
    return study


def table_rows(study: dict[str, Any]) -> list[tuple[str, ...]]:
    """Rows for the printed table, one per condition.

    Cells: condition, accuracy (correct/graded) per graded category, hallucinations, the judge's
    mu +- sigma (or "-"), and the paper's TrueSkill mu.
    """
    rows = []
    for name, c in study["conditions"].items():
        cats = c["summary"]["categories"]
        cells = []
        for cat in GRADED:
            k = cats[cat]
            graded = k["correct"] + k["wrong"] + k["dont_know"]
            cells.append(f"{k['accuracy']:.0%} ({k['correct']}/{graded})" if k["accuracy"] is not None else "-")
        s = c["summary"]
        rank = (study.get("ranking") or {}).get(name)
        paper = study["paper"].get(name)
        rows.append((name, *cells, f"{s['hallucinations']}/{s['answers']}",
                     f"{rank['mu']:.2f} ± {rank['sigma']:.2f}" if rank else "-",
                     f"{paper['mu']:.2f}" if paper else "-"))
    return rows


def write_study(study: dict[str, Any], out_dir: str | Path) -> dict[str, Path]:
    """Write ``study.json`` and ``study.png`` (accuracy per graded category, one bar per condition)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    paths = {"json": out / "study.json", "png": out / "study.png"}
    paths["json"].write_text(json.dumps(study, indent=1))
    names = list(study["conditions"])
    fig, ax = plt.subplots(figsize=(8, 4))
    width = 0.8 / max(1, len(names))
    for i, name in enumerate(names):
        cats = study["conditions"][name]["summary"]["categories"]
        values = [cats[c]["accuracy"] or 0.0 for c in GRADED]
        ax.bar([x + i * width for x in range(len(GRADED))], values, width, label=name)
    ax.set_xticks([x + width * (len(names) - 1) / 2 for x in range(len(GRADED))], [c.replace("_", " ") for c in GRADED])
    ax.set_ylim(0, 1)
    ax.set_ylabel("share of graded answers correct")
    ax.set_title(f"{study['town']}, {study['hours']:g} game hours: interview battery by condition")
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(paths["png"], dpi=100)
    plt.close(fig)
    return paths
