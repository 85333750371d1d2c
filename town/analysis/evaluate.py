"""The evaluation report of a recorded run (Park et al. 2023 §7): JSON + PNG plots.

:func:`evaluate` interviews every persona of the run, as the paper did, and gathers the measures
of :mod:`town.analysis` (diffusion, relationships, attendance, stats): for each probe of the
town's ``probes.yaml`` (docs/scenario-files.md) the share who recall it at each sample moment,
beside the provenance upper bound, and the attendance of its gathering; the relationship network
density at the same sample moments; and the model-request cost. The paper's figures come from
the probes file, never from this module. :func:`write_report` writes ``report.json``,
``diffusion.png`` and ``density.png``. Reads the run file only; never writes to it.

Cost: one recorded stream is rebuilt per persona and moment, every question is embedded once
(in one batch), and each persona is asked every question due at a moment before the next
persona's stream is built. "Do you know <name>?" is asked only where the stream holds a memory
about that persona that is more than a sighting (:func:`town.analysis.relationships.holders`);
elsewhere no answer could count, so the density is the one asking every pair would give.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..errors import ConfigError
from ..scenario import NetworkProbe
from .attendance import attendance
from .diffusion import diffusion
from .interview import Interviewer
from .moments import moments, start_seq
from .provenance import knowledge, load_memories
from .relationships import acquainted, density, holders
from .stats import cost

if TYPE_CHECKING:
    from matplotlib.typing import ColorType

__all__ = ["evaluate", "write_report", "format_summary", "diffusion_rows"]


def run_scenario(reader, scenario=None):
    """``scenario``, else the town folder the run's meta names, loaded once; None when it won't load."""
    if scenario is None:
        from ..scenario import load_scenario

        folder = reader.meta.get("scenario")
        if not folder:
            return None
        try:
            scenario = load_scenario(folder)
        except ConfigError:
            return None
    return scenario


def _probes(scenario) -> tuple[tuple, NetworkProbe]:
    """The probes and network probe of ``scenario`` (none for None)."""
    if scenario is None:
        return (), NetworkProbe()
    return tuple(scenario.probes), getattr(scenario, "network", None) or NetworkProbe()


def evaluate(
    reader,
    *,
    scenario=None,
    probes: tuple[str, ...] | None = None,
    every_hours: float = 12.0,
    backend=None,
    embedder=None,
) -> dict[str, Any]:
    """Measure a recorded run by interviewing its personas (Park et al. 2023 §7.1).

    Args:
        reader: a :class:`town.recording.RunReader`.
        scenario: the run's :class:`town.scenario.Scenario` (default: loaded from the folder the
            run's meta names); gives the probes and the network probe. Without one, only the
            density and the cost are measured.
        probes: names of the probes to measure (default: all).
        every_hours: game hours between sample moments (besides the start and the end).
        backend: thinking backend that answers (default: the scripted backend; a run file's is never used).
        embedder: embedder for the questions (default: the run's, by its meta name).

    Returns:
        ``{"run", "town", "personas", "ablate" (parts switched off, "" = none), "hours",
        "answered_by", "moments": [Moment.to_dict()],
        "diffusion": {probe: metrics.diffusion(...) + {"paper"}}, "density":
        metrics.density(...) + {"question", "paper"}, "attendance": {probe:
        metrics.attendance(...) + {"paper"}}, "cost": metrics.cost(...)}``; ``paper`` is the
        probe file's figures (None when it has none).

    Raises:
        ConfigError: for a bad meta ``config`` or an unknown embedder.
        ThinkingError: when the model backend given cannot be reached.
    """
    scenario = run_scenario(reader, scenario)
    items, network = _probes(scenario)
    if probes is not None:
        items = tuple(p for p in items if p.name in probes)
    asker = Interviewer(reader, backend=backend, embedder=embedder, scenario=scenario)
    personas = reader.personas()
    names = asker.names
    when = moments(reader, every_hours)
    about = {b: network.question.replace("{name}", names[b]) for b in personas}
    asker.embed([p.question for p in items] + list(about.values()))
    memories = load_memories(reader)
    seeded_until = start_seq(reader)
    # Only a pair whose asked persona holds a memory about the other that is more than a sighting
    # can be acquainted (relationships.holders): the other pairs are not asked.
    held = holders(memories.values(), names, seeded_until)
    recall: dict[str, dict] = {p.name: {} for p in items}
    know: dict[tuple[int, str, str], bool] = {}
    for i, m in enumerate(when):
        for a in personas:
            for p in items:
                recall[p.name][(i, a)] = asker.ask(a, p.question, at=m.time, tick=m.tick, seq=m.seq)
            for b in personas:
                if held.get((a, b), m.seq) < m.seq:
                    answer = asker.ask(a, about[b], at=m.time, tick=m.tick, seq=m.seq)
                    know[(i, a, b)] = acquainted(answer, b, names[b], seeded_until)
    spent = cost(reader)
    report: dict[str, Any] = {
        "run": str(reader.path),
        "town": reader.meta.get("town"),
        "personas": len(personas),
        "ablate": reader.summary()["ablate"],
        "hours": spent["hours"],
        "answered_by": getattr(asker.backend, "name", type(asker.backend).__name__),
        "moments": [m.to_dict() for m in when],
        "diffusion": {},
        "density": {**density(when, know, names),
                    "question": network.question, "paper": network.paper},
        "attendance": {},
        "cost": spent,
    }
    for p in items:
        onsets = knowledge(reader, p.name, memories=memories)
        report["diffusion"][p.name] = {**diffusion(p, when, recall[p.name], personas, onsets),
                                       "paper": p.paper}
        g = p.gathering
        if g is not None:
            report["attendance"][p.name] = {
                **attendance(reader, p.name, place=g.place, start=g.start, end=g.end, host=g.host,
                             memories=memories),
                "paper": (p.paper or {}).get("attendance"),
            }
    return report


def _plot(lines: list[dict], *, title: str, ylabel: str, path: Path) -> None:
    """Plot ``lines`` into a PNG at ``path``.

    Each line is ``{"label", "hours", "shares", "style": "-" | "--" | "paper", "group"}``; lines
    of one group share a colour.
    """
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7, 4), dpi=100)
    colors: dict[str, ColorType] = {}
    for line in lines:
        kwargs: dict[str, Any] = {"label": line["label"], "linewidth": 2 if line["style"] == "-" else 1,
                                  "linestyle": line["style"], "marker": "o" if line["style"] == "-" else None}
        if line["style"] == "paper":  # two figures, start and end: markers, nothing in between
            kwargs.update(linestyle="none", marker="D", markersize=7, markerfacecolor="none")
        if line.get("group") in colors:
            kwargs["color"] = colors[line["group"]]
        (drawn,) = ax.plot(line["hours"], line["shares"], **kwargs)
        colors.setdefault(line.get("group", line["label"]), drawn.get_color())
    ax.set_xlabel("game hours since start")
    ax.set_ylabel(ylabel)
    ax.set_ylim(0, 1.02)
    ax.set_title(title)
    ax.grid(alpha=0.3)
    if lines:
        ax.legend(loc="upper left", fontsize=8)
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)


def _paper_line(paper: dict | None, key: str, hours: float, group: str) -> list[dict]:
    figures = (paper or {}).get(key)
    if paper is None or not figures:
        return []
    return [{"label": f"{group}: paper ({paper['citation']})", "hours": [0, hours],
             "shares": [figures["start"], figures["end"]], "style": "paper", "group": group}]


def write_report(report: dict[str, Any], out_dir: str | Path) -> dict[str, Path]:
    """Write ``report.json``, ``diffusion.png`` and ``density.png`` into ``out_dir``.

    The diffusion plot draws, per probe, the interview share (solid), the provenance upper
    bound (dashed) and the paper's start and end (open diamonds) when the probe file gives them.

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
    hours = report["hours"]
    lines = []
    for name, d in report["diffusion"].items():
        label = name.replace("_", " ")
        xs = [p["hour"] for p in d["series"]]
        lines.append({"label": f"{label}: recalled when asked", "hours": xs,
                      "shares": [p["share"] for p in d["series"]], "style": "-", "group": name})
        lines.append({"label": f"{label}: holds a memory (upper bound)", "hours": xs,
                      "shares": [p["bound_share"] for p in d["series"]], "style": "--", "group": name})
        lines.extend(_paper_line(d.get("paper"), "diffusion", hours, name))
    _plot(lines, title="Information diffusion", ylabel="share of personas", path=paths["diffusion"])
    den = report["density"]
    _plot([{"label": "density (interviews)", "hours": [p["hour"] for p in den["series"]],
            "shares": [p["share"] for p in den["series"]], "style": "-", "group": "density"},
           *_paper_line(den.get("paper"), "density", hours, "density")],
          title="Relationship network density", ylabel="density 2|E| / (|V|(|V|-1))",
          path=paths["density"])
    return paths


def _paper_cell(paper: dict | None, key: str, fmt: str) -> str:
    figures = (paper or {}).get(key)
    if not figures:
        return ""
    return f"{format(figures['start'], fmt)} -> {format(figures['end'], fmt)}"


def format_summary(report: dict[str, Any]) -> list[tuple[str, str, str, str]]:
    """The report as rows (measure, start, end, paper) for printing."""
    rows = []
    for name, d in report["diffusion"].items():
        n = d["personas"]
        b = d["bound"]
        rows.append((f"diffusion: {name} (recalled when asked)",
                     f"{d['start']:.0%} ({d['start_count']}/{n})", f"{d['end']:.0%} ({d['end_count']}/{n})",
                     _paper_cell(d.get("paper"), "diffusion", ".0%")))
        rows.append((f"  upper bound: holds a memory of {name}",
                     f"{b['start']:.0%} ({b['start_count']}/{n})", f"{b['end']:.0%} ({b['end_count']}/{n})", ""))
    den = report["density"]
    rows.append(("network density (interviews)", f"{den['start']:.3f} ({den['edges_start']} edges)",
                 f"{den['end']:.3f} ({den['edges_end']} edges)", _paper_cell(den.get("paper"), "density", ".3f")))
    for name, a in report["attendance"].items():
        paper = a.get("paper")
        rows.append((f"{name}: invited / of them came", f"{len(a['invited'])} invited",
                     f"{len(a['invited_attended'])} came ({len(a['attended'])} guests in all)",
                     f"{paper['invited']:.0f} invited, {paper['came']:.0f} came" if paper else ""))
    total = report["cost"]["total"]
    rows.append(("model requests per game hour", "",
                 f"{total['requests_per_hour']:.1f} ({total['tokens_per_hour']:.0f} tokens/h)", ""))
    return rows


def diffusion_rows(report: dict[str, Any]) -> tuple[list[str], list[list[str]]]:
    """Diffusion at each sample moment: (column names, rows of "recalled (upper bound)" cells)."""
    names = list(report["diffusion"])
    header = ["game hour", "time", *(f"{n}: recalled (upper bound)" for n in names)]
    rows = []
    for i, m in enumerate(report["moments"]):
        cells = [f"{m['hour']:g}", m["time"][:16]]
        for n in names:
            p = report["diffusion"][n]["series"][i]
            cells.append(f"{p['share']:.0%} ({p['count']}) [{p['bound_share']:.0%} ({p['bound_count']})]")
        rows.append(cells)
    return header, rows
