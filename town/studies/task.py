"""One run of a study, in whatever process runs it: simulate, interview, measure, write the result.

:func:`perform` is what a local worker process or a Ray task calls. It needs only the
:class:`RunTask` (plain, picklable values) and writes into the study's folder: the run file
``<name>.sqlite``, ``<name>.evaluation/battery.json`` and ``report.json``, and last
``<name>.evaluation/result.json``, whose presence marks the run done (:func:`read_result`), so an
interrupted study resumes where it stopped. A run file left unfinished (a worker killed, Ctrl-C)
is removed and simulated again from the start, which gives the same run; only a run file the
study recorded as its own (:mod:`town.studies.folder`) is ever removed, under its writer lock.
Every report is written atomically (:func:`town.files.write_atomically`).
"""

from __future__ import annotations

import json
import os
import socket
import time
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from ..analysis.recorded import flatten
from ..errors import ConfigError, RecordingError
from ..files import stale_part, write_atomically
from .folder import claim, owned, remove_own

__all__ = ["RunTask", "perform", "measures", "read_result", "result_path", "check_not_foreign"]

#: Config keys a model server's start-up check settles, so a recorded run may differ there.
_SETTLED = ("backend.structured", "backend.max_concurrency")


@dataclass(frozen=True)
class RunTask:
    """One run of a study (what a worker needs; paths must be reachable from the worker).

    Attributes:
        name: ``<condition>-s<seed>`` (:func:`town.studies.plan.run_name`).
        condition: the condition's name.
        seed: the run's seed (also in ``config``).
        town: town folder or name.
        hours: game hours to simulate.
        config: the run's whole configuration, :meth:`town.config.Config.to_dict`.
        out: the study's folder (absolute).
        prompts: a folder of prompt overrides (``--prompts``), or None.
        model_path: the local backend's GGUF file, or None.
    """

    name: str
    condition: str
    seed: int
    town: str
    hours: float
    config: dict[str, Any]
    out: str
    prompts: str | None = None
    model_path: str | None = None

    def identity(self) -> dict[str, Any]:
        """What makes the run's result: the fields above but the folder (stored in the result)."""
        return {k: v for k, v in asdict(self).items() if k != "out"}


def result_path(out: str | Path, name: str) -> Path:
    """``<out>/<name>.evaluation/result.json``."""
    return Path(out) / f"{name}.evaluation" / "result.json"


def read_result(task: RunTask) -> dict[str, Any] | None:
    """The task's finished result in its folder, or None when there is none yet.

    Raises:
        ConfigError: naming ``--out`` and the file when the folder holds a run of that name made
            with other settings (another town, hours or configuration), or a damaged result file.
    """
    path = result_path(task.out, task.name)
    try:
        result = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return None
    except (OSError, ValueError, UnicodeDecodeError) as exc:
        raise ConfigError(f"{path}: not a result file ({exc}); remove it to run {task.name} again",
                          field="--out") from None
    if not isinstance(result, dict) or not isinstance(result.get("measures"), dict):
        raise ConfigError(f"{path}: not a result file (no measures); remove it to run {task.name} again",
                          field="--out")
    if result.get("task") != task.identity():
        raise ConfigError(f"{path} is of a run with other settings (town, hours or configuration); "
                          "choose another --out", field="--out")
    return result


def _same_settings(recorded: dict | None, wanted: dict) -> bool:
    a, b = flatten(recorded or {}), flatten(wanted)
    return {k: v for k, v in a.items() if k not in _SETTLED} == {k: v for k, v in b.items() if k not in _SETTLED}


def _recorded(run: Path, damaged: dict | None) -> tuple[bool, dict | None]:
    """Whether run file ``run`` is finished, and its recorded configuration (``damaged`` when it
    is not a readable run: damaged while being written, or not a run at all; or when it holds no
    configuration yet: its writer killed while making it, before its meta was written)."""
    from ..recording import RunReader

    try:
        with RunReader(run) as reader:
            meta = reader.meta
            return bool(meta.get("finished")), meta.get("config", damaged)
    except RecordingError:
        return False, damaged


def check_not_foreign(task: RunTask) -> None:
    """Refuse a run file of the task's name that the study did not record
    (:func:`town.studies.folder.owned`), unless it is this very run, finished (then it is used as it is);
    with no run file, refuse its side files and any file in its ``<name>.evaluation/`` folder.

    Raises:
        ConfigError: naming the file, which is left as it is.
    """
    run = Path(task.out) / f"{task.name}.sqlite"
    if owned(run, task.identity()):
        return
    if not run.exists():
        sides = [side for suffix in ("-wal", "-shm", ".lock") if (side := Path(f"{run}{suffix}")).exists()]
        evaluation = run.with_suffix(".evaluation")
        if evaluation.is_dir():  # files in the run's evaluation folder that no study recorded
            for stale in [p for p in evaluation.iterdir() if stale_part(p)]:  # a dead writer's: never a record
                stale.unlink(missing_ok=True)
            sides += sorted(evaluation.iterdir())
        if sides:  # a run being created by someone else, or their leftovers: never taken over
            raise ConfigError(f"{sides[0]} is not a file this study recorded; it is left as it is: move it or "
                              "choose another --out", field="--out")
        return
    finished, recorded = _recorded(run, None)
    if not (finished and _same_settings(recorded, task.config)):
        raise ConfigError(f"{run} is not a run this study recorded; it is left as it is: move it or choose "
                          "another --out", field="--out")


