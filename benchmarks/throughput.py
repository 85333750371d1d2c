"""Ticks per second of a recorded town, broken down by phase (25 personas, one game day).

Timers are wrapped around the engine's phases from outside (the engine is not edited): each phase
gets its *exclusive* wall time (time spent in a nested phase counts for the nested one, e.g. the
retrievals inside planning count as "retrieve"):

    perceive   town.mind.perceive (observing others; its memory writes count as "embed"/"record")
    retrieve   MemoryStream.retrieve (scoring + trace)
    embed      CachedEmbedder.embed (MiniLM or hashing, cache included)
    plan       plan_day, decide_action (day plan, decomposition, choosing the next step)
    reflect    maybe_reflect
    converse   want_to_talk, say_next_line, starting conversations
    record     RunWriter.handle / snapshot and Simulation.get_state (the run file)
    other      the rest of Simulation.step (moves, frames, event bus)

Usage:
    .venv/bin/python benchmarks/throughput.py --town smallville --hours 24 [--embedder hashing]
        [--profile]

Prints ticks per second, seconds per phase and their shares, the run file's size, and with
``--profile`` the top functions by own time (cProfile). No timed assertions: figures only.
"""

from __future__ import annotations

import argparse
import cProfile
import functools
import pstats
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from town import simulation as sim_module  # noqa: E402
from town.config import load_config  # noqa: E402
from town.embedding import CachedEmbedder  # noqa: E402
from town.memory.stream import MemoryStream  # noqa: E402
from town.recording.writer import RunWriter  # noqa: E402
from town.scenario import load_scenario  # noqa: E402
from town.simulation import conversations, decide, phases  # noqa: E402

PHASES = ("perceive", "retrieve", "embed", "plan", "reflect", "converse", "record", "other")


class PhaseTimer:
    """Exclusive wall time per phase, with nesting (a stack of open phases)."""

    def __init__(self):
        self.seconds = dict.fromkeys(PHASES, 0.0)
        self.calls = dict.fromkeys(PHASES, 0)
        self._stack: list[list] = []  # [phase, start, child seconds]

    def wrap(self, phase: str, fn):
        """``fn`` wrapped so that its exclusive time counts for ``phase``."""

        @functools.wraps(fn)
        def timed(*args, **kwargs):
            frame = [phase, time.perf_counter(), 0.0]
            self._stack.append(frame)
            try:
                return fn(*args, **kwargs)
            finally:
                elapsed = time.perf_counter() - frame[1]
                self._stack.pop()
                self.seconds[phase] += elapsed - frame[2]
                self.calls[phase] += 1
                if self._stack:
                    self._stack[-1][2] += elapsed

        return timed


def instrument(timer: PhaseTimer) -> type[sim_module.Simulation]:
    """Patch the phase functions where the simulation's modules look them up (module and class
    attributes); returns a Simulation whose own phases are timed."""
    for module, name, phase in (
        (decide, "perceive", "perceive"),
        (decide, "plan_day", "plan"),
        (decide, "decide_action", "plan"),
        (decide, "maybe_reflect", "reflect"),
        (decide, "want_to_talk", "converse"),
        (conversations, "say_next_line", "converse"),
    ):
        setattr(module, name, timer.wrap(phase, getattr(module, name)))
    Sim = sim_module.Simulation
    MemoryStream.retrieve = timer.wrap("retrieve", MemoryStream.retrieve)
    CachedEmbedder.embed = timer.wrap("embed", CachedEmbedder.embed)
    RunWriter.handle = timer.wrap("record", RunWriter.handle)
    RunWriter.snapshot = timer.wrap("record", RunWriter.snapshot)
    phases.TickPhases._invite = timer.wrap("converse", phases.TickPhases._invite)  # starting conversations
    return type("TimedSimulation", (Sim,), {
        "get_state": timer.wrap("record", Sim.get_state),
        "step": timer.wrap("other", Sim.step),
    })


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark and print its figures."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--town", default="smallville")
    parser.add_argument("--hours", type=float, default=24.0, help="game hours (default 24)")
    parser.add_argument("--embedder", default="minilm", choices=["minilm", "hashing"])
    parser.add_argument(
        "--profile", action="store_true", help="also print cProfile's top functions"
    )
    args = parser.parse_args(argv)

    timer = PhaseTimer()
    timed = instrument(timer)
    config = load_config(None, {"embedder": args.embedder})
    scenario = load_scenario(args.town)
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "bench.sqlite"
        started = time.perf_counter()
        sim = timed(scenario, config, run_path=path)
        setup = time.perf_counter() - started
        ticks = sim.clock.ticks_for(hours=args.hours)
        profiler = cProfile.Profile() if args.profile else None
        started = time.perf_counter()
        if profiler:
            profiler.enable()
        sim.run(ticks)
        if profiler:
            profiler.disable()
        wall = time.perf_counter() - started
        sim.close()
        size = sum(p.stat().st_size for p in Path(tmp).glob("bench.sqlite*"))

    print(
        f"{args.town}: {len(scenario.personas)} personas, {args.hours:g} game hours = {ticks} ticks, "
        f"embedder {args.embedder}"
    )
    print(
        f"set-up {setup:.1f} s; run {wall:.1f} s wall = {ticks / wall:.1f} ticks/s; "
        f"one game day = {8640 / (ticks / wall) / 60:.1f} min; run file {size / 1e6:.1f} MB "
        f"({size / 1e6 * 24 / args.hours:.0f} MB per game day)"
    )
    total = sum(timer.seconds.values())
    print(f"{'phase':10} {'seconds':>9} {'share':>7} {'calls':>9} {'ms/call':>8}")
    for phase in PHASES:
        s, n = timer.seconds[phase], timer.calls[phase]
        print(f"{phase:10} {s:9.2f} {s / total:7.1%} {n:9d} {1000 * s / max(n, 1):8.3f}")
    if profiler:
        print("\ntop functions by own time (cProfile):")
        pstats.Stats(profiler).sort_stats("tottime").print_stats(15)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
