"""Making a recorded simulation from the options and driving it to the end.

A progress bar, Ctrl-C saving what is done; the summary and the one line a stopped run leaves.
"""

from __future__ import annotations

import argparse
import signal
import sys
from pathlib import Path

from ..recording.runs import remove_run
from ..runner import STOP_GRACE_S
from . import progress
from .options import overrides

__all__ = ["build_simulation", "remove_run", "drive", "saved_line"]


def build_simulation(args: argparse.Namespace, run_path: Path):
    """Load the scenario and configuration named by ``args`` and create a recorded Simulation.

    Raises:
        ConfigError: for a bad town, configuration or option; RecordingError for a bad run path.
    """
    from ..config import load_config
    from ..scenario import load_scenario
    from ..simulation import Simulation
    from ..backends import make_backend
    from ..thinking.speed import describe

    config = load_config(args.config, overrides(args))
    scenario = load_scenario(args.town)
    # the model server is checked here, before the run file and its first tick
    parts = make_backend(config, prompts_dir=args.prompts, model_path=args.model_path)
    meta = parts.run_meta(config, len(scenario.personas))
    if "model_server" in meta:
        print(f"town: {describe(meta['model_server'], getattr(args, 'hours', None))}", file=sys.stderr, flush=True)
    if parts.calibration is not None and parts.calibration.fit is not None:  # (else nothing was measured)
        print(f"town: {parts.calibration.line()}", file=sys.stderr, flush=True)
    config = parts.run_config(config)
    sim = Simulation(scenario, config, backend=parts.backend, stall=parts.stall, run_path=run_path)
    if meta and sim.writer is not None:
        sim.writer.set_meta(**meta)
    sim.bind_recorder(parts.recorder)
    return sim


def drive(sim, total: int, out: Path, *, quiet: bool) -> int:
    """Step ``sim`` ``total`` ticks with a progress bar; Ctrl-C finishes the tick and saves.

    Without a terminal (output to a file or a pipe), and unless ``quiet``, a plain progress line
    goes to stderr at every tenth of the ticks instead of the bar. The pace is in game minutes
    per wall minute; a tick that waits long for a model says what the model is asked
    (:mod:`.progress`).

    A tick still waiting for the model :data:`STOP_GRACE_S` wall seconds after Ctrl-C is
    cancelled (``Simulation.cancel``): it is not recorded, and the run keeps its last snapshot.
    A tick that fails is not recorded either; the run is closed unfinished and the error raised.
    """
    import threading

    from rich.console import Console
    from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

    from ..errors import RunStopped

    stop = {"requested": False}

    def on_sigint(*_):
        if not stop["requested"]:
            stop["requested"] = True
            timer = threading.Timer(STOP_GRACE_S, sim.cancel)
            timer.daemon = True
            timer.start()

    previous = signal.signal(signal.SIGINT, on_sigint)
    previous_term = signal.signal(signal.SIGTERM, on_sigint)
    console = Console(stderr=True)
    started = shown = progress.now()
    completed = False
    # no terminal to draw a bar on (a log, a pipe): a plain line at every tenth of the run
    plain_every = 0 if quiet or console.is_terminal else max(1, total // 10)
    watch = None
    sim.end_at(sim.clock.tick + total)  # run-ahead runs no persona past the run's end
    try:
        with Progress(TextColumn("{task.description}"), BarColumn(), TextColumn("{task.completed}/{task.total} ticks"),
                      TextColumn("{task.fields[rate]} game min/min"), TimeElapsedColumn(), console=console,
                      disable=quiet) as bar:
            task = bar.add_task("", total=total, rate="-")
            recorder = sim.recorder
            if recorder is not None and not quiet:
                def say(text: str) -> None:
                    if plain_every:
                        console.print(f"town: {sim.clock.now:%a %d %b %H:%M}, tick {sim.clock.tick:,}: {text}",
                                      highlight=False, soft_wrap=True)
                    else:
                        bar.update(task, description=f"{sim.clock.now:%a %d %b %H:%M} {text}")
                watch = progress.Watch(recorder.live, say)
            for i in range(total):
                if stop["requested"]:
                    break
                if recorder is not None:
                    recorder.mark()
                if watch is not None:
                    watch.tick_started()
                try:
                    sim.step()
                except RunStopped:
                    console.print(f"interrupted inside tick {sim.clock.tick}, which is not recorded; the run "
                                  "can be resumed from its last snapshot")
                    break
                wall = progress.now()
                rate = progress.pace_text(progress.pace(i + 1, sim.clock.seconds_per_tick, wall - started))
                if i % 60 == 0 or i == total - 1 or wall - shown >= 1.0:
                    shown = wall
                    bar.update(task, completed=i + 1, rate=rate, description=sim.clock.now.strftime("%a %d %b %H:%M"))
                if plain_every and ((i + 1) % plain_every == 0 or i == total - 1):
                    console.print(f"town: {sim.clock.now:%a %d %b %H:%M}, tick {i + 1:,} of {total:,} "
                                  f"({100 * (i + 1) // total}%), {rate} game min/min", highlight=False, soft_wrap=True)
            else:
                completed = True
    finally:
        if watch is not None:
            watch.stop()
        signal.signal(signal.SIGINT, previous)
        signal.signal(signal.SIGTERM, previous_term)
        sim.close(finished=completed)
    _print_summary(out, progress.now() - started)
    if stop["requested"]:
        console.print(f"{saved_line(out)} (interrupted; `resume` continues it)", highlight=False)
    return 0


def saved_line(path: Path) -> str:
    """What a stopped run holds, in one line: "saved runs/X.sqlite: ticks 0..N, last snapshot at T".

    Raises:
        RecordingError: for a missing or damaged run file.
    """
    from ..recording import RunReader

    with RunReader(path) as reader:
        first, last, snapshots = reader.first_tick, reader.last_tick, reader.snapshots()
    ticks = "no ticks yet" if last is None else f"ticks {first}..{last}"
    snap = f"last snapshot at {snapshots[-1][1]}" if snapshots else "no snapshot"
    return f"saved {path}: {ticks}, {snap}"


def _print_summary(path: Path, seconds: float) -> None:
    from collections import Counter

    from rich.console import Console
    from rich.table import Table

    from ..events import EventKind
    from ..recording import RunReader

    with RunReader(path) as reader:
        table = Table(title=f"{path} ({seconds:.1f} s wall, ticks {reader.first_tick}..{reader.last_tick})")
        for col in ("persona", "memories", "retrievals", "reflections", "conversations"):
            table.add_column(col, justify="right" if col != "persona" else "left")
        kinds = (EventKind.MEMORY, EventKind.RETRIEVAL, EventKind.REFLECTION)
        counts = reader.event_counts(kinds)
        convs = Counter(pid for e in reader.events(kinds=[EventKind.CONVERSATION])
                        for pid in set(e.data["participants"]))
        for pid in reader.personas():
            table.add_row(pid, *(str(counts[(pid, k.value)]) for k in kinds), str(convs[pid]))
    Console().print(table)
