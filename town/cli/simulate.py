"""`town simulate`, `town resume` and `town fork`: the commands that run a town."""

from __future__ import annotations

import argparse
import sys
from datetime import datetime
from pathlib import Path

from ..analysis.recorded import flatten, run_span
from ..errors import ConfigError, TownError
from .drive import build_simulation, drive, remove_run
from .options import check_hours, set_pairs, ticks_for


def cmd_simulate(args: argparse.Namespace) -> int:
    """`town simulate`: run for --hours game hours with a progress bar, then print a summary."""
    out = Path(args.out)
    if out.exists():
        raise ConfigError(f"{out} already exists; choose another --out or remove it", field="--out")
    check_hours(args.hours)
    try:
        sim = build_simulation(args, out)
    except BaseException:  # Ctrl-C, a bad town, a full disk before the first snapshot
        remove_run(out)  # nothing worth keeping, nothing half-made left
        raise
    try:
        ticks = ticks_for(args.hours, sim.clock.seconds_per_tick)
    except ConfigError:
        sim.close()
        remove_run(out)
        raise
    return drive(sim, ticks, out, quiet=args.quiet)


def cmd_resume(args: argparse.Namespace) -> int:
    """`town resume`: drop what came after the last snapshot and simulate on for --hours."""
    from ..recording import RunReader, newest_snapshot
    from ..simulation import Simulation

    check_hours(args.hours)
    with RunReader(args.run) as reader:  # clear message for a missing or damaged file
        ticks = ticks_for(args.hours, int(reader.meta["seconds_per_tick"]))
        recorded = "persona_files" in reader.meta
    if not recorded:
        print(f"town: note: {args.run} was recorded before runs kept their persona files' fingerprints; "
              "persona files are not checked against it this time", file=sys.stderr, flush=True)
    # every check (town, persona files, model server, embedder) before the run is cut
    sim = Simulation.from_run(args.run, newest_snapshot(args.run))
    return drive(sim, ticks, Path(args.run), quiet=args.quiet)


def cmd_fork(args: argparse.Namespace) -> int:
    """`town fork`: copy a run up to the newest snapshot at or before --at, then simulate on.

    Raises:
        ConfigError: naming ``--at`` when it is after the end of the run's last tick.
    """
    from ..clock import parse_game_time
    from ..config import Config, load_config
    from ..recording import RunReader, newest_snapshot
    from ..simulation import Simulation

    at = parse_game_time(args.at, field="--at")
    check_hours(args.hours)
    out = Path(args.out)
    if out.exists():
        raise ConfigError(f"{out} already exists; choose another --out", field="--out")
    with RunReader(args.run) as reader:
        parent_config = reader.meta["config"]
        span = run_span(reader)
    if at > datetime.fromisoformat(span["end"]):
        raise ConfigError(f"{at:%Y-%m-%d %H:%M} is after the end of {args.run}, whose last tick ends at "
                          f"{span['end']}; fork at or before then", field="--at")
    over = set_pairs(args.set)
    if args.seed is not None:
        over["seed"] = args.seed
    config = (load_config(args.config, over) if args.config
              else load_config(None, {**flatten(parent_config), **over}) if over
              else Config.from_dict(parent_config))
    ticks = ticks_for(args.hours, config.seconds_per_tick)
    snapshot = newest_snapshot(args.run, at)
    try:
        sim = Simulation.from_run(args.run, snapshot, config=config, fork_to=out)
    except (TownError, KeyboardInterrupt):
        remove_run(out)  # leave no half-made fork behind
        raise
    return drive(sim, ticks, out, quiet=args.quiet)
