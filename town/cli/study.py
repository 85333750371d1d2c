"""`town study`: the paper's controlled study, one run per condition, graded and ranked."""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from ..errors import ConfigError
from .options import check_hours, overrides


def cmd_study(args: argparse.Namespace) -> int:
    """`town study`: run, interview and grade each condition; print the table beside the paper's."""
    from rich.console import Console
    from rich.table import Table

    from ..analysis.study import condition_ablate, run_study, table_rows

    check_hours(args.hours)
    conditions = [c.strip() for c in args.conditions.split(",") if c.strip()]
    for c in conditions:
        condition_ablate(c)  # a bad name fails before any run
    judge = None
    if args.judge_base_url or args.judge_model:
        if not (args.judge_base_url and args.judge_model):
            raise ConfigError("give both --judge-base-url and --judge-model", field="--judge-model")
        from ..analysis.judge import Judge

        judge = Judge(args.judge_base_url, args.judge_model, api_key_env=args.judge_api_key_env)
    if args.ablate:
        raise ConfigError("the study sets each condition's ablations; drop --ablate", field="--ablate")
    started = time.perf_counter()
    study = run_study(args.town, args.hours, conditions, args.out, overrides=overrides(args), judge=judge,
                      quiet=args.quiet)
    t = Table(title=f"{study['town']}, {args.hours:g} game hours, seed {study['seed']}, interviews at "
                    f"{study['at']} ({time.perf_counter() - started:.0f} s)")
    for col in ("condition", "self-knowledge", "memory", "plans", "hallucinations", "judge μ ± σ",
                "paper TrueSkill μ"):
        t.add_column(col)
    for row in table_rows(study):
        t.add_row(*row)
    console = Console(width=None if sys.stdout.isatty() else 140)
    console.print(t)
    console.print(f"paper ({study['paper_citation']}): human-written condition μ {study['paper']['human']['mu']}; "
                  f"written: {Path(args.out) / 'study.json'}, {Path(args.out) / 'study.png'}")
    return 0
