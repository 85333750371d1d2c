"""What a large town costs: generated towns of N personas for a game day (scripted backend).

Run: ``.venv/bin/python benchmarks/scale.py [--sizes 250:48 1000:24] [--embedder minilm] [--phases]``

For each N (by default 250 personas for 48 game hours, then 1,000 for 24: about an hour and a
half of a quiet 2-core machine) it generates a town (``town.generator``, seed 1) and simulates
it for its game hours (``N:HOURS``; ``--hours`` for an N given alone) with the scripted backend, recording to a run file in a temporary folder, in a fresh
process (so peak RSS is that N's alone), as ``python run.py simulate --town TOWN --hours H --out
RUN --quiet`` does. Per N it prints:

- wall and CPU seconds of the run (user + system, all threads), the machine's mean 1-minute load
  average while it ran, the set-up's wall and CPU seconds (building the simulation and seeding
  its memories; generating the town is not counted), and wall ms per tick;
- peak RSS, the run file's size (its ``-wal`` included) and MB per persona-hour;
- memories per persona per game day (every memory written, the persona files' included,
  divided by N and the game days the run spans), and retrievals per persona-hour;
- the embedding cache: its hit rate, the texts embedded per game hour (misses) against its size,
  and the embedding's share of the run's wall time (one timer around ``CachedEmbedder.embed``);
- with ``--phases``, ms per tick by phase (the exclusive phase timers of
  ``benchmarks/throughput.py``: perceive, retrieve, embed, plan, reflect, converse, record,
  other), and the growth exponent of the tick time between consecutive sizes
  (``log(t2 / t1) / log(N2 / N1)``, 1 = linear).

Figures only; no assertions. On a machine shared with other jobs the wall figures grow and the
CPU figures much less: quote both, with the load.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE))

PHASES = ("perceive", "retrieve", "embed", "plan", "reflect", "converse", "record", "other")


def one(n: int, hours: float, embedder: str, phases: bool) -> dict:
    """Generate and simulate one town of ``n`` personas; returns its figures."""
    from throughput import PhaseTimer, instrument

    from town.config import load_config
    from town.embedding import CachedEmbedder, make_embedder
    from town.events import EventKind
    from town.generator import generate_town
    from town.recording import RunReader
    from town.scenario import load_scenario
    from town.simulation import Simulation

    timer = PhaseTimer()
    if phases:
        simulation = instrument(timer)
    else:  # the embedding's share alone: one timer, around the cache every embedding goes through
        simulation = Simulation
        CachedEmbedder.embed = timer.wrap("embed", CachedEmbedder.embed)
    with tempfile.TemporaryDirectory() as tmp:
        started = time.perf_counter()
        generate_town(n, 1, Path(tmp) / f"scale_{n}")
        scenario = load_scenario(Path(tmp) / f"scale_{n}")
        generated = time.perf_counter() - started
        config = load_config(None, {"embedder": embedder})
        cache = make_embedder(config.embedder)
        assert isinstance(cache, CachedEmbedder)
        path = Path(tmp) / "run.sqlite"
        started, cpu_started = time.perf_counter(), time.process_time()
        sim = simulation(scenario, config, run_path=path)
        setup, setup_cpu = time.perf_counter() - started, time.process_time() - cpu_started
        ticks = sim.clock.ticks_for(hours=hours)
        for phase in PHASES:
            timer.seconds[phase] = 0.0
        hits, misses = cache.hits, cache.misses
        started, cpu_started = time.perf_counter(), time.process_time()
        sim.run(ticks)
        sim.close()
        wall, cpu = time.perf_counter() - started, time.process_time() - cpu_started
        hits, misses = cache.hits - hits, cache.misses - misses
        size = sum(p.stat().st_size for p in Path(tmp).glob("run.sqlite*"))
        with RunReader(path) as reader:
            counts = reader.event_counts([EventKind.MEMORY, EventKind.RETRIEVAL])
    memories = sum(c for (_, kind), c in counts.items() if kind == EventKind.MEMORY.value)
    retrievals = sum(c for (_, kind), c in counts.items() if kind == EventKind.RETRIEVAL.value)
    return {"n": n, "hours": hours, "ticks": ticks, "wall": wall, "cpu": cpu, "setup": setup,
            "setup_cpu": setup_cpu, "generate": generated,
            "ms_per_tick": {phase: 1000 * s / ticks for phase, s in timer.seconds.items()},
            "rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, "file_mb": size / 1e6,
            "memories_per_day": memories / n / (hours / 24), "retrievals_per_hour": retrievals / n / hours,
            "hit_rate": hits / max(1, hits + misses), "misses_per_hour": misses / hours,
            "cache_size": cache.maxsize, "embed_share": timer.seconds["embed"] / wall}


def size_hours(text: str) -> tuple[int, float | None]:
    """``"250:48"`` -> (250, 48.0); ``"1000"`` -> (1000, None): the town's size and its game hours."""
    n, _, hours = text.partition(":")
    try:
        return int(n), (float(hours) if hours else None)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not N or N:HOURS (e.g. 250:48)") from None


