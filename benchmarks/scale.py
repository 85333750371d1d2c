"""What a large town costs: generated towns of N personas for a game day (scripted backend).

Run: ``.venv/bin/python benchmarks/scale.py [--sizes 250 1000] [--hours 24] [--embedder minilm]``

For each N it generates a town (``town.generator``, seed 1) and simulates it for ``--hours``
game hours with the scripted backend, recording to a run file in a temporary folder, in a fresh
process (so peak RSS is that N's alone), as ``python run.py simulate --town TOWN --hours H --out
RUN --quiet`` does. Per N it prints:

- wall and CPU seconds of the run (user + system, all threads) and of its set-up (building the
  simulation and seeding its memories; generating the town is not counted), and ms per tick;
- peak RSS, the run file's size (its ``-wal`` included) and MB per persona-hour;
- memories per persona per game day (every memory written, the persona files' included,
  divided by N and the game days the run spans), and retrievals per persona-hour;
- the embedding cache: its hit rate, the texts embedded per game hour (misses) against its size,
  and the embedding's share of the tick;
- with ``--phases``, ms per tick by phase (the exclusive phase timers of
  ``benchmarks/throughput.py``: perceive, retrieve, embed, plan, reflect, converse, record,
  other), and the growth exponent of the tick time between consecutive sizes
  (``log(t2 / t1) / log(N2 / N1)``, 1 = linear).

Figures only; no assertions. On a machine shared with other jobs the wall figures grow and the
CPU figures much less: quote both. A one-day run of 1,000 personas takes up to an hour of a core.
"""

from __future__ import annotations

import argparse
import json
import math
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
    simulation = instrument(timer) if phases else Simulation
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
            "cache_size": cache.maxsize, "embed_share": timer.seconds["embed"] / wall if phases else None}


def main(argv: list[str] | None = None) -> int:
    """Print the table (one subprocess per size)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[250, 1000])
    parser.add_argument("--hours", type=float, default=24.0)
    parser.add_argument("--embedder", default="minilm", choices=["minilm", "hashing"])
    parser.add_argument("--phases", action="store_true", help="time the tick's phases too (ms per tick)")
    parser.add_argument("--one", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.one:
        print(json.dumps(one(args.one, args.hours, args.embedder, args.phases)))
        return 0
    print(f"{args.hours:g} game hour(s) per town from 07:00, scripted backend, {args.embedder} embedder")
    head = (f"{'N':>5} {'wall s':>7} {'CPU s':>7} {'setup s':>7} {'ms/tick':>8} {'RSS MB':>7} {'file MB':>8} "
            f"{'MB/p-h':>7} {'mem/p/day':>9} {'ret/p-h':>7} {'hit':>6} {'miss/h':>7} {'cache':>6} {'embed':>6}")
    if args.phases:
        head += f" {'exp':>5} " + " ".join(f"{p[:7]:>7}" for p in PHASES)
    print(head)
    prev = None
    for n in args.sizes:
        command = [sys.executable, __file__, "--one", str(n), "--hours", str(args.hours), "--embedder", args.embedder]
        done = subprocess.run(command + (["--phases"] if args.phases else []), capture_output=True, text=True,
                              check=True)
        row = json.loads(done.stdout.strip().splitlines()[-1])
        per_tick = 1000 * row["wall"] / row["ticks"]
        share = "" if row["embed_share"] is None else f"{row['embed_share']:.0%}"
        line = (f"{n:>5} {row['wall']:>7.0f} {row['cpu']:>7.0f} {row['setup']:>7.1f} {per_tick:>8.1f} "
                f"{row['rss_mb']:>7.0f} {row['file_mb']:>8.0f} {row['file_mb'] / n / row['hours']:>7.4f} "
                f"{row['memories_per_day']:>9.0f} {row['retrievals_per_hour']:>7.1f} {row['hit_rate']:>6.1%} "
                f"{row['misses_per_hour']:>7.0f} {row['cache_size']:>6} {share:>6}")
        if args.phases:
            exponent = f"{math.log(per_tick / prev[1]) / math.log(n / prev[0]):5.2f}" if prev else f"{'':>5}"
            line += f" {exponent} " + " ".join(f"{row['ms_per_tick'][p]:>7.1f}" for p in PHASES)
        prev = (n, per_tick)
        print(line, flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
