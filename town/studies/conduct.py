"""Conducting a study or a sweep: every condition with every seed, on the workers asked for.

:func:`plan_tasks` makes one :class:`~town.studies.task.RunTask` per condition and seed, each
with its whole configuration checked here first (a bad value fails before any run). The runs
whose result is in the folder already are skipped, so an interrupted study resumes.
:func:`conduct` runs the rest on this machine (:mod:`town.studies.pool`) or a Ray cluster
(:mod:`town.studies.cluster`), then gathers every result in condition and seed order, so the
report's compared part (:func:`town.studies.report.compared`) does not depend on how many
workers ran it or in what order they finished.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..errors import ConfigError
from .cluster import is_ray, run_on_ray
from .folder import check_reports
from .plan import Condition, run_name
from .pool import Outcome, run_here, run_in_processes
from .task import RunTask, check_not_foreign, read_result

__all__ = ["StudySpec", "StudyInterrupted", "parse_workers", "plan_tasks", "conduct"]


@dataclass(frozen=True)
class StudySpec:
    """What a study runs.

    Attributes:
        kind: "study" (conditions are ablations) or "sweep" (conditions are config values).
        town: town folder or name.
        hours: game hours per run.
        conditions: the conditions, in the order the report lists them.
        seeds: the seeds every condition runs with.
        out: the study's folder.
        config: a TOML configuration file for every run, or None.
        overrides: config keys for every run (``--set``, ``--backend``...), under each condition's.
        prompts: prompt overrides folder, or None; model_path: the local backend's GGUF file.
    """

    kind: str
    town: str
    hours: float
    conditions: list[Condition]
    seeds: list[int]
    out: Path
    config: str | None = None
    overrides: dict[str, Any] = field(default_factory=dict)
    prompts: str | None = None
    model_path: str | None = None


class StudyInterrupted(KeyboardInterrupt):
    """Ctrl-C stopped the study: ``finished`` of ``total`` runs are done and kept in ``out``."""

    def __init__(self, finished: int, total: int, out: Path):
        super().__init__(f"{finished} of {total} runs finished")
        self.finished, self.total, self.out = finished, total, out


#: The most local worker processes: each loads the libraries and the embedder (hundreds of MB), so
#: ``--workers 100000`` with as many runs started processes until the machine ran out of memory.
MAX_WORKERS = 64


def parse_workers(text: str) -> int | str:
    """``--workers``: a number of local processes (1 to :data:`MAX_WORKERS`), ``ray`` or ``ray://HOST:PORT``.

    Raises:
        ConfigError: naming ``--workers`` for anything else.
    """
    if is_ray(text):
        return text
    try:
        n = int(text)
    except ValueError:
        n = 0
    if n < 1:
        raise ConfigError(f"{text!r}: give a number of processes (1, 2, ...), ray or ray://HOST:PORT",
                          field="--workers")
    if n > MAX_WORKERS:
        raise ConfigError(f"{n:,} processes is more than {MAX_WORKERS}; each loads the libraries and the "
                          "embedder (use ray for more)", field="--workers")
    return n


def plan_tasks(spec: StudySpec) -> list[RunTask]:
    """One task per condition and seed, conditions outermost.

    Raises:
        ConfigError: for a bad configuration file or value (naming the key), or a condition name
            that makes no file name.
    """
    from ..config import load_config

    out = spec.out.resolve()
    prompts = str(Path(spec.prompts).resolve()) if spec.prompts else None
    model_path = str(Path(spec.model_path).resolve()) if spec.model_path else None
    tasks = []
    for condition in spec.conditions:
        for seed in spec.seeds:
            config = load_config(spec.config, {**spec.overrides, **condition.settings, "seed": seed})
            tasks.append(RunTask(name=run_name(condition.name, seed), condition=condition.name, seed=seed,
                                 town=spec.town, hours=spec.hours, config=config.to_dict(), out=str(out),
                                 prompts=prompts, model_path=model_path))
    return tasks


def conduct(spec: StudySpec, workers: int | str, *, quiet: bool = False) -> tuple[list[Outcome], dict[str, Any]]:
    """Run every run of ``spec`` not already done, with a progress bar of runs.

    Returns:
        (one :class:`Outcome` per run in condition and seed order, the driver's own figures:
        ``{"workers", "wall_s", "skipped"}``).

    Raises:
        ConfigError: see :func:`plan_tasks`; a folder holding runs of other settings or a file named
            like a run that the study did not record (:func:`~town.studies.task.check_not_foreign`), or a
            report no study wrote (:func:`~town.studies.folder.check_reports`); Ray missing.
        StudyInterrupted: on Ctrl-C, after the workers were stopped.
    """
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    tasks = plan_tasks(spec)
    spec.out.mkdir(parents=True, exist_ok=True)
    outcomes: dict[str, Outcome] = {}
    for task in tasks:
        result = read_result(task)
        if result is not None:
            outcomes[task.name] = Outcome(task, result, None, 0)
    skipped = len(outcomes)
    todo = [t for t in tasks if t.name not in outcomes]
    check_reports(spec.out)  # a file the study did not write is refused before any run
    for task in todo:
        check_not_foreign(task)
    started = time.perf_counter()
    with Progress(TextColumn("{task.description:<40}"), BarColumn(), MofNCompleteColumn(), TextColumn("runs"),
                  TimeElapsedColumn(), console=Console(stderr=True), disable=quiet) as bar:
        progress = bar.add_task(f"{spec.kind} on {workers} worker(s)", total=len(tasks), completed=skipped)

        def on_done(outcome: Outcome) -> None:
            outcomes[outcome.task.name] = outcome
            state = "failed" if outcome.error else "done"
            bar.update(progress, advance=1, description=f"{outcome.task.name} {state}")

        try:
            if workers == 1:
                run_here(todo, on_done)
            elif isinstance(workers, int):
                run_in_processes(todo, workers, on_done)
            else:
                run_on_ray(todo, workers, on_done)
        except KeyboardInterrupt:  # the workers are stopped: count what is on disk
            done = sum(read_result(t) is not None for t in tasks)
            raise StudyInterrupted(done, len(tasks), spec.out) from None
    driver = {"workers": str(workers), "wall_s": round(time.perf_counter() - started, 1), "skipped": skipped}
    return [outcomes[t.name] for t in tasks], driver
