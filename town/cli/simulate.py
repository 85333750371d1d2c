"""`town simulate`, `town resume` and `town fork`: the commands that run a town."""

from __future__ import annotations

import argparse
import sys
from datetime import datetime
from pathlib import Path

from ..analysis.recorded import NamedModel, run_span
from ..errors import ConfigError, TownError
from .continuing import continued_config
from .drive import build_simulation, drive, remove_run
from .options import check_hours, check_out, named_persona, set_pairs, ticks_for, whisper_pairs


def cmd_simulate(args: argparse.Namespace) -> int:
    """`town simulate`: run for --hours game hours with a progress bar, then print a summary."""
    out = check_out(args.out)
    if out.exists():
        raise ConfigError(f"{out} already exists; choose another --out or remove it", field="--out")
    check_hours(args.hours)
    pairs = whisper_pairs(args.whisper)
    try:
        sim = build_simulation(args, out)
    except BaseException:  # Ctrl-C, a bad town, a full disk before the first snapshot
        remove_run(out)  # nothing worth keeping, nothing half-made left
        raise
    try:
        ticks = ticks_for(args.hours, sim.clock.seconds_per_tick)
        whispers = [_whisper(pid, text, sim.personas) for pid, text in pairs]
    except ConfigError:
        sim.close()
        remove_run(out)
        raise
    for inp in whispers:  # queued as the viewer's whisper box queues them: applied before the first tick
        sim.inputs.submit(inp)
    return drive(sim, ticks, out, quiet=args.quiet)


def _whisper(pid: str, text: str, personas):
    """The whisper input (``town.simulation.inputs.Whisper``) for ``--whisper "PERSONA: text"``,
    checked as the viewer's is; ``personas``: the town's personas by id. The persona is named by
    its id or its full name, as `interview --persona` takes it (:func:`~.options.named_persona`).

    Raises:
        ConfigError: naming --whisper for an unknown persona or a text that shows nothing.
    """
    from ..simulation.inputs import parse_input

    names = {k: personas[k].name for k in sorted(personas)}
    pid = named_persona(names, pid, "--whisper", f"no persona {pid!r} in this town; one of:")
    try:
        inp = parse_input({"kind": "whisper", "persona": pid, "text": text})
    except ConfigError as exc:
        raise ConfigError(f"{pid}: the text {exc.reason}", field="--whisper") from None
    return inp


def cmd_resume(args: argparse.Namespace) -> int:
    """`town resume`: drop what came after the last snapshot and simulate on for --hours."""
    from ..recording import RunReader, newest_snapshot
    from ..simulation import Simulation

    check_hours(args.hours)
    with RunReader(args.run) as reader:  # clear message for a missing or damaged file
        ticks = ticks_for(args.hours, int(reader.meta["seconds_per_tick"]))
        recorded = "persona_files" in reader.meta
        named, more = _named(args)
        config = continued_config(args.run, reader.meta["config"], named, more_base_urls=more)
    if not recorded:
        print(f"town: note: {args.run} was recorded before runs kept their persona files' fingerprints; "
              "persona files are not checked against it this time", file=sys.stderr, flush=True)
    # every check (town, persona files, model server, embedder) before the run is cut
    sim = Simulation.from_run(args.run, newest_snapshot(args.run), config=config)
    return drive(sim, ticks, Path(args.run), quiet=args.quiet)


def _named(args: argparse.Namespace) -> tuple[NamedModel, list[str]]:
    """The model a resume or fork command line names, and its further ``--base-url`` values."""
    urls = args.base_url or []
    return NamedModel.from_args(args), list(urls[1:])


def cmd_fork(args: argparse.Namespace) -> int:
    """`town fork`: copy a run up to the newest snapshot at or before --at, then simulate on for
    --hours game hours, or (without it) to the end of the parent run, which it says.

    Raises:
        ConfigError: naming ``--at`` when it is after the end of the run's last tick.
    """
    from ..clock import hours_text, parse_game_time
    from ..recording import RunReader, newest_snapshot
    from ..simulation import Simulation

    at = parse_game_time(args.at, field="--at")
    if args.hours is not None:
        check_hours(args.hours)
    out = check_out(args.out)
    if out.exists():
        raise ConfigError(f"{out} already exists; choose another --out", field="--out")
    with RunReader(args.run) as reader:
        parent_config = reader.meta["config"]
        span = run_span(reader)
        parent_last = reader.last_tick
    if at > datetime.fromisoformat(span["end"]):
        raise ConfigError(f"{at:%Y-%m-%d %H:%M} is after the end of {args.run}, whose last tick ends at "
                          f"{span['end']}; fork at or before then", field="--at")
    over = set_pairs(args.set)
    if args.seed is not None:
        over["seed"] = args.seed
    named, more = _named(args)
    config = continued_config(args.run, parent_config, named, more_base_urls=more, over=over, config_file=args.config)
    snapshot = newest_snapshot(args.run, at)
    ticks = _fork_ticks(args, snapshot[0], parent_last, config.seconds_per_tick)
    try:
        sim = Simulation.from_run(args.run, snapshot, config=config, fork_to=out)
    except (TownError, KeyboardInterrupt):
        remove_run(out)  # leave no half-made fork behind
        raise
    if args.hours is None:
        hours = ticks * config.seconds_per_tick / 3600
        print(f"town: the fork runs {hours_text(hours)}, to the end of "
              f"{args.run} ({span['end'][:16]}); --hours N runs N game hours instead", file=sys.stderr, flush=True)
    return drive(sim, ticks, out, quiet=args.quiet)


def _fork_ticks(args: argparse.Namespace, snapshot_tick: int, parent_last: int | None, seconds_per_tick: int) -> int:
    """Ticks a fork simulates after its snapshot: ``--hours``, else up to the parent's last tick.

    Raises:
        ConfigError: naming --hours when the snapshot is the parent's end and no --hours is given.
    """
    if args.hours is not None:
        return ticks_for(args.hours, seconds_per_tick)
    ticks = (parent_last if parent_last is not None else snapshot_tick) - snapshot_tick
    if ticks < 1:
        raise ConfigError(f"the snapshot at or before --at is the end of {args.run}; pass --hours to go on "
                          "past it", field="--hours")
    return ticks
