"""`town evaluate` (and `--battery`): a recorded run's measures as tables, written to files."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from .options import check_hours


def _folder(args: argparse.Namespace) -> Path:
    """The evaluation's folder (``--out``, else beside the run), made before the interviews: one
    it cannot make was a bare "[Errno 20] Not a directory" after all of them."""
    from ..files import open_folder

    return open_folder(args.out or Path(args.run).with_suffix(".evaluation"), "the evaluation's folder")


def cmd_evaluate(args: argparse.Namespace) -> int:
    """`town evaluate`: interview every persona, print the tables, write report.json + PNG plots."""
    if args.battery:
        return cmd_battery(args)
    from rich.console import Console
    from rich.table import Table

    from ..analysis.evaluate import diffusion_rows, evaluate, format_summary, write_report
    from ..analysis.recorded import NamedModel, load_embedder, run_backend, scripted_note
    from ..recording import RunReader

    every = check_hours(args.every, "--every")
    named = NamedModel.from_args(args)
    with RunReader(args.run) as reader:
        out = _folder(args)
        note = scripted_note(reader, named)
        parts = run_backend(reader, named)
        try:
            report = evaluate(reader, every_hours=every, backend=parts, embedder=load_embedder(reader, named))
        finally:
            parts.backend.close()
    paths = write_report(report, out)
    console = Console(width=None if sys.stdout.isatty() else 140)
    ablate = report.get("ablate") or ""
    t = Table(title=f"{args.run}: {report['personas']} personas, {report['hours']:.1f} game hours, "
                    f"answers by the {report['answered_by']} backend{', ablated: ' + ablate if ablate else ''}")
    for col in ("measure", "start", "end", "paper"):
        t.add_column(col)
    for row in format_summary(report):
        t.add_row(*row)
    console.print(t)
    if report["diffusion"]:
        header, rows = diffusion_rows(report)
        dt = Table(title="diffusion at each sample time: share who recall the news when asked "
                         "[upper bound: share holding a memory whose provenance leads to it]")
        for col in header:
            dt.add_column(col)
        for cells in rows:
            dt.add_row(*cells)
        console.print(dt)
    if args.interview:
        for name, d in report["diffusion"].items():
            it = Table(title=f"interviews at the end: {d['question']}")
            for col in ("persona", "recalled", "provenance", "answer"):
                it.add_column(col, overflow="fold")
            recalled = set(d["series"][-1]["recalled"])
            for pid, answer in d["answers"].items():
                it.add_row(pid, "yes" if pid in recalled else "-", "holds" if pid in d["knowers"] else "-",
                           answer)
            console.print(it)
    citations = sorted({d["paper"]["citation"] for d in report["diffusion"].values() if d.get("paper")}
                       | ({report["density"]["paper"]["citation"]} if report["density"].get("paper") else set()))
    if citations:
        console.print(f"paper figures from the town's probes.yaml ({'; '.join(citations)})")
    if note:
        console.print(f"note: {note}", highlight=False)
    console.print(f"written: {', '.join(str(p) for p in paths.values())}")
    return 0


def cmd_battery(args: argparse.Namespace) -> int:
    """`town evaluate --battery`: ask, grade, print per-category counts, write battery.json."""
    from rich.console import Console
    from rich.table import Table

    from ..analysis.battery_run import run_battery
    from ..analysis.recorded import NamedModel, run_backend, scripted_note
    from ..recording import RunReader

    named = NamedModel.from_args(args)
    with RunReader(args.run) as reader:
        out = _folder(args)
        note = scripted_note(reader, named)
        backend = run_backend(reader, named)
    result, path = run_battery(args.run, at=args.at, backend=backend, out_dir=out)
    s = result["summary"]
    t = Table(title=f"{args.run}: battery at {result['at']} ({result['backend']}"
                    f"{', ablated: ' + result['ablate'] if result['ablate'] else ''})")
    for col in ("category", "correct", "wrong", "don't know", "judge only", "accuracy"):
        t.add_column(col)
    for name, c in s["categories"].items():
        acc = "-" if c["accuracy"] is None else f"{c['accuracy']:.0%}"
        t.add_row(name, str(c["correct"]), str(c["wrong"]), str(c["dont_know"]), str(c["ungraded"]), acc)
    Console().print(t)
    Console().print(f"hallucinations: {s['hallucinations']} in {s['answers']} answers "
                    f"({s['stranger_answers']} about a stranger); written: {path}")
    if note:
        Console().print(f"note: {note}", highlight=False)
    return 0
