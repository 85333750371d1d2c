"""The evaluation report of a recorded run (Park et al. 2023 §7): JSON + PNG plots.

:func:`evaluate` gathers the measures of :mod:`town.metrics` for every news item of the run's
town: information diffusion over game time, relationship network density, attendance of each
gathering, and model-call cost. With ``interview=True`` every persona is also asked a fixed
question per news item at the end of the run (:func:`town.interview.interview`), and the answer
is listed beside the provenance verdict. :func:`write_report` writes ``report.json``,
``diffusion.png`` and ``density.png``. Reads the run file only; never writes to it.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from .errors import ConfigError
from .metrics import attendance, cost, density, diffusion, load_memories

__all__ = ["evaluate", "write_report", "interview_question", "format_summary"]


def interview_question(tag: str) -> str:
    """The fixed interview question asked about news item ``tag`` ("Do you know about the party?")."""
    return f"Do you know about the {tag.replace('_', ' ')}?"


def _news(reader, scenario) -> tuple:
    """The run's evaluation probes: from ``scenario``, else from the town folder in the meta."""
    if scenario is None:
        from .scenario import load_scenario

        folder = reader.meta.get("scenario")
        if not folder:
            return ()
        try:
            scenario = load_scenario(folder)
        except ConfigError:
            return ()
    return tuple(scenario.probes)


def evaluate(
    reader,
    *,
    scenario=None,
    tags: tuple[str, ...] | None = None,
    interview: bool = False,
    backend=None,
    embedder=None,
) -> dict[str, Any]:
    """Measure a recorded run.

    Args:
        reader: a :class:`town.recording.RunReader`.
        scenario: the run's :class:`town.scenario.Scenario` (default: loaded from the folder the
            run's meta names); gives the news tags and gatherings.
        tags: news tags to measure (default: every news item of the scenario).
        interview: also interview every persona about each item at the end of the run.
        backend: thinking backend for interviews (default: scripted).
        embedder: embedder for interview queries (default: the run's, by its meta name).

    Returns:
        ``{"run", "town", "personas", "hours", "diffusion": {tag: metrics.diffusion(...)},
        "density": metrics.density(...), "attendance": {tag: metrics.attendance(...)},
        "cost": metrics.cost(...), "interviews": {tag: [{"persona", "question", "answer",
        "says_knows", "knows"}]}}`` (``interviews`` only with ``interview=True``).
    """
    news = _news(reader, scenario)
    tags = tuple(tags) if tags is not None else tuple(n.name for n in news)
    memories = load_memories(reader)
    spent = cost(reader)
    report: dict[str, Any] = {
        "run": str(reader.path),
        "town": reader.meta.get("town"),
        "personas": len(reader.personas()),
        "hours": spent["hours"],
        "diffusion": {t: diffusion(reader, t, memories=memories) for t in tags},
        "density": density(reader, memories=memories),
        "attendance": {},
        "cost": spent,
    }
    for item in news:
        g = item.gathering
        if g is not None and item.name in tags:
            report["attendance"][item.name] = attendance(
                reader,
                item.name,
                place=g.place,
                start=g.start,
                end=g.end,
                host=g.host,
                memories=memories,
            )
    if interview:
        report["interviews"] = _interviews(reader, report, tags, backend, embedder)
    return report


def _interviews(reader, report, tags, backend, embedder) -> dict[str, list[dict[str, Any]]]:
    from .interview import interview as ask
    from .interview import load_embedder, says_yes

    embedder = embedder or load_embedder(reader)
    at = reader.frame(reader.last_tick)["time"]
    out: dict[str, list[dict[str, Any]]] = {}
    for tag in tags:
        knowers = report["diffusion"][tag]["knowers"]
        rows = []
        for pid in reader.personas():
            result = ask(
                reader, pid, at, interview_question(tag), backend=backend, embedder=embedder
            )
            rows.append(
                {
                    "persona": pid,
                    "question": result.question,
                    "answer": result.answer,
                    "says_knows": says_yes(result.answer),
                    "knows": pid in knowers,
                }
            )
        out[tag] = rows
    return out


def _plot(
    series_by_label: dict[str, list[dict]],
    *,
    title: str,
    ylabel: str,
    path: Path,
    reference: dict[str, tuple[float, float]] | None = None,
) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7, 4), dpi=100)
    for label, series in series_by_label.items():
        ax.plot([p["hour"] for p in series], [p["share"] for p in series], label=label, linewidth=2)
    for label, (start, end) in (reference or {}).items():
        hours = max((p["hour"] for s in series_by_label.values() for p in s), default=48)
        ax.plot([0, hours], [start, end], linestyle=":", color="grey", linewidth=1)
        ax.annotate(
            f"paper: {label}", (hours, end), fontsize=8, color="grey", ha="right", va="bottom"
        )
    ax.set_xlabel("game hours since start")
    ax.set_ylabel(ylabel)
    ax.set_ylim(0, 1.02)
    ax.set_title(title)
    ax.grid(alpha=0.3)
    if series_by_label:
        ax.legend(loc="lower right")
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)


#: Park et al. 2023 §7.1 figures (start share, end share) drawn as dotted reference lines.
PAPER = {"party": (0.04, 0.52), "candidacy": (0.04, 0.32), "density": (0.167, 0.74)}


def write_report(report: dict[str, Any], out_dir: str | Path) -> dict[str, Path]:
    """Write ``report.json``, ``diffusion.png`` and ``density.png`` into ``out_dir``.

    Returns:
        ``{"json", "diffusion", "density"}`` -> written paths.
    """
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    paths = {
        "json": out / "report.json",
        "diffusion": out / "diffusion.png",
        "density": out / "density.png",
    }
    paths["json"].write_text(json.dumps(report, indent=2, ensure_ascii=False), encoding="utf-8")
    diff = report["diffusion"]
    _plot(
        {t: d["series"] for t, d in diff.items()},
        title="Information diffusion",
        ylabel="share of personas who know",
        path=paths["diffusion"],
        reference={t: PAPER[t] for t in diff if t in PAPER},
    )
    _plot(
        {"density": report["density"]["series"]},
        title="Relationship network density",
        ylabel="density 2|E| / (|V|(|V|-1))",
        path=paths["density"],
        reference={"density": PAPER["density"]},
    )
    return paths


def format_summary(report: dict[str, Any]) -> list[tuple[str, str, str]]:
    """The report as rows (measure, start, end) for printing."""
    rows = []
    for tag, d in report["diffusion"].items():
        rows.append(
            (
                f"diffusion: {tag}",
                f"{d['start']:.0%} ({d['start_count']}/{d['personas']})",
                f"{d['end']:.0%} ({d['end_count']}/{d['personas']})",
            )
        )
    den = report["density"]
    rows.append(
        (
            "network density",
            f"{den['start']:.3f} ({den['edges_start']} edges)",
            f"{den['end']:.3f} ({den['edges_end']} edges)",
        )
    )
    for tag, a in report["attendance"].items():
        rows.append(
            (
                f"{tag}: invited / attended",
                f"{len(a['invited'])} invited",
                f"{len(a['invited_attended'])} of them came; {len(a['attended'])} guests in all",
            )
        )
    total = report["cost"]["total"]
    rows.append(
        (
            "model calls per game hour",
            "",
            f"{total['calls_per_hour']:.1f} ({total['tokens_per_hour']:.0f} tokens/h)",
        )
    )
    return rows
