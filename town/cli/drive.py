"""Making a recorded simulation from the options and driving it to the end.

A progress bar, Ctrl-C saving what is done; the summary and the one line a stopped run leaves.
"""

from __future__ import annotations

import argparse
import signal
import sys
import time
from pathlib import Path

from ..recording.runs import remove_run
from ..runner import STOP_GRACE_S
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
    if meta:
        print(f"town: {describe(meta['model_server'], getattr(args, 'hours', None))}", file=sys.stderr, flush=True)
    config = parts.run_config(config)
    sim = Simulation(scenario, config, backend=parts.backend, stall=parts.stall, run_path=run_path)
    if meta and sim.writer is not None:
        sim.writer.set_meta(**meta)
    sim.bind_recorder(parts.recorder)
    return sim


def drive(sim, total: int, out: Path, *, quiet: bool) -> int:
    """Step ``sim`` ``total`` ticks with a progress bar; Ctrl-C finishes the tick and saves.

    Without a terminal (output to a file or a pipe), and unless ``quiet``, a plain progress line
    goes to stderr at every tenth of the ticks instead of the bar.

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
    started = time.perf_counter()
    completed = False
    # no terminal to draw a bar on (a log, a pipe): a plain line at every tenth of the run
    plain_every = 0 if quiet or console.is_terminal else max(1, total // 10)
    sim.end_at(sim.clock.tick + total)  # run-ahead runs no persona past the run's end
    try:
        with Progress(TextColumn("{task.description}"), BarColumn(), TextColumn("{task.completed}/{task.total} ticks"),
                      TextColumn("{task.fields[rate]} ticks/s"), TimeElapsedColumn(), console=console,
                      disable=quiet) as bar:
            task = bar.add_task("", total=total, rate="-")
            for i in range(total):
                if stop["requested"]:
                    break
                try:
                    sim.step()
                except RunStopped:
                    console.print(f"interrupted inside tick {sim.clock.tick}, which is not recorded; the run "
                                  "can be resumed from its last snapshot")
                    break
                if i % 60 == 0 or i == total - 1:
                    rate = (i + 1) / max(1e-9, time.perf_counter() - started)
                    bar.update(task, completed=i + 1, rate=f"{rate:,.0f}",
                               description=sim.clock.now.strftime("%a %d %b %H:%M"))
                if plain_every and ((i + 1) % plain_every == 0 or i == total - 1):
                    rate = (i + 1) / max(1e-9, time.perf_counter() - started)
                    console.print(f"town: {sim.clock.now:%a %d %b %H:%M}, tick {i + 1:,} of {total:,} "
                                  f"({100 * (i + 1) // total}%), {rate:,.0f} ticks/s", highlight=False)
            else:
                completed = True
    finally:
        signal.signal(signal.SIGINT, previous)
        signal.signal(signal.SIGTERM, previous_term)
        sim.close(finished=completed)
    _print_summary(out, time.perf_counter() - started)
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
