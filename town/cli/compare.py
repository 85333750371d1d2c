"""`town compare`: two runs of one town side by side, or two study folders."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from ..errors import ConfigError


def _compare_studies(args: argparse.Namespace) -> int:
    """Two study folders: per condition and measure, both means and intervals and B - A."""
    import json

    from rich.console import Console
    from rich.table import Table

    from ..studies.contrast import contrast, read_study
    from ..studies.report import cell, label

    a, b = read_study(args.run_a), read_study(args.run_b)
    report = contrast(a, b)
    console = Console(width=None if sys.stdout.isatty() else 160)
    for side, path in (("a", args.run_a), ("b", args.run_b)):
        r = report[side]
        console.print(f"{side.upper()} {path}: {r['town']}, {r['hours']:g} game hours, {len(r['seeds'])} seeds",
                      highlight=False)
    for side in ("a", "b"):
        if report[f"only_{side}"]:
            console.print(f"only in {side.upper()}: {', '.join(report[f'only_{side}'])}", highlight=False)
    t = Table(title="mean [95% bootstrap interval]; B - A with its interval (* when it excludes 0)")
    for col in ("condition", "measure", "A", "B", "B - A"):
        t.add_column(col)
    for name, rows in report["conditions"].items():
        for measure, r in rows.items():
            if r["difference"] is None:
                diff = "-"
            else:
                diff = f"{r['difference']:+.3f}"
                if r["low"] is not None:
                    diff += f" [{r['low']:+.3f}, {r['high']:+.3f}]" + ("*" if r["low"] > 0 or r["high"] < 0 else "")
            t.add_row(name, label(measure), cell(measure, r["a"], len(a["seeds"])), cell(measure, r["b"], len(b["seeds"])),
                      diff)
    console.print(t)
    if args.json:
        Path(args.json).write_text(json.dumps(report, indent=1))
        console.print(f"written: {args.json}")
    return 0


def cmd_compare(args: argparse.Namespace) -> int:
    """`town compare`: print where two runs part and how their outcomes differ (or two studies)."""
    import json

    from ..studies.contrast import is_study

    if is_study(args.run_a) or is_study(args.run_b):
        if not (is_study(args.run_a) and is_study(args.run_b)):
            raise ConfigError(f"compare two run files or two study folders, not {args.run_a} and {args.run_b}",
                              field="run_b")
        return _compare_studies(args)

    from rich.console import Console
    from rich.table import Table

    from ..analysis.compare import (changes_text, compare, divergence_text, identity_text, over_time_rows,
                                    retrieval_text, span_note, span_text)
    from ..analysis.recorded import NamedModel, load_embedder, run_backend, scripted_note
    from ..recording import RunReader

    named = NamedModel.from_args(args)
    with RunReader(args.run_a) as a, RunReader(args.run_b) as b:
        if a.meta.get("town") != b.meta.get("town"):
            raise ConfigError(f"{args.run_a} is of {a.meta.get('town')!r} but {args.run_b} of "
                              f"{b.meta.get('town')!r}; compare runs of one town", field="run_b")
        notes = [n for n in (scripted_note(a, named), scripted_note(b, named)) if n]
        parts = run_backend(a, named)
        try:
            report = compare(a, b, backend=parts, embedder=load_embedder(a, named) if named.base_url else None)
        finally:
            parts.backend.close()
    console = Console(width=None if sys.stdout.isatty() else 140)
    for side, path in (("a", args.run_a), ("b", args.run_b)):
        console.print(f"{side.upper()} {path}: {identity_text(report[side])}; {span_text(report['span'][side])}",
                      highlight=False)
    changed = changes_text(report)
    console.print("configuration that differs: " + ("none" if not changed else "; ".join(changed)), highlight=False)
    note = span_note(report)
    if note:
        console.print(f"note: {note}", highlight=False)
    console.print(f"first diverging tick: {divergence_text(report)}")
    for line in notes:
        console.print(f"note: {line}", highlight=False)
    t = Table(title="side by side")
    for col in ("measure", "A", "B"):
        t.add_column(col)
    for name, c in report["diffusion"].items():
        t.add_row(f"{name}: knowing at the end", str(c["a"][-1] if c["a"] else 0), str(c["b"][-1] if c["b"] else 0))
    unseen = {"all": "", "part": " (ended during it)", "none": " (ended before it)"}
    for name, g in report["attendance"].items():
        t.add_row(f"{name}: came / invited", *(f"{len(g[s]['attended'])} / {len(g[s]['invited'])}"
                                               f"{unseen[g[s]['seen']]}" for s in "ab"))
    t.add_row("model requests", str(report["cost"]["a"]["requests"]), str(report["cost"]["b"]["requests"]))
    t.add_row("tokens", *(str(report["cost"][s]["tokens_in"] + report["cost"][s]["tokens_out"]) for s in "ab"))
    console.print(t)
    header, rows = over_time_rows(report)
    t = Table(title="over time: network density by interview, personas knowing each item by provenance")
    for col in header:
        t.add_column(col)
    for row in rows:
        t.add_row(*row)
    console.print(t)
    r = report["retrievals"]
    mean = "-" if r["mean_jaccard"] is None else f"{r['mean_jaccard']:.3f}"
    console.print(f"retrievals at the same tick, persona and purpose: {r['matched']}, identical top k "
                  f"{r['identical']}, mean Jaccard {mean}")
    if r["first_differing"]:
        console.print(f"first differing retrieval: {retrieval_text(r['first_differing'])}", highlight=False)
    if args.json:
        Path(args.json).write_text(json.dumps(report, indent=1))
        console.print(f"written: {args.json}")
    return 0