def _kept_run(task: RunTask, run: Path) -> bool:
    """Whether ``run`` is this task's finished run; an unfinished one the study recorded is removed.

    Raises:
        ConfigError: naming the file when it is someone else's (:func:`check_not_foreign`) or was
            recorded with other settings.
        RecordingError: when another process is writing it.
    """
    check_not_foreign(task)
    if not run.exists():
        if owned(run, task.identity()):
            remove_own(run)  # side files of a run that died while being created
        return False
    finished, recorded = _recorded(run, task.config)  # damaged while being written: simulate it again
    if not _same_settings(recorded, task.config):
        raise ConfigError(f"{run} was recorded with other settings; choose another --out", field="--out")
    if not finished:
        remove_own(run)
    return finished


def _simulate(task: RunTask, run: Path) -> None:
    """Simulate ``task`` into ``run`` from the start.

    A model backend keeps one answer cache per seed beside the default one: the cache is keyed by
    the prompt, which holds no seed, so seeds sharing it would replay one another's answers.
    """
    from ..config import Config
    from ..scenario import load_scenario
    from ..simulation import Simulation
    from ..thinking.cache import default_cache_path
    from ..backends import make_backend

    config = Config.from_dict(task.config, file=f"the study's run {task.name}")
    scenario = load_scenario(task.town)
    cache = default_cache_path().with_name(f"answers-seed{task.seed}.sqlite")
    parts = make_backend(config, prompts_dir=task.prompts, model_path=task.model_path, cache_path=cache)
    sim = Simulation(scenario, parts.run_config(config), backend=parts.backend, stall=parts.stall, run_path=run)
    meta = parts.run_meta(config, len(scenario.personas))  # the speed measured, the importance calibration
    if meta and sim.writer is not None:
        sim.writer.set_meta(**meta)
    sim.bind_recorder(parts.recorder)
    finished = False
    try:
        sim.run(int(round(task.hours * 3600 / config.seconds_per_tick)))  # no tick past the end, run-ahead too
        finished = True
    finally:
        sim.close(finished=finished)


def measures(battery: dict[str, Any], report: dict[str, Any]) -> dict[str, float | None]:
    """The study's measures of one run, by name (None where a run has nothing to measure).

    ``self_knowledge``, ``memory``, ``plans``: the battery's accuracy (correct / graded);
    ``hallucinations``: their share of the battery's answers; ``density``: the relationship
    network density at the run's end; per probe ``diffusion:<probe>`` (the share who recall it
    when asked at the end) and, for a gathering, ``invited:<probe>`` and ``came:<probe>`` (the
    invited who came; None when the run ended before the gathering did).
    """
    summary = battery["summary"]
    out: dict[str, float | None] = {c: summary["categories"][c]["accuracy"]
                                    for c in ("self_knowledge", "memory", "plans")}
    out["hallucinations"] = summary["hallucinations"] / summary["answers"] if summary["answers"] else None
    out["density"] = report["density"]["end"]
    for probe, d in report["diffusion"].items():
        out[f"diffusion:{probe}"] = d["end"]
    end = report["moments"][-1]["time"]  # both "YYYY-MM-DD HH:MM:SS"
    for probe, a in report["attendance"].items():
        out[f"invited:{probe}"] = len(a["invited"])
        out[f"came:{probe}"] = len(a["invited_attended"]) if a["end"] <= end else None
    return out


def perform(task: RunTask) -> dict[str, Any]:
    """Simulate (unless its finished run is there), interview and measure one run; write its result.

    Returns:
        ``{"name", "condition", "seed", "task": RunTask.identity(), "measures": measures(...),
        "timing": {"simulate_s", "measure_s", "cpu_s", "host", "pid", "restarted"}}``;
        ``restarted``: an unfinished run file of this name was found and simulated again.

    Raises:
        ConfigError: for a run of this name made with other settings, a bad town or config.
        ThinkingError: when a model server cannot be reached.
    """
    from ..analysis.battery_run import run_battery
    from ..analysis.evaluate import evaluate
    from ..recording import RunReader

    out = Path(task.out)
    out.mkdir(parents=True, exist_ok=True)
    done = read_result(task)
    if done is not None:
        return done
    run = out / f"{task.name}.sqlite"
    cpu, started = time.process_time(), time.perf_counter()
    existed = run.exists()
    kept = _kept_run(task, run)
    if not kept:
        claim(run, task.identity())
        _simulate(task, run)
    simulated = time.perf_counter()
    battery, battery_file = run_battery(run)
    with RunReader(run) as reader:
        report = evaluate(reader, every_hours=task.hours)
    write_atomically(battery_file.parent / "report.json", json.dumps(report, indent=1))
    result = {"name": task.name, "condition": task.condition, "seed": task.seed, "task": task.identity(),
              "measures": measures(battery, report),
              "timing": {"simulate_s": round(simulated - started, 2),
                         "measure_s": round(time.perf_counter() - simulated, 2),
                         "cpu_s": round(time.process_time() - cpu, 2), "host": socket.gethostname(),
                         "pid": os.getpid(), "restarted": existed and not kept}}
    write_atomically(result_path(out, task.name), json.dumps(result, indent=1))  # whole or not at all
    return result
