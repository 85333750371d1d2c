"""`town study` and `town sweep`: every condition with N seeds, on local processes or Ray; the report."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from ..errors import ConfigError
from .options import check_hours, overrides

#: The most seeds a condition takes (``--seeds``): a thousand runs per condition is already days.
MAX_SEEDS = 1_000


def _judge(args: argparse.Namespace):
    """The judge model the options name, or None."""
    if not (args.judge_base_url or args.judge_model):
        return None
    if not (args.judge_base_url and args.judge_model):
        raise ConfigError("give both --judge-base-url and --judge-model", field="--judge-model")
    from ..analysis.judge import Judge

    return Judge(args.judge_base_url, args.judge_model, api_key_env=args.judge_api_key_env)


def _rank(judge, spec, outcomes) -> dict | None:
    """The judge's ratings of the conditions, from each condition's first seed's battery."""
    import json

    from ..scenario import load_scenario

    first = {}
    for o in outcomes:
        if o.result is not None and o.task.condition not in first:
            path = Path(o.task.out) / f"{o.task.name}.evaluation" / "battery.json"
            first[o.task.condition] = json.loads(path.read_text(encoding="utf-8"))
    personas = {p.id: (p.name, f"{p.background} {p.lifestyle}") for p in load_scenario(spec.town).personas}
    return judge.rank(first, personas=personas)


def _conduct(args: argparse.Namespace, kind: str, conditions, judge=None) -> int:
    """Run ``conditions`` x seeds as the options say, write the report, print its table."""
    from rich.console import Console
    from rich.table import Table

    from ..config import load_config
    from ..studies.conduct import StudyInterrupted, StudySpec, conduct, parse_workers
    from ..studies.folder import hold, open_folder
    from ..studies.report import compared, table, timing, write_study, write_timing

    check_hours(args.hours)
    if args.seeds < 1:
        raise ConfigError(f"must be a number of seeds >= 1, got {args.seeds}", field="--seeds")
    if args.seeds > MAX_SEEDS:  # 10^20 was an OverflowError traceback in range()
        raise ConfigError(f"must be at most {MAX_SEEDS:,} seeds, got {args.seeds:,}", field="--seeds")
    workers = parse_workers(args.workers)
    over = overrides(args)
    first = int(over.pop("seed")) if "seed" in over else load_config(args.config).seed
    spec = StudySpec(kind=kind, town=args.town, hours=args.hours, conditions=conditions,
                     seeds=list(range(first, first + args.seeds)), out=open_folder(args.out), config=args.config,
                     overrides=over, prompts=args.prompts, model_path=args.model_path)
    console = Console(width=None if sys.stdout.isatty() else 200)
    with hold(spec.out):  # one study at a time in a folder, its runs and its report
        try:
            outcomes, driver = conduct(spec, workers, quiet=args.quiet)
        except StudyInterrupted as stop:
            console.print(f"interrupted: {stop.finished} of {stop.total} runs finished, kept in {stop.out}; "
                          "the same command goes on from there", highlight=False)
            return 130
        failed = [o for o in outcomes if o.error is not None]
        if len(failed) == len(outcomes):
            for o in failed:
                console.print(f"failed: {o.task.name}: {o.error}", highlight=False)
            path = write_timing(timing(outcomes, driver, spec.out), spec.out)
            console.print(f"no run finished: nothing to compare; the errors are in {path}", highlight=False)
            return 1
        ranking = _rank(judge, spec, outcomes) if judge is not None else None
        report = compared(spec, outcomes, ranking=ranking)
        paths = write_study(report, timing(outcomes, driver, spec.out), spec.out)
    header, rows = table(report)
    t = Table(title=f"{kind} of {args.town}, {args.hours:g} game hours, {args.seeds} seed(s) per condition: "
                    f"mean [95% bootstrap interval] ({driver['wall_s']:.0f} s on {driver['workers']} worker(s))")
    extra = ["judge μ ± σ", "paper TrueSkill μ"] if kind == "study" else []
    for col in header + extra:
        t.add_column(col, overflow="fold")
    for name, row in zip(report["conditions"], rows, strict=True):
        if kind == "study":
            rank, paper = (ranking or {}).get(name), report["paper"]["trueskill"].get(name)
            row = [*row, f"{rank['mu']:.2f} ± {rank['sigma']:.2f}" if rank else "-", f"{paper['mu']:.2f}" if paper else "-"]
        t.add_row(*row)
    console.print(t)
    for o in failed:
        console.print(f"failed: {o.task.name}: {o.error}", highlight=False)
    console.print(f"written: {', '.join(str(p) for p in paths.values())}", highlight=False)
    return 1 if failed else 0


def cmd_study(args: argparse.Namespace) -> int:
    """`town study`: the paper's conditions (ablations), each with ``--seeds`` seeds."""
    from ..studies.plan import study_conditions

    conditions = study_conditions(args.conditions)  # a bad name fails before any run
    if args.ablate:
        raise ConfigError("the study sets each condition's ablations; drop --ablate", field="--ablate")
    return _conduct(args, "study", conditions, judge=_judge(args))


def cmd_sweep(args: argparse.Namespace) -> int:
    """`town sweep`: every combination of the ``--vary`` values, each with ``--seeds`` seeds."""
    from ..studies.plan import parse_vary, sweep_conditions

    return _conduct(args, "sweep", sweep_conditions(parse_vary(args.vary)))