def measured(command: list[str]) -> tuple[dict, float]:
    """Run ``command`` (one ``--one`` process); its figures and the mean 1-minute load average
    of the machine while it ran (sampled every 5 s), since other jobs inflate the wall time."""
    loads = [os.getloadavg()[0]]
    with subprocess.Popen(command, stdout=subprocess.PIPE, text=True) as proc:
        while True:
            try:
                out, _ = proc.communicate(timeout=5)
                break
            except subprocess.TimeoutExpired:
                loads.append(os.getloadavg()[0])
    if proc.returncode:
        raise SystemExit(f"scale.py: {' '.join(command)} failed with exit code {proc.returncode}")
    return json.loads(out.strip().splitlines()[-1]), sum(loads) / len(loads)


def main(argv: list[str] | None = None) -> int:
    """Print the table (one subprocess per size)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=size_hours, nargs="+", default=[(250, 48.0), (1000, 24.0)],
                        metavar="N[:HOURS]", help="towns and their game hours (default: 250:48 1000:24)")
    parser.add_argument("--hours", type=float, default=24.0, help="game hours of a size given without them")
    parser.add_argument("--embedder", default="minilm", choices=["minilm", "hashing"])
    parser.add_argument("--phases", action="store_true", help="time the tick's phases too (ms per tick)")
    parser.add_argument("--one", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.one:
        print(json.dumps(one(args.one, args.hours, args.embedder, args.phases)))
        return 0
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=HERE, capture_output=True, text=True).stdout
    print(f"from 07:00, scripted backend, {args.embedder} embedder; {os.cpu_count()} cores; "
          f"commit {commit.strip() or '?'}; load = mean 1-min load average during the run")
    head = (f"{'N':>5} {'hours':>5} {'wall s':>7} {'CPU s':>7} {'load':>5} {'setup s':>7} {'set CPU':>7} "
            f"{'ms/tick':>8} {'RSS MB':>7} {'file MB':>8} {'MB/p-h':>7} {'mem/p/day':>9} {'ret/p-h':>7} "
            f"{'hit':>6} {'miss/h':>7} {'cache':>6} {'embed':>6}")
    if args.phases:
        head += f" {'exp':>5} " + " ".join(f"{p[:7]:>7}" for p in PHASES)
    print(head, flush=True)
    prev = None
    for n, hours in args.sizes:
        hours = args.hours if hours is None else hours
        command = [sys.executable, __file__, "--one", str(n), "--hours", str(hours), "--embedder", args.embedder]
        row, load = measured(command + (["--phases"] if args.phases else []))
        per_tick = 1000 * row["wall"] / row["ticks"]
        line = (f"{n:>5} {hours:>5g} {row['wall']:>7.0f} {row['cpu']:>7.0f} {load:>5.1f} {row['setup']:>7.1f} "
                f"{row['setup_cpu']:>7.1f} {per_tick:>8.1f} {row['rss_mb']:>7.0f} {row['file_mb']:>8.0f} "
                f"{row['file_mb'] / n / hours:>7.4f} {row['memories_per_day']:>9.0f} "
                f"{row['retrievals_per_hour']:>7.1f} {row['hit_rate']:>6.1%} {row['misses_per_hour']:>7.0f} "
                f"{row['cache_size']:>6} {row['embed_share']:>6.0%}")
        if args.phases:
            same = prev is not None and prev[2] == hours
            exponent = f"{math.log(per_tick / prev[1]) / math.log(n / prev[0]):5.2f}" if same else f"{'':>5}"
            line += f" {exponent} " + " ".join(f"{row['ms_per_tick'][p]:>7.1f}" for p in PHASES)
        prev = (n, per_tick, hours)
        print(line, flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
