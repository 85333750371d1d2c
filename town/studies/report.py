"""A study's report: ``study.json`` (what is compared), ``study-timing.json``, ``study.md``, ``study.png``.

``study.json`` holds only what the runs measured: per condition each seed's measures and their
mean with a 95% bootstrap interval (:mod:`town.studies.aggregate`). It is the same, byte for
byte, whatever workers ran the study and in whatever order. Wall and CPU times, hosts, process
ids, attempts, errors and paths go to ``study-timing.json``. ``study.md`` is the table for a
README; ``study.png`` draws the means with their intervals as error bars.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from ..analysis.recorded import flatten
from ..errors import RecordingError
from ..files import write_atomically
from .aggregate import CONFIDENCE, RESAMPLES, summarise
from .conduct import StudySpec
from .plan import PAPER_TRUESKILL
from .pool import Outcome

__all__ = ["compared", "timing", "label", "cell", "table", "write_study", "write_timing"]

#: Measures that are counts of personas (the rest are shares between 0 and 1).
_COUNTS = ("invited:", "came:")


def compared(spec: StudySpec, outcomes: list[Outcome], *, ranking: dict | None = None) -> dict[str, Any]:
    """What a study found, and nothing about how it ran.

    Returns:
        ``{"kind", "town", "hours", "seeds", "settings" (the configuration every run shares,
        dotted keys), "conditions": {name: {"set", "runs": {seed: measures}, "failed": [seed],
        "summary": {measure: {"mean", "low", "high", "n"}}}}, "interval", "ranking"}``, and for a
        study ``"paper"`` (Park et al. 2023 §6.5's TrueSkill).
    """
    conditions: dict[str, Any] = {}
    for c in spec.conditions:
        mine = [o for o in outcomes if o.task.condition == c.name]
        runs = {o.task.seed: o.result["measures"] for o in mine if o.result is not None}
        conditions[c.name] = {"set": c.settings, "runs": {str(s): runs[s] for s in sorted(runs)},
                              "failed": [o.task.seed for o in mine if o.result is None],
                              "summary": summarise(runs)}
    varied = {"seed", *(k for c in spec.conditions for k in c.settings)}
    shared = {k: v for k, v in flatten(outcomes[0].task.config).items() if k not in varied} if outcomes else {}
    report: dict[str, Any] = {
        "kind": spec.kind, "town": spec.town, "hours": spec.hours, "seeds": spec.seeds, "settings": shared,
        "conditions": conditions,
        "interval": {"method": "percentile bootstrap over seeds", "confidence": CONFIDENCE, "resamples": RESAMPLES},
        "ranking": ranking}
    if spec.kind == "study":
        report["paper"] = {"citation": "Park et al. 2023 §6.5",
                           "trueskill": {k: {"mu": m, "sigma": s} for k, (m, s) in PAPER_TRUESKILL.items()}}
    return report


def timing(outcomes: list[Outcome], driver: dict[str, Any], out: Path) -> dict[str, Any]:
    """How the study ran: the driver's figures, then per run its times, host, attempts and error."""
    runs = {}
    for o in outcomes:
        row = dict((o.result or {}).get("timing") or {})
        row.update(run=str(Path(o.task.out) / f"{o.task.name}.sqlite"), attempts=o.attempts, error=o.error)
        runs[o.task.name] = row
    return {**driver, "out": str(out.resolve()),
            "runs_cpu_s": round(sum(r.get("cpu_s") or 0 for r in runs.values()), 1), "runs": runs}


def label(measure: str) -> str:
    """A measure's column name: "self_knowledge" -> "self-knowledge", "came:party" -> "party: came"."""
    if ":" in measure:
        kind, probe = measure.split(":", 1)
        return f"{probe.replace('_', ' ')}: {kind}"
    return measure.replace("_", "-")


def cell(measure: str, s: dict[str, Any], seeds: int) -> str:
    """"80% [73–87]" for a share, "0.367 [0.350–0.380]" for density, "17.2 [16.0–18.4]" for a count;
    the seed count follows when it is not ``seeds`` (a failed run); "-" without a value."""
    if s["mean"] is None:
        return "-"
    if measure.startswith(_COUNTS):
        fmt, unit = (lambda v: f"{v:.1f}"), ""
    elif measure == "density":
        fmt, unit = (lambda v: f"{v:.3f}"), ""
    else:
        fmt, unit = (lambda v: f"{100 * v:.0f}"), "%"
    text = f"{fmt(s['mean'])}{unit}"
    if s["low"] is not None:
        text += f" [{fmt(s['low'])}–{fmt(s['high'])}]"
    return text + (f" (n={s['n']})" if s["n"] != seeds else "")


def table(report: dict[str, Any]) -> tuple[list[str], list[list[str]]]:
    """(header, rows): one row per condition, one column per measure."""
    measures: dict[str, None] = {}
    for c in report["conditions"].values():
        measures.update(dict.fromkeys(c["summary"]))
    n = len(report["seeds"])
    rows = [[name, *(cell(m, c["summary"][m], n) if m in c["summary"] else "-" for m in measures)]
            for name, c in report["conditions"].items()]
    return ["condition", *(label(m) for m in measures)], rows


def _markdown(report: dict[str, Any]) -> str:
    header, rows = table(report)
    seeds = report["seeds"]
    lines = [f"{report['kind'].capitalize()} of {report['town']}, {report['hours']:g} game hours, "
             f"{len(seeds)} seeds ({seeds[0]}–{seeds[-1]}) per condition: the mean over seeds "
             f"[{report['interval']['confidence']:.0%} interval, {report['interval']['method']}].", "",
             "| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    return "\n".join(lines) + "\n"


def _plot(report: dict[str, Any], path: Path) -> None:
    """Grouped bars (one per condition) of every measure's mean, its interval as the error bar."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    conditions = report["conditions"]
    measures = list(dict.fromkeys(m for c in conditions.values() for m in c["summary"]))
    if not measures:  # no run finished: nothing to draw
        return
    groups = [[m for m in measures if not m.startswith(_COUNTS)], [m for m in measures if m.startswith(_COUNTS)]]
    groups = [g for g in groups if g]
    fig, axes = plt.subplots(1, len(groups), figsize=(5 + 1.1 * len(measures), 4.2), squeeze=False,
                             gridspec_kw={"width_ratios": [len(g) for g in groups]})
    width = 0.8 / max(1, len(conditions))
    for ax, group in zip(axes[0], groups, strict=True):
        for i, (name, c) in enumerate(conditions.items()):
            stats = [c["summary"].get(m) or {"mean": None} for m in group]
            means = [s["mean"] if s["mean"] is not None else float("nan") for s in stats]
            err = [[m - s["low"] if s.get("low") is not None else 0 for m, s in zip(means, stats, strict=True)],
                   [s["high"] - m if s.get("high") is not None else 0 for m, s in zip(means, stats, strict=True)]]
            ax.bar([x + i * width for x in range(len(group))], means, width, yerr=err, capsize=3, label=name)
        ax.set_xticks([x + width * (len(conditions) - 1) / 2 for x in range(len(group))],
                      [label(m) for m in group], rotation=20, ha="right", fontsize=8)
        ax.set_ylabel("personas" if group[0].startswith(_COUNTS) else "share (density: 2|E| / (|V|(|V|-1)))")
        if not group[0].startswith(_COUNTS):
            ax.set_ylim(0, 1.05)
    axes[0][0].legend(fontsize=7)
    fig.suptitle(f"{report['town']}, {report['hours']:g} game hours, {len(report['seeds'])} seeds: mean and "
                 f"{report['interval']['confidence']:.0%} bootstrap interval", fontsize=10)
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)


def write_timing(how: dict[str, Any], out: Path) -> Path:
    """Write ``study-timing.json`` into ``out``, whole or not at all; returns its path.

    Raises:
        RecordingError: naming the file when it cannot be written (a full disk).
    """
    return write_atomically(out / "study-timing.json", json.dumps(how, indent=1, ensure_ascii=False) + "\n")


def write_study(report: dict[str, Any], how: dict[str, Any], out: Path) -> dict[str, Path]:
    """Write ``study.json``, ``study-timing.json``, ``study.md`` and ``study.png`` into ``out``; each
    appears whole or not at all (the plot only when a run finished).

    Raises:
        RecordingError: naming the file that cannot be written (a full disk).
    """
    paths = {"json": out / "study.json", "timing": out / "study-timing.json", "markdown": out / "study.md",
             "png": out / "study.png"}
    write_atomically(paths["json"], json.dumps(report, indent=1, ensure_ascii=False) + "\n")
    write_timing(how, out)
    write_atomically(paths["markdown"], _markdown(report))
    part = out / f".study.{os.getpid()}.part.png"
    try:
        _plot(report, part)
        if part.exists():
            os.replace(part, paths["png"])
    except OSError as exc:
        part.unlink(missing_ok=True)
        raise RecordingError(f"cannot write {paths['png']}: {exc.strerror or exc}") from None
    return paths
